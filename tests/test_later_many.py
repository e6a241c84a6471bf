"""A match played when each can, at three and four players (issue 40, step 3): the host's phone is the one that
applies a friend's move, so with two friends a move waits for the host's game to be opened before the other
friend can see it.

- the mailbox alone (domino/net/mailbox.py) over a relay with the project relay's rules
  (tests/net/mail_relays.py's MemoryRelay): a three-player Draw match to its end where every side is a phone
  opened from nothing but its key or ticket and the relay, and closed again; every view a friend gets hides
  the other seats' tiles; a friend's key cannot act for another friend's seat;
- the app (Session, the friends' lobby, Your matches) on the project's relay (tests/later_relay.py): at four
  the partner chosen in the lobby is the match's, and kept on the relays; a three-player match where each
  phone is closed between moves and the host's phone opened between the friends' turns, to its end; the
  host's bar names the friend it waits for.
"""
from __future__ import annotations

import json
import random
import re

import pytest

from domino import players
from domino.app.link.later import Browsing, LaterGuest, LaterHost, parse_later
from domino.app.nodes import find, text_of
from domino.app.session import MemoryStore, Out
from domino.engine import tiles
from domino.engine.match import HUMAN
from domino.net import mailbox, nostr, protocol
from domino.net.mailbox import KIND, MailGuest, MailHost, match_filters, tag
from domino.table import REMOTE
from tests.later_relay import BASE, RELAY, Mail, with_relay
from tests.net.mail_relays import MemoryRelay, choice

T0 = 1_800_000_000
HOUR = 3600
TILE = re.compile(r"\b[0-9]{1,2}-[0-9]{1,2}\b")


def settings(game: str, kinds: list[str], target: int | None = None) -> dict:
    s = {"game": game, "players": len(kinds), "options": {},
         "seats": [{"kind": k, "name": f"P{i}"} for i, k in enumerate(kinds)]}
    if target is not None:
        s["target"] = target
    return s


def names_of(mask: int) -> set[str]:
    return {tiles.NAMES[t] for t in tiles.ids(mask)}


# ------------------------------------------------------------------ the mailbox alone
class Phones:
    """A host and its friends' seats where every side is a phone opened from the relay alone (the host from
    its key and the match id, a friend from its ticket), which decides when it is its turn, publishes and
    is closed: nothing is kept between two openings but what the relay holds."""

    def __init__(self, relay: MemoryRelay, game: str, kinds: list[str], seed: int, target: int | None = None):
        self.relay = relay
        self.now = T0
        host, self.tickets = MailHost.create(settings(game, kinds, target), seed, now=self.now)
        self.key, self.match = host.secret, host.match
        self.host_pub = host.pub
        self.published_seq = host.m.seq        # the position the host's phone last published
        self.views_seen = 0
        self.publish(host.outbox(self.now), host)

    def publish(self, events: list[dict], host: MailHost | None = None) -> None:
        for ok, message in self.relay.publish(events):
            assert ok or message.startswith("duplicate:"), message
        if host is not None:
            self.check_views(events, host)

    def check_views(self, events: list[dict], host: MailHost) -> None:
        """Every view published for a friend's seat, read with that seat's key, shows no tile of another
        seat's hand (while a hand is played: its end shows them all)."""
        hands = host.m.hand.hands
        for e in events:
            d = nostr.tag_value(e, "d")
            seat = next((s for s in self.tickets if tag(self.match, "view", s) == d), None)
            if seat is None:
                continue
            conv = nostr.conversation_key(bytes.fromhex(self.tickets[seat].secret), bytes.fromhex(self.host_pub))
            msg = json.loads(nostr.decrypt(e["content"], conv))["msg"]
            if msg["view"]["phase"] != "play":
                continue
            own = names_of(hands[seat])
            assert set(msg["view"]["hand"]) == own
            others = set().union(*(names_of(hands[s]) for s in range(len(hands)) if s != seat))
            text = json.dumps(msg)
            shown = set(TILE.findall(text))
            assert own <= shown and not (others & shown), (seat, others & shown)
            self.views_seen += 1

    def open_host(self) -> MailHost:
        """The host's phone opened: the match rebuilt from the relay (a friend's move waiting there is
        applied), the host's own move when it is its turn, the new state and views published."""
        self.now += HOUR
        h = MailHost.rebuild(self.key, self.match, self.relay.fetch(match_filters(self.match)), self.now)
        for _ in range(30):
            seat = h.waiting_for()
            if seat is None or h.m.seats[seat]["kind"] != HUMAN:
                break
            h.act(choice(h.m.view(seat)), self.now)
        self.publish(h.outbox(self.now), h)
        self.published_seq = h.m.seq
        return h

    def open_friend(self, seat: int, act: bool = True) -> MailGuest:
        """A friend's phone opened from its ticket: the newest view, its move when it is its turn."""
        self.now += HOUR
        ticket = self.tickets[seat]
        g = MailGuest.rebuild(ticket, self.relay.fetch(MailGuest(ticket).filters()), self.now)
        v = g.view
        if act and v is not None and v["phase"] == "play" and v["turn"] == seat and g.applied:
            g.act(choice(v), self.now)
        self.publish(g.outbox(self.now))
        return g


