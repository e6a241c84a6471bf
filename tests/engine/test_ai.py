"""Computer players: legality, fairness (view only), determinism, slicing,
the fives test for medium, going out for easy, hint and arena schema."""
from __future__ import annotations

import random

import pytest

from domino.engine import tiles
from domino.players.levels import LEVELS, HardSearch, hard, hard_search, hint
from domino.players.line import knowledge, medium_scores
from domino.players.arena import run_arena
from domino.engine.line import Hand
from domino.engine.match import Match
from domino.engine.rules import PRESETS, make_rules

GAMES = list(PRESETS)
KINDS = ("easy", "medium", "hard")


def configs():
    for g in GAMES:
        ps = PRESETS[g].choices("players")
        for p in sorted({min(ps), max(ps)}):
            yield g, p


def advance_random(m: Match, rng: random.Random, plies: int) -> bool:
    """Play random legal moves until `plies` choices were made and the seat to
    move has a real choice; False if the hand ended first."""
    made = 0
    while m.phase == "play":
        legal = m.legal_actions()
        if made >= plies and len(legal) > 1:
            return True
        m.apply(rng.choice(legal))
        made += 1
    return False


def positions(game: str, players: int, n: int, seed: int = 0):
    rules = make_rules(game, players=players)
    out = []
    i = 0
    while len(out) < n and i < 50:
        m = Match(rules, seed=f"pos/{seed}/{i}")
        rng = random.Random(i)
        if advance_random(m, rng, rng.randrange(0, 3 * players)):
            out.append(m)
        i += 1
    return out


@pytest.mark.parametrize("game,players", list(configs()))
def test_every_level_returns_a_legal_action(game, players):
    for m in positions(game, players, 3):
        view = m.view(m.turn)
        for kind in KINDS:
            a = LEVELS[kind](view, random.Random(1))
            assert a in view["legal"], (kind, a, view["legal"])


@pytest.mark.parametrize("game", GAMES)
def test_whole_hands_with_every_level(game):
    rules = make_rules(game)
    kinds = [KINDS[i % 3] for i in range(rules.players)]
    m = Match(rules, seed=f"whole/{game}", seats=[{"name": k, "kind": k} for k in kinds])
    while m.phase == "play":
        seat = m.turn
        view = m.view(seat)
        a = LEVELS[kinds[seat]](view, m.player_rng(seat))
        assert a in view["legal"]
        m.apply(a)
    assert m.phase in ("hand-over", "match-over")


def hidden_twin(m: Match) -> Match:
    """A copy of the match that differs only in what the seat to move cannot
    see: tiles swapped between two hidden holders, the boneyard reordered."""
    me = m.turn
    t = m.clone()
    h = t.hand
    if m.rules.shape == "row":
        # Frijolito: nobody knows the face-down tiles never turned (own ones included)
        spots = [(s, i) for s in range(m.rules.players) for i, x in enumerate(h.rows[s])
                 if not (h.known >> x) & 1]
        (sa, ia), (sb, ib) = spots[0], spots[-1]
        ta, tb = h.rows[sa][ia], h.rows[sb][ib]
        h.rows[sa][ia], h.rows[sb][ib] = tb, ta
        h.hands = [tiles.mask_of(r) for r in h.rows]
        return t
    holders = [s for s in range(m.rules.players) if s != me and h.hands[s]]
    undrawn = h.bone[h.bpos:]
    if len(holders) >= 2:
        a, b = holders[0], holders[1]
        ta, tb = tiles.ids(h.hands[a])[0], tiles.ids(h.hands[b])[-1]
        h.hands[a] ^= (1 << ta) | (1 << tb)
        h.hands[b] ^= (1 << ta) | (1 << tb)
    if undrawn:
        a = holders[0]
        ta = tiles.ids(h.hands[a])[-1]
        tb = undrawn[0]
        h.hands[a] ^= (1 << ta) | (1 << tb)
        undrawn[0] = ta
        h.bone = h.bone[:h.bpos] + undrawn[::-1]
    return t


