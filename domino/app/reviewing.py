"""The session's part that reviews hands (solo and hot-seat): the hand's end screen's Review the hand, the
statistics' last hands, stepping and closing; and the last hands kept as each ends.  The model is
:mod:`domino.app.review`, the screen :mod:`domino.app.screens.review`."""
from __future__ import annotations

from domino.app import review
from domino.app.answers import Answering, answers
from domino.app.i18n import t
from domino.app.screens.menu import _game_name
from domino.app.screens.review import kept_list, review_dialog
from domino.engine.records import to_record


class HandReview(Answering):
    """The review open (its steps and the step shown), and the kept hands."""

    def __init__(self, session):
        self.session = session
        self.steps: list[dict] | None = None
        self.seal: dict | None = None         # the hand's deal checked against its fingerprint (review.deal_seal)
        self.at = 0
        self.hand_no = 0
        self.by_rounds = False
        self.came_from = "hand"          # "hand" (the hand's end screen) or "stats"
        self.kept_mark: tuple | None = None   # (match id, hand, seq) last kept

    @property
    def open(self) -> bool:
        return self.steps is not None

    def offered(self) -> bool:
        """A hand's review is this phone's own (solo and hot-seat): a friends' table does not offer it yet."""
        return self.session.role is None

    # ------------------------------------------------------------ the kept hands
    def kept(self) -> dict:
        return review.load(self.session.storage.reviews())

    def keep(self, m) -> None:
        """A hand of this phone's own match just ended: keep it for the statistics' last hands."""
        s = self.session
        if not self.offered() or s.guided.step is not None or not s.link.keeps_save or not s.match_id:
            return
        if m.phase == "play" or not m.records or m.records[-1]["result"] is None:
            return
        mark = (s.match_id, len(m.records) - 1, m.seq)
        if mark == self.kept_mark:
            return
        self.kept_mark = mark
        s.storage.write_reviews(review.dump(review.keep(self.kept(), m, s.match_id)))

    # ------------------------------------------------------------ what it shows
    def dialogs(self) -> list:
        s = self.session
        if self.steps is None:
            return []
        return [review_dialog(self.steps, self.at, self.hand_no, self.by_rounds, s.pips, s.lang, self.seal)]

    def kept_section(self):
        """The statistics' list of the last hands (None: none kept)."""
        return kept_list(self.kept(), self.session.lang, _game_name) if self.offered() else None

    def focus_target(self) -> str | None:
        return '[data-step="forward"]' if self.steps is not None else None

    # ------------------------------------------------------------ the taps
    def _show(self, steps: list[dict], hand_no: int, came_from: str, seal: dict | None = None) -> None:
        self.steps, self.at, self.hand_no, self.came_from, self.seal = steps, 0, hand_no, came_from, seal
        self.by_rounds = bool((steps[0]["view"].get("layout") or {}).get("rounds"))
        self.session.render()

    @answers("review-hand")
    def review_hand(self, inp: dict) -> None:
        c = self.session.ctrl
        if c is None or not self.offered() or c.match.phase == "play" or not c.match.records \
                or c.match.records[-1]["result"] is None:
            return
        k = len(c.match.records) - 1
        self._show(review.steps_of_match(c.match), k, "hand", review.deal_seal(to_record(c.match), k))

    @answers("review-kept")
    def review_kept(self, inp: dict) -> None:
        if not self.offered():
            return
        try:
            i = int(str(inp.get("index")))
        except ValueError:
            return
        doc = self.kept()
        got = review.kept_steps(doc, i)
        if got is None:
            self.session.comforts.stats_note = t(self.session.lang, "review.unreadable")
            self.session.render()
            return
        e = doc["hands"][i]
        self._show(got, e["hand"], "stats", review.deal_seal(doc["matches"][e["id"]], e["hand"]))

    @answers("review-step")
    def review_step(self, inp: dict) -> None:
        if self.steps is None:
            return
        last = len(self.steps) - 1
        which = str(inp.get("step"))
        to = {"first": 0, "back": self.at - 1, "forward": self.at + 1, "last": last}.get(which)
        if to is None:
            return
        self.at = max(0, min(last, to))
        self.session.render()
        self.session.out.focus = f'[data-step="{which}"]'

    @answers("review-close")
    def review_close(self, inp: dict) -> None:
        if self.steps is None:
            return
        self.steps = None
        self.session.render()
        self.session.out.focus = '[data-testid="review-hand"]' if self.came_from == "hand" else '[data-testid="review-kept"]'

    def escape(self) -> bool:
        """Escape closes the review (True: it was open)."""
        if self.steps is None:
            return False
        self.steps = None
        return True
