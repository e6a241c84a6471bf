"""Mexican Train (RULES.md 4): one round on a table of trains.

Train ``i < players`` is seat i's own train; train ``players`` is the shared
Mexican train.  Every train starts at the engine (the round's double, set in
the middle; with ``holder_starts`` its holder plays it as the opening tile).
Moves are ints (``common.make_move``); a seat with no play gets exactly
``[DRAW]`` or ``[PASS]``.  A pass marks the seat's own train public; the
owner lifts the marker by playing on it.  A double gives its player another
play; with ``close_doubles`` an open (unsatisfied) double must be closed
before anybody plays elsewhere.
"""
from __future__ import annotations

from domino.engine import deals, tiles
from domino.engine.common import (DRAW, OPEN, PASS, Board, Core, IllegalAction,
                                  double_id, hand_rng, highest_held_double, other_half)
from domino.engine.rules import Rules

DOUBLE, LOW, SUIT = tiles.DOUBLE, tiles.LOW, tiles.SUIT


class Round(Core):
    __slots__ = ("r", "players", "hands", "bone", "bpos", "can_draw", "turn", "opener", "forced",
                 "engine", "trains", "end_val", "public", "open_dbl", "again", "chain", "drew",
                 "actions", "ended", "winner", "last", "mex", "close", "chains", "n_trains")
    LISTS = ('hands', 'end_val', 'public', 'open_dbl', 'actions')
    NESTED = ('trains',)

    def __init__(self, rules: Rules, deal: list[int], boneyard: list[int], opener: int,
                 engine: int, forced: int | None = None):
        p = rules.players
        self.r = rules
        self.players = p
        self.hands = list(deal)
        self.bone = list(boneyard)
        self.bpos = 0
        self.can_draw = rules.boneyard == "draw"
        self.turn = opener
        self.opener = opener
        self.forced = forced            # holder_starts: the double to open with
        self.engine = engine            # tile id, -1 until the opening play
        self.mex = p if rules.mexican_train else -1
        self.n_trains = p + 1 if rules.mexican_train else p
        self.trains: list[list[tuple[int, int]]] = [[] for _ in range(self.n_trains)]
        v = LOW[engine] if engine >= 0 else -1
        self.end_val = [v] * self.n_trains
        self.public = [False] * p + [True]
        self.open_dbl: list[int] = []   # trains ending in a double still to close
        self.again = -1                 # seat playing again after its double
        self.chain = 0                  # doubles played in this turn
        self.drew = False               # drew since its last play this turn
        self.actions: list[tuple] = []
        self.ended: str | None = None
        self.winner = -1
        self.last = -1
        self.close = rules.close_doubles
        self.chains = rules.double_chains

    # ----- queries --------------------------------------------------------
    def free_trains(self, s: int) -> list[int]:
        """Where seat s may play with no double to close: its own train, the
        Mexican train, the public trains."""
        out = [s]
        if self.mex >= 0:
            out.append(self.mex)
        pub = self.public
        out += [i for i in range(self.players) if i != s and pub[i]]
        return out

    def targets(self, s: int) -> list[int]:
        if self.close and self.open_dbl:
            return list(self.open_dbl)
        return self.free_trains(s)

    def plays(self) -> list[int]:
        s = self.turn
        h = self.hands[s]
        if self.engine < 0:
            return [self.forced << 10 | OPEN << 4 | LOW[self.forced]]
        out = []
        ev = self.end_val
        for i in self.targets(s):
            v = ev[i]
            m = h & SUIT[v]
            while m:
                low = m & -m
                t = low.bit_length() - 1
                out.append(t << 10 | i << 4 | other_half(t, v))
                m ^= low
        if self.chains and self.close and self.again == s and self.chain < 2:
            # double chains: a second double on another train, then close one
            for i in self.free_trains(s):
                if i in self.open_dbl:
                    continue
                v = ev[i]
                t = double_id(v)
                if (h >> t) & 1:
                    out.append(t << 10 | i << 4 | v)
        return out

    moves = Core.draw_one_moves

    # ----- transitions ----------------------------------------------------
    def apply(self, m: int) -> None:
        s = self.turn
        if m == DRAW:
            self.draw_one(s)
        elif m == PASS:
            self.actions.append((s, "x"))
            self.public[s] = True
            self._next()
        else:
            t = m >> 10
            i = (m >> 4) & 63
            x = m & 15
            self.hands[s] &= ~(1 << t)
            self.last = t
            self.drew = False
            self.actions.append((s, "p", t, i, x))
            if i == OPEN:
                self.engine = t
                self.end_val = [LOW[t]] * self.n_trains
                self._next()
            else:
                self.trains[i].append((t, x))
                self.end_val[i] = x
                if i == s:
                    self.public[s] = False     # the owner lifts its marker
                if DOUBLE[t]:
                    if self.close:
                        self.open_dbl.append(i)
                    self.again = s
                    self.chain += 1
                else:
                    if i in self.open_dbl:
                        self.open_dbl.remove(i)
                    self._next()
                if not self.hands[s]:
                    self.ended = "domino"
                    self.winner = s
                    return
        if self._blocked():
            self.ended = "blocked"

    def _next(self) -> None:
        self.again = -1
        self.chain = 0
        self.drew = False
        self.turn = (self.turn + 1) % self.players

    def _blocked(self) -> bool:
        """Nobody can play, even once every train is public, and nobody can draw."""
        if self.engine < 0 or self.drawable() or self.plays():
            return False
        ev = self.end_val
        ends = self.open_dbl if self.close and self.open_dbl else range(self.n_trains)
        mask = 0
        for i in ends:
            mask |= SUIT[ev[i]]
        return not any(h & mask for h in self.hands)

    def key(self) -> tuple:
        return (tuple(self.hands), tuple(self.bone), self.bpos, self.turn, self.engine,
                repr(self.trains), tuple(self.end_val), tuple(self.public), tuple(self.open_dbl),
                self.again, self.chain, self.drew, tuple(self.actions), self.ended)


