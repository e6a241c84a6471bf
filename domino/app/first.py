"""The first visit's screen, built before the player arrives.  Plain Python (no js).

A first-time visitor (no saved match, no settings, no snapshot) would wait
for the 13 MB runtime with nothing to do.  ``scripts/build_first.py`` runs
this module under CPython at build time (``scripts/setup``) and writes, per
language, ``static/first/<lang>.json``; ``static/first.js`` paints it at once
and makes it usable before Python is up; ``domino/browser.py`` takes it over.

Everything in it is what :class:`Session` draws on a first visit, driven
through :meth:`Session.handle` exactly as taps would drive it:

* ``screens``: the new-game screen for every (game, players) the form can
  show, with that game's defaults (the first one, ``start``, is the screen
  a first visit shows);
* ``moves``: for each of them, which screen a change of the game or of the
  number of players leads to (as the session decides: a new game starts
  from its defaults, a player count it does not allow is brought into range);
* ``help``: the rules dialog of each game, as the help button opens it;
* ``words``: what the static screen says while a tap waits for the game;
* ``texts``: what static/first.js needs to keep the texts that follow the
  fields right (the names' placeholders, the one line by Play, the options'
  "changed" badge, the table code's line), written by the code that says
  them live: the names blank seats get (``names``, from
  ``domino.table.seat_names``: first.js takes them from there and only adds
  what typed names do; tests/test_first_screen.py runs both on the same
  seats), the templates of the lines, the badge for each count;
* ``codes``: for each screen, its table code at each target with the game's
  own options (another mix of options has a code only Python can tell:
  first.js shows it as pending);
* ``targets``: each screen's target (None: a game of rounds).

The trees share their subtrees (most of the screen is the same in every
variant): ``nodes`` lists each distinct node once, as ``[tag, {attrs},
[children]]`` where a child is a string (text) or the index of a node.

    {"format": "domino-first/1", "lang": "es", "title": "...", "start": "draw/2",
     "screens": {"draw/2": 41, ...}, "moves": {"draw/2": {"game=block": "block/2",
     "players=3": "draw/3", ...}}, "help": {"draw": 97, ...}, "words": {...},
     "texts": {...}, "codes": {"draw/2": {"100": "100pt", ...}}, "targets": {"draw/2": 100, ...},
     "nodes": [...]}
"""
from __future__ import annotations

import json

from domino.app.i18n import LANGS, t
from domino.app.nodes import Node
from domino.app.session import MemoryStore, Session
from domino.app.settings import games, kind_label
from domino.engine.match import HUMAN
from domino.engine.rules import PRESETS
from domino.table import REMOTE, computer_kinds, game_options, persona, rules_for, seat_names, target_option

FORMAT = "domino-first/1"
PATH = "/first-visit/"   # any page path: a first visit's store is empty


def fresh(lang: str) -> Session:
    """The session of a first visit (empty storage, the browser's language)."""
    s = Session(MemoryStore(), PATH, browser_lang=lang)
    s.load_game()
    return s


def key_of(s: Session) -> str:
    return f"{s.new_settings['game']}/{s.new_settings['players']}"


def change(s: Session, field: str, value: str) -> Session:
    """The form's ``field`` set to ``value``, as the page sends it."""
    form = {"options": {}, "game": s.new_settings["game"], "players": str(s.new_settings["players"])}
    form[field] = value
    s.handle({"action": "change", "field": field, "form": form, "testid": field, "value": value})
    return s


def at(lang: str, game: str, players: int) -> Session:
    """A first visit's session after choosing ``game`` and then ``players``."""
    s = fresh(lang)
    if game != s.new_settings["game"]:
        change(s, "game", game)
    if players != s.new_settings["players"]:
        change(s, "players", str(players))
    return s


def variants() -> list[tuple[str, int]]:
    return [(g["id"], n) for g in games() for n in PRESETS[g["id"]].choices("players")]


