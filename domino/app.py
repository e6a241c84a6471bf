"""The app's controller and screens, in plain Python (no js: tested in CPython).

``domino/ui.py`` owns the browser: it turns the trees built here into DOM,
binds one delegated handler, keeps the save and runs the computer seats.
Everything it decides goes through :class:`Controller` and the seat views
and actions of :class:`domino.match.Match`: there is no copy of the rules
here.

A screen is a tree of nodes ``(tag, attrs, children)`` like
:mod:`domino.render`'s; an ``svg`` node starts the SVG namespace.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from . import helptext, players
from .i18n import t
from .match import Match
from .rules import PRESETS, RulesError, games_catalogue, make_rules

Node = tuple

try:  # the table, drawn by domino.render
    from . import render
except ImportError:  # pragma: no cover - before render.py lands
    render = None

ai = None  # domino.ai (levels, hints): imported by load_ai() when first needed


def load_ai():
    """Import the computer players on first use (the browser does it just
    after the first screen is up, so that screen does not wait for them)."""
    global ai
    if ai is None:
        players.load_levels()
        from . import ai as module
        ai = module
    return ai

HUMAN = "human"


# ----------------------------------------------------------------- tree helpers
def h(tag: str, attrs: dict | None = None, *children: Any) -> Node:
    out: list = []
    for c in children:
        if c is None or c is False:
            continue
        if isinstance(c, list):
            out.extend(x for x in c if x is not None and x is not False)
        else:
            out.append(c)
    return (tag, {k: str(v) for k, v in (attrs or {}).items() if v is not None}, out)


def walk(node):
    """Every node of a tree (depth first)."""
    if isinstance(node, str):
        return
    yield node
    for c in node[2]:
        yield from walk(c)


def find(node, **attrs) -> list:
    want = {k.replace("_", "-"): v for k, v in attrs.items()}
    return [n for n in walk(node) if all(n[1].get(k) == v for k, v in want.items())]


def text_of(node) -> str:
    if isinstance(node, str):
        return node
    return "".join(text_of(c) for c in node[2])


# ----------------------------------------------------------------- catalogue
@lru_cache(maxsize=1)
def _catalogue() -> tuple:
    """games_catalogue() once (it resolves every preset); read only."""
    return tuple(games_catalogue())


def games() -> list[dict]:
    """Every preset, Draw and Block first."""
    cat = list(_catalogue())
    first = [g for g in cat if g["id"] in ("draw", "block")]
    first.sort(key=lambda g: ("draw", "block").index(g["id"]))
    return first + [g for g in cat if g["id"] not in ("draw", "block")]


def option(game: str, key: str) -> dict:
    for g in _catalogue():
        if g["id"] == game:
            for o in g["options"]:
                if o["key"] == key:
                    return o
    raise KeyError(key)


#: Options with a field of their own on the new-game screen (players, target,
#: the partnership checkbox) and pips, a view setting (the toolbar), not a rule.
OWN_FIELDS = ("players", "target", "partnership", "pips")


def game_options(game: str) -> list[dict]:
    """The options of the "Options" section for a game: every option that
    games_catalogue() lists as not locked and with more than one value, but
    those with a field of their own (OWN_FIELDS).  Catalogue order."""
    for g in _catalogue():
        if g["id"] == game:
            return [o for o in g["options"]
                    if not o["locked"] and len(o["values"]) > 1 and o["key"] not in OWN_FIELDS]
    return []


def enc(value: Any) -> str:
    """An option value as a <select> value: booleans "on"/"off", else str."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def dec(values: list, text: Any) -> Any:
    """The value of ``values`` that ``text`` (a <select> value, or a stored
    JSON value) stands for; None when none does."""
    for v in values:
        if (type(text) is type(v) and text == v) or (isinstance(text, str) and enc(v) == text):
            return v
    return None


def option_label(lang: str, key: str) -> str:
    return t(lang, "opt." + key)


def option_value_label(lang: str, key: str, value: Any) -> str:
    if key == "hand_size" and isinstance(value, int):
        return t(lang, "opt.hand_size.n", n=value)
    if key == "set":
        return t(lang, "opt.set.n", n=value)
    if isinstance(value, bool):
        return t(lang, "opt.on" if value else "opt.off")
    return t(lang, f"opt.{key}.{value}")


def default_options(game: str) -> dict:
    return {o["key"]: o["default"] for o in game_options(game)}


def computer_kinds() -> list[str]:
    """The computer levels offered: every registered player but "random";
    before the AI lands, "random" (labelled "computer")."""
    return list(players.LEVELS)


def kind_label(lang: str, kind: str) -> str:
    """"Person", "Computer — Lola (medium)"."""
    if kind in ("easy", "medium", "hard"):
        name = persona(kind, 0)
        return t(lang, "kind.persona", name=name, level=t(lang, "level." + kind)) if name else \
            t(lang, "kind.other", level=t(lang, "level." + kind))
    if kind in ("human", "random"):
        return t(lang, "kind." + kind)
    return t(lang, "kind.other", level=kind)