@pytest.mark.parametrize("game,players", list(configs()))
def test_fairness_same_view_same_choice(game, players):
    """A player is called with the view and its generator only: hidden tiles
    (other hands, boneyard order) never change its decision."""
    checked = 0
    for m in positions(game, players, 2, seed=7):
        twin = hidden_twin(m)
        assert twin.state_key() != m.state_key()
        seat = m.turn
        v1, v2 = m.view(seat), twin.view(seat)
        assert v1 == v2
        for kind in KINDS:
            for s in range(2):
                a1 = LEVELS[kind](v1, random.Random(s))
                a2 = LEVELS[kind](v2, random.Random(s))
                assert a1 == a2, (kind, s)
        checked += 1
    assert checked


@pytest.mark.parametrize("game", ["draw", "all-fives", "matador", "latin", "mexican-train",
                                  "chicken-foot", "frijolito"])
def test_determinism_and_slicing(game):
    players = 4 if game in ("latin", "chicken-foot", "frijolito") else 2
    for m in positions(game, players, 2, seed=3):
        view = m.view(m.turn)
        for kind in KINDS:
            assert LEVELS[kind](view, random.Random(5)) == LEVELS[kind](view, random.Random(5))
        whole = hard(view, random.Random(9))
        s = HardSearch(view, random.Random(9))
        slices = 0
        while (a := s.step(0.5)) is None:
            slices += 1
        assert a == whole
        gen = hard_search(view, random.Random(9), slice_ms=2)
        try:
            while True:
                next(gen)
        except StopIteration as stop:
            assert stop.value == whole


def test_a_slice_stops_before_a_playout_would_overrun_it(monkeypatch):
    """Slow playouts (19 ms, as a Mexican Train playout with its chain
    searches can take) never stretch a 40 ms slice: it ends before the
    playout that would pass the limit, and the result is the unsliced one."""
    from domino.players import levels
    clock = [0.0]
    monkeypatch.setattr(levels.time, "perf_counter", lambda: clock[0])
    views = (m.view(m.turn) for m in positions("mexican-train", 4, 8, seed=3))
    view = next(v for v in views if HardSearch(v, random.Random(9)).result is None)
    s = HardSearch(view, random.Random(9))
    inner = s._rollout

    def slow(move):
        clock[0] += 0.019
        return inner(move)

    s._rollout = slow
    # the set-up (knowledge, medium's scores) belongs to the first slice:
    # when it took the whole slice, the first step yields at once
    s.started = clock[0] - 0.045
    assert s.step(40) is None and clock[0] == 0.0 and s.samples == 0 and s.ci == 0
    longest, slices = 0.0, 0
    while True:
        t0 = clock[0]
        a = s.step(40)
        longest = max(longest, clock[0] - t0)
        slices += 1
        if a is not None:
            break
    assert slices > 2 and longest <= 0.040
    assert a == hard(view, random.Random(9))


def test_easy_never_misses_a_domino():
    found = 0
    for game in GAMES:
        rules = make_rules(game)
        for i in range(15):
            m = Match(rules, seed=f"dom/{game}/{i}")
            rng = random.Random(i)
            while m.phase == "play":
                view = m.view(m.turn)
                if len(view["hand"]) == 1 and any("play" in a for a in view["legal"]):
                    for s in range(5):
                        a = LEVELS["easy"](view, random.Random(s))
                        assert "play" in a
                    found += 1
                m.apply(rng.choice(view["legal"]))
    assert found > 10


def scripted_fives() -> Match:
    """All Fives, seat 1 opened 1-4 (ends 1 and 4). Seat 0 holds 1-6, which
    scores 10 at W, and heavier tiles that score nothing."""
    rules = make_rules("all-fives", players=2)
    m = Match(rules, seed=0)
    tid = tiles.tile_id
    mine = ["1-6", "4-6", "4-5", "2-3", "0-0", "0-2", "3-3"]
    his = ["1-4", "6-6", "5-5", "2-2", "0-3", "1-2", "3-5"]
    rest = [t for t in range(rules.n_tiles) if tiles.NAMES[t] not in mine + his]
    h = Hand(rules, [tiles.mask_of(map(tid, mine)), tiles.mask_of(map(tid, his))], rest, 1, None)
    m.hand = h
    m.records[-1]["actions"] = h.actions
    m.apply({"seat": 1, "play": "1-4"})
    return m


