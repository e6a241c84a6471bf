"""Tiles and sets (RULES.md 1)."""
from __future__ import annotations

import pytest

from domino.engine import tiles
def test_parse_and_write_low_high():
    assert tiles.Tile.parse("6-4") == tiles.Tile(4, 6) == tiles.Tile.parse("4-6")
    assert str(tiles.Tile.parse("6-4")) == "4-6"
    assert tiles.Tile.parse(" 0-0 ").is_double and tiles.Tile.parse("0-0").pips == 0
    assert tiles.Tile.parse("6-4").pips == 10
    for bad in ("6", "6-", "a-b", "1-2-3", "16-0", "", None, 64, "-1-2"):
        with pytest.raises(ValueError):
            tiles.Tile.parse(bad)


@pytest.mark.parametrize("n,size", [(6, 28), (9, 55), (12, 91), (15, 136)])
def test_set_sizes_and_ids(n, size):
    assert tiles.set_size(n) == size
    set_tiles = [tiles.TILES[i] for i in range(size)]
    assert len(set(set_tiles)) == size
    assert {(t.a, t.b) for t in set_tiles} == {(a, b) for b in range(n + 1) for a in range(b + 1)}
    for i, t in enumerate(set_tiles):
        assert t.id == i == tiles.tile_id(str(t)) and tiles.name(i) == str(t)
        assert t.id == t.b * (t.b + 1) // 2 + t.a
    assert tiles.set_mask(n) == (1 << size) - 1
    # each number appears on N+1 tiles of the set
    for v in range(n + 1):
        assert bin(tiles.SUIT[v] & tiles.set_mask(n)).count("1") == n + 1


def test_tables_and_masks():
    assert sum(tiles.PIPS[i] for i in range(28)) == 168
    assert tiles.pip_sum(tiles.set_mask(6)) == 168
    ids = [0, 5, 27, 9]
    m = tiles.mask_of(ids)
    assert tiles.ids(m) == sorted(ids) and tiles.pip_sum(m) == sum(tiles.PIPS[i] for i in ids)
    assert bin(tiles.DOUBLES & tiles.set_mask(6)).count("1") == 7
    assert all(tiles.DOUBLE[i] == (tiles.LOW[i] == tiles.HIGH[i]) for i in range(len(tiles.TILES)))


def test_sort_key_heaviest_then_higher_number():
    order = sorted((tiles.tile_id(x) for x in ("4-5", "3-6", "6-6", "0-1", "5-5", "4-6")), key=tiles.sort_key)
    assert [tiles.name(i) for i in order] == ["6-6", "4-6", "5-5", "3-6", "4-5", "0-1"]
