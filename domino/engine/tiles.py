"""Tiles and sets.

A tile is written low-high, ``"4-6"``; readers accept either order.  Inside
the engine a tile is a small integer id, the same for every set: tile (a, b)
with a <= b has id ``b*(b+1)//2 + a``, so the tiles of double-N are exactly
the ids ``0 .. (N+1)(N+2)/2 - 1`` and a hand is an ``int`` bitmask.
"""
from __future__ import annotations

from typing import NamedTuple

MAX_SET = 15
SETS = (6, 9, 12, 15)


class Tile(NamedTuple):
    a: int
    b: int

    @classmethod
    def parse(cls, text: str) -> "Tile":
        """``Tile.parse("6-4") == Tile(4, 6)``; raises ValueError on junk."""
        if type(text) is str:
            hit = _PARSED.get(text)       # every tile's two plain spellings: the engine's hot path
            if hit is not None:
                return hit
        if not isinstance(text, str):
            raise ValueError(f"a tile is written like '4-6', not {text!r}")
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"a tile is written like '4-6', not {text!r}")
        x, y = int(parts[0]), int(parts[1])
        if max(x, y) > MAX_SET:
            raise ValueError(f"no tile {text!r}: halves go from 0 to {MAX_SET}")
        return cls(min(x, y), max(x, y))

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"

    @property
    def id(self) -> int:
        return self.b * (self.b + 1) // 2 + self.a

    @property
    def pips(self) -> int:
        return self.a + self.b

    @property
    def is_double(self) -> bool:
        return self.a == self.b


def set_size(n: int) -> int:
    """Number of tiles in double-n."""
    return (n + 1) * (n + 2) // 2


# Tables indexed by tile id, covering the largest set.
TILES: tuple[Tile, ...] = tuple(Tile(a, b) for b in range(MAX_SET + 1) for a in range(b + 1))
NAMES: tuple[str, ...] = tuple(str(t) for t in TILES)
# Tile.parse's answers for "a-b" and "b-a" of every tile, read before any parsing.
_PARSED: dict[str, Tile] = {f"{x}-{y}": t for t in TILES for x, y in ((t.a, t.b), (t.b, t.a))}
LOW: tuple[int, ...] = tuple(t.a for t in TILES)
HIGH: tuple[int, ...] = tuple(t.b for t in TILES)
PIPS: tuple[int, ...] = tuple(t.pips for t in TILES)
DOUBLE: tuple[bool, ...] = tuple(t.is_double for t in TILES)
#: SUIT[n]: bitmask of every tile showing n.
SUIT: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if n in t) for n in range(MAX_SET + 1)
)
#: DOUBLES: bitmask of the doubles.
DOUBLES: int = sum(1 << i for i, t in enumerate(TILES) if t.is_double)


def tile_id(text: str) -> int:
    return Tile.parse(text).id


def name(tid: int) -> str:
    return NAMES[tid]


def set_mask(n: int) -> int:
    return (1 << set_size(n)) - 1


def ids(mask: int) -> list[int]:
    """The tile ids in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(tids) -> int:
    m = 0
    for t in tids:
        m |= 1 << t
    return m


def pip_sum(mask: int) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += PIPS[low.bit_length() - 1]
        mask ^= low
    return total


def sort_key(tid: int) -> tuple[int, int]:
    """Heaviest first, then by the higher number (6-3 before 5-4)."""
    return (-PIPS[tid], -HIGH[tid])
