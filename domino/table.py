"""The table a match is played at: who may sit (the seat kinds), what a
seat may be called, the new-game settings made valid, and the rules and the
:class:`~domino.engine.match.Match` they start.

Both the app (``domino.app``: the new-game screen, the session) and the
play-with-friends host (``domino.net.host``) start matches from the same
settings dict, so this module sits below both and imports only the engine
and the computer players::

    {"game": "draw", "players": 2, "partnership": False, "target": 100,
     "options": {...}, "show_options": False, "practice": False,
     "seats": [{"kind": "human", "name": ""}, {"kind": "medium", "name": ""}, ...]}

Seat kinds: :data:`~domino.engine.match.HUMAN` (a person at this device),
:data:`REMOTE` (a person on a friend's device, ``domino.net``) and the
computer levels (:data:`domino.players.COMPUTER_KINDS`).

Default names ("Player 2", "Computadora 3") are pure data here
(:data:`DEFAULT_NAMES`, one entry per language of the app); the app's text
catalogue (``domino.app.i18n``) takes its ``name.player`` and
``name.computer`` from it, so the host names a friend's blank seat without
importing the app.
"""
from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

from domino import players
from domino.engine.match import HUMAN, Match
from domino.engine.rules import PRESETS, games_catalogue, make_rules

#: A seat played by a person on another device (play with friends).
REMOTE = "remote"

MAX_NAME = 24                        # a seat name, after sanitizing
MAX_RAW_NAME = 200                   # a typed or received name before sanitizing

#: The name of a seat left blank that no persona names, per language of the
#: app: "name.player" for a person's seat (here or remote), "name.computer"
#: for a computer's.  domino.app.i18n merges these into its catalogue.
DEFAULT_NAMES: dict[str, dict[str, str]] = {
    "en": {"name.player": "Player {n}", "name.computer": "Computer {n}"},
    "es": {"name.player": "Jugador {n}", "name.computer": "Computadora {n}"},
}
DEFAULT_LANG = "en"


# ----------------------------------------------------------------- names
_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Characters that draw nothing though their category says letter or symbol
#: (Hangul fillers, the braille blank, ...): a name of them alone is blank.
BLANK_LOOKALIKES = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5")
#: Categories that show nothing alone (combining marks, spaces).
_SHOW_NOTHING = frozenset({"Mn", "Me", "Zs"})


def _blank(ch: str) -> bool:
    return ch.isspace() or ch in BLANK_LOOKALIKES


def sanitize_name(raw: Any, limit: int = MAX_NAME) -> str:
    """A name as the table may show it: control and format characters
    (bidi overrides, zero-width marks, line separators, ...) removed, blank
    look-alikes (U+3164, U+2800, ...) made spaces, any run of spaces made
    one space, combining marks with nothing before them dropped, trimmed,
    at most ``limit`` characters.  A name that shows nothing (only such
    characters) is ``""``: the seat's default name.  Names are always shown
    as text (never as markup), so ``<`` and ``&`` are kept as typed."""
    if type(raw) is not str:
        return ""
    raw = unicodedata.normalize("NFC", raw[:MAX_RAW_NAME])
    kept = "".join(" " if _blank(ch) else ch for ch in raw
                   if _blank(ch) or unicodedata.category(ch) not in _DROP_CATEGORIES)
    words = []
    for w in kept.split():
        w = w.lstrip("".join(c for c in w if unicodedata.category(c) in ("Mn", "Me")))
        if w:
            words.append(w)
    name = " ".join(words)[:limit].strip()
    if all(unicodedata.category(ch) in _SHOW_NOTHING for ch in name):
        return ""
    return name


def default_name(lang: str, kind: str, seat: int) -> str:
    """The name a seat left blank gets when no persona names it: "Player 2"
    ("Jugador 2"), "Computer 3"; English for a language the app lacks."""
    names = DEFAULT_NAMES.get(lang, DEFAULT_NAMES[DEFAULT_LANG])
    return names["name.player" if kind in (HUMAN, REMOTE) else "name.computer"].format(n=seat + 1)


