"""The table's controller around one Match: who is looking, what is selected,
the hint, the turn logic and the computer's pace.  What the hand's story
says (messages, seats, the log) is :mod:`domino.app.story`'s."""
from __future__ import annotations

from domino import players
from domino.app import boards
from domino.app.i18n import t
from domino.app.story import describe, hand_log, seat_views
from domino.engine.line import Hand
from domino.engine.match import HUMAN, Match
from domino.table import REMOTE
# the story's functions are domino.app.story's; these names stay importable from here for domino.app's
# re-exports and the session (domino.app.__init__, Session.live_text) until they import them from there
from domino.app.story import (board_story, describe_segment, live_scores, play_points, seat_order,  # noqa: F401
                              seat_points, side_name)

ai = None  # domino.players.levels (levels, hints): imported by load_ai() when first needed


def load_ai():
    """Import the computer players on first use (the browser does it just
    after the first screen is up, so that screen does not wait for them)."""
    global ai
    if ai is None:
        players.load_levels()
        from domino.players import levels
        ai = levels
    return ai


# ----------------------------------------------------------------- turn logic
def humans(match: Match) -> list[int]:
    return [i for i, s in enumerate(match.seats) if s["kind"] == HUMAN]


def is_computer_turn(match: Match) -> bool:
    return match.phase == "play" and match.turn is not None and match.seats[match.turn]["kind"] not in (HUMAN, REMOTE)


def needs_handoff(match: Match, viewer: int | None) -> int | None:
    """The seat to hand the device to, or None.  Only with 2+ humans, when the
    human to move is not the one who last saw the screen."""
    hs = humans(match)
    if len(hs) < 2 or match.phase != "play":
        return None
    turn = match.turn
    if turn is None or match.seats[turn]["kind"] != HUMAN:
        return None
    return None if turn == viewer else turn


def face_up_seat(match: Match, viewer: int | None) -> int | None:
    """Whose tiles are shown: the only human, else the last human who saw the
    screen (None: nobody's, e.g. before the first hand-off)."""
    hs = humans(match)
    if len(hs) == 1:
        return hs[0]
    if viewer in hs:
        return viewer
    return None


def tile_actions(legal: list[dict], tile: str) -> list[dict]:
    return [a for a in legal if a.get("play") == tile]


def ends_of(actions: list[dict]) -> list[str]:
    out: list[str] = []
    for a in actions:
        e = a.get("end")
        if e is not None and e not in out:
            out.append(e)
    return out


def fives_gained(before: list[int], after: list[int]) -> list[tuple[int, int]]:
    return [(i, b - a) for i, (a, b) in enumerate(zip(before, after)) if b > a]


def same_result(match: Match, actions: list[dict]) -> bool:
    """Every action leaves the table the same for the game: the same open
    numbers, the same points, the same spinner state (only the side differs)."""
    if not isinstance(match.hand, Hand):
        return False
    sigs = set()
    for a in actions:
        h = match.hand.clone()
        h.apply(match.find_move(a))
        sigs.add((tuple(sorted((h.end_val[e], h.end_dbl[e]) for e in h.open)), tuple(h.fives),
                  h.ended, h.spinner is None, h.spin_wait >= 0))
        if len(sigs) > 1:
            return False
    return True


# ----------------------------------------------------------------- the computer's pace
PACES = {"slow": 1500, "normal": 850, "fast": 350}   # ms a computer turn takes, its animation included
DEFAULT_PACE = "normal"


def pace_ms(pace: str | None) -> int:
    return PACES.get(pace or "", PACES[DEFAULT_PACE])


