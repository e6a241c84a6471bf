"""The table's controller: who is looking, what is selected, turn logic and the message line, around one Match."""
from __future__ import annotations

from domino.app.settings import HUMAN

from domino import players
from domino.app import boards
from domino.app.i18n import t
from domino.engine.match import Match

ai = None  # domino.players.levels (levels, hints): imported by load_ai() when first needed


def load_ai():
    """Import the computer players on first use (the browser does it just
    after the first screen is up, so that screen does not wait for them)."""
    global ai
    if ai is None:
        players.load_levels()
        from domino.players import levels as module
        ai = module
    return ai


# ----------------------------------------------------------------- turn logic
def humans(match: Match) -> list[int]:
    return [i for i, s in enumerate(match.seats) if s["kind"] == HUMAN]


def is_computer_turn(match: Match) -> bool:
    return match.phase == "play" and match.turn is not None and match.seats[match.turn]["kind"] != HUMAN


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


# ----------------------------------------------------------------- messages
def _segments(history: list[dict]) -> list[list[dict]]:
    segs: list[list[dict]] = []
    for a in history:
        if segs and segs[-1][0].get("seat") == a.get("seat") and "play" not in segs[-1][-1]:
            segs[-1].append(a)
        else:
            segs.append([a])
    return segs


def describe_segment(seg: list[dict], names: list[str], lang: str) -> str:
    if boards.speaks_for(seg):
        return boards.describe_segment(seg, names, lang)
    name = names[seg[0]["seat"]]
    draws = sum(1 for a in seg if "draw" in a)
    play = next((a["play"] for a in seg if "play" in a), None)
    passes = any(a.get("pass") for a in seg)
    if play and draws:
        return t(lang, "msg.drew_played", name=name, n=draws, tile=play)
    if play:
        return t(lang, "msg.played", name=name, tile=play)
    if passes and draws:
        return t(lang, "msg.drew_passes", name=name, n=draws)
    if passes:
        return t(lang, "msg.passes", name=name)
    return t(lang, "msg.drew", name=name, n=draws)


def describe(history: list[dict], names: list[str], lang: str, limit: int = 3) -> str:
    """A short line for the latest moves: "Ana drew 2 and played 4-6 · Luis passes".

    The latest turn, and when it was no play (draws, passes), the turns back
    to the latest play."""
    segs = _segments(history)
    if not segs:
        return ""
    take = [segs[-1]]
    k = len(segs) - 2
    while k >= 0 and not any("play" in a for a in take[0]) and len(take) < limit:
        take.insert(0, segs[k])
        k -= 1
    return t(lang, "msg.sep").join(describe_segment(s, names, lang) for s in take)


def side_name(match_view: dict, side: int, lang: str) -> str:
    seats = match_view["sides"][side]
    names = match_view["names"]
    if len(seats) == 2:
        return t(lang, "game.side", a=names[seats[0]], b=names[seats[1]])
    return names[seats[0]]


def seat_points(view: dict) -> list[dict]:
    """Per seat: this hand's points and the running total of its side (in
    partnership both seats of a side show the side's numbers)."""
    res = view.get("result") or {}
    sides = view["sides"]
    side_of = {s: i for i, ss in enumerate(sides) for s in ss}
    rows = []
    for seat in range(view["players"]):
        sd = side_of[seat]
        rows.append({
            "seat": seat, "side": sd,
            "points": (res.get("points") or [0] * len(sides))[sd],
            "total": (res.get("totals") or view["scores"])[sd],
            "count": (res.get("counts") or view["counts"])[seat],
            "fives": (res.get("fives") or view.get("fives") or [0] * len(sides))[sd],
            "tiles": (res.get("hands") or [[]] * view["players"])[seat],
        })
    return rows