def test_a_three_player_match_where_a_friends_move_waits_for_the_hosts_phone():
    relay = MemoryRelay()
    p = Phones(relay, "draw", [HUMAN, REMOTE, REMOTE], seed=5)
    waited = 0          # a friend opened while the other's move waited on the relay for the host's phone
    applied = 0         # friends' moves applied when the host's phone opened
    for _cycle in range(600):
        pending: dict[int, int] = {}                    # seat -> the seq its move was made at
        for seat in (1, 2):
            g = p.open_friend(seat)
            # what every friend sees is the position the host's phone last published, nothing newer
            assert g.view["seq"] == p.published_seq
            if not g.applied:
                pending[seat] = g.pending["seq"]
            other = 3 - seat
            if other in pending:                        # the other friend moved, the host has not opened
                assert g.view["turn"] == other and g.applied and g.view["legal"] == []
                waited += 1
        before = p.published_seq
        h = p.open_host()
        for seat, seq in pending.items():               # applied now, once the host's phone is open
            assert h.seats[seat].acked == seq and h.m.seq > before
            applied += 1
        if h.m.finished:
            break
    else:
        raise AssertionError("the match did not end")
    assert applied > 20 and waited > 5, (applied, waited)
    assert p.views_seen > 2 * applied
    # every phone, opened once more, sees the same finished match
    h = p.open_host()
    for seat in (1, 2):
        g = p.open_friend(seat)
        assert g.view == h.m.view(seat)
        assert g.view["outcome"] == h.m.outcome is not None
        assert g.view["scores"] == list(h.m.scores)
    assert len(h.m.records) > 1, "more than one hand was played"


def _act_event(secret: bytes, d: str, host: str, match: str, seat_in_payload: int, seq: int, action: dict,
               now: int) -> dict:
    payload = {"v": mailbox.FORMAT, "t": "act", "match": match, "seat": seat_in_payload,
               "msg": protocol.message("act", seq=seq, action=action)}
    conv = nostr.conversation_key(secret, bytes.fromhex(host))
    return nostr.sign_event(secret, kind=KIND, content=nostr.encrypt(json.dumps(payload), conv),
                            tags=[["d", d], ["p", host]], created_at=now)


