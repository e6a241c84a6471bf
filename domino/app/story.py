"""The hand's story, in words and numbers, from a match and its seat view:
the message line (the latest moves), each seat's place and latest turn, the
move log, the scores as they stand (fives count at once), the points a hand
ends with, and what the board holds for a screen reader.  Read only: nothing
here changes a match."""
from __future__ import annotations

from domino.app import boards
from domino.app.i18n import t
from domino.engine.line import Hand, make_move
from domino.engine.match import Match


# ----------------------------------------------------------------- the message line
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


# ----------------------------------------------------------------- seats, log and board
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
