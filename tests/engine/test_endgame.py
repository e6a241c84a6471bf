"""The two-seat Mexican Train endgame search: it moves by the engine's rules
and values positions exactly."""
from __future__ import annotations

import random

import pytest

from domino.engine.common import DRAW, PASS
from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.players import get_player
from domino.players.endgame import TrainsEndgame, supports

OPTIONS = [{}, {"close_doubles": False}, {"mexican_train": False}, {"boneyard": "none"},
           {"set": 9}]


def late_rounds(options: dict, seeds, tiles_left: int):
    """Round cores of two-seat rounds played at random until at most
    ``tiles_left`` tiles are in hand (with a choice to make)."""
    rules = make_rules("mexican-train", players=2, **options)
    play = get_player("random")
    for seed in seeds:
        m = Match(rules, seed=seed, seats=[{"name": "a", "kind": "medium"}] * 2)
        while m.phase == "play":
            h = m.hand
            if supports(h) and h.hands[0].bit_count() + h.hands[1].bit_count() <= tiles_left \
                    and len(h.moves()) > 1:
                yield m
                break
            s = m.turn
            m.apply(play(m.view(s), m.player_rng(s)))


def _solver_state(eg, h, bpos0):
    st = eg.state(h)
    return st[:6] + (h.bpos - bpos0,) + st[7:]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_the_search_moves_by_the_engine_rules(options):
    rng = random.Random(5)
    walks = 0
    seen = set()
    for m in late_rounds(options, range(80), 24):
        h = m.hand.clone()
        eg = TrainsEndgame(h, 0, 10 ** 6)
        bpos0 = h.bpos
        st = eg.state(h)
        while True:
            kids = eg.children(st)
            assert sorted(k[0] for k in kids) == sorted(h.moves())
            move, nxt, value = rng.choice(kids)
            seen.add(move if move < 0 else "open double" if nxt and nxt[4] >= 0 else "play")
            h.apply(move)
            if nxt is None:
                assert h.ended
                seen.add(h.ended)
                pts = h.settle()["points"]
                assert value == pts[1] - pts[0]
                break
            assert not h.ended
            assert nxt == _solver_state(eg, h, bpos0)
            st = nxt
        walks += 1
    assert walks >= 30
    # the walks went through every kind of move and both ends of a round
    want = {"play", PASS, "domino", "blocked"}
    if options.get("boneyard") != "none":
        want.add(DRAW)
    if options.get("close_doubles", True):
        want.add("open double")
    assert want <= seen


def _minimax(h, me):
    """Plain minimax over the engine's own round core (no table, no cuts)."""
    if h.ended:
        pts = h.settle()["points"]
        return pts[1 - me] - pts[me]
    vals = []
    for m in h.moves():
        c = h.clone()
        c.apply(m)
        vals.append(_minimax(c, me))
    return max(vals) if h.turn == me else min(vals)


@pytest.mark.parametrize("options", OPTIONS[:3], ids=["default", "open-doubles", "no-mexican"])
def test_the_search_values_positions_exactly(options):
    checked = 0
    for m in late_rounds(options, range(100, 160), 9):
        h = m.hand
        for me in (0, 1):
            eg = TrainsEndgame(h, me, 10 ** 6)
            st = eg.state(h)
            for move in h.moves():
                c = h.clone()
                c.apply(move)
                assert eg.move_value(st, move) == _minimax(c, me)
                checked += 1
    assert checked >= 100


def test_the_node_cap_stops_the_search():
    from domino.players.endgame import TooBig
    m = next(late_rounds({}, range(3), 30))
    eg = TrainsEndgame(m.hand, 0, 50)
    with pytest.raises(TooBig):
        eg.search(eg.state(m.hand))


# ---------------------------------------------------------------------------
# The hard player at two seats

def _hard_views(tiles_left: int, seeds, boneyard_empty: bool = False):
    for m in late_rounds({}, seeds, tiles_left):
        h = m.hand
        if boneyard_empty and h.drawable():
            continue
        yield m, m.view(m.turn)


def test_hard_keeps_medium_plan_until_the_end_of_the_round():
    from domino.players.boards import ENDGAME_TILES
    rules = make_rules("mexican-train", players=2)
    hard, medium = get_player("hard"), get_player("medium")
    m = Match(rules, seed=4, seats=[{"name": "a", "kind": "hard"}] * 2)
    checked = 0
    while m.phase == "play" and sum(m.view(m.turn)["counts"]) > ENDGAME_TILES:
        view = m.view(m.turn)
        for r in range(3):
            assert hard(view, random.Random(r)) == medium(view, random.Random(r))
        checked += len(view["legal"]) > 1
        m.apply(medium(view, m.player_rng(m.turn)))
    assert checked > 20


def test_hard_plays_the_best_end_when_every_tile_is_known():
    """With the boneyard drawn, the rival's hand is the tiles not seen: hard
    then plays a move of the best exact value, which medium often misses."""
    from domino.players.boards import BoardSearch, ENDGAME_TILES
    hard, medium = get_player("hard"), get_player("medium")
    checked = medium_short = 0
    for m, view in _hard_views(ENDGAME_TILES, range(400), boneyard_empty=True):
        h = m.hand
        eg = TrainsEndgame(h, h.turn, 10 ** 7)
        st = eg.state(h)
        values = {mv: eg.move_value(st, mv) for mv in h.moves()}
        best = max(values.values())
        assert values[m.find_move(hard(view, random.Random(1)))] == best
        medium_short += values[m.find_move(medium(view, random.Random(1)))] < best
        s = BoardSearch(view, random.Random(1))
        assert s.exact and len(s.cands) == len(view["legal"])
        checked += 1
        if checked >= 40:
            break
    assert checked >= 40 and medium_short >= 3


def test_hard_endgame_is_deterministic_and_sliced():
    from domino.players.boards import BoardSearch, ENDGAME_TILES
    hard = get_player("hard")
    n = 0
    for m, view in _hard_views(ENDGAME_TILES, range(30)):
        whole = hard(view, random.Random(9))
        s = BoardSearch(view, random.Random(9))
        assert s.exact
        slices = 0
        while (a := s.step(0.01)) is None:
            slices += 1
        assert a == whole and slices >= 16
        n += 1
        if n >= 4:
            break
    assert n == 4


def test_hard_keeps_medium_choice_when_the_end_is_too_big(monkeypatch):
    from domino.players import boards
    monkeypatch.setattr(boards, "ENDGAME_NODES", 1)
    n = 0
    for m, view in _hard_views(boards.ENDGAME_TILES, range(30)):
        s = boards.BoardSearch(view, random.Random(2))
        assert s.exact
        assert s.run() == s.cands[0]
        scored = boards.medium_scores(s.k, view["legal"])
        top = max(sc for sc, _, _ in scored)
        assert s.cands[0] in [a for sc, a, _ in scored if sc >= top - 1e-9]
        n += 1
        if n >= 3:
            break
    assert n == 3
