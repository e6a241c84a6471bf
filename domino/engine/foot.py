"""Chicken Foot (RULES.md 5): one round on a board of branches.

The round opens with its double in the centre; its six toes (branches
``foot:0`` .. ``foot:5``) must be filled before anything else.  A double
played later at a branch's end closes that branch and grows three toes
(``foot:k`` .. ``foot:k+2``) which must be filled next.  A seat that cannot
play draws ONE tile; if it still cannot play, it passes.  Bad points, 0-0
counts 50.  Moves are ints (``common.make_move``).
"""
from __future__ import annotations

from domino.engine import deals, tiles
from domino.engine.common import (DRAW, OPEN, PASS, Board, Core, IllegalAction,
                                  double_id, highest_held_double, other_half)
from domino.engine.rules import Rules

DOUBLE, LOW, SUIT, PIPS = tiles.DOUBLE, tiles.LOW, tiles.SUIT, tiles.PIPS
ZERO = double_id(0)
TOES_CENTER = 6
TOES = 3


def weigh(mask: int) -> int:
    """A hand's bad points: its pips, 0-0 counting 50."""
    return tiles.pip_sum(mask) + (50 if (mask >> ZERO) & 1 else 0)


class Round(Core):
    __slots__ = ("r", "players", "hands", "bone", "bpos", "can_draw", "turn", "opener", "forced",
                 "center", "tiles", "parent", "end_val", "must", "drew", "actions", "ended",
                 "winner", "last")
    LISTS = ('hands', 'parent', 'end_val', 'must', 'actions')
    NESTED = ('tiles',)

    def __init__(self, rules: Rules, deal: list[int], boneyard: list[int], opener: int, forced: int):
        self.r = rules
        self.players = rules.players
        self.hands = list(deal)
        self.bone = list(boneyard)
        self.bpos = 0
        self.can_draw = True
        self.turn = opener
        self.opener = opener
        self.forced = forced           # the round's double, opening
        self.center = -1
        self.tiles: list[list[tuple[int, int]]] = []   # per branch
        self.parent: list[int] = []                     # -1: the centre
        self.end_val: list[int] = []                    # -1: closed by a double with toes
        self.must: list[int] = []                       # empty toes to fill first
        self.drew = False
        self.actions: list[tuple] = []
        self.ended: str | None = None
        self.winner = -1
        self.last = -1

    def _grow(self, parent: int, v: int, n: int) -> None:
        for _ in range(n):
            self.must.append(len(self.tiles))
            self.tiles.append([])
            self.parent.append(parent)
            self.end_val.append(v)

    def open_ends(self) -> list[int]:
        """Where a tile may go now: the first empty toe, else every open branch."""
        if self.must:
            return [self.must[0]]
        ev = self.end_val
        return [b for b in range(len(ev)) if ev[b] >= 0]

    def plays(self) -> list[int]:
        h = self.hands[self.turn]
        if self.center < 0:
            return [self.forced << 10 | OPEN << 4 | LOW[self.forced]]
        out = []
        ev = self.end_val
        for b in self.open_ends():
            v = ev[b]
            m = h & SUIT[v]
            while m:
                low = m & -m
                t = low.bit_length() - 1
                out.append(t << 10 | b << 4 | other_half(t, v))
                m ^= low
        return out

    moves = Core.draw_one_moves

    def apply(self, m: int) -> None:
        s = self.turn
        if m == DRAW:
            self.draw_one(s)
        elif m == PASS:
            self.actions.append((s, "x"))
            self._next()
        else:
            t = m >> 10
            b = (m >> 4) & 63
            x = m & 15
            self.hands[s] &= ~(1 << t)
            self.last = t
            self.actions.append((s, "p", t, b, x))
            if b == OPEN:
                self.center = t
                self._grow(-1, LOW[t], TOES_CENTER)
            else:
                self.tiles[b].append((t, x))
                if self.must and self.must[0] == b:
                    self.must.pop(0)
                if DOUBLE[t]:
                    self.end_val[b] = -1          # the double grows its foot
                    self._grow(b, x, TOES)
                else:
                    self.end_val[b] = x
            if not self.hands[s]:
                self.ended = "domino"
                self.winner = s
                return
            self._next()
        if self._blocked():
            self.ended = "blocked"

    def _next(self) -> None:
        self.drew = False
        self.turn = (self.turn + 1) % self.players

    def _blocked(self) -> bool:
        if self.center < 0 or self.drawable():
            return False
        mask = 0
        for b in self.open_ends():
            mask |= SUIT[self.end_val[b]]
        return not any(h & mask for h in self.hands)

    def counts(self) -> list[int]:
        return [weigh(h) for h in self.hands]

    def key(self) -> tuple:
        return (tuple(self.hands), tuple(self.bone), self.bpos, self.turn, self.center,
                repr(self.tiles), tuple(self.parent), tuple(self.end_val), tuple(self.must),
                self.drew, tuple(self.actions), self.ended)


