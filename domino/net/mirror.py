"""A read-only stand-in for :class:`~domino.engine.match.Match` on a guest's device.

A guest never holds the match: it holds the last seat view the host sent
(``Match.view(seat)``).  :class:`MirrorMatch` answers, from that view alone,
what the table's screens and :class:`~domino.app.controller.Controller` ask
a match (``view``, ``phase``, ``turn``, ``seats``, ``seq``, ``hand_no``,
``outcome``, ``resigned``, ``rules``, ``hand``, ``records``,
``legal_actions()``, ``find_move()``), so the existing table draws a
guest's table unchanged.  It holds nothing the view does not: no seed, no
other seat's tiles, no boneyard order.

What it rebuilds, and how:

- ``rules``: :func:`~domino.engine.rules.rules_from_options` of the view's
  game and resolved options (the way records and the computer players do).
- ``hand`` (the line family): a :class:`~domino.engine.line.Hand` replayed
  from the view's public history on a table where every seat could hold any
  tile (as :func:`domino.app.controller.play_points` does): the board
  (arms, open ends, spinner, fives) is exactly the real one, the own seat's
  tiles are the view's, and the other seats' masks mean nothing.  That is
  what ``play_points`` (the points each play scored) and ``same_result``
  (whether the ends a tile fits lead to the same table) read.  Other board
  shapes get a :class:`PublicHand`: the actions (their kinds, for the log)
  and the hand's opener, turn and end.
- ``seats``: the view's names; the own seat's kind is ``"human"``; another
  seat played by a person (``"human"`` on the host: the host, or
  ``"remote"``) is ``"remote"``, so the Controller sees one person here and
  shows this seat face up with no hand-off screen; computers keep their level.
- ``view(other seat)``: the public part of the view as that seat would get
  it: ``seat`` and ``side`` of that seat, no ``hand`` (Frijolito: its
  face-up tiles, which everyone sees), no ``legal``, and the own seat's
  drawn tiles hidden in ``history``.
- ``resigned``: not part of a seat view; the host sends it beside the view
  (``view`` message field ``resigned``).

``apply(action)`` changes nothing: it keeps the action as :attr:`pending`
(the guest session sends it with :meth:`domino.net.guest.GuestTable.act`)
and returns ``[]``; ``next_hand()`` and ``resign(seat)`` do the same.  The
host's next view is the only thing that moves the mirror
(:meth:`update`).
"""
from __future__ import annotations

import re
from typing import Any

from domino.engine import tiles
from domino.engine.common import IllegalAction
from domino.engine.line import (CENTER, END_IDS, END_INDEX, OPEN, Hand, make_move, move_end,
                                move_exposed, move_tile)
from domino.engine.match import HUMAN
from domino.engine.rules import Rules, RulesError, rules_from_options
from domino.table import REMOTE

_RULES: dict[tuple, Rules] = {}     # (game, options) -> Rules: a view's rules, rebuilt once


def copy_json(x: Any) -> Any:
    """A copy of JSON data (dicts, lists, scalars); cheaper than deepcopy."""
    if type(x) is dict:
        return {k: copy_json(v) for k, v in x.items()}
    if type(x) is list:
        return [copy_json(v) for v in x]
    return x


def view_rules(view: dict) -> Rules:
    """The rules of a seat view: :func:`rules_from_options` of its game and
    resolved options, as records and the computer players rebuild them."""
    opts = view["options"]
    if not isinstance(opts, dict):
        raise MirrorError("options must be an object")
    key = (view["game"], tuple(sorted((str(k), v) for k, v in opts.items())))
    try:
        r = _RULES.get(key)
    except TypeError:          # an unhashable option value: not a view's
        raise MirrorError("options hold values no game has") from None
    if r is None:
        r = rules_from_options(view["game"], dict(opts))
        if len(_RULES) < 256:
            _RULES[key] = r
    return r


class MirrorError(ValueError):
    """A view the mirror cannot stand for (malformed, or a history that does
    not replay on its own board)."""


class PublicHand:
    """The public shape of a round of Mexican Train, Chicken Foot or
    Frijolito: ``actions`` (one tuple per history entry, with the kind
    letters the engine uses: ``"p"`` play, ``"d"`` draw, ``"x"`` pass,
    ``"f"`` flip, ``"k"`` peek, ``"r"`` reject), ``opener``, ``turn``,
    ``ended``."""

    def __init__(self, view: dict):
        self.actions: list[tuple] = [_action_tuple(a) for a in view["history"]]
        self.opener = view.get("opener")
        self.turn = view.get("turn")
        res = view.get("result")
        self.ended = res.get("end") if isinstance(res, dict) else None


