"""Shared helpers for the engine tests and scripts/soak.py (a stable API).

Import them as ``from helpers import ...`` (tests/engine/conftest.py puts this
directory on ``sys.path``; scripts/soak.py does the same).

Building matches from explicit deals
    ``scripted_match(game, deal, boneyard=None, players=None, seed=0, **options)``
        A live :class:`~domino.engine.match.Match` whose first hand is exactly
        ``deal`` (tiles per seat, "a-b" strings in any order) and
        ``boneyard`` (drawn in that order; ``None``: the rest of the set in
        ascending id order; a partial list: those first, then the rest).  It
        is built through ``records.from_record``, so the opener comes from the
        rules, and forced draws/passes are already applied.
    ``scripted_next_hand(match, deal, boneyard=None)``
        After "hand-over": deal the next hand explicitly (opener from the rules).
    ``act(match, "1 6-5 E")`` / ``play(match, *steps)``
        Apply actions written as ``"<seat> <tile> [<end>]"``, ``"<seat> draw"``,
        ``"<seat> pass"``, ``"<seat> resign"``.  ``play`` returns every action
        applied (forced ones included).
    ``history(match)``
        The current hand's actions as the same short strings (draws with the
        tile: ``"1 draw 2-3"``; plays with their end).

Invariants
    ``check_invariants(match, views=True, roundtrip=False, out_of_turn=True)``
        Asserts, for the current state: every tile of the set is exactly once
        in the hands, the boneyard or the layout; the open ends (and the fives
        total) recomputed from the layout arms agree with the engine; the hand
        is over exactly when an end condition holds; (``out_of_turn``) any seat
        but the one to move gets IllegalAction "out-of-turn" and changes
        nothing; (``views``) no seat view shows another seat's unplayed tiles,
        the boneyard, other seats' drawn tiles or the seed; (``roundtrip``)
        to_record -> JSON -> from_record gives an equal ``state_key()``.
    ``check_history(match)``
        Replays the current hand from its deal on a fresh core Hand: every
        action was legal for the seat to move, a draw or pass happened only
        when the seat had no play (except Matador's decline-draw), and the
        result equals the live hand.
    ``random_match(rules, seed, rng, check=..., hands=None)``
        Plays a match (or ``hands`` hands) with uniformly random legal
        actions through the public API, calling ``check(match)`` after every
        applied action and ``check_history`` at every hand's end.

All assertion helpers raise ``AssertionError`` with a readable message.
"""
from __future__ import annotations

import json
import random
import re
from typing import Any, Callable, Iterable

from domino.engine import tiles
from domino.engine.line import CENTER, END_IDS, OPEN, Hand
from domino.engine.match import IllegalAction, Match
from domino.engine.records import from_record, to_record
from domino.engine.rules import Rules, make_rules
from board_checks import layout as board_layout  # noqa: E402
from board_checks import (check_board_end, check_board_ends, check_board_history,  # noqa: E402
                          check_board_tiles, check_board_views)

__all__ = [
    "scripted_match", "scripted_next_hand", "act", "play", "history", "parse_step",
    "check_invariants", "check_history", "check_tiles", "check_ends", "check_end_condition",
    "check_views", "check_out_of_turn", "check_roundtrip", "random_match", "random_step",
    "open_ends", "layout_total", "can_play", "tile_names", "option_spread", "all_configs",
]

_TILE_RE = re.compile(r'"(\d+-\d+)"')


# ----------------------------------------------------------------- scripting
def tile_names(tids: Iterable[int]) -> list[str]:
    return [tiles.NAMES[t] for t in tids]


_IDS = {n: i for i, n in enumerate(tiles.NAMES)}


def _tid(name: str) -> int:
    t = _IDS.get(name)
    return t if t is not None else tiles.Tile.parse(name).id


def scripted_match(game: str, deal: list[list[str]], boneyard: list[str] | None = None,
                   players: int | None = None, seed: int | str = 0,
                   seats: list[dict] | None = None, **options: Any) -> Match:
    """A match whose first hand is dealt exactly as given (see module doc)."""
    players = players or len(deal)
    rules = make_rules(game, players=players, **options)
    return _from_deal(rules, deal, boneyard, seed, seats)


