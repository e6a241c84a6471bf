"""A match played when each can, through the app's one path (issue 40, step 2): the lobby's choice, the
friend's link, Your matches, and a two-player Draw match played to its end where each phone is closed after
its move and opened again later, on the project's relay (tests/later_relay.py stands in for the page)."""
from __future__ import annotations

import json
import random
import re

import pytest

from domino import players
from domino.app.link.later import Browsing, Invited, LaterGuest, LaterHost, later_link, parse_later
from domino.app.nodes import find, text_of
from domino.app.online import OnlineError
from domino.app.session import MemoryStore, Out
from domino.net import mailbox, nostr
from tests.later_relay import BASE, RELAY, Mail, with_relay


def _items(s) -> list[tuple]:
    tree = s.screen()
    items = find(tree, data_testid="match-item")
    return [(n[1]["data-turn"], n[1]["data-match"], text_of(n)) for n in items]


def _start(mail: Mail, target: int = 30) -> tuple:
    """The host opens the friends' lobby, chooses When you can, and starts: the friend's link."""
    with_relay(mail.stores.setdefault("host", MemoryStore()))
    host = mail.open("host")
    host.new_settings = dict(host.new_settings, game="draw", target=target, players=2)
    mail.tap("host", action="play-friends")
    tree = host.screen()
    assert find(tree, data_testid="play-later"), "the lobby offers When you can"
    mail.tap("host", action="play-when", when="later")
    assert "relays" in text_of(host.screen()) and "127.0.0.1" in text_of(host.screen())
    mail.tap("host", action="start-table")
    assert isinstance(host.link, LaterHost) and host.at_table()
    link = host.link.link_for(1)
    assert link.startswith(BASE + "#later=2.")
    return host, link


def _joined(mail: Mail) -> tuple:
    """The host starts and the friend opens the link and joins: (host, the link's fragment, friend)."""
    host, link = _start(mail)
    fragment = link.split("#", 1)[1]
    friend = mail.open("friend", join=fragment)
    mail.tap("friend", action="later-join")
    return host, fragment, friend


def _move(s) -> None:
    """The person whose turn it is on this phone plays the easy level's choice."""
    c = s.ctrl
    m = c.match
    a = players.get_player("easy")(m.view(m.turn), random.Random(m.seq))
    s.out = Out()
    s.play(a)


def test_the_friend_s_link_is_checked():
    ok = "2." + "a" * 32 + "." + "b" * 64 + "." + "c" * 64
    with pytest.raises(OnlineError):
        parse_later("later=" + ok.replace("2.", "9.", 1))
    with pytest.raises(OnlineError):
        parse_later("later=2.xyz")
    mail = Mail()
    s = mail.open("friend", join="later=2.xyz")
    assert isinstance(s.link, Invited) and "guest-error" in json.dumps(s.screen())


