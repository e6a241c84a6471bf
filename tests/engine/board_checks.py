"""Invariants of the other boards (Mexican Train, Chicken Foot, Frijolito),
recomputed from the seat-view layout and the record, independently of the
engine's own bookkeeping.  ``helpers.check_invariants`` / ``check_history``
call these when ``match.rules.shape`` is not "line".

    check_board_tiles(m)       every tile once: hands/rows + undrawn boneyard + table
    check_board_ends(m)        each train / branch / the line joins link by link from
                               its start; open ends and the "must" toes agree
    check_board_end(m)         the round is over exactly when an end condition holds
    check_board_views(m)       no view names a tile its seat may not know
    check_board_history(m)     the round's actions replayed on a fresh core; a draw or
                               pass (or a reject) only when the seat had no play;
                               train markers set by a pass, lifted by the owner's play
"""
from __future__ import annotations

import json
import re

from domino.engine import tiles
from domino.engine import foot, row, trains
from domino.engine.match import Match

_TILE_RE = re.compile(r'"(\d+-\d+)"')


_IDS = {n: i for i, n in enumerate(tiles.NAMES)}


def _tid(name: str) -> int:
    t = _IDS.get(name)
    return t if t is not None else tiles.Tile.parse(name).id


def _tile(name: str) -> tiles.Tile:
    return tiles.TILES[_tid(name)]


def _joins(v: int, name: str) -> int | None:
    t = _tile(name)
    if t.a == v:
        return t.b
    if t.b == v:
        return t.a
    return None


def layout(m: Match) -> dict:
    return m.board.layout(m) if m.rules.shape != "row" else m.board.view(m, 0)["layout"]


def table_tiles(m: Match, lay: dict | None = None) -> list[int]:
    lay = lay or layout(m)
    shape = m.rules.shape
    out: list[int] = []
    if shape == "trains":
        if lay["engine"]:
            out.append(_tid(lay["engine"]))
        for tr in lay["trains"]:
            out += [_tid(x["tile"]) for x in tr["tiles"]]
    elif shape == "foot":
        if lay["center"]:
            out.append(_tid(lay["center"]))
        for b in lay["branches"]:
            out += [_tid(x["tile"]) for x in b["tiles"]]
    else:
        if lay["center"]:
            out.append(_tid(lay["center"]))
        for e in "WE":
            out += [_tid(x["tile"]) for x in lay["arms"][e]]
    return out


def check_board_tiles(m: Match, lay: dict | None = None) -> None:
    h = m.hand
    r = m.rules
    held = [t for x in h.hands for t in tiles.ids(x)]
    every = held + list(h.bone[h.bpos:]) + table_tiles(m, lay)
    assert sorted(every) == list(range(r.n_tiles)), (
        f"tiles not a partition of double-{r.set}: {len(every)} tiles, {len(set(every))} distinct")
    if r.shape == "row":
        for s in range(r.players):
            assert tiles.mask_of(h.rows[s]) == h.hands[s] and len(set(h.rows[s])) == len(h.rows[s])
    rec = m.records[-1]
    assert list(h.bone) == list(rec["boneyard"]), "boneyard order changed"