def _full_boneyard(rules: Rules, deal: list[list[str]], boneyard: list[str] | None) -> list[str]:
    held = {_tid(t) for h in deal for t in h}
    first = [_tid(t) for t in (boneyard or [])]
    rest = [t for t in range(rules.n_tiles) if t not in held and t not in first]
    return tile_names(first + rest)


def _from_deal(rules: Rules, deal, boneyard, seed, seats) -> Match:
    doc = {
        "format": "domino-record/1", "game": rules.game, "options": rules.options(),
        "seed": seed,
        "seats": seats or [{"name": f"P{i}", "kind": "human"} for i in range(rules.players)],
        "hands": [{"redeals": 0, "deal": [list(h) for h in deal],
                   "boneyard": _full_boneyard(rules, deal, boneyard), "actions": [],
                   "result": None}],
    }
    return from_record(doc)


def scripted_next_hand(match: Match, deal: list[list[str]], boneyard: list[str] | None = None) -> None:
    """Deal the next hand of ``match`` explicitly (it must be "hand-over")."""
    assert match.phase == "hand-over", match.phase
    bone = [_tid(t) for t in _full_boneyard(match.rules, deal, boneyard)]
    match.start_hand([sorted(_tid(t) for t in h) for h in deal], bone)


def parse_step(step: str) -> dict:
    """``"1 6-5 E"`` -> ``{"seat": 1, "play": "5-6", "end": "E"}`` etc."""
    parts = step.split()
    seat = int(parts[0])
    what = parts[1]
    if what == "draw":
        return {"seat": seat, "draw": parts[2] if len(parts) > 2 else None}
    if what == "pass":
        return {"seat": seat, "pass": True}
    if what == "resign":
        return {"seat": seat, "resign": True}
    a: dict[str, Any] = {"seat": seat, "play": what}
    if len(parts) > 2:
        a["end"] = parts[2]
    if len(parts) > 3:
        a["open"] = int(parts[3])
    return a


def act(match: Match, step: str) -> list[dict]:
    return match.apply(parse_step(step))


def play(match: Match, *steps: str) -> list[dict]:
    done: list[dict] = []
    for s in steps:
        done += act(match, s)
    return done


def history(match: Match) -> list[str]:
    out = []
    for a in match.hand.actions:
        seat, kind = a[0], a[1]
        if kind == "p":
            out.append(f"{seat} {tiles.NAMES[a[2]]}" + ("" if a[3] == OPEN else f" {END_IDS[a[3]]}"))
        elif kind == "d":
            out.append(f"{seat} draw {tiles.NAMES[a[2]]}")
        else:
            out.append(f"{seat} pass")
    return out


# ------------------------------------------------------- independent checks
def _layout_of(h: Hand) -> dict:
    """The layout of a core Hand in Match.layout()'s shape."""
    sp = None
    if h.spinner is not None:
        arm, i = h.spinner
        sp = {"arm": "C" if arm == CENTER else END_IDS[arm], "index": i}
    return {"center": tiles.NAMES[h.center] if h.center >= 0 else None, "spinner": sp,
            "arms": {END_IDS[e]: [{"tile": tiles.NAMES[t], "out": x} for t, x in h.arms[e]]
                     for e in range(4)}}


def _joins(rules: Rules, v: int, tile: tiles.Tile) -> list[int]:
    """The numbers ``tile`` may leave open when played on an end showing v."""
    if rules.joins == "matador":
        k = rules.set + 1
        if tile.a + tile.b == k or (tile.a == 0 and tile.b == 0):
            return sorted({tile.a, tile.b})
        if v == 0:
            return []
        out = []
        if tile.a + v == k:
            out.append(tile.b)
        if tile.b + v == k:
            out.append(tile.a)
        return out
    if tile.a == v:
        return [tile.b]
    if tile.b == v:
        return [tile.a]
    return []