def test_a_two_player_match_when_you_can_played_to_its_end_with_each_phone_closed_between_moves():
    mail = Mail()
    host, link = _start(mail)
    mail.close("host")                                  # the host shares the link and closes the game
    mail.wall.now += 3600
    fragment = link.split("#", 1)[1]
    friend = mail.open("friend", join=fragment)
    assert isinstance(friend.link, Invited)
    assert "127.0.0.1" in text_of(friend.screen())     # what is stored where, before anything is sent
    mail.tap("friend", action="later-join")
    assert isinstance(friend.link, LaterGuest)
    moves = {"host": 0, "friend": 0}
    for _ in range(400):
        # whoever's turn it is opens the game (the host through Your matches; the friend with its link)
        for name in ("friend", "host"):
            mail.wall.now += 7200                       # hours later
            s = mail.open(name, join=fragment if name == "friend" else None)
            if name == "host":
                mail.tap("host", action="my-matches")
                items = _items(s)
                assert len(items) == 1
                turn, mid, words = items[0]
                mail.tap("host", action="open-match", match=mid)
            c = s.ctrl
            assert c is not None, f"{name}'s table is up"
            if c.match.outcome:
                continue
            if c.my_turn():
                _move(s)
                mail.run(name, s.out)
                moves[name] += 1
            mail.close(name)
        host_match = mail.open("host")
        mail.tap("host", action="my-matches")
        if _items(host_match)[0][0] == "over":
            break
    else:
        raise AssertionError("the match did not end")
    assert moves["host"] > 3 and moves["friend"] > 3
    # both phones see the same finished match
    friend = mail.open("friend", join=fragment)
    assert friend.ctrl.match.outcome is not None
    host = mail.open("host")
    mail.tap("host", action="my-matches")
    mid = _items(host)[0][1]
    mail.tap("host", action="open-match", match=mid)
    assert host.ctrl.match.outcome == friend.ctrl.match.outcome
    assert host.ctrl.match.scores == friend.ctrl.match.scores
    # the host's phone holds the record: a domino-record/1 file like any other; a friend's holds none
    out = host.handle({"action": "export"})
    (name, text), = out.downloads
    assert json.loads(text)["format"] == "domino-record/1" and name.endswith(".json")
    assert friend.handle({"action": "export"}).downloads == []
    mail.close("friend")
    friend = mail.open("friend")
    mail.tap("friend", action="my-matches")
    assert [i[0] for i in _items(friend)] == ["over"]


def test_your_matches_puts_the_match_whose_turn_is_yours_on_top_and_fetches_what_changed():
    mail = Mail()
    host, fragment, friend = _joined(mail)
    # the host's phone shows its table; whoever moves first, one of the two has the turn
    mover = "host" if host.ctrl.my_turn() else "friend"
    other = "friend" if mover == "host" else "host"
    mail.close(other)
    s = mail.devices[mover]
    _move(s)
    mail.run(mover, s.out)
    mail.close(mover)
    mail.wall.now += 5400
    o = mail.open(other, join=fragment if other == "friend" else None)
    mail.tap(other, action="my-matches")
    assert isinstance(o.link, Browsing)
    turn, mid, words = _items(o)[0]
    assert turn == "you", words
    # since when: the host's clock (when its phone applied the move), never a time a friend's event claims
    since = "just now" if other == "host" else "1 h ago"
    assert words.startswith("● Draw · with ") and f"Your turn, since {since}" in words, words
    # the one who moved opens its list two hours later: waiting, since the move (host's clock)
    mail.close(other)
    mail.wall.now += 7200
    m = mail.open(mover, join=fragment if mover == "friend" else None)
    mail.tap(mover, action="my-matches")
    turn, _mid, words = _items(m)[0]
    assert turn == "waiting" and re.search(r"'s turn, since [23] h ago", words), words
    m.lang = "es"
    assert re.search(r"Le toca a .*, desde hace [23] h", _items(m)[0][2])


def test_a_forged_action_changes_nothing_on_the_hosts_table():
    mail = Mail()
    host, link = _start(mail)
    ticket, _ = parse_later(link.split("#", 1)[1])
    seq = host.ctrl.match.seq
    forger = nostr.new_secret()
    event = nostr.sign_event(forger, kind=mailbox.KIND, content="x", created_at=int(mail.wall.now),
                             tags=[["d", mailbox.tag(ticket.match, "act", 1)], ["p", ticket.host]])
    mail.tap("host", action="mail-event", sub=host.link.sub, relay=RELAY, text=json.dumps(event))
    mail.tap("host", action="mail-event", sub=host.link.sub, relay=RELAY, text="[not json")
    assert host.ctrl.match.seq == seq
    assert later_link(BASE, ticket, [RELAY]) == link


