"""scripts/duel_pa.py (the benchmark against abw333/dominoes' pa player): its
adapter and its statistics; the last test against abw333's own game and player
(``dominoes``, in the dev requirements: it runs everywhere the suite does)."""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import duel_pa  # noqa: E402

from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from domino.players import get_player  # noqa: E402


def _fake_view(**kw) -> dict:
    v = {"seat": 1, "turn": 1, "opener": 0, "counts": [5, 6, 7, 6],
         "hand": ["0-0", "1-2", "2-2", "3-5", "0-4", "5-5"],
         "history": [{"seat": 0, "play": "3-4"}, {"seat": 1, "play": "4-6", "end": "W"},
                     {"seat": 2, "pass": True}, {"seat": 3, "play": "3-3", "end": "E"},
                     {"seat": 0, "play": "6-1", "end": "W"}],
         "ends": {"W": 1, "E": 3},
         "legal": [{"seat": 1, "play": "1-2", "end": "W"}, {"seat": 1, "play": "3-5", "end": "E"}]}
    v.update(kw)
    return v


def test_describe_a_fake_view():
    d = duel_pa.describe(_fake_view())
    assert d["hand"] == [(0, 0), (0, 4), (1, 2), (2, 2), (3, 5), (5, 5)]
    assert d["ends"] == (1, 3)
    # the opening 3-4 lies 4|3 (4 on the west, where 4-6 went), each tile as it lies
    assert d["moves"] == [(0, (4, 3), True), (1, (6, 4), True), (2, None, None),
                          (3, (3, 3), False), (0, (1, 6), True)]
    assert d["passed_on"] == {2: [3, 6]}          # seat 2 passed on ends 6 and 3
    assert len(d["unseen"]) == 5 + 7 + 6 == 28 - 6 - 4
    assert not set(d["unseen"]) & {(3, 4), (4, 6), (3, 3), (1, 6), (0, 0)}
    assert duel_pa.action_for(_fake_view(), (2, 1), True) == {"seat": 1, "play": "1-2", "end": "W"}
    assert duel_pa.action_for(_fake_view(), (5, 3), False)["end"] == "E"
    with pytest.raises(ValueError):
        duel_pa.action_for(_fake_view(), (0, 0), True)
    with pytest.raises(ValueError):
        duel_pa.describe(_fake_view(ends={"W": 2, "E": 3}))


def test_describe_real_views_of_a_block_hand():
    m = Match(make_rules("block", players=4, partnership=True), seed=7)
    rnd = get_player("random")
    while m.phase == "play":
        seat = m.turn
        v = m.view(seat)
        d = duel_pa.describe(v)
        assert d["hand"] == sorted(duel_pa.parse_tile(t) for t in v["hand"])
        if v["ends"]:
            assert d["ends"] == (v["ends"]["W"], v["ends"]["E"])
        assert sum(d["counts"]) - d["counts"][seat] == len(d["unseen"])
        for s, vals in d["passed_on"].items():      # nobody who passed held those values
            assert not any(set(t) & set(vals) for t in map(duel_pa.parse_tile, m.view(s)["hand"]))
        m.apply(rnd(v, random.Random(len(v["history"]))))


def test_wilson_and_cpu_stats():
    lo, hi = duel_pa.wilson(60, 100)
    assert lo == pytest.approx(0.502, abs=1e-3) and hi == pytest.approx(0.691, abs=1e-3)
    assert duel_pa.wilson(0, 10)[0] == 0.0 and duel_pa.wilson(10, 10)[1] == 1.0
    assert duel_pa.wilson(0, 0) == (0.0, 1.0)
    s = duel_pa.cpu_stats([0.1] * 19 + [1.0])
    assert s["decisions"] == 20 and s["p95"] == 0.1 and s["mean"] == pytest.approx(0.145)


def test_with_abw333_a_game_from_a_view_and_a_duel():
    import dominoes   # requirements-dev.txt: never skipped
    g = duel_pa.to_game(duel_pa.describe(_fake_view()), dominoes)
    assert (g.board.left_end(), g.board.right_end()) == (1, 3)
    assert g.turn == 1 and g.starting_player == 0
    assert {(d.first, d.second, left) for d, left in g.valid_moves} == {(1, 2, True), (3, 5, False)}
    assert g.missing_values()[2] == {3, 6}
    # late in a hand (a search is cheap there) pa answers one of the view's legal actions,
    # and at the end abw333's replay names the side our engine names
    pa = duel_pa.PaChooser(dominoes, 1)
    asked = 0
    for seed in range(6):
        m = Match(make_rules("block", players=4, partnership=True), seed=seed)
        rnd = get_player("random")
        while m.phase == "play":
            v = m.view(m.turn)
            if len(v["history"]) >= 14 and len(v["legal"]) > 1:
                a = pa(v, random.Random(seed))
                asked += 1
            else:
                a = rnd(v, random.Random(len(v["history"])))
            assert a in v["legal"]
            m.apply(a)
        rec = m.records[0]
        side, why = duel_pa.abw333_winner(rec["deal"], rec["opener"], m.view(0), dominoes)
        assert why is None
        winners = rec["result"]["winners"]
        assert side == (winners[0] if len(winners) == 1 else None)
    assert asked