def ends_from_layout(m: Match, lay: dict) -> dict[str, int]:
    """The open ends recomputed from the layout, asserting every link."""
    shape = m.rules.shape
    ends: dict[str, int] = {}
    if shape == "trains":
        if lay["engine"] is None:
            assert all(not tr["tiles"] for tr in lay["trains"])
            return {}
        e = _tile(lay["engine"])
        assert e.is_double and e.a == lay["round_double"]
        for tr in lay["trains"]:
            v = e.a
            for i, link in enumerate(tr["tiles"]):
                out = _joins(v, link["tile"])
                assert out is not None and out == link["out"], f"{tr['id']}[{i}]: {link} on {v}"
                v = out
            assert tr["open"] == v, (tr, v)
            ends[tr["id"]] = v
            if tr["owner"] is None:
                assert tr["public"], "the Mexican train is always public"
        for tid in lay["open_doubles"]:
            tr = next(x for x in lay["trains"] if x["id"] == tid)
            assert tr["tiles"] and _tile(tr["tiles"][-1]["tile"]).is_double, f"{tid} ends in no double"
        if m.rules.close_doubles:
            for tr in lay["trains"]:
                if tr["tiles"] and _tile(tr["tiles"][-1]["tile"]).is_double and m.hand.ended is None:
                    assert tr["id"] in lay["open_doubles"], f"{tr['id']} ends in an open double not listed"
        return ends
    if shape == "foot":
        if lay["center"] is None:
            assert not lay["branches"]
            return {}
        c = _tile(lay["center"])
        assert c.is_double and c.a == lay["round_double"]
        br = lay["branches"]
        kids: dict = {}
        for b in br:
            kids.setdefault(b["parent"], []).append(b["id"])
        assert len(kids.get(None, [])) == 6, "the centre double has six toes"
        must = []
        for b in br:
            if b["parent"] is None:
                v = c.a
            else:
                par = next(x for x in br if x["id"] == b["parent"])
                last = _tile(par["tiles"][-1]["tile"])
                assert last.is_double, f"{b['id']} grows from {par['id']}, which ends in no double"
                v = last.a
            for i, link in enumerate(b["tiles"]):
                out = _joins(v, link["tile"])
                assert out is not None and out == link["out"], f"{b['id']}[{i}]: {link} on {v}"
                v = out
            if b["tiles"] and _tile(b["tiles"][-1]["tile"]).is_double:
                assert b["open"] is None and len(kids.get(b["id"], [])) == 3, f"{b['id']}: a double grows 3 toes"
            else:
                assert b["open"] == v, (b, v)
                ends[b["id"]] = v
                assert b["id"] not in kids
            if not b["tiles"]:
                must.append(b["id"])
        assert lay["must"] == must, (lay["must"], must)
        return ends
    # row: a plain line, no spinner
    if lay["center"] is None:
        assert not lay["arms"]["W"] and not lay["arms"]["E"]
        return {}
    c = _tile(lay["center"])
    for e, v in (("W", c.a), ("E", c.b)):
        for i, link in enumerate(lay["arms"][e]):
            out = _joins(v, link["tile"])
            assert out is not None and out == link["out"], f"{e}[{i}]: {link} on {v}"
            v = out
        ends[e] = v
    assert not lay["arms"]["N"] and not lay["arms"]["S"] and lay["spinner"] is None
    return ends


def check_board_ends(m: Match, lay: dict | None = None) -> dict[str, int]:
    return ends_from_layout(m, lay or layout(m))


def _anyone_can_play(m: Match, ends: dict[str, int], lay: dict) -> bool:
    """Could any seat ever play on this table (every train public, the
    unsatisfied doubles first)?"""
    h = m.hand
    r = m.rules
    if r.shape == "trains":
        if lay["engine"] is None:
            return True
        if r.close_doubles and lay["open_doubles"]:
            vals = {ends[i] for i in lay["open_doubles"]}
        else:
            vals = set(ends.values())
    elif r.shape == "foot":
        if lay["center"] is None:
            return True
        vals = {ends[lay["must"][0]]} if lay["must"] else set(ends.values())
    else:
        if lay["center"] is None:
            return True
        vals = set(ends.values())
    return any(tiles.LOW[t] in vals or tiles.HIGH[t] in vals for x in h.hands for t in tiles.ids(x))


def check_board_end(m: Match, ends: dict[str, int] | None = None, lay: dict | None = None) -> None:
    h = m.hand
    r = m.rules
    lay = lay or layout(m)
    if ends is None:
        ends = ends_from_layout(m, lay)
    out = getattr(h, "out", frozenset())
    empty = [s for s in range(r.players) if not h.hands[s] and s not in out]
    drawable = len(h.bone) - h.bpos if r.shape in ("trains", "foot") and r.boneyard == "draw" else 0
    assert h.drawable() == drawable
    stuck = not _anyone_can_play(m, ends, lay) and drawable == 0
    if h.ended is None and stuck and r.shape == "trains" and r.double_chains:
        # a seat playing again after its double may chain a second double
        stuck = not any(x >= 0 for x in h.moves())
    if h.ended == "domino":
        assert empty == [h.winner], (empty, h.winner)
    elif h.ended == "blocked":
        assert stuck and not empty, "blocked although a seat can play or draw"
    else:
        assert h.ended is None, h.ended
        assert not empty and not stuck, "the round should be over"
        assert m.finished or m.phase == "play"
    if m.phase == "play":
        assert m.turn not in out
        assert m.legal_actions(), "the seat to move has no legal action"


