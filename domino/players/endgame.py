"""The hard player's exact search of a two-seat Mexican Train round's end.

With two seats the unknown tiles are the rival's hand and a boneyard of about
four, so a deal sampled from the seat's knowledge is close to the truth, and
once few tiles are left the rest of the round can be searched to its end.
:class:`TrainsEndgame` does that on one sampled deal (the boneyard in the
sample's order): alpha-beta over every play, draw and pass, to the points the
round ends with, with a table of positions already valued.  Its moves follow
``domino.engine.trains.Round`` exactly (the tests walk both side by side);
it handles the rules' usual shapes -- doubles closed or not, with or without
the Mexican train and the boneyard -- but not double chains, where
:func:`supports` says no and hard keeps medium's choice.

A state is a tuple ``(hand0, hand1, ends, public, open, drew, drawn, turn)``:
``ends`` the trains' open numbers, ``public`` a bit per seat, ``open`` the
train whose double is still to close (-1), ``drawn`` the boneyard tiles taken.
"""
from __future__ import annotations

from domino.engine import tiles
from domino.engine.common import DRAW, PASS, other_half

DOUBLE, PIPS, SUIT = tiles.DOUBLE, tiles.PIPS, tiles.SUIT


class TooBig(Exception):
    """The search passed its node cap."""


def supports(h) -> bool:
    """Can :class:`TrainsEndgame` play on from this round core?"""
    return h.players == 2 and not h.chains and h.engine >= 0 and not h.ended


class TrainsEndgame:
    """Exact values of a two-seat round's positions for seat ``me``: the
    rival's points minus its own when the round ends, both playing their
    best with every tile known."""

    def __init__(self, h, me: int, cap: int):
        self.me = me
        self.bone = tuple(h.bone[h.bpos:]) if h.can_draw else ()
        self.close = h.close
        self.mex = h.mex
        self.trains = tuple(range(h.n_trains))
        self.cap = cap
        self.nodes = 0
        self.table: dict = {}

    def state(self, h) -> tuple:
        """The search's state of a round core (its boneyard as given)."""
        pub = (1 if h.public[0] else 0) | (2 if h.public[1] else 0)
        op = h.open_dbl[0] if self.close and h.open_dbl else -1
        return (h.hands[0], h.hands[1], tuple(h.end_val), pub, op, h.drew, 0, h.turn)

    def value(self, a: int, b: int) -> int:
        pa, pb = tiles.pip_sum(a), tiles.pip_sum(b)
        return pb - pa if self.me == 0 else pa - pb

    def _plays(self, hand: int, ev: tuple, pub: int, op: int, s: int):
        """(tile, train, number left) of every play seat s has."""
        if op >= 0:
            targets = (op,)
        else:
            targets = [s]
            if self.mex >= 0:
                targets.append(self.mex)
            if (pub >> (1 - s)) & 1:
                targets.append(1 - s)
        out = []
        for i in targets:
            v = ev[i]
            m = hand & SUIT[v]
            while m:
                low = m & -m
                m ^= low
                t = low.bit_length() - 1
                out.append((t, i, other_half(t, v)))
        return out

    def _after(self, a, b, ev, pub, op, drew, bp, turn):
        """The state after a move, or the round's value if it is blocked
        (as ``Round._blocked``: nothing to draw, the seat to move cannot
        play, and no hand fits any end that may take a tile)."""
        st = (a, b, ev, pub, op, drew, bp, turn)
        if bp < len(self.bone) or self._plays(b if turn else a, ev, pub, op, turn):
            return st, None
        ends = (op,) if op >= 0 else self.trains
        mask = 0
        for i in ends:
            mask |= SUIT[ev[i]]
        if a & mask or b & mask:
            return st, None
        return None, self.value(a, b)

    def children(self, st: tuple) -> list:
        """``(move, next state or None, value if the round ended)`` for every
        move of the seat to play, moves as the engine's ints."""
        a, b, ev, pub, op, drew, bp, s = st
        hand = b if s else a
        plays = self._plays(hand, ev, pub, op, s)
        out = []
        if plays:
            for t, i, x in plays:
                nh = hand & ~(1 << t)
                na, nb = (a, nh) if s else (nh, b)
                move = t << 10 | i << 4 | x
                if not nh:
                    out.append((move, None, self.value(na, nb)))
                    continue
                nev = ev[:i] + (x,) + ev[i + 1:]
                npub = pub & ~(1 << s) if i == s else pub
                if DOUBLE[t]:
                    nop, nturn = (i if self.close else op), s
                else:
                    nop, nturn = (-1 if i == op else op), 1 - s
                out.append((move,) + self._after(na, nb, nev, npub, nop, False, bp, nturn))
        elif bp < len(self.bone) and not drew:
            nh = hand | 1 << self.bone[bp]
            na, nb = (a, nh) if s else (nh, b)
            out.append((DRAW,) + self._after(na, nb, ev, pub, op, True, bp + 1, s))
        else:
            out.append((PASS,) + self._after(a, b, ev, pub | 1 << s, op, False, bp, 1 - s))
        return out

    def search(self, st: tuple, alpha: int = -10 ** 6, beta: int = 10 ** 6) -> int:
        """The value of ``st`` (exact when inside (alpha, beta), else a bound
        on the side it fell); raises :class:`TooBig` past the node cap."""
        table = self.table
        got = table.get(st)
        if got is not None:
            v, kind = got
            if kind == 0 or (kind > 0 and v >= beta) or (kind < 0 and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.cap:
            raise TooBig
        kids = self.children(st)
        maxing = st[7] == self.me
        if len(kids) > 1:
            # the heaviest tiles first: good moves usually shed pips
            kids.sort(key=lambda c: -PIPS[c[0] >> 10])
        a0, b0 = alpha, beta
        best = -10 ** 6 if maxing else 10 ** 6
        for _m, nxt, v in kids:
            if nxt is not None:
                v = self.search(nxt, alpha, beta)
            if maxing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
            elif v < best:
                best = v
                if v < beta:
                    beta = v
            if alpha >= beta:
                break
        table[st] = (best, 0 if a0 < best < b0 else (1 if best >= b0 else -1))
        return best

    def move_value(self, st: tuple, move: int) -> int:
        """The exact value of playing ``move`` from ``st``."""
        for m, nxt, v in self.children(st):
            if m == move:
                return v if nxt is None else self.search(nxt)
        raise ValueError(f"move {move} is not legal here")
