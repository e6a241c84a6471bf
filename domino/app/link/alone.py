"""Solo and hot-seat play: the match is this phone's, and no other phone is linked."""
from __future__ import annotations

from domino.app.answers import answers
from domino.app.i18n import t
from domino.app.link.base import Link
from domino.net.host import NetError


class Alone(Link):
    """The link of a phone playing alone (against the computer, or passed around the table)."""

    @answers("play-friends")
    def play_friends(self, inp: dict) -> None:
        """Open a friends' lobby with the form's game: this phone becomes the host."""
        from domino.app.link.hosting import Hosting     # the host's link is loaded only when a table opens
        s = self.session
        try:
            s.link = Hosting.open(s)
        except (NetError, ValueError) as e:
            s.error = t(s.lang, "new.invalid", why=str(e))
        s.render()
