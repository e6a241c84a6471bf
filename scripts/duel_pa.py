#!/usr/bin/env python3
"""Duel: our computer levels against abw333/dominoes' probabilistic alpha-beta ("pa").

A benchmark, not a test (issue 43).  The game is abw333's: four players in two
partnerships (0+2 against 1+3), double-six, seven tiles each, no boneyard, pass
when you cannot play -- our ``block`` preset at four players with partnership.
Our engine is the referee: it deals (from ``--seed``), says who may play what,
and settles the hand; abw333's scoring is checked against it on every hand
(the hand is replayed in a ``dominoes.Game`` with the true hands) and any
disagreement is reported.

Each seat of the ``pa`` pair gets only what its seat may know: the adapter
turns our ``Match.view(seat)`` into a plain description (``describe``: its
tiles, the other hands' sizes, the moves and passes seen, the board's ends),
then into a ``dominoes.Game`` (``to_game``) whose other hands are just the
unseen tiles dealt out in order -- ``pa`` only uses them as the pool it
resamples from (``Game.random_possible_hands``), which is public knowledge.
``pa``'s move is mapped back onto one of the view's legal actions.

Duplicate deals: every deal is played twice, our pair on seats 0+2 and then
on 1+3.  A hand is won by the side our engine's result names (a side goes
out, or when blocked the side with fewer pips); a blocked tie counts half.
The interval is Wilson's on hands (it ignores the pairing, so it is on the
wide side).  CPU is ``time.process_time`` per decision with more than one
legal move.

    python scripts/duel_pa.py [--deals 300] [--seed 0] [--first 0] [--levels hard,medium] [--json FILE]
                              [--hard-budget N] [--hard-max-samples N]   # hard's search (defaults unchanged)
    python scripts/duel_pa.py --levels oracle ...   # the ceiling: a pair that sees every hand
    python scripts/duel_pa.py --sampler uniform ...  # hard dealing its samples uniformly (a lever measured)
    python scripts/duel_pa.py --set RP_SHUT=6 ...   # a lever: hard's constants set otherwise (scripts/screen_hard.py)
    python scripts/duel_pa.py --compare A.json B.json   # two duels on the same deals, deal by deal
    python scripts/duel_pa.py --openspiel [--os-deals 100]   # OpenSpiel's Block, 2 players

``--levels oracle`` is no player of ours: a pair that sees every hand and
plays the exact solver's best (``Oracle``), the measure of how many hands the
deal decides whatever the play -- the ceiling for an honest pair against ``pa``.

``--openspiel`` measures, instead: our hard against OpenSpiel's ISMCTS bot in
OpenSpiel's two-player ``python_block_dominoes`` (its own adapter: the deal
and the opener come from our engine, every move is applied to both games and
both must agree on the winner -- they do not when one player goes out while the
other holds only the 0-0: OpenSpiel compares pips left, a draw there), and hard
against medium in two-player Draw
with our engine alone (``domino.players.arena``).

Needs ``requirements-bench.txt`` (``dominoes``; ``open_spiel`` for
``--openspiel``); installs nothing itself.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from domino.engine import tiles  # noqa: E402
from domino.engine.line import E, W  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import make_rules  # noqa: E402
from domino.players import get_player, line, search  # noqa: E402
from domino.players.blocksolve import BlockSolver  # noqa: E402
from domino.players.line import LineSearch, action_move, knowledge, medium_scores  # noqa: E402
from domino.players.search import HARD_BUDGET, HARD_MAX_SAMPLES, sample_deal, uniform_deal  # noqa: E402

#: ``--sampler``: how hard deals the hidden tiles of each of its samples
SAMPLERS = {"greedy": staticmethod(sample_deal), "uniform": staticmethod(uniform_deal)}

TOP = 6   # double-six
ALL_TILES = [(a, b) for a in range(TOP + 1) for b in range(a, TOP + 1)]


# ---------------------------------------------------------------------------
# statistics

def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's score interval for k successes out of n (k may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def cpu_stats(xs: list[float]) -> dict:
    """Mean and p95 (nearest rank) of CPU seconds per decision."""
    if not xs:
        return {"decisions": 0, "mean": 0.0, "p95": 0.0}
    s = sorted(xs)
    return {"decisions": len(s), "mean": sum(s) / len(s), "p95": s[min(len(s) - 1, math.ceil(0.95 * len(s)) - 1)]}


# ---------------------------------------------------------------------------
# levers: hard's constants set otherwise for one pair (also scripts/screen_hard.py)

#: where a lever's names live
MODULES = (line, search)


def parse_sets(items: list[str]) -> dict:
    """``NAME=VALUE`` strings -> {name: value}; every name must be a constant
    the hard player already has (a typo would screen today's hard against itself)."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set wants NAME=VALUE, got {item!r}")
        if not any(hasattr(mod, name) for mod in MODULES):
            raise ValueError(f"no constant {name!r} in " + ", ".join(m.__name__ for m in MODULES))
        out[name] = json.loads(value)
    return out


class Lever:
    """A chooser that plays hard with some constants set otherwise, and puts
    them back after every move (the other pair plays today's hard in the same
    process)."""

    def __init__(self, sets: dict, base=None):
        self.sets = sets
        self.base = base or get_player("hard")

    def _swap(self, values: dict) -> dict:
        old = {}
        for name, v in values.items():
            for mod in MODULES:
                if hasattr(mod, name):
                    old[name] = getattr(mod, name)
                    setattr(mod, name, v)
                    break
        return old

    def __call__(self, view: dict, rng):
        old = self._swap(self.sets)
        try:
            return self.base(view, rng)
        finally:
            self._swap(old)



# ---------------------------------------------------------------------------
# the adapter, part 1: our seat view -> a plain description (no dominoes needed)

def parse_tile(name: str) -> tuple[int, int]:
    a, b = name.split("-")
    a, b = int(a), int(b)
    return (a, b) if a <= b else (b, a)


def tile_name(t: tuple[int, int]) -> str:
    a, b = sorted(t)
    return f"{a}-{b}"


def _replay_ends(moves: list, flip: bool):
    """Walk the moves: the ends (left, right) and, per pass, the ends it missed.
    ``flip``: the opening tile lies high-left instead of low-left."""
    ends = None
    missed: dict[int, set] = {}
    oriented = []
    for seat, tile, left in moves:
        if tile is None:
            if ends is not None:
                missed.setdefault(seat, set()).update(ends)
            oriented.append((seat, None, None))
            continue
        a, b = tile
        if ends is None:
            t = (b, a) if flip else (a, b)
            ends = t
            oriented.append((seat, t, True))
            continue
        l, r = ends
        end = l if left else r
        if end not in (a, b):
            return None
        new = b if a == end else a       # the tile's other half is the new open end
        ends, t = ((new, r), (new, l)) if left else ((l, new), (r, new))
        oriented.append((seat, t, left))
    return ends, missed, oriented


def describe(view: dict) -> dict:
    """What the seat knows, as plain data: its tiles, the other seats' tile
    counts, the unseen tiles, every move (``(seat, (a, b), left)`` with the tile
    oriented as it lies, left = our end W; a pass is ``(seat, None, None)``),
    the board's ends (left, right) or None, and per seat the values it passed on."""
    seat = view["seat"]
    hand = sorted(parse_tile(t) for t in view["hand"])
    moves = []
    played = set()
    for a in view["history"]:
        if a.get("play"):
            t = parse_tile(a["play"])
            played.add(t)
            moves.append((a["seat"], t, a.get("end", "W") != "E"))
        elif a.get("pass"):
            moves.append((a["seat"], None, None))
        else:
            raise ValueError(f"not a block-game action: {a!r}")
    want = None
    if view.get("ends"):
        want = (view["ends"].get("W"), view["ends"].get("E"))
    walk = _replay_ends(moves, False)
    if walk is None or (want is not None and walk[0] != want):
        walk = _replay_ends(moves, True)
    if walk is None or (want is not None and walk[0] != want):
        raise ValueError(f"the moves do not lead to the ends {want}")
    ends, missed, oriented = walk
    unseen = sorted(set(ALL_TILES) - set(hand) - played)
    counts = list(view["counts"])
    assert sum(c for s, c in enumerate(counts) if s != seat) == len(unseen), "counts and unseen tiles disagree"
    return {
        "seat": seat,
        "turn": view["turn"],
        "opener": view["opener"],
        "hand": hand,
        "counts": counts,
        "unseen": unseen,
        "moves": oriented,
        "ends": ends,
        "passed_on": {s: sorted(v) for s, v in sorted(missed.items())},
    }


def action_for(view: dict, tile: tuple[int, int], left: bool) -> dict:
    """The legal action of the view that plays ``tile`` at the left (W) or right (E) end."""
    name = tile_name(tile)
    fits = [a for a in view["legal"] if a.get("play") == name]
    if not fits:
        raise ValueError(f"{name} is not a legal play here: {view['legal']}")
    want = "W" if left else "E"
    for a in fits:
        if a.get("end", want) == want:
            return a
    return fits[0]   # both ends show the same value: either is the same move


# ---------------------------------------------------------------------------
# the adapter, part 2: description -> dominoes.Game, and pa as one of our choosers

def to_game(desc: dict, dominoes):
    """A ``dominoes.Game`` from the seat's description (other hands: the unseen
    tiles dealt out in order; only their pool and sizes mean anything)."""
    seat = desc["seat"]
    pool = iter(desc["unseen"])
    hands = []
    for s, c in enumerate(desc["counts"]):
        if s == seat:
            hands.append(dominoes.Hand([dominoes.Domino(a, b) for a, b in desc["hand"]]))
        else:
            hands.append(dominoes.Hand([dominoes.Domino(*next(pool)) for _ in range(c)]))
    board = dominoes.SkinnyBoard()
    moves = []
    for _s, t, left in desc["moves"]:
        if t is None:
            moves.append(None)
        else:
            d = dominoes.Domino(*t)
            board.add(d, left)
            moves.append((d, left))
    game = dominoes.Game(board, hands, moves, desc["turn"], (), desc["opener"], None)
    if len(board):
        game._update_valid_moves()
    else:
        game.valid_moves = tuple((d, True) for d in hands[seat])
    return game


class PaChooser:
    """abw333's player as ``choose(view, rng) -> action``."""

    def __init__(self, dominoes, samples: int | None, start_move: int = 0):
        self.dominoes = dominoes
        size = float("inf") if not samples else samples
        self.player = dominoes.players.probabilistic_alphabeta(start_move=start_move, sample_size=size)

    def __call__(self, view: dict, rng: random.Random) -> dict:
        legal = view["legal"]
        if len(legal) == 1:
            return legal[0]
        game = to_game(describe(view), self.dominoes)
        ours = {a["play"] for a in legal}
        theirs = {tile_name((d.first, d.second)) for d, _ in game.valid_moves}
        if ours != theirs:
            raise AssertionError(f"legal plays differ: ours {sorted(ours)}, abw333's {sorted(theirs)}")
        state = random.getstate()
        random.seed(rng.getrandbits(64))    # pa samples with the module's generator
        try:
            self.player(game)
        finally:
            random.setstate(state)
        d, left = game.valid_moves[0]
        return action_for(view, (d.first, d.second), left)


def abw333_winner(deal: list[list], opener: int, final_view: dict, dominoes):
    """Replay the finished hand in a ``dominoes.Game`` with the true hands;
    return (winning side or None for a tie, problem or None)."""
    desc = describe(final_view)
    hands = [dominoes.Hand([dominoes.Domino(*parse_tile(t if isinstance(t, str) else tiles.NAMES[t]))
                            for t in h]) for h in deal]
    game = dominoes.Game(dominoes.SkinnyBoard(), hands, [], opener, (), opener, None)
    for s, t, left in desc["moves"]:
        if t is None:
            continue                      # abw333 passes by itself
        if game.result is not None:
            return None, "abw333's game ended early"
        if game.turn != s:
            return None, f"abw333 has seat {game.turn} to play, ours seat {s}"
        game.make_move(dominoes.Domino(*t), left)
    r = game.result
    if r is None:
        return None, "abw333's game is not over"
    if r.won:
        return r.player % 2, None
    return (0 if r.points > 0 else 1 if r.points < 0 else None), None


# ---------------------------------------------------------------------------
# a ceiling: the pair that sees every hand

class Oracle:
    """Not a player: the measure of how much of the hand is decided by the
    deal.  It sees every hand (the referee's :class:`Hand`, ``sees_all``) and
    plays the move the exact solver (:class:`~domino.players.blocksolve.BlockSolver`)
    values best for its side, all four seats playing their best from there;
    among moves of the same value (+1 won, 0 tied, -1 lost) medium's choice.
    What it wins against ``pa`` is about what no honest player can beat."""

    sees_all = True

    def __init__(self):
        self.value = None    # the last choice's value for the oracle's side

    def __call__(self, view: dict, rng: random.Random, hand) -> dict:
        legal = view["legal"]
        if len(legal) == 1:
            return legal[0]
        k = knowledge(view)
        solver = BlockSolver(k.rules, k.me)
        best = None
        for score, action, _ in medium_scores(k, legal):
            h = hand.clone()
            h.apply(action_move(k, action))
            if h.ended:
                won = h.settle()["winners"]
                v = 0 if len(won) != 1 else (1 if won[0] == k.side else -1)
            else:
                v = solver.value(list(h.hands), h.end_val[W], h.end_val[E], h.turn)
            if best is None or (v, score) > best[0]:
                best = ((v, score), action)
        self.value = best[0][0]
        return best[1]


# ---------------------------------------------------------------------------
# the duel

def play_hand(rules, seed, kinds: list[str], choosers: dict, cpu: dict) -> Match:
    m = Match(rules, seed=seed, seats=[{"name": f"{k} {i}", "kind": "human"} for i, k in enumerate(kinds)])
    while m.phase == "play":
        seat = m.turn
        view = m.view(seat)
        rng = m.player_rng(seat)
        chooser = choosers[kinds[seat]]
        t0 = time.process_time()
        if getattr(chooser, "sees_all", False):
            action = chooser(view, rng, m.hand)
        else:
            action = chooser(view, rng)
        dt = time.process_time() - t0
        if len(view["legal"]) > 1:
            cpu[kinds[seat]].append(dt)
        m.apply(action)
    return m


def run_duel(level: str, deals: int, seed: int, pa: PaChooser, dominoes, progress=True,
             first: int = 0, hard_budget: int | None = None, hard_max_samples: int | None = None,
             sampler: str = "greedy", records: bool = False, sets: dict | None = None) -> dict:
    """``level``'s pair against ``pa``'s on ``deals`` deals from ``first``; ``sampler``: how hard deals the
    hidden tiles of its samples (``SAMPLERS``: the hard players' own, or every consistent deal equally
    likely); ``records``: keep every hand's record (deal, opener, actions) with who sat where, under
    ``"records"`` (what ``scripts/play_model.py`` learns from); ``sets``: a lever, hard's constants set
    otherwise for our pair (``screen_hard.Lever``)."""
    kept = LineSearch.__dict__["sampler"]      # the staticmethod itself (the class attribute is its function)
    LineSearch.sampler = SAMPLERS[sampler]
    try:
        r = _run_duel(level, deals, seed, pa, dominoes, progress, first, hard_budget, hard_max_samples, records,
                      sets or {})
    finally:
        LineSearch.sampler = kept
    r["sampler"] = sampler
    r["sets"] = sets or {}
    return r


def _run_duel(level: str, deals: int, seed: int, pa: PaChooser, dominoes, progress: bool,
              first: int, hard_budget: int | None, hard_max_samples: int | None, records: bool = False,
              sets: dict | None = None) -> dict:
    rules = make_rules("block", players=4, partnership=True)
    choosers = {level: Oracle() if level == "oracle" else get_player(level), "pa": pa}
    if level == "hard" and (hard_budget is not None or hard_max_samples is not None):
        from domino.players.levels import HardSearch

        def hard(view, rng):
            s = HardSearch(view, rng, hard_budget)
            if hard_max_samples is not None:
                s.max_samples = hard_max_samples
            return s.run()
        choosers[level] = hard
    if sets:
        if level != "hard":
            raise ValueError("a lever (--set) is a setting of hard's")
        choosers[level] = Lever(sets, choosers[level])
    cpu = {level: [], "pa": []}
    wins = losses = ties = 0
    disagree: list[dict] = []
    outcomes: list[list] = []     # [deal, our pair's seats (0: 0+2), hand won 1 / tied 0.5 / lost 0]
    kept: list[dict] = []
    checked = 0
    t_start = time.perf_counter()
    for i in range(first, first + deals):
        deal_seed = seed * 1_000_003 + i
        for ours in (0, 1):                       # our pair on seats 0+2, then 1+3
            kinds = [level if s % 2 == ours else "pa" for s in range(4)]
            m = play_hand(rules, deal_seed, kinds, choosers, cpu)
            res = m.records[0]["result"]
            side = res["winners"][0] if len(res["winners"]) == 1 else None
            if side is None:
                ties += 1
            elif side == ours:
                wins += 1
            else:
                losses += 1
            outcomes.append([i, ours, 0.5 if side is None else float(side == ours)])
            if records:
                kept.append({"deal": i, "ours": ours, "kinds": kinds, "record": m.records[0]})
            theirs, why = abw333_winner(m.records[0]["deal"], m.records[0]["opener"], m.view(0), dominoes)
            checked += 1
            if why is not None or theirs != side:
                disagree.append({"deal": i, "ours_on": ours, "engine": side, "abw333": theirs,
                                 "why": why})
        if progress and ((i + 1 - first) % 10 == 0 or i + 1 - first == deals):
            hands = wins + losses + ties
            print(f"  {level} vs pa: {i + 1 - first}/{deals} deals, win {(wins + ties / 2) / hands:.3f}, "
                  f"{time.perf_counter() - t_start:.0f} s", file=sys.stderr, flush=True)
    hands = wins + losses + ties
    score = wins + ties / 2
    lo, hi = wilson(score, hands)
    return {"level": level, "opponent": "pa", "deals": deals, "first_deal": first, "hands": hands, "seed": seed,
            "wins": wins, "losses": losses, "ties": ties,
            "win_rate": score / hands if hands else 0.0, "ci95": [lo, hi],
            "cpu_s": {"ours": cpu_stats(cpu[level]), "pa": cpu_stats(cpu["pa"])},
            "hard_budget": (hard_budget or HARD_BUDGET) if level == "hard" else None,
            "hard_max_samples": (hard_max_samples or HARD_MAX_SAMPLES) if level == "hard" else None,
            "abw333_checked": checked, "abw333_disagreements": disagree, "outcomes": outcomes,
            "seconds": round(time.perf_counter() - t_start, 1),
            **({"records": kept} if records else {})}


def paired(a: list[list], b: list[list]) -> dict:
    """Two duels' ``outcomes`` on the same deals, compared deal by deal: the
    mean of (a's score - b's score) per deal (both hands of it, 0..2 each), its
    95% interval (normal, on the deals both played): a deal's luck is the
    same for both, which narrows the interval only as much as the deal
    decides (150 deals of hard against pa: +-0.074 per hand, where the two
    win rates' own intervals, +-0.054 each, give +-0.078)."""
    def per_deal(xs):
        d: dict = {}
        for deal, _ours, won in xs:
            d[deal] = d.get(deal, 0.0) + won
        return d
    da, db = per_deal(a), per_deal(b)
    common = sorted(set(da) & set(db))
    diffs = [da[i] - db[i] for i in common]
    n = len(diffs)
    if n < 2:
        return {"deals": n, "diff_per_hand": 0.0, "ci95": [0.0, 0.0]}
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    half = 1.96 * math.sqrt(var / n)
    # per hand: a deal is two hands
    return {"deals": n, "diff_per_hand": mean / 2, "ci95": [(mean - half) / 2, (mean + half) / 2]}


def print_duel(r: dict) -> None:
    o, p = r["cpu_s"]["ours"], r["cpu_s"]["pa"]
    budget = (f" (budget {r['hard_budget']}, max samples {r['hard_max_samples']})"
              if r.get("hard_budget") else "")
    if r.get("sampler", "greedy") != "greedy":
        budget += f" (sampler {r['sampler']})"
    if r.get("sets"):
        budget += " with " + json.dumps(r["sets"], sort_keys=True)
    print(f"{r['level']}{budget} vs pa: win {r['win_rate']:.3f} [{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] "
          f"over {r['hands']} hands ({r['deals']} deals x2; {r['wins']} won, {r['losses']} lost, "
          f"{r['ties']} tied); CPU s/decision {r['level']} {o['mean']:.4f} mean / {o['p95']:.4f} p95, "
          f"pa {p['mean']:.4f} / {p['p95']:.4f}; abw333 agrees on {r['abw333_checked'] - len(r['abw333_disagreements'])}"
          f"/{r['abw333_checked']} hands", flush=True)


# ---------------------------------------------------------------------------
# OpenSpiel: two-player Block, hard against ISMCTS (its own adapter)

class OpenSpielBlock:
    """Our two-player Block match and OpenSpiel's ``python_block_dominoes`` in
    lockstep.  OpenSpiel's player 0 opens with any tile; our rules with
    ``first_opener="random"`` do the same, so our opener is its player 0 and
    gets the first seven tiles dealt."""

    def __init__(self, pyspiel, bd):
        self.pyspiel = pyspiel
        self.bd = bd                    # open_spiel.python.games.block_dominoes
        self.game = pyspiel.load_game("python_block_dominoes")
        self.action_ids = {s: i for i, s in enumerate(bd._ACTIONS_STR)}

    def tile_index(self, t: tuple[int, int]) -> int:
        return self.bd._DECK.index((float(t[0]), float(t[1])))

    def action_id(self, player: int, tile: tuple[int, int], edge) -> int:
        a = self.bd.Action(player, (float(tile[0]), float(tile[1])), None if edge is None else float(edge))
        return self.action_ids[str(a)]

    def new_state(self, hands0: list, hands1: list):
        st = self.game.new_initial_state()
        for t in list(hands0) + list(hands1):
            st.apply_action(self.tile_index(t))
        return st

    def resample(self, state, player: int):
        """A state the player cannot tell from ``state``: the other hand drawn
        uniformly from the unseen tiles it may hold (a player who passed holds
        none of the values it passed on)."""
        opp = 1 - player
        mine_now = [tuple(int(x) for x in t) for t in state.hands[player]]
        hist = state.actions_history
        played = {p: [] for p in (0, 1)}
        banned: set = set()
        edges: list = []
        for k, a in enumerate(hist):
            t = (int(a.tile[0]), int(a.tile[1]))
            played[a.player].append(t)
            if not edges:
                edges = [t[0], t[1]]
            else:
                edges.remove(int(a.edge))
                edges.append(t[1] if t[0] == int(a.edge) else t[0])
            nxt = hist[k + 1].player if k + 1 < len(hist) else state.current_player()
            if a.player == opp or nxt != a.player:
                continue
            banned.update(edges)        # opp could not follow this move
        known = set(mine_now) | set(played[0]) | set(played[1])
        pool = [t for t in ALL_TILES if t not in known and not (set(t) & banned)]
        n = len(state.hands[opp])
        rs = self._rs
        pick = [pool[i] for i in rs.choice(len(pool), size=n, replace=False)] if n else []
        first = {player: mine_now + played[player], opp: pick + played[opp]}
        st = self.new_state(first[0], first[1])
        for a in hist:
            st.apply_action(self.action_id(a.player, (int(a.tile[0]), int(a.tile[1])), a.edge))
        return st

    def play(self, deal_seed: int, hard_seat: int, bot, chooser, cpu: dict) -> tuple:
        rules = make_rules("block", players=2, first_opener="random")
        m = Match(rules, seed=deal_seed)
        rec = m.records[0]
        opener = rec["opener"]
        deal = [[parse_tile(tiles.NAMES[t]) for t in h] for h in rec["deal"]]
        to_os = {opener: 0, 1 - opener: 1}
        st = self.new_state(deal[opener], deal[1 - opener])
        bot.reset()
        while m.phase == "play":
            seat = m.turn
            p = st.current_player()
            if st.is_terminal() or to_os[seat] != p:
                raise AssertionError(f"OpenSpiel has player {p} to move, our engine seat {seat}")
            view = m.view(seat)
            ours = {x["play"] for x in view["legal"]}
            theirs = {tile_name((int(self.bd._ACTIONS[i].tile[0]), int(self.bd._ACTIONS[i].tile[1])))
                      for i in st.legal_actions()}
            if ours != theirs:
                raise AssertionError(f"legal plays differ: ours {sorted(ours)}, OpenSpiel's {sorted(theirs)}")
            t0 = time.process_time()
            if seat == hard_seat:
                a = chooser(view, m.player_rng(seat))
                t = parse_tile(a["play"])
                edge = view["ends"][a["end"]] if "end" in a else None
                aid = self.action_id(p, t, edge)
                who = "hard"
            else:
                aid = bot.step(st)
                act = self.bd._ACTIONS[aid]
                t = (int(act.tile[0]), int(act.tile[1]))
                fits = [x for x in view["legal"] if x["play"] == tile_name(t)]
                exact = [x for x in fits if act.edge is None or "end" not in x
                         or view["ends"][x["end"]] == int(act.edge)]
                a = (exact or fits)[0]
                who = "ismcts"
            dt = time.process_time() - t0
            if len(view["legal"]) > 1:
                cpu[who].append(dt)
            m.apply(a)
            st.apply_action(aid)
        if not st.is_terminal():
            raise AssertionError("our hand is over, OpenSpiel's is not")
        res = m.records[0]["result"]
        side = res["winners"][0] if len(res["winners"]) == 1 else None
        self._last = st                 # the finished OpenSpiel state, for a look at disagreements
        ret = st.returns()
        os_side = None if ret[0] == ret[1] else (0 if ret[0] > ret[1] else 1)
        engine_os = None if side is None else to_os[side]
        return side, (engine_os == os_side)


def run_openspiel(deals: int, seed: int, sims: int, rollouts: int, progress=True) -> dict:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts
    from open_spiel.python.games import block_dominoes as bd

    ob = OpenSpielBlock(pyspiel, bd)
    rs = np.random.RandomState(seed)
    ob._rs = rs
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rs)
    bot = ismcts.ISMCTSBot(ob.game, evaluator, uct_c=2.0, max_simulations=sims, random_state=rs,
                           child_selection_policy=ismcts.ChildSelectionPolicy.PUCT)
    bot.set_resampler(ob.resample)
    chooser = get_player("hard")
    cpu = {"hard": [], "ismcts": []}
    wins = losses = ties = agree = 0
    t_start = time.perf_counter()
    for i in range(deals):
        deal_seed = seed * 1_000_003 + i
        for hard_seat in (0, 1):
            side, same = ob.play(deal_seed, hard_seat, bot, chooser, cpu)
            agree += bool(same)
            if side is None:
                ties += 1
            elif side == hard_seat:
                wins += 1
            else:
                losses += 1
        if progress and ((i + 1) % 10 == 0 or i + 1 == deals):
            print(f"  hard vs ismcts: {i + 1}/{deals} deals, {time.perf_counter() - t_start:.0f} s",
                  file=sys.stderr, flush=True)
    hands = wins + losses + ties
    score = wins + ties / 2
    lo, hi = wilson(score, hands)
    return {"game": "python_block_dominoes", "a": "hard", "b": f"ismcts({sims} sims, {rollouts} rollout)",
            "deals": deals, "hands": hands, "wins": wins, "losses": losses, "ties": ties,
            "win_rate": score / hands if hands else 0.0, "ci95": [lo, hi], "openspiel_agrees": agree,
            "cpu_s": {"hard": cpu_stats(cpu["hard"]), "ismcts": cpu_stats(cpu["ismcts"])},
            "seconds": round(time.perf_counter() - t_start, 1)}


