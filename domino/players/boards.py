"""Computer players on the other boards: Mexican Train (``trains``),
Chicken Foot (``foot``) and Frijolito (``row``).

The same three levels as the line family's, from the seat view only:

* easy    -- a legal move, heavier tiles a little more likely; goes out when
             it can; in Frijolito it never peeks and picks an end at random.
* medium  -- a player's plan.  Mexican Train: the longest chain the hand makes
             from the own train's end is kept for the own train; tiles off
             that chain go on the Mexican and public trains first; a double is
             played when the hand can follow it; the own marker is lifted.
             Chicken Foot: sheds heavy tiles and the 0-0 (50 points), plays a
             double when it can feed its foot or the others cannot, keeps
             numbers to follow.  Frijolito: peeks when it may, picks the end
             its next known tile fits (else the end more unseen tiles fit),
             plays face-up doubles at once, sets doubles face up when that
             lets them be played later.
* hard    -- determinized search like the line family's: hidden hands (and
             hidden rows) sampled consistent with what the seat saw, medium's
             best few moves played out on the engine's own round core with a
             policy that plays like medium for every seat (Mexican Train: each
             seat's chain plan, kept up to date), averaged bad points
             difference.  Medium's choice stands unless another move beats it
             clearly over the same samples; a fixed budget of simulated moves
             (chain searches included), run in slices (:class:`BoardSearch`).

A round core is rebuilt from the view: a round in which every seat holds every
tile replays the public history (so trains, markers, open doubles and feet are
exact), then the sampled hands and boneyard are put in.
"""
from __future__ import annotations

import random

from domino.engine import foot, row, tiles, trains
from domino.engine.common import DRAW, OPEN, PASS, other_half
from domino.players import endgame
from domino.players.search import SlicedSearch, popcount, rules_of, sample_deal, suit_counts

