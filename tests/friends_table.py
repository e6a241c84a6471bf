"""A friends' table driven through the sessions' real inputs, for the tests of its seats
(tests/test_friends_seats.py, tests/test_friends_seats_stateful.py): the host's session and one guest's
session per friend, joined by the fake transport of tests/test_friends_session.py.  Every move is a tap
of the person whose turn it is (the tile, then its end; or Draw), or the computer's move for a seat the
computer plays, brought back as the input ``computer-move`` the way the page's loop does."""
from __future__ import annotations

from domino.app.session import MemoryStore, Session
from domino.engine.match import HUMAN
from domino.table import REMOTE
from tests.test_friends_session import Net

SEED = "987654321"
FRIENDS = ("ana", "bea", "cai")


class Table:
    """The host (seat 0, on its own phone) and a friend's phone on every other seat."""

    def __init__(self, players: int = 3, seed: str = SEED, partnership: bool = False, grace: str = "60",
                 policy: str | None = None):
        self.net = net = Net()
        net.joining = []
        self.host: Session = net.host(seed=seed, grace=grace)
        self.host.new_settings = dict(self.host.new_settings, players=players, partnership=partnership)
        net.tap("host", action="play-friends")
        self.names = {seat: FRIENDS[seat - 1] for seat in range(1, players)}
        self.stores = {name: MemoryStore() for name in self.names.values()}
        for seat, name in self.names.items():
            net.join(name, seat, store=self.stores[name], player_name=name.title())
        if policy is not None:
            net.tap("host", action="change", field="away-policy", value=policy, form={})
            for name in self.names.values():
                self.tap(name, action="join-table", value="")    # a change clears the Starts
        self.start()

    # ------------------------------------------------------------ what is on the tables
    @property
    def match(self):
        return self.host.ctrl.match

    @property
    def hosting(self):
        return self.host.link

    def device(self, seat: int) -> Session | None:
        """The friend's phone on ``seat`` while it is linked to the table."""
        s = self.net.devices.get(self.names[seat])
        return s if s is not None and s.role == "guest" else None

    def seat_of(self, name: str) -> int:
        return next(seat for seat, n in self.names.items() if n == name)

    # ------------------------------------------------------------ inputs
    def tap(self, name: str, **inp) -> None:
        self.net.clock.now += 0.25      # people tap at people's pace (the host's rate limit)
        self.net.tap(name, **inp)

    def start(self) -> None:
        """The host starts the match (every friend tapped Start)."""
        self.tap("host", action="start-table")
        assert self.host.ctrl is not None and self.hosting.table.match is self.match

    def next_tap(self, name: str) -> None:
        """``name`` taps Next on their own phone."""
        s = self.host if name == "host" else self.net.devices[name]
        self.tap(name, action="next-hand", seq=str(s.ctrl.match.seq))

    def move(self) -> bool:
        """One move of the seat to move, by whoever plays it; False when no hand is being played."""
        m = self.match
        if m.phase != "play" or m.outcome:
            return False
        seat = m.turn
        kind = m.seats[seat]["kind"]
        if kind == HUMAN:
            self.tap_move("host")
        elif kind == REMOTE and self.device(seat) is None:
            self.tick(self.hosting.table.grace + 1)     # the friend is away: the away policy decides
        elif kind == REMOTE:
            self.tap_move(self.names[seat])
        else:
            host = self.host
            search = host.computers.think()      # the page's loop asks, then brings the decision back
            self.tap("host", action="computer-move", move=search.step(1000), gen=host.computers.gen)
        return True

    def tap_move(self, name: str) -> None:
        """The person's first legal move, tapped: the tile (then its end), or Draw."""
        s = self.host if name == "host" else self.net.devices[name]
        c = s.ctrl
        assert c.match.seq == self.match.seq, f"{name}'s table is not the host's position"
        legal = c.legal()
        assert legal, f"{name} has nothing to tap"
        a = next((x for x in legal if "play" in x), legal[0])
        seq = str(c.match.seq)
        if "play" in a:
            self.tap(name, action="tile", tile=a["play"], seq=seq)
            if c.selected and "end" in a:
                self.tap(name, action="end", end=a["end"], seq=seq)
        else:
            self.tap(name, action="draw", seq=seq)

    def to_hand_end(self, until=None, limit: int = 400) -> None:
        """Moves until the hand is over (or ``until(match)`` holds before a move)."""
        for _ in range(limit):
            if until is not None and until(self.match):
                return
            if not self.move():
                return
        raise AssertionError("the hand did not end")

    def drop(self, name: str) -> None:
        """The friend's phone goes away without a word."""
        self.net.drop(name)

    def bye(self, name: str) -> None:
        """The friend leaves the table from their phone (it says ``bye``)."""
        self.tap(name, action="guest-leave")
        self.net.devices.pop(name, None)

    def back(self, name: str) -> None:
        """The friend's phone comes back: the host shows the seat's new invitation, the friend opens it."""
        seat = self.seat_of(name)
        self.tap("host", action="invite-again", seat=str(seat))
        self.net.join(name, seat, store=self.stores[name])

    def hello_again(self, name: str) -> None:
        """The friend's phone says ``hello`` again on the connection it has."""
        g = self.net.devices[name]
        g.out.net.clear()
        g.link.send(g.link.table.hello())
        self.net.run(name, g.out)

    def tick(self, seconds: float = 1.0) -> None:
        self.net.clock.now += seconds
        self.net.tap("host", action="net-tick")