def test_a_friend_cannot_act_for_another_friends_seat():
    relay = MemoryRelay()
    p = Phones(relay, "draw", [HUMAN, REMOTE, REMOTE], seed=5)
    for _ in range(40):                                 # to seat 2's turn, its view published
        h = p.open_host()
        if h.waiting_for() == 2:
            break
        for seat in (1, 2):
            if h.waiting_for() == seat:
                p.open_friend(seat)
    else:
        raise AssertionError("seat 2 never had the turn")
    seq = h.m.seq
    legal = h.m.legal_actions()[0]
    assert legal["seat"] == 2
    sk1 = bytes.fromhex(p.tickets[1].secret)
    now = p.now + 60
    forged = [
        # seat 1's key under seat 2's tag: only seat 2's key writes there
        ("wrong-author", _act_event(sk1, tag(p.match, "act", 2), h.pub, p.match, 2, seq, legal, now)),
        # seat 1's own tag, a payload claiming seat 2
        ("wrong-seat", _act_event(sk1, tag(p.match, "act", 1), h.pub, p.match, 2, seq, legal, now)),
        # seat 1's own tag and seat, seat 2's move inside
        ("wrong-seat", _act_event(sk1, tag(p.match, "act", 1), h.pub, p.match, 1, seq, legal, now + 1)),
    ]
    for reason, event in forged:
        p.publish([event])                                # a relay keeps what anyone signs
        got = h.receive(event, now)
        assert got.reason == reason, (reason, got)
    assert h.m.seq == seq and h.waiting_for() == 2 and h.outbox(now) == []     # nothing new to publish
    # and a host opened later from the relay, which holds seat 1's forgeries, still waits for seat 2
    h2 = MailHost.rebuild(p.key, p.match, relay.fetch(match_filters(p.match)), now + 10)
    assert h2.m.seq == seq and h2.waiting_for() == 2
    # seat 2's own move, made with its own key, is the one applied
    g2 = p.open_friend(2)
    assert not g2.applied
    h3 = p.open_host()
    assert h3.seats[2].acked == seq and h3.m.seq > seq


def test_a_hand_of_latin_partnership_with_two_friends_and_a_computer_through_the_mailbox():
    relay = MemoryRelay()
    # the host (seat 1) and a friend (seat 3) against the computer (seat 2) and a friend (seat 4)
    p = Phones(relay, "latin", [HUMAN, "medium", REMOTE, REMOTE], seed=7)
    h = p.open_host()
    assert h.m.rules.partnership and h.m.rules.sides == [[0, 2], [1, 3]]
    assert sorted(p.tickets) == [2, 3]
    for _ in range(300):
        for seat in (2, 3):
            g = p.open_friend(seat)
            assert g.view["side"] == seat % 2 and g.view["sides"] == [[0, 2], [1, 3]]
        h = p.open_host()
        if len(h.m.records) > 1 or h.m.finished:
            break
    else:
        raise AssertionError("the first hand did not end")
    first = h.m.records[0]
    assert first["result"] is not None
    assert {a[0] for a in first["actions"]} == {0, 1, 2, 3}   # the host, the computer and both friends played
    assert len(h.m.scores) == 2 and sum(h.m.scores) > 0      # two sides score
    for seat in (2, 3):
        g = p.open_friend(seat, act=False)
        assert g.view["scores"] == list(h.m.scores) and g.view["results"] == h.m.view(seat)["results"]


# ------------------------------------------------------------------ the app
def _items(s) -> list[tuple]:
    return [(n[1]["data-turn"], n[1]["data-match"], text_of(n)) for n in find(s.screen(), data_testid="match-item")]


def _status(s) -> str:
    return text_of(find(s.screen(), data_testid="later-status")[0])


def _move(s) -> None:
    m = s.ctrl.match
    a = players.get_player("easy")(m.view(m.turn), random.Random(m.seq))
    s.out = Out()
    s.play(a)


def _lobby(mail: Mail, game: str, n: int, form: dict | None = None, target: int | None = None):
    """The host's friends' lobby with ``n`` players, the form's changes, When you can, Start."""
    with_relay(mail.stores.setdefault("host", MemoryStore()))
    host = mail.open("host")
    host.new_settings = dict(host.new_settings, game=game, players=n, **({"target": target} if target else {}))
    mail.tap("host", action="play-friends")
    if form:
        cfg = host.link.table.config
        full = {"game": game, "players": str(n), "target": str(cfg["target"]), "options": {}}
        for i in range(n):
            full[f"seat-kind-{i}"] = cfg["seats"][i]["kind"]
            full[f"seat-name-{i}"] = cfg["seats"][i]["name"]
        full.update(form)
        mail.tap("host", action="change", field="seat-kind", form=full)
    mail.tap("host", action="play-when", when="later")
    mail.tap("host", action="start-table")
    assert isinstance(host.link, LaterHost) and host.at_table()
    return host