def _action_tuple(a: dict) -> tuple:
    seat = a["seat"]
    for key, kind in (("play", "p"), ("draw", "d"), ("flip", "f"), ("peek", "k"), ("reject", "r")):
        if key in a:
            tile = a[key]
            return (seat, kind, tiles.Tile.parse(tile).id if isinstance(tile, str) else -1)
    return (seat, "x")


def _tile_id(name: Any) -> int:
    try:
        return tiles.Tile.parse(name).id
    except ValueError as exc:
        raise MirrorError(str(exc)) from None


def replay_line(rules: Rules, view: dict) -> Hand:
    """The line family's table rebuilt from the public history of ``view``:
    every play replayed on a Hand whose seats could hold any tile; draws and
    passes are noted (they change no end).  The own seat's mask is then set
    to the view's hand and ``turn``/``ended`` to the view's."""
    full = (1 << rules.n_tiles) - 1
    results = view.get("results") or []
    base = list(results[-1]["totals"]) if results and results[-1] else [0] * rules.n_sides
    opener = view.get("opener")
    rep = Hand(rules, [full] * rules.players, [], opener if isinstance(opener, int) else 0, None, base=base)
    for a in view["history"]:
        seat = a["seat"]
        if "play" in a:
            t = _tile_id(a["play"])
            end = a.get("end")
            e = OPEN if end is None else END_INDEX.get(end, -1)
            rep.turn = seat
            rep.hands[seat] = full
            fits = [m for m in rep.plays() if move_tile(m) == t and move_end(m) == e
                    and ("open" not in a or move_exposed(m) == a["open"])]
            if not fits:
                raise MirrorError(f"the history does not replay: {a!r}")
            rep.apply(fits[0])
            rep.ended = None     # a fives target reached mid-replay ends it below, from the view
        elif "draw" in a:
            drawn = a["draw"]
            rep.actions.append((seat, "d", _tile_id(drawn) if drawn is not None else -1))
        else:
            rep.actions.append((seat, "x"))
    me = view["seat"]
    rep.hands = [full] * rules.players
    rep.hands[me] = tiles.mask_of([_tile_id(x) for x in view["hand"]])
    if view.get("turn") is not None:
        rep.turn = view["turn"]
    res = view.get("result")
    rep.ended = res.get("end") if isinstance(res, dict) else None
    return rep


def _line_layout(h: Hand) -> dict:
    """The line family's layout of a Hand, as ``Match.layout`` writes it."""
    sp = None
    if h.spinner is not None:
        arm, i = h.spinner
        sp = {"arm": "C" if arm == CENTER else END_IDS[arm], "index": i}
    return {"center": tiles.NAMES[h.center] if h.center >= 0 else None, "spinner": sp,
            "arms": {END_IDS[e]: [{"tile": tiles.NAMES[t], "out": x} for t, x in h.arms[e]] for e in range(4)}}


