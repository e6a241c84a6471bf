"""Issue 41 at the friends' table: every phone reviews a hand once it is over.  A guest's phone holds no
record of the match: it deals the hand again from the seed the host revealed and replays the moves it was
sent (domino.net.dealwatch.replay), and its review shows every seat's tiles exactly as dealt; a review
open on any phone holds nobody else up."""
from __future__ import annotations

import random

import pytest

from domino.app import review
from domino.app.nodes import find, text_of
from domino.engine.match import Match
from domino.engine.records import to_record
from domino.engine.rules import make_rules
from domino.net.dealwatch import ReplayError, replay
from tests.friends_table import Table
from tests.test_review import CASES, step_position


def hand_ends(game: str, players: int | None, seed: int, hands: int = 3):
    """A seeded match of random legal moves; at each hand's end, its number and every seat's view then."""
    rules = make_rules(game, players=players) if players else make_rules(game)
    m = Match(rules, seed=seed)
    rng = random.Random(seed)
    ends = []
    while True:
        if m.phase == "play":
            m.apply(rng.choice(m.legal_actions()))
            continue
        ends.append((m.hand_no, [m.view(s) for s in range(rules.players)]))
        if m.finished or len(m.records) >= hands:
            return m, ends
        m.next_hand()


@pytest.mark.parametrize("game,players", CASES)
def test_every_seat_rebuilds_every_hand_from_the_revealed_seed(game, players):
    m, ends = hand_ends(game, players, seed=sum(map(ord, game)) * 3 + (players or 0))
    doc = to_record(m)
    for k, views in ends:
        want = review.steps(doc, k)
        for v in views:
            assert v["dealing"]["seed"] == m.deal_seed(k)
            got = review.steps_of_view(v)
            assert len(got) == len(want), (game, k, v["seat"])
            # the deal: every seat's tiles exactly as dealt (Frijolito's rows in their order)
            assert got[0]["seat_tiles"] == want[0]["seat_tiles"]
            assert [a["action"] for a in got[1:]] == [dict(a, draw=a["draw"] if a["seat"] == v["seat"] else None)
                                                      if "draw" in a else a for a in doc["hands"][k]["actions"]]
            for a, b in zip(got, want):
                assert a["seat_tiles"] == b["seat_tiles"], (game, k, v["seat"])
                assert step_position(a) == step_position(b), (game, k, v["seat"])


def _forged(v: dict, change) -> dict:
    out = {**v, "history": [dict(a) for a in v["history"]]}
    change(out)
    return out


def test_moves_that_the_revealed_seed_does_not_deal_are_refused():
    m, ends = hand_ends("draw", None, seed=11, hands=1)
    v = ends[0][1][1]
    replay(v)                                   # the honest hand replays
    other = 1 - v["seat"]
    dealt = set(to_record(m)["hands"][0]["deal"][v["seat"]])
    i = next(i for i, a in enumerate(v["history"]) if a["seat"] == other and "play" in a)
    # the other seat "played" a tile the seed dealt to this seat
    with pytest.raises(ReplayError):
        replay(_forged(v, lambda x: x["history"][i].update(play=sorted(dealt)[0])))
    # another seed than the fingerprint's
    with pytest.raises(ReplayError):
        replay(_forged(v, lambda x: x.update(dealing={**x["dealing"], "seed": m.deal_seed(5)})))
    with pytest.raises(ValueError):
        review.steps_of_view(_forged(v, lambda x: x["history"].pop(0)))


def test_frijolito_rows_turned_over_are_checked_against_the_seed():
    m, ends = hand_ends("frijolito", 3, seed=5, hands=1)
    v = ends[0][1][2]
    replay(v)
    i = next(i for i, a in enumerate(v["history"]) if "flip" in a)
    other = next(x for x in to_record(m)["hands"][0]["deal"][0] if x != v["history"][i]["flip"])
    with pytest.raises(ReplayError):
        replay(_forged(v, lambda x: x["history"][i].update(flip=other)))


# ------------------------------------------------------------ on the phones
def review_seats(s) -> list[list[str]]:
    return [x[1]["data-tiles"].split() if x[1]["data-tiles"] else []
            for x in find(s.screen(), data_testid="review-seat")]


def step(s, which: str) -> None:
    s.handle({"action": "review-step", "step": which})