def partnership_choice(game: str, n_players: int) -> str:
    """"fixed" (always partners at 4), "option" or "none"."""
    if n_players != 4:
        return "none"
    if game in ("latin", "classic"):
        return "fixed"
    return "option" if True in option(game, "partnership")["values"] else "none"


def persona(kind: str, index: int) -> str | None:
    table = getattr(players, "PERSONAS", None)
    if isinstance(table, dict):
        names = table.get(kind)
        if isinstance(names, dict) and names.get("name"):   # players.PERSONAS
            return str(names["name"])
        if isinstance(names, (list, tuple)) and names:
            return str(names[index % len(names)])
        if isinstance(names, str):
            return names
    return FALLBACK_NAMES[index % len(FALLBACK_NAMES)]


FALLBACK_NAMES = ("Rita", "Tomás", "Lola")


def default_settings(lang: str = "en") -> dict:
    comp = computer_kinds()
    level = "medium" if "medium" in comp else comp[0]
    return {"game": "draw", "players": 2, "partnership": False, "target": 100,
            "options": default_options("draw"), "show_options": False,
            "seats": [{"kind": HUMAN, "name": ""}, {"kind": level, "name": ""},
                      {"kind": level, "name": ""}, {"kind": level, "name": ""}]}


def normalize_settings(s: Any, lang: str = "en") -> dict:
    """Make any stored/posted settings valid for the new-game screen."""
    base = default_settings(lang)
    if not isinstance(s, dict):
        return base
    out = dict(base)
    game = s.get("game")
    out["game"] = game if game in PRESETS else "draw"
    counts = PRESETS[out["game"]].choices("players")
    try:
        n = int(s.get("players", 2))
    except (TypeError, ValueError):
        n = 2
    out["players"] = n if n in counts else counts[0]
    out["partnership"] = bool(s.get("partnership", False))
    targets = option(out["game"], "target")
    try:
        tg = int(s.get("target", targets["default"]))
    except (TypeError, ValueError):
        tg = targets["default"]
    out["target"] = tg if tg in targets["values"] else targets["default"]
    stored = s.get("options") if isinstance(s.get("options"), dict) else {}
    opts = default_options(out["game"])
    for o in game_options(out["game"]):
        v = dec(o["values"], stored.get(o["key"]))
        if v is not None:
            opts[o["key"]] = v
    out["options"] = opts
    out["show_options"] = bool(s.get("show_options", False))
    seats = s.get("seats") if isinstance(s.get("seats"), list) else []
    kinds = [HUMAN] + computer_kinds()
    fixed = []
    for i in range(4):
        src = seats[i] if i < len(seats) and isinstance(seats[i], dict) else base["seats"][i]
        kind = src.get("kind") if src.get("kind") in kinds else base["seats"][i]["kind"]
        if kind not in kinds:
            kind = kinds[-1]
        fixed.append({"kind": kind, "name": str(src.get("name", ""))[:24]})
    out["seats"] = fixed
    return out


def rules_error_text(lang: str, e: RulesError) -> str:
    """A RulesError in the player's language (the engine's English as a fallback)."""
    key = "rules." + getattr(e, "code", "")
    params = dict(getattr(e, "params", {}) or {})
    option = params.pop("key", None)
    if option:
        params["option"] = t(lang, "opt." + option)
    text = t(lang, key, **params)
    return str(e) if text == key else text


def seat_names(settings: dict, lang: str) -> list[str]:
    names = []
    n_comp = 0
    for i in range(settings["players"]):
        s = settings["seats"][i]
        name = s["name"].strip()
        if s["kind"] != HUMAN:
            n_comp += 1
        if not name:
            if s["kind"] == HUMAN:
                name = t(lang, "name.player", n=i + 1)
            else:
                name = persona(s["kind"], n_comp - 1) or t(lang, "name.computer", n=n_comp)
        names.append(name)
    # unique names: "Ana" and "Ana" would make the hand-off screen ambiguous
    seen: dict[str, int] = {}
    original = list(names)
    for i, nm in enumerate(original):
        if original.count(nm) > 1:
            seen[nm] = seen.get(nm, 0) + 1
            names[i] = f"{nm} {seen[nm]}"
    return names


def rules_for(settings: dict):
    game = settings["game"]
    n = settings["players"]
    opts: dict = {"players": n, "target": settings["target"]}
    offered = {o["key"] for o in game_options(game)}
    opts.update({k: v for k, v in (settings.get("options") or {}).items() if k in offered})
    if partnership_choice(game, n) == "option" and settings.get("partnership"):
        opts["partnership"] = True
    return make_rules(game, **opts)


def new_match(settings: dict, seed: Any, lang: str = "en") -> Match:
    """New-game settings -> a Match (raises RulesError when not playable)."""
    settings = normalize_settings(settings, lang)
    rules = rules_for(settings)
    names = seat_names(settings, lang)
    seats = [{"name": names[i], "kind": settings["seats"][i]["kind"]} for i in range(rules.players)]
    return Match(rules, seed=seed, seats=seats)


# ----------------------------------------------------------------- turn logic
def humans(match: Match) -> list[int]:
    return [i for i, s in enumerate(match.seats) if s["kind"] == HUMAN]


