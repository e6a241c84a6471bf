"""The clock's rules of a match played when each can, through the app's one path (issue 40, step 3):
End for absence after 2 days (from the host's table, or asked by a friend and applied by the host's phone
when it next opens), the 7-day end with no winner, and Tell <name> (the share sheet) — on the project's
relay (tests/later_relay.py stands in for the page), the phones' clock moved forward."""
from __future__ import annotations

from domino.app.link.later import Browsing, LaterGuest, LaterHost
from domino.app.nodes import find, text_of
from domino.app.session import Out
from domino.net import nostr
from domino.net.mailbox import ABSENCE_AFTER, IDLE_AFTER, tag
from tests.later_relay import RELAY, Mail
from tests.test_later_session import _items, _joined, _move

DAY = 86400


def tid(s, name: str) -> list:
    return find(s.screen(), data_testid=name)


def _turn_of(mail: Mail, host, friend, who: str) -> None:
    """Both pages open, moves until it is ``who``'s turn (``host`` or ``friend``)."""
    for _ in range(60):
        if (host if who == "host" else friend).ctrl.my_turn():
            return
        mover = "host" if host.ctrl.my_turn() else "friend"
        s = host if mover == "host" else friend
        assert s.ctrl.my_turn(), "somebody has the turn"
        _move(s)
        mail.run(mover, s.out)
    raise AssertionError(f"{who} never got the turn")


def _away(who: str, seconds: float) -> tuple:
    """The friend joins, both play until it is ``who``'s turn, both pages close and ``seconds`` pass:
    (the relay and phones, the friend's link fragment, the host's name)."""
    mail = Mail()
    host, fragment, friend = _joined(mail)
    _turn_of(mail, host, friend, who)
    hname = host.ctrl.match.seats[0]["name"]
    mail.close("host")
    mail.close("friend")
    mail.wall.now += seconds
    return mail, fragment, hname


def _open_host_match(mail: Mail):
    s = mail.open("host")
    mail.tap("host", action="my-matches")
    assert isinstance(s.link, Browsing)
    mid = _items(s)[0][1]
    mail.tap("host", action="open-match", match=mid)
    assert isinstance(s.link, LaterHost)
    return s


def test_the_host_ends_a_friend_away_more_than_two_days_and_tells_them_first():
    mail = Mail()
    host, fragment, friend = _joined(mail)
    _turn_of(mail, host, friend, "friend")
    mail.close("friend")
    mail.close("host")
    mail.wall.now += ABSENCE_AFTER - 60
    host = _open_host_match(mail)
    assert not tid(host, "end-absence")
    # Tell <name>: the share sheet, with the friend's own link and their name
    tell, = tid(host, "tell-turn")
    name = host.ctrl.match.seats[1]["name"]
    assert text_of(tell) == f"Tell {name}"
    host.out = Out()
    out = host.handle({"action": "tell-turn"})
    share, = [c for c in out.net if c["op"] == "share"]
    assert share["url"] == host.link.link_for(1) and share["title"].startswith(f"{name}, it's your turn")
    mail.wall.now += 120                               # two days have passed: the next tick offers the end
    mail.tap("host", action="net-tick")
    button, = tid(host, "end-absence")
    assert text_of(button) == f"End for {name}'s absence"
    assert "more than 2 days" in text_of(find(host.screen(), data_testid="later-status")[0])
    mail.tap("host", action="end-absence")
    m = host.ctrl.match
    assert m.finished and m.resigned["seat"] == 1 and m.outcome["winner"] == 0
    ended, = tid(host, "match-ended")
    assert ended[1]["data-ended"] == "absence" and name in text_of(ended)
    # the friend's phone, opened later: the same end, said the same way
    friend = mail.open("friend", join=fragment)
    assert isinstance(friend.link, LaterGuest)
    assert friend.ctrl.match.outcome == m.outcome
    assert tid(friend, "match-ended")[0][1]["data-ended"] == "absence"
    mail.tap("friend", action="my-matches")
    (turn, _mid, words), = _items(friend)
    assert turn == "over" and f"Ended for {name}'s absence" in words


