"""HostTable and GuestTable over an in-memory transport: whole matches, the
lobby, reconnection at every step of a hand, abandonment, the computer
stand-in, refused messages, the rate limit, the host's save, and an audit
of every message the host sent (no guest ever gets a tile it may not see)."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from domino import app, players
from domino.app.controller import Controller
from domino.app.screens.display import Display
from domino.engine import deals, tiles
from domino.engine.match import HUMAN, Match
from domino.engine.records import from_record, to_record
from domino.engine.rules import PRESETS, make_rules
from domino.net import protocol
from domino.net.guest import MAX_LOG, GuestTable
from domino.net.host import HostTable, NetError, is_remote_turn
from domino.table import REMOTE, sanitize_name

ROOT = Path(__file__).resolve().parents[2]
TILE = re.compile(r"[0-9]{1,2}-[0-9]{1,2}")
FORBIDDEN_KEYS = {"seed", "deal", "rng", "bone", "bpos", "order"}


# ----------------------------------------------------------------- the audit
def hidden_tiles(m: Match, seat: int) -> set[str]:
    """The tiles ``seat`` may not know now: the other seats' hands and the
    undrawn boneyard (Frijolito: every tile never turned over in public,
    the seat's own row included, and the tiles set aside)."""
    h = m.hand
    mask = 0
    if m.rules.shape == "row":
        for x in h.hands:
            mask |= x
        mask &= ~h.known
    else:
        for i, x in enumerate(h.hands):
            if i != seat:
                mask |= x
    for t in h.bone[h.bpos:]:
        mask |= 1 << t
    return {tiles.NAMES[t] for t in tiles.ids(mask)}


def _strings(x, path=()):
    if isinstance(x, dict):
        for k, v in x.items():
            # the one seed a view may carry: a hand's own deal seed, once the hand is over (checked in audit)
            assert k not in FORBIDDEN_KEYS or path + (k,) == ("view", "dealing", "seed"), f"key {k!r} at {path}"
            yield from _strings(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _strings(v, path + (i,))
    elif isinstance(x, str):
        yield path, x


def audit(m: Match | None, seat: int, text: str, secrets: dict[int, str]) -> None:
    """Fail if the host's ``text`` to ``seat``'s device shows anything that
    seat may not know now.  At a hand's end the hands are revealed in
    ``view.result.hands`` (Match.view does it for every seat: public)."""
    msg = json.loads(text)
    for s, secret in secrets.items():
        if s != seat:
            assert secret not in text, f"seat {s}'s secret sent to seat {seat}"
    if m is None:
        list(_strings(msg))
        return
    hidden = hidden_tiles(m, seat)
    revealed = msg.get("t") == "view" and msg["view"]["phase"] != "play"
    for path, s in _strings(msg):
        if revealed and path[:3] == ("view", "result", "hands"):
            continue
        if TILE.fullmatch(s):
            assert s not in hidden, f"seat {seat} was sent {s} at {path} in a {msg.get('t')} message"
    if msg.get("t") == "view":
        v = msg["view"]
        assert v["seat"] == seat
        seed = v["dealing"].get("seed")
        if seed is not None:   # revealed only once the hand is over, and never the match's seed
            assert revealed and m.hand.ended and seed == deals.deal_seed(m.seed, v["hand_no"])
            assert len(str(m.seed)) < 12 or str(m.seed) not in text
        assert v == m.view(seat)
        if revealed and v.get("result"):
            hands = v["result"]["hands"]
            assert hands == m.view((seat + 1) % m.rules.players)["result"]["hands"]   # the same for everyone


# ----------------------------------------------------------------- the transport
def render(c: Controller):
    """The table's tree, or the exception the screen code raised (the
    guest's screen must fail exactly where the host's does)."""
    try:
        return app.game_screen(c, Display())
    except Exception as exc:   # noqa: BLE001
        return ("raised", repr(exc))


def seen_by(m: Match, seat: int, mirror) -> Match:
    """A copy of the real match with the mirror's seat kinds (``seat`` the
    one person), as one device would show it to ``seat``."""
    real = m.clone()
    for i, s in enumerate(mirror.seats):
        real.seats[i]["kind"] = s["kind"]
    return real


def easy_choice(view: dict) -> dict:
    """A guest's deterministic choice (from its view alone)."""
    return players.get_player("easy")(view, random.Random(view["seq"]))


class Net:
    """An in-memory transport and the host's session: texts go between one
    HostTable and the GuestTables of the connected peers; every host text is
    audited on its way; the session applies validated actions, plays the
    computers (and the host's own seat, as easy) and calls sync."""

    def __init__(self, game: str, kinds: list[str], opts: dict | None = None, *, ui: bool = True,
                 **table_kw):
        settings = {"game": game, "players": len(kinds), "options": dict(opts or {}),
                    "seats": [{"kind": k, "name": ""} for k in kinds]}
        if "target" in (opts or {}):
            settings["target"] = settings["options"].pop("target")
        if "partnership" in (opts or {}):
            settings["partnership"] = settings["options"].pop("partnership")
        self.now = 0.0
        self.host = HostTable(settings, **table_kw)
        self.match: Match | None = None
        self.guests: dict[str, GuestTable] = {}
        self.sent: list[tuple[str, str]] = []
        self.accepted: dict[int, int] = {}
        self.steps = 0
        self.ui = ui
        self._n = 0

    # --- transport
    def deliver(self, replies, drop=()) -> None:
        for peer, text in replies:
            self.sent.append((peer, text))
            g = self.guests.get(peer)
            if g is None:
                continue
            bound = self.host.peers.get(peer)
            audit(self.match, bound.seat if bound and bound.seat is not None else g.seat, text,
                  self.host.secrets)
            ev = g.receive(text)
            assert ev.kind != "ignored", (ev.detail, text[:200])
        for peer in drop:
            self.guests.pop(peer, None)

    def send(self, peer: str, text: str):
        self.now += 0.1
        res = self.host.receive(peer, text, self.now)
        self.deliver(res.replies, res.drop)
        return res

    def connect(self, seat: int, name: str = "", guest: GuestTable | None = None) -> str:
        self._n += 1
        peer = f"peer{self._n}"
        g = guest or GuestTable(seat, self.host.invite(seat), name or f"Guest {seat}")
        self.guests[peer] = g
        res = self.send(peer, g.hello())
        assert res.refused is None, res.replies
        return peer

    def disconnect(self, peer: str) -> None:
        self.guests.pop(peer)
        self.deliver(self.host.disconnected(peer, self.now).replies)

    def peer_of(self, seat: int) -> str | None:
        pid = self.host.bound.get(seat)
        return pid if pid in self.guests else None

    def guest(self, seat: int) -> GuestTable:
        return self.guests[self.peer_of(seat)]

    # --- session
    def lobby_and_start(self, seed: int = 7) -> None:
        for s in self.host.remote_seats():
            peer = self.connect(s)
            self.send(peer, self.guests[peer].ready(True))
        assert self.host.can_start()
        self.match = self.host.new_match(seed)
        self.deliver(self.host.start(self.match, self.now))

    def sync(self) -> None:
        self.deliver(self.host.sync(self.now))

    def guest_sends(self, g: GuestTable, action: dict) -> str:
        """The guest's decision as a text: through the table's Controller
        on the guest's mirror (a tap, as on the phone) when ``ui``."""
        if self.ui:
            c = Controller(g.match, viewer=g.seat)
            if "play" in action:
                if c.tap_tile(action["play"]) is None and c.tap_end(action["end"]) is None:
                    c.tap_open(action["open"])
            elif "draw" in action:
                c.apply(c.draw_action())
            else:
                acts = [a for _label, a in c.row_actions() if a == action]
                c.apply(acts[0] if acts else action)
            text = g.send_pending()
            assert text is not None, action
            return text
        return g.act(action)

    def step(self) -> bool:
        """One decision of the seat to move (or the next deal).  False when
        the match is over or the seat to move has no device."""
        m = self.match
        if m.finished:
            return False
        if m.phase == "hand-over":
            m.next_hand()
        else:
            seat = m.turn
            kind = m.seats[seat]["kind"]
            if kind == REMOTE:
                peer = self.peer_of(seat)
                if peer is None:
                    return False
                g = self.guests[peer]
                res = self.send(peer, self.guest_sends(g, easy_choice(g.view)))
                assert res.action is not None and res.action[0] == seat, res.replies
                m.apply(res.action[1])
                self.accepted[seat] = self.accepted.get(seat, 0) + 1
            else:
                level = "easy" if kind == HUMAN else kind
                m.apply(players.get_player(level)(m.view(seat), m.player_rng(seat)))
        self.steps += 1
        self.sync()
        return True

    def play_to_end(self, limit: int = 5000) -> None:
        while self.step():
            assert self.steps < limit


# ----------------------------------------------------------------- whole matches
MATCHES = [
    ("draw", ["human", "remote"], {}),
    ("latin", ["remote", "easy", "remote", "easy"], {}),
    ("mexican-train", ["human", "remote", "remote"], {"start_double": 6}),
    ("all-fives", ["remote", "human", "remote"], {}),
]


@pytest.mark.parametrize("game, kinds, opts", MATCHES, ids=[m[0] for m in MATCHES])
def test_a_whole_match_between_devices(game, kinds, opts):
    net = Net(game, kinds, opts)
    net.lobby_and_start()
    first = {s: (net.guest(s).view["hand_no"], len(net.guest(s).view["history"])) for s in net.host.remote_seats()}
    net.play_to_end()
    m = net.match
    assert m.finished and m.outcome["reason"] in ("target", "rounds")
    for s in net.host.remote_seats():
        g = net.guest(s)
        assert g.view == m.view(s)
        assert g.ended and g.outcome == m.outcome
        # one ack per accepted action: the last one it got is the last it sent
        acks = [json.loads(t)["seq"] for p, t in net.sent if p == net.peer_of(s) and '"t":"ack"' in t]
        assert len(acks) == net.accepted[s] > 0
        # the log: every public action of every hand since the first view,
        # once, in order (the last MAX_LOG of them)
        want = []
        for k in range(m.hand_no + 1):
            acts = m.records[k]["actions"]
            start = first[s][1] if k == first[s][0] else 0
            want += [{"hand": k, "i": i, "action": m.public_action(acts[i], s)} for i in range(start, len(acts))]
        assert len(want) > 20
        assert g.log == want[-MAX_LOG:]
        # the guest's table draws the final position as the host's would for that seat
        tree = render(Controller(g.match, viewer=s))
        assert tree == render(Controller(seen_by(m, s, g.match), viewer=s))
        if not m.rules.partnership:    # see test_mirror: the app's partnership result screen
            assert app.find(tree, data_testid="match-result")


def test_the_audit_catches_a_leak():
    """The audit is not a tautology: a view of another seat, or a hidden tile
    anywhere in a message, fails it."""
    net = Net("draw", ["human", "remote"])
    net.lobby_and_start()
    m = net.match
    other = m.view(0)
    text = protocol.encode(protocol.message("view", seq=m.seq, view=other, events=[]))
    with pytest.raises(AssertionError):
        audit(m, 1, text, net.host.secrets)
    leak = tiles.NAMES[next(iter(tiles.ids(m.hand.hands[0])))]
    with pytest.raises(AssertionError):
        audit(m, 1, protocol.encode(protocol.message("reaction", seat=0, id="wow")).replace("wow", leak), {})
    with pytest.raises(AssertionError):
        audit(m, 1, json.dumps({"t": "x", "seed": 7}), {})
    early = m.view(1)
    early["dealing"]["seed"] = m.deal_seed()       # the hand's seed while it is still played
    with pytest.raises(AssertionError):
        audit(m, 1, protocol.encode(protocol.message("view", seq=m.seq, view=early, events=[])), {})
    with pytest.raises(AssertionError):
        audit(m, 1, json.dumps({"t": "x", "s": net.host.secrets[1]}), {0: "zz", 1: "yy", 2: net.host.secrets[1]})


def test_frijolito_keeps_even_the_own_face_down_row_hidden():
    net = Net("frijolito", ["human", "remote", "remote"], {"target": 50})
    net.lobby_and_start()
    for _ in range(8):
        assert net.step()
    m = net.match
    assert m.phase == "play"
    own_down = {tiles.NAMES[t] for t in m.hand.rows[1] if not (m.hand.known >> t) & 1}
    assert own_down and own_down <= hidden_tiles(m, 1)
    assert not own_down & set(net.guest(1).view["hand"])


# ----------------------------------------------------------------- reconnection
def _reference(game="draw", kinds=("human", "remote"), opts=None):
    """A never-dropped guest's state after each step of the first hand."""
    net = Net(game, list(kinds), opts)
    net.lobby_and_start()
    states = [net.guest(1).state()]
    while net.match.hand_no == 0 and net.step():
        states.append(net.guest(1).state())
    return states


@pytest.mark.parametrize("game, kinds", [("draw", ("human", "remote")),
                                         ("mexican-train", ("easy", "remote", "human"))])
def test_reconnect_at_every_step_of_a_hand(game, kinds):
    """Drop the guest at step k (every k of the first hand) and let it come
    back with its secret: its state equals the never-dropped guest's, then
    and at every later step of the hand.  Even k: a reload (the device comes
    back at once, with nothing kept); odd k: a second device opens the seat
    while the first is still connected, after the table went on without it."""
    opts = {"start_double": 3, "set": 9} if game == "mexican-train" else None
    ref = _reference(game, kinds, opts)
    assert len(ref) > 10
    for k in range(len(ref)):
        net = Net(game, list(kinds), opts)
        net.lobby_and_start()
        for _ in range(k):
            net.step()
        old = net.peer_of(1)
        secret, name = net.guests[old].secret, net.guests[old].name
        if k % 2 == 0:
            net.disconnect(old)
            assert net.host.seat_status(1) == "away"
            peer = net.connect(1, guest=GuestTable(1, secret, name))
        else:
            while net.match.hand_no == 0 and net.match.turn != 1 and net.step():
                pass
            peer = net.connect(1, guest=GuestTable(1, secret, name))
            assert old not in net.host.peers
            assert any(p == old and '"t":"closed"' in t and "replaced" in t for p, t in net.sent)
        assert net.host.seat_status(1) == "joined"
        g = net.guests[peer]
        assert g.state() == ref[net.steps], k
        assert g.log == []          # a fresh device gets the whole view, nothing to animate
        while net.match.hand_no == 0 and net.steps < len(ref) - 1 and net.step():
            assert g.state() == ref[net.steps], (k, net.steps)


# ----------------------------------------------------------------- the lobby
def test_lobby_statuses_ready_and_start():
    net = Net("draw", ["human", "remote", "remote", "easy"])
    h = net.host
    assert [s["status"] for s in h.statuses()] == ["here", "open", "open", "computer"]
    h.invite(1)
    assert h.seat_status(1) == "invited" and h.invite(1) == h.invite(1)
    p1 = net.connect(1, "Ana")
    p2 = net.connect(2, "  <i>Luis</i>\u202e\n ")
    assert [s["status"] for s in h.statuses()] == ["here", "joined", "joined", "computer"]
    assert h.config["seats"][2]["name"] == "<i>Luis</i>"
    g1, g2 = net.guests[p1], net.guests[p2]
    assert g1.welcomed and g1.lobby["your_seat"] == 1 and g2.lobby["your_seat"] == 2
    assert g1.lobby["code"] == make_rules("draw", players=4).lobby_code() == "100pt/ab."
    assert [s["name"] for s in g1.lobby["config"]["seats"]][1:3] == ["Ana", "<i>Luis</i>"]
    assert "secret" not in json.dumps(g1.lobby)
    net.send(p1, g1.ready(True))
    assert h.seat_status(1) == "ready" and g2.statuses[1]["status"] == "ready"
    assert not h.can_start()
    with pytest.raises(NetError):
        h.start(h.new_match(1))
    net.send(p2, g2.ready(True))
    assert h.can_start()
    # a change of the settings clears the Starts, and everyone hears of it
    res = h.set_config(dict(h.config, target=150))
    net.deliver(res.replies, res.drop)
    assert res.lobby_changed and not h.can_start()
    assert g1.lobby["config"]["target"] == 150 and g1.statuses[1]["status"] == "joined"
    assert g1.lobby["code"] == "150pt/ab."
    for p in (p1, p2):
        net.send(p, net.guests[p].ready(True))
    net.match = h.new_match(3)
    assert [s["name"] for s in net.match.seats][1:3] == ["Ana", "<i>Luis</i>"]
    assert [s["kind"] for s in net.match.seats] == ["human", REMOTE, REMOTE, "easy"]
    net.deliver(h.start(net.match, net.now))
    assert g1.view == net.match.view(1) and g2.view == net.match.view(2)
    assert [s["status"] for s in h.statuses()] == ["here", "joined", "joined", "computer"]
    with pytest.raises(NetError):
        h.set_config(h.config)
    res = net.send(p1, g1.ready(False))
    assert res.refused == "not-in-lobby"


def test_a_seat_that_stops_being_remote_loses_its_device():
    net = Net("draw", ["human", "remote", "remote"])
    p1 = net.connect(1)
    p2 = net.connect(2)
    cfg = dict(net.host.config)
    cfg["seats"] = [dict(s) for s in cfg["seats"]]
    cfg["seats"][2]["kind"] = "hard"
    res = net.host.set_config(cfg)
    assert p2 in res.drop and p1 not in res.drop
    assert any(p == p2 and '"reason":"removed"' in t for p, t in res.replies)
    assert 2 not in net.host.secrets and net.host.seat_status(2) == "computer"
    net.deliver(res.replies, res.drop)
    assert net.guests[p1].lobby["config"]["seats"][2]["status"] == "computer"
    with pytest.raises(NetError):
        net.host.invite(2)
    with pytest.raises(NetError):
        net.host.invite(0)


def test_the_host_chooses_partners_by_swapping_seats():
    net = Net("latin", ["human", "remote", "remote", "easy"])
    p1 = net.connect(1, "Ana")
    p2 = net.connect(2, "Luis")
    g1 = net.guests[p1]
    secret1 = g1.secret
    assert net.host.public_config()["partners"] == [[0, 2], [1, 3]]
    # Ana to seat 2, the host's partner; Luis to seat 1
    res = net.host.swap_seats(1, 2)
    net.deliver(res.replies, res.drop)
    assert g1.seat == 2 and g1.secret == secret1 and g1.lobby["your_seat"] == 2
    assert net.guests[p2].seat == 1
    assert [s["name"] for s in net.host.statuses()] == ["", "Luis", "Ana", ""]
    # the moved invitation works at its new seat, not at the old one
    res = net.send("other", protocol.encode(protocol.message("hello", seat=1, secret=secret1, name="X")))
    assert res.refused == "bad-secret"
    for p in (p1, p2):
        net.send(p, net.guests[p].ready(True))
    net.match = net.host.new_match(5)
    net.deliver(net.host.start(net.match))
    assert net.match.view(2)["side"] == net.match.view(0)["side"] == 0
    assert g1.view["side"] == 0 and g1.view["seat"] == 2


def test_one_device_per_seat_and_wrong_secrets():
    net = Net("draw", ["human", "remote", "remote"])
    p1 = net.connect(1)
    secret = net.host.secrets[1]
    # a wrong secret, a secret of another seat, the host's seat, a computer's
    for seat, sec, code in ((1, "nope", "bad-secret"), (2, secret, "bad-secret"), (0, secret, "bad-seat"),
                            (5, secret, "bad-seat")):
        res = net.send("intruder", protocol.encode(protocol.message("hello", seat=seat, secret=sec, name="")))
        assert res.refused == code and res.action is None
    assert net.host.bound[1] == p1
    # a seated device cannot take a second seat
    res = net.send(p1, protocol.encode(protocol.message("hello", seat=2, secret=net.host.invite(2), name="")))
    assert res.refused == "already-seated"
    # five wrong secrets: dropped
    for i in range(3):
        res = net.send("intruder", protocol.encode(protocol.message("hello", seat=1, secret=f"x{i}", name="")))
    assert "intruder" in res.drop and "intruder" not in net.host.peers
    # the same secret from a second device replaces the first
    p1b = net.connect(1)
    assert net.host.bound[1] == p1b and p1 not in net.host.peers
    assert any(p == p1 and '"reason":"replaced"' in t for p, t in net.sent)
    # revoke: the device is told and dropped, the old secret no longer works
    res = net.host.revoke(1)
    assert p1b in res.drop and net.host.seat_status(1) == "open"


# ----------------------------------------------------------------- away seats
def _away_then_tick(net: Net, seat: int):
    net.disconnect(net.peer_of(seat))
    assert net.host.seat_status(seat) == "away"
    t0 = net.now
    assert net.host.tick(t0 + net.host.grace - 0.5).action is None
    return net.host.tick(t0 + net.host.grace)


def test_abandonment_at_two_players():
    net = Net("draw", ["human", "remote"], policy="abandon", grace=30)
    net.lobby_and_start()
    for _ in range(5):
        net.step()
    res = _away_then_tick(net, 1)
    assert res.action == (1, {"seat": 1, "resign": True})
    net.match.apply(res.action[1])
    assert net.match.outcome["winner"] == 0 and net.match.outcome["reason"] == "resign"
    assert net.host.state()["abandoned"] == 1
    assert net.host.tick(net.now + 1000).action is None   # once
    # the one who left comes back to the result
    peer = net.connect(1)
    g = net.guests[peer]
    assert g.ended and g.abandoned == 1 and g.outcome["winner"] == 0
    tree = app.game_screen(Controller(g.match, viewer=1), Display())
    assert app.find(tree, data_testid="match-result")[0][1]["data-winner"] == "0"
    assert tree == render(Controller(seen_by(net.match, 1, g.match), viewer=1))


def _expected_winner(scores: list[int], stayers: list[int], good: bool):
    best = (max if good else min)(scores[s] for s in stayers)
    top = [s for s in stayers if scores[s] == best]
    return top[0] if len(top) == 1 else None


@pytest.mark.parametrize("game, opts, scores, leaver", [
    ("all-fives", {}, [30, 80, 50], 1),       # the leader leaves: the best of the others wins
    ("all-fives", {}, [40, 10, 40], 2),       # those who stay tie: a draw
    ("all-fives", {}, [40, 10, 60], 1),
    ("mexican-train", {"start_double": 3}, [30, 80, 50], 1),   # bad points: fewest wins
    ("mexican-train", {"start_double": 3}, [90, 10, 50], 2),
])
def test_abandonment_at_three_players(game, opts, scores, leaver):
    net = Net(game, ["human", "remote", "remote"], opts, policy="abandon")
    net.lobby_and_start()
    for _ in range(4):
        net.step()
    net.match.scores[:] = scores      # as if earlier hands had gone so
    res = _away_then_tick(net, leaver)
    net.match.apply(res.action[1])
    net.sync()
    stayers = [s for s in range(3) if s != leaver]
    want = _expected_winner(scores, stayers, good=net.match.rules.points == "good")
    assert net.match.outcome["winner"] == want
    other = net.guest(next(s for s in (1, 2) if s != leaver))
    assert other.ended and other.abandoned == leaver and other.outcome["winner"] == want


@pytest.mark.parametrize("kinds, leaver, winner", [
    (["human", "remote", "easy", "remote"], 1, 0),
    (["human", "remote", "easy", "remote"], 3, 0),
    (["remote", "human", "remote", "easy"], 2, 1),
])
def test_abandonment_with_partners_the_leavers_side_loses(kinds, leaver, winner):
    net = Net("latin", kinds, policy="abandon")
    net.lobby_and_start()
    for _ in range(6):
        net.step()
    net.match.scores[:] = [10, 10]
    net.match.scores[leaver % 2] = 90     # even when ahead
    res = _away_then_tick(net, leaver)
    net.match.apply(res.action[1])
    assert net.match.outcome["winner"] == winner


def test_abandonment_at_four_players_without_partners():
    net = Net("draw", ["human", "remote", "remote", "remote"], policy="abandon")
    net.lobby_and_start()
    net.match.scores[:] = [10, 50, 40, 90]
    res = _away_then_tick(net, 3)
    net.match.apply(res.action[1])
    assert net.match.outcome["winner"] == 1


def test_a_computer_stands_in_until_the_person_is_back():
    net = Net("draw", ["human", "remote"], policy="computer", grace=10, stand_in="easy")
    net.lobby_and_start()
    for _ in range(3):
        net.step()
    secret = net.guest(1).secret
    res = _away_then_tick(net, 1)
    assert res.match_changed and res.action is None
    assert net.match.seats[1]["kind"] == "easy" and not is_remote_turn(net.match)
    st = net.host.statuses()[1]
    assert st["status"] == "away" and st["stand_in"] == "easy"
    def by_seat_1():
        return sum(1 for rec in net.match.records for a in rec["actions"] if a[0] == 1)
    before = by_seat_1()
    for _ in range(6):            # the session's computer loop plays the seat
        assert net.step()
    assert by_seat_1() > before
    peer = net.connect(1, guest=GuestTable(1, secret, "Back"))
    assert net.match.seats[1]["kind"] == REMOTE
    assert net.host.statuses()[1]["status"] == "joined" and net.host.statuses()[1]["stand_in"] is None
    assert net.guests[peer].view == net.match.view(1)
    net.play_to_end()
    assert net.match.finished


# ----------------------------------------------------------------- refusals
def _at_guest_turn(kinds=("human", "remote", "remote"), game="draw"):
    net = Net(game, list(kinds))
    net.lobby_and_start()
    while net.match.turn != 1:
        net.step()
    return net


def _refused(net: Net, peer: str, text, code: str):
    m = net.match
    net.now += 0.1
    before = (net.host.state(), m.state_key() if m else None, net.host.pending)
    res = net.host.receive(peer, text, net.now)
    assert res.refused == code, (res.refused, res.replies)
    assert res.action is None and res.next_hand is None
    assert (net.host.state(), m.state_key() if m else None, net.host.pending) == before
    mine = [json.loads(t) for p, t in res.replies if p == peer]
    assert mine and mine[0]["t"] == "refused" and mine[0]["reason"] == code and mine[0]["message"]
    net.deliver(res.replies, res.drop)
    return res


def test_each_kind_of_bad_act_is_refused_and_changes_nothing():
    net = _at_guest_turn()
    m = net.match
    p1, p2 = net.peer_of(1), net.peer_of(2)
    g1 = net.guests[p1]
    legal = m.legal_actions()[0]
    act = lambda seq, a: protocol.encode(protocol.message("act", seq=seq, action=a))   # noqa: E731
    # stale: its refusal only (the device has the current view already)
    res = _refused(net, p1, act(m.seq - 1, legal), "stale-seq")
    assert [json.loads(t)["t"] for p, t in res.replies] == ["refused"]
    assert g1.refusal.reason == "stale-seq" and str(g1.refusal)
    _refused(net, p1, act(m.seq + 5, legal), "stale-seq")
    # out of turn, forged seat
    _refused(net, p2, act(m.seq, dict(legal, seat=2)), "out-of-turn")
    _refused(net, p2, act(m.seq, legal), "not-your-seat")
    # not a legal action: a tile seat 1 does not hold, a wrong end
    foreign = tiles.NAMES[next(iter(tiles.ids(m.hand.hands[0])))]
    _refused(net, p1, act(m.seq, {"seat": 1, "play": foreign, "end": "W"}), "illegal")
    _refused(net, p1, act(m.seq, {"seat": 1, "play": legal.get("play", "0-0"), "end": "N"}), "illegal")
    _refused(net, p1, act(m.seq, {"seat": 1, "pass": True}), "illegal")
    _refused(net, p1, act(m.seq, {"seat": 1, "resign": True, "pass": True}), "illegal")
    # other messages at the wrong time
    _refused(net, p1, protocol.encode(protocol.message("next", seq=m.seq)), "not-hand-over")
    _refused(net, p1, protocol.encode(protocol.message("ready", ready=True)), "not-in-lobby")
    _refused(net, "stranger", act(m.seq, legal), "not-seated")
    _refused(net, "stranger", protocol.encode(protocol.message("react", id="wow")), "not-seated")
    # broken texts
    _refused(net, p1, "x" * (protocol.MAX_GUEST_CHARS + 1), "too-large")
    _refused(net, p1, "[" * 5000 + "]" * 5000, "too-deep")
    _refused(net, p1, '{"v":"domino-net/1","t":"act","seq":', "bad-json")
    _refused(net, p1, '{"v":"domino-net/1","t":"act","seq":"1","action":{"seat":1,"pass":true}}', "bad-field")
    _refused(net, p1, '{"v":"domino-net/1","t":"act","seq":1,"action":{"seat":1},"x":0}', "unknown-field")
    _refused(net, p1, b"\xff\xfe", "bad-json")
    _refused(net, p1, None, "bad-json")
    # after all that, the right move still goes through, once
    seq = m.seq
    res = net.send(p1, g1.act(legal))
    assert res.action == (1, legal)
    _refused(net, p1, g1.act(legal), "duplicate")
    m.apply(res.action[1])
    net.sync()
    assert g1.acked == seq and g1.view["seq"] == m.seq > seq
    _refused(net, p1, act(seq, legal), "stale-seq")


def test_a_replayed_act_gets_its_refusal_not_a_whole_view():
    """An ``act`` the host already applied, sent again (a replay, a retry
    after a lost ack): answered with the refusal for that act, nothing else
    (a replay must not make the host send a whole view each time)."""
    net = _at_guest_turn()
    m = net.match
    p1 = net.peer_of(1)
    g1 = net.guests[p1]
    seq = m.seq
    text = g1.act(m.legal_actions()[0])
    res = net.send(p1, text)
    m.apply(res.action[1])
    net.sync()
    assert g1.view["seq"] == m.seq > seq
    for _ in range(5):
        net.now += 0.1
        res = net.host.receive(p1, text, net.now)
        assert res.refused == "stale-seq" and res.action is None
        answers = [json.loads(t) for p, t in res.replies]
        assert [a["t"] for a in answers] == ["refused"] and answers[0]["ref"] == seq
        assert all(p == p1 for p, _t in res.replies)
    # a device that really lacks the current view still gets it with the refusal
    net.host.peers[p1].sent_key = None
    res = net.host.receive(p1, text, net.now + 0.1)
    assert [json.loads(t)["t"] for p, t in res.replies] == ["refused", "view"]


def test_a_guest_may_resign_its_own_seat_only():
    net = _at_guest_turn()
    m = net.match
    p1, p2 = net.peer_of(1), net.peer_of(2)
    resign_seat_1 = {"seat": 1, "resign": True}
    _refused(net, p2, protocol.encode(protocol.message("act", seq=0, action=resign_seat_1)), "not-your-seat")
    res = net.send(p2, protocol.encode(protocol.message("act", seq=0, action={"seat": 2, "resign": True})))
    assert res.action == (2, {"seat": 2, "resign": True})     # at any seq: not a move of the position
    m.apply(res.action[1])
    net.sync()
    assert m.finished and net.guests[p1].ended and net.guests[p1].resigned["seat"] == 2
    tree = app.game_screen(Controller(net.guests[p1].match, viewer=1), Display())
    assert "resigns" in app.text_of(tree) or "resign" in app.text_of(tree).lower()
    _refused(net, p1, protocol.encode(protocol.message("act", seq=m.seq, action=resign_seat_1)), "match-over")


def test_next_hand_from_a_guest_is_a_request():
    net = Net("draw", ["human", "remote"])
    net.lobby_and_start()
    while net.match.phase == "play":
        net.step()
    g = net.guest(1)
    assert g.view["phase"] == "hand-over"
    c = Controller(g.match, viewer=1)
    assert c.next_hand() is True and g.match.phase == "hand-over"     # nothing changes on the guest
    res = net.send(net.peer_of(1), g.send_pending())
    assert res.next_hand == 1 and res.action is None
    net.match.next_hand()
    net.sync()
    assert g.view["hand_no"] == 1
    _refused(net, net.peer_of(1), protocol.encode(protocol.message("next", seq=net.match.seq)), "not-hand-over")


def test_the_rate_limit_refuses_then_drops():
    net = Net("draw", ["human", "remote"])
    net.lobby_and_start()
    peer = net.peer_of(1)
    ping = protocol.encode(protocol.message("ping", n=1))
    t = net.now + 10          # a full bucket
    results = [net.host.receive(peer, ping, t) for _ in range(45)]
    ok = [r for r in results if r.refused is None]
    assert len(ok) == 40 and all(r.replies[0][1].find('"pong"') > 0 for r in ok)
    limited = [r for r in results if r.refused == "rate-limit"]
    assert len(limited) == 5
    assert sum(len(r.replies) for r in limited) == 1       # told once
    # a second later, 20 more get through
    later = [net.host.receive(peer, ping, t + 1.0) for _ in range(25)]
    assert sum(r.refused is None for r in later) == 20
    # a flood: dropped, its seat away
    flood = [net.host.receive(peer, ping, t + 1.0) for _ in range(200)]
    dropped = [r for r in flood if peer in r.drop]
    assert len(dropped) == 1 and net.host.seat_status(1) == "away"


def test_reactions_go_to_everyone_and_are_limited():
    net = Net("draw", ["human", "remote", "remote"])
    net.lobby_and_start()
    p1 = net.peer_of(1)
    res = net.send(p1, net.guests[p1].react("clap"))
    assert res.reaction == (1, "clap")
    assert net.guest(2).reactions[-1] == (1, "clap") and net.guest(1).reactions[-1] == (1, "clap")
    refused = [net.host.receive(p1, net.guests[p1].react("wow"), net.now).refused for _ in range(5)]
    assert refused.count("rate-limit") >= 2
    net.deliver(net.host.react(0, "laugh"))
    assert net.guest(2).reactions[-1] == (0, "laugh")


# ----------------------------------------------------------------- the host's save
def test_the_host_resumes_after_a_reload():
    net = Net("all-fives", ["human", "remote", "remote"], grace=20)
    net.lobby_and_start()
    for _ in range(25):
        net.step()
    saved = json.dumps(net.host.state())
    record = json.dumps(to_record(net.match))
    assert "peer" not in saved
    secrets = dict(net.host.secrets)
    # the host reloads: every connection is gone
    net.host = HostTable.from_state(json.loads(saved), now=net.now)
    assert net.host.secrets == secrets and net.host.started
    assert [s["status"] for s in net.host.statuses()] == ["here", "away", "away"]
    net.match = from_record(json.loads(record))
    net.host.attach(net.match, net.now)
    assert net.match.seats[1]["kind"] == REMOTE
    for s in (1, 2):
        old = net.peer_of(s) or next(p for p, g in net.guests.items() if g.seat == s)
        g = net.guests.pop(old)
        net.connect(s, guest=GuestTable(s, g.secret, g.name))
        assert net.guest(s).view == net.match.view(s)
    net.play_to_end()
    assert net.match.finished


def test_the_saved_state_round_trips():
    net = Net("draw", ["human", "remote", "remote"], policy="abandon", grace=12)
    net.host.invite(1)
    net.connect(2, "Ana")
    state = json.loads(json.dumps(net.host.state()))
    back = HostTable.from_state(state, now=5.0)
    assert back.secrets == net.host.secrets and back.config == net.host.config
    assert (back.policy, back.grace) == ("abandon", 12.0)
    assert [s["status"] for s in back.statuses()] == ["here", "invited", "away"]


@pytest.mark.parametrize("mutate", [
    lambda s: s.update(format="x"),
    lambda s: s.update(policy="explode"),
    lambda s: s.update(grace=-1),
    lambda s: s.update(secrets={"0": "abc"}),
    lambda s: s.update(secrets={"1": "a b"}),
    lambda s: s.update(secrets=[]),
    lambda s: s.update(started="yes"),
    lambda s: s.update(stand_ins=[0]),
    lambda s: s.update(abandoned=7),
    lambda s: s.update(config=None),
    lambda s: s.update(config={"game": "draw", "players": 2,
                               "seats": [{"kind": "human"}, {"kind": "human"}]}),
    lambda s: s.pop("statuses"),
])
def test_a_bad_saved_state_is_refused(mutate):
    net = Net("draw", ["human", "remote"])
    net.host.invite(1)
    state = json.loads(json.dumps(net.host.state()))
    mutate(state)
    with pytest.raises(NetError):
        HostTable.from_state(state)


# ----------------------------------------------------------------- the lobby code
def test_the_lobby_code_of_every_game_is_in_the_docs():
    doc = (ROOT / "docs" / "NET.md").read_text()
    for game in PRESETS:
        code = make_rules(game).lobby_code()
        assert f"`{code}`" in doc, (game, code)
    net = Net("mexican-train", ["human", "remote"], {"start_double": 6, "double_chains": True})
    assert net.host.code() == "6..0/mt c"


# ----------------------------------------------------------------- holding the table
from domino.net.host import MAX_UNSEATED, UNSEATED_TIMEOUT   # noqa: E402
from domino.engine.records import from_record as _from_record, to_record as _to_record   # noqa: E402


def _replays(m: Match) -> None:
    """The match's record replays to the same position."""
    again = _from_record(json.loads(json.dumps(_to_record(m))))
    assert again.state_key() == m.state_key() and again.outcome == m.outcome


def test_idle_connections_never_lock_out_a_returning_friend():
    net = Net("draw", ["human", "remote"])
    net.lobby_and_start()
    secret = net.guest(1).secret
    net.disconnect(net.peer_of(1))
    ping = protocol.encode(protocol.message("ping", n=1))
    t0 = net.now
    idle = [f"idle{i}" for i in range(MAX_UNSEATED + 8)]
    closed = []
    for i, pid in enumerate(idle):     # connections that never say hello (some just open, some ping)
        if i % 2:
            closed += net.host.connected(pid, t0 + 0.01 * i).drop     # full: the oldest idle one is closed
        else:
            closed += net.host.receive(pid, ping, t0 + 0.01 * i).drop   # full: a stranger's message is refused
    assert sum(1 for p in net.host.peers.values() if p.seat is None) == MAX_UNSEATED
    idle = [pid for pid in idle if pid not in closed]
    assert len(idle) == MAX_UNSEATED
    # a stranger is still turned away; the friend's own device gets in, the oldest idle one makes room
    stranger = net.host.receive("stranger", ping, t0 + 1)
    assert "stranger" in stranger.drop
    g = GuestTable(1, secret, "Ana")
    net.guests["back"] = g
    res = net.host.receive("back", g.hello(), t0 + 1)
    assert res.refused is None and net.host.bound[1] == "back" and res.drop == [idle[0]]
    net.deliver(res.replies)
    assert g.view == net.match.view(1)
    # the idle ones are closed once their time is up; the friend stays
    assert net.host.tick(t0 + UNSEATED_TIMEOUT - 1).drop == []
    dropped = net.host.tick(t0 + UNSEATED_TIMEOUT + 1).drop
    assert set(dropped) == set(idle[1:])
    assert all(p.seat is not None for p in net.host.peers.values()) and net.host.bound[1] == "back"
    # an idle connection that talks after its time is closed, not served
    net.host.connected("late", t0 + 20)
    late = net.host.receive("late", ping, t0 + 20 + UNSEATED_TIMEOUT)
    assert late.refused == "timeout" and "late" in late.drop and "late" not in net.host.peers


def test_time_away_counts_over_the_whole_match():
    """Leaving, coming back just before the grace ends and leaving again
    buys no fresh minute; the total survives the host's reload."""
    net = Net("draw", ["human", "remote"], policy="abandon", grace=60)
    net.lobby_and_start()
    secret = net.guest(1).secret
    net.disconnect(net.peer_of(1))
    t0 = net.now
    assert net.host.tick(t0 + 55).action is None
    net.now = t0 + 55
    peer = net.connect(1, guest=GuestTable(1, secret, "Ana"))       # back with 5 s left
    assert net.host.away_for(1, net.now) == pytest.approx(55, abs=0.2)
    net.now += 30
    net.disconnect(peer)
    t1 = net.now
    state = json.loads(json.dumps(net.host.state(t1 + 2)))
    assert state["away_used"]["1"] == pytest.approx(57, abs=0.2)
    assert net.host.tick(t1 + 4).action is None
    res = net.host.tick(t1 + 6)                   # 55 + 6 > 60: not a fresh minute
    assert res.action == (1, {"seat": 1, "resign": True})
    # the host reloads instead: the time away is kept
    table = HostTable.from_state(state, now=500.0)
    table.attach(net.match, 500.0)
    assert table.tick(502.0).action is None
    assert table.tick(504.0).action == (1, {"seat": 1, "resign": True})


def test_the_one_who_left_first_is_treated_first():
    net = Net("all-fives", ["human", "remote", "remote"], policy="abandon", grace=10)
    net.lobby_and_start()
    net.disconnect(net.peer_of(2))
    net.now += 1
    net.disconnect(net.peer_of(1))
    res = net.host.tick(net.now + 30)          # both are out of time: seat 2 left first
    assert res.action == (2, {"seat": 2, "resign": True})
    # and after a reload the order is kept
    net2 = Net("all-fives", ["human", "remote", "remote"], policy="abandon", grace=10)
    net2.lobby_and_start()
    net2.disconnect(net2.peer_of(2))
    net2.now += 1
    net2.disconnect(net2.peer_of(1))
    table = HostTable.from_state(json.loads(json.dumps(net2.host.state(net2.now))), now=0.0)
    table.attach(net2.match, 0.0)
    assert table.tick(30.0).action == (2, {"seat": 2, "resign": True})


def _remote_turn(net: Net, seat: int = 1) -> None:
    while not (net.match.phase == "play" and net.match.turn == seat):
        assert net.step()


def test_a_turn_time_out_the_computer_plays_the_move():
    net = Net("draw", ["human", "remote"], timeout=60.0)
    net.lobby_and_start()
    _remote_turn(net)
    net.sync()
    t0, seq = net.now, net.match.seq
    g = net.guest(1)
    assert net.host.tick(t0 + 25).clock_changed is False and g.clock is None
    res = net.host.tick(t0 + 31)                       # the last 30 s: everyone sees the countdown
    assert res.clock_changed and res.action is None
    net.deliver(res.replies)
    assert g.clock == {"what": "turn", "seat": 1, "left": 30}
    assert net.host.tick(t0 + 32).replies == []        # told in steps, not every second
    res = net.host.tick(t0 + 60)
    seat, action = res.action
    assert seat == 1 and action in net.match.legal_actions()
    assert net.host.tick(t0 + 61).action is None       # once
    net.match.apply(action)
    net.sync()
    assert net.match.seq > seq and g.clock is None and g.view == net.match.view(1)
    assert net.match.seats[1]["kind"] == REMOTE        # the friend plays the next turn
    _replays(net.match)


def test_a_turn_time_out_with_the_abandonment_rule_ends_the_match():
    net = Net("draw", ["human", "remote"], timeout=120.0, policy="abandon")
    net.lobby_and_start()
    _remote_turn(net)
    net.sync()
    assert net.host.tick(net.now + 119).action is None
    res = net.host.tick(net.now + 121)
    assert res.action == (1, {"seat": 1, "resign": True})
    net.match.apply(res.action[1])
    net.sync()
    assert net.match.outcome["winner"] == 0 and net.guest(1).abandoned == 1
    _replays(net.match)


def test_a_next_time_out_counts_the_seat_ready():
    net = Net("draw", ["human", "remote"], timeout=60.0)
    net.lobby_and_start()
    while net.match.phase != "hand-over":
        assert net.step()
    net.sync()
    t0 = net.now
    res = net.host.tick(t0 + 40)
    net.deliver(res.replies)
    assert net.guest(1).clock == {"what": "next", "seat": None, "left": 20}
    assert not net.host.tick(t0 + 59).next_timeout
    assert net.host.tick(t0 + 60).next_timeout
    assert not net.host.tick(t0 + 61).next_timeout


def test_no_time_limit_by_default():
    net = Net("draw", ["human", "remote"])
    net.lobby_and_start()
    _remote_turn(net)
    res = net.host.tick(net.now + 10**6)
    assert res.action is None and not res.next_timeout and net.host.clock(net.now + 10**6) is None
    with pytest.raises(NetError):
        HostTable({"game": "draw", "players": 2, "seats": [{"kind": "human"}, {"kind": "remote"}]}, timeout=45.0)


def test_the_host_hands_a_seat_to_the_computer_and_back():
    net = Net("draw", ["human", "remote"], stand_in="easy")
    net.lobby_and_start()
    _remote_turn(net)
    peer = net.peer_of(1)
    g = net.guests[peer]
    res = net.host.hand_to_computer(1)
    net.deliver(res.replies)
    assert res.match_changed and net.match.seats[1]["kind"] == "easy" and not is_remote_turn(net.match)
    st = net.host.statuses()[1]
    assert st["status"] == "joined" and st["stand_in"] == "easy"
    # the friend's device may not move for the computer
    net.now += 0.1
    refused = net.host.receive(peer, g.act(net.match.legal_actions()[0]), net.now)
    assert refused.refused == "stand-in" and refused.action is None
    net.step()                                   # the computer plays seat 1
    net.sync()
    assert g.view == net.match.view(1)
    back = net.host.give_back(1)
    assert back.match_changed and net.match.seats[1]["kind"] == REMOTE
    net.sync()
    net.play_to_end()
    assert net.match.finished
    _replays(net.match)


def test_the_host_ends_the_match_by_absence_with_partners():
    net = Net("latin", ["human", "remote", "easy", "remote"])
    net.lobby_and_start()
    for _ in range(3):
        net.step()
    res = net.host.end_by_absence(3)
    assert res.action == (3, {"seat": 3, "resign": True})
    net.match.apply(res.action[1])
    net.sync()
    assert net.match.outcome["winner"] == 0          # the leaver's side (1 and 3) loses
    assert net.guest(1).abandoned == 3
    assert net.host.end_by_absence(1).action is None  # once
    with pytest.raises(NetError):
        net.host.hand_to_computer(0)                  # the host's own seat
    _replays(net.match)


@pytest.mark.parametrize("raw", ["\u3164", "\u2800\u2800", "\u200b \u200d", "\u0301\u0302", "\u115f\u1160",
                                 "\uffa0", "\u202e\u2066", "\u00a0\u2003", "\u20dd"])
def test_a_name_that_shows_nothing_becomes_the_seats_default_name(raw):
    net = Net("draw", ["human", "remote"])
    net.connect(1, guest=GuestTable(1, net.host.invite(1), "x"))
    peer = net.peer_of(1)
    net.send(peer, protocol.encode(protocol.message("hello", seat=1, secret=net.host.secrets[1], name=raw)))
    assert net.host.config["seats"][1]["name"] == "x"       # the name stays as it was
    net2 = Net("draw", ["human", "remote"])
    g = GuestTable(1, net2.host.invite(1), "")
    peer2 = "p"
    net2.guests[peer2] = g
    net2.send(peer2, protocol.encode(protocol.message("hello", seat=1, secret=net2.host.secrets[1], name=raw)))
    net2.send(peer2, g.ready(True))
    m = net2.host.new_match(3)
    assert m.seats[1]["name"] == "Player 2"
    assert sanitize_name("\u3164Ana\u2800 ") == "Ana" and sanitize_name("\u0301Jose\u0301") == "José"