def run_draw(deals: int, seed: int) -> dict:
    from domino.players.arena import run_arena
    r = run_arena("draw", 2, "hard", "medium", deals, seed)
    wins = r["win_rate_a"] * r["hands"]
    lo, hi = wilson(wins, r["hands"])
    return {"game": "draw", "players": 2, "a": "hard", "b": "medium", "deals": deals, "hands": r["hands"],
            "win_rate": r["win_rate_a"], "ci95": [lo, hi], "points_share_a": r["points_share_a"],
            "points_ci95": r["ci95"], "ms_per_decision": r["ms_per_decision"]}


# ---------------------------------------------------------------------------

def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300, help="deals, each played twice (sides swapped)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--first", type=int, default=0,
                   help="the first deal's number: a long duel run in parts (--first 150 --deals 150 "
                        "plays deals 150..299 of the seed)")
    p.add_argument("--levels", default="hard,medium",
                   help="our levels, each against a pa pair ('oracle': the pair that sees every hand, a ceiling)")
    p.add_argument("--pa-samples", type=int, default=1,
                   help="pa's sample_size: possible hands searched per decision (0: all of them)")
    p.add_argument("--json", help="also write the results to this file")
    p.add_argument("--hard-budget", type=int, default=None,
                   help=f"hard's search budget, simulated moves per decision (default HARD_BUDGET, {HARD_BUDGET})")
    p.add_argument("--hard-max-samples", type=int, default=None,
                   help=f"hard's cap on sampled deals per decision (default HARD_MAX_SAMPLES, {HARD_MAX_SAMPLES}); "
                        "it binds before a bigger budget does")
    p.add_argument("--sampler", choices=sorted(SAMPLERS), default="greedy",
                   help="how hard deals the hidden tiles of each sample: greedy (the hard players' own, "
                        "seat after seat) or uniform (every consistent deal equally likely)")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="a lever: a constant of domino.players.line or .search set otherwise for hard's pair "
                        "(JSON value; scripts/screen_hard.py screens it against today's hard first)")
    p.add_argument("--records", action="store_true",
                   help="keep every hand's record (deal, actions, who sat where) in the --json file")
    p.add_argument("--openspiel", action="store_true",
                   help="OpenSpiel's two-player Block (hard vs ISMCTS) and our two-player Draw (hard vs medium)")
    p.add_argument("--os-deals", type=int, default=100)
    p.add_argument("--os-sims", type=int, default=300, help="ISMCTS simulations per decision")
    p.add_argument("--os-rollouts", type=int, default=1)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"),
                   help="no duel: compare two duels' --json files deal by deal (the first level of each)")
    args = p.parse_args(argv)
    try:
        sets = parse_sets(args.set)
    except ValueError as exc:
        p.error(str(exc))
    out: list[dict] = []
    if args.compare:
        runs = []
        for path in args.compare:
            with open(path, encoding="utf-8") as fh:
                runs.append(json.load(fh)[0])
        c = paired(runs[0]["outcomes"], runs[1]["outcomes"])
        print(f"{args.compare[0]} - {args.compare[1]}: {c['diff_per_hand']:+.3f} hands won per hand "
              f"[{c['ci95'][0]:+.3f}, {c['ci95'][1]:+.3f}] over {c['deals']} deals played by both")
        return 0
    if args.openspiel:
        try:
            import pyspiel  # noqa: F401
        except ImportError as exc:
            print(f"open_spiel is not installed ({exc}); pip install -r requirements-bench.txt",
                  file=sys.stderr)
            return 2
        r = run_openspiel(args.os_deals, args.seed, args.os_sims, args.os_rollouts, not args.quiet)
        out.append(r)
        print(f"OpenSpiel block (2p): hard vs {r['b']}: win {r['win_rate']:.3f} "
              f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}] over {r['hands']} hands ({r['wins']} won, "
              f"{r['losses']} lost, {r['ties']} tied); CPU s/decision hard "
              f"{r['cpu_s']['hard']['mean']:.4f} / {r['cpu_s']['hard']['p95']:.4f} p95, ismcts "
              f"{r['cpu_s']['ismcts']['mean']:.4f} / {r['cpu_s']['ismcts']['p95']:.4f}; "
              f"OpenSpiel agrees on {r['openspiel_agrees']}/{r['hands']}", flush=True)
        d = run_draw(args.os_deals, args.seed)
        out.append(d)
        print(f"Draw (2p, our engine): hard vs medium: win {d['win_rate']:.3f} "
              f"[{d['ci95'][0]:.3f}, {d['ci95'][1]:.3f}] over {d['hands']} hands; "
              f"points share {d['points_share_a']:.3f} [{d['points_ci95'][0]:.3f}, {d['points_ci95'][1]:.3f}]",
              flush=True)
    else:
        try:
            import dominoes
        except ImportError as exc:
            print(f"dominoes is not installed ({exc}); pip install -r requirements-bench.txt", file=sys.stderr)
            return 2
        pa = PaChooser(dominoes, args.pa_samples)
        for level in args.levels.split(","):
            r = run_duel(level, args.deals, args.seed, pa, dominoes, not args.quiet, args.first,
                         args.hard_budget, args.hard_max_samples, args.sampler, args.records, sets)
            r["pa_samples"] = args.pa_samples or "all"
            out.append(r)
            print_duel(r)
            for d in r["abw333_disagreements"][:5]:
                print(f"  disagreement: {d}", flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