def test_a_friend_asks_to_end_the_hosts_absence_and_the_host_loses_when_its_phone_next_opens():
    mail, fragment, hname = _away("host", DAY)
    friend = mail.open("friend", join=fragment)
    assert not tid(friend, "end-absence") and tid(friend, "tell-turn")
    mail.wall.now += DAY + 60
    mail.tap("friend", action="net-tick")
    mail.tap("friend", action="end-absence")
    status = text_of(tid(friend, "later-status")[0])
    assert f"end the match for {hname}'s absence" in status and not tid(friend, "end-absence")
    assert not tid(friend, "tell-turn")
    mail.close("friend")
    mail.wall.now += 3600
    host = mail.open("host")
    mail.tap("host", action="my-matches")              # the list fetches the friend's request: applied
    (turn, mid, words), = _items(host)
    assert turn == "over" and f"Ended for {hname}'s absence" in words
    mail.tap("host", action="open-match", match=mid)
    m = host.ctrl.match
    assert m.resigned["seat"] == 0 and m.outcome["winner"] == 1
    friend = mail.open("friend", join=fragment)
    assert friend.ctrl.match.outcome == m.outcome


def test_a_table_with_no_move_for_seven_days_ends_with_no_winner_on_every_phone():
    mail, fragment, _hname = _away("friend", IDLE_AFTER + 60)
    # the friend's phone already shows it over, and offers no move
    friend = mail.open("friend", join=fragment)
    assert not friend.ctrl.my_turn() and not friend.ctrl.legal()
    assert "no move for 7 days" in text_of(tid(friend, "later-status")[0])
    mail.tap("friend", action="my-matches")
    (turn, _mid, words), = _items(friend)
    assert turn == "over" and "Ended with no winner: no move for 7 days" in words
    mail.close("friend")
    # the host's phone ends it when it opens the match (once the relay has sent what it holds)
    host = _open_host_match(mail)
    mail.tap("host", action="net-tick")
    m = host.ctrl.match
    assert m.finished and m.outcome == {"winner": None, "reason": "idle", "scores": m.scores}
    assert tid(host, "match-ended")[0][1]["data-ended"] == "idle"
    host.lang = "es"
    assert "7 días sin jugadas" in text_of(tid(host, "match-ended")[0])
    friend = mail.open("friend", join=fragment)
    assert friend.ctrl.match.outcome == m.outcome


def test_a_friends_move_waiting_on_the_relay_is_applied_before_the_seven_days_count():
    """The friend moved on day 6; the host's phone opens on day 8: the move counts, the match goes on."""
    mail, fragment, _hname = _away("friend", 6 * DAY)
    friend = mail.open("friend", join=fragment)
    seq = friend.ctrl.match.seq
    _move(friend)
    mail.run("friend", friend.out)
    mail.close("friend")
    mail.wall.now += 2 * DAY
    host = _open_host_match(mail)
    mail.tap("host", action="net-tick")
    assert not host.ctrl.match.finished and host.ctrl.match.seq > seq


def test_a_relay_reached_again_after_losing_everything_gets_the_match_back_from_the_open_pages():
    """Both pages open; the relay restarts with an empty store and the pages reconnect (a second EOSE of
    the same subscription): each publishes again what it holds, and the match goes on, live."""
    mail = Mail()
    host, fragment, friend = _joined(mail)
    _turn_of(mail, host, friend, "friend")
    seq = host.ctrl.match.seq
    mail.relay.stored.clear()                       # the relay restarted with an empty store
    mail.relay.addresses.clear()
    mail.relay.seen.clear()
    for name, s in (("host", host), ("friend", friend)):
        before = len(mail.published)
        mail.tap(name, action="mail-eose", sub=s.link.sub, relay=RELAY)
        assert len(mail.published) > before, f"{name} published what it holds again"
    mid = host.link.kept.match_id
    held = {nostr.tag_value(e, "d") for e in mail.relay.stored.values()}
    assert {tag(mid, "host"), tag(mid, "view", 1)} <= held      # the host's state, the friend's view
    _move(friend)
    mail.run("friend", friend.out)
    assert host.ctrl.match.seq > seq and friend.ctrl.match.seq == host.ctrl.match.seq
    # and a phone opened later rebuilds from what the relay holds now
    mail.close("friend")
    friend = mail.open("friend", join=fragment)
    assert friend.ctrl.match.seq == host.ctrl.match.seq
