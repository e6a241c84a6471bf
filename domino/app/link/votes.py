"""The "next hand" taps at a hand's end on the host's friends' table: who tapped, for which hand, and who
must still tap.

The host's phone deals the next hand once every person who must tap has tapped *for this hand*
(:func:`must_tap`): the host's own seat, and each friend's seat whose phone is connected and that the
computer does not play.  The computer taps for the seats it plays, whoever made it play them; a friend
whose phone went away is not waited for.  Who must tap changes when a seat changes hands or a phone comes
or goes, so the link works it out again then (and at every tick), not only at a tap.

:class:`NextVotes` keeps the taps under the key of the hand they were made in (the match's id, its hand
number and its seq, see :meth:`Hosting.hand_key <domino.app.link.hosting.Hosting.hand_key>`): a tap made
for another hand (an earlier one, or one of an earlier match with the same friends and the same deal) is
never counted, whatever happened in between.
"""
from __future__ import annotations

from domino.engine.match import HUMAN
from domino.net.host import HostTable
from domino.table import REMOTE


class NextVotes:
    """The seats that tapped Next, and the hand they tapped for."""

    def __init__(self) -> None:
        self.hand: tuple | None = None      # the hand the taps below were made in
        self.seats: set[int] = set()

    def tap(self, hand: tuple, *seats: int) -> None:
        """``seats`` tapped Next at the end of ``hand``; the taps made for another hand are forgotten."""
        if hand != self.hand:
            self.hand, self.seats = hand, set()
        self.seats.update(seats)

    def of(self, hand: tuple) -> frozenset[int]:
        """The seats that tapped Next for ``hand``."""
        return frozenset(self.seats) if hand == self.hand else frozenset()

    def clear(self) -> None:
        """The hand was dealt: no tap is left."""
        self.hand, self.seats = None, set()


def host_seats(table: HostTable) -> list[int]:
    """The host's own seat (a list: none when the host's phone plays no seat)."""
    return [i for i in range(table.players) if table.kind(i) == HUMAN]


def must_tap(table: HostTable) -> list[int]:
    """The seats whose people must tap Next: the host's own seat, and each friend's seat whose phone is
    connected and that the computer does not play (a seat it plays is never waited for)."""
    return [i for i in range(table.players)
            if table.kind(i) == HUMAN
            or (table.kind(i) == REMOTE and i in table.bound and i not in table.stand_ins)]


def missing(table: HostTable, votes: NextVotes, hand: tuple) -> list[int]:
    """The seats whose tap for ``hand`` is still missing, in seat order."""
    tapped = votes.of(hand)
    return [i for i in must_tap(table) if i not in tapped]
