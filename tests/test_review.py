"""A hand's review (domino.app.review): every hand of seeded matches of every game, replayed from the
match's record step by step, ends on the very position the match reached, and goes back to the deal."""
import random

import pytest

from domino.app import review
from domino.app.i18n import t
from domino.engine.match import Match
from domino.engine.records import to_record
from domino.engine.rules import PRESETS, make_rules


def position_of(m: Match) -> dict:
    v = m.view(0)
    return {"tiles": [sorted(x) for x in m.seat_tiles()], "counts": v["counts"], "boneyard": v["boneyard"],
            "layout": v["layout"], "ends": v["ends"], "undrawable": v["undrawable"]}


def step_position(step: dict) -> dict:
    v = step["view"]
    return {"tiles": [sorted(x) for x in step["seat_tiles"]], "counts": v["counts"], "boneyard": step["boneyard"],
            "layout": v["layout"], "ends": v["ends"], "undrawable": v["undrawable"]}


def played(game: str, players: int | None, seed: int, hands: int) -> tuple[Match, list[dict]]:
    """A seeded match of random legal moves, and the position each hand ended on (as the live match had it)."""
    rules = make_rules(game, players=players) if players else make_rules(game)
    m = Match(rules, seed=seed)
    rng = random.Random(seed)
    finals = []
    while True:
        if m.phase == "play":
            m.apply(rng.choice(m.legal_actions()))
            continue
        finals.append(position_of(m))
        if m.finished or len(m.records) >= hands:
            return m, finals
        m.next_hand()


CASES = [(g, None) for g in PRESETS] + [("draw", 4), ("all-fives", 3), ("mexican-train", 2), ("frijolito", 3),
                                        ("chicken-foot", 3)]


@pytest.mark.parametrize("game,players", CASES)
def test_every_hand_replays_exactly(game, players):
    m, finals = played(game, players, seed=sum(map(ord, game)) + (players or 0), hands=3)
    doc = to_record(m)
    assert len(finals) == len(doc["hands"])
    for k, final in enumerate(finals):
        st = review.steps(doc, k)
        assert len(st) == len(doc["hands"][k]["actions"]) + 1
        # the deal: every seat's tiles as dealt, face up
        deal = doc["hands"][k]["deal"]
        assert [sorted(x) for x in st[0]["seat_tiles"]] == [sorted(x) for x in deal]
        assert st[0]["action"] is None
        # forward through every step: the hand's very end
        assert step_position(st[-1]) == final, (game, k)
        assert st[-1]["view"]["result"] is not None or m.resigned
        # each step's words name the seat and the tile, the draw or the pass
        for s, a in zip(st[1:], doc["hands"][k]["actions"]):
            assert s["action"] == a
            for lang in ("en", "es"):
                words = review.step_words(s, lang)
                assert s["names"][a["seat"]] in words
                tile = a.get("play") or a.get("draw") or a.get("flip") or a.get("peek") or a.get("reject")
                if tile:
                    assert tile in words
                else:
                    assert words == t(lang, "review.passes", name=s["names"][a["seat"]])
        # every step holds each tile once: the seats', the table's and the rest add up to the deal
        for s in st:
            assert [len(x) for x in s["seat_tiles"]] == s["counts"]


def test_stepping_back_returns_to_the_deal():
    m, _ = played("draw", None, 5, 2)
    doc = to_record(m)
    st = review.steps(doc, 1)
    assert step_position(st[0]) != step_position(st[-1])
    # the same deal as a record cut before the hand's first move gives
    again = review.steps(review.cut(doc, 1, 0), 1)
    assert len(again) == 1 and step_position(again[0]) == step_position(st[0])


def test_kept_hands_are_bounded_and_survive_text():
    doc = review.empty()
    for seed in range(3):
        m, _ = played("draw", None, seed, 3)
        # each hand kept as it ends: replay the match hand by hand
        for k in range(len(m.records)):
            part = review.cut(to_record(m), k)
            from domino.engine.records import from_record
            doc = review.keep(doc, from_record(part), f"m{seed}")
    assert len(doc["hands"]) == review.KEEP
    assert len(review.dump(doc)) <= review.MAX_CHARS
    back = review.load(review.dump(doc))
    assert back == doc
    assert set(back["matches"]) == {e["id"] for e in back["hands"]}
    for i in range(len(back["hands"])):
        st = review.kept_steps(back, i)
        assert st is not None and st[-1]["view"]["result"] is not None
    assert review.load("{nonsense") == review.empty()
    assert review.kept_steps(back, 99) is None