def is_computer_turn(match: Match) -> bool:
    return match.phase == "play" and match.turn is not None and match.seats[match.turn]["kind"] != HUMAN


def needs_handoff(match: Match, viewer: int | None) -> int | None:
    """The seat to hand the device to, or None.  Only with 2+ humans, when the
    human to move is not the one who last saw the screen."""
    hs = humans(match)
    if len(hs) < 2 or match.phase != "play":
        return None
    turn = match.turn
    if turn is None or match.seats[turn]["kind"] != HUMAN:
        return None
    return None if turn == viewer else turn


def face_up_seat(match: Match, viewer: int | None) -> int | None:
    """Whose tiles are shown: the only human, else the last human who saw the
    screen (None: nobody's, e.g. before the first hand-off)."""
    hs = humans(match)
    if len(hs) == 1:
        return hs[0]
    if viewer in hs:
        return viewer
    return None


def tile_actions(legal: list[dict], tile: str) -> list[dict]:
    return [a for a in legal if a.get("play") == tile]


def ends_of(actions: list[dict]) -> list[str]:
    out: list[str] = []
    for a in actions:
        e = a.get("end")
        if e is not None and e not in out:
            out.append(e)
    return out


def fives_gained(before: list[int], after: list[int]) -> list[tuple[int, int]]:
    return [(i, b - a) for i, (a, b) in enumerate(zip(before, after)) if b > a]


# ----------------------------------------------------------------- messages
def _segments(history: list[dict]) -> list[list[dict]]:
    segs: list[list[dict]] = []
    for a in history:
        if segs and segs[-1][0].get("seat") == a.get("seat") and "play" not in segs[-1][-1]:
            segs[-1].append(a)
        else:
            segs.append([a])
    return segs


def describe_segment(seg: list[dict], names: list[str], lang: str) -> str:
    name = names[seg[0]["seat"]]
    draws = sum(1 for a in seg if "draw" in a)
    play = next((a["play"] for a in seg if "play" in a), None)
    passes = any(a.get("pass") for a in seg)
    if play and draws:
        return t(lang, "msg.drew_played", name=name, n=draws, tile=play)
    if play:
        return t(lang, "msg.played", name=name, tile=play)
    if passes and draws:
        return t(lang, "msg.drew_passes", name=name, n=draws)
    if passes:
        return t(lang, "msg.passes", name=name)
    return t(lang, "msg.drew", name=name, n=draws)


def describe(history: list[dict], names: list[str], lang: str, limit: int = 3) -> str:
    """A short line for the latest moves: "Ana drew 2 and played 4-6 · Luis passes".

    The latest turn, and when it was no play (draws, passes), the turns back
    to the latest play."""
    segs = _segments(history)
    if not segs:
        return ""
    take = [segs[-1]]
    k = len(segs) - 2
    while k >= 0 and not any("play" in a for a in take[0]) and len(take) < limit:
        take.insert(0, segs[k])
        k -= 1
    return t(lang, "msg.sep").join(describe_segment(s, names, lang) for s in take)


def side_name(match_view: dict, side: int, lang: str) -> str:
    seats = match_view["sides"][side]
    names = match_view["names"]
    if len(seats) == 2:
        return t(lang, "game.side", a=names[seats[0]], b=names[seats[1]])
    return names[seats[0]]


def seat_points(view: dict) -> list[dict]:
    """Per seat: this hand's points and the running total of its side (in
    partnership both seats of a side show the side's numbers)."""
    res = view.get("result") or {}
    sides = view["sides"]
    side_of = {s: i for i, ss in enumerate(sides) for s in ss}
    rows = []
    for seat in range(view["players"]):
        sd = side_of[seat]
        rows.append({
            "seat": seat, "side": sd,
            "points": (res.get("points") or [0] * len(sides))[sd],
            "total": (res.get("totals") or view["scores"])[sd],
            "count": (res.get("counts") or view["counts"])[seat],
            "fives": (res.get("fives") or view.get("fives") or [0] * len(sides))[sd],
            "tiles": (res.get("hands") or [[]] * view["players"])[seat],
        })
    return rows