# ----------------------------------------------------------------- settings
def max_seats() -> int:
    """The most seats any game allows (the new-game form keeps that many)."""
    return max(max(p.choices("players")) for p in PRESETS.values())


@lru_cache(maxsize=1)
def catalogue() -> tuple:
    """games_catalogue() once (it resolves every preset); read only."""
    return tuple(games_catalogue())


#: The board shapes the table can show; a game is offered on the new-game
#: screen once its shape is here (Mexican Train "trains", Chicken Foot "foot",
#: Frijolito "row" come with their boards).
TABLE_SHAPES = ("line", "trains", "foot", "row")


def offered(game: str) -> bool:
    return game in PRESETS and PRESETS[game].shape in TABLE_SHAPES


def option(game: str, key: str) -> dict:
    for g in catalogue():
        if g["id"] == game:
            for o in g["options"]:
                if o["key"] == key:
                    return o
    raise KeyError(key)


def target_option(game: str) -> dict | None:
    """The game's target option, None where it has none (Mexican Train and
    Chicken Foot play a fixed number of rounds)."""
    try:
        return option(game, "target")
    except KeyError:
        return None


#: Options with a field of their own on the new-game screen (players, target,
#: the partnership checkbox) and pips, a view setting (the toolbar), not a rule.
OWN_FIELDS = ("players", "target", "partnership", "pips")


def game_options(game: str) -> list[dict]:
    """The options of the "Options" section for a game: every option that
    games_catalogue() lists as not locked and with more than one value, but
    those with a field of their own (OWN_FIELDS).  Catalogue order."""
    for g in catalogue():
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


def default_options(game: str) -> dict:
    return {o["key"]: o["default"] for o in game_options(game)}


def computer_kinds() -> list[str]:
    """The computer levels offered: every registered player but "random";
    before the AI lands, "random" (labelled "computer")."""
    return list(players.LEVELS)


def partnership_choice(game: str, n_players: int) -> str:
    """"fixed" (always partners at 4), "option" or "none"."""
    if n_players != 4:
        return "none"
    if game in ("latin", "classic"):
        return "fixed"
    try:
        values = option(game, "partnership")["values"]
    except KeyError:   # a game without partners
        return "none"
    return "option" if True in values else "none"


def persona(kind: str, index: int) -> str | None:
    """The name of the ``index``-th computer of level ``kind`` at a table:
    the level's persona first (players.PERSONAS), then its companions
    (COMPANIONS), so three computers of one level get three names."""
    first = None
    table = getattr(players, "PERSONAS", None)
    if isinstance(table, dict):
        names = table.get(kind)
        if isinstance(names, dict) and names.get("name"):   # players.PERSONAS
            first = str(names["name"])
        elif isinstance(names, (list, tuple)) and names:
            return str(names[index % len(names)])
        elif isinstance(names, str):
            first = names
    if first is None:
        return FALLBACK_NAMES[index % len(FALLBACK_NAMES)]
    if index == 0:
        return first
    more = COMPANIONS.get(kind, FALLBACK_NAMES)
    return more[(index - 1) % len(more)]


#: Names for computers of a level without a persona of its own.
FALLBACK_NAMES = ("Rita", "Tomás", "Nieves", "Bruno", "Olga", "Mateo", "Celia", "Iván")
#: More names for a level's second, third... computer at the same table: with
#: the persona, as many names as computers can sit at the largest table, and
#: no name shared between levels, so every computer seat has a name of its own.
COMPANIONS = {"easy": ("Paco", "Pili", "Nacho", "Maite", "Quique", "Charo", "Toni", "Rocío"),
              "medium": ("Lucía", "Chema", "Marisa", "Julián", "Inés", "Ramiro", "Elena", "Tito"),
              "hard": ("Doña Carmen", "Don Julio", "Doña Elvira", "Don Anselmo", "Doña Pura", "Don Fermín",
                       "Doña Rosario", "Don Braulio")}