def open_ends(rules: Rules, layout: dict) -> dict[str, int]:
    """Recompute the open ends from the layout arms; asserts every link."""
    if layout["center"] is None:
        assert not any(layout["arms"].values()), "arms without a center tile"
        assert layout["spinner"] is None
        return {}
    c = tiles.Tile.parse(layout["center"])
    arms = layout["arms"]
    ends: dict[str, int] = {}
    start = {"W": c.a, "E": c.b}
    sp = layout["spinner"]
    if sp is not None:
        assert rules.spinner != "off", "a spinner with spinners off"
        if sp["arm"] == "C":
            st = c
            both = bool(arms["W"]) and bool(arms["E"])
        else:
            assert sp["arm"] in ("W", "E"), sp
            assert rules.spinner == "first", "only 'first double' spinners sit in an arm"
            assert len(arms[sp["arm"]]) > sp["index"], sp
            st = tiles.Tile.parse(arms[sp["arm"]][sp["index"]]["tile"])
            both = len(arms[sp["arm"]]) > sp["index"] + 1
        assert st.is_double, f"spinner {st} is not a double"
        if both:
            start["N"] = start["S"] = st.a
    for e in ("W", "E", "N", "S"):
        if e not in start:
            assert not arms[e], f"tiles on arm {e}, which is not open"
            continue
        v = start[e]
        for i, link in enumerate(arms[e]):
            t = tiles.Tile.parse(link["tile"])
            ok = _joins(rules, v, t)
            assert link["out"] in ok, f"arm {e}[{i}]: {t} on {v} cannot leave {link['out']} open"
            v = link["out"]
        ends[e] = v
    return ends


def layout_total(layout: dict) -> int:
    """The fives count of the open ends (RULES.md 3, the spinner), from the layout."""
    if layout["center"] is None:
        return 0
    c = tiles.Tile.parse(layout["center"])
    arms = layout["arms"]
    if not arms["W"] and not arms["E"]:
        return c.a + c.b
    total = 0
    for e, half in (("W", c.a), ("E", c.b)):
        if arms[e]:
            t = tiles.Tile.parse(arms[e][-1]["tile"])
            total += arms[e][-1]["out"] * (2 if t.is_double else 1)
        else:
            total += half * (2 if c.is_double else 1)
    for e in ("N", "S"):
        if arms[e]:
            t = tiles.Tile.parse(arms[e][-1]["tile"])
            total += arms[e][-1]["out"] * (2 if t.is_double else 1)
    return total


def can_play(rules: Rules, hand_mask: int, ends: dict[str, int], opened: bool) -> bool:
    if not opened:
        return bool(hand_mask)
    for t in tiles.ids(hand_mask):
        tile = tiles.TILES[t]
        if any(_joins(rules, v, tile) for v in ends.values()):
            return True
    return False


def _drawable(rules: Rules, h: Hand) -> int:
    if rules.boneyard != "draw":
        return 0
    return max(0, len(h.bone) - h.bpos - (2 if rules.keep_last_two else 0))


def _layout_tiles(layout: dict) -> list[int]:
    out = [] if layout["center"] is None else [_tid(layout["center"])]
    for arm in layout["arms"].values():
        out += [_tid(x["tile"]) for x in arm]
    return out


def check_tiles(match: Match) -> None:
    """Every tile of the set once: hands + boneyard (not yet drawn) + layout."""
    h = match.hand
    r = match.rules
    laid = _layout_tiles(match.layout())
    every = [t for m in h.hands for t in tiles.ids(m)] + list(h.bone[h.bpos:]) + laid
    assert sorted(every) == list(range(r.n_tiles)), (
        f"tiles not a partition of double-{r.set}: {len(every)} tiles, "
        f"{len(set(every))} distinct")
    drawn = set(h.bone[:h.bpos])
    rec = match.records[-1]
    assert list(h.bone) == list(rec["boneyard"]), "boneyard order changed"
    dealt = {t for hh in rec["deal"] for t in hh}
    assert dealt | set(h.bone) == set(range(r.n_tiles)) and not dealt & set(h.bone)
    played = set(laid)
    assert drawn <= played | {t for m in h.hands for t in tiles.ids(m)}


def check_ends(match: Match) -> dict[str, int]:
    """Open ends and their total, recomputed from the layout; returns the ends."""
    h = match.hand
    lay = match.layout()
    ends = open_ends(match.rules, lay)
    got = {END_IDS[e]: h.end_val[e] for e in h.open}
    assert got == ends, f"engine ends {got} != layout ends {ends} (layout {lay})"
    assert h.ends_total() == layout_total(lay), (
        f"ends_total {h.ends_total()} != {layout_total(lay)} for {lay}")
    return ends


