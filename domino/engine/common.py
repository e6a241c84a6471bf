"""What every board shape shares: the action error, the seeded generators,
dealing by the formula, the opening doubles, bad-points settling and the
forced-move loop of a round's core.

``line.Hand`` (the line family), ``trains.Round``, ``foot.Round`` and
``row.Round`` all move with small ints: plays are ``>= 0``, ``DRAW`` and
``PASS`` are negative, and a seat whose only move is negative gets it applied
for it (``advance``).
"""
from __future__ import annotations

import random
import secrets

from domino.engine import tiles

DRAW = -1
PASS = -2

CODES = ("not-in-hand", "no-match", "pass-while-able", "draw-while-able", "out-of-turn",
         "score-mismatch", "bad-format")


class IllegalAction(ValueError):
    """An action the rules do not allow here; ``code`` says which kind."""

    def __init__(self, code: str, message: str):
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message


SEED_BITS = 128


def new_seed() -> int:
    """A new match's seed: 128 bits of the operating system's randomness.

    Every deal and every computer choice of the match comes from it (and the
    hand and seat numbers), so it must be out of reach of a search: from a
    seat's own tiles and the table, 2**31 seeds could be tried one by one."""
    return secrets.randbits(SEED_BITS)


def hand_rng(seed: int | str, hand_no: int, redeal: int) -> random.Random:
    return random.Random(f"domino/{seed}/{hand_no}/{redeal}")


def player_rng(seed: int | str, seat: int, hand_no: int, ply: int) -> random.Random:
    """A computer player's own generator: never the game's (RULES: no steering)."""
    return random.Random(f"player/{seed}/{seat}/{hand_no}/{ply}")


def shuffled_deal(rng: random.Random, pool: list[int], sizes: list[int]) -> tuple[list[list[int]], list[int]]:
    """Shuffle ``pool`` with ``rng`` and deal ``sizes[i]`` tiles to seat i
    (in the shuffled order); the rest is the boneyard, in drawing order."""
    order = list(pool)
    rng.shuffle(order)
    hands, i = [], 0
    for k in sizes:
        hands.append(order[i:i + k])
        i += k
    return hands, order[i:]


def double_id(v: int) -> int:
    return tiles.Tile(v, v).id


def holder_of(hands: list[list[int]] | list[int], tile: int) -> int:
    """The seat holding ``tile`` (hands as id lists or masks), or -1."""
    for s, h in enumerate(hands):
        if isinstance(h, int):
            if (h >> tile) & 1:
                return s
        elif tile in h:
            return s
    return -1


def highest_held_double(hands, top: int, allowed=None) -> tuple[int, int]:
    """The highest double ``<= top`` held by anybody (restricted to values in
    ``allowed`` when given): (seat, value), or (-1, -1)."""
    for v in range(top, -1, -1):
        if allowed is not None and v not in allowed:
            continue
        s = holder_of(hands, double_id(v))
        if s >= 0:
            return s, v
    return -1, -1


def lowest_seat(counts: list[int], start: int, among=None) -> int:
    """The seat with the lowest count; ties go to the first in turn order from
    ``start`` (the previous opener)."""
    n = len(counts)
    seats = [s for s in range(n) if among is None or s in among]
    return min(seats, key=lambda s: (counts[s], (s - start) % n))


def winning_side(result: dict | None, sides: list[list[int]]) -> int | None:
    """The side that won a hand, from its result (``None``: nobody, or a tie).

    A result names a *seat* in ``winner`` (who opens next when the winner
    does: who went out, else the lowest count on the winning side) and
    *sides* in ``winners``; a side is what a screen names and what scores.
    Without partners the two are the same numbers, which is how a seat
    passed where a side was meant went unseen until a partner won.  A tie
    the game breaks by turn order names the side of the seat it chose."""
    if not result:
        return None
    won = result.get("winners") or []
    if len(won) == 1:
        return won[0]
    seat = result.get("winner")
    if seat is None:
        return None
    return next((i for i, seats in enumerate(sides) if seat in seats), None)


def bad_points(ended: str, winner: int, counts: list[int], opener: int, among=None) -> dict:
    """RULES.md 4-6: every seat adds its own pips (``counts``, already weighed
    the game's way); going out adds 0.  ``winner`` of a blocked round: the
    lowest count (ties: first in turn order from the opener)."""
    seats = [s for s in range(len(counts)) if among is None or s in among]
    if ended == "domino":
        lead = winner
    else:
        lead = lowest_seat(counts, opener, seats)
    low = min(counts[s] for s in seats)
    winners = [winner] if ended == "domino" else [s for s in seats if counts[s] == low]
    points = [counts[s] if s in seats else 0 for s in range(len(counts))]
    return {"end": ended, "winner": lead, "winners": winners, "counts": list(counts), "raw": 0,
            "fives": [0] * len(counts), "hand_points": points, "points": list(points)}