class MirrorMatch:
    """A guest's read-only match, rebuilt from its seat view (see the module
    docstring).  ``MirrorMatch(view, resigned=None)``; :meth:`update` takes
    the host's next view in place, so a Controller can keep its reference."""

    def __init__(self, view: dict, resigned: dict | None = None):
        self.pending: dict | None = None
        self.update(view, resigned)

    # ----- state from the host -------------------------------------------
    def update(self, view: dict, resigned: dict | None = None) -> None:
        """Stand for ``view`` now (raises :class:`MirrorError` if it cannot:
        the mirror then still stands for the previous view).  The mirror
        keeps the ``view`` dict itself and never changes it (``view()`` hands
        out copies): do not change it afterwards either."""
        try:
            built = _build(view)
        except MirrorError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, RulesError,
                IllegalAction) as exc:
            raise MirrorError(f"not a seat view: {type(exc).__name__}: {str(exc)[:120]}") from None
        self._view, self.rules, self.hand, self.seats = built
        self.resigned = dict(resigned) if isinstance(resigned, dict) else None
        if self.pending is not None and self.pending.get("seq") != view["seq"]:
            self.pending = None

    @property
    def me(self) -> int:
        """The guest's own seat."""
        return self._view["seat"]

    @property
    def shape(self) -> str:
        return self.rules.shape

    @property
    def seq(self) -> int:
        return self._view["seq"]

    @property
    def phase(self) -> str:
        return self._view["phase"]

    @property
    def turn(self) -> int | None:
        return self._view["turn"] if self.phase == "play" else None

    @property
    def hand_no(self) -> int:
        return self._view["hand_no"]

    @property
    def outcome(self) -> dict | None:
        return self._view.get("outcome")

    @property
    def finished(self) -> bool:
        return self.phase == "match-over"

    @property
    def scores(self) -> list[int]:
        return list(self._view["scores"])

    @property
    def records(self) -> list[dict]:
        """One entry per hand so far, the public part only: ``result`` (the
        current hand's as the view has it, revealed hands included once it is
        over) and, for the current hand, ``actions``."""
        out: list[dict] = [{"result": copy_json(r)} for r in self._view.get("results") or []]
        out.append({"result": copy_json(self._view.get("result")), "actions": self.hand.actions})
        return out

    # ----- what the screens ask ------------------------------------------
    def view(self, seat: int) -> dict:
        """The own seat's view; for another seat, its public part (see the
        module docstring)."""
        v = copy_json(self._view)
        if seat == v["seat"]:
            return v
        me = v["seat"]
        v["seat"] = seat
        v["side"] = self.rules.side_of(seat) if isinstance(seat, int) and 0 <= seat < self.rules.players else None
        v["legal"] = []
        v["hand"] = []
        rows = (v.get("layout") or {}).get("rows") if self.rules.shape == "row" else None
        if rows and isinstance(seat, int) and 0 <= seat < len(rows):
            v["hand"] = [x["tile"] for x in rows[seat] if x.get("up") and x.get("tile")]
        v["history"] = [dict(a, draw=None) if a.get("seat") == me and a.get("draw") is not None else a
                        for a in v["history"]]
        return v

    def legal_actions(self) -> list[dict]:
        """The own seat's legal actions when it is to move (the view's)."""
        if self.phase != "play" or self.turn != self.me:
            return []
        return copy_json(self._view["legal"])

    def legal_moves(self) -> list[int]:
        return list(range(len(self.legal_actions())))

    def find_move(self, action: dict) -> int:
        """Check ``action`` against the legal actions; for the line family
        return its move on :attr:`hand` (what ``same_result`` applies to a
        clone), for other shapes its index in ``legal_actions()``.  Raises
        :class:`~domino.engine.common.IllegalAction` like ``Match.find_move``."""
        legal = self.legal_actions()
        if not isinstance(action, dict) or action not in legal:
            if self.phase != "play":
                raise IllegalAction("out-of-turn", "the hand is over: nobody is to move")
            if not isinstance(action, dict) or action.get("seat") != self.turn:
                raise IllegalAction("out-of-turn", f"it is seat {self.turn}'s turn")
            raise IllegalAction("no-match", f"not a legal action now: {action!r}")
        if not isinstance(self.hand, Hand):
            return legal.index(action)
        if "draw" in action:
            return -1
        if "pass" in action:
            return -2
        t = _tile_id(action["play"])
        end = action.get("end")
        e = OPEN if end is None else END_INDEX[end]
        if e == OPEN:
            return make_move(t, OPEN)
        for m in self.hand.plays():
            if move_tile(m) == t and move_end(m) == e and ("open" not in action or move_exposed(m) == action["open"]):
                return m
        raise IllegalAction("no-match", f"{action['play']} does not fit at {end}")

    # ----- the guest's decisions: kept, never applied here ---------------
    def apply(self, action: dict) -> list[dict]:
        """Keep ``action`` as the pending decision (with the seq it was taken
        at) and change nothing; the host's next view shows what happened."""
        self.pending = {"seq": self.seq, "action": copy_json(action)}
        return []

    def next_hand(self) -> None:
        """The "next hand" tap: pending, for the host to decide."""
        if self.phase != "hand-over":
            raise IllegalAction("bad-format", "the hand is still being played")
        self.pending = {"seq": self.seq, "next": True}

    def resign(self, seat: Any) -> None:
        self.apply({"seat": seat, "resign": True})

    def take_pending(self) -> dict | None:
        """The pending decision (then forgotten): ``{"seq", "action"}`` or
        ``{"seq", "next": True}``."""
        p, self.pending = self.pending, None
        return p


# ----------------------------------------------------------------- checking a view
def _need(ok: bool, what: str) -> None:
    if not ok:
        raise MirrorError(f"not a seat view: {what}")


def _is_int(x: Any, lo: int = 0, hi: int = 10**9) -> bool:
    return type(x) is int and lo <= x <= hi


