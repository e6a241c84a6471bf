"""Frijolito (RULES.md 6): one hand played from face-down rows.

Each seat's tiles lie face down in a row that nobody may look at.  A turn:
turn over the leftmost tile (FLIP); if it fits, play it and go on with the
next leftmost; if not, it goes to the right end of the row (face down, or a
double face up by choice, or everything face up with the ``face_up`` option)
and the turn ends.  A tile that fits both ends lets the player first turn over
the next tile (PEEK) before choosing.  The board is a plain line (W/E, no
spinner), drawn like the line family's.  Moves are ints: plays as
``common.make_move`` (end W=0, E=1, OPEN), ``FLIP``, ``PEEK``, ``REJECT``
(face down, forced when it is the only move) and ``REJECT_UP``.
"""
from __future__ import annotations

from domino.engine import deals, tiles
from domino.engine.common import (OPEN, PASS, Board, Core, IllegalAction, bad_points, hand_rng,
                                  other_half, parse_tile)
from domino.engine.rules import Rules

DOUBLE, LOW, HIGH, SUIT = tiles.DOUBLE, tiles.LOW, tiles.HIGH, tiles.SUIT
W, E = 0, 1
FLIP = 1 << 20
PEEK = FLIP + 1
REJECT = PASS          # to the right, face down
REJECT_UP = -3         # to the right, face up
ROW_SIZES = {2: 14, 3: 9, 4: 7}


class Round(Core):
    __slots__ = ("r", "players", "rows", "hands", "up", "known", "bone", "bpos", "can_draw", "turn",
                 "opener", "out", "center", "arms", "end_val", "peeked", "actions", "ended",
                 "winner", "last", "anywhere", "all_up")
    LISTS = ('hands', 'end_val', 'actions')
    NESTED = ('rows', 'arms')

    def __init__(self, rules: Rules, rows: list[list[int]], aside: list[int], opener: int,
                 out: frozenset = frozenset()):
        self.r = rules
        self.players = rules.players
        self.rows = [list(x) for x in rows]
        self.hands = [tiles.mask_of(x) for x in rows]
        self.up = 0            # tiles face up
        self.known = 0         # tiles turned over in public at some time
        self.bone = list(aside)
        self.bpos = 0
        self.can_draw = False
        self.turn = opener
        self.opener = opener
        self.out = out         # eliminated seats
        self.center = -1
        self.arms: list[list[tuple[int, int]]] = [[], []]
        self.end_val = [-1, -1]
        self.peeked = False
        self.actions: list[tuple] = []
        self.ended: str | None = None
        self.winner = -1
        self.last = -1
        self.anywhere = rules.doubles_anywhere
        self.all_up = rules.face_up

    # ----- queries --------------------------------------------------------
    def fits(self, t: int) -> list[int]:
        if self.center < 0:
            return [t << 10 | OPEN << 4 | HIGH[t]]
        out = []
        for e in (W, E):
            v = self.end_val[e]
            if LOW[t] == v or HIGH[t] == v:
                out.append(t << 10 | e << 4 | other_half(t, v))
        return out

    def moves(self) -> list[int]:
        if self.ended:
            return []
        row = self.rows[self.turn]
        up = self.up
        first = row[0]
        out: list[int] = []
        if (up >> first) & 1:
            own = self.fits(first)
            out += own
            if (len(own) == 2 and not self.peeked and len(row) > 1
                    and not (up >> row[1]) & 1):
                out.append(PEEK)
        else:
            out.append(FLIP)
        if self.anywhere and self.center >= 0:
            for t in row[1:]:
                if DOUBLE[t] and (up >> t) & 1:
                    out += self.fits(t)
        if not out:
            if self.all_up:
                return [REJECT_UP]
            out.append(REJECT)
            if DOUBLE[first]:
                out.append(REJECT_UP)
        elif (up >> first) & 1 and not any(m >> 10 == first for m in out if m >= 0 and m < FLIP):
            # the turned tile does not fit, but a face-up double elsewhere does
            out += [REJECT_UP] if self.all_up else ([REJECT, REJECT_UP] if DOUBLE[first] else [REJECT])
        return out

    # ----- transitions ----------------------------------------------------
    def apply(self, m: int) -> None:
        s = self.turn
        row = self.rows[s]
        if m == FLIP:
            t = row[0]
            self.up |= 1 << t
            self.known |= 1 << t
            self.actions.append((s, "f", t))
            return
        if m == PEEK:
            t = row[1]
            self.up |= 1 << t
            self.known |= 1 << t
            self.peeked = True
            self.actions.append((s, "k", t))
            return
        if m < 0:
            t = row.pop(0)
            row.append(t)
            face = m == REJECT_UP
            if not face:
                self.up &= ~(1 << t)
            self.peeked = False
            self.actions.append((s, "r", t, face))
            self._next()
            return
        t = m >> 10
        e = (m >> 4) & 63
        x = m & 15
        if row[0] == t or (self.peeked and len(row) > 1 and row[1] == t):
            # the turned tile, or the peeked one (a face-up double played from
            # where it lies): the tile now behind the turned one is unseen
            self.peeked = False
        row.remove(t)
        self.hands[s] &= ~(1 << t)
        self.up &= ~(1 << t)
        self.last = t
        self.actions.append((s, "p", t, e, x))
        if e == OPEN:
            self.center = t
            self.end_val = [LOW[t], HIGH[t]]
        else:
            self.arms[e].append((t, x))
            self.end_val[e] = x
        if not row:
            self.ended = "domino"
            self.winner = s
        elif self._blocked():
            self.ended = "blocked"

    def _next(self) -> None:
        t = self.turn
        while True:
            t = (t + 1) % self.players
            if t not in self.out:
                break
        self.turn = t

    def _blocked(self) -> bool:
        """No tile in any row fits an end."""
        mask = SUIT[self.end_val[W]] | SUIT[self.end_val[E]]
        return not any(h & mask for h in self.hands)

    def counts(self) -> list[int]:
        return [tiles.pip_sum(h) for h in self.hands]

    def settle(self) -> dict:
        active = [s for s in range(self.players) if s not in self.out]
        return bad_points(self.ended, self.winner, self.counts(), self.opener, active)

    def key(self) -> tuple:
        return (tuple(tuple(x) for x in self.rows), self.up, self.known, tuple(self.bone),
                self.turn, self.out, self.center, repr(self.arms), tuple(self.end_val),
                self.peeked, tuple(self.actions), self.ended)