# ----------------------------------------------------------------- controller
class Controller:
    """UI state around one Match: who is looking, what is selected, the
    message line.  ``click(...)`` methods return True when something changed."""

    def __init__(self, match: Match, lang: str = "en", pips: str = "coloured", viewer: int | None = None):
        self.match = match
        self.lang = lang
        self.pips = pips
        self.viewer = viewer
        self.selected: str | None = None     # tile waiting for a place
        self.chosen_end: str | None = None   # Matador: end chosen, waiting for "open"
        self.note = ""                       # hint / fives
        self.flash: list[tuple[int, int]] = []   # fives just scored (side, points)
        self.confirm_resign = False
        hs = humans(match)
        if len(hs) == 1:
            self.viewer = hs[0]

    # --- state
    @property
    def seq(self) -> int:
        return self.match.seq

    def handoff(self) -> int | None:
        return needs_handoff(self.match, self.viewer)

    def face_up(self) -> int | None:
        if self.handoff() is not None:
            return None
        return face_up_seat(self.match, self.viewer)

    def view(self) -> dict:
        seat = self.face_up()
        if seat is None:
            seat = self.match.turn if self.match.turn is not None else 0
            v = self.match.view(seat)
            v = dict(v, hand=[], legal=[])  # nobody's tiles on the table view
            return v
        return self.match.view(seat)

    def my_turn(self) -> bool:
        m = self.match
        return (m.phase == "play" and m.turn is not None and m.turn == self.face_up()
                and m.seats[m.turn]["kind"] == HUMAN)

    def legal(self) -> list[dict]:
        return self.match.legal_actions() if self.my_turn() else []

    def playable(self) -> set[str]:
        return {a["play"] for a in self.legal() if "play" in a}

    def message(self) -> str:
        v = self.match.view(self.match.turn if self.match.turn is not None else 0)
        names = v["names"]
        if self.match.outcome and self.match.outcome.get("reason") == "resign" and self.match.resigned:
            return t(self.lang, "msg.resigned", name=names[self.match.resigned["seat"]])
        text = describe(v["history"], names, self.lang)
        if not text and self.match.phase == "play" and self.match.turn is not None:
            text = t(self.lang, "game.start_hand", name=names[v["opener"]])
        return text

    def status(self) -> str:
        m = self.match
        if m.phase != "play" or m.turn is None:
            return ""
        name = m.seats[m.turn]["name"]
        if self.selected:
            return t(self.lang, "game.choose_end", tile=self.selected)
        if m.seats[m.turn]["kind"] != HUMAN:
            return t(self.lang, "game.thinking", name=name)
        if self.my_turn():
            return t(self.lang, "game.your_turn", name=name)
        return t(self.lang, "game.turn", name=name)

    # --- input
    def continue_handoff(self) -> bool:
        seat = self.handoff()
        if seat is None:
            return False
        self.viewer = seat
        self.clear()
        return True

    def clear(self) -> None:
        self.selected = None
        self.chosen_end = None

    def tap_tile(self, tile: str) -> list[dict] | None:
        """A tap on a hand tile: plays it when it fits one way; selects it when
        it fits several places (returns None)."""
        acts = tile_actions(self.legal(), tile)
        if not acts:
            return None
        if len(acts) == 1:
            return self.apply(acts[0])
        ends = ends_of(acts)
        if len(ends) == 1 and self.selected == tile:
            return self.tap_end(ends[0])
        self.selected = tile
        self.chosen_end = None
        if len(ends) == 1:   # one place, two ways round (Matador): ask which stays open
            self.chosen_end = ends[0]
        return None

    def targets(self) -> dict[str, str]:
        if not self.selected or self.chosen_end:
            return {}
        ends = ends_of(tile_actions(self.legal(), self.selected))
        return {e: t(self.lang, "game.end_label", tile=self.selected,
                     where=t(self.lang, "game.end." + e) if e in "WENS" else e) for e in ends}

    def open_choices(self) -> list[int]:
        if not self.selected or not self.chosen_end:
            return []
        return [a["open"] for a in tile_actions(self.legal(), self.selected)
                if a.get("end") == self.chosen_end and "open" in a]

    def tap_end(self, end: str) -> list[dict] | None:
        if not self.selected:
            return None
        acts = [a for a in tile_actions(self.legal(), self.selected) if a.get("end") == end]
        if not acts:
            return None
        if len(acts) == 1:
            return self.apply(acts[0])
        self.chosen_end = end
        return None

    def tap_open(self, n: int) -> list[dict] | None:
        acts = [a for a in tile_actions(self.legal(), self.selected or "")
                if a.get("end") == self.chosen_end and a.get("open") == n]
        return self.apply(acts[0]) if acts else None

    def draw_action(self) -> dict | None:
        return next((a for a in self.legal() if "draw" in a), None)

    def apply(self, action: dict) -> list[dict]:
        before = list(self.match.view(0)["fives"]) if self.match.phase == "play" else []
        hand_no = self.match.hand_no
        done = self.match.apply(action)
        self.after(done, before, hand_no)
        return done

    def after(self, done: list[dict], before: list[int], hand_no: int) -> None:
        self.clear()
        self.note = ""
        self.flash = []
        if before and self.match.hand_no == hand_no:
            after = self.match.view(0)["fives"]
            self.flash = fives_gained(before, after)

    def resign(self) -> int | None:
        """The seat that resigns: the human to move, else the one looking."""
        m = self.match
        if m.outcome:
            return None
        seat = m.turn if (m.turn is not None and m.seats[m.turn]["kind"] == HUMAN) else self.face_up()
        if seat is None:
            hs = humans(m)
            if not hs:
                return None
            seat = hs[0]
        m.apply({"seat": seat, "resign": True})
        self.clear()
        self.confirm_resign = False
        return seat

    def resign_seat(self) -> int | None:
        m = self.match
        if m.turn is not None and m.seats[m.turn]["kind"] == HUMAN:
            return m.turn
        seat = self.face_up()
        if seat is None and humans(m):
            seat = humans(m)[0]
        return seat

    def next_hand(self) -> bool:
        if self.match.phase != "hand-over":
            return False
        self.match.next_hand()
        self.clear()
        self.flash = []
        self.note = ""
        return True

    def hint(self) -> str:
        if not self.my_turn():
            return ""
        try:
            hnt = load_ai().hint(self.view())
        except Exception:  # a hint must never break the game
            return t(self.lang, "game.no_hint")
        why = hnt.get("why") or {}
        text = why.get(self.lang) or why.get("en") or ""
        self.note = t(self.lang, "game.hint", why=text)
        a = hnt.get("action") or {}
        self.hinted = a.get("play")
        return self.note

    hinted: str | None = None