def _open_host(mail: Mail):
    """The host's phone: the game, Your matches (a friend's move waiting on the relay is applied), the match."""
    s = mail.open("host")
    mail.tap("host", action="my-matches")
    assert isinstance(s.link, Browsing)
    (turn, mid, _words), = _items(s)
    mail.tap("host", action="open-match", match=mid)
    assert isinstance(s.link, LaterHost)
    return s, turn


@pytest.mark.parametrize("computer", [1, 2], ids=["partner-a-friend", "partner-the-computer"])
def test_at_four_the_partner_chosen_in_the_lobby_is_the_matchs(computer):
    mail = Mail()
    host = _lobby(mail, "latin", 4, form={f"seat-kind-{computer}": "medium"})
    m = host.ctrl.match
    kinds = [x["kind"] for x in m.seats]
    assert kinds == [HUMAN] + ["medium" if i == computer else REMOTE for i in (1, 2, 3)]
    assert m.rules.partnership and m.rules.sides == [[0, 2], [1, 3]]
    friends = sorted(host.link.host.seats)
    assert friends == [i for i in (1, 2, 3) if i != computer]
    links = {seat: host.link.link_for(seat) for seat in friends}
    assert all(link.startswith(BASE + f"#later={seat + 1}.") for seat, link in links.items())
    # the partner (seat 3 on the screen, seat 2 here) is a friend's link or the computer, as chosen
    partner = "friend" if computer != 2 else "computer"
    assert (2 in friends) == (partner == "friend")
    mail.close("host")
    # each friend's phone sees the sides the lobby chose; the host's phone opened again keeps them
    for seat, link in links.items():
        name = f"f{seat}"
        f = mail.open(name, join=link.split("#", 1)[1])
        mail.tap(name, action="later-join")
        assert isinstance(f.link, LaterGuest)
        v = f.link.guest.view
        assert v is not None and v["side"] == seat % 2 and v["sides"] == [[0, 2], [1, 3]]
        assert v["kinds"] == kinds
        mail.close(name)
    s, _turn = _open_host(mail)
    assert [x["kind"] for x in s.ctrl.match.seats] == kinds and s.ctrl.match.rules.partnership


def test_a_hand_of_latin_with_three_friends_through_the_app_scores_for_the_sides():
    """Four players, all people: the host and its partner (seat 3 on the screen) against two friends; the
    first hand played with each phone closed between moves, the host's opened after each friend's."""
    mail = Mail()
    host = _lobby(mail, "latin", 4)
    assert sorted(host.link.host.seats) == [1, 2, 3] and host.ctrl.match.rules.partnership
    fragments = {seat: host.link.link_for(seat).split("#", 1)[1] for seat in (1, 2, 3)}
    mail.close("host")
    for seat, fragment in fragments.items():
        mail.open(f"f{seat}", join=fragment)
        mail.tap(f"f{seat}", action="later-join")
        mail.close(f"f{seat}")
    moved = set()
    done = False
    for _ in range(200):
        for seat in (1, 2, 3):
            mail.wall.now += HOUR
            f = mail.open(f"f{seat}", join=fragments[seat])
            if f.ctrl.my_turn():
                _move(f)
                mail.run(f"f{seat}", f.out)
                moved.add(seat)
            mail.close(f"f{seat}")
            mail.wall.now += HOUR
            s, _turn = _open_host(mail)
            while s.ctrl.my_turn():
                _move(s)
                mail.run("host", s.out)
                moved.add(0)
            m = s.ctrl.match
            mail.close("host")
            done = len(m.records) > 1 or bool(m.outcome)
            if done:
                break
        if done:
            break
    else:
        raise AssertionError("the first hand did not end")
    assert moved == {0, 1, 2, 3}
    result = m.records[0]["result"]
    assert result is not None and len(m.scores) == 2 and list(m.scores) == result["totals"]
    # the side that won the hand scored (a blocked hand with the sides' pips level is a tie: nobody
    # scores; the deal comes from the lobby's fresh seed, so once in a while it is that)
    if len(result["winners"]) == 1:
        assert m.scores[result["winners"][0]] > 0, result
    else:
        assert result["end"] == "blocked" and sum(m.scores) == 0, result
    for seat, fragment in fragments.items():
        f = mail.open(f"f{seat}", join=fragment)
        v = f.link.guest.view
        assert v["scores"] == list(m.scores) and v["side"] == seat % 2
        assert v["results"][0] == m.view(seat)["results"][0]
        mail.close(f"f{seat}")