def travel_ms(turn_ms: int) -> int:
    """How long a played tile travels: well inside one computer turn."""
    return max(0, min(420, turn_ms * 45 // 100))


# ----------------------------------------------------------------- controller
class Controller:
    """The interaction state around one Match: who is looking, what is
    selected, the hint, the open resign question and move log.  How it is
    shown (language, pips, pace, ...) is the screen's
    :class:`~domino.app.screens.display.Display`.  The tap methods return
    the actions done (None: nothing played yet)."""

    def __init__(self, match: Match, lang: str = "en", viewer: int | None = None):
        """``lang``: the language of the sentences asked for without one
        (:meth:`message`, :meth:`status`, :attr:`note`); how the tiles look is
        the display's (:class:`~domino.app.screens.display.Display`)."""
        self.match = match
        self.lang = lang
        self.viewer = viewer
        self.selected: str | None = None     # tile waiting for a place
        self.chosen_end: str | None = None   # Matador: end chosen, waiting for "open"
        self.among: list[str] = []           # places tapped as one (too thin apart), waiting for which
        self.hint_why: dict | None = None    # the hint's reason, in every language
        self.flash: list[tuple[int, int]] = []   # fives just scored (side, points)
        self.confirm_resign = False
        self.log_open = False                # the move log is shown
        hs = humans(match)
        if len(hs) == 1:
            self.viewer = hs[0]

    # --- state
    def interaction(self) -> tuple:
        """Everything of this state a screen shows besides the match: equal
        for two controllers of the same match, they show the same screen."""
        return (self.viewer, self.selected, self.chosen_end, tuple(self.among), self.hint_why,
                self.hinted if self.hint_why is not None else None, self.confirm_resign, self.log_open)

    def hint_text(self, lang: str | None = None) -> str:
        """The hint line ("" when there is no hint)."""
        lang = lang or self.lang
        why = self.hint_why
        if why is None:
            return ""
        if "key" in why:
            return t(lang, why["key"])
        return t(lang, "game.hint", why=why.get(lang) or why.get("en") or "")

    @property
    def note(self) -> str:
        """The hint line in the controller's language."""
        return self.hint_text()

    @note.setter
    def note(self, value: str) -> None:
        if not value:
            self.hint_why = None

    @property
    def seq(self) -> int:
        return self.match.seq

    def handoff(self) -> int | None:
        return needs_handoff(self.match, self.viewer)

    def face_up(self) -> int | None:
        if self.handoff() is not None:
            return None
        return face_up_seat(self.match, self.viewer)

    def view(self) -> dict:
        seat = self.face_up()
        if seat is None:
            seat = self.match.turn if self.match.turn is not None else 0
            v = self.match.view(seat)
            v = dict(v, hand=[], legal=[])  # nobody's tiles on the table view
            return v
        return self.match.view(seat)

    def bottom(self) -> int:
        """The seat at the bottom of the screen: the one looking, else the
        first person, else seat 0 (computers only)."""
        seat = self.face_up()
        if seat is None:
            hs = humans(self.match)
            seat = self.viewer if self.viewer is not None else (hs[0] if hs else 0)
        return seat

    def seats(self) -> list[dict]:
        return seat_views(self.match, self.view(), self.bottom())

    def log(self) -> list[dict]:
        return hand_log(self.match, self.view())

    def my_turn(self) -> bool:
        m = self.match
        return (m.phase == "play" and m.turn is not None and m.turn == self.face_up()
                and m.seats[m.turn]["kind"] == HUMAN)

    def legal(self) -> list[dict]:
        return self.match.legal_actions() if self.my_turn() else []

    def playable(self) -> set[str]:
        return {a["play"] for a in self.legal() if "play" in a}

    def message(self, lang: str | None = None) -> str:
        """The message line: the latest moves, or who opens the hand."""
        lang = lang or self.lang
        v = self.match.view(self.match.turn if self.match.turn is not None else 0)
        names = v["names"]
        if self.match.outcome and self.match.outcome.get("reason") == "resign" and self.match.resigned:
            return t(lang, "msg.resigned", name=names[self.match.resigned["seat"]])
        text = describe(v["history"], names, lang)
        if not text and self.match.phase == "play" and self.match.turn is not None:
            text = t(lang, "game.start_hand", name=names[v["opener"]])
        return text

    def status(self, lang: str | None = None) -> str:
        """The turn line: whose turn, or what the selected tile waits for."""
        lang = lang or self.lang
        m = self.match
        if m.phase != "play" or m.turn is None:
            return ""
        name = m.seats[m.turn]["name"]
        if self.selected:
            return t(lang, "game.choose_end", tile=self.selected)
        if m.seats[m.turn]["kind"] == REMOTE:
            return t(lang, "friends.turn_remote", name=name)
        if m.seats[m.turn]["kind"] != HUMAN:
            return t(lang, "game.thinking", name=name)
        if self.my_turn():
            return t(lang, "game.your_turn", name=name) + boards.turn_note(self.match.view(m.turn), lang)
        return t(lang, "game.turn", name=name)

    # --- input
    def continue_handoff(self) -> bool:
        seat = self.handoff()
        if seat is None:
            return False
        self.viewer = seat
        self.clear()
        return True

    def clear(self) -> None:
        self.selected = None
        self.chosen_end = None
        self.among = []

    def tap_tile(self, tile: str) -> list[dict] | None:
        """A tap on a hand tile: plays it when it fits one way; selects it when
        it fits several places (returns None)."""
        acts = tile_actions(self.legal(), tile)
        if not acts:
            return None
        if len(acts) == 1 or same_result(self.match, acts):
            return self.apply(acts[0])
        ends = ends_of(acts)
        if len(ends) == 1 and self.selected == tile:
            return self.tap_end(ends[0])
        self.selected = tile
        self.chosen_end = None
        self.among = []
        if len(ends) == 1:   # one place, two ways round (Matador): ask which stays open
            self.chosen_end = ends[0]
        return None

    def targets(self, lang: str | None = None) -> dict[str, str]:
        """The places the selected tile may go, each with its words."""
        if not self.selected or self.chosen_end:
            return {}
        ends = ends_of(tile_actions(self.legal(), self.selected))
        v = self.view()
        return {e: boards.end_label(v, e, self.selected, lang or self.lang, self.face_up()) for e in ends}

    def open_choices(self) -> list[int]:
        if not self.selected or not self.chosen_end:
            return []
        return [a["open"] for a in tile_actions(self.legal(), self.selected)
                if a.get("end") == self.chosen_end and "open" in a]

    def tap_among(self, ends: list[str]) -> None:
        """A tap on places too thin to tap apart: which of them is asked (only places of the tile)."""
        places = self.targets()
        self.among = [e for e in ends if e in places] if len(ends) > 1 else []

    def asked_places(self) -> list[str]:
        """The places the chooser asks among now (none once the tile or its places changed)."""
        places = self.targets()
        return [e for e in self.among if e in places]

    def tap_end(self, end: str) -> list[dict] | None:
        self.among = []
        if not self.selected:
            return None
        acts = [a for a in tile_actions(self.legal(), self.selected) if a.get("end") == end]
        if not acts:
            return None
        if len(acts) == 1:
            return self.apply(acts[0])
        self.chosen_end = end
        return None

    def tap_open(self, n: int) -> list[dict] | None:
        acts = [a for a in tile_actions(self.legal(), self.selected or "")
                if a.get("end") == self.chosen_end and a.get("open") == n]
        return self.apply(acts[0]) if acts else None

    def row_actions(self, lang: str | None = None) -> list[tuple[str, dict]]:
        """Frijolito's actions that are not a tile tap, each with the words of
        its button: turn over the leftmost tile, turn over the next one first,
        play the turned tile at an end, send it to the end of the row."""
        return boards.row_actions(self.legal(), self.view(), lang or self.lang)

    def draw_action(self) -> dict | None:
        return next((a for a in self.legal() if "draw" in a), None)

    def apply(self, action: dict) -> list[dict]:
        before = list(self.match.view(0)["fives"]) if self.match.phase == "play" else []
        hand_no = self.match.hand_no
        done = self.match.apply(action)
        self.after(done, before, hand_no)
        return done

    def after(self, done: list[dict], before: list[int], hand_no: int) -> None:
        self.clear()
        self.note = ""
        self.flash = []
        if before and self.match.hand_no == hand_no:
            after = self.match.view(0)["fives"]
            self.flash = fives_gained(before, after)

    def resign(self) -> int | None:
        """The seat that resigns: the human to move, else the one looking."""
        m = self.match
        if m.outcome:
            return None
        seat = m.turn if (m.turn is not None and m.seats[m.turn]["kind"] == HUMAN) else self.face_up()
        if seat is None:
            hs = humans(m)
            if not hs:
                return None
            seat = hs[0]
        m.apply({"seat": seat, "resign": True})
        self.clear()
        self.confirm_resign = False
        return seat

    def resign_seat(self) -> int | None:
        m = self.match
        if m.turn is not None and m.seats[m.turn]["kind"] == HUMAN:
            return m.turn
        seat = self.face_up()
        if seat is None and humans(m):
            seat = humans(m)[0]
        return seat

    def next_hand(self) -> bool:
        if self.match.phase != "hand-over":
            return False
        self.match.next_hand()
        self.clear()
        self.flash = []
        self.note = ""
        return True

    def hint(self, lang: str | None = None) -> str:
        """Ask the computer for a hint; the hint line."""
        if not self.my_turn():
            return ""
        try:
            hnt = load_ai().hint(self.view())
        except Exception:  # a hint must never break the game
            return t(lang or self.lang, "game.no_hint")
        self.hint_why = dict(hnt.get("why") or {})
        a = hnt.get("action") or {}
        self.hinted = a.get("play")
        return self.hint_text(lang)

    hinted: str | None = None