def test_a_guest_reviews_the_hand_with_all_four_hands_as_dealt():
    table = Table(players=4, seed="4242")
    table.to_hand_end()
    m = table.match
    rec = to_record(m)["hands"][0]
    ana = table.net.devices["ana"]
    assert find(ana.screen(), data_testid="review-hand"), "the guest's hand's end offers the review"
    check = find(ana.screen(), data_testid="deal-check")
    assert check and check[0][1]["data-deal"] == "ok"
    ana.handle({"action": "review-hand"})
    rv = find(ana.screen(), data_testid="review")
    assert rv and rv[0][1]["data-step"] == "0"
    assert int(rv[0][1]["data-steps"]) == len(rec["actions"])
    assert [sorted(x) for x in review_seats(ana)] == [sorted(x) for x in rec["deal"]]
    seal = find(ana.screen(), data_testid="review-seal")[0]
    assert seal[1]["data-matches"] == "true" and seal[1]["data-checked-by"] == "guest"
    assert seal[1]["data-seed"] == m.deal_seed(0) and seal[1]["data-fingerprint"] == m.fingerprint(0)
    step(ana, "last")
    assert [sorted(x) for x in review_seats(ana)] == [sorted(x) for x in m.view(0)["result"]["hands"]]
    # every step: the host's own review of the same hand shows the same tiles
    table.host.handle({"action": "review-hand"})
    assert find(table.host.screen(), data_testid="review"), "the host's hand's end offers the review too"
    for i in range(len(rec["actions"]) + 1):
        step(ana, "first") if i == 0 else step(ana, "forward")
        step(table.host, "first") if i == 0 else step(table.host, "forward")
        assert review_seats(ana) == review_seats(table.host), i
    # the hand stays open in the guest's statistics, from what it kept of the hand
    kept = review.load(ana.storage.reviews())
    assert [e["hand"] for e in kept["hands"]] == [0] and kept["hands"][0]["id"] == "friends:" + m.fingerprint(0)
    ana.handle({"action": "review-close"})
    ana.handle({"action": "stats"})
    assert find(ana.screen(), data_testid="review-kept")
    ana.handle({"action": "review-kept", "index": "0"})
    assert [sorted(x) for x in review_seats(ana)] == [sorted(x) for x in rec["deal"]]
    seal = find(ana.screen(), data_testid="review-seal")[0]
    assert seal[1]["data-matches"] == "true" and seal[1]["data-checked-by"] == "guest"
    # and on the host's phone, from its own record
    kept = review.load(table.host.storage.reviews())
    assert [e["hand"] for e in kept["hands"]] == [0] and "view" not in kept["matches"][kept["hands"][0]["id"]]


def test_a_review_open_on_a_guest_holds_nobody_up():
    table = Table(players=3, seed="777")
    table.to_hand_end()
    ana = table.net.devices["ana"]
    ana.handle({"action": "review-hand"})
    step(ana, "forward")
    before = find(ana.screen(), data_testid="review")[0][1]["data-step"]
    table.next_tap("host")
    table.next_tap("bea")
    # the others' Next taps are counted while ana reviews: only ana's is awaited
    assert table.hosting.table_words()["waiting"] == ["Ana"]
    assert find(ana.screen(), data_testid="review")[0][1]["data-step"] == before
    # ana taps Next (the review stays open): the next hand is dealt on every phone
    table.next_tap("ana")
    assert table.match.hand_no == 1 and table.match.phase == "play"
    assert ana.ctrl.match.hand_no == 1
    rv = find(ana.screen(), data_testid="review")
    assert rv and rv[0][1]["data-step"] == before, "the review of hand 1 is still open, where it was"
    assert "1" in text_of(find(ana.screen(), id="rv-title")[0])
    ana.handle({"action": "review-close"})
    assert not find(ana.screen(), data_testid="review")
    table.to_hand_end()
    assert table.match.hand_no == 1 and table.match.phase != "play"


def test_a_host_reviewing_holds_nobody_up():
    table = Table(players=3, seed="778")
    table.to_hand_end()
    table.host.handle({"action": "review-hand"})
    table.next_tap("ana")
    table.next_tap("bea")
    assert find(table.host.screen(), data_testid="review")
    assert table.hosting.table_words()["waiting"] == [table.match.seats[0]["name"]]
    table.host.handle({"action": "review-close"})
    table.next_tap("host")
    assert table.match.hand_no == 1


# ------------------------------------------------------------ a host that steers, or hides the seed
def _to_first_hand_end(net, names=("ana",)) -> None:
    from tests.test_friends_session import _play_out
    host = net.devices["host"]
    real_next = host.ctrl.match.next_hand

    def stop():                      # _play_out taps Next at a hand's end: stop at the first one instead
        raise StopIteration
    host.ctrl.match.next_hand = stop
    try:
        _play_out(net, list(names))
    except StopIteration:
        pass
    finally:
        host.ctrl.match.next_hand = real_next