def test_a_three_player_match_with_each_phone_closed_and_the_host_opened_between_the_friends_turns():
    mail = Mail()
    host = _lobby(mail, "draw", 3)
    friends = {seat: host.link.link_for(seat).split("#", 1)[1] for seat in (1, 2)}
    assert [seat for seat in friends] == sorted(host.link.host.seats) == [1, 2]
    names = [x["name"] for x in host.ctrl.match.seats]
    mail.close("host")
    for seat, fragment in friends.items():
        name = f"f{seat}"
        mail.open(name, join=fragment)
        mail.tap(name, action="later-join")
        mail.close(name)
    moves = {"host": 0, "f1": 0, "f2": 0}
    waited = said_whom = 0
    for _cycle in range(400):
        over = False
        for seat in (1, 2):
            # a friend's phone: its move, if its turn; then the host's phone, opened between the friends' turns
            name = f"f{seat}"
            mail.wall.now += 2 * HOUR
            f = mail.open(name, join=friends[seat])
            assert isinstance(f.link, LaterGuest)
            c = f.ctrl
            if c.match.outcome:
                over = True
            elif c.my_turn():
                _move(f)
                mail.run(name, f.out)
                moves[name] += 1
                assert "Your move was sent" in _status(f)
                # the other friend, opened before the host's phone: the move is not there yet
                other = f"f{3 - seat}"
                mail.close(name)
                o = mail.open(other, join=friends[3 - seat])
                assert o.ctrl.match.turn == seat and not o.ctrl.my_turn()
                waited += 1
                mail.close(other)
            mail.close(name)
            mail.wall.now += 2 * HOUR
            s, turn = _open_host(mail)
            if s.ctrl.match.outcome:
                over = True
                mail.close("host")
                break
            assert (turn == "you") == s.ctrl.my_turn()
            while s.ctrl.my_turn():
                _move(s)
                mail.run("host", s.out)
                moves["host"] += 1
            m = s.ctrl.match
            if not m.outcome:
                # the host's bar says which friend the match waits for
                said = _status(s)
                assert f"Waiting for {names[m.turn]}'s move" in said, said
                assert all(names[x] not in said for x in (1, 2) if x != m.turn)
                said_whom += 1
            mail.close("host")
        if over:
            break
    else:
        raise AssertionError("the match did not end")
    assert all(n > 3 for n in moves.values()), moves
    assert waited > 3 and said_whom > 3
    # every phone sees the same finished match; Your matches says it is over on each
    h, _turn = _open_host(mail)
    outcome, scores = h.ctrl.match.outcome, list(h.ctrl.match.scores)
    assert outcome is not None
    mail.close("host")
    for seat, fragment in friends.items():
        f = mail.open(f"f{seat}", join=fragment)
        assert f.ctrl.match.outcome == outcome and list(f.ctrl.match.scores) == scores
        mail.close(f"f{seat}")
    for name in ("host", "f1", "f2"):
        s = mail.open(name)
        mail.tap(name, action="my-matches")
        assert [i[0] for i in _items(s)] == ["over"], name
        mail.close(name)


