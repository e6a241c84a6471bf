"""One hand of a line-family game: the fast core state machine.

Moves are small ints so the random-play loop stays fast:
``tile << 7 | end << 4 | exposed`` for a play (``end`` is W/E/N/S or OPEN for
the opening tile, ``exposed`` the number the tile leaves open), or DRAW /
PASS.  ``moves()`` is never empty while the hand runs: a seat with no play
gets exactly ``[DRAW]`` or ``[PASS]``, which callers may apply automatically.
The public, validated API is :mod:`domino.engine.match`.
"""
from __future__ import annotations

from domino.engine.rules import Rules, compiled
from domino.engine.tiles import DOUBLE, HIGH, LOW, PIPS, ids, pip_sum

W, E, N, S, OPEN = 0, 1, 2, 3, 4
END_IDS = ("W", "E", "N", "S")
END_INDEX = {"W": W, "E": E, "N": N, "S": S}
DRAW = -1
PASS = -2
CENTER = 4


def move_tile(m: int) -> int:
    return m >> 7


def move_end(m: int) -> int:
    return (m >> 4) & 7


def move_exposed(m: int) -> int:
    return m & 15


def make_move(tile: int, end: int, exposed: int = 0) -> int:
    return (tile << 7) | (end << 4) | exposed


def round_points(raw: int, rounding: str) -> int:
    """RULES.md 3 / 7.1: nearest 5 (43 -> 45, 22 -> 20) or fifths (12 -> 2)."""
    if rounding == "nearest-5":
        return (raw + 2) // 5 * 5
    if rounding == "fifths":
        return (raw + 2) // 5
    return raw


