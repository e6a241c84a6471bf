"""What every link offers the session (see :mod:`domino.app.link`)."""
from __future__ import annotations

from domino.app.answers import Answering
from domino.app.nodes import Node


class Link(Answering):
    """The session's link to other phones; the defaults are those of a phone playing alone."""

    role: str | None = None       # None (alone), "host" or "guest"
    keeps_save = True             # the match is this phone's: saved, counted, kept for a reload's first paint
    holds_record = True           # this phone holds the match's record (a download of it is offered)

    def __init__(self, session):
        self.session = session      # the Session holding this link (the link calls back into it)

    @property
    def lang(self) -> str:
        return self.session.lang

    @staticmethod
    def seat_in(inp: dict) -> int | None:
        """The seat a tap names (``data-seat``), or None."""
        try:
            return int(str(inp.get("seat")))
        except ValueError:
            return None

    def net(self, **cmd) -> None:
        """A command to the page's network layer (see domino.app.link.hosting)."""
        self.session.out.net.append(cmd)

    # ------------------------------------------------------------ the session asks
    def start(self) -> None:
        """At load, once the saved match is read: what the link does first (offers, relays)."""

    def after_tap(self) -> None:
        """A tap may have left a decision in the match (a guest's mirror): pass it on."""

    def after_save(self) -> None:
        """The match was saved: the others hear of it."""

    def may_run_computers(self) -> bool:
        return True

    def next_hand(self) -> bool:
        """Next hand was tapped: True when the link took it (the friends' table deals when all have tapped)."""
        return False

    def back_to_lobby(self) -> bool:
        """New match after a finished one: True when the link took it (a friends' table goes back to its lobby)."""
        return False

    def replaced_by(self, match) -> None:
        """A match of this phone's own takes the table (the host's friends' table is closed)."""

    def form_change(self, inp: dict) -> bool:
        """A field of the form changed: True when the link took it (the host's lobby, the guest's screen)."""
        return False

    def lobby_screen(self) -> Node | None:
        """Away from the table: the link's own screen, or None for the new-game screen."""
        return None

    def table_words(self) -> dict | None:
        """What the table shows of the friends (statuses, the clock, the host's bar), or None."""
        return None

    def dialogs(self) -> list:
        """The link's dialogs over the table."""
        return []

    def focus_target(self) -> str | None:
        """Where the focus goes for one of the link's dialogs."""
        return None

    def escape(self) -> bool:
        """Escape: True when it closed one of the link's dialogs."""
        return False

    def connections(self) -> set[int]:
        """The page's connections this link holds (closed when the page starts again)."""
        return set()

    def snapshot_ok(self) -> bool:
        """The screen is one a reload shows first (a friends' lobby or a guest's table is not)."""
        return True
