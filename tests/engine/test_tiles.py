"""Tiles and sets (RULES.md 1)."""
from __future__ import annotations

import pytest

from domino.engine import tiles as T
def test_parse_and_write_low_high():
    assert T.Tile.parse("6-4") == T.Tile(4, 6) == T.Tile.parse("4-6")
    assert str(T.Tile.parse("6-4")) == "4-6"
    assert T.Tile.parse(" 0-0 ").is_double and T.Tile.parse("0-0").pips == 0
    assert T.Tile.parse("6-4").pips == 10
    for bad in ("6", "6-", "a-b", "1-2-3", "16-0", "", None, 64, "-1-2"):
        with pytest.raises(ValueError):
            T.Tile.parse(bad)


@pytest.mark.parametrize("n,size", [(6, 28), (9, 55), (12, 91), (15, 136)])
def test_set_sizes_and_ids(n, size):
    assert T.set_size(n) == size
    tiles = [T.TILES[i] for i in range(size)]
    assert len(set(tiles)) == size
    assert {(t.a, t.b) for t in tiles} == {(a, b) for b in range(n + 1) for a in range(b + 1)}
    for i, t in enumerate(tiles):
        assert t.id == i == T.tile_id(str(t)) and T.name(i) == str(t)
        assert t.id == t.b * (t.b + 1) // 2 + t.a
    assert T.set_mask(n) == (1 << size) - 1
    # each number appears on N+1 tiles of the set
    for v in range(n + 1):
        assert bin(T.SUIT[v] & T.set_mask(n)).count("1") == n + 1


def test_tables_and_masks():
    assert sum(T.PIPS[i] for i in range(28)) == 168
    assert T.pip_sum(T.set_mask(6)) == 168
    ids = [0, 5, 27, 9]
    m = T.mask_of(ids)
    assert T.ids(m) == sorted(ids) and T.pip_sum(m) == sum(T.PIPS[i] for i in ids)
    assert bin(T.DOUBLES & T.set_mask(6)).count("1") == 7
    assert all(T.DOUBLE[i] == (T.LOW[i] == T.HIGH[i]) for i in range(len(T.TILES)))


def test_sort_key_heaviest_then_higher_number():
    order = sorted((T.tile_id(x) for x in ("4-5", "3-6", "6-6", "0-1", "5-5", "4-6")), key=T.sort_key)
    assert [T.name(i) for i in order] == ["6-6", "4-6", "5-5", "3-6", "4-5", "0-1"]
