"""The guided hand: one hand of Draw against the computer, explained step by step (the steps and their
words are in :mod:`domino.app.guide`).  The match on the table while it plays is kept aside and given back
at its end; the guided hand is never saved nor counted."""
from __future__ import annotations

from domino.app import controller
from domino.app import guide
from domino.app.answers import Answering, answers
from domino.table import new_match


class GuidedHand(Answering):
    """The guide's taps, its step, and the match it keeps aside."""

    def __init__(self, session):
        self.session = session
        self.step: str | None = None            # the guide's step while the guided hand plays
        self.held: tuple | None = None          # (Controller or None, menu_open): the match kept aside

    @answers("guide-start")
    def guide_start(self, inp: dict) -> None:
        session = self.session
        if self.step is not None or session.role is not None:
            return     # a friends' table stays on this phone: the others wait for no tutorial
        session.stop_computers()
        session.comforts.help_game = None
        session.guide_seen = True
        session.save_settings()
        self.held = (session.ctrl, session.menu_open)
        match = new_match(guide.settings(), guide.SEED, session.lang)
        session.ctrl = controller.Controller(match, session.lang)
        session.menu_open = False
        session.confirm_replace = False
        self.step = guide.first()
        session.heard = (match.seq, match.hand_no)
        session.changed()

    @answers("guide-next")
    def guide_next(self, inp: dict) -> None:
        session = self.session
        if self.step is None or session.ctrl is None:
            return
        m = session.ctrl.match
        step = guide.advance(self.step, "next", phase=m.phase, played=guide.person_played(m.view(0)),
                             drew=guide.draw_ready(m.view(0)))
        if step is None:
            self.end()
            return
        self.step = step
        session.render()

    @answers("guide-skip", "guide-finish")
    def guide_skip(self, inp: dict) -> None:
        if self.step is not None:    # without a guide open there is nothing to leave
            self.end()

    @answers("guide-dismiss")
    def guide_dismiss(self, inp: dict) -> None:
        session = self.session
        session.guide_seen = True
        session.save_settings()
        session.render()

    def drop(self) -> None:
        """A real match takes the table (started, imported, taken over from
        another tab): the guided hand is over, and the match it kept is not
        given back over it."""
        self.step = None
        self.held = None

    def end(self) -> None:
        """Back to the menu, with the match that was kept (if any)."""
        session = self.session
        session.stop_computers()
        held, _was_menu = self.held if self.held else (None, False)
        self.held = None
        self.step = None
        session.ctrl = held
        session.menu_open = held is not None
        if held is not None:
            session.heard = (held.match.seq, held.match.hand_no)
        session.render()