# ------------------------------------------------------------------ the match side
class Row(Board):
    shape = "row"

    @staticmethod
    def end_name(match, e: int) -> str:
        return "WE"[e]

    @staticmethod
    def end_index(match, name) -> int | None:
        return {"W": W, "E": E}.get(name) if isinstance(name, str) else None

    @staticmethod
    def eliminated(match) -> frozenset:
        r = match.rules
        if not r.elimination:
            return frozenset()
        return frozenset(s for s in range(r.players) if match.scores[s] > r.target)

    def start(self, match, given: dict | None) -> None:
        r = match.rules
        k = len(match.records)
        out = self.eliminated(match)
        active = [s for s in range(r.players) if s not in out]
        size = ROW_SIZES[len(active)]
        sizes = [0 if s in out else size for s in range(r.players)]
        rng = hand_rng(match.seed, k, 0)
        pool = list(range(r.n_tiles))
        rng.shuffle(list(pool))      # the generator a record kept before drew its opener from
        if given is None:
            rows, aside = deals.deal_from(match.deal_seed(k), 0, r.n_tiles, sizes)
        else:
            rows, aside = given["deal"], given["boneyard"]
            if len(rows) != r.players or [len(x) for x in rows] != sizes:
                raise IllegalAction("bad-format", f"hand {k}: rows must hold {sizes} tiles")
            if sorted([t for x in rows for t in x] + aside) != pool:
                raise IllegalAction("bad-format", f"hand {k}: rows and the tiles set aside must hold the set once each")
        if k == 0:      # RULES.md 7.10, drawn from the deal's seed
            seat = active[deals.random_seat(match.deal_seed(k), 0, len(active))]
        else:
            seat = match.records[-1]["result"]["winner"]   # the lowest scorer
            while seat in out:
                seat = (seat + 1) % r.players
        if given is not None and k == 0 and given.get("opener") not in (None, seat) \
                and given["opener"] == active[rng.randrange(len(active))]:
            seat = given["opener"]      # a record kept before the random opener came from the deal's seed
        if given is not None and given.get("opener") not in (None, seat):
            raise IllegalAction("bad-format", f"hand {k}: seat {given['opener']} cannot open; the rules give seat {seat}")
        match.hand = Round(r, rows, aside, seat, out)
        match.records.append({"redeals": 0, "deal": [list(x) for x in rows], "boneyard": list(aside),
                              "opener": seat, "actions": match.hand.actions, "result": None})

    def match_over(self, match, res: dict):
        r = match.rules
        sc = match.scores
        past = [s for s in range(r.players) if sc[s] > r.target]
        if not past:
            return None
        if r.elimination:
            left = [s for s in range(r.players) if sc[s] <= r.target]
            if len(left) > 1:
                return None
            if len(left) == 1:
                return ("elimination", left[0])
            low = min(sc)
            return ("elimination", sc.index(low) if sc.count(low) == 1 else None)
        return "target"

    @staticmethod
    def record_extra(rec: dict) -> dict:
        return {}

    @staticmethod
    def read_extra(hrec: dict) -> dict:
        return {}

    # ----- actions --------------------------------------------------------
    def to_action(self, match, m: int, seat: int) -> dict:
        h = match.hand
        row = h.rows[seat]
        if m == FLIP:
            return {"seat": seat, "flip": tiles.NAMES[row[0]]}
        if m == PEEK:
            return {"seat": seat, "peek": tiles.NAMES[row[1]]}
        if m < 0:
            a = {"seat": seat, "reject": tiles.NAMES[row[0]]}
            if m == REJECT_UP:
                a["face_up"] = True
            return a
        return super().to_action(match, m, seat)

    def public_action(self, match, a: tuple, viewer: int | None) -> dict:
        seat, kind = a[0], a[1]
        if kind == "f":
            return {"seat": seat, "flip": tiles.NAMES[a[2]]}
        if kind == "k":
            return {"seat": seat, "peek": tiles.NAMES[a[2]]}
        if kind == "r":
            d = {"seat": seat, "reject": tiles.NAMES[a[2]]}
            if a[3]:
                d["face_up"] = True
            return d
        return super().public_action(match, a, viewer)

    def find_move(self, match, action: dict) -> int:
        h = match.hand
        seat = action["seat"]
        row = h.rows[seat]
        moves = h.moves()
        plays = [m for m in moves if 0 <= m < FLIP]
        first_up = (h.up >> row[0]) & 1
        for key, move, idx in (("flip", FLIP, 0), ("peek", PEEK, 1)):
            if key in action:
                if move not in moves:
                    why = ("the turned tile must be played or set aside first" if key == "flip"
                           else "turning over the next tile is only for a tile that fits both ends")
                    raise IllegalAction("no-match", why)
                want = action[key]
                if want is not None and parse_tile(want) != row[idx]:
                    raise IllegalAction("bad-format", f"the tile turned over is {tiles.NAMES[row[idx]]}, not {want}")
                return move
        if "reject" in action:
            rej = [m for m in moves if m < 0]
            if not rej:
                if not first_up:
                    raise IllegalAction("bad-format", "turn over the leftmost tile first")
                raise IllegalAction("pass-while-able", f"{tiles.NAMES[row[0]]} fits: it must be played")
            want = action["reject"]
            if want is not None and parse_tile(want) != row[0]:
                raise IllegalAction("bad-format", f"the turned tile is {tiles.NAMES[row[0]]}, not {want}")
            face = action.get("face_up") is True
            m = REJECT_UP if face else REJECT
            if m not in rej:
                raise IllegalAction("no-match", "only a double may be set aside face up" if face
                                    else "tiles are set aside face up in this game")
            return m
        if "play" in action:
            t = parse_tile(action["play"])
            if not (h.hands[seat] >> t) & 1:
                raise IllegalAction("not-in-hand", f"seat {seat} does not hold {tiles.NAMES[t]}")
            if not (h.up >> t) & 1:
                raise IllegalAction("not-in-hand", f"{tiles.NAMES[t]} has not been turned over")
            end = action.get("end")
            if h.center < 0:
                if end is not None:
                    raise IllegalAction("bad-format", "the opening tile has no end")
                for m in plays:
                    if m >> 10 == t:
                        return m
                raise IllegalAction("no-match", f"{tiles.NAMES[t]} cannot open")
            e = self.end_index(match, end)
            if e is None:
                raise IllegalAction("bad-format", f"end must be W or E, not {end!r}")
            for m in plays:
                if m >> 10 == t and (m >> 4) & 63 == e:
                    return m
            if t != row[0]:
                raise IllegalAction("no-match", f"only the leftmost tile may be played now, not {tiles.NAMES[t]}")
            raise IllegalAction("no-match", f"{tiles.NAMES[t]} does not fit at {end}, which shows {h.end_val[e]}")
        if "draw" in action:
            raise IllegalAction("bad-format", "nobody draws in Frijolito")
        if action.get("pass") is True:
            raise IllegalAction("pass-while-able", "a turn starts by turning over the leftmost tile")
        raise IllegalAction("bad-format", f"not an action: {action!r}")

    # ----- view -----------------------------------------------------------
    def view(self, match, seat: int) -> dict:
        h = match.hand
        up, known = h.up, h.known
        row0 = h.rows[h.turn] if not h.ended else []
        active = row0[0] if row0 and (up >> row0[0]) & 1 else -1
        peeked = row0[1] if h.peeked and len(row0) > 1 else -1
        layout = {
            "center": tiles.NAMES[h.center] if h.center >= 0 else None,
            "spinner": None,
            "arms": {"W": [{"tile": tiles.NAMES[t], "out": x} for t, x in h.arms[W]],
                     "E": [{"tile": tiles.NAMES[t], "out": x} for t, x in h.arms[E]], "N": [], "S": []},
            "rows": [[{"tile": tiles.NAMES[t] if (known >> t) & 1 else None, "up": bool((up >> t) & 1)}
                      for t in x] for x in h.rows],
            "active": tiles.NAMES[active] if active >= 0 else None,
            "peeked": tiles.NAMES[peeked] if peeked >= 0 else None,
            "out": sorted(h.out),
        }
        return {
            "layout": layout,
            "ends": {"W": h.end_val[W], "E": h.end_val[E]} if h.center >= 0 else {},
            "hand": [tiles.NAMES[t] for t in h.rows[seat] if (up >> t) & 1],
            "counts": [len(x) for x in h.rows],
        }