# ------------------------------------------------------------------ the match side
class Trains(Board):
    shape = "trains"

    @staticmethod
    def end_name(match, e: int) -> str:
        return "train:mexican" if e == match.rules.players else f"train:{e}"

    @staticmethod
    def end_index(match, name) -> int | None:
        if not isinstance(name, str) or not name.startswith("train:"):
            return None
        rest = name[6:]
        if rest == "mexican":
            return match.rules.players if match.rules.mexican_train else None
        if rest.isdigit() and int(rest) < match.rules.players:
            return int(rest)
        return None

    def why_not(self, match, t: int, e: int) -> str:
        h = match.hand
        name = self.end_name(match, e)
        if h.close and h.open_dbl and e not in h.open_dbl:
            return f"the double on {self.end_name(match, h.open_dbl[0])} must be closed first"
        if e not in h.free_trains(h.turn) and e not in h.open_dbl:
            return f"{name} is not public"
        return f"{tiles.NAMES[t]} does not fit on {name}, which shows {h.end_val[e]}"

    # ----- rounds ---------------------------------------------------------
    @staticmethod
    def used_doubles(match) -> list[int]:
        return [rec["double"] for rec in match.records]

    @staticmethod
    def n_rounds(rules: Rules) -> int:
        return rules.first_double + 1

    def start(self, match, given: dict | None) -> None:
        """Deal round ``k`` (or take a record's deal) and start it."""
        r = match.rules
        k = len(match.records)
        p_ = r.players
        p = r.players
        used = self.used_doubles(match)
        pending = [v for v in range(r.first_double, -1, -1) if v not in used]
        redeals = given.get("redeals", 0) if given else 0
        while True:
            rng = hand_rng(match.seed, k, redeals)
            if r.holder_starts:
                pool = list(range(r.n_tiles))
                engine = -1
            else:
                v = pending[0]
                engine = double_id(v)
                pool = [t for t in range(r.n_tiles) if t != engine]
            rng.shuffle(list(pool))      # the generator a record kept before drew its opener from
            if given is None:
                deal, bone = deals.deal_from(match.deal_seed(k), redeals, r.n_tiles, [r.hand_size] * p,
                                             [engine] if engine >= 0 else ())
            else:
                deal, bone = given["deal"], given["boneyard"]
                if given.get("engine", -1) != engine:
                    want = tiles.NAMES[engine] if engine >= 0 else "none"
                    raise IllegalAction("bad-format", f"round {k}: the engine must be {want}")
                if len(deal) != p_ or any(len(h) != r.hand_size for h in deal):
                    raise IllegalAction("bad-format", f"round {k}: deal must give {p_} hands of {r.hand_size}")
                if sorted([t for h in deal for t in h] + bone) != sorted(pool):
                    raise IllegalAction("bad-format", f"round {k}: deal and boneyard must hold the set "
                                        "(but the engine) once each")
            forced = None
            if r.holder_starts:
                seat, v = highest_held_double(deal, pending[0], set(pending))
                if seat < 0:            # nobody holds a double still to use: deal again
                    if given is not None:
                        raise IllegalAction("bad-format", f"round {k}: nobody holds a double to open; redeal")
                    redeals += 1
                    continue
                forced = double_id(v)
            elif k == 0:                        # RULES.md 7.8, drawn from the deal's seed
                seat = deals.random_seat(match.deal_seed(k), redeals, p)
            else:
                seat = match.records[-1]["result"]["winner"]
            break
        if given is not None:
            if given.get("redeals", 0) != redeals:
                raise IllegalAction("bad-format", f"round {k}: wrong redeal count")
            if given.get("opener") not in (None, seat):
                if not (k == 0 and not r.holder_starts and given["opener"] == rng.randrange(p)):
                    raise IllegalAction("bad-format", f"round {k}: seat {given['opener']} cannot open; "
                                        f"the rules give seat {seat}")
                seat = given["opener"]      # a record kept before the random opener came from the deal's seed
        masks = [tiles.mask_of(h) for h in deal]
        match.hand = Round(r, masks, bone, seat, engine, forced)
        match.records.append({"redeals": redeals, "deal": [sorted(h) for h in deal],
                              "boneyard": list(bone), "opener": seat, "actions": match.hand.actions,
                              "result": None, "engine": engine,
                              "double": v if engine >= 0 else tiles.LOW[forced]})

    def match_over(self, match, res: dict):
        if len(match.records) >= self.n_rounds(match.rules):
            return "rounds"
        return None

    # ----- records --------------------------------------------------------
    @staticmethod
    def record_extra(rec: dict) -> dict:
        return {"engine": tiles.NAMES[rec["engine"]]} if rec["engine"] >= 0 else {}

    @staticmethod
    def read_extra(hrec: dict) -> dict:
        e = hrec.get("engine")
        if e is None:
            return {"engine": -1}
        try:
            return {"engine": tiles.Tile.parse(e).id}
        except ValueError as exc:
            raise IllegalAction("bad-format", f"engine: {exc}") from None

    # ----- view -----------------------------------------------------------
    def layout(self, match) -> dict:
        h = match.hand
        r = match.rules
        trains = []
        for i in range(h.n_trains):
            trains.append({
                "id": self.end_name(match, i),
                "owner": i if i < r.players else None,
                "tiles": [{"tile": tiles.NAMES[t], "out": x} for t, x in h.trains[i]],
                "open": h.end_val[i] if h.engine >= 0 else None,
                "public": h.public[i],
            })
        return {
            "engine": tiles.NAMES[h.engine] if h.engine >= 0 else None,
            "trains": trains,
            "open_doubles": [self.end_name(match, i) for i in h.open_dbl],
            "again": h.again if h.again >= 0 else None,
            "round_double": match.records[-1]["double"],
            "rounds": self.n_rounds(r),
        }

    def view(self, match, seat: int) -> dict:
        h = match.hand
        ends = {}
        if h.engine >= 0:
            ends = {self.end_name(match, i): h.end_val[i] for i in range(h.n_trains)}
        return {"layout": self.layout(match), "ends": ends}