PIPS, LOW, HIGH, DOUBLE, SUIT = tiles.PIPS, tiles.LOW, tiles.HIGH, tiles.DOUBLE, tiles.SUIT
ZERO = tiles.tile_id("0-0")
DOUBLE_OF = [v * (v + 1) // 2 + v for v in range(tiles.MAX_SET + 1)]
GO_OUT = 1e6


def _tid(name: str) -> int:
    return tiles.tile_id(name)


def _mask(names) -> int:
    m = 0
    for n in names:
        m |= 1 << _tid(n)
    return m


def _weight(shape: str, t: int) -> int:
    """A tile's bad points (Chicken Foot's 0-0 counts 50)."""
    return 50 if shape == "foot" and t == ZERO else PIPS[t]


def _end_no(name: str, players: int) -> int:
    """Core index of an end id: train:<seat> / train:mexican / foot:<k> / W / E."""
    if name == "W":
        return 0
    if name == "E":
        return 1
    rest = name.split(":", 1)[1]
    return players if rest == "mexican" else int(rest)


# ---------------------------------------------------------------------------
# What the seat knows (trains and foot: replayed; row: read from the rows)

class BoardKnowledge:
    __slots__ = ("view", "rules", "shape", "me", "players", "hand", "pool", "counts", "forbid",
                 "h", "rest", "up", "row_known", "aside")


def knowledge(view: dict) -> BoardKnowledge:
    shape = view["shape"]
    if shape == "row":
        return _row_knowledge(view)
    r = rules_of(view)
    k = BoardKnowledge()
    k.view, k.rules, k.shape = view, r, shape
    k.me = me = view["seat"]
    k.players = P = r.players
    full = tiles.set_mask(r.set)
    lay = view["layout"]
    hist = view["history"]
    opening = [a for a in hist if "play" in a and "end" not in a]
    opener = opening[0]["seat"] if opening else view["opener"]
    first = _tid(opening[0]["play"]) if opening else None
    if first is None:
        # the opening play is still to come (it is the only legal action then)
        ops = [a for a in view["legal"] if "play" in a and "end" not in a]
        first = _tid(ops[0]["play"]) if ops else None
    if shape == "trains":
        if lay["engine"] is not None and not opening:
            h = trains.Round(r, [full] * P, [], opener, _tid(lay["engine"]))
        else:
            h = trains.Round(r, [full] * P, [], opener, -1, first)
    else:
        h = foot.Round(r, [full] * P, [], opener, first)
    forbid = [0] * P
    for a in hist:
        s = a["seat"]
        h.turn = s
        if "play" in a:
            t = _tid(a["play"])
            if "end" not in a:
                m = t << 10 | OPEN << 4 | LOW[t]
            else:
                i = _end_no(a["end"], P)
                m = t << 10 | i << 4 | other_half(t, h.end_val[i])
            h.apply(m)
        elif "draw" in a:
            h.drew = True
            forbid[s] = 0
        else:
            if s != me:
                ends = h.targets(s) if shape == "trains" else h.open_ends()
                for i in ends:
                    forbid[s] |= SUIT[h.end_val[i]]
            h.apply(PASS)
    mine = _mask(view["hand"])
    board = 0
    if shape == "trains":
        if lay["engine"]:
            board |= 1 << _tid(lay["engine"])
        for tr in lay["trains"]:
            board |= _mask(x["tile"] for x in tr["tiles"])
    else:
        if lay["center"]:
            board |= 1 << _tid(lay["center"])
        for b in lay["branches"]:
            board |= _mask(x["tile"] for x in b["tiles"])
    k.hand = mine
    k.pool = full & ~mine & ~board
    k.counts = list(view["counts"])
    k.rest = view["boneyard"] + view["undrawable"]
    k.forbid = forbid
    h.hands = [0] * P
    h.hands[me] = mine
    h.turn = view["turn"]
    h.actions = []
    h.bone = []
    h.bpos = 0
    k.h = h
    return k


def _row_knowledge(view: dict) -> BoardKnowledge:
    r = rules_of(view)
    k = BoardKnowledge()
    k.view, k.rules, k.shape = view, r, "row"
    k.me = view["seat"]
    k.players = r.players
    full = tiles.set_mask(r.set)
    lay = view["layout"]
    board = 0
    if lay["center"]:
        board |= 1 << _tid(lay["center"])
    for arm in ("W", "E"):
        board |= _mask(x["tile"] for x in lay["arms"][arm])
    known = 0
    up = 0
    rows = []
    for seat_row in lay["rows"]:
        rr = []
        for x in seat_row:
            if x["tile"] is None:
                rr.append(-1)
            else:
                t = _tid(x["tile"])
                rr.append(t)
                known |= 1 << t
                if x["up"]:
                    up |= 1 << t
        rows.append(rr)
    k.row_known = rows
    k.up = up
    k.hand = _mask(view["hand"])
    k.pool = full & ~board & ~known
    k.counts = list(view["counts"])
    k.forbid = [0] * k.players
    # the round core, with unknown slots filled per sample
    h = row.Round(r, [[] for _ in range(k.players)], [], view["turn"], frozenset(lay["out"]))
    if lay["center"]:
        c = _tid(lay["center"])
        h.center = c
        h.arms = [[(_tid(x["tile"]), x["out"]) for x in lay["arms"][a]] for a in ("W", "E")]
        h.end_val = [view["ends"]["W"], view["ends"]["E"]]
    h.up = up
    h.known = known
    h.peeked = lay["peeked"] is not None
    h.turn = view["turn"]
    k.h = h
    k.aside = None
    return k


def sample(k: BoardKnowledge, rng: random.Random):
    """A round core with hidden tiles dealt consistently with the knowledge."""
    if k.shape == "row":
        undealt = tiles.ids(k.pool)
        rng.shuffle(undealt)
        rows = []
        for rr in k.row_known:
            seat_row = []
            for t in rr:
                seat_row.append(t if t >= 0 else undealt.pop())
            rows.append(seat_row)
        h = k.h.clone()
        h.rows = rows
        h.hands = [tiles.mask_of(x) for x in rows]
        h.bone = undealt
        return h
    hands, boneyard = sample_deal(k, rng, attempts=25, relax_after=15)
    h = k.h.clone()
    h.hands = hands
    h.bone = boneyard
    h.bpos = 0
    return h


def action_move(k: BoardKnowledge, a: dict) -> int:
    """The core move of one of view["legal"]."""
    if k.shape == "row":
        if "flip" in a:
            return row.FLIP
        if "peek" in a:
            return row.PEEK
        if "reject" in a:
            return row.REJECT_UP if a.get("face_up") else row.REJECT
    if "draw" in a:
        return DRAW
    if "pass" in a:
        return PASS
    t = _tid(a["play"])
    h = k.h
    if "end" not in a:
        if k.shape == "row":
            return t << 10 | OPEN << 4 | HIGH[t]
        return t << 10 | OPEN << 4 | LOW[t]
    i = _end_no(a["end"], k.players)
    return t << 10 | i << 4 | other_half(t, h.end_val[i])


# ---------------------------------------------------------------------------
# Easy

def easy(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    plays = [a for a in legal if "play" in a]
    if view["shape"] == "row":
        # never peeks, never sets a double face up: plays the turned tile anywhere
        if plays:
            return rng.choice(plays)
        plain = [a for a in legal if "peek" not in a and not a.get("face_up")]
        return rng.choice(plain or legal)
    if not plays:
        return legal[0]
    if len(view["hand"]) == 1:
        return plays[0]
    shape = view["shape"]
    weights = [2 + _weight(shape, _tid(a["play"])) for a in plays]
    return rng.choices(plays, weights=weights)[0]


# ---------------------------------------------------------------------------
# Medium: Mexican Train's plan

CHAIN_NODES = 600
#: chain search nodes visited so far (the hard player charges its playouts'
#: to its budget; a memoized search is charged again, so the budget stays a
#: pure function of the position and the generator)
CHAIN_WORK = [0]


def best_chain(v: int, hand: int, cap: int = CHAIN_NODES) -> list[int]:
    """The longest chain of hand tiles from an end showing v (ties: more pips),
    by depth-first search with a node cap."""
    best: list = [[], -1, -1]
    path: list[int] = []
    nodes = [0]

    def dfs(v: int, hand: int, pips: int) -> None:
        nodes[0] += 1
        n = len(path)
        if n > best[1] or (n == best[1] and pips > best[2]):
            best[0], best[1], best[2] = list(path), n, pips
        if nodes[0] > cap:
            return
        m = hand & SUIT[v]
        # a double first: it keeps the number and gives another play
        d = DOUBLE_OF[v]
        if (m >> d) & 1:
            path.append(d)
            dfs(v, hand & ~(1 << d), pips + PIPS[d])
            path.pop()
            return
        while m:
            low = m & -m
            t = low.bit_length() - 1
            m ^= low
            path.append(t)
            dfs(PIPS[t] - v, hand & ~low, pips + PIPS[t])
            path.pop()
            if nodes[0] > cap:
                return

    dfs(v, hand, 0)
    CHAIN_WORK[0] += nodes[0]
    return best[0]


def chain_len(v: int, hand: int, cap: int = CHAIN_NODES) -> int:
    """len(best_chain(v, hand, cap)), faster: the same search, no path kept."""
    st = [0, 0]              # nodes, longest

    def dfs(v: int, hand: int, n: int) -> None:
        st[0] += 1
        if n > st[1]:
            st[1] = n
        if st[0] > cap:
            return
        m = hand & SUIT[v]
        if not m:
            return
        d = DOUBLE_OF[v]
        if (m >> d) & 1:
            dfs(v, hand & ~(1 << d), n + 1)
            return
        while m:
            low = m & -m
            m ^= low
            dfs(PIPS[low.bit_length() - 1] - v, hand ^ low, n + 1)
            if st[0] > cap:
                return

    dfs(v, hand, 0)
    CHAIN_WORK[0] += st[0]
    return st[1]


def _trains_plan(k: BoardKnowledge, hand: int, own_v: int) -> tuple[int, int]:
    """(chain length, tiles off the chain) of a hand for the own train."""
    if own_v < 0:
        return 0, popcount(hand)
    c = best_chain(own_v, hand)
    return len(c), popcount(hand) - len(c)


def _plays_to_score(k: BoardKnowledge, legal: list[dict], out: list):
    """The trains' and the foot's legal actions that need a score: yields
    (action, features, tile, end, number it leaves, hand after) for each play
    on an end; a draw or pass, going out and the opening play are scored
    here, into ``out``."""
    for a in legal:
        f: dict = {}
        if "play" not in a:
            out.append((-50.0, a, f))
            continue
        m = action_move(k, a)
        t, i, x = m >> 10, (m >> 4) & 63, m & 15
        rest = k.hand & ~(1 << t)
        f["tile"] = t
        if not rest:
            out.append((GO_OUT, a, {"out": True, "tile": t}))
        elif i == OPEN:
            out.append((0.0, a, f))
        else:
            yield a, f, t, i, x, rest


def trains_scores(k: BoardKnowledge, legal: list[dict]) -> list[tuple[float, dict, dict]]:
    h, me = k.h, k.me
    hand = k.hand
    own_v = h.end_val[me] if h.engine >= 0 else -1
    chain = best_chain(own_v, hand) if own_v >= 0 else []
    cset = tiles.mask_of(chain)
    base_len = len(chain)
    base_off = popcount(hand) - base_len
    out: list = []
    for a, f, t, i, x, rest in _plays_to_score(k, legal, out):
        if i == me:
            n_chain, n_off = _trains_plan(k, rest, x)
        elif (cset >> t) & 1:
            n_chain, n_off = _trains_plan(k, rest, own_v)
        else:
            n_chain, n_off = base_len, base_off - 1
        # turns to go out: chain tiles one a turn, off-chain tiles need a place
        sc = -4.0 * (n_chain + 1.8 * n_off)
        sc += 0.4 * PIPS[t]
        f["pips"] = PIPS[t]
        if i == me:
            f["own"] = True
            if h.public[me]:
                sc += 6.0
                f["lift"] = True
        elif (cset >> t) & 1:
            f["breaks"] = base_len - n_chain
        else:
            f["offchain"] = True
            sc += 1.0
        if DOUBLE[t]:
            follow = rest & SUIT[x]
            f["double"] = True
            sc += 6.0 if follow else -7.0
        elif i != me and i < k.players and h.public[i]:
            sc += 0.5           # on a rival's open train: spoils its plan
        out.append((sc, a, f))
    return out


# ---------------------------------------------------------------------------
# Medium: Chicken Foot

def foot_scores(k: BoardKnowledge, legal: list[dict]) -> list[tuple[float, dict, dict]]:
    pool = k.pool
    out: list = []
    for a, f, t, _b, x, rest in _plays_to_score(k, legal, out):
        w = _weight("foot", t)
        f["pips"] = w
        sc = 0.6 * w
        nums = 0
        m2 = rest
        while m2:
            low = m2 & -m2
            tt = low.bit_length() - 1
            nums |= 1 << LOW[tt] | 1 << HIGH[tt]
            m2 ^= low
        sc += 0.6 * popcount(nums)
        if DOUBLE[t]:
            mine_x = popcount(rest & SUIT[x])
            theirs = popcount(pool & SUIT[x])
            f["double"] = True
            # its three toes: good when the hand feeds them, or the others cannot
            sc += 2.5 * min(mine_x, 3) + (4.0 if theirs <= 2 else 0.0) + 2.0
        elif rest & SUIT[x]:
            sc += 1.5
        out.append((sc, a, f))
    return out


# ---------------------------------------------------------------------------
# Medium: Frijolito

def _fit_count(k: BoardKnowledge, v: int) -> int:
    return popcount(k.pool & SUIT[v])


def _fits(t: int, ends) -> bool:
    """Does tile t fit one of these open numbers?"""
    return LOW[t] in ends or HIGH[t] in ends


def row_scores(k: BoardKnowledge, legal: list[dict]) -> list[tuple[float, dict, dict]]:
    r = k.rules
    rows = k.row_known
    me = k.me
    mine = rows[me]
    h = k.h
    nxt = mine[1] if len(mine) > 1 else -1      # the next tile, if known
    out = []
    for a in legal:
        f: dict = {}
        if "flip" in a:
            out.append((0.0, a, f))
            continue
        if "peek" in a:
            f["peek"] = True
            out.append((5.0 if nxt < 0 else -1.0, a, f))
            continue
        if "reject" in a:
            up = bool(a.get("face_up"))
            f["face_up"] = up
            out.append((1.0 if up == bool(r.doubles_anywhere) else 0.0, a, f))
            continue
        m = action_move(k, a)
        t, e, x = m >> 10, (m >> 4) & 63, m & 15
        f["tile"] = t
        if len(mine) == 1:
            out.append((GO_OUT, a, {"out": True, "tile": t}))
            continue
        sc = 0.0
        if mine and t != mine[0]:
            sc += 8.0 + PIPS[t] * 0.1            # a face-up double from the row
            f["double"] = True
        if e != OPEN:
            ends = [h.end_val[0], h.end_val[1]]
            ends[e] = x
            nt = nxt if t == mine[0] else (mine[0] if mine else -1)
            if nt >= 0:
                if _fits(nt, ends):
                    sc += 4.0
                    f["next_fits"] = True
            if not f.get("next_fits"):
                # the turn likely ends here: ends the rivals' known leftmost
                # tiles do not fit (the next seat's most), ends the seat's own
                # known tiles further down its row do
                for d in range(1, k.players):
                    seat_row = rows[(me + d) % k.players]
                    if not seat_row or seat_row[0] < 0:
                        continue
                    if _fits(seat_row[0], ends):
                        sc -= 2.0 if d == 1 else 1.0
                    elif d == 1:
                        f["starves"] = True
                for lt in mine[2:]:
                    if lt >= 0 and _fits(lt, ends):
                        sc += 0.3
            sc += 0.1 * (_fit_count(k, ends[0]) + _fit_count(k, ends[1]))
        out.append((sc, a, f))
    return out


SCORES = {"trains": trains_scores, "foot": foot_scores, "row": row_scores}


def medium_scores(k: BoardKnowledge, legal: list[dict]):
    return SCORES[k.shape](k, legal)


def _pick(scored: list, rng: random.Random) -> dict:
    """Medium's choice: the best score, ties at random."""
    best = max(s for s, _, _ in scored)
    top = [a for s, a, _ in scored if s >= best - 1e-9]
    return top[0] if len(top) == 1 else rng.choice(top)


def medium(view: dict, rng: random.Random) -> dict:
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    k = knowledge(view)
    return _pick(medium_scores(k, legal), rng)


# ---------------------------------------------------------------------------
# Hard: playout policies and the search

#: randomness of the Chicken Foot playouts
FOOT_NOISE = 1.0
#: chain search nodes when a playout (re)plans a seat's own train
PLAN_NODES = 60
#: randomness of the Mexican Train playouts (medium's scores differ by ~1-8)
TRAINS_NOISE = 1.0


def _plan(h, s: int) -> tuple:
    """A seat's plan in a playout: (own train's end, chain from it, its mask),
    medium's longest chain, searched with a smaller node cap."""
    v = h.end_val[s]
    if h.engine < 0:
        return (v, [], 0)
    c = best_chain(v, h.hands[s], PLAN_NODES)
    return (v, c, tiles.mask_of(c))


def _plan_after(plans: list, s: int, m: int) -> None:
    """Keep seat s's plan up to date after it played move m."""
    pl = plans[s]
    if pl is None or m < 0:
        return
    t = m >> 10
    if not (pl[2] >> t) & 1:
        return
    if (m >> 4) & 63 == s and pl[1][0] == t:
        plans[s] = (m & 15, pl[1][1:], pl[2] & ~(1 << t))
    else:
        plans[s] = None         # a chain tile went elsewhere: plan again


_CHAIN_LEN: dict = {}


def _chain_len(v: int, hand: int) -> int:
    """Length of the chain best_chain finds (playout cap), memoized: the
    playouts of one decision meet the same hands again and again."""
    key = (v, hand)
    got = _CHAIN_LEN.get(key)
    if got is None:
        if len(_CHAIN_LEN) > 50_000:
            _CHAIN_LEN.clear()
        before = CHAIN_WORK[0]
        n = chain_len(v, hand, PLAN_NODES)
        got = _CHAIN_LEN[key] = (n, CHAIN_WORK[0] - before)
    else:
        CHAIN_WORK[0] += got[1]      # charged as if searched again
    return got[0]


def trains_policy(h, ms: list[int], rng: random.Random, plans: list) -> int:
    """Medium's plan, cheaply: every seat keeps the longest chain it can make
    for its own train (planned again only when its end or hand no longer
    matches), plays off-chain tiles elsewhere first, the chain's next tile at
    home (at once when the train is public), doubles it can follow; a move
    that breaks the chain or leaves the plan is weighed by the chain the
    rest of the hand still makes, as medium does."""
    s = h.turn
    hand = h.hands[s]
    pl = plans[s]
    own = h.end_val[s]
    if pl is None or pl[0] != own or pl[2] & ~hand:
        pl = plans[s] = _plan(h, s)
    chain, cmask = pl[1], pl[2]
    n = len(chain)
    head = chain[0] if n else -1
    n_hand = hand.bit_count()
    pub = h.public
    P = h.players
    own_pub = 6.0 if pub[s] else 0.0
    best, bs = ms[0], -1e9
    rnd = rng.random
    for m in ms:
        if m < 0:
            sc = -1e6
        else:
            t, i = m >> 10, (m >> 4) & 63
            bit = 1 << t
            if hand == bit:
                return m
            if i == s:
                nc = n - 1 if t == head else _chain_len(m & 15, hand & ~bit)
                sc = own_pub
            elif cmask & bit:
                nc = _chain_len(own, hand & ~bit)
                sc = 0.0
            else:
                nc = n
                sc = 1.0 + (0.5 if i < P and pub[i] else 0.0)
            sc += -4.0 * (nc + 1.8 * (n_hand - 1 - nc)) + 0.4 * PIPS[t] + TRAINS_NOISE * rnd()
            if DOUBLE[t]:
                sc += 6.0 if hand & ~bit & SUIT[m & 15] else -7.0
        if sc > bs:
            bs, best = sc, m
    _plan_after(plans, s, best)
    return best


def foot_policy(h, ms: list[int], rng: random.Random, plans=None) -> int:
    """Chicken Foot: medium's scores, cheaply: heavy tiles (and the 0-0)
    first, numbers kept, doubles whose toes the hand can feed."""
    hand = h.hands[h.turn]
    cnt = suit_counts(hand)
    nums = 16 - cnt.count(0)
    best, bs = ms[0], -1e9
    rnd = rng.random
    for m in ms:
        if m < 0:
            sc = -100.0
        else:
            t, x = m >> 10, m & 15
            if hand == 1 << t:
                return m
            a, b = LOW[t], HIGH[t]
            sc = 0.6 * (50 if t == ZERO else PIPS[t]) + FOOT_NOISE * rnd()
            rest = hand & ~(1 << t)
            if a == b:
                sp = nums - (cnt[a] == 1)
                sc += 2.5 * min((rest & SUIT[x]).bit_count(), 3) + 2.0
            else:
                sp = nums - (cnt[a] == 1) - (cnt[b] == 1)
                if rest & SUIT[x]:
                    sc += 1.5
            sc += 0.6 * sp
        if sc > bs:
            bs, best = sc, m
    return best


def row_policy(h, ms: list[int], rng: random.Random, plans=None) -> int:
    """Frijolito: flip, peek, play a face-up double, else the turned tile at
    the end its known next tile fits, else at an end the next seat's known
    leftmost tile does not fit, else at random."""
    if row.FLIP in ms:
        return row.FLIP
    if row.PEEK in ms:
        return row.PEEK
    seat_row = h.rows[h.turn]
    plays = [m for m in ms if 0 <= m < row.FLIP]
    if not plays:
        return row.REJECT_UP if (row.REJECT_UP in ms and h.anywhere) or row.REJECT not in ms else row.REJECT
    first = seat_row[0]
    for m in plays:
        if m >> 10 != first:
            return m            # a face-up double elsewhere in the row
    if len(plays) > 1:
        after = []                      # (move, the ends it leaves)
        for m in plays:
            ends = list(h.end_val)
            ends[(m >> 4) & 63] = m & 15
            after.append((m, ends))
        if len(seat_row) > 1 and (h.up >> seat_row[1]) & 1:
            for m, ends in after:
                if _fits(seat_row[1], ends):
                    return m
        # not at an end the next seat's known leftmost tile fits, as medium
        nxt = h.rows[(h.turn + 1) % h.players]
        lt = nxt[0] if nxt else -1
        if lt >= 0 and (h.known >> lt) & 1:
            plays = [m for m, ends in after if not _fits(lt, ends)] or plays
    return plays[0] if len(plays) == 1 else plays[int(rng.random() * len(plays))]


POLICY = {"trains": trains_policy, "foot": foot_policy, "row": row_policy}

#: simulated moves per decision on these boards, chain search nodes of the
#: Mexican Train playouts included (playouts stop after
#: ROLLOUT_DEPTH moves and count the pips then, tiles held weighing extra)
BOARD_BUDGET = {"trains": 22000, "foot": 9000, "row": 24000}
#: a simulated move costs about as much as this many chain search nodes
NODES_PER_STEP = 8
ROLLOUT_DEPTH = {"trains": 90, "foot": 200, "row": 400}
HELD_TILE = {"trains": 4.0, "foot": 3.0, "row": 2.0}
PRIOR_WEIGHT = {"trains": 1e-4, "foot": 1e-4, "row": 1e-4}
#: the search overrides medium's choice only when its best candidate wins the
#: paired comparison by this many standard errors (SlicedSearch.margin_z)
MARGIN_Z = {"trains": 0.5, "foot": 1.0, "row": 1.0}
#: candidates searched: medium's best few; after PRUNE_AT of the budget only
#: medium's choice and the two best others go on (SlicedSearch.prune_at)
MAX_CANDS = {"trains": 5, "foot": 6, "row": 6}
PRUNE_AT = {"trains": 0.5, "foot": 0.5, "row": 0.5}
#: two seats at Mexican Train: the round is a race both seats run on their
#: chains, decided at its end, where the playouts measured no better than
#: medium's plan; hard keeps the plan until the hands hold this many tiles
#: in all, then searches every play exactly to the round's end
#: (players.endgame) on this many sampled deals
ENDGAME_TILES = 12
ENDGAME_SAMPLES = 16
#: positions the exact search may value on one sample before it gives up
#: (and keeps medium's choice)
ENDGAME_NODES = 40000


def outcome_value(k: BoardKnowledge, h) -> float:
    """Mean bad points of the others minus the seat's own (higher is better)."""
    if h.ended:
        pts = h.settle()["points"]
    else:
        extra = HELD_TILE[k.shape]
        counts = h.counts()
        pts = [counts[s] + extra * popcount(h.hands[s]) for s in range(k.players)]
    out = getattr(h, "out", ())
    others = [pts[s] for s in range(k.players) if s != k.me and s not in out]
    if not others:
        return 0.0
    return sum(others) / len(others) - pts[k.me]


class BoardSearch(SlicedSearch):
    """The hard player on the trains, foot and row boards."""

    def __init__(self, view: dict, rng: random.Random, budget: int | None = None):
        self.view = view
        self.rng = rng
        self.result = None
        legal = view["legal"]
        if len(legal) == 1:
            self.result = legal[0]
            return
        k = self.k = knowledge(view)
        self.budget = budget if budget is not None else BOARD_BUDGET[k.shape]
        self.depth = ROLLOUT_DEPTH[k.shape]
        self.policy = POLICY[k.shape]
        scored = medium_scores(k, legal)
        if any(s >= GO_OUT for s, _, _ in scored):
            self.result = max(scored, key=lambda x: x[0])[1]
            return
        self.exact = False
        if k.shape == "trains" and k.players == 2:
            if sum(k.counts) > ENDGAME_TILES or not endgame.supports(k.h):
                self.result = _pick(scored, rng)
                return
            # the round's end: every play, valued exactly on each sample
            self.exact = True
            self.min_samples = self.max_samples = ENDGAME_SAMPLES
            self.budget = 0
            self._start(scored, lambda a: action_move(k, a), len(scored))
            self.base = self.plans0 = None
            return
        if k.shape == "row":
            # Frijolito: turning over the next tile (it is played next anyway)
            # and a double set face up where that lets it be played later are
            # never worse: no search needed for them
            for sc, a, f in scored:
                if f.get("peek") and sc > 0:
                    self.result = a
                    return
            if not any("play" in a for a in legal):
                self.result = max(scored, key=lambda x: x[0])[1]
                return
        # the search keeps medium's choice unless it finds a clear margin
        # (a noisy search otherwise trades a sound plan for luck)
        self.prior_weight = PRIOR_WEIGHT[k.shape]
        self.margin_z = MARGIN_Z[k.shape]
        self.prune_at = PRUNE_AT[k.shape]
        self._start(scored, lambda a: action_move(k, a), MAX_CANDS[k.shape])
        self.base = None
        self.plans0 = None

    def _new_sample(self) -> None:
        self.base = b = sample(self.k, self.rng)
        self.roll_seed = self.rng.getrandbits(32)
        if self.exact:
            self.solver = endgame.TrainsEndgame(b, self.k.me, ENDGAME_NODES)
            self.state0 = self.solver.state(b)
            return
        if self.k.shape == "trains":
            # every seat's plan for its own train, shared by the candidates
            work = CHAIN_WORK[0]
            self.plans0 = [_plan(b, s) for s in range(self.k.players)]
            self.steps += (CHAIN_WORK[0] - work) // NODES_PER_STEP

    def _rollout(self, m: int) -> float:
        if self.exact:
            eg = self.solver
            before = eg.nodes
            try:
                return eg.move_value(self.state0, m)
            except endgame.TooBig:
                self.result = self.cands[0]     # too big to search: medium's choice
                return 0.0
            finally:
                self.steps += eg.nodes - before
        work = CHAIN_WORK[0]
        h = self.base.clone()
        rng = random.Random(self.roll_seed)
        plans = forced = None
        if self.plans0 is not None:
            plans = list(self.plans0)
            _plan_after(plans, h.turn, m)
            forced = _plan_after
        h.apply(m)
        steps = 1 + self._play_out(h, self.policy, rng, self.depth - 1, plans, forced)
        self.steps += steps + (CHAIN_WORK[0] - work) // NODES_PER_STEP
        return outcome_value(self.k, h)


def hard(view: dict, rng: random.Random) -> dict:
    return BoardSearch(view, rng).run()


# ---------------------------------------------------------------------------
# Hint

def why(view: dict, a: dict, f: dict) -> dict:
    if "flip" in a:
        return {"en": "turns over the leftmost tile", "es": "da la vuelta a la ficha de la izquierda"}
    if "peek" in a:
        return {"en": "looks at the next tile before choosing the end",
                "es": "mira la ficha siguiente antes de elegir la punta"}
    if "reject" in a:
        if a.get("face_up"):
            return {"en": f"{a['reject']} does not fit: it goes to the right face up",
                    "es": f"{a['reject']} no cabe: va a la derecha boca arriba"}
        return {"en": f"{a['reject']} does not fit: it goes to the right",
                "es": f"{a['reject']} no cabe: va a la derecha"}
    if "play" not in a:
        return {"en": "no tile fits: nothing else to do", "es": "no cabe ninguna ficha: no hay otra"}
    tile = a["play"]
    if f.get("out"):
        return {"en": f"plays {tile} and goes out: domino!",
                "es": f"juega {tile} y se queda sin fichas: ¡dominó!"}
    en, es = [], []
    if f.get("lift"):
        en.append("lifts the marker from its own train")
        es.append("quita la marca de su propio tren")
    elif f.get("own"):
        en.append("follows its own train's plan")
        es.append("sigue el plan de su propio tren")
    if f.get("offchain"):
        en.append("keeps its own train's chain for later")
        es.append("guarda la cadena de su propio tren")
    if f.get("double"):
        en.append("plays a double it can follow")
        es.append("juega un doble que puede seguir")
    if f.get("next_fits"):
        en.append("leaves an end its next tile fits")
        es.append("deja una punta donde cabe su siguiente ficha")
    if f.get("starves"):
        en.append("leaves no end for the next player's known tile")
        es.append("no deja punta para la ficha conocida del siguiente jugador")
    p = f.get("pips", 0)
    if p:
        en.append(f"sheds {p} point{'s' if p != 1 else ''}")
        es.append(f"suelta {p} punto{'s' if p != 1 else ''}")
    if not en:
        en.append("the best of the few choices")
        es.append("la mejor de las pocas opciones")
    en, es = en[:3], es[:3]

    def join(xs, word):
        return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + f" {word} " + xs[-1]

    return {"en": f"{tile}: " + join(en, "and"), "es": f"{tile}: " + join(es, "y")}


def hint(view: dict) -> dict:
    rng = random.Random(f"hint/{view['hand_no']}/{len(view['history'])}/{view['seat']}")
    action = hard(view, rng)
    k = knowledge(view)
    feats = {repr(sorted(x.items())): f for _, x, f in medium_scores(k, view["legal"])}
    f = feats.get(repr(sorted(action.items())), {})
    return {"action": action, "why": why(view, action, f)}