class Hand:
    """Mutable state of one hand.  ``hands`` are tile bitmasks per seat."""

    __slots__ = ("r", "tab", "players", "hands", "bone", "bpos", "keep", "can_draw", "turn",
                 "opener", "forced", "center", "arms", "end_val", "end_dbl", "open", "spinner",
                 "spin_wait", "actions", "ended", "winner", "declined", "fives", "base", "matador",
                 "last")

    def __init__(self, rules: Rules, deal: list[int], boneyard: list[int], opener: int,
                 forced: int | None, base: list[int] | None = None):
        self.r = rules
        self.tab = compiled(rules)
        self.players = rules.players
        self.hands = list(deal)
        self.bone = list(boneyard)
        self.bpos = 0
        self.keep = 2 if rules.keep_last_two else 0
        self.can_draw = rules.boneyard == "draw"
        self.turn = opener
        self.opener = opener
        self.forced = forced
        self.center = -1
        self.arms: list[list[tuple[int, int]]] = [[], [], [], []]
        self.end_val = [-1, -1, -1, -1]
        self.end_dbl = [False, False, False, False]
        self.open: list[int] = []
        self.spinner: tuple[int, int] | None = None   # (arm or CENTER, index in arm)
        self.spin_wait = -1        # arm whose next tile opens N/S; CENTER: both line sides
        self.actions: list[tuple] = []   # (seat, "p", tile, end, exposed) | (seat, "d", tile) | (seat, "x")
        self.ended: str | None = None    # domino | blocked | target
        self.winner = -1                 # the seat that went out
        self.declined = -1               # matador: tile drawn after declining, this turn
        self.fives = [0] * rules.n_sides
        self.base = list(base) if base is not None else [0] * rules.n_sides
        self.matador = rules.joins == "matador"
        self.last = -1                   # last tile played

    # ----- queries --------------------------------------------------------
    def drawable(self) -> int:
        if not self.can_draw:
            return 0
        n = len(self.bone) - self.bpos - self.keep
        return n if n > 0 else 0

    def plays(self) -> list[int]:
        """Legal plays of the seat to move (no draw/pass)."""
        h = self.hands[self.turn]
        if self.center < 0:
            if self.forced is not None:
                return [self.forced << 7 | OPEN << 4]
            return [t << 7 | OPEN << 4 for t in ids(h)]
        acc = self.tab.accept
        out = []
        ev = self.end_val
        if not self.matador:
            for e in self.open:
                v = ev[e]
                m = h & acc[v]
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    out.append(t << 7 | e << 4 | (LOW[t] + HIGH[t] - v))
                    m ^= low
        else:
            k = self.tab.n + 1
            mats = self.tab.matadors
            for e in self.open:
                v = ev[e]
                m = h & acc[v]
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    a, b = LOW[t], HIGH[t]
                    if low & mats:
                        out.append(t << 7 | e << 4 | a)
                        if b != a:
                            out.append(t << 7 | e << 4 | b)
                    elif b + v == k:
                        out.append(t << 7 | e << 4 | a)
                    else:
                        out.append(t << 7 | e << 4 | b)
                    m ^= low
            if self.declined >= 0:
                mine = [x for x in out if x >> 7 == self.declined]
                if mine:
                    out = mine
        return out

    def moves(self) -> list[int]:
        if self.ended:
            return []
        out = self.plays()
        if not out:
            return [DRAW] if self.drawable() else [PASS]
        if (self.matador and self.declined < 0 and self.center >= 0 and self.drawable()
                and all((1 << (x >> 7)) & self.tab.matadors for x in out)):
            out.append(DRAW)   # RULES.md 3.8: decline the matadors and draw one
        return out

    def ends_total(self) -> int:
        """Sum of the open ends for fives scoring (RULES.md 3, the spinner)."""
        if self.center < 0:
            return 0
        arms = self.arms
        if not arms[W] and not arms[E]:
            return PIPS[self.center]
        ev, ed = self.end_val, self.end_dbl
        total = 0
        for e in (W, E):
            total += ev[e] * 2 if ed[e] else ev[e]
        for e in (N, S):
            if arms[e]:
                total += ev[e] * 2 if ed[e] else ev[e]
        return total

    def counts(self) -> list[int]:
        return [pip_sum(h) for h in self.hands]

    # ----- transitions ----------------------------------------------------
    def apply(self, m: int) -> None:
        seat = self.turn
        if m == DRAW:
            declining = self.matador and self.center >= 0 and bool(self.plays())
            t = self.bone[self.bpos]
            self.bpos += 1
            self.hands[seat] |= 1 << t
            self.actions.append((seat, "d", t))
            if declining:
                self.declined = t
            if self._blocked():
                self.ended = "blocked"
            return
        if m == PASS:
            self.actions.append((seat, "x"))
            self.turn = (seat + 1) % self.players
            return
        t = m >> 7
        e = (m >> 4) & 7
        x = m & 15
        self.hands[seat] &= ~(1 << t)
        self.actions.append((seat, "p", t, e, x))
        self.last = t
        r = self.r
        if e == OPEN:
            self.center = t
            self.end_val[W] = LOW[t]
            self.end_val[E] = HIGH[t]
            d = DOUBLE[t]
            self.end_dbl[W] = self.end_dbl[E] = d
            self.open = [W, E]
            if d and r.spinner != "off":
                self.spinner = (CENTER, 0)
                self.spin_wait = CENTER
        else:
            arm = self.arms[e]
            arm.append((t, x))
            self.end_val[e] = x
            self.end_dbl[e] = DOUBLE[t]
            sw = self.spin_wait
            if sw >= 0:
                if sw == CENTER:
                    if self.arms[W] and self.arms[E]:
                        self._open_arms()
                elif sw == e and len(arm) > self.spinner[1] + 1:
                    self._open_arms()
            elif (self.spinner is None and r.spinner == "first" and DOUBLE[t] and e < N):
                self.spinner = (e, len(arm) - 1)
                self.spin_wait = e
        self.declined = -1
        if r.fives != "off":
            total = self.ends_total()
            if total and total % 5 == 0:
                side = r.side_of(seat)
                self.fives[side] += total if r.fives == "total" else total // 5
                if self.base[side] + self.fives[side] >= r.target:
                    self.ended = "target"
                    self.winner = seat
                    return
        if not self.hands[seat]:
            self.ended = "domino"
            self.winner = seat
            return
        if self._blocked():
            self.ended = "blocked"
            return
        self.turn = (seat + 1) % self.players

    def _blocked(self) -> bool:
        """Nobody can play and nobody can draw."""
        if self.drawable() or self.center < 0:
            return False
        acc = self.tab.accept
        mask = 0
        for o in self.open:
            mask |= acc[self.end_val[o]]
        for h in self.hands:
            if h & mask:
                return False
        return True

    def _open_arms(self) -> None:
        arm, i = self.spinner
        t = self.center if arm == CENTER else self.arms[arm][i][0]
        v = LOW[t]
        self.end_val[N] = self.end_val[S] = v
        self.end_dbl[N] = self.end_dbl[S] = True
        self.open = [W, E, N, S]
        self.spin_wait = -1

    def advance(self) -> list[int]:
        """Apply forced draws and passes until the seat to move has a choice."""
        done = []
        while not self.ended:
            ms = self.moves()
            if len(ms) != 1 or ms[0] >= 0:
                break
            self.apply(ms[0])
            done.append(ms[0])
        return done

    def clone(self) -> "Hand":
        c = Hand.__new__(Hand)
        for k in Hand.__slots__:
            setattr(c, k, getattr(self, k))
        c.hands = list(self.hands)
        c.bone = self.bone          # never mutated
        c.arms = [list(a) for a in self.arms]
        c.end_val = list(self.end_val)
        c.end_dbl = list(self.end_dbl)
        c.open = list(self.open)
        c.actions = list(self.actions)
        c.fives = list(self.fives)
        return c

    # ----- end of hand ----------------------------------------------------
    def settle(self) -> dict:
        """Points of a finished hand per side, and how they were counted."""
        r = self.r
        counts = self.counts()
        sides = r.sides
        side_counts = [sum(counts[s] for s in side) for side in sides]
        ns = len(sides)
        end_points = [0] * ns
        winners: list[int] = []        # winning sides
        raw = 0
        if self.ended == "domino":
            winners = [r.side_of(self.winner)]
        elif self.ended == "blocked":
            low = min(side_counts)
            lows = [i for i in range(ns) if side_counts[i] == low]
            if r.points == "bad" or len(lows) == 1:
                winners = lows
            elif r.tie_break == "lowest-tile" and not r.partnership:
                winners = _lowest_tile(lows, self.hands)
        if self.ended in ("domino", "blocked") and r.points == "bad":
            for i in range(ns):
                if i not in winners or (self.ended == "blocked" and r.block_winner == "own"):
                    end_points[i] = side_counts[i]
        elif self.ended in ("domino", "blocked") and len(winners) == 1:
            w = winners[0]
            others = [side_counts[i] for i in range(ns) if i != w]
            if self.ended == "blocked" and r.blocked == "difference":
                raw = sum(c - side_counts[w] for c in others)
            else:
                raw = sum(others)
            if r.best_of_10:
                end_points[w] = 1
            else:
                end_points[w] = round_points(raw, r.rounding)
        points = [end_points[i] + self.fives[i] for i in range(ns)]
        # the seat that opens next when the winner does: who went out, else
        # the lowest count on the winning side
        lead = self.winner if self.ended in ("domino", "target") else -1
        if lead < 0 and len(winners) == 1:
            seats = sides[winners[0]]
            lead = min(seats, key=lambda s: (counts[s], s))
        return {
            "end": self.ended,
            "winner": lead if lead >= 0 else None,
            "winners": winners,
            "counts": counts,
            "raw": raw,
            "fives": list(self.fives),
            "hand_points": end_points,
            "points": points,
        }


def _lowest_tile(cands: list[int], hands: list[int]) -> list[int]:
    """Latin tie-break between individuals: the lowest single tile wins, then
    the next lowest; all equal: nobody."""
    keyed = {s: sorted(PIPS[t] for t in ids(hands[s])) for s in cands}
    best = min(keyed.values())
    won = [s for s in cands if keyed[s] == best]
    return won if len(won) == 1 else []