def test_medium_takes_the_fives():
    m = scripted_fives()
    view = m.view(0)
    assert view["turn"] == 0 and view["fives"] == [0, 5]
    a = LEVELS["medium"](view, random.Random(0))
    assert a["play"] == "1-6" and a["end"] == "W"
    k = knowledge(view)
    feats = {(x["play"], x["end"]): f for _, x, f in medium_scores(k, view["legal"])}
    assert feats[("1-6", "W")]["fives"] == 10
    assert m.apply(a) and m.view(0)["fives"] == [10, 5]


def test_knowledge_remembers_passes_and_draws():
    rules = make_rules("draw", players=2)
    for i in range(40):
        m = Match(rules, seed=f"know/{i}")
        rng = random.Random(i)
        while m.phase == "play":
            view = m.view(m.turn)
            k = knowledge(view)
            other = 1 - view["seat"]
            # what the seat believes the other lacks, the other really lacks
            # (tiles drawn since are allowed: the belief resets on a new draw)
            assert not (k.forbid[other] & m.hand.hands[other]) or any(
                "draw" in a for a in view["history"])
            m.apply(rng.choice(view["legal"]))


def test_hint():
    m = scripted_fives()
    h = hint(m.view(0))
    assert h["action"] in m.view(0)["legal"]
    assert h["why"]["en"] and h["why"]["es"]
    assert h == hint(m.view(0))


def test_arena_smoke():
    out = run_arena("draw", 2, "medium", "easy", 3, 0, {})
    for key in ("deals", "hands", "points_share_a", "ci95", "win_rate_a",
                "mean_points_per_hand", "ms_per_decision"):
        assert key in out
    assert out["deals"] == 3 and out["hands"] == 6
    lo, hi = out["ci95"]
    assert lo <= out["points_share_a"] <= hi
    for side in ("a", "b"):
        assert set(out["ms_per_decision"][side]) == {"mean", "p95", "max"}
    out4 = run_arena("latin", 4, "easy", "random", 2, 1, {"target": 50})
    assert out4["hands"] == 4 and 0 <= out4["points_share_a"] <= 1
    bad = run_arena("muggins", 3, "medium", "easy", 2, 1, {})
    assert bad["hands"] == 4


def scripted_train() -> Match:
    """Mexican Train, 2 seats, engine 12-12, seat 0 to move.  Seat 0's chain
    for its own train is 12-3, 3-5, 5-9; 12-11 also fits 12 but leads
    nowhere in the hand."""
    from domino.engine.trains import Round
    rules = make_rules("mexican-train", players=2)
    m = Match(rules, seed=0)
    tid = tiles.tile_id
    mine = ["3-12", "3-5", "5-9", "11-12", "0-1", "1-2"]
    his = ["0-6", "6-7", "7-8", "2-4", "4-10", "1-1"]
    used = set(mine + his + ["12-12"])
    rest = [t for t in range(rules.n_tiles) if tiles.NAMES[t] not in used]
    h = Round(rules, [tiles.mask_of(map(tid, mine)), tiles.mask_of(map(tid, his))], rest, 0, tid("12-12"))
    m.hand = h
    m.records[-1]["actions"] = h.actions
    m.records[-1]["engine"] = tid("12-12")
    return m


def test_medium_keeps_its_chain_for_its_own_train():
    m = scripted_train()
    view = m.view(0)
    assert {"seat": 0, "play": "11-12", "end": "train:0"} in view["legal"]
    for kind in ("medium", "hard"):
        a = LEVELS[kind](view, random.Random(0))
        # the off-chain tile goes on the Mexican train, or the chain starts at home
        assert a in ({"seat": 0, "play": "11-12", "end": "train:mexican"},
                     {"seat": 0, "play": "3-12", "end": "train:0"}), (kind, a)
    from domino.players.boards import best_chain, knowledge as board_knowledge
    k = board_knowledge(view)
    assert [tiles.NAMES[t] for t in best_chain(12, k.hand)] == ["3-12", "3-5", "5-9"]
    assert LEVELS["medium"](view, random.Random(0))["play"] == "11-12"


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot", "frijolito"])
def test_hint_on_the_other_boards(game):
    done = 0
    for m in positions(game, 2, 3, seed=5):
        view = m.view(m.turn)
        h = hint(view)
        assert h["action"] in view["legal"]
        assert h["why"]["en"] and h["why"]["es"]
        done += 1
    assert done


