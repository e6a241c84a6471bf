"""scripts/play_model.py (issue 43, a lever measured): what a seat's plays say about its hand.  The duel's
records replay to the plays that were made, each among the plays the mover's true hand allowed; the fit
finds the weights that made synthetic choices; and the script runs on a duel's records."""
from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import duel_pa  # noqa: E402
import play_model as pm  # noqa: E402

from domino.engine import tiles  # noqa: E402
from domino.players import get_player  # noqa: E402


def _tile(a: int, b: int) -> int:
    return tiles.tile_id(f"{a}-{b}")


def test_plays_and_features_of_a_hand():
    hand = (1 << _tile(1, 4)) | (1 << _tile(4, 4)) | (1 << _tile(2, 6)) | (1 << _tile(4, 6))
    got = pm.plays(hand, (4, 2))
    # on the 4: 1-4 (leaves 1), 4-4 (leaves 4), 4-6 (leaves 6); on the 2: 2-6 (leaves 6)
    assert sorted((tiles.NAMES[t], e, x) for t, e, x in got) == [
        ("1-4", 0, 1), ("2-6", 1, 6), ("4-4", 0, 4), ("4-6", 0, 6)]
    assert len(pm.plays(hand, (4, 4))) == 3          # both ends the same: a tile's two places are one play
    f = dict(zip(pm.FEATURES, pm.features(hand, (4, 2), (_tile(4, 4), 0, 4), 0, 1 << 4, 0)))
    assert f["double"] == 1 and f["pips"] == pytest.approx(8 / 12)
    assert f["follow_new"] == 2 and f["follow_other"] == 1     # 1-4 and 4-6 follow a 4; 2-6 the 2
    assert f["partner_lacks_new"] == 1 and f["next_lacks_new"] == 0 and f["ends_same"] == 0


def test_a_duels_records_replay_to_the_plays_made():
    """--records: each hand's record with who sat where; replayed, every choice is among the plays the
    mover's true hand allowed, and the hands lose exactly the tiles played."""
    import dominoes
    r = duel_pa.run_duel("medium", 2, 0, get_player("random"), dominoes, progress=False, first=4, records=True)
    assert [(x["deal"], x["ours"]) for x in r["records"]] == [(4, 0), (4, 1), (5, 0), (5, 1)]
    choices = 0
    for x in r["records"]:
        assert x["kinds"] == [("medium" if s % 2 == x["ours"] else "pa") for s in range(4)]
        rec = x["record"]
        plays_made = [a for a in rec["actions"] if a[1] == "p"]
        events = pm.replay(rec)
        assert len(events) == len(plays_made) - 1          # every play after the opening one
        for ev, hand in events:
            assert hand & ev.later == ev.later           # the mover held what it was to play, and later
            if ev.choice is not None:
                assert ev.choice in pm.plays(hand, ev.ends)
                rows = pm.choice_rows(ev, hand)
                assert rows is not None and len(rows[0]) >= 2
                choices += 1
    assert choices > 0


def test_the_fit_finds_the_weights_that_made_the_choices():
    """Choices drawn from a known conditional logit over random hands: the fit gets its weights back,
    and scores them above choosing at random on choices it did not see."""
    rng = random.Random(5)
    true_w = [-2.0, 1.5, 0.8, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0]

    def draw(n):
        out = []
        while len(out) < n:
            hand = sum(1 << t for t in rng.sample(range(28), 6))
            ends = (rng.randrange(7), rng.randrange(7))
            legal = pm.plays(hand, ends)
            if len(legal) < 2:
                continue
            rows = [pm.features(hand, ends, p, 0, rng.randrange(128), rng.randrange(128)) for p in legal]
            zs = [sum(a * b for a, b in zip(true_w, r)) for r in rows]
            ps = [math.exp(z) for z in zs]
            u, k = rng.random() * sum(ps), 0
            while u > ps[k]:
                u -= ps[k]
                k += 1
            out.append((rows, k))
        return out
    w = pm.fit(draw(1500))
    for got, want in zip(w, true_w):
        assert got == pytest.approx(want, abs=0.45)
    s = pm.scores(w, draw(500))
    assert s["loglik"] > s["random_loglik"] + 0.1 and s["top1"] > 0.45


def test_the_script_on_a_duels_records(tmp_path, capsys):
    import dominoes
    r = duel_pa.run_duel("medium", 2, 0, get_player("random"), dominoes, progress=False, first=0, records=True)
    duel = tmp_path / "d.json"
    duel.write_text(json.dumps([r]))
    out = tmp_path / "w.json"
    assert pm.main([str(duel), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "medium:" in said and "pa:" in said and "log likelihood per choice" in said
    assert set(json.loads(out.read_text())) == {"medium", "pa"}
    none = tmp_path / "n.json"
    none.write_text(json.dumps([{"outcomes": []}]))
    assert pm.main([str(none)]) == 2
