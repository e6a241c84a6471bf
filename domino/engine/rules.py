"""Rules configuration: validated frozen data, options and named presets.

A game is a preset: a name, the options it locks and the defaults of the
others.  ``make_rules("draw", players=4)`` resolves and validates a
configuration; anything invalid raises :class:`RulesError` saying what is
wrong, before a match starts.  See RULES.md sections 1-3.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from domino.engine import tiles
class RulesError(ValueError):
    """An invalid game configuration (unknown game, option or combination).
    ``code`` and ``params`` let a user interface say it in its own language."""

    def __init__(self, message: str, code: str = "invalid", **params: Any):
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Rules:
    game: str = "draw"
    set: int = 6
    players: int = 2
    partnership: bool = False
    hand_size: int = 7
    boneyard: str = "draw"              # draw | none
    keep_last_two: bool = False
    spinner: str = "off"                # off | first | opening
    fives: str = "off"                  # off | total | fifths
    first_opener: str = "highest-double"  # highest-double | random
    next_opener: str = "winner"         # winner | rotate | highest-double
    after_block: str = "highest-double"   # highest-double | winner
    target: int = 100
    rounding: str = "none"              # none | nearest-5 | fifths
    best_of_10: bool = False
    points: str = "good"                # good | bad
    blocked: str = "others"             # others | difference (sum of each rival's count minus the winner's)
    block_winner: str = "zero"          # zero | own   (bad points, blocked)
    tie_break: str = "none"             # none | lowest-tile
    redeal: bool = False                # redeal when a hand holds 4+ doubles
    joins: str = "match"                # match | matador
    pips: str = "coloured"              # coloured | black (looks only)
    # Mexican Train, Chicken Foot, Frijolito (RULES.md 4-6)
    start_double: Any = "top"           # top | 9 | 6 | 3: rounds from this double down to 0-0
    holder_starts: bool = False         # the holder of the round's double opens with it
    double_chains: bool = False         # a double may follow a double (then close one)
    close_doubles: bool = True          # an open double must be closed before other play
    mexican_train: bool = True          # the shared train exists
    elimination: bool = False           # Frijolito: seats past the target leave
    doubles_anywhere: bool = False      # Frijolito: a face-up double plays from anywhere in the row
    face_up: bool = False               # Frijolito: unplayable tiles go to the right face up

    # ----- derived -------------------------------------------------------
    @property
    def n_tiles(self) -> int:
        return tiles.set_size(self.set)

    @property
    def sides(self) -> list[list[int]]:
        """Seats grouped by side: teams 0+2 / 1+3, or one seat each."""
        if self.partnership:
            return [[0, 2], [1, 3]]
        return [[s] for s in range(self.players)]

    @property
    def n_sides(self) -> int:
        return 2 if self.partnership else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    @property
    def shape(self) -> str:
        """The board: line | trains | foot | row."""
        return PRESETS[self.game].shape

    @property
    def first_double(self) -> int:
        """The double of the first round (trains, foot)."""
        return self.set if self.start_double == "top" else self.start_double

    @property
    def fives_on(self) -> bool:
        return self.fives != "off"

    def options(self) -> dict[str, Any]:
        """The resolved options, as written in records (everything but game)."""
        return dict(_option_items(self))

    def lobby_code(self) -> str:
        return PRESETS[self.game].lobby(self)


@lru_cache(maxsize=256)
def _option_items(rules: Rules) -> tuple:
    keys = PRESETS[rules.game].keys
    return tuple((k, v) for k, v in asdict(rules).items() if k in keys)


# ---------------------------------------------------------------------------
# Option catalogue

OPTION_VALUES: dict[str, tuple] = {
    "set": (6, 9, 12, 15),
    "players": (2, 3, 4, 5, 6, 7, 8),
    "partnership": (False, True),
    "hand_size": ("auto", 5, 6, 7, 8, 9),
    "boneyard": ("draw", "none"),
    "keep_last_two": (False, True),
    "spinner": ("off", "first", "opening"),
    "fives": ("off", "total", "fifths"),
    "first_opener": ("highest-double", "random"),
    "next_opener": ("winner", "rotate", "highest-double"),
    "after_block": ("highest-double", "winner"),
    "target": (50, 100, 125, 150, 200, 250, 300, 500),
    "rounding": ("none", "nearest-5", "fifths"),
    "best_of_10": (False, True),
    "points": ("good", "bad"),
    "blocked": ("others", "difference"),
    "block_winner": ("zero", "own"),
    "tie_break": ("none", "lowest-tile"),
    "redeal": (False, True),
    "joins": ("match", "matador"),
    "pips": ("coloured", "black"),
    "start_double": ("top", 9, 6, 3),
    "holder_starts": (False, True),
    "double_chains": (False, True),
    "close_doubles": (True, False),
    "mexican_train": (True, False),
    "elimination": (False, True),
    "doubles_anywhere": (False, True),
    "face_up": (False, True),
}
OPTION_KEYS = tuple(OPTION_VALUES)


def formula_hand(n_tiles: int, players: int) -> int:
    """RULES.md 2: everyone the same, about two tiles per player left over."""
    return (n_tiles - 2 * players) // players


@dataclass(frozen=True)
class Preset:
    id: str
    name_en: str
    name_es: str
    defaults: dict[str, Any]
    values: dict[str, tuple] = field(default_factory=dict)   # narrowed choices
    locked: frozenset = frozenset()
    hand: str = "seven"   # seven | classic | formula | engine | frijolito
    code: str = "ab."
    shape: str = "line"   # line | trains | foot | row
    keys: tuple = ()      # the options this game knows (records and the catalogue list these)

    def choices(self, key: str) -> tuple:
        if key in self.locked:
            return (self.defaults[key],)
        return self.values.get(key, OPTION_VALUES[key])

    def lobby(self, r: Rules) -> str:
        if self.shape != "line":
            flags = "".join(ch for ch, on in (
                ("h", r.holder_starts), ("c", r.double_chains), ("a", not r.close_doubles),
                ("s", self.shape == "trains" and r.boneyard == "none"),
                ("x", not r.mexican_train), ("e", r.elimination), ("d", r.doubles_anywhere),
                ("u", r.face_up)) if on)
            head = f"{r.target}pt" if self.shape == "row" else f"{r.first_double}..0"
            return f"{head}/{self.code}" + (f" {flags}" if flags else "")
        if self.id == "all-fives":
            mark = "5" + ("+" if r.spinner != "off" else "*" if r.first_opener == "highest-double" else "")
            mark += "O" if r.next_opener == "rotate" else ""
            return f"{r.target}pt/{mark}"
        code = self.code
        if r.fives_on and self.id not in ("los-cincos",):
            code += "5"
        if r.spinner != "off" and self.id not in ("los-cincos",):
            code += "+"
        return f"{r.target}pt/{code}"

    def default_hand(self, set_: int, players: int) -> int:
        n = tiles.set_size(set_)
        if self.hand == "formula":
            return formula_hand(n, players)
        if self.hand == "frijolito":
            return {2: 14, 3: 9, 4: 7}[players]
        if self.hand == "classic":
            if set_ == 6:
                return 7 if players == 2 else 5
            return 9 if players == 2 else 7
        return 7


_BASE = {f.name: f.default for f in fields(Rules) if f.name != "game"}
_BASE["hand_size"] = "auto"
_LINE_LOCKS = frozenset({"points", "blocked", "block_winner", "tie_break", "joins"})
#: options of the other boards only (the line family's records never list them)
BOARD_KEYS = ("start_double", "holder_starts", "double_chains", "close_doubles", "mexican_train",
              "elimination", "doubles_anywhere", "face_up")
LINE_KEYS = tuple(k for k in OPTION_VALUES if k not in BOARD_KEYS)
SHAPE_KEYS = {
    "trains": ("set", "players", "hand_size", "boneyard", "start_double", "holder_starts",
               "double_chains", "close_doubles", "mexican_train", "pips"),
    "foot": ("set", "players", "hand_size", "start_double", "pips"),
    "row": ("set", "players", "hand_size", "target", "elimination", "doubles_anywhere", "face_up",
            "pips"),
}


def _preset(id_, en, es, code, hand="seven", locked=(), values=None, shape="line", **defaults):
    d = dict(_BASE)
    d.update(defaults)
    keys = SHAPE_KEYS.get(shape, LINE_KEYS)
    locked = frozenset(locked) | {k for k in OPTION_VALUES if k not in keys}
    return Preset(id_, en, es, d, values or {}, locked, hand, code, shape, keys)


PRESETS: dict[str, Preset] = {p.id: p for p in [
    _preset("draw", "Draw", "Abierto", "ab.",
            locked=_LINE_LOCKS | {"boneyard", "fives", "best_of_10", "redeal", "rounding"},
            values={"set": (6, 9), "target": (100, 125, 150, 200, 250, 300, 500),
                    "next_opener": ("winner", "rotate"),
                    "hand_size": ("auto",)}),
    _preset("block", "Block", "Cerrado", "cer.", boneyard="none", after_block="winner",
            locked=_LINE_LOCKS | {"boneyard", "keep_last_two", "fives", "best_of_10", "redeal", "rounding"},
            values={"set": (6, 9), "target": (100, 125, 150, 200, 250, 300, 500),
                    "next_opener": ("winner", "rotate"),
                    "hand_size": ("auto",)}),
    _preset("all-fives", "All Fives", "De cincos", "5", spinner="first", fives="total",
            rounding="nearest-5",
            locked=_LINE_LOCKS | {"fives", "best_of_10", "redeal", "rounding"},
            values={"set": (6, 9), "target": (100, 125, 150, 200, 250, 300, 500),
                    "next_opener": ("winner", "rotate"),
                    "hand_size": ("auto",), "boneyard": ("draw", "none")}),
    _preset("classic", "Classic 50", "Clásico 50", "cl.", hand="classic", target=50,
            rounding="nearest-5", blocked="difference",
            locked=(_LINE_LOCKS - {"blocked"}) | {"blocked", "boneyard", "redeal"},
            values={"set": (6, 9), "players": (2, 4), "target": (50, 100, 200, 250, 500),
                    "next_opener": ("winner", "rotate"), "rounding": ("nearest-5", "none"),
                    "hand_size": ("auto",)}),
    _preset("latin", "Latin partnership", "Dominó latino", "lat.", next_opener="rotate",
            tie_break="lowest-tile", redeal=True,
            locked={"set", "boneyard", "spinner", "fives", "rounding", "best_of_10", "points",
                    "blocked", "block_winner", "tie_break", "redeal", "joins", "first_opener",
                    "next_opener", "after_block", "keep_last_two", "hand_size"},
            values={"target": (50, 100)}),
    _preset("muggins", "Muggins", "Muggins (puntos malos)", "mug.", hand="formula",
            players=4, points="bad", blocked="difference", next_opener="highest-double",
            locked={"partnership", "spinner", "fives", "rounding", "best_of_10", "blocked", "joins",
                    "tie_break", "first_opener", "next_opener", "after_block", "boneyard"},
            values={"set": (6, 9, 12), "target": (100,), "hand_size": ("auto", 5, 6, 7)}),
    _preset("los-cincos", "Los Cincos", "Los Cincos", "cincos", hand="formula",
            players=4, spinner="opening", fives="fifths", rounding="fifths", target=200,
            next_opener="highest-double",
            locked={"partnership", "spinner", "fives", "rounding", "best_of_10", "points", "blocked",
                    "block_winner", "joins", "tie_break", "first_opener", "next_opener",
                    "after_block", "boneyard"},
            values={"set": (6, 9), "target": (50, 100, 125, 150, 200), "hand_size": ("auto", 5, 6, 7)}),
    _preset("matador", "Matador", "Matador", "mat.", hand="formula", set=9, joins="matador",
            points="bad", next_opener="highest-double",
            locked={"partnership", "spinner", "fives", "rounding", "best_of_10", "points", "blocked",
                    "joins", "tie_break", "first_opener", "next_opener", "after_block", "boneyard"},
            values={"set": (6, 9), "target": (100,), "hand_size": ("auto", 5, 6, 7)}),
    # ----- the other boards (RULES.md 4-6): bad points, one score per seat
    _preset("mexican-train", "Mexican Train", "Tren mexicano", "mt", hand="engine", shape="trains",
            set=12, players=4, points="bad", next_opener="winner",
            locked={"hand_size"},
            values={"set": (12, 9, 15)}),
    _preset("chicken-foot", "Chicken Foot", "Pata de pollo", "pp", hand="formula", shape="foot",
            set=9, players=4, points="bad", boneyard="draw",
            locked={"hand_size"},
            values={"set": (9, 12)}),
    _preset("frijolito", "Frijolito", "Frijolito", "fri.", hand="frijolito", shape="row",
            set=6, players=4, points="bad", boneyard="none",
            locked={"hand_size", "set"},
            values={"target": (100, 50)}),
]}

PLAYERS = {"draw": (2, 3, 4), "block": (2, 3, 4), "all-fives": (2, 3, 4), "classic": (2, 4),
           "latin": (2, 3, 4), "muggins": (2, 3, 4), "los-cincos": (2, 3, 4), "matador": (2, 3, 4),
           "mexican-train": (2, 3, 4, 5, 6, 7, 8), "chicken-foot": (2, 3, 4, 5, 6, 7, 8),
           "frijolito": (2, 3, 4)}
for _p in PRESETS.values():
    _p.values.setdefault("players", PLAYERS[_p.id])


def find_preset(game: str) -> Preset:
    try:
        return PRESETS[game]
    except KeyError:
        raise RulesError(f"unknown game {game!r}; games: {', '.join(PRESETS)}",
                         "unknown-game", game=game) from None


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type: 6.0 is not 6, True is not 1."""
    return type(a) is type(b) and a == b