class Core:
    """The forced-move loop and the boneyard, shared by the round cores."""

    __slots__ = ()

    def drawable(self) -> int:
        if not self.can_draw:
            return 0
        n = len(self.bone) - self.bpos
        return n if n > 0 else 0

    def draw_one_moves(self) -> list[int]:
        """The plays; with none, draw one tile (once a turn), then pass."""
        if self.ended:
            return []
        out = self.plays()
        if out:
            return out
        return [DRAW] if self.drawable() and not self.drew else [PASS]

    def draw_one(self, s: int) -> None:
        """Seat ``s`` draws the next boneyard tile."""
        t = self.bone[self.bpos]
        self.bpos += 1
        self.hands[s] |= 1 << t
        self.drew = True
        self.actions.append((s, "d", t))

    def advance(self) -> list[int]:
        """Apply forced moves (a single negative move) until the seat to move
        has a choice."""
        done = []
        while not self.ended:
            ms = self.moves()
            if len(ms) != 1 or ms[0] >= 0:
                break
            self.apply(ms[0])
            done.append(ms[0])
        return done

    def counts(self) -> list[int]:
        return [tiles.pip_sum(h) for h in self.hands]

    #: the round's list fields a clone copies (LISTS) and copies one level down (NESTED)
    LISTS: tuple = ()
    NESTED: tuple = ()

    def clone(self):
        """An independent copy (the computer players' playouts run on clones)."""
        cls = type(self)
        c = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(c, k, getattr(self, k))
        for k in cls.LISTS:
            setattr(c, k, list(getattr(self, k)))
        for k in cls.NESTED:
            setattr(c, k, [list(x) for x in getattr(self, k)])
        return c

    def settle(self) -> dict:
        return bad_points(self.ended, self.winner, self.counts(), self.opener)


# ----------------------------------------------------------------------------
# Moves of the boards with named ends (trains, foot, row):
# ``tile << 10 | end << 4 | exposed``; end OPEN: the opening tile.
OPEN = 63


def make_move(tile: int, end: int, exposed: int) -> int:
    return tile << 10 | end << 4 | exposed


def move_tile(m: int) -> int:
    return m >> 10


def move_end(m: int) -> int:
    return (m >> 4) & 63


def move_exposed(m: int) -> int:
    return m & 15


def other_half(t: int, v: int) -> int:
    """The number tile ``t`` leaves open when joined on ``v``."""
    a, b = tiles.LOW[t], tiles.HIGH[t]
    return b if a == v else a


class Board:
    """What ``Match`` asks a board shape for, beyond the core round: actions
    as RULES.md 8 dicts, their validation, and the shape's part of the view.
    Subclasses name their ends (``end_name`` / ``end_index``)."""

    shape = "?"

    # ----- ends
    @staticmethod
    def end_name(match, e: int) -> str:
        raise NotImplementedError

    @staticmethod
    def end_index(match, name) -> int | None:
        raise NotImplementedError

    # ----- actions
    def to_action(self, match, m: int, seat: int) -> dict:
        h = match.hand
        if m == DRAW:
            return {"seat": seat, "draw": tiles.NAMES[h.bone[h.bpos]] if h.bpos < len(h.bone) else None}
        if m == PASS:
            return {"seat": seat, "pass": True}
        t, e = move_tile(m), move_end(m)
        a = {"seat": seat, "play": tiles.NAMES[t]}
        if e != OPEN:
            a["end"] = self.end_name(match, e)
        return a

    def public_action(self, match, a: tuple, viewer: int | None) -> dict:
        seat, kind = a[0], a[1]
        if kind == "p":
            d = {"seat": seat, "play": tiles.NAMES[a[2]]}
            if a[3] != OPEN:
                d["end"] = self.end_name(match, a[3])
            return d
        if kind == "d":
            return {"seat": seat, "draw": tiles.NAMES[a[2]] if viewer == seat else None}
        return {"seat": seat, "pass": True}

    def find_move(self, match, action: dict) -> int:
        """Validate an action of the seat to move (seat and turn already
        checked by Match); return the core move."""
        h = match.hand
        seat = action["seat"]
        moves = h.moves()
        plays = [m for m in moves if m >= 0]
        if "play" in action:
            t = parse_tile(action["play"])
            if not (h.hands[seat] >> t) & 1:
                raise IllegalAction("not-in-hand", f"seat {seat} does not hold {tiles.NAMES[t]}")
            end = action.get("end")
            opening = [m for m in plays if move_end(m) == OPEN]
            if opening:
                if end is not None:
                    raise IllegalAction("bad-format", "the opening tile has no end")
                for m in opening:
                    if move_tile(m) == t:
                        return m
                raise IllegalAction("no-match", f"this round must open with {tiles.NAMES[move_tile(opening[0])]}")
            e = self.end_index(match, end)
            if e is None:
                raise IllegalAction("bad-format", f"no end {end!r} on this table")
            for m in plays:
                if move_tile(m) == t and move_end(m) == e:
                    return m
            raise IllegalAction("no-match", self.why_not(match, t, e))
        if "draw" in action:
            if DRAW not in moves:
                if plays:
                    raise IllegalAction("draw-while-able", f"seat {seat} can play, so it may not draw")
                raise IllegalAction("bad-format", "there is nothing to draw")
            want = action.get("draw")
            if want is not None and parse_tile(want) != h.bone[h.bpos]:
                next_name = tiles.NAMES[h.bone[h.bpos]]
                raise IllegalAction("bad-format", f"the next tile in the boneyard is {next_name}, not {want}")
            return DRAW
        if action.get("pass") is True:
            if PASS not in moves:
                if plays:
                    raise IllegalAction("pass-while-able", f"seat {seat} can play, so it may not pass")
                raise IllegalAction("pass-while-able", f"seat {seat} must draw from the boneyard first")
            return PASS
        raise IllegalAction("bad-format", f"not an action: {action!r}")

    def why_not(self, match, t: int, e: int) -> str:
        return f"{tiles.NAMES[t]} cannot go on {self.end_name(match, e)} now"


def parse_tile(text) -> int:
    try:
        return tiles.Tile.parse(text).id
    except ValueError as exc:
        raise IllegalAction("bad-format", str(exc)) from None