def check_board_views(m: Match) -> None:
    h = m.hand
    r = m.rules
    laid = set(table_tiles(m))
    ends = ends_from_layout(m, layout(m))
    assert m.view(0)["ends"] == ends
    hidden_bone = set(h.bone[h.bpos:])
    over = h.ended is not None
    for seat in range(r.players):
        v = m.view(seat)
        text = json.dumps(v)
        for banned in ("seed", "rng"):
            assert banned not in v, banned
        if r.shape == "row":
            allowed = laid | {t for t in range(r.n_tiles) if (h.known >> t) & 1}
            mine = [t for t in h.rows[seat] if (h.up >> t) & 1]
            assert v["hand"] == [tiles.NAMES[t] for t in mine]
            assert v["counts"] == [len(x) for x in h.rows]
            for s, rw in enumerate(v["layout"]["rows"]):
                assert len(rw) == len(h.rows[s])
                for x, t in zip(rw, h.rows[s]):
                    assert x["tile"] == (tiles.NAMES[t] if (h.known >> t) & 1 else None)
                    assert x["up"] == bool((h.up >> t) & 1)
        else:
            own = set(tiles.ids(h.hands[seat]))
            allowed = own | laid
            for a in h.actions:
                if a[1] == "d" and a[0] == seat:
                    allowed.add(a[2])
            assert v["hand"] == [tiles.NAMES[t] for t in sorted(own)]
            assert v["counts"] == [bin(x).count("1") for x in h.hands]
            for a in v["history"]:
                if "draw" in a and a["seat"] != seat:
                    assert a["draw"] is None
        if over:
            allowed |= {t for x in h.hands for t in tiles.ids(x)}
        mentioned = {_tid(s) for s in set(_TILE_RE.findall(text))}
        leak = mentioned - allowed
        assert not leak, f"view of seat {seat} shows {[tiles.NAMES[t] for t in sorted(leak)]}"
        assert not mentioned & hidden_bone - allowed, "a view shows an undrawn tile"
        if m.phase != "play" or m.turn != seat:
            assert v["legal"] == []


def _fresh(m: Match):
    r = m.rules
    live = m.hand
    rec = m.records[-1]
    if r.shape == "trains":
        return trains.Round(r, [tiles.mask_of(x) for x in rec["deal"]], rec["boneyard"], live.opener,
                            rec["engine"], None if rec["engine"] >= 0 else tiles.Tile(rec["double"], rec["double"]).id)
    if r.shape == "foot":
        return foot.Round(r, [tiles.mask_of(x) for x in rec["deal"]], rec["boneyard"], live.opener,
                          tiles.Tile(rec["double"], rec["double"]).id)
    return row.Round(r, rec["deal"], rec["boneyard"], live.opener, live.out)


def check_board_history(m: Match) -> None:
    """Replay the round on a fresh core, checking what only the rules allow."""
    r = m.rules
    live = m.hand
    h = _fresh(m)
    public = [False] * r.players
    for i, a in enumerate(live.actions):
        assert not h.ended, f"action {i} after the round ended"
        seat = a[0]
        assert seat == h.turn, f"action {i}: seat {seat} moved on seat {h.turn}'s turn"
        moves = h.moves()
        plays = [x for x in moves if 0 <= x < row.FLIP]
        if a[1] == "p":
            mv = a[2] << 10 | a[3] << 4 | a[4]
            if r.shape == "trains" and a[3] == seat:
                public[seat] = False
        elif a[1] == "d":
            assert not plays, f"action {i}: seat {seat} drew while able to play"
            assert h.bone[h.bpos] == a[2]
            mv = -1
        elif a[1] == "x":
            assert not plays, f"action {i}: seat {seat} passed while able to play"
            if r.shape in ("trains", "foot") and h.drawable():
                assert any(x[0] == seat and x[1] == "d" for x in live.actions[max(0, i - 1):i]), \
                    f"action {i}: passed without drawing first"
            mv = -2
            if r.shape == "trains":
                public[seat] = True
        elif a[1] == "f":
            mv = row.FLIP
        elif a[1] == "k":
            mv = row.PEEK
        else:   # row reject
            assert not any(x >> 10 == h.rows[seat][0] for x in plays), f"action {i}: rejected a tile that fits"
            mv = row.REJECT_UP if a[3] else row.REJECT
        assert mv in moves, f"action {i} {a} not among the legal moves {moves}"
        h.apply(mv)
        if r.shape == "trains":
            assert h.public[:r.players] == public, f"action {i}: markers {h.public} != {public}"
    assert h.hands == live.hands and h.ended == live.ended
    assert live.ended is not None or h.turn == live.turn