def _ints(x: Any, n: int | None, lo: int = -10**9) -> bool:
    return type(x) is list and (n is None or len(x) == n) and all(_is_int(i, lo) for i in x)


def _tile(x: Any, rules: Rules) -> bool:
    if type(x) is not str:
        return False
    try:
        t = tiles.Tile.parse(x)
    except ValueError:
        return False
    return t.b <= rules.set and x == str(t)


def _seat(x: Any, rules: Rules) -> bool:
    return _is_int(x, 0, rules.players - 1)


def _placed(x: Any, rules: Rules) -> bool:
    """A list of placed tiles: ``[{tile, out}]``."""
    return type(x) is list and all(type(e) is dict and _tile(e.get("tile"), rules) and _is_int(e.get("out"), 0, 15)
                                   for e in x)


def _action_ok(a: Any, rules: Rules) -> bool:
    if type(a) is not dict or not _seat(a.get("seat"), rules):
        return False
    for k in ("play", "reject"):
        if k in a and not _tile(a[k], rules):
            return False
    for k in ("draw", "flip", "peek"):
        if k in a and a[k] is not None and not _tile(a[k], rules):
            return False
    return ("end" not in a or a["end"] is None or type(a["end"]) is str) and \
        ("open" not in a or _is_int(a["open"], 0, 15))


def _result_ok(r: Any, rules: Rules, hands: bool) -> bool:
    n, ns = rules.players, rules.n_sides
    if type(r) is not dict:
        return False
    ok = ((r.get("winner") is None or _seat(r.get("winner"), rules))
          and _ints(r.get("winners", []), None, 0) and _ints(r.get("counts"), n)
          and _ints(r.get("points"), ns) and _ints(r.get("totals"), ns)
          and (r.get("fives") is None or _ints(r.get("fives"), None))
          and (r.get("hand_points") is None or _ints(r.get("hand_points"), None))
          and (r.get("raw") is None or _is_int(r.get("raw"), -10**9))
          and (r.get("end") is None or type(r.get("end")) is str))
    if ok and hands:
        hs = r.get("hands")
        ok = type(hs) is list and len(hs) == n and all(type(h) is list and all(_tile(t, rules) for t in h)
                                                       for h in hs)
    return ok


_BRANCH = re.compile(r"foot:[0-9]{1,3}")


def _branch(x: Any) -> bool:
    """A Chicken Foot branch's id as the engine writes it (``foot:<n>``)."""
    return type(x) is str and _BRANCH.fullmatch(x) is not None


def _layout_ok(lay: Any, rules: Rules) -> bool:
    """The layout of a board shape other than the line family's."""
    if type(lay) is not dict:
        return False
    shape = rules.shape
    if shape == "trains":
        trains = lay.get("trains")
        return ((lay.get("engine") is None or _tile(lay.get("engine"), rules)) and type(trains) is list
                and all(type(x) is dict and type(x.get("id")) is str and _placed(x.get("tiles"), rules)
                        and (x.get("owner") is None or _seat(x.get("owner"), rules))
                        and (x.get("open") is None or _is_int(x.get("open"), 0, rules.set))
                        and type(x.get("public")) is bool for x in trains)
                and type(lay.get("open_doubles")) is list and all(type(x) is str for x in lay["open_doubles"])
                and (lay.get("again") is None or _seat(lay.get("again"), rules))
                and _is_int(lay.get("round_double"), 0, rules.set) and _is_int(lay.get("rounds"), 1, 99))
    if shape == "foot":
        br = lay.get("branches")
        return ((lay.get("center") is None or _tile(lay.get("center"), rules)) and type(br) is list
                and all(type(x) is dict and _branch(x.get("id")) and _placed(x.get("tiles"), rules)
                        and (x.get("parent") is None or _branch(x.get("parent")))
                        and (x.get("open") is None or _is_int(x.get("open"), 0, rules.set)) for x in br)
                and type(lay.get("must")) is list and all(_branch(x) for x in lay["must"])
                and _is_int(lay.get("round_double"), 0, rules.set) and _is_int(lay.get("rounds"), 1, 99))
    rows = lay.get("rows")
    arms = lay.get("arms")
    return ((lay.get("center") is None or _tile(lay.get("center"), rules)) and type(arms) is dict
            and all(_placed(arms.get(k), rules) for k in "WENS")
            and type(rows) is list and len(rows) == rules.players
            and all(type(r) is list and all(type(e) is dict and type(e.get("up")) is bool
                                            and (e.get("tile") is None or _tile(e.get("tile"), rules)) for e in r)
                    for r in rows)
            and lay.get("spinner") is None          # a row board never has one (domino.engine.row)
            and (lay.get("active") is None or _tile(lay.get("active"), rules))
            and (lay.get("peeked") is None or _tile(lay.get("peeked"), rules))
            and type(lay.get("out")) is list and all(_seat(x, rules) for x in lay["out"]))