def coerce(key: str, value: Any) -> Any:
    """Turn a command-line or JSON value into the option's type."""
    if not isinstance(key, str) or key not in OPTION_VALUES:
        raise RulesError(f"unknown option {str(key)[:40]!r}; options: {', '.join(OPTION_KEYS)}",
                         "unknown-option", key=str(key)[:40])
    sample = OPTION_VALUES[key]
    if isinstance(value, str):
        low = value.strip().lower()
        if isinstance(sample[0], bool):
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
        if key == "hand_size" and low == "auto":
            return "auto"
        if _INT.fullmatch(low) and any(isinstance(v, int) and not isinstance(v, bool) for v in sample):
            return int(low)
        return low
    return value


_INT = re.compile(r"-?[0-9]{1,9}")


def _not_allowed(preset: Preset, key: str, value: Any, allowed: tuple) -> RulesError:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
    return RulesError(f"{key}={shown} is not allowed in {preset.name_en}; "
                      f"choose one of {', '.join(map(str, allowed))}", "not-allowed", key=key)


def make_rules(game: str, **opts: Any) -> Rules:
    """Resolve a preset with option overrides into validated Rules.

    Every value must be one the game offers, of the option's own type (a
    record's ``"set": 6.0`` or ``"target": "100"`` is refused).  ``hand_size``
    may also be the number ``"auto"`` resolves to (records store that).

    On the other boards, when no set is given and the default set cannot
    seat the players (Chicken Foot at 8 needs double-12), the next set that
    can is taken."""
    if not isinstance(game, str):
        raise RulesError(f"a game is named by its id, not {str(game)[:40]!r}", "unknown-game",
                         game=str(game)[:40])
    preset = find_preset(game)
    if preset.shape in ("trains", "foot") and opts.get("set") is None:
        sets = preset.choices("set")
        for i, size in enumerate(sets):
            try:
                return make_rules(game, **dict(opts, set=size))
            except RulesError as exc:
                if exc.code not in ("hand-min", "set-players") or i == len(sets) - 1:
                    raise RulesError(str(exc), exc.code, **exc.params) from None
    chosen = dict(preset.defaults)
    for key, value in opts.items():
        if value is None:
            continue
        value = coerce(key, value)
        allowed = preset.choices(key)
        if _same(value, chosen.get(key)):
            chosen[key] = value
            continue
        if key in preset.locked:
            if not (key == "hand_size" and type(value) is int):
                raise RulesError(f"{key} is fixed to {preset.defaults[key]!r} in {preset.name_en}",
                                 "locked", key=key)
        elif not any(_same(value, v) for v in allowed) and not (key == "hand_size" and type(value) is int):
            raise _not_allowed(preset, key, value, allowed)
        chosen[key] = value
    players = chosen["players"]
    if players not in preset.choices("players"):
        raise RulesError(f"{preset.name_en} is for {', '.join(map(str, preset.choices('players')))} players",
                         "players", choices=", ".join(map(str, preset.choices("players"))))
    # partnership: only at four; forced at four where the game is a partnership game
    if game in ("latin", "classic") and players == 4:
        chosen["partnership"] = True
    if chosen["partnership"] and players != 4:
        raise RulesError("partnership needs 4 players (0+2 against 1+3)", "partnership")
    if chosen["best_of_10"] and chosen["fives"] != "off":
        raise RulesError("best of 10 counts hands won: it cannot be combined with fives scoring",
                         "best-of-10")
    if chosen["keep_last_two"] and chosen["boneyard"] != "draw":
        raise RulesError("keeping the last two tiles needs a boneyard to draw from", "keep-last-two")
    n = tiles.set_size(chosen["set"])
    hand = chosen["hand_size"]
    if preset.shape != "line":
        _check_board(preset, chosen)
    auto = preset.default_hand(chosen["set"], players)
    if preset.hand == "engine":
        # RULES.md 2 and 4: the set minus the engine (dealt with holder_starts);
        # no boneyard: hands as large as possible
        avail = n if chosen["holder_starts"] else n - 1
        auto = avail // players if chosen["boneyard"] == "none" else formula_hand(avail, players)
    if hand == "auto":
        hand = auto
    elif hand != auto and not any(_same(hand, v) for v in preset.choices("hand_size")):
        # a number is allowed when the game offers it, or when it is what
        # "auto" gives (a record's resolved hand size); never 0, -1 or 27
        if "hand_size" in preset.locked:
            raise RulesError(f"hand_size is fixed to {auto} in {preset.name_en}", "locked",
                             key="hand_size")
        raise _not_allowed(preset, "hand_size", hand, preset.choices("hand_size"))
    if preset.hand in ("formula", "engine") and hand < 5:
        raise RulesError(f"double-{chosen['set']} gives {hand} tiles each to {players} players; "
                         "every hand needs at least 5", "hand-min", set=chosen["set"], hand=hand,
                         players=players)
    if hand * players > n:
        raise RulesError(f"{players} hands of {hand} need {hand * players} tiles; "
                         f"double-{chosen['set']} has {n}", "too-many", players=players, hand=hand,
                         need=hand * players, set=chosen["set"], n=n)
    chosen["hand_size"] = hand
    return Rules(game=game, **chosen)