# ----------------------------------------------------------------- controller
class Controller:
    """UI state around one Match: who is looking, what is selected, the
    message line.  ``click(...)`` methods return True when something changed."""

    def __init__(self, match: Match, lang: str = "en", pips: str = "coloured", viewer: int | None = None):
        self.match = match
        self.lang = lang
        self.pips = pips
        self.viewer = viewer
        self.selected: str | None = None     # tile waiting for a place
        self.chosen_end: str | None = None   # Matador: end chosen, waiting for "open"
        self.note = ""                       # hint / fives
        self.flash: list[tuple[int, int]] = []   # fives just scored (side, points)
        self.confirm_resign = False
        hs = humans(match)
        if len(hs) == 1:
            self.viewer = hs[0]

    # --- state
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

    def my_turn(self) -> bool:
        m = self.match
        return (m.phase == "play" and m.turn is not None and m.turn == self.face_up()
                and m.seats[m.turn]["kind"] == HUMAN)

    def legal(self) -> list[dict]:
        return self.match.legal_actions() if self.my_turn() else []

    def playable(self) -> set[str]:
        return {a["play"] for a in self.legal() if "play" in a}

    def message(self) -> str:
        v = self.match.view(self.match.turn if self.match.turn is not None else 0)
        names = v["names"]
        if self.match.outcome and self.match.outcome.get("reason") == "resign" and self.match.resigned:
            return t(self.lang, "msg.resigned", name=names[self.match.resigned["seat"]])
        text = describe(v["history"], names, self.lang)
        if not text and self.match.phase == "play" and self.match.turn is not None:
            text = t(self.lang, "game.start_hand", name=names[v["opener"]])
        return text

    def status(self) -> str:
        m = self.match
        if m.phase != "play" or m.turn is None:
            return ""
        name = m.seats[m.turn]["name"]
        if self.selected:
            return t(self.lang, "game.choose_end", tile=self.selected)
        if m.seats[m.turn]["kind"] != HUMAN:
            return t(self.lang, "game.thinking", name=name)
        if self.my_turn():
            return t(self.lang, "game.your_turn", name=name) + boards.turn_note(self.match.view(m.turn), self.lang)
        return t(self.lang, "game.turn", name=name)

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

    def tap_tile(self, tile: str) -> list[dict] | None:
        """A tap on a hand tile: plays it when it fits one way; selects it when
        it fits several places (returns None)."""
        acts = tile_actions(self.legal(), tile)
        if not acts:
            return None
        if len(acts) == 1:
            return self.apply(acts[0])
        ends = ends_of(acts)
        if len(ends) == 1 and self.selected == tile:
            return self.tap_end(ends[0])
        self.selected = tile
        self.chosen_end = None
        if len(ends) == 1:   # one place, two ways round (Matador): ask which stays open
            self.chosen_end = ends[0]
        return None

    def targets(self) -> dict[str, str]:
        if not self.selected or self.chosen_end:
            return {}
        ends = ends_of(tile_actions(self.legal(), self.selected))
        v = self.view()
        return {e: boards.end_label(v, e, self.selected, self.lang, self.face_up()) for e in ends}

    def open_choices(self) -> list[int]:
        if not self.selected or not self.chosen_end:
            return []
        return [a["open"] for a in tile_actions(self.legal(), self.selected)
                if a.get("end") == self.chosen_end and "open" in a]

    def tap_end(self, end: str) -> list[dict] | None:
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

    def row_actions(self) -> list[tuple[str, dict]]:
        """Frijolito's actions that are not a tile tap, each with the words of
        its button: turn over the leftmost tile, turn over the next one first,
        play the turned tile at an end, send it to the end of the row."""
        return boards.row_actions(self.legal(), self.view(), self.lang)

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

    def hint(self) -> str:
        if not self.my_turn():
            return ""
        try:
            hnt = load_ai().hint(self.view())
        except Exception:  # a hint must never break the game
            return t(self.lang, "game.no_hint")
        why = hnt.get("why") or {}
        text = why.get(self.lang) or why.get("en") or ""
        self.note = t(self.lang, "game.hint", why=text)
        a = hnt.get("action") or {}
        self.hinted = a.get("play")
        return self.note

    hinted: str | None = None