def check_view(v: Any, rules: Rules) -> None:
    """Raise :class:`MirrorError` unless ``v`` is a seat view of ``rules``
    the table screens can draw: every field they read, of its type and in
    range (seats, sides, tiles of the set).  The line family's board is
    checked against its replay in :func:`_build`."""
    n, ns = rules.players, rules.n_sides
    _need(type(v) is dict, "an object")
    me = v.get("seat")
    _need(_seat(me, rules), f"no seat {me!r} at this table")
    _need(v.get("shape", "line") == rules.shape and v.get("players") == n, "shape and players")
    _need(v.get("sides") == rules.sides and v.get("side") == rules.side_of(me), "sides")
    for k in ("names", "kinds"):
        x = v.get(k)
        _need(type(x) is list and len(x) == n and all(type(s) is str and len(s) <= 64 for s in x), k)
    _need(_is_int(v.get("hand_no")) and _is_int(v.get("seq")), "hand_no and seq")
    _need(_ints(v.get("scores"), ns), "scores")
    phase = v.get("phase")
    _need(phase in ("play", "hand-over", "match-over"), f"phase {phase!r}")
    turn = v.get("turn")
    _need(_seat(turn, rules) if phase == "play" else turn is None, "turn")
    _need(v.get("opener") is None or _seat(v.get("opener"), rules), "opener")
    _need(type(v.get("hand")) is list and all(_tile(t, rules) for t in v["hand"]), "hand")
    _need(_ints(v.get("counts"), n, 0), "counts")
    _need(_is_int(v.get("boneyard")) and _is_int(v.get("undrawable", 0)), "boneyard")
    _need(type(v.get("ends")) is dict and all(type(k) is str and _is_int(x, 0, rules.set)
                                             for k, x in v["ends"].items()), "ends")
    _need(_is_int(v.get("ends_total"), 0) and _ints(v.get("fives"), ns, 0), "ends_total and fives")
    _need(v.get("last") is None or _tile(v.get("last"), rules), "last")
    hist = v.get("history")
    _need(type(hist) is list and all(_action_ok(a, rules) for a in hist), "history")
    legal = v.get("legal")
    _need(type(legal) is list and all(_action_ok(a, rules) and a["seat"] == me for a in legal), "legal")
    _need(not legal or (phase == "play" and turn == me), "legal actions while not to move")
    res = v.get("results")
    _need(type(res) is list and all(r is None or _result_ok(r, rules, False) for r in res), "results")
    _need(v.get("result") is None or (phase != "play" and _result_ok(v["result"], rules, True)), "result")
    out = v.get("outcome")
    _need(out is None or (type(out) is dict and (out.get("winner") is None or _is_int(out.get("winner"), 0, ns - 1))
                          and type(out.get("reason")) is str and _ints(out.get("scores"), ns)), "outcome")
    _need((out is not None) == (phase == "match-over"), "outcome and phase")
    if rules.shape != "line":
        _need(_layout_ok(v.get("layout"), rules), "layout")


def _build(view: Any) -> tuple[dict, Rules, Any, list[dict]]:
    if not isinstance(view, dict):
        raise MirrorError("a seat view is an object")
    v = view        # kept as is: the mirror never changes it, and view() hands out copies
    rules = view_rules(v)
    check_view(v, rules)
    me = v["seat"]
    if rules.shape == "line":
        hand = replay_line(rules, v)
        _need(_line_layout(hand) == v.get("layout"), "the layout is not what the history builds")
        _need(v["ends"] == {END_IDS[e]: hand.end_val[e] for e in hand.open}, "ends")
        _need(v["ends_total"] == hand.ends_total() and v["fives"] == hand.fives, "ends_total and fives")
    else:
        hand = PublicHand(v)
    seats = []
    for i, (name, kind) in enumerate(zip(v["names"], v["kinds"])):
        if i == me:
            kind = HUMAN
        elif kind in (HUMAN, REMOTE):
            kind = REMOTE
        seats.append({"name": str(name), "kind": str(kind)})
    return v, rules, hand, seats
