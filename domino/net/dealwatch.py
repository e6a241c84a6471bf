"""A guest's own check of the host's deals (issue 41, docs/NET.md "Deals anyone can check").

The host's views carry each hand's ``dealing`` (:meth:`domino.engine.match.Match.dealing`): the
fingerprint from the deal on, the seed once the hand is over.  The guest does not trust them: it keeps
what it saw *while the hand was played* (the first fingerprint of the hand, the redeals, the seats'
dealt counts, its own dealt tiles, and each tile it drew with its place in the boneyard), and when the
seed comes it deals again from it with the engine (:func:`domino.engine.deals.check`) and compares.
A host that steered the deal (a tile of this seat, or the order of the boneyard this seat drew from)
cannot show a seed that both matches the fingerprint and deals what this seat saw.
"""
from __future__ import annotations

from typing import Any

from domino.engine import deals, tiles
from domino.engine.common import IllegalAction
from domino.engine.match import highest_double_opener
from domino.engine.records import DealtHand, hand_from_deal
from domino.net.mirror import view_rules

MAX_HANDS = 64         # hands remembered, at most (the oldest go first)
PUBLIC = ("fingerprint", "redeals", "sizes", "apart")    # what a hand's views say of its deal, all the same


def _tile_id(x: Any) -> int | None:
    try:
        return tiles.Tile.parse(x).id
    except (ValueError, TypeError, AttributeError):
        return None


class ReplayError(ValueError):
    """A hand's revealed seed and its public moves do not make a hand (what does not follow, in words)."""


