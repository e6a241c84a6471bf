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
from domino.net.mirror import view_rules

MAX_HANDS = 64         # hands remembered, at most (the oldest go first)
PUBLIC = ("fingerprint", "redeals", "sizes", "apart")    # what a hand's views say of its deal, all the same


def _tile_id(x: Any) -> int | None:
    try:
        return tiles.Tile.parse(x).id
    except (ValueError, TypeError, AttributeError):
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
        if seed is None or e["checked"]:
            return
        e["checked"] = True
        rules = view_rules(view)
        deal: list = [None] * len(e["sizes"])
        if e["dealt"] is not None and 0 <= me < len(deal):
            deal[me] = e["dealt"]
        problems = deals.check(seed, e["fingerprint"], rules.n_tiles, e["sizes"], e["redeals"], deal,
                               dict(e["draws"]), e["apart"],
                               redeal_if=deals.too_many_doubles if rules.shape == "line" and rules.redeal else None)
        if problems or e["bad"]:
            self._warn(k, problems + e["bad"])

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
        return {"fingerprint": d["fingerprint"], "redeals": d["redeals"], "sizes": sizes,
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