def test_an_unreadable_list_is_kept_aside_and_a_full_storage_is_said():
    mail = Mail()
    store = mail.stores.setdefault("host", MemoryStore())
    store.set("domino:/domino/:later", "{not json")
    host, link = _start(mail)
    assert json.loads(store.get("domino:/domino/:later"))["matches"]          # the new match is kept
    aside = [k for k in store.keys() if k.startswith("domino:/domino/:corrupt:")]
    assert [store.get(k) for k in aside] == ["{not json"]                    # the old text, kept aside
    store.quota = sum(len(k) + len(v) for k, v in store.data.items()) - 1   # nothing more fits
    if not host.ctrl.my_turn():    # the friend moves first: its move, applied by the host, does not fit here
        friend = mail.open("friend", join=link.split("#", 1)[1])
        mail.tap("friend", action="later-join")
        _move(friend)
        mail.run("friend", friend.out)
    else:
        _move(host)
        mail.run("host", host.out)
    assert "storage is full" in text_of(host.screen())


def test_the_menu_of_a_match_is_your_matches_and_its_line_leads_back_to_the_table():
    mail = Mail()
    host, _link = _start(mail)
    mail.tap("host", action="menu")
    assert not host.at_table()
    items = _items(host)
    assert len(items) == 1
    mail.tap("host", action="open-match", match=items[0][1])
    assert host.at_table() and isinstance(host.link, LaterHost)
    mail.tap("host", action="later-leave")
    assert host.role is None and not host.at_table()


def test_a_relay_that_refuses_the_match_is_said_in_words():
    mail = Mail()
    mail.relay.reject_all = True
    host, _link = _start(mail)
    said = text_of(host.screen())
    assert "A relay refused the match's data (" + RELAY in said, said
    assert find(host.screen(), data_testid="later-bar")[0][1]["data-sent"] == "sending"


def test_a_view_not_signed_by_the_host_changes_nothing_on_the_friends_table():
    mail = Mail()
    host, fragment, friend = _joined(mail)
    ticket, _ = parse_later(fragment)
    seq, view = friend.ctrl.match.seq, friend.link.guest.view
    impostor = mailbox.MailHost(nostr.new_secret(), ticket.match, host.ctrl.match,
                                {1: bytes.fromhex(ticket.secret)})      # claims to be the host, with its own key
    for event in impostor.outbox(mail.wall.now + 60):
        mail.tap("friend", action="mail-event", sub=friend.link.sub, relay=RELAY, text=json.dumps(event))
    assert friend.ctrl.match.seq == seq and friend.link.guest.view == view


def test_the_hosts_own_link_never_replaces_its_match_and_a_tampered_list_shows_what_it_can():
    mail = Mail()
    host, link = _start(mail)
    mail.close("host")
    s = mail.open("host", join=link.split("#", 1)[1])       # the host opens the link it sent
    assert isinstance(s.link, Invited) and s.link.ticket is None
    assert "host of that match" in text_of(s.screen())
    assert s.handle({"action": "later-join"}).net == []
    store = mail.stores["host"]
    doc = json.loads(store.get("domino:/domino/:later"))
    (mid, entry), = doc["matches"].items()
    assert entry["role"] == "host"                            # still the host's
    # a list tampered with: odd summaries show as what can be read, never break the screen
    doc["matches"][mid]["info"] = {"names": 3, "scores": ["x"], "since": "yesterday", "turn": [1], "game": 5}
    doc["matches"]["f" * 32] = {"role": "guest", "match": "f" * 32, "ticket": {"seat": "x"}, "info": [1]}
    doc["matches"]["bad"] = {"role": "spy", "match": "bad"}
    store.set("domino:/domino/:later", json.dumps(doc))
    s = mail.open("host")
    mail.tap("host", action="my-matches")
    assert sorted(i[1] for i in _items(s)) == sorted([mid, "f" * 32])
    mail.tap("host", action="open-match", match="f" * 32)    # cannot be read: said, the list stays
    assert isinstance(s.link, Browsing) and "cannot be read" in text_of(s.screen())
    mail.tap("host", action="open-match", match=mid)
    assert isinstance(s.link, LaterHost) and s.at_table()