def test_a_host_that_steers_the_boneyard_is_named_and_its_hand_cannot_be_replayed(monkeypatch):
    from domino.engine import match as match_mod
    from tests.test_friends_session import started
    real = match_mod.deal_hand

    def steered(rules, seed, hand_no):      # the host's phone only: the guest deals with deals.deal_from
        hands, bone, redeals, rng = real(rules, seed, hand_no)
        return hands, bone[::-1], redeals, rng
    monkeypatch.setattr(match_mod, "deal_hand", steered)
    net, host, g = started(seed="5")          # the host opens 6-6, Ana holds no 6: she draws at once
    net.audit = lambda who, to, text: None
    _to_first_hand_end(net)
    m = host.ctrl.match
    assert g.ctrl.match.phase != "play"
    assert m.view(0)["history"][1] == {"seat": 1, "draw": None}, "Ana drew at once"
    check = find(g.screen(), data_testid="deal-check")
    assert check and check[0][1]["data-deal"] == "bad"
    assert "boneyard" in g.link.table.deal_warning["problems"]
    g.handle({"action": "review-hand"})
    assert find(g.screen(), data_testid="review-failed") and not find(g.screen(), data_testid="review")
    g.handle({"action": "escape"})
    assert not find(g.screen(), data_testid="review-failed")


def test_a_seed_never_revealed_is_warned_about(monkeypatch):
    from domino.app.i18n import t
    from tests.test_friends_session import started
    real = Match.dealing

    def hidden(self, k=None, reveal=False):
        return real(self, k, False)           # the host's phone never shows the seed
    net, host, g = started(seed="3")
    monkeypatch.setattr(Match, "dealing", hidden)
    _to_first_hand_end(net)
    w = g.link.table.deal_warning
    assert w == {"hand": 0, "problems": ["unrevealed"]}
    check = find(g.screen(), data_testid="deal-check")
    assert check and check[0][1]["data-deal"] == "unrevealed"
    banner = text_of(find(g.screen(), data_testid="net-banner")[0])
    assert banner == t(g.lang, "guest.deal_unrevealed", n=1)
    assert not find(g.screen(), data_testid="review-hand"), "no seed: nothing to deal the review from"
    for lang in ("es", "en"):
        assert "1" in t(lang, "guest.deal_unrevealed", n=1)


def test_a_second_match_at_the_same_table_is_checked_afresh():
    """The deals of a new match with the same friends are not compared with the last match's (its hand 1
    has another fingerprint: that is no sign of cheating)."""
    table = Table(players=3, seed="31")
    table.to_hand_end()
    table.tap("host", action="resign")
    table.tap("host", action="resign-yes")
    assert table.match.outcome
    table.tap("host", action="new-match", seq=str(table.match.seq))      # back to the lobby, the same friends
    for name in ("ana", "bea"):
        table.tap(name, action="join-table", value="")
    table.host.seed = 32            # a new match, a new seed (as when no seed is fixed: a fresh one each time)
    table.start()
    assert table.match.hand_no == 0 and table.match.seed == 32
    table.to_hand_end()
    for name in ("ana", "bea"):
        g = table.net.devices[name]
        assert g.link.table.deal_warning is None, g.link.table.deals.warnings
        assert find(g.screen(), data_testid="deal-check")[0][1]["data-deal"] == "ok"


def test_with_a_time_limit_a_guest_reviewing_is_counted_ready_when_the_time_is_up():
    """The review waits for nothing: the Next clock runs on while a friend reviews, and once it runs out
    the next hand is dealt; the review stays open on the hand it shows, over the new hand's table."""
    from tests.test_friends_session import _timed
    net, host, g = _timed("120", seed="8")
    _to_first_hand_end(net)
    m = host.ctrl.match
    assert m.phase == "hand-over"
    g.handle({"action": "review-hand"})
    step(g, "last")
    at = find(g.screen(), data_testid="review")[0][1]["data-step"]
    net.tap("host", action="next-hand", seq=str(m.seq))
    net.clock.now += 100
    net.tap("host", action="net-tick")
    assert find(g.screen(), data_testid="net-clock"), "the guest sees the time left while reviewing"
    net.clock.now += 20
    net.tap("host", action="net-tick")
    assert m.hand_no == 1 and m.phase == "play"
    assert g.ctrl.match.hand_no == 1 and g.ctrl.match.seq == m.seq
    assert find(g.screen(), data_testid="review")[0][1]["data-step"] == at
    g.handle({"action": "review-close"})
    assert not find(g.screen(), data_testid="review") and find(g.screen(), data_testid="board")