def _check_board(preset: Preset, chosen: dict) -> None:
    """Combinations of the other boards' options (RULES.md 4-6)."""
    if preset.shape == "trains" and chosen["set"] == 9 and chosen["players"] > 4:
        raise RulesError("Mexican Train with double-9 is for up to 4 players",
                         "set-players", set=9, players=chosen["players"], max=4)
    start = chosen["start_double"]
    if start != "top" and start >= chosen["set"]:
        raise RulesError(f"start_double={start} must be below the set's top double "
                         f"({chosen['set']}); choose top", "not-allowed", key="start_double")


def rules_from_options(game: str, options: dict[str, Any]) -> Rules:
    """Rebuild Rules from a record's resolved options (validated)."""
    if not isinstance(options, dict):
        raise RulesError("options must be an object", "invalid")
    for k, v in options.items():     # a record's values are typed: no "100" for 100
        if k in OPTION_VALUES and not any(type(v) is type(x) for x in OPTION_VALUES[k]):
            raise RulesError(f"{k} must be written as {type(OPTION_VALUES[k][-1]).__name__}, "
                             f"not {str(v)[:40]!r}", "not-allowed", key=k)
    r = make_rules(game, **{k: v for k, v in options.items() if k != "hand_size"})
    hs = options.get("hand_size")
    if hs is not None and not _same(hs, "auto") and not _same(hs, r.hand_size):
        r = make_rules(game, **options)
    return r


