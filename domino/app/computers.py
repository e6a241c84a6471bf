"""The computer seats' turns.  The page's loop (:func:`domino.app.page_decisions.computer_turns`) asks
:meth:`ComputerSeats.think` for the seat to move, steps its decision (a hard search in slices, so the board
never freezes), and hands it back as the input ``computer-move`` with the loop's ``gen``: played only if it
is still the decision for this very position.  Stopping the computers (a tap, the menu, undo) bumps ``gen``;
a decision of an older ``gen`` is dropped.  A failed turn opens the safety net's dialog (retry or resign)."""
from __future__ import annotations

from domino import players
from domino.app import controller
from domino.app.answers import Answering, answers
from domino.engine.common import IllegalAction


class Done:
    """A computer decision already made (the levels that need no slicing)."""

    def __init__(self, action: dict):
        self.action = action

    def step(self, _ms: float) -> dict:
        return self.action


class ComputerSeats(Answering):
    """The computers' loop state, their decisions, and the inputs that bring their moves."""

    def __init__(self, session):
        self.session = session
        self.gen = 0                # bumped to stop a computer that is thinking
        self.thinking: tuple | None = None   # (match, seq, seat) the computer seat is deciding for
        self.running = False        # the computer seats' loop is on (the table is busy)

    def stop(self) -> None:
        self.gen += 1
        self.running = False

    def think(self):
        """The computer seat to move, deciding: an object whose ``step(ms)``
        returns its action, or None while a sliced search goes on."""
        session = self.session
        m = session.ctrl.match
        seat = m.turn
        kind = m.seats[seat]["kind"]
        if session.fail == "turn":
            session.fail = ""
            raise RuntimeError("failing on purpose (?fail=turn)")
        self.thinking = (id(m), m.seq, seat)   # the position this decision is for (on_computer_move)
        view = m.view(seat)
        rng = m.player_rng(seat)
        if kind == "hard":
            # the search runs in slices, and the page draws a frame between
            # slices: the board never freezes
            return controller.load_ai().HardSearch(view, rng)
        return Done(players.get_player(kind)(view, rng))

    @answers("computer-move")
    def moved(self, inp: dict) -> None:
        """A computer seat's decision (from the page's loop, for ``gen``)."""
        session = self.session
        c = session.ctrl
        if c is None or inp.get("gen") != self.gen or not controller.is_computer_turn(c.match):
            return
        m, move = c.match, inp.get("move")
        # only the decision for this very position: a friend back from being away may have
        # played the seat's turn meanwhile (the same gen), and the next seat is a computer too
        if self.thinking != (id(m), m.seq, m.turn) or not isinstance(move, dict) or move.get("seat") != m.turn \
                or move.get("resign"):
            session.warn("domino: a computer move for another position was dropped")
            return
        try:
            m.find_move(move)
        except (IllegalAction, TypeError, ValueError) as e:
            session.warn("domino: a computer move that is not legal was dropped: " + str(e)[:120])
            return
        self.thinking = None
        session.play(move)   # a save refused (another tab moved on) stops the loop: wants_computers()

    @answers("computer-failed")
    def failed(self, inp: dict) -> None:
        """Never a dead table: say so, offer retry or resign."""
        session = self.session
        session.warn("domino: computer turn failed: " + str(inp.get("error")))
        if inp.get("gen") == self.gen and session.ctrl is not None and session.ctrl.match.turn is not None:
            session.safety.panel = ("turn", (session.ctrl.match.turn, str(inp.get("error"))[:200]))
            session.render()
