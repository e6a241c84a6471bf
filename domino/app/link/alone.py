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

    @answers("my-matches")
    def my_matches(self, inp: dict) -> None:
        """Your matches: the matches with friends played when each can (what changed is fetched)."""
        from domino.app.link.later import Browsing     # later.py builds on hosting's screens
        session = self.session
        session.stop_computers()
        session.ctrl = None
        session.menu_open = False
        session.link = Browsing(session)
        session.link.start()
        session.render()