def test_a_forged_action_for_another_friends_seat_changes_nothing_on_the_hosts_table():
    mail = Mail()
    host = _lobby(mail, "draw", 3)
    fragments = {seat: host.link.link_for(seat).split("#", 1)[1] for seat in (1, 2)}
    tickets = {seat: parse_later(fragments[seat])[0] for seat in (1, 2)}
    joined = set()
    # to seat 2's turn (each friend plays its turn)
    for _ in range(20):
        m = host.ctrl.match
        if m.turn == 2:
            break
        if host.ctrl.my_turn():
            _move(host)
            mail.run("host", host.out)
            continue
        seat = m.turn
        mail.close("host")
        name = f"f{seat}"
        f = mail.open(name, join=fragments[seat])
        if seat not in joined:
            mail.tap(name, action="later-join")
            joined.add(seat)
        _move(f)
        mail.run(name, f.out)
        mail.close(name)
        host, _turn = _open_host(mail)
    m = host.ctrl.match
    assert m.turn == 2 and m.seq > 0
    seq = m.seq
    legal = m.legal_actions()[0]
    sk1 = bytes.fromhex(tickets[1].secret)
    mid = tickets[1].match
    for d, seat in ((tag(mid, "act", 2), 2), (tag(mid, "act", 1), 2), (tag(mid, "act", 1), 1)):
        event = _act_event(sk1, d, tickets[1].host, mid, seat, seq, legal, int(mail.wall.now) + 1)
        mail.tap("host", action="mail-event", sub=host.link.sub, relay=RELAY, text=json.dumps(event))
        assert host.ctrl.match.seq == seq and host.ctrl.match.turn == 2
    assert {r.reason for r in host.link.host.refused[-3:]} == {"wrong-author", "wrong-seat"}
    said = _status(host)
    assert f"Waiting for {host.ctrl.match.seats[2]['name']}'s move" in said, said



@pytest.mark.parametrize("n", [3, 4])
def test_the_lobby_says_a_friends_move_is_recorded_when_the_hosts_game_is_next_open(n):
    mail = Mail()
    with_relay(mail.stores.setdefault("host", MemoryStore()))
    host = mail.open("host")
    host.new_settings = dict(host.new_settings, game="draw" if n == 3 else "latin", players=n)
    mail.tap("host", action="play-friends")
    mail.tap("host", action="play-when", when="later")
    said = find(host.screen(), data_testid="later-host-applies")
    assert said, "the lobby says nothing of the host's game at this number of players"
    words = text_of(said[0])
    assert "host" in words and "open" in words, words
    mail.tap("host", action="play-when", when="now")           # a live table: nothing to say
    assert not find(host.screen(), data_testid="later-host-applies")


def test_at_two_players_the_lobby_has_nothing_to_say_of_the_hosts_game():
    mail = Mail()
    with_relay(mail.stores.setdefault("host", MemoryStore()))
    host = mail.open("host")
    host.new_settings = dict(host.new_settings, game="draw", players=2)
    mail.tap("host", action="play-friends")
    mail.tap("host", action="play-when", when="later")
    assert find(host.screen(), data_testid="later-notice")
    assert not find(host.screen(), data_testid="later-host-applies")


def test_a_friends_move_on_its_way_to_the_hosts_phone_is_not_its_turn_in_your_matches():
    mail = Mail()
    host = _lobby(mail, "draw", 3)
    fragments = {seat: host.link.link_for(seat).split("#", 1)[1] for seat in (1, 2)}
    while host.ctrl.my_turn():
        _move(host)
        mail.run("host", host.out)
    seat = host.ctrl.match.turn
    names = [x["name"] for x in host.ctrl.match.seats]
    mail.close("host")
    name = f"f{seat}"
    f = mail.open(name, join=fragments[seat])
    mail.tap(name, action="later-join")
    assert f.ctrl.my_turn()
    _move(f)
    mail.run(name, f.out)
    mail.close(name)
    mail.wall.now += 3 * HOUR                        # the host's phone stays closed
    f = mail.open(name)
    mail.tap(name, action="my-matches")
    (turn, mid, words), = _items(f)
    assert turn == "waiting" and not words.startswith("●"), words
    assert "sent" in words, words
    mail.tap(name, action="open-match", match=mid)
    said = _status(f)
    assert "Your move was sent" in said and names[seat] not in said, said
    mail.close(name)
    hp, _turn = _open_host(mail)                      # applied: the next player's turn
    nxt = hp.ctrl.match.turn                          # (a seat with nothing to play may be passed over)
    mail.close("host")
    f = mail.open(name)
    mail.tap(name, action="my-matches")
    (turn, _mid, words), = _items(f)
    if nxt == seat:                                   # both others passed: this friend's turn again
        assert turn == "you" and words.startswith("●"), words
    else:
        assert turn == "waiting" and f"{names[nxt]}'s turn" in words, words
