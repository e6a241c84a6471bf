"""The table's comforts: the rules' help, the language, the pips' colours, the log, the computers' pace,
the sound and the statistics; each a tap that changes the looks or opens a dialog, never the match."""
from __future__ import annotations

from domino.app import controller
from domino.app.answers import Answering, answers
from domino.app.settings import localize_names
from domino.engine.common import winning_side
from domino.app.screens.dialogs import help_dialog
from domino.app.screens.stats import stats_dialog


class Comforts(Answering):
    """The comforts' taps, and the dialogs they open (help, statistics)."""

    def __init__(self, session):
        self.session = session
        self.help_game: str | None = None       # the game whose rules the help dialog shows
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""                    # the statistics were unreadable (kept aside)

    def dialogs(self) -> list:
        session = self.session
        out = []
        if self.stats_open:
            out.append(stats_dialog(session.load_stats(), session.lang, self.stats_reset_ask, self.stats_note,
                                    kept=session.review.kept_section()))
        if self.help_game is not None:
            out.append(help_dialog(self.help_game, session.lang, guide=session.role is None))
        return out

    def focus_target(self) -> str | None:
        if self.help_game is not None:
            return '[data-action="help-close"]'
        if self.stats_open:
            return '[data-action="stats-close"], [data-action="stats-reset-no"]'
        return None

    @answers("help")
    def open_help(self, inp: dict) -> None:
        session = self.session
        game = inp.get("game") or (session.ctrl.match.rules.game if session.ctrl else "draw")
        self.help_game = str(game)
        session.render()

    @answers("help-close")
    def close_help(self, inp: dict) -> None:
        session = self.session
        self.help_game = None
        session.render()

    @answers("lang")
    def switch_lang(self, inp: dict) -> None:
        session = self.session
        session.lang = "en" if session.lang == "es" else "es"
        session.save_error = ""
        session.save_settings()
        self.rename_defaults()
        session.render()

    @answers("pips")
    def switch_pips(self, inp: dict) -> None:
        session = self.session
        session.pips = "black" if session.pips == "coloured" else "coloured"
        session.save_settings()
        session.render()

    @answers("log")
    def toggle_log(self, inp: dict) -> None:
        session = self.session
        if session.ctrl is not None:
            session.ctrl.log_open = not session.ctrl.log_open
            session.render()
            session.out.focus = '[data-testid="log-close"]' if session.ctrl.log_open else '[data-testid="log"]'

    @answers("pace")
    def next_pace(self, inp: dict) -> None:
        session = self.session
        order = list(controller.PACES)
        session.pace = order[(order.index(session.pace) + 1) % len(order)] if session.pace in order else controller.DEFAULT_PACE
        session.save_settings()
        session.render()
        session.out.focus = '[data-testid="pace"]'

    @answers("sound")
    def switch_sound(self, inp: dict) -> None:
        session = self.session
        session.sound = not session.sound
        session.save_settings()
        if session.sound:
            session.out.sounds.append("click")   # made on the tap: browsers start audio only from a gesture
        session.render()

    @answers("stats")
    def open_stats(self, inp: dict) -> None:
        session = self.session
        self.stats_open = True
        self.stats_reset_ask = False
        session.render()

    @answers("stats-close")
    def close_stats(self, inp: dict) -> None:
        session = self.session
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""
        session.render()

    @answers("stats-reset")
    def stats_reset(self, inp: dict) -> None:
        session = self.session
        self.stats_reset_ask = True
        session.render()

    @answers("stats-reset-no")
    def stats_reset_no(self, inp: dict) -> None:
        session = self.session
        self.stats_reset_ask = False
        session.render()

    @answers("stats-reset-yes")
    def stats_reset_yes(self, inp: dict) -> None:
        session = self.session
        session.storage.reset_stats()
        self.stats_reset_ask = False
        session.render()

    def rename_defaults(self) -> None:
        """A seat still carrying a default name ("Player 1") takes it in the
        new language ("Jugador 1"); the match kept (and its save) too.  A
        friends' table keeps the names its phones agreed on."""
        session = self.session
        if session.role is not None:
            return
        held = session.guided.held[0] if session.guided.held else None
        if session.ctrl is not None and localize_names(session.ctrl.match.seats, session.lang) \
                and session.guided.step is None and session.safety.panel is None:
            session.save_game()
        if held is not None and localize_names(held.match.seats, session.lang) and session.known is not None:
            session.storage.rewrite_save(held.match, session.match_id, session.known)   # the match kept while the guide plays

    def sounds_for(self, m) -> None:
        """The sounds of a change of the match: a tile played (click), a hand this seat's side won (win)."""
        session = self.session
        heard = (m.seq, m.hand_no)
        if session.heard == heard:
            return
        before = session.heard
        session.heard = heard
        if before is None or not session.sound:
            return
        if m.phase != "play" and m.hand and m.hand.ended and before[1] == m.hand_no and before[0] < m.seq:
            res = m.records[-1]["result"] or {}
            me = session.ctrl.face_up() if session.ctrl else None
            if me is not None and winning_side(res, m.rules.sides) == m.rules.side_of(me):
                session.out.sounds.append("win")
                return
        if m.hand and any(a[1] == "p" for a in m.hand.actions[-1:]) and before[0] < m.seq:
            session.out.sounds.append("click")