# ------------------------------------------------------------------ the match side
class Foot(Board):
    shape = "foot"

    @staticmethod
    def end_name(match, e: int) -> str:
        return f"foot:{e}"

    @staticmethod
    def end_index(match, name) -> int | None:
        if isinstance(name, str) and name.startswith("foot:") and name[5:].isdigit():
            b = int(name[5:])
            if b < len(match.hand.tiles):
                return b
        return None

    def why_not(self, match, t: int, e: int) -> str:
        h = match.hand
        if h.must and e != h.must[0]:
            return f"the foot must be filled first: play on foot:{h.must[0]}"
        if h.end_val[e] < 0:
            return f"foot:{e} is closed: its double grew toes"
        return f"{tiles.NAMES[t]} does not fit on foot:{e}, which shows {h.end_val[e]}"

    @staticmethod
    def n_rounds(rules: Rules) -> int:
        return rules.first_double + 1

    def start(self, match, given: dict | None) -> None:
        r = match.rules
        k = len(match.records)
        p_ = r.players
        wanted = r.first_double if k == 0 else match.records[-1]["double"] - 1
        redeals = given.get("redeals", 0) if given else 0
        pool = list(range(r.n_tiles))
        while True:
            if given is None:
                deal, bone = deals.deal_from(match.deal_seed(k), redeals, r.n_tiles, [r.hand_size] * r.players)
            else:
                deal, bone = given["deal"], given["boneyard"]
                if len(deal) != p_ or any(len(h) != r.hand_size for h in deal):
                    raise IllegalAction("bad-format", f"round {k}: deal must give {p_} hands of {r.hand_size}")
                if sorted([t for h in deal for t in h] + bone) != pool:
                    raise IllegalAction("bad-format", f"round {k}: deal and boneyard must hold the set once each")
            # RULES.md 5 / 7.9: the next lower double; nobody holds it: the next lower held
            seat, v = highest_held_double(deal, wanted)
            if seat < 0:
                if given is not None:
                    raise IllegalAction("bad-format", f"round {k}: nobody holds a double to open; redeal")
                redeals += 1
                continue
            break
        if given is not None:
            if given.get("redeals", 0) != redeals:
                raise IllegalAction("bad-format", f"round {k}: wrong redeal count")
            if given.get("opener") not in (None, seat):
                raise IllegalAction("bad-format", f"round {k}: seat {given['opener']} cannot open; the rules give seat {seat}")
        match.hand = Round(r, [tiles.mask_of(h) for h in deal], bone, seat, double_id(v))
        match.records.append({"redeals": redeals, "deal": [sorted(h) for h in deal],
                              "boneyard": list(bone), "opener": seat, "actions": match.hand.actions,
                              "result": None, "double": v})

    def match_over(self, match, res: dict):
        return "rounds" if match.records[-1]["double"] == 0 else None

    @staticmethod
    def record_extra(rec: dict) -> dict:
        return {}

    @staticmethod
    def read_extra(hrec: dict) -> dict:
        return {}

    def layout(self, match) -> dict:
        h = match.hand
        return {
            "center": tiles.NAMES[h.center] if h.center >= 0 else None,
            "branches": [{"id": f"foot:{b}", "parent": None if h.parent[b] < 0 else f"foot:{h.parent[b]}",
                          "tiles": [{"tile": tiles.NAMES[t], "out": x} for t, x in h.tiles[b]],
                          "open": h.end_val[b] if h.end_val[b] >= 0 else None}
                         for b in range(len(h.tiles))],
            "must": [f"foot:{b}" for b in h.must],
            "round_double": match.records[-1]["double"],
            "rounds": self.n_rounds(match.rules),
        }

    def view(self, match, seat: int) -> dict:
        h = match.hand
        return {"layout": self.layout(match),
                "ends": {f"foot:{b}": h.end_val[b] for b in range(len(h.end_val)) if h.end_val[b] >= 0}}