def check_end_condition(match: Match, ends: dict[str, int] | None = None) -> None:
    """The hand is over exactly when an end condition holds."""
    h = match.hand
    r = match.rules
    if ends is None:
        ends = open_ends(r, match.layout())
    opened = h.center >= 0
    empty = [s for s in range(r.players) if not h.hands[s]]
    nobody = opened and not any(can_play(r, m, ends, True) for m in h.hands)
    drawable = _drawable(r, h)
    assert h.drawable() == drawable, (h.drawable(), drawable)
    reached = [i for i in range(r.n_sides) if r.fives_on and h.base[i] + h.fives[i] >= r.target]
    if h.ended == "domino":
        assert empty == [h.winner], f"domino by {h.winner} but empty hands {empty}"
    elif h.ended == "blocked":
        assert nobody and drawable == 0, "blocked although a seat can play or draw"
        assert not empty
    elif h.ended == "target":
        assert reached, "ended on target but no side reached it"
        assert r.side_of(h.winner) in reached
    else:
        assert h.ended is None, h.ended
        assert not empty, f"seat {empty} is out of tiles but the hand goes on"
        assert not (nobody and drawable == 0), "nobody can play or draw but the hand goes on"
        assert not reached, "a side reached the target but the hand goes on"
        assert match.finished or match.phase == "play"
    if match.phase == "play":
        assert 0 <= h.turn < r.players
        assert match.legal_actions(), "the seat to move has no legal action"


def check_out_of_turn(match: Match) -> None:
    """Every seat but the one to move is refused with out-of-turn, harmlessly."""
    if match.phase != "play":
        return
    legal = match.legal_actions()
    key = match.state_key()
    seq = match.seq
    for seat in range(match.rules.players):
        if seat == match.turn:
            continue
        for a in (legal[0], {"seat": seat, "pass": True}, {"seat": seat, "draw": None}):
            a = dict(a, seat=seat)
            try:
                match.apply(a)
            except IllegalAction as exc:
                assert exc.code == "out-of-turn", (a, exc.code, exc.message)
            else:
                raise AssertionError(f"seat {seat} acted out of turn with {a}")
    assert match.state_key() == key and match.seq == seq, "a refused action changed the state"


def check_views(match: Match) -> None:
    """No seat view shows what that seat may not know (and views are JSON)."""
    h = match.hand
    r = match.rules
    laid = set(_layout_tiles(match.layout()))
    hidden_bone = set(h.bone[h.bpos:])
    over = h.ended is not None
    for seat in range(r.players):
        v = match.view(seat)
        text = json.dumps(v)   # plain JSON
        for banned in ("seed", "rng", "bone_order"):
            assert banned not in v, banned
        own = set(tiles.ids(h.hands[seat]))
        allowed = own | laid
        if over:
            allowed |= {t for m in h.hands for t in tiles.ids(m)}
        for a in h.actions:
            if a[1] == "d" and a[0] == seat:
                allowed.add(a[2])
        mentioned = {_tid(s) for s in set(_TILE_RE.findall(text))}
        leak = mentioned - allowed
        assert not leak, f"view of seat {seat} shows {tile_names(sorted(leak))}"
        assert not mentioned & hidden_bone, "a view shows an undrawn boneyard tile"
        for a in v["history"]:
            if "draw" in a and a["seat"] != seat:
                assert a["draw"] is None, f"seat {seat} sees seat {a['seat']}'s draw"
        assert sorted(v["hand"], key=_tid) == tile_names(sorted(own))
        assert v["counts"] == [bin(m).count("1") for m in h.hands]
        if match.phase != "play" or match.turn != seat:
            assert v["legal"] == []


def check_roundtrip(match: Match) -> Match:
    """export -> JSON -> import -> replay gives an equal state."""
    doc = json.loads(json.dumps(to_record(match)))
    again = from_record(doc)
    assert again.state_key() == match.state_key(), "record round trip changed the state"
    assert again.phase == match.phase and again.outcome == match.outcome
    return again


def check_invariants(match: Match, views: bool = True, roundtrip: bool = False,
                     out_of_turn: bool = True) -> None:
    """All per-state invariants (see the module doc); the other boards'
    checks come from board_checks.py."""
    if match.rules.shape != "line":
        lay = board_layout(match)
        check_board_tiles(match, lay)
        check_board_end(match, check_board_ends(match, lay), lay)
        if views:
            check_board_views(match)
    else:
        check_tiles(match)
        check_end_condition(match, check_ends(match))
        if views:
            check_views(match)
    if out_of_turn:
        check_out_of_turn(match)
    if roundtrip:
        check_roundtrip(match)
    if match.finished:
        assert match.outcome is not None and match.phase == "match-over"
    return


