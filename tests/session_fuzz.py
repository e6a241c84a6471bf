"""A world of Sessions for fuzzing ``Session.handle`` (tests/test_session_fuzz.py
runs it under Hypothesis; scripts/fuzz_session.py runs it long).

Roles: ``solo`` (two tabs of one page on one storage, so "another tab wrote"
is real), ``hotseat`` (two people on one phone), ``friends2`` (a host and one
guest's phone) and ``friends3`` (a host and two guests' phones), the phones
joined by the fake transport of tests/test_friends_session.py.  Every input
goes to one device through ``handle``: taps on what its screen offers (read
from ``Session.screen()`` as the page reads the DOM), form changes, actions
the screen does not offer (any ``do_*``/``on_*`` name, random or missing
fields), computer moves fresh and stale, timers, the network's texts
(replayed, mutated, garbage), devices going away and coming back, storage
written by another tab, and file imports.  :meth:`World.check` holds after
every step: every screen renders, and every save in a store replays."""
from __future__ import annotations

import json
import random

from domino.app import saves, storage
from domino.app.nodes import walk
from domino.app.session import MemoryStore, Session, answered
from domino.engine import records
from domino.table import default_settings, new_match
from tests.test_friends_session import Net

PATH = "/domino/"
ELEMENT_DATA = ("tile", "end", "open", "act", "game", "seat", "step", "index")   # domino/browser.py
ACTIONS = sorted(answered())
NAMES = ["Ana", "", "x" * 40, "‮evil", "<b>", "  ", "Bea"]
JUNK = [None, True, False, 0, -1, 1, 7, 10**12, 1.5, "", "x", "1", "0", "-1", "6-6", "9-9", "L", "R", "abc" * 30,
        [], [1], {}, {"a": 1}, {"seat": 0}, {"seat": 0, "draw": None}]
FIELDS = ["seq", "tile", "end", "open", "act", "game", "seat", "value", "values", "form", "conn", "text", "gen",
          "move", "key", "name", "status", "error", "sdp", "how", "field", "disabled", "testid", "reason"]
ROLES = ("solo", "hotseat", "friends2", "friends3")
KINDS = ("tap", "tap", "tap", "tap", "progress", "progress", "progress", "computer", "computer", "change",
         "unoffered", "stale", "tick", "net", "net", "away", "storage", "import", "escape")


class FuzzNet(Net):
    """The fake transport, tolerant of what a fuzzed device asks of it."""

    def command(self, who, cmd):
        if not isinstance(cmd, dict) or cmd.get("op") == "accept" and not self.joining:
            return
        super().command(who, cmd)


def read_form(tree) -> dict:
    """domino/browser.py's read_form over a screen tree."""
    form: dict = {"options": {}}
    for n in walk(tree):
        a = n[1]
        tid, fld = a.get("data-testid", ""), a.get("data-field")
        if fld == "option":
            form["options"][a.get("data-key", "")] = _value(n)
        elif tid == "options":
            form["show_options"] = "open" in a
        elif tid in ("partnership", "practice"):
            form[tid] = "checked" in a
        elif fld in ("game", "players", "target", "seat-kind", "seat-name"):
            form[tid] = _value(n)
    return form


def _value(n) -> str:
    if n[0] == "select":
        opts = [o for o in walk(n) if o[0] == "option"]
        sel = [o for o in opts if "selected" in o[1]] or opts[:1]
        return sel[0][1].get("value", "") if sel else ""
    return n[1].get("value", "")


def mutate(text, rng: random.Random):
    """A host's or a guest's real text, broken one way or another."""
    how = rng.randrange(8)
    if how == 0 or not isinstance(text, str):
        return text                                    # the same text again (a duplicate, late)
    if how == 1:
        return text[:rng.randrange(len(text) + 1)]     # cut
    if how == 2:
        return rng.choice(["", "{", "null", "[]", "5", '"x"', "{}", "\x00" * 10, "[" * 50])
    try:
        doc = json.loads(text)
    except ValueError:
        return text
    paths = []

    def visit(x, path):
        if len(paths) > 400:
            return
        paths.append(path)
        if isinstance(x, dict):
            for k, v in x.items():
                visit(v, path + [k])
        elif isinstance(x, list):
            for i, v in enumerate(x[:20]):
                visit(v, path + [i])
    visit(doc, [])
    path = rng.choice(paths[1:] or [[]])
    if not path:
        return json.dumps(rng.choice(JUNK))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if how == 3 and isinstance(parent, dict):
        del parent[last]
    elif how == 4 and isinstance(parent[last], int) and not isinstance(parent[last], bool):
        parent[last] = parent[last] + rng.choice([-1, 1, 1000, -10**6])
    else:
        parent[last] = rng.choice(JUNK)
    return json.dumps(doc)


