"""The table's controller: who is looking, what is selected, turn logic and the message line, around one Match."""
from __future__ import annotations

from domino import players
from domino.app import boards
from domino.app.i18n import t
from domino.engine.line import Hand, make_move
from domino.engine.match import HUMAN, Match
from domino.table import REMOTE

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



# ----------------------------------------------------------------- the story of the hand
PACES = {"slow": 1500, "normal": 850, "fast": 350}   # ms a computer turn takes, its animation included
DEFAULT_PACE = "normal"


def pace_ms(pace: str | None) -> int:
    return PACES.get(pace or "", PACES[DEFAULT_PACE])


def travel_ms(turn_ms: int) -> int:
    """How long a played tile travels: well inside one computer turn."""
    return max(0, min(420, turn_ms * 45 // 100))


def live_scores(view: dict) -> list[int]:
    """Each side's score as it stands now: points made during the hand (fives)
    count at once; once the hand is over they are already in the scores."""
    scores = list(view["scores"])
    if view.get("phase") == "play":
        return [s + f for s, f in zip(scores, view.get("fives") or [0] * len(scores))]
    return scores


def play_points(match: Match) -> list[int]:
    """The points each action of the current hand scored at once (fives; 0
    for none).  The plays are replayed on an empty table: draws and passes
    change no end, and what the ends add up to is public."""
    h = match.hand
    r = match.rules
    if h is None:
        return []
    if not isinstance(h, Hand) or not r.fives_on:   # other board shapes: no fives
        return [0] * len(h.actions)
    full = (1 << r.n_tiles) - 1
    rep = Hand(r, [full] * r.players, [], h.opener, None)
    out = []
    for a in h.actions:
        if a[1] != "p":
            out.append(0)
            continue
        before = list(rep.fives)
        rep.turn = a[0]
        rep.apply(make_move(a[2], a[3], a[4]))
        out.append(sum(rep.fives) - sum(before))
    return out


def hand_log(match: Match, view: dict) -> list[dict]:
    """One entry per action of the current hand, in order: seat, kind (play,
    draw, pass), tile (a draw's tile only for the one who drew it), end, and
    the points the action scored."""
    hist = view.get("history") or []
    pts = play_points(match)
    out = []
    for i, a in enumerate(hist):
        kind = next((k for k in ("play", "draw", "pass") if k in a), None)
        if kind is None:   # another game's own action (turn over a tile, ...)
            kind = next((k for k in a if k != "seat"), "move")
        out.append({"i": i, "seat": a["seat"], "kind": kind, "action": a,
                    "tile": a.get("play") or a.get("draw"), "end": a.get("end"),
                    "open": a.get("open"), "points": pts[i] if i < len(pts) else 0})
    return out


def log_text(e: dict, names: list[str], lang: str) -> str:
    name = names[e["seat"]]
    if e["kind"] == "play":
        if e["end"] is None:
            text = t(lang, "log.opened", name=name, tile=e["tile"])
        else:
            where = t(lang, "game.end." + e["end"]) if e["end"] in ("W", "E", "N", "S") else e["end"]
            text = t(lang, "log.played", name=name, tile=e["tile"], where=where)
        if e["points"]:
            text += " " + t(lang, "log.scored", points=e["points"])
        return text
    if e["kind"] == "draw":
        return t(lang, "log.drew_tile", name=name, tile=e["tile"]) if e["tile"] else t(lang, "log.drew", name=name)
    if e["kind"] == "pass":
        return t(lang, "log.passed", name=name)
    seg = [e.get("action") or {"seat": e["seat"]}]
    return boards.describe_segment(seg, names, lang) if boards.speaks_for(seg) else name


def seat_order(players: int, bottom: int) -> dict[int, str]:
    """Where each seat sits on the screen, the one looking at the bottom.
    Play passes to the right (RULES.md 1): seat+1 sits on the right, the
    partner (seat+2 of four) opposite, at the top."""
    spots = {2: ("bottom", "top"), 3: ("bottom", "right", "left"),
             4: ("bottom", "right", "top", "left")}.get(players)
    if spots is None:   # 5 to 8: right, a row across the top, left
        spots = ("bottom", "right") + tuple(f"top-{k}" for k in range(1, players - 2)) + ("left",)
    return {(bottom + k) % players: spots[k] for k in range(players)}


def last_turn(log: list[dict], seat: int) -> list[dict]:
    """The seat's latest turn: its last run of actions (draws, then a play
    or a pass); [] when it has not moved this hand."""
    k = len(log) - 1
    while k >= 0 and log[k]["seat"] != seat:
        k -= 1
    run: list[dict] = []
    while k >= 0 and log[k]["seat"] == seat:
        if run and log[k]["kind"] == "play":
            break
        run.insert(0, log[k])
        k -= 1
    return run


def partners(view: dict) -> bool:
    """Partners play: some side has more than one seat."""
    return any(len(ss) > 1 for ss in view.get("sides") or [])


def seat_views(match: Match, view: dict, bottom: int) -> list[dict]:
    """Per seat, what its place around the table shows: name, tiles in hand,
    its side's live score, whether it is to move, where it sits, its latest
    turn (played, drew n, passed) and the points that turn scored; with
    partners, its team (the side) and its partners' names.  The same
    for every game: only the seat view and the log are read."""
    live = live_scores(view)
    log = hand_log(match, view)
    order = seat_order(view["players"], bottom)
    side_of = {s: i for i, ss in enumerate(view["sides"]) for s in ss}
    teams = partners(view)
    out = []
    for seat in range(view["players"]):
        run = last_turn(log, seat)
        draws = sum(1 for e in run if e["kind"] == "draw")
        play = next((e for e in run if e["kind"] == "play"), None)
        passed = any(e["kind"] == "pass" for e in run)
        out.append({
            "seat": seat, "name": view["names"][seat], "kind": view["kinds"][seat],
            "side": side_of[seat], "count": view["counts"][seat], "score": live[side_of[seat]],
            "team": side_of[seat] if teams else None,
            "partners": [view["names"][p] for p in view["sides"][side_of[seat]] if p != seat] if teams else [],
            "turn": view.get("phase") == "play" and view.get("turn") == seat,
            "spot": order[seat], "draws": draws, "passed": passed,
            "played": play["tile"] if play else None,
            "points": play["points"] if play else 0,
            "last_i": run[-1]["i"] if run else -1,
        })
    return out


def turn_text(s: dict, lang: str) -> str:
    """A seat's latest turn in a few words ("drew 2, played 4-6", "passed")."""
    parts = []
    if s["draws"]:
        parts.append(t(lang, "seat.drew", n=s["draws"]))
    if s["played"]:
        parts.append(t(lang, "seat.played", tile=s["played"]))
    elif s["passed"]:
        parts.append(t(lang, "seat.passed"))
    return t(lang, "msg.sep").join(parts)


def board_story(view: dict, lang: str) -> tuple[list[str], str]:
    """What the table holds, for a screen reader: the tiles in line order
    (the left arm from its open end in, the first tile, the right arm out;
    then the spinner's arms) and the open ends with what they show."""
    lay = view.get("layout") or {}
    if boards.shape_of(view) != "line":
        return [], ""
    if lay.get("center") is None:
        return [], t(lang, "board.empty")
    arms = lay.get("arms") or {}
    sp = lay.get("spinner")

    def name(tile: str, arm: str, i: int) -> str:
        if sp and sp["arm"] == arm and sp["index"] == i:
            return t(lang, "board.spinner", tile=tile)
        return tile

    tiles = [name(x["tile"], "W", i) for i, x in reversed(list(enumerate(arms.get("W") or [])))]
    tiles.append(name(lay["center"], "C", 0))
    tiles += [name(x["tile"], "E", i) for i, x in enumerate(arms.get("E") or [])]
    for arm in ("N", "S"):
        if arms.get(arm):
            tiles.append(t(lang, "board.arm", where=t(lang, "game.end." + arm),
                           tiles=", ".join(x["tile"] for x in arms[arm])))
    ends = view.get("ends") or {}
    parts = [t(lang, "board.end", where=t(lang, "game.end." + e) if e in "WENS" else e, n=v)
             for e, v in ends.items()]
    text = t(lang, "board.ends", ends=", ".join(parts))
    if view.get("options", {}).get("fives", "off") != "off":
        text += " " + t(lang, "board.total", n=view.get("ends_total", 0))
    return tiles, text


def counts_ends(view: dict) -> bool:
    """The game scores what the open ends add up to (fives)."""
    return (view.get("options") or {}).get("fives", "off") != "off"


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
        self.hint_why: dict | None = None    # the hint's reason, in every language
        self.flash: list[tuple[int, int]] = []   # fives just scored (side, points)
        self.confirm_resign = False
        self.log_open = False                # the move log is shown
        self.pace = DEFAULT_PACE             # the computer's pace (a saved setting)
        self.practice = False                # undo allowed (set by the browser from the match meta)
        self.sound = False                   # the sound toggle's state, for the toolbar
        self.net: dict | None = None         # a friends' table: statuses, invitations (domino.app.friends)
        hs = humans(match)
        if len(hs) == 1:
            self.viewer = hs[0]

    # --- state
    @property
    def note(self) -> str:
        """The hint line, in the language of the moment."""
        why = self.hint_why
        if why is None:
            return ""
        if "key" in why:
            return t(self.lang, why["key"])
        return t(self.lang, "game.hint", why=why.get(self.lang) or why.get("en") or "")

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
        if m.seats[m.turn]["kind"] == REMOTE:
            return t(self.lang, "friends.turn_remote", name=name)
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
        if len(acts) == 1 or same_result(self.match, acts):
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
        self.hint_why = dict(hnt.get("why") or {})
        a = hnt.get("action") or {}
        self.hinted = a.get("play")
        return self.note

    hinted: str | None = None