# ----------------------------------------------------------------- screens
def loading_screen(lang: str) -> Node:
    return h("div", {"class": "loading"}, t(lang, "app.loading"))


def toolbar(c_lang: str, pips: str, *, game: str | None, seq: int | None, extra: list | None = None) -> Node:
    other = "en" if c_lang == "es" else "es"
    style = t(c_lang, "pips." + pips)
    items = [
        h("button", {"type": "button", "class": "tb", "data-action": "help", "data-testid": "help",
                     "data-game": game}, h("span", {"class": "ico", "aria-hidden": "true"}, "?"),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.help"))),
        h("button", {"type": "button", "class": "tb", "data-action": "lang", "data-testid": "lang",
                     "data-lang": other, "lang": other, "aria-label": t(c_lang, "tb.lang_label")},
          h("span", {"class": "ico", "aria-hidden": "true"}, other.upper()),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.lang"))),
        h("button", {"type": "button", "class": "tb", "data-action": "pips", "data-testid": "pips",
                     "data-pips": pips, "aria-label": t(c_lang, "tb.pips_label", style=style)},
          h("span", {"class": "ico pipdot " + pips, "aria-hidden": "true"}, "⁘"),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.pips", style=style))),
    ]
    return h("div", {"class": "toolbar"}, items + (extra or []))


def new_game_screen(settings: dict, lang: str, pips: str, error: str = "", save_error: str = "") -> Node:
    s = normalize_settings(settings, lang)
    game = s["game"]
    n = s["players"]
    game_opts = [h("option", {"value": g["id"], "selected": "" if g["id"] == game else None},
                   g["name"][lang] if g["name"][lang] == g["name"]["en"] else f"{g['name'][lang]}")
                 for g in games()]
    player_opts = [h("option", {"value": k, "selected": "" if k == n else None}, str(k))
                   for k in PRESETS[game].choices("players")]
    tgt = option(game, "target")
    target_opts = [h("option", {"value": v, "selected": "" if v == s["target"] else None},
                     t(lang, "new.target_value", points=v)) for v in tgt["values"]]
    kinds = [HUMAN] + computer_kinds()
    rows = []
    for i in range(n):
        seat = s["seats"][i]
        rows.append(h("div", {"class": "seat-row"},
            h("span", {"class": "seat-no", "aria-hidden": "true"}, str(i + 1)),
            h("select", {"data-testid": f"seat-kind-{i}", "data-field": "seat-kind", "data-seat": i,
                         "aria-label": t(lang, "new.kind", n=i + 1)},
              [h("option", {"value": k, "selected": "" if k == seat["kind"] else None}, kind_label(lang, k))
               for k in kinds]),
            h("input", {"type": "text", "data-testid": f"seat-name-{i}", "data-field": "seat-name",
                        "data-seat": i, "value": seat["name"], "maxlength": 24, "autocomplete": "off",
                        "placeholder": (t(lang, "name.player", n=i + 1) if seat["kind"] == HUMAN
                                        else persona(seat["kind"], 0) or kind_label(lang, seat["kind"])),
                        "aria-label": t(lang, "new.name", n=i + 1)})))
    part = partnership_choice(game, n)
    part_row = None
    if part != "none":
        part_row = h("label", {"class": "check"},
                     h("input", {"type": "checkbox", "data-testid": "partnership", "data-field": "partnership",
                                 "checked": "" if (part == "fixed" or s["partnership"]) else None,
                                 "disabled": "" if part == "fixed" else None}),
                     t(lang, "new.partnership"))
    options_error = ""
    try:
        code = rules_for(s).lobby_code()
    except RulesError as e:
        code = ""
        options_error = t(lang, "new.invalid", why=rules_error_text(lang, e))
    opt_rows = []
    for o in game_options(game):
        key = o["key"]
        cur = s["options"].get(key, o["default"])
        opt_rows.append(h("label", {"class": "field opt"}, h("span", {}, option_label(lang, key)),
                          h("select", {"data-testid": f"opt-{key}", "data-field": "option", "data-key": key},
                            [h("option", {"value": enc(v), "selected": "" if v == cur and type(v) is type(cur) else None},
                               option_value_label(lang, key, v)) for v in o["values"]])))
    changed = sum(1 for o in game_options(game) if s["options"].get(o["key"], o["default"]) != o["default"])
    options_box = opt_rows and h(
        "details", {"class": "options", "data-testid": "options", "open": "" if s["show_options"] else None},
        h("summary", {"data-testid": "options-toggle"}, t(lang, "new.options"),
          changed > 0 and h("span", {"class": "badge"}, t(lang, "new.options_changed", n=changed))),
        h("div", {"class": "opt-grid"}, opt_rows))
    help_paras = helptext.help_for(game, lang)
    return h("section", {"class": "screen newgame", "data-testid": "new-game"},
        h("header", {"class": "topbar"},
          h("h1", {"class": "brand"}, h("span", {"class": "logo", "aria-hidden": "true"}), t(lang, "app.title")),
          toolbar(lang, pips, game=game, seq=None)),
        h("div", {"class": "card"},
          save_error and h("div", {"class": "save-error", "data-testid": "save-error", "role": "alert"}, save_error),
          h("h2", {}, t(lang, "new.title")),
          h("label", {"class": "field"}, h("span", {}, t(lang, "new.game")),
            h("select", {"data-testid": "game", "data-field": "game"}, game_opts)),
          h("p", {"class": "summary"}, help_paras[0]),
          h("div", {"class": "field-row"},
            h("label", {"class": "field"}, h("span", {}, t(lang, "new.players")),
              h("select", {"data-testid": "players", "data-field": "players"}, player_opts)),
            h("label", {"class": "field"}, h("span", {}, t(lang, "new.target")),
              h("select", {"data-testid": "target", "data-field": "target"}, target_opts))),
          part_row,
          h("div", {"class": "seats"}, rows),
          options_box,
          error and h("p", {"class": "error", "role": "alert"}, error),
          code and h("p", {"class": "lobby", "data-testid": "lobby-code", "data-code": code},
                     t(lang, "new.lobby", code=code)),
          options_error and h("p", {"class": "error", "role": "alert", "data-testid": "options-error",
                                    "id": "options-error"},
                              options_error),
          h("button", {"type": "button", "class": "primary big", "data-testid": "start", "data-action": "start",
                       "disabled": "" if options_error else None,
                       "aria-describedby": "options-error" if options_error else None},
            t(lang, "new.start"))))


def _tile_button(tile: str, *, seq: int, playable: bool, selected: bool, hinted: bool, pips: str,
                 lang: str, disabled_all: bool) -> Node:
    art = render.tile_svg(tile, style=pips) if render else h("span", {}, tile)
    cls = "tile-btn" + (" playable" if playable else "") + (" selected" if selected else "") + \
        (" hinted" if hinted else "")
    label = tile if playable or disabled_all else t(lang, "game.tile_unplayable", tile=tile)
    return h("button", {"type": "button", "class": cls, "data-tile": tile, "data-seq": seq,
                        "data-action": "tile", "aria-label": label,
                        "aria-disabled": "false" if playable else "true",
                        "aria-pressed": ("true" if selected else "false") if playable else None},
             art, playable and h("span", {"class": "play-dot", "aria-hidden": "true"}))


def scores_bar(c: Controller, v: dict) -> Node:
    lang = c.lang
    m = c.match
    chips = []
    for sd, seats in enumerate(v["sides"]):
        turn = m.turn in seats and m.phase == "play"
        who = []
        for s in seats:
            who.append(h("span", {"class": "who" + (" turn" if m.turn == s and m.phase == "play" else ""),
                                  "data-seat": s},
                          h("span", {"class": "nm"}, v["names"][s]),
                          h("span", {"class": "cnt", "title": t(lang, "game.tiles_left", n=v["counts"][s])},
                            h("span", {"class": "mini-tile", "aria-hidden": "true"}), str(v["counts"][s]))))
        chips.append(h("div", {"class": "chip" + (" on" if turn else ""), "data-side": sd},
                       h("div", {"class": "names"}, who),
                       h("div", {"class": "pts", "data-score": v["scores"][sd]}, str(v["scores"][sd]))))
    meta = h("div", {"class": "meta"},
             h("span", {}, t(lang, "game.hand_no", n=v["hand_no"] + 1)),
             h("span", {}, t(lang, "game.target", target=v["options"]["target"])),
             v["options"].get("boneyard") != "none" and h("span", {}, t(lang, "game.boneyard", n=v["boneyard"])))
    return h("div", {"class": "scores", "data-testid": "scores", "aria-label": t(lang, "game.scores")}, chips, meta)


def game_screen(c: Controller) -> Node:
    """The table.  The board container is empty: ui.py draws it at its size."""
    m = c.match
    lang = c.lang
    v = c.view()
    seq = m.seq
    seat = c.face_up()
    legal = c.legal()
    playable = {a["play"] for a in legal if "play" in a}
    hand_tiles = v["hand"] if seat is not None else []
    busy_extra = []
    if humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb", "data-action": "hint", "data-testid": "hint",
                                       "data-seq": seq, "disabled": None if c.my_turn() else ""},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "!"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.hint"))))
    if not m.outcome and humans(m):
        busy_extra.append(h("button", {"type": "button", "class": "tb warn", "data-action": "resign",
                                       "data-testid": "resign"},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "⚑"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.resign"))))
    else:
        busy_extra.append(h("button", {"type": "button", "class": "tb", "data-action": "menu", "data-testid": "menu"},
                            h("span", {"class": "ico", "aria-hidden": "true"}, "+"),
                            h("span", {"class": "tb-text"}, t(lang, "tb.menu"))))
    hand_row = None
    if seat is not None and hand_tiles:
        hand_row = h("div", {"class": "hand-area"},
                     h("div", {"class": "hand-label"}, t(lang, "game.your_hand", name=v["names"][seat])),
                     h("div", {"class": "hand", "role": "group",
                               "aria-label": t(lang, "game.your_hand", name=v["names"][seat])},
                       [_tile_button(tl, seq=seq, playable=tl in playable, selected=tl == c.selected,
                                     hinted=tl == c.hinted and bool(c.note), pips=c.pips, lang=lang,
                                     disabled_all=not legal) for tl in hand_tiles]))
    elif m.phase == "play":
        hand_row = h("div", {"class": "hand-area empty"})
    choices = []
    for n in c.open_choices():
        choices.append(h("button", {"type": "button", "class": "primary", "data-action": "open", "data-open": n,
                                    "data-seq": seq}, t(lang, "game.open_value", n=n)))
    draw = c.draw_action()
    if draw is not None:
        choices.append(h("button", {"type": "button", "class": "secondary", "data-action": "draw",
                                    "data-testid": "draw", "data-seq": seq}, t(lang, "game.decline")))
    flash = [h("span", {"class": "fives", "data-side": sd}, t(lang, "msg.fives", points=p,
                                                              name=side_name(v, sd, lang)))
             for sd, p in c.flash]
    msg = c.note or c.message()
    status = c.status()
    overlay = None
    ho = c.handoff()
    if ho is not None:
        overlay = handoff_screen(c, ho)
    elif m.outcome:
        overlay = match_result(c, v)
    elif m.phase == "hand-over":
        overlay = hand_result(c, v)
    elif c.confirm_resign:
        overlay = resign_dialog(c)
    return h("section", {"class": "screen game" + (" my-turn" if c.my_turn() else ""), "data-game": v["game"]},
        h("header", {"class": "topbar"},
          scores_bar(c, v),
          toolbar(lang, c.pips, game=v["game"], seq=seq, extra=busy_extra)),
        h("div", {"class": "board", "data-testid": "board", "id": "board"}),
        h("div", {"class": "status-line"},
          h("p", {"class": "turn-line", "data-testid": "turn"}, status),
          h("p", {"class": "message", "data-testid": "message"}, msg, flash),
          choices and h("div", {"class": "choices"}, choices)),
        hand_row,
        overlay)


def handoff_screen(c: Controller, seat: int) -> Node:
    lang = c.lang
    name = c.match.seats[seat]["name"]
    return h("div", {"class": "overlay opaque", "data-testid": "handoff", "data-seat": seat, "role": "dialog",
                     "aria-modal": "true", "aria-labelledby": "handoff-title"},
             h("div", {"class": "card center"},
               h("div", {"class": "handoff-icon", "aria-hidden": "true"}, "⇄"),
               h("h2", {"id": "handoff-title"}, t(lang, "handoff.title", name=name)),
               h("p", {}, t(lang, "handoff.body", name=name)),
               c.message() and h("p", {"class": "last-move"}, c.message()),
               h("button", {"type": "button", "class": "primary big", "data-action": "handoff",
                            "data-testid": "handoff-continue", "data-seq": c.match.seq},
                 t(lang, "handoff.go", name=name))))


def _mini_tiles(tiles: list[str], pips: str) -> Node:
    return h("span", {"class": "mini-hand"},
             [h("span", {"class": "mini", "data-tile": tl, "title": tl},
                render.tile_svg(tl, style=pips, horizontal=True) if render else tl) for tl in tiles])


def _result_table(c: Controller, v: dict, with_hand: bool) -> Node:
    lang = c.lang
    res = v.get("result") or {}
    rows = seat_points(v)
    fives = c.match.rules.fives_on
    head = [t(lang, "result.seat")]
    if with_hand:
        head += [t(lang, "result.left"), t(lang, "result.pips")]
        if fives:
            head.append(t(lang, "result.fives"))
        head.append(t(lang, "result.points"))
    head.append(t(lang, "result.total"))
    body = []
    winners = set(res.get("winners") or ([] if res.get("winner") is None else [res.get("winner")]))
    for r in rows:
        cells = [h("th", {"scope": "row"}, v["names"][r["seat"]])]
        if with_hand:
            cells.append(h("td", {"class": "left"}, _mini_tiles(r["tiles"], c.pips) if r["tiles"]
                           else t(lang, "result.none_left")))
            cells.append(h("td", {}, str(r["count"])))
            if fives:
                cells.append(h("td", {}, str(r["fives"])))
            cells.append(h("td", {"class": "pts"}, ("+" if r["points"] > 0 else "") + str(r["points"])))
        cells.append(h("td", {"class": "tot"}, str(r["total"])))
        body.append(h("tr", {"data-seat": r["seat"], "data-points": r["points"], "data-total": r["total"],
                             "class": "win" if r["seat"] in winners or r["side"] in winners else None}, cells))
    return h("div", {"class": "table-wrap"},
             h("table", {"class": "result"}, h("thead", {}, h("tr", {}, [h("th", {"scope": "col"}, x) for x in head])),
               h("tbody", {}, body)))


def hand_summary(c: Controller, v: dict) -> list[Node]:
    lang = c.lang
    res = v.get("result") or {}
    names = v["names"]
    out = []
    end = res.get("end")
    if end == "domino":
        out_seat = next((i for i, n in enumerate(res.get("counts", [])) if n == 0), None)
        if out_seat is not None:
            out.append(t(lang, "result.domino", name=names[out_seat]))
    elif end == "blocked":
        out.append(t(lang, "result.blocked"))
    elif end == "target":
        out.append(t(lang, "result.target"))
    w = res.get("winner")
    if w is not None and end != "domino":
        out.append(t(lang, "result.winner", name=side_name(v, w, lang)))
    elif w is None and not any(res.get("points") or []):
        out.append(t(lang, "result.nobody"))
    if res.get("raw") is not None:
        out.append(t(lang, "result.how_raw", raw=res["raw"]))
    pts = res.get("points") or []
    if pts:
        out.append(t(lang, "result.how_points", points=", ".join(
            f"{side_name(v, i, lang)} {p}" for i, p in enumerate(pts))))
    return [h("p", {}, x) for x in out]


def hand_result(c: Controller, v: dict) -> Node:
    lang = c.lang
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "hr-title"},
             h("div", {"class": "card wide", "data-testid": "hand-result"},
               h("h2", {"id": "hr-title"}, t(lang, "result.title", n=v["hand_no"] + 1)),
               hand_summary(c, v),
               _result_table(c, v, True),
               h("button", {"type": "button", "class": "primary big", "data-action": "next-hand",
                            "data-testid": "next-hand", "data-seq": c.match.seq}, t(lang, "result.next"))))


def match_result(c: Controller, v: dict) -> Node:
    lang = c.lang
    out = c.match.outcome or {}
    w = out.get("winner")
    title = t(lang, "match.winner", name=side_name(v, w, lang)) if w is not None else t(lang, "match.draw")
    extra = []
    if out.get("reason") == "resign" and c.match.resigned:
        extra.append(h("p", {}, t(lang, "match.resign", name=v["names"][c.match.resigned["seat"]])))
    hand_part = []
    if v.get("result"):
        hand_part = hand_summary(c, v) + [_result_table(c, v, True)]
    else:
        hand_part = [_result_table(c, v, False)]
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "mr-title"},
             h("div", {"class": "card wide", "data-testid": "match-result", "data-winner": "" if w is None else w},
               h("div", {"class": "trophy", "aria-hidden": "true"}, "★"),
               h("h2", {"id": "mr-title"}, title),
               extra,
               h("p", {"class": "final"}, t(lang, "match.final") + ": " + ", ".join(
                   f"{side_name(v, i, lang)} {s}" for i, s in enumerate(out.get("scores") or v["scores"]))),
               hand_part,
               h("button", {"type": "button", "class": "primary big", "data-action": "new-match",
                            "data-testid": "new-match"}, t(lang, "match.new"))))