def dealt_hand(view: dict) -> tuple[DealtHand, list[dict]]:
    """The hand of ``view`` (over, its seed revealed) dealt again from that seed alone: the match at the
    deal (:func:`domino.engine.records.hand_from_deal`) and the hand's public moves, to apply one by one
    (another seat's draw names no tile: the boneyard's next one is drawn).  Nothing else of the host's is
    used: the seats' tiles and the boneyard are the seed's, the opener, the scores before the hand, the
    round's double and the seats out are what the views said.  Raises :class:`ReplayError`."""
    try:
        d = view["dealing"]
        seed = d.get("seed")
        if not deals.is_seed(seed) or deals.fingerprint(seed) != d.get("fingerprint"):
            raise ReplayError("the seed is not the fingerprint's")
        rules = view_rules(view)
        apart = [tiles.Tile.parse(x).id for x in d["apart"]]
        hands, bone = deals.deal_from(seed, d["redeals"], rules.n_tiles, list(d["sizes"]), apart)
        results = [r for r in view.get("results") or [] if isinstance(r, dict)]
        scores = list(results[-1]["totals"]) if results else None
        layout = view.get("layout") or {}
        seats = [{"name": n, "kind": k} for n, k in zip(view["names"], view["kinds"])]
        m = hand_from_deal(rules, seats, seed, hands, bone, view["opener"], d["redeals"], scores,
                           layout.get("round_double"), layout.get("out") or ())
    except ReplayError:
        raise
    except (IllegalAction, ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise ReplayError(f"the hand cannot be dealt again: {exc}") from None
    return m, [dict(a) for a in view.get("history") or [] if isinstance(a, dict)]


def replay(view: dict, each=None) -> DealtHand:
    """The hand of ``view`` dealt again from its revealed seed, then every public move applied with the
    engine's checks (``each(match, action)`` after each, the deal first with None): a tile played that
    the seed did not give its seat, a draw or a Frijolito tile turned over that is not the seed's, or an
    end that differs from the hand's as the view shows it raise :class:`ReplayError`."""
    m, actions = dealt_hand(view)
    if each is not None:
        each(m, None)
    for i, a in enumerate(actions):
        try:
            m.apply(a)
        except (IllegalAction, ValueError, TypeError, KeyError, IndexError) as exc:
            raise ReplayError(f"move {i + 1} does not follow from the seed's deal: {exc}") from None
        if each is not None:
            each(m, a)
    res = view.get("result")
    if isinstance(res, dict) and res.get("hands") is not None:
        if m.records[-1]["result"] is None:
            raise ReplayError("the hand's moves do not end it")
        if [sorted(x) for x in m.seat_tiles()] != [sorted(x) for x in res["hands"]]:
            raise ReplayError("the tiles left in the seats' hands are not the seed's")
    return m


def first_opener(rules, k: int, seed: str, redeals: int, hands: list[list[int]]) -> int | None:
    """Who the rules make open the match's first hand dealt ``hands`` from ``seed``: a random seat drawn
    from the seed itself (:func:`domino.engine.deals.random_seat`: the line games' "random seat" option,
    Mexican Train, Frijolito), or the line games' holder of the highest double.  None: a later hand, or a
    round whose double's holder opens (the replay checks that the opener holds it)."""
    if k != 0:
        return None
    if rules.shape == "line":
        if rules.first_opener == "random":
            return deals.random_seat(seed, redeals, rules.players)
        return highest_double_opener(rules, hands)[0]
    if rules.shape == "row" or (rules.shape == "trains" and not rules.holder_starts):
        return deals.random_seat(seed, redeals, rules.players)
    return None


class DealWatch:
    """One seat's record of every hand's deal as it saw it, and the warnings (``problems``: what did not match)."""

    def __init__(self, seat: int):
        self.seat = seat
        self.hands: dict[int, dict] = {}
        self.warnings: list[dict] = []       # {"hand", "problems"}

    @property
    def warning(self) -> dict | None:
        return self.warnings[-1] if self.warnings else None

    def _warn(self, k: int, problems: list[str]) -> None:
        if not any(w["hand"] == k for w in self.warnings):
            self.warnings.append({"hand": k, "problems": sorted(set(problems))})

    def status(self, k: int) -> str | None:
        """Hand ``k``'s deal as this phone checked it: ``"ok"`` (its revealed seed deals what this seat saw,
        and every public move follows from that deal), ``"bad"`` (it does not), ``"unrevealed"`` (the hand
        ended and its seed was never shown), ``"waiting"`` (not revealed yet), or None (not seen from its
        deal on: a late arrival has nothing of its own to compare)."""
        w = next((x for x in self.warnings if x["hand"] == k), None)
        if w is not None:
            return "unrevealed" if w["problems"] == ["unrevealed"] else "bad"
        e = self.hands.get(k)
        if e is None:
            return None
        return "ok" if e["checked"] else "waiting"

    def see(self, view: dict) -> None:
        """Read one accepted view (never raises: a view it cannot read is a warning or nothing)."""
        try:
            self._see(view)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            k = view.get("hand_no") if isinstance(view, dict) else None
            if isinstance(k, int) and k in self.hands:
                self._warn(k, ["unreadable"])

    def _see(self, view: dict) -> None:
        d = view.get("dealing")
        k = view.get("hand_no")
        if not isinstance(d, dict) or not isinstance(k, int):
            return
        me = self.seat
        hist = [a for a in view.get("history") or [] if isinstance(a, dict)]
        e = self.hands.get(k)
        if e is None:
            if view.get("phase") != "play" and d.get("seed") is not None:
                return                   # first seen once over (a late join): nothing seen to compare
            e = self._first(view, d, hist)
            self.hands[k] = e
            for old in sorted(self.hands)[:-MAX_HANDS]:
                del self.hands[old]
        elif d.get("fingerprint") != e["fingerprint"]:
            self._warn(k, ["fingerprint"])
        elif any(d.get(x) != e["public"][x] for x in PUBLIC):
            self._warn(k, ["changed"])
        self._draws(e, k, hist)
        seed = d.get("seed")
        if seed is None and view.get("result") is not None:
            self._warn(k, ["unrevealed"])        # the hand is over and its seed was not shown: nothing to check
        if seed is None or e["checked"]:
            return
        e["checked"] = True
        rules = view_rules(view)
        deal: list = [None] * len(e["sizes"])
        if e["dealt"] is not None and 0 <= me < len(deal):
            deal[me] = e["dealt"]
        allowed = self._allowed(rules, k)
        problems = deals.check(seed, e["fingerprint"], rules.n_tiles, e["sizes"], e["redeals"], deal,
                               dict(e["draws"]), e["apart"], redeal_if=deals.redeal_rule(rules, allowed))
        hands = deals.deal_from(seed, e["redeals"], rules.n_tiles, e["sizes"], e["apart"])[0]
        if allowed is not None and e["double"] is not None and deals.opening_double(rules, hands, allowed) != e["double"]:
            problems.append("opener")
        want = first_opener(rules, k, seed, e["redeals"], hands)
        if want is not None and e["opener"] != want:
            problems.append("opener")
        if not problems:
            try:
                replay(view)
            except ReplayError:
                problems = ["moves"]
        if problems or e["bad"]:
            self._warn(k, problems + e["bad"])

    def _allowed(self, rules, k: int) -> set[int] | None:
        """The doubles round ``k`` may open with (the foot, the trains whose double's holder opens), from
        the rounds before it as this phone saw them; None: another game, or a round it did not see."""
        if not (rules.shape == "foot" or (rules.shape == "trains" and rules.holder_starts)):
            return None
        before = [self.hands[j]["double"] if j in self.hands else None for j in range(k)]
        return deals.allowed_doubles(rules, k, before) if None not in before else None

    def _first(self, view: dict, d: dict, hist: list[dict]) -> dict:
        """What the first view of a hand says of its deal: the seat's own tiles then, and the counts."""
        me = self.seat
        sizes, bad = list(d["sizes"]), []
        counts = view.get("counts")
        played = [0] * len(sizes)
        drawn = [0] * len(sizes)
        mine = {_tile_id(x) for x in view.get("hand") or []}
        row = view.get("shape") == "row"
        for a in hist:
            s = a.get("seat")
            if not isinstance(s, int) or not 0 <= s < len(sizes):
                continue
            if "play" in a:
                played[s] += 1
                if s == me:
                    mine.add(_tile_id(a["play"]))
            elif "draw" in a:
                drawn[s] += 1
                if s == me:
                    mine.discard(_tile_id(a["draw"]))
        dealt = None if row or None in mine else sorted(mine)
        if not row and isinstance(counts, list) and len(counts) == len(sizes):
            if any(counts[s] + played[s] - drawn[s] != sizes[s] for s in range(len(sizes))):
                bad.append("deal")
        if dealt is not None and 0 <= me < len(sizes) and len(dealt) != sizes[me]:
            bad.append("deal")
        apart = [_tile_id(x) for x in d["apart"]]
        double = (view.get("layout") or {}).get("round_double")
        return {"fingerprint": d["fingerprint"], "redeals": d["redeals"], "sizes": sizes, "opener": view.get("opener"),
                "double": double if type(double) is int else None,
                "apart": [x for x in apart if x is not None], "dealt": dealt, "draws": {},
                "checked": False, "bad": bad, "public": {x: d[x] for x in PUBLIC}}

    def _draws(self, e: dict, k: int, hist: list[dict]) -> None:
        """This seat's draws with their places in the boneyard (the first word heard for a place stands)."""
        pos = 0
        for a in hist:
            if "draw" not in a:
                continue
            if a.get("seat") == self.seat and a.get("draw") is not None:
                t = _tile_id(a["draw"])
                if pos in e["draws"] and e["draws"][pos] != t:
                    self._warn(k, ["boneyard"])
                e["draws"].setdefault(pos, t)
            pos += 1