def test_the_oracle_keeps_every_won_hand_and_beats_medium():
    """The ceiling's pair (it sees every hand): once its solver says a hand is
    won whatever the others do, the hand is won; and it wins most hands
    against medium's pair, on both sides of each deal."""
    rules = make_rules("block", players=4, partnership=True)
    med = get_player("medium")
    won = hands = 0
    for seed in range(6):
        for ours in (0, 1):
            oracle = duel_pa.Oracle()
            m = Match(rules, seed=f"oracle/{seed}")
            sure = False
            while m.phase == "play":
                v = m.view(m.turn)
                rng = m.player_rng(m.turn)
                if m.turn % 2 == ours:
                    a = oracle(v, rng, m.hand)
                    if len(v["legal"]) > 1:
                        sure = sure or oracle.value == 1
                else:
                    a = med(v, rng)
                assert a in v["legal"]
                m.apply(a)
            winners = m.records[0]["result"]["winners"]
            if sure:
                assert winners == [ours]
            hands += 1
            won += winners == [ours]
    assert won >= 0.75 * hands, (won, hands)


def test_two_duels_compared_deal_by_deal(tmp_path):
    """--compare: the difference per hand and its interval come from the deals
    both duels played, paired, so a deal's luck cancels."""
    a = [[0, 0, 1.0], [0, 1, 0.0], [1, 0, 1.0], [1, 1, 1.0], [2, 0, 0.5], [2, 1, 0.0], [3, 0, 1.0], [3, 1, 1.0]]
    b = [[0, 0, 1.0], [0, 1, 0.0], [1, 0, 1.0], [1, 1, 0.0], [2, 0, 0.0], [2, 1, 0.0], [9, 0, 1.0], [9, 1, 1.0]]
    c = duel_pa.paired(a, b)
    assert c["deals"] == 3                               # deals 3 and 9 were played by one only
    assert c["diff_per_hand"] == pytest.approx((0 + 1 + 0.5) / 3 / 2)
    lo, hi = c["ci95"]
    assert lo < c["diff_per_hand"] < hi
    assert duel_pa.paired(a, a)["ci95"] == [0.0, 0.0]  # the same outcomes: no difference, no doubt
    fa, fb = tmp_path / "a.json", tmp_path / "b.json"
    fa.write_text(json.dumps([{"outcomes": a}]))
    fb.write_text(json.dumps([{"outcomes": b}]))
    assert duel_pa.main(["--compare", str(fa), str(fb)]) == 0


def test_a_duel_keeps_each_hands_outcome():
    """run_duel's ``outcomes``: one per hand, both sides of each deal, adding up
    to its win rate (here the oracle's pair against a random pair, for speed)."""
    import dominoes
    r = duel_pa.run_duel("oracle", 3, 0, get_player("random"), dominoes, progress=False, first=5)
    assert [(d, s) for d, s, _ in r["outcomes"]] == [(5, 0), (5, 1), (6, 0), (6, 1), (7, 0), (7, 1)]
    assert sum(w for _, _, w in r["outcomes"]) / r["hands"] == pytest.approx(r["win_rate"])
    assert r["win_rate"] > 0.5 and not r["abw333_disagreements"]


def test_the_sampler_option_deals_hards_samples_and_is_put_back(monkeypatch):
    """--sampler uniform: every sample of hard's search in the duel is dealt by uniform_deal (counted
    here), and the hard players' own sampler is back after the duel."""
    import dominoes
    from domino.players.line import LineSearch
    from domino.players.search import sample_deal, uniform_deal
    calls = []

    def counted(k, rng):
        calls.append(1)
        return uniform_deal(k, rng)
    monkeypatch.setitem(duel_pa.SAMPLERS, "uniform", staticmethod(counted))
    r = duel_pa.run_duel("hard", 1, 0, get_player("random"), dominoes, progress=False, first=2,
                         sampler="uniform")
    assert r["sampler"] == "uniform" and r["hands"] == 2 and len(calls) > 20
    assert LineSearch.sampler is sample_deal and isinstance(LineSearch.__dict__["sampler"], staticmethod)
    # and hard still plays after the duel, in this process (a sampler put back as a plain function
    # would be called as a method, with the search as the knowledge)
    m = Match(make_rules("block", players=4, partnership=True), seed="after the duel")
    view = m.view(m.turn)
    assert get_player("hard")(view, random.Random(1)) in view["legal"]


def test_a_lever_plays_for_hards_pair_only(monkeypatch):
    """--set: hard's pair plays with the constants set otherwise (seen from inside its search), pa's
    seats and the process after the duel with today's values; a lever is hard's alone."""
    import dominoes
    from domino.players import line
    seen = []
    real = line.rollout_move

    def watched(h, ms, rng):
        seen.append(line.RP_NOISE)
        return real(h, ms, rng)
    monkeypatch.setattr(line, "rollout_move", watched)
    r = duel_pa.run_duel("hard", 1, 0, get_player("random"), dominoes, progress=False, first=3,
                         sets={"RP_NOISE": 0.25})
    assert r["sets"] == {"RP_NOISE": 0.25} and r["hands"] == 2
    assert seen and set(seen) == {0.25} and line.RP_NOISE == 2.0
    with pytest.raises(ValueError, match="hard"):
        duel_pa.run_duel("medium", 1, 0, get_player("random"), dominoes, progress=False, sets={"RP_NOISE": 1})
    with pytest.raises(SystemExit):
        duel_pa.main(["--set", "NO_SUCH=1", "--deals", "1"])
