"""Issue 41 in the app: the hand's first log line shows its deal's fingerprint; once the hand is over, the
review shows its seed and says, computed again on the spot, that the deal matches its fingerprint."""
from __future__ import annotations

import copy

from domino.app import review
from domino.app.i18n import t
from domino.app.nodes import find, text_of
from domino.app.screens.review import review_dialog
from domino.engine import tiles
from domino.engine.records import to_record
from test_review_session import HOT, start, to_hand_end


def test_the_first_log_line_shows_the_fingerprint_and_the_review_the_seed():
    s = start(HOT)
    m = s.ctrl.match
    fp, seed = m.fingerprint(0), m.deal_seed(0)
    line = find(s.screen(), data_testid="log-deal")
    assert line and line[0][1]["data-fingerprint"] == fp
    assert text_of(line[0]) == t(s.lang, "log.dealt", fingerprint=fp)
    log = find(s.screen(), data_testid="move-log")[0]
    assert log[2][0] is line[0] or log[2][0] == line[0], "the hand's first line"
    import json
    assert seed not in json.dumps(s.screen()), "the seed stays secret while the hand is played"
    to_hand_end(s)
    s.handle({"action": "review-hand"})
    seal = find(s.screen(), data_testid="review-seal")
    assert seal, "the review shows the deal's check"
    attrs = seal[0][1]
    assert attrs["data-seed"] == seed and attrs["data-fingerprint"] == fp and attrs["data-matches"] == "true"
    words = text_of(seal[0])
    assert seed in words and t(s.lang, "review.seal_ok") in words


def test_the_review_says_when_the_deal_does_not_match():
    s = start(HOT)
    to_hand_end(s)
    doc = to_record(s.ctrl.match)
    assert review.deal_seal(doc, 0)["problems"] == []
    bad = copy.deepcopy(doc)
    b = bad["hands"][0]["boneyard"]
    b[0], b[1] = b[1], b[0]
    seal = review.deal_seal(bad, 0)
    assert seal["problems"] == ["boneyard"]
    node = review_dialog(review.steps(doc, 0), 0, 0, False, "dots", s.lang, seal)
    got = find(node, data_testid="review-seal")[0]
    assert got[1]["data-matches"] == "false" and t(s.lang, "review.seal_bad") in text_of(got)
    bad = copy.deepcopy(doc)
    d = bad["hands"][0]["deal"]

    def low(seat):     # a tile that does not decide who opens
        return min((i for i, x in enumerate(d[seat]) if not tiles.Tile.parse(x).is_double),
                   key=lambda i: tiles.Tile.parse(d[seat][i]).pips)
    i, j = low(0), low(1)
    d[0][i], d[1][j] = d[1][j], d[0][i]
    seal = review.deal_seal(bad, 0)
    assert seal is not None and seal["problems"] == ["deal"]


def test_a_hand_dealt_before_deals_had_seeds_is_not_called_a_cheat():
    """A hand kept before this version was dealt from the match's own generator: no fingerprint to check."""
    from domino.engine.common import hand_rng, shuffled_deal
    from domino.engine.match import highest_double_opener
    s = start(HOT)
    to_hand_end(s)
    doc = copy.deepcopy(to_record(s.ctrl.match))
    rec = doc["hands"][0]
    n = len([x for hd in rec["deal"] for x in hd]) + len(rec["boneyard"])
    hands, bone = shuffled_deal(hand_rng(doc["seed"], 0, rec["redeals"]), list(range(n)),
                                [len(hd) for hd in rec["deal"]])
    rec["deal"] = [[tiles.NAMES[x] for x in sorted(hd)] for hd in hands]
    rec["boneyard"] = [tiles.NAMES[x] for x in bone]
    rec["actions"], rec["result"] = [], None
    rec["opener"] = highest_double_opener(s.ctrl.match.rules, [sorted(hd) for hd in hands])[0]
    doc["hands"] = [rec]
    doc.pop("outcome", None)
    doc.pop("finished", None)
    seal = review.deal_seal(doc, 0)
    assert seal is not None and seal["problems"] and seal["before"] is True
    node = review_dialog(review.steps(doc, 0), 0, 0, False, "dots", s.lang, seal)
    got = find(node, data_testid="review-seal")[0]
    assert got[1]["data-matches"] == "before" and t(s.lang, "review.seal_before") in text_of(got)