class _Nodes:
    """Each distinct subtree once (hash-consing), children by index."""

    def __init__(self) -> None:
        self.nodes: list = []
        self.index: dict[str, int] = {}

    def add(self, node) -> int | str:
        if isinstance(node, str):
            return node
        tag, attrs, children = node
        item = [tag, dict(attrs), [self.add(c) for c in children]]
        text = json.dumps(item, separators=(",", ":"), ensure_ascii=False)
        if text not in self.index:
            self.index[text] = len(self.nodes)
            self.nodes.append(item)
        return self.index[text]


def expand(data: dict, ref) -> Node:
    """A tree of the file back (what static/first.js builds)."""
    if isinstance(ref, str):
        return ref
    tag, attrs, children = data["nodes"][ref]
    return (tag, attrs, [expand(data, c) for c in children])


def blank_names(lang: str) -> dict:
    """The names ``domino.table.seat_names`` gives seats left blank, asked of
    it for a full table of one kind: a person's seat by its number
    (``people``), and for each level the names its blank seats take in turn
    (``computers``; a name a person typed is skipped, static/first.js does
    that).  As many as the largest table has seats: enough for any table."""
    seats = max(n for _, n in variants())

    def table_of(kind: str) -> list[str]:
        return seat_names({"players": seats, "seats": [{"kind": kind, "name": ""}] * seats}, lang)
    return {"people": {k: table_of(k) for k in (HUMAN, REMOTE)},
            "computers": {k: table_of(k) for k in computer_kinds()}}


def texts(lang: str) -> dict:
    """What static/first.js says the fields' texts with (see the module's docstring)."""
    seats = max(n for _, n in variants())
    most = max((len(game_options(g["id"])) for g in games()), default=0)
    return {
        "people": [HUMAN, REMOTE],
        "player": [t(lang, "name.player", n=i + 1) for i in range(seats)],
        "names": blank_names(lang),
        "placeholder": {k: persona(k, 0) or kind_label(lang, k) for k in computer_kinds()},
        "games": {g["id"]: g["name"][lang] for g in games()},
        "quick": {"summary": t(lang, "quick.summary"), "rounds": t(lang, "quick.summary_rounds"),
                  "target": t(lang, "quick.target")},
        "changed": {str(n): t(lang, "new.options_changed", n=n) for n in range(1, most + 1)},
        "code": t(lang, "new.lobby_title"), "code_pending": t(lang, "first.code_pending"),
    }


def codes(s: Session) -> dict[str, str]:
    """The table code of the screen of ``s`` at each of its targets (its game's options)."""
    settings = dict(s.new_settings)
    targets = (target_option(settings["game"]) or {}).get("values") or [settings["target"]]
    out = {}
    for v in targets:
        settings["target"] = v
        out["" if v is None else str(v)] = rules_for(settings).lobby_code()
    return out


def build(lang: str) -> dict:
    nodes = _Nodes()
    first = fresh(lang)
    screens, moves, help_, codes_, targets = {}, {}, {}, {}, {}
    for game, n in variants():
        s = at(lang, game, n)
        key = key_of(s)
        if key != f"{game}/{n}":
            raise ValueError(f"the form cannot show {game} at {n} players")
        screens[key] = nodes.add(s.screen())
        codes_[key] = codes(s)
        targets[key] = s.new_settings["target"]
        moves[key] = {}
        for g in games():
            moves[key][f"game={g['id']}"] = key_of(change(at(lang, game, n), "game", g["id"]))
        for m in PRESETS[game].choices("players"):
            moves[key][f"players={m}"] = key_of(change(at(lang, game, n), "players", str(m)))
        s.handle({"action": "help", "game": game})
        dialog = s.screen()[2][-1]
        if dialog[1].get("data-testid") != "help-dialog":
            raise ValueError("the help button opened no dialog")
        help_[game] = nodes.add(dialog)
    return {"format": FORMAT, "lang": lang, "title": t(lang, "app.title"), "start": key_of(first),
            "screens": screens, "moves": moves, "help": help_,
            "words": {"start": t(lang, "first.pending_start"), "other": t(lang, "first.pending_other")},
            "texts": texts(lang), "codes": codes_, "targets": targets,
            "nodes": nodes.nodes}


def dumps(data: dict) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def all_langs() -> dict[str, str]:
    return {lang: dumps(build(lang)) for lang in LANGS}
