"""Solo and hot-seat play: the match is this phone's, and no other phone is linked."""
from __future__ import annotations

from domino.app.answers import answers
from domino.app.i18n import t
from domino.app.link.base import Link
from domino.app.link.hosting import Hosting
from domino.net.host import NetError


class Alone(Link):
    """The link of a phone playing alone (against the computer, or passed around the table)."""

    @answers("play-friends")
    def play_friends(self, inp: dict) -> None:
        """Open a friends' lobby with the form's game: this phone becomes the host."""
        session = self.session
        try:
            session.link = Hosting.open(session)
        except (NetError, ValueError) as e:
            session.error = t(session.lang, "new.invalid", why=str(e))
        session.render()