def same_play(a, b) -> bool:
    ra, rb = records.to_record(a), records.to_record(b)
    ra.pop("seats", None)
    rb.pop("seats", None)
    return ra == rb


class World:
    """Devices, their stores and the wires; ``step(kind, rng)`` feeds one input."""

    def __init__(self, role: str, seed: int):
        self.role = role
        self.rng = random.Random(seed)
        self.injected: dict[int, str] = {}     # store id -> a save text another "tab" wrote (not ours)
        self.moves: list[tuple[int, dict]] = []    # (gen, move) of computer moves decided so far
        self.counts: dict[str, int] = {}
        self.net = None
        self.log: list = []
        if role in ("solo", "hotseat"):
            store = MemoryStore()
            self.stores = {"a": store, "b": store}
            self.devices = {n: Session(store, PATH, params={"seed": str(seed), "delay": "0"}) for n in "ab"}
            for s in self.devices.values():
                s.load_game()
            if role == "hotseat":
                self.feed("a", {"action": "start", "form": {"players": "2", "seat-kind-0": "human",
                                                            "seat-kind-1": "human"}})
        else:
            net = self.net = FuzzNet()
            net.joining = []
            host = net.host(seed=str(seed), grace=str(self.rng.choice([0, 5, 30])))
            if role == "friends3":
                host.new_settings = dict(host.new_settings, players=3)
            net.tap("host", action="play-friends")
            self.guests = ["ana", "bea"][:1 if role == "friends2" else 2]
            self.gstores = {}
            for i, n in enumerate(self.guests):
                self.gstores[n] = MemoryStore()
                self.join(n, i + 1)
            if self.rng.random() < 0.7:
                net.tap("host", action="start-table")
            self.devices = net.devices
        self.check()

    # ------------------------------------------------------------ plumbing
    def join(self, name: str, seat: int) -> None:
        """A friend opens the seat's link and the host pastes the reply code (when both can)."""
        net = self.net
        host = net.devices.get("host")
        link = host.link.link_for(seat) if host is not None and host.role == "host" else None
        if not link or "#join=" not in link:
            return
        g = net.session(name, self.gstores[name], join=link.split("#", 1)[1])
        if not g.link.code or not hasattr(net, "last_answer"):
            return
        net.joining = [net.last_answer]
        net.tap("host", action="accept-reply", value=g.link.code)
        net.joining = []
        if g.link.state == "open":
            net.tap(name, action="join-table", value=self.rng.choice(NAMES))

    def names(self) -> list[str]:
        return list(self.devices)

    def feed(self, name: str, inp: dict) -> None:
        s = self.devices[name]
        self.log = (self.log + [(name, inp)])[-30:]
        if self.net is not None:
            self.net.run(name, s.handle(inp))
            return
        store = self.stores[name]
        before = dict(store.data)
        s.handle(inp)
        for k in set(before) | set(store.data):       # the other tab hears of every write
            if before.get(k) != store.data.get(k):
                for other, t in self.devices.items():
                    if other != name:
                        t.handle({"action": "storage", "key": k})

    def store_of(self, name: str) -> MemoryStore:
        if self.net is None:
            return self.stores[name]
        return self.net.host_store if name == "host" else self.gstores[name]

    # ------------------------------------------------------------ inputs
    def step(self, kind: str, rng: random.Random) -> str:
        name = rng.choice(self.names())
        getattr(self, "in_" + kind)(name, rng)
        self.counts[kind] = self.counts.get(kind, 0) + 1
        return name

    def in_tap(self, name, rng):
        s = self.devices[name]
        tree = s.screen()
        els = [n for n in walk(tree) if "data-action" in n[1]]
        if not els:
            return
        el = rng.choice(els)
        a = el[1]
        inp = {"action": a["data-action"],
               "disabled": a.get("aria-disabled") == "true" or "disabled" in a}
        if "data-seq" in a:
            inp["seq"] = a["data-seq"]
        for k in ELEMENT_DATA:
            if "data-" + k in a:
                inp[k] = a["data-" + k]
        if a.get("data-with"):
            ids = a["data-with"].split()
            boxes = {n[1].get("id"): n for n in walk(tree) if n[1].get("id") in ids}
            values = {i: (_value(boxes[i]) if i in boxes else "") for i in ids}
            if rng.random() < 0.5:
                values[ids[0]] = rng.choice(NAMES + ["2.1ABC", "join=2.x.y", "1. nope"])
            inp["value"], inp["values"] = values[ids[0]], values
        if not s.at_table():
            inp["form"] = read_form(tree)
        self.feed(name, inp)

    def in_change(self, name, rng):
        s = self.devices[name]
        tree = s.screen()
        fields = [n for n in walk(tree) if n[1].get("data-field") not in (None, "import")]
        if not fields:
            return
        el = rng.choice(fields)
        form = read_form(tree)
        a = el[1]
        tid = a.get("data-testid", "")
        if el[0] == "select":
            opts = [o[1].get("value", "") for o in walk(el) if o[0] == "option"] or [""]
            value = rng.choice(opts)
        elif a.get("type") == "checkbox":
            value = "checked" not in a
        else:
            value = rng.choice(NAMES)
        if a["data-field"] == "option":
            form["options"][a.get("data-key", "")] = value
        elif tid:
            form[tid] = value
        self.feed(name, {"action": "change", "field": a["data-field"], "form": form, "testid": tid,
                         "value": str(value)})

    def in_unoffered(self, name, rng):
        inp = {"action": rng.choice(ACTIONS + ["", "nope", "__init__"])}
        for f in rng.sample(FIELDS, rng.randrange(4)):
            inp[f] = rng.choice(JUNK)
        s = self.devices[name]
        if rng.random() < 0.5 and s.ctrl is not None:
            inp["seq"] = str(s.ctrl.match.seq)
        self.feed(name, inp)

    def in_computer(self, name, rng):
        s = self.devices[name]
        if not s.wants_computers():
            return
        move = s.computers.think().step(10**6)
        self.moves = (self.moves + [(s.computers.gen, move)])[-50:]
        s.computers.running = True
        self.feed(name, {"action": "computer-move", "move": move, "gen": s.computers.gen})
        s.computers.running = False

    def in_stale(self, name, rng):
        s = self.devices[name]
        if not self.moves:
            return
        gen, move = rng.choice(self.moves)
        self.feed(name, {"action": "computer-move", "move": move, "gen": rng.choice([gen, s.computers.gen])})

    def in_progress(self, name, rng):
        """What a player would do next: their move, Next, Start, the next match."""
        s = self.devices[name]
        c = s.ctrl
        if s.safety.panel is not None or s.safety.notes:
            self.feed(name, {"action": rng.choice(["safe-ok", "keep-mine", "continue-here", "save-later",
                                                   "turn-retry"])})
            return
        if s.busy:
            return
        if c is None or not s.at_table():
            if s.role == "host" and s.link.table.can_start():
                self.feed(name, {"action": "start-table"})
            elif s.role == "guest" and s.link.state == "open" and not s.link.ready:
                self.feed(name, {"action": "join-table", "value": ""})
            elif c is not None:
                self.feed(name, {"action": "continue"})
            elif s.role is None:
                self.feed(name, {"action": "start", "form": read_form(s.screen())})
            return
        seq = str(c.match.seq)
        if c.handoff() is not None:
            self.feed(name, {"action": "handoff", "seq": seq})
        elif c.match.outcome:
            self.feed(name, {"action": "new-match", "seq": seq})
        elif c.match.phase == "hand-over":
            self.feed(name, {"action": "next-hand", "seq": seq})
        elif c.my_turn():
            legal = c.legal()
            if not legal:
                return
            a = rng.choice(legal)
            if "play" in a:
                self.feed(name, {"action": "tile", "tile": a["play"], "seq": seq})
                if c.selected and "end" in a:
                    self.feed(name, {"action": "end", "end": a["end"], "seq": seq})
            else:
                self.feed(name, {"action": "draw", "seq": seq})

    def in_tick(self, name, rng):
        if self.net is not None:
            self.net.clock.now += rng.choice([0.3, 2, 6, 13, 31, 121])
        self.feed(name, {"action": "net-tick"})

    def in_net(self, name, rng):
        net = self.net
        if net is None or not net.sent:
            return
        frm, to, text = rng.choice(net.sent[-200:])
        text = mutate(text, rng)
        for (dev, conn), (other, _c) in list(net.pairs.items()):
            if dev == to and other == frm and dev in net.devices:
                net.feed(dev, {"action": "net-message", "conn": conn, "text": text})
                net.run(dev, type("O", (), {"net": []})())
                return

    def in_away(self, name, rng):
        """A guest's phone goes away without a word, or comes back through a new invitation."""
        if self.net is None:
            return
        g = rng.choice(self.guests)
        if g in self.net.devices:
            self.net.drop(g)
            return
        host = self.net.devices["host"]
        if host.role is None:
            return
        seat = self.guests.index(g) + 1
        self.net.tap("host", action="invite-again", seat=str(seat))
        self.join(g, seat)

    def in_storage(self, name, rng):
        store = self.store_of(name)
        key = rng.choice([storage.key(PATH, storage.SAVE), storage.key(PATH, storage.SETTINGS), f"domino:{PATH}:net",
                          f"domino:{PATH}:stats", f"domino:{PATH}:undo"])
        how = rng.randrange(4)
        if how == 0:
            store.delete(key)
        elif how == 1 and key == storage.key(PATH, storage.SAVE):
            m = new_match(default_settings("en"), rng.randrange(1, 999), "en")
            store.set(key, saves.dump(m, "another-tab"))
        else:
            store.set(key, rng.choice(["{", "null", '{"format":"domino-save/1"}', "[]", "x" * 50]))
        if key == storage.key(PATH, storage.SAVE):
            text = store.get(key)
            if text is not None:
                self.injected[id(store)] = text
        self.feed(name, {"action": "storage", "key": rng.choice([key, None, 5])})

    def in_import(self, name, rng):
        s = self.devices[name]
        if s.ctrl is not None and hasattr(s.ctrl.match, "records") and type(s.ctrl.match).__name__ == "Match":
            text = saves.export_text(s.ctrl.match)
        else:
            text = saves.export_text(new_match(default_settings("es"), rng.randrange(1, 999), "es"))
        how = rng.randrange(4)
        inp = {"action": "import", "name": rng.choice(["m.json", "", "x" * 200])}
        if how == 1:
            text = text[:rng.randrange(len(text))]
        elif how == 2:
            text = mutate(text, rng)
        if how == 3:
            inp["error"] = rng.choice(["size", "NotReadableError", 5])
        else:
            inp["text"] = text
        self.feed(name, inp)

    def in_escape(self, name, rng):
        self.feed(name, {"action": "escape"})

    # ------------------------------------------------------------ what always holds
    def check(self) -> None:
        for name, s in list(self.devices.items()):
            s.screen()
            s.live_text()
            s.focus_target(True)
            s.snapshot((400, 300))
            store = self.store_of(name)
            text = store.get(storage.key(PATH, storage.SAVE))
            if text is None or text == self.injected.get(id(store)):
                continue
            m = saves.load(text)      # raises CorruptSave: the app wrote a save that does not replay
            again = records.from_record(json.loads(text)["record"])
            assert again.state_key() == m.state_key()
            if (s.guided.step is None and s.ctrl is not None and s.safety.panel is None and not s.safety.save_failed
                    and s.known == saves.header(text) and s.known is not None and s.known[0] == s.match_id):
                # (the names may differ: a tab that changed language renames default names without a move)
                assert same_play(m, s.ctrl.match), (
                    f"{name}: the save ({m.seq}) is not the match on the table ({s.ctrl.match.seq})")