def default_settings(lang: str = "en") -> dict:
    comp = computer_kinds()
    level = "medium" if "medium" in comp else comp[0]
    return {"game": "draw", "players": 2, "partnership": False, "target": 100,
            "options": default_options("draw"), "show_options": False, "practice": False,
            "seats": [{"kind": HUMAN, "name": ""}] + [{"kind": level, "name": ""}
                                                      for _ in range(max_seats() - 1)]}


def normalize_settings(s: Any, lang: str = "en") -> dict:
    """Make any stored/posted settings valid for the new-game screen."""
    base = default_settings(lang)
    if not isinstance(s, dict):
        return base
    out = dict(base)
    game = s.get("game")
    out["game"] = game if isinstance(game, str) and offered(game) else "draw"
    counts = PRESETS[out["game"]].choices("players")
    try:
        n = int(s.get("players", 2))
    except (TypeError, ValueError, OverflowError):
        n = 2
    out["players"] = n if n in counts else counts[0]
    out["partnership"] = bool(s.get("partnership", False))
    targets = target_option(out["game"])
    if targets is None:
        out["target"] = None
    else:
        try:
            tg = int(s.get("target", targets["default"]))
        except (TypeError, ValueError, OverflowError):
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
    out["practice"] = s.get("practice") is True
    seats = s.get("seats") if isinstance(s.get("seats"), list) else []
    kinds = [HUMAN] + computer_kinds()
    fixed = []
    for i in range(max_seats()):
        src = seats[i] if i < len(seats) and isinstance(seats[i], dict) else base["seats"][i]
        kind = src.get("kind") if src.get("kind") in kinds else base["seats"][i]["kind"]
        if kind not in kinds:
            kind = kinds[-1]
        # a name that shows nothing (zero-width, fillers, marks alone) is blank: the seat's default name
        fixed.append({"kind": kind, "name": sanitize_name(str(src.get("name", "")), MAX_NAME)})
    out["seats"] = fixed
    return out


def seat_names(settings: dict, lang: str) -> list[str]:
    """The names of the seats, as the match will have them: a typed name; for a
    blank person's seat "Player n"; for a blank computer seat its level's
    persona, then the level's companions (never a name already at the table)."""
    n = settings["players"]
    typed = [settings["seats"][i]["name"].strip() for i in range(n)]
    taken = {x for x in typed if x}
    names = []
    per_kind: dict[str, int] = {}
    for i in range(n):
        s = settings["seats"][i]
        name = typed[i]
        if not name:
            if s["kind"] in (HUMAN, REMOTE):
                name = default_name(lang, s["kind"], i)
            else:
                name = None
                for _ in range(len(COMPANIONS.get(s["kind"], FALLBACK_NAMES)) + 1):
                    k = per_kind.get(s["kind"], 0)
                    per_kind[s["kind"]] = k + 1
                    cand = persona(s["kind"], k)
                    if cand and cand not in taken:
                        name = cand
                        break
                name = name or default_name(lang, s["kind"], i)
            taken.add(name)
        names.append(name)
    # unique names: "Ana" and "Ana" would make the hand-off screen ambiguous;
    # a repeated name gets its seat's number, the one the screen shows
    original = list(names)
    for i, nm in enumerate(original):
        if original.count(nm) > 1:
            names[i] = f"{nm} {i + 1}"
    return names


def rules_for(settings: dict):
    game = settings["game"]
    n = settings["players"]
    opts: dict = {"players": n}
    if settings.get("target") is not None and target_option(game) is not None:
        opts["target"] = settings["target"]
    offered = {o["key"] for o in game_options(game)}
    # defaults are left to the engine, which seats 8 at Chicken Foot on double-12
    defaults = PRESETS[game].defaults
    opts.update({k: v for k, v in (settings.get("options") or {}).items()
                 if k in offered and not (v == defaults.get(k) and type(v) is type(defaults.get(k)))})
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