def games_catalogue() -> list[dict[str, Any]]:
    out = []
    for p in PRESETS.values():
        r = make_rules(p.id)
        out.append({
            "id": p.id,
            "name": {"en": p.name_en, "es": p.name_es},
            "players": list(p.choices("players")),
            "lobby_code": r.lobby_code(),
            "options": [
                {"key": k, "values": list(p.choices(k)), "default": p.defaults[k], "locked": k in p.locked}
                for k in p.keys
            ],
        })
    return out


@lru_cache(maxsize=64)
def compiled(rules: Rules) -> "Tables":
    return Tables(rules)


class Tables:
    """What a configuration fixes, computed once: join masks, matadors."""

    def __init__(self, r: Rules):
        n = r.set
        self.all = tiles.set_mask(n)
        self.n = n
        if r.joins == "matador":
            k = n + 1
            self.matadors = tiles.mask_of(t for t in range(r.n_tiles)
                                          if tiles.PIPS[t] == k or (tiles.LOW[t] == 0 and tiles.HIGH[t] == 0))
            # accept[v]: tiles playable on an end showing v
            self.accept = tuple(
                (tiles.SUIT[k - v] & self.all if 0 <= k - v <= n else 0) | self.matadors
                for v in range(n + 1))
        else:
            self.matadors = 0
            self.accept = tuple(tiles.SUIT[v] & self.all for v in range(n + 1))


__all__ = ["Rules", "RulesError", "PRESETS", "make_rules", "games_catalogue", "compiled",
           "OPTION_VALUES", "OPTION_KEYS", "find_preset", "coerce", "rules_from_options", "replace"]
