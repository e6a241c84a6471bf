"""The session's part that reviews hands: the hand's end screen's Review the hand, the statistics' last
hands, stepping and closing; and the last hands kept as each ends.  The model is :mod:`domino.app.review`,
the screen :mod:`domino.app.screens.review`.

Alone, hot-seat and on a friends' table's host the hand is replayed from the match's record.  A guest's
phone holds no record: once the hand is over it deals again from the seed the host revealed and replays
the public moves it was sent (:func:`domino.app.review.steps_of_view`).  The review is this phone's own
dialog: it sends nothing and waits for nothing, so the friends' table goes on (Next, the clock) meanwhile."""
from __future__ import annotations

from domino.app import review
from domino.app.answers import Answering, answers
from domino.app.i18n import t
from domino.app.screens.menu import _game_name
from domino.app.screens.review import kept_list, review_dialog, review_failed
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
        self.failed: int | None = None        # a guest's hand that its revealed seed and moves do not make

    @property
    def open(self) -> bool:
        return self.steps is not None or self.failed is not None

    def offered(self) -> bool:
        """Every hand is open to review once it is over: alone, hot-seat, and at a friends' table on every
        phone (every hand is public then)."""
        return True

    def guest_view(self) -> dict | None:
        """On a guest's phone: the view of the hand just over, its seed revealed (None: none to review)."""
        s = self.session
        if s.role != "guest":
            return None
        v = s.link.table.view
        d = (v or {}).get("dealing")
        if not v or v.get("phase") == "play" or v.get("result") is None or not isinstance(d, dict) \
                or d.get("seed") is None:
            return None
        return v

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

    def keep_view(self) -> None:
        """A friends' hand just ended on this guest's phone: keep its last view for the statistics' last hands."""
        v = self.guest_view()
        if v is None:
            return
        mark = ("friends", v["dealing"]["fingerprint"], v["seq"])
        if mark == self.kept_mark:
            return
        self.kept_mark = mark
        watch = self.session.link.table.deals
        problems = self.watch_problems(watch, v["hand_no"])
        try:
            text = review.dump(review.keep_view(self.kept(), v, problems))
        except (KeyError, TypeError, ValueError):
            return
        self.session.storage.write_reviews(text)

    @staticmethod
    def watch_problems(watch, k: int) -> list[str] | None:
        """What the guest's deal watch found of hand ``k`` ([]: nothing; None: it saw no deal of its own)."""
        w = next((x for x in watch.warnings if x["hand"] == k), None)
        if w is not None:
            return list(w["problems"])
        return [] if k in watch.hands else None

    # ------------------------------------------------------------ what it shows
    def dialogs(self) -> list:
        s = self.session
        if self.failed is not None:
            return [review_failed(self.failed, s.lang)]
        if self.steps is None:
            return []
        return [review_dialog(self.steps, self.at, self.hand_no, self.by_rounds, s.pips, s.lang, self.seal)]

    def kept_section(self):
        """The statistics' list of the last hands (None: none kept)."""
        return kept_list(self.kept(), self.session.lang, _game_name) if self.offered() else None

    def focus_target(self) -> str | None:
        if self.failed is not None:
            return '[data-testid="review-close"]'
        return '[data-step="forward"]' if self.steps is not None else None

    # ------------------------------------------------------------ the taps
    def _show(self, steps: list[dict], hand_no: int, came_from: str, seal: dict | None = None) -> None:
        self.steps, self.at, self.hand_no, self.came_from, self.seal = steps, 0, hand_no, came_from, seal
        self.by_rounds = bool((steps[0]["view"].get("layout") or {}).get("rounds"))
        self.session.render()

    @answers("review-hand")
    def review_hand(self, inp: dict) -> None:
        c = self.session.ctrl
        if self.session.role == "guest":
            self.review_guest()
            return
        if c is None or not self.offered() or c.match.phase == "play" or not c.match.records \
                or c.match.records[-1]["result"] is None:
            return
        k = len(c.match.records) - 1
        self._show(review.steps_of_match(c.match), k, "hand", review.deal_seal(to_record(c.match), k))

    def review_guest(self) -> None:
        v = self.guest_view()
        if v is None:
            return
        k = v["hand_no"]
        seal = review.view_seal(v, self.watch_problems(self.session.link.table.deals, k))
        try:
            got = review.steps_of_view(v)
        except ValueError:
            self.failed = k
            self.session.render()
            return
        self._show(got, k, "hand", seal)

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
        self._show(got, doc["hands"][i]["hand"], "stats", review.kept_seal(doc, i))

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
        if not self.open:
            return
        self.steps = self.failed = None
        self.session.render()
        self.session.out.focus = '[data-testid="review-hand"]' if self.came_from == "hand" else '[data-testid="review-kept"]'

    def escape(self) -> bool:
        """Escape closes the review (True: it was open)."""
        if not self.open:
            return False
        self.steps = self.failed = None
        return True
