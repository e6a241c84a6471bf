"""The new-game settings: the games catalogue, option labels, seats and names, and the match they start."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from domino import players
from domino.app.i18n import t
from domino.engine.match import Match
from domino.engine.rules import PRESETS, RulesError, games_catalogue, make_rules
from domino.net.protocol import sanitize_name

HUMAN = "human"


def max_seats() -> int:
    """The most seats any game allows (the new-game form keeps that many)."""
    return max(max(p.choices("players")) for p in PRESETS.values())


# ----------------------------------------------------------------- catalogue
@lru_cache(maxsize=1)
def _catalogue() -> tuple:
    """games_catalogue() once (it resolves every preset); read only."""
    return tuple(games_catalogue())


#: The board shapes the table can show; a game is offered on the new-game
#: screen once its shape is here (Mexican Train "trains", Chicken Foot "foot",
#: Frijolito "row" come with their boards).
TABLE_SHAPES = ("line", "trains", "foot", "row")


def offered(game: str) -> bool:
    return game in PRESETS and PRESETS[game].shape in TABLE_SHAPES


def games() -> list[dict]:
    """Every preset the table can show, Draw and Block first."""
    cat = [g for g in _catalogue() if offered(g["id"])]
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


def target_option(game: str) -> dict | None:
    """The game's target option, None where it has none (Mexican Train and
    Chicken Foot play a fixed number of rounds)."""
    try:
        return option(game, "target")
    except KeyError:
        return None


def default_target(game: str):
    tg = target_option(game)
    return None if tg is None else tg["default"]


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
    if kind in ("human", "random", "remote"):
        return t(lang, "kind." + kind)
    return t(lang, "kind.other", level=kind)


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
        fixed.append({"kind": kind, "name": sanitize_name(str(src.get("name", "")), 24)})
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


def default_name(lang: str, kind: str, seat: int) -> str:
    """The name a seat left blank gets when no persona names it: "Player 2"
    ("Jugador 2"), "Computer 3"."""
    return t(lang, "name.player" if kind in (HUMAN, "remote") else "name.computer", n=seat + 1)


def is_default_name(name: str, seat: int) -> str | None:
    """The kind of default ("name.player" or "name.computer") that ``name``
    is for ``seat`` in any language; None for a name of the player's own or
    a persona (personas are the same in every language)."""
    from domino.app.i18n import LANGS
    for key in ("name.player", "name.computer"):
        if any(name == t(lang, key, n=seat + 1) for lang in LANGS):
            return key
    return None


def localize_names(seats: list, lang: str) -> bool:
    """Rename, in place, every seat still carrying a default name of another
    language ("Player 1" after a switch to Spanish is "Jugador 1"); True when
    a name changed.  A name the player typed or a persona stays."""
    changed = False
    for i, seat in enumerate(seats):
        key = is_default_name(str(seat.get("name", "")), i)
        if key is not None and seat["name"] != t(lang, key, n=i + 1):
            seat["name"] = t(lang, key, n=i + 1)
            changed = True
    return changed


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
            if s["kind"] in (HUMAN, "remote"):
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