def resign_dialog(c: Controller) -> Node:
    lang = c.lang
    seat = c.resign_seat()
    name = c.match.seats[seat]["name"] if seat is not None else ""
    return h("div", {"class": "overlay", "role": "alertdialog", "aria-modal": "true", "aria-labelledby": "rs-title"},
             h("div", {"class": "card center", "data-testid": "resign-dialog"},
               h("h2", {"id": "rs-title"}, t(lang, "resign.title")),
               h("p", {}, t(lang, "resign.body", name=name)),
               h("div", {"class": "buttons"},
                 h("button", {"type": "button", "class": "secondary", "data-action": "resign-no",
                              "data-testid": "resign-cancel"}, t(lang, "resign.no")),
                 h("button", {"type": "button", "class": "danger", "data-action": "resign-yes",
                              "data-testid": "resign-confirm"}, t(lang, "resign.yes")))))


def help_dialog(game: str, lang: str) -> Node:
    g = next((x for x in games() if x["id"] == game), games()[0])
    paras = helptext.help_for(g["id"], lang)
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "help-title",
                     "data-testid": "help-dialog"},
             h("div", {"class": "card wide help"},
               h("h2", {"id": "help-title"}, t(lang, "help.title", game=g["name"][lang])),
               [h("p", {"class": "fair" if i == len(paras) - 1 else None}, p) for i, p in enumerate(paras)],
               h("button", {"type": "button", "class": "primary", "data-action": "help-close",
                            "data-testid": "help-close"}, t(lang, "help.close"))))


def board_tree(c: Controller, width: float, height: float) -> Node | None:
    """The table at a size, with place markers when a tile waits for one.
    Every place carries data-seq."""
    if render is None:
        return None
    v = c.view()
    node = render.board(v, width, height, style=c.pips, targets=c.targets() or None)
    return _stamp(node, c.match.seq, t(c.lang, "game.board"))


def _stamp(node, seq: int, label: str):
    tag, attrs, children = node
    attrs = dict(attrs)
    if "data-end" in attrs:
        attrs["data-seq"] = str(seq)
        attrs["data-action"] = "end"
    if tag == "svg" and attrs.get("class") == "board":
        attrs["aria-label"] = label
    return (tag, attrs, [ch if isinstance(ch, str) else _stamp(ch, seq, label) for ch in children])
