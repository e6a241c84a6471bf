"""A hand's review through the session's real inputs: offered at a hand's end (solo and hot-seat; friends'
tables: tests/test_friends_review.py), every seat's tiles face up, forward and back, close; the last hands
reachable from the statistics after a reload."""
from __future__ import annotations

from domino.app import review
from domino.app.nodes import find, text_of, walk
from domino.app.session import MemoryStore, Session
from test_session import FORM_2P, PATH, person_tap, run_computers

HOT = {"game": "draw", "players": "2", "target": "100", "seat-kind-0": "human", "seat-name-0": "Ana",
       "seat-kind-1": "human", "seat-name-1": "Luis"}


def start(form, store=None) -> Session:
    s = Session(store if store is not None else MemoryStore(), PATH, params={"seed": "7"}, browser_lang="es-ES")
    s.handle({"action": "start", "form": dict(form)})
    return s


def to_hand_end(s: Session) -> None:
    for _ in range(400):
        if s.ctrl.match.phase != "play":
            return
        if s.ctrl.handoff() is not None:
            s.handle({"action": "handoff"})
        elif s.wants_computers():
            run_computers(s)
        else:
            person_tap(s)
    raise AssertionError("the hand never ended")


def tap(s: Session, action: str, **data):
    node = s.screen()
    return s.handle({"action": action, **{k: str(v) for k, v in data.items()}}), node


def shown(s: Session):
    got = find(s.screen(), data_testid="review")
    return got[0] if got else None


def check_review(s: Session) -> None:
    m = s.ctrl.match
    assert m.phase != "play"
    assert find(s.screen(), data_testid="review-hand"), "the hand's end offers its review"
    assert shown(s) is None
    s.handle({"action": "review-hand"})
    rv = shown(s)
    assert rv is not None and rv[1]["data-step"] == "0"
    rec = m.records[-1]
    # the deal: every seat's tiles face up
    seats = find(rv, data_testid="review-seat")
    assert len(seats) == m.rules.players
    from domino.engine import tiles
    for seat, node in enumerate(seats):
        assert sorted(node[1]["data-tiles"].split()) == sorted(tiles.NAMES[x] for x in rec["deal"][seat])
        assert len([x for x in walk(node) if x[1].get("class") == "mini"]) == len(rec["deal"][seat])
    assert find(rv, data_testid="review-board")[0][2][0][0] == "svg"
    n = int(rv[1]["data-steps"])
    assert n == len(rec["actions"]) > 0
    # back at the deal does nothing; forward to the end, then back to the deal
    s.handle({"action": "review-step", "step": "back", "disabled": True})
    assert shown(s)[1]["data-step"] == "0"
    for i in range(1, n + 1):
        s.handle({"action": "review-step", "step": "forward"})
        rv = shown(s)
        assert rv[1]["data-step"] == str(i)
        words = text_of(find(rv, data_testid="review-words")[0])
        a = review.step_words(s.review.steps[i], s.lang)
        assert a in words
    for seat, node in enumerate(find(shown(s), data_testid="review-seat")):
        left = sorted(node[1]["data-tiles"].split())
        assert left == sorted(m.view(seat)["hand"]), "the review ends on the hand's end"
    s.handle({"action": "review-step", "step": "first"})
    assert shown(s)[1]["data-step"] == "0"
    s.handle({"action": "review-step", "step": "last"})
    assert shown(s)[1]["data-step"] == str(n)
    for i in range(n - 1, -1, -1):
        s.handle({"action": "review-step", "step": "back"})
        assert shown(s)[1]["data-step"] == str(i)
    out = s.handle({"action": "review-close"})
    assert out.render and shown(s) is None
    assert find(s.screen(), data_testid="hand-result") or find(s.screen(), data_testid="match-result")


def test_solo_hand_review_and_the_last_hands_after_a_reload():
    store = MemoryStore()
    s = start(FORM_2P, store)
    to_hand_end(s)
    check_review(s)
    s.handle({"action": "next-hand", "seq": str(s.ctrl.match.seq)})
    to_hand_end(s)
    check_review(s)
    # a reload: the statistics list the last hands, each open for review
    s2 = Session(store, PATH, params={"seed": "7"}, browser_lang="es-ES")
    s2.load_game()
    s2.handle({"action": "stats"})
    kept = find(s2.screen(), data_testid="review-kept")
    assert len(kept) == 2
    assert "Mano 2" in text_of(kept[0]) or "mano 2" in text_of(kept[0])
    s2.handle({"action": "review-kept", "index": kept[0][1]["data-index"]})
    rv = shown(s2)
    assert rv is not None and "2" in text_of(find(rv, id="rv-title")[0])
    s2.handle({"action": "review-step", "step": "last"})
    m = s.ctrl.match
    for seat, node in enumerate(find(shown(s2), data_testid="review-seat")):
        assert sorted(node[1]["data-tiles"].split()) == sorted(m.view(seat)["hand"])
    s2.handle({"action": "review-close"})
    assert shown(s2) is None and find(s2.screen(), data_testid="stats")


def test_hot_seat_hand_review():
    s = start(HOT)
    to_hand_end(s)
    check_review(s)


def test_kept_hands_are_bounded():
    store = MemoryStore()
    s = start(FORM_2P, store)
    for _ in range(7):
        to_hand_end(s)
        if s.ctrl.match.outcome:
            break
        s.handle({"action": "next-hand", "seq": str(s.ctrl.match.seq)})
    doc = review.load(s.storage.reviews())
    assert 1 <= len(doc["hands"]) <= review.KEEP
    assert len(s.storage.reviews()) <= review.MAX_CHARS


def test_escape_closes_and_odd_inputs_do_nothing():
    store = MemoryStore()
    s = start(FORM_2P, store)
    s.handle({"action": "review-step", "step": "forward"})     # no review open: nothing
    s.handle({"action": "review-hand"})                         # mid-hand: no review
    assert shown(s) is None
    to_hand_end(s)
    s.handle({"action": "review-hand"})
    s.handle({"action": "review-step", "step": "sideways"})
    assert shown(s)[1]["data-step"] == "0"
    assert s.focus_target(True) == '[data-step="forward"]'
    s.handle({"action": "escape"})
    assert shown(s) is None and find(s.screen(), data_testid="hand-result")
    s.handle({"action": "stats"})
    for bad in ("99", "-1", "x"):
        s.handle({"action": "review-kept", "index": bad})
        assert shown(s) is None
    # stored text that is no list of hands is none, never an error
    store.set(s.storage.key("reviews"), '{"format": "domino-reviews/1", "matches": [], "hands": 3}')
    assert find(s.screen(), data_testid="review-kept") == []