def test_trains_playouts_follow_the_plan():
    """The hard player's Mexican Train playouts play like medium: off-chain
    tiles elsewhere first, then the own train's chain in order."""
    from domino.players.boards import trains_policy
    m = scripted_train()
    h = m.hand.clone()
    plans = [None, None]
    rng = random.Random(0)
    mv = trains_policy(h, h.moves(), rng, plans)
    assert (tiles.NAMES[mv >> 10], (mv >> 4) & 63) == ("11-12", 2)      # the Mexican train
    assert [tiles.NAMES[t] for t in plans[0][1]] == ["3-12", "3-5", "5-9"]
    h.apply(mv)
    h.public[1] = True               # 3-12 could now also go on seat 1's train
    h.turn = 0                       # seat 0 again: the chain, in order, at home
    played = []
    for _ in range(3):
        ms = h.moves()
        mv = trains_policy(h, ms, rng, plans)
        played.append((tiles.NAMES[mv >> 10], (mv >> 4) & 63))
        h.apply(mv)
        h.turn = 0
    assert played == [("3-12", 0), ("3-5", 0), ("5-9", 0)]


def test_search_keeps_the_plan_unless_clearly_beaten():
    """margin_z: the heuristic's choice (candidate 0) stays unless the best
    candidate beats it by a clear margin over the paired samples."""
    from domino.players.search import SlicedSearch

    class Fake(SlicedSearch):
        def __init__(self, edge, noise):
            self.rng = random.Random(3)
            self.budget, self.min_samples, self.max_samples = 0, 60, 60
            self.margin_z = 1.5
            self.edge, self.noise = edge, noise
            self._start([(2.0, "plan", None), (1.0, "other", None)], lambda a: a)

        def _new_sample(self):
            self.luck = self.rng.gauss(0, 10)       # shared by both candidates

        def _rollout(self, m):
            return self.luck + (self.edge if m == "other" else 0) + self.rng.gauss(0, self.noise)

    assert Fake(edge=0.3, noise=3.0).run() == "plan"      # a hair better, within the noise
    assert Fake(edge=4.0, noise=3.0).run() == "other"     # clearly better


def test_frijolito_medium_does_not_feed_the_next_seat():
    """When its turn is about to end, medium places a tile that fits both
    ends where the next seat's leftmost tile (seen by all when it was turned
    over before) does not fit; hard's playouts do the same."""
    from domino.players import boards
    rules = make_rules("frijolito", players=4)
    checked = told = 0
    for seed in range(1500):       # the deals decide how often the case comes up
        m = Match(rules, seed=seed, seats=[{"name": str(i), "kind": "medium"} for i in range(4)])
        while m.phase == "play" and checked < 12:
            s = m.turn
            view = m.view(s)
            k = boards.knowledge(view)
            rows = k.row_known
            lt = rows[(s + 1) % 4][0] if rows[(s + 1) % 4] else -1
            nxt = rows[s][1] if len(rows[s]) > 1 else -1
            feeds, safe = [], []
            for a in view["legal"]:
                if "play" not in a or a.get("end") is None:
                    continue
                mv = boards.action_move(k, a)
                if mv >> 10 != rows[s][0]:
                    continue
                ends = list(k.h.end_val)
                ends[(mv >> 4) & 63] = mv & 15
                if nxt >= 0 and (tiles.LOW[nxt] in ends or tiles.HIGH[nxt] in ends):
                    feeds = safe = []           # its turn goes on: not this case
                    break
                (feeds if lt >= 0 and (tiles.LOW[lt] in ends or tiles.HIGH[lt] in ends) else safe).append(a)
            if feeds and safe and len(rows[s]) > 1 and not any("peek" in a for a in view["legal"]):
                assert LEVELS["medium"](view, random.Random(0)) in safe
                tip = hint(view)          # hard's choice, explained
                if tip["action"] in safe:
                    assert "next player's known tile" in tip["why"]["en"]
                    assert "ficha conocida del siguiente jugador" in tip["why"]["es"]
                    told += 1
                # the playout policy, on the engine's own round
                h = m.hand
                ms = h.moves()
                pick = boards.row_policy(h, ms, random.Random(0))
                assert m.move_to_action(pick) in safe
                checked += 1
            m.apply(LEVELS["medium"](view, m.player_rng(s)))
        if checked >= 12:
            break
    assert checked >= 5 and told >= 3