def check_history(match: Match) -> None:
    """Replay the current hand on a fresh core Hand, checking every action."""
    if match.rules.shape != "line":
        check_board_history(match)
        return
    r = match.rules
    live = match.hand
    rec = match.records[-1]
    h = Hand(r, [tiles.mask_of(x) for x in rec["deal"]], rec["boneyard"], live.opener, live.forced,
             base=live.base)
    for i, a in enumerate(live.actions):
        assert not h.ended, f"action {i} after the hand ended"
        seat = a[0]
        assert seat == h.turn, f"action {i}: seat {seat} moved on seat {h.turn}'s turn"
        ends = open_ends(r, _layout_of(h))
        able = can_play(r, h.hands[seat], ends, h.center >= 0)
        moves = h.moves()
        if a[1] == "d":
            decline = (r.joins == "matador" and able and h.declined < 0
                       and all((1 << (m >> 7)) & h.tab.matadors for m in h.plays()))
            assert not able or decline, f"action {i}: seat {seat} drew while able to play"
            assert _drawable(r, h) > 0, f"action {i}: drew from an empty boneyard"
            assert h.bone[h.bpos] == a[2], f"action {i}: drew out of boneyard order"
            m = -1
        elif a[1] == "x":
            assert not able, f"action {i}: seat {seat} passed while able to play"
            assert _drawable(r, h) == 0, f"action {i}: passed while it could draw"
            m = -2
        else:
            m = a[2] << 7 | a[3] << 4 | a[4]
        assert m in moves, f"action {i} {a} not among the legal moves"
        h.apply(m)
    assert h.hands == live.hands and h.bpos == live.bpos and h.ended == live.ended
    assert (live.ended is not None) or h.turn == live.turn
    assert h.fives == live.fives


# ------------------------------------------------------------- random play
def random_step(match: Match, rng: random.Random) -> list[dict]:
    """One uniformly random legal action through the public API."""
    legal = match.legal_actions()
    return match.apply(legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0])


def random_match(rules: Rules, seed: int | str, rng: random.Random,
                 check: Callable[[Match], None] | None = check_invariants,
                 hands: int | None = None, history_check: bool = True,
                 roundtrip_every_hand: bool = True) -> Match:
    """Play random legal actions until the match (or ``hands`` hands) is over."""
    m = Match(rules, seed=seed)
    if check:
        check(m)
    while True:
        if m.phase == "play":
            random_step(m, rng)
            if check:
                check(m)
            continue
        if history_check:
            check_history(m)
        if roundtrip_every_hand:
            check_roundtrip(m)
        if m.finished or (hands is not None and len(m.records) >= hands):
            return m
        m.next_hand()
        if check:
            check(m)


# ----------------------------------------------------------- configurations
def option_spread(game: str) -> list[dict]:
    """A spread of option combinations for ``game``: the defaults, then each
    non-locked option set to each non-default value in turn (valid ones)."""
    from domino.engine.rules import PRESETS, RulesError
    p = PRESETS[game]
    out: list[dict] = [{}]
    for key in p.defaults:
        if key in p.locked or key in ("players", "pips", "target", "hand_size", "partnership"):
            continue
        for v in p.choices(key):
            if v == p.defaults[key]:
                continue
            try:
                make_rules(game, **{key: v})
            except RulesError:
                continue
            out.append({key: v})
    return out


def all_configs(targets_low: bool = True) -> list[tuple[str, int, dict]]:
    """(game, players, options) for every preset x valid player count
    (x partnership at 4 where optional) x option_spread."""
    from domino.engine.rules import PRESETS, RulesError
    out = []
    for game, p in PRESETS.items():
        for n in p.choices("players"):
            parts = [False, True] if (n == 4 and "partnership" not in p.locked
                                      and game not in ("latin", "classic")) else [None]
            for part in parts:
                for opts in option_spread(game):
                    o = dict(opts)
                    if part is not None:
                        o["partnership"] = part
                    try:
                        make_rules(game, players=n, **o)
                    except RulesError:
                        continue
                    out.append((game, n, o))
    return out
