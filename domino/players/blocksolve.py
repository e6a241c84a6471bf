"""Exact search of a line game without draws, every hand known.

The games where a hand is won by going out, or by the fewest pips when
nobody can play -- no boneyard to draw from, no fives, no spinner, no
matadors (Block, Latin partnership, a Draw hand once its boneyard is
spent) -- have a small state once the hands
are known: the hands (tile masks), the two open numbers and the seat to
move.  :class:`BlockSolver` searches such a state to the end of the hand
with alpha-beta and a table of positions already valued, and gives who
wins: +1 when the searching seat's side wins, -1 when another side does,
0 for a blocked hand nobody wins.  Only the winner is valued, not the
points: a win-or-lose value makes the search prune far more than a
points one.

Seats outside the searching seat's side all play against it (one side
against the rest), so at two seats or in partnership the search is exact,
and with three or four individuals it is the cautious reading.
"""
from __future__ import annotations

from domino.engine import tiles

LOW, HIGH, PIPS, SUIT = tiles.LOW, tiles.HIGH, tiles.PIPS, tiles.SUIT


class TooBig(Exception):
    """The search passed its node cap."""


def supports(rules, drawable: int = 0) -> bool:
    """Can :class:`BlockSolver` play this game's hand to its end, with
    ``drawable`` tiles left to draw?  (A Draw hand whose boneyard is spent
    plays on as a Block hand.)"""
    return (drawable == 0 and rules.fives == "off" and rules.spinner == "off"
            and rules.joins != "matador" and rules.points != "bad")


class BlockSolver:
    """Who wins a hand from a position with every hand known, for ``me``'s side."""

    def __init__(self, rules, me: int, cap: int = 1 << 62):
        self.players = rules.players
        self.mine = [rules.side_of(s) == rules.side_of(me) for s in range(rules.players)]
        self.sides = [rules.side_of(s) for s in range(rules.players)]
        self.n_sides = rules.n_sides
        self.cap = cap
        self.nodes = 0
        self.table: dict = {}

    def blocked_value(self, hands) -> int:
        """Nobody can play: the side with the fewest pips wins; a tie, nobody."""
        sums = [0] * self.n_sides
        for s, h in enumerate(hands):
            sums[self.sides[s]] += tiles.pip_sum(h)
        low = min(sums)
        lows = [i for i in range(self.n_sides) if sums[i] == low]
        if len(lows) > 1:
            return 0
        w = lows[0]
        return 1 if any(self.mine[s] and self.sides[s] == w for s in range(self.players)) else -1

    def value(self, hands: list[int], left: int, right: int, turn: int,
              alpha: int | None = None, beta: int | None = None) -> int:
        """The value of the position (exact when inside (alpha, beta), else a
        bound on the side it fell); raises :class:`TooBig` past the node cap."""
        if alpha is None:
            alpha, beta = -1, 1
        if left > right:
            left, right = right, left
        key = (tuple(hands), left, right, turn)
        table = self.table
        got = table.get(key)
        if got is not None:
            v, kind = got
            if kind == 0 or (kind > 0 and v >= beta) or (kind < 0 and v <= alpha):
                return v
        self.nodes += 1
        if self.nodes > self.cap:
            raise TooBig
        hand = hands[turn]
        ends = SUIT[left] | SUIT[right]
        playable = hand & ends
        nxt = (turn + 1) % self.players
        if not playable:
            union = 0
            for h in hands:
                union |= h
            if not union & ends:
                v = self.blocked_value(hands)
            else:
                v = self.value(hands, left, right, nxt, alpha, beta)
            table[key] = (v, 0 if alpha < v < beta else (1 if v >= beta else -1))
            return v
        maxing = self.mine[turn]
        # going out ends it: the best there is for the seat to move
        if playable & (playable - 1) == 0 and playable == hand:
            v = 1 if maxing else -1
            table[key] = (v, 0)
            return v
        kids = []
        m = playable
        while m:
            low = m & -m
            m ^= low
            t = low.bit_length() - 1
            a, b = LOW[t], HIGH[t]
            if a == left or b == left:
                kids.append((t, a + b - left, right))
            if right != left and (a == right or b == right):
                kids.append((t, left, a + b - right))
        # heavy tiles first: shedding pips is usually good
        kids.sort(key=lambda k: -PIPS[k[0]])
        a0, b0 = alpha, beta
        best = -2 if maxing else 2
        for t, l2, r2 in kids:
            child = list(hands)
            child[turn] = hand & ~(1 << t)
            v = self.value(child, l2, r2, nxt, alpha, beta)
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
        table[key] = (best, 0 if a0 < best < b0 else (1 if best >= b0 else -1))
        return best