def test_a_friend_who_resigns_ends_the_match_on_both_phones():
    mail = Mail()
    host, link = _start(mail)
    fragment = link.split("#", 1)[1]
    mail.close("host")
    friend = mail.open("friend", join=fragment)
    mail.tap("friend", action="later-join")
    mail.tap("friend", action="resign")
    mail.tap("friend", action="resign-yes")
    assert "Your move was sent" in text_of(friend.screen())
    mail.close("friend")
    mail.wall.now += 86400
    host = mail.open("host")
    mail.tap("host", action="my-matches")
    assert [i[0] for i in _items(host)] == ["over"]          # applied when the host's list opened
    mail.tap("host", action="open-match", match=_items(host)[0][1])
    assert host.ctrl.match.outcome is not None and host.ctrl.match.resigned
    friend = mail.open("friend", join=fragment)
    assert friend.ctrl.match.outcome == host.ctrl.match.outcome
    mail.tap("friend", action="my-matches")
    assert [i[0] for i in _items(friend)] == ["over"]


def test_each_phone_shows_a_hands_result_once_over_the_next_hands_table():
    """The host's phone deals the next hand at once; each phone shows the last hand's result over the table
    until its player taps OK, and remembers that (a phone opened again does not show it again)."""
    mail = Mail()
    host, fragment, friend = _joined(mail)
    for _ in range(400):
        if host.ctrl.match.hand_no >= 1 or host.ctrl.match.finished:
            break
        assert not find(host.screen(), data_testid="later-hand-result")
        assert not find(friend.screen(), data_testid="later-hand-result")
        for name, s in (("host", host), ("friend", friend)):
            if s.ctrl.my_turn() and s.ctrl.match.hand_no == 0:
                _move(s)
                mail.run(name, s.out)
    assert host.ctrl.match.hand_no == 1 and not host.ctrl.match.finished
    result = host.ctrl.match.records[0]["result"]
    for name, s in (("host", host), ("friend", friend)):
        card, = find(s.screen(), data_testid="later-hand-result")
        words = text_of(card)
        assert "Hand 1 is over" in words and str(result["totals"][0]) in words, words
    mail.tap("friend", action="later-hand-ok")
    assert not find(friend.screen(), data_testid="later-hand-result")
    assert find(host.screen(), data_testid="later-hand-result")      # each phone its own
    mail.close("friend")
    friend = mail.open("friend", join=fragment)
    assert not find(friend.screen(), data_testid="later-hand-result")
    friend.lang = "es"
    mail.close("host")
    host = mail.open("host")
    mail.tap("host", action="my-matches")
    mail.tap("host", action="open-match", match=_items(host)[0][1])
    host.lang = "es"
    assert "Mano 1 terminada" in text_of(find(host.screen(), data_testid="later-hand-result")[0])


def test_a_reload_of_the_hosts_table_opens_it_again_and_one_of_the_first_screen_does_not():
    mail = Mail()
    host, fragment, friend = _joined(mail)
    seq = host.ctrl.match.seq
    host = mail.open("host")                                  # the page reloaded at the match's table
    assert isinstance(host.link, LaterHost) and host.at_table() and host.ctrl.match.seq == seq
    assert find(host.screen(), data_testid="later-bar")
    if host.ctrl.my_turn():                                   # and it plays on
        _move(host)
        mail.run("host", host.out)
        assert friend.ctrl.match.seq == host.ctrl.match.seq
    mail.tap("host", action="my-matches")                     # left for Your matches, then the first screen
    mail.tap("host", action="later-leave")
    host = mail.open("host")
    assert not host.at_table() and host.role is None
    store = mail.stores["host"]
    doc = json.loads(store.get("domino:/domino/:later"))
    assert "open" not in doc and len(doc["matches"]) == 1
    doc["open"] = "0" * 32                                    # a marker naming no match kept: the first screen
    store.set("domino:/domino/:later", json.dumps(doc))
    host = mail.open("host")
    assert not host.at_table()
