"""Deals anyone can check (issue 41): each hand is dealt from a seed of its own, committed before the deal.

The hand's **deal seed** is 128 bits (32 hex digits) derived one way from the
match's seed and the hand's number (:func:`deal_seed`): showing it once the
hand is over tells nothing of the match's seed, of the other hands' seeds, nor
of the computer players' choices.  Its **fingerprint** (:func:`fingerprint`,
16 hex digits of a SHA-256 of the seed under a name of its own) is shown when
the hand is dealt: nobody can find the seed from it, and nobody can find
another seed with the same fingerprint, so a deal that matches its
fingerprint is the deal the seed made before anyone played.

The deal itself (:func:`deal_from`): the whole set in the order a
``random.Random`` seeded from the deal seed (and the redeal's number)
shuffles it; the tiles the game sets apart (a round's engine) are taken out;
then each seat gets its tiles in seat order and the rest is the boneyard, in
drawing order.  :func:`check` says whether a recorded deal is that one.
"""
from __future__ import annotations

import functools
import hashlib
import random

from domino.engine import tiles

SEED_HEX = 32            # 128 bits
FINGERPRINT_HEX = 16     # 64 bits shown: a second seed with the same fingerprint is out of reach
HEX = frozenset("0123456789abcdef")


@functools.lru_cache(maxsize=256)
def deal_seed(match_seed: int | str, hand_no: int) -> str:
    """Hand ``hand_no``'s deal seed: 32 hex digits, one way from the match's seed."""
    text = f"domino/deal-seed/1/{match_seed}/{hand_no}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:SEED_HEX]


@functools.lru_cache(maxsize=256)
def fingerprint(seed: str) -> str:
    """The deal seed's fingerprint: 16 hex digits of SHA-256, domain-separated."""
    text = f"domino/deal-fingerprint/1/{seed}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:FINGERPRINT_HEX]


def is_seed(x) -> bool:
    return type(x) is str and len(x) == SEED_HEX and set(x) <= HEX


def is_fingerprint(x) -> bool:
    return type(x) is str and len(x) == FINGERPRINT_HEX and set(x) <= HEX


def order(seed: str, redeal: int, n_tiles: int) -> list[int]:
    """The whole set (tile ids ``0..n_tiles-1``) in the seed's shuffled order."""
    out = list(range(n_tiles))
    random.Random(f"domino/deal/{seed}/{redeal}").shuffle(out)
    return out


def deal_from(seed: str, redeal: int, n_tiles: int, sizes: list[int],
              set_apart=()) -> tuple[list[list[int]], list[int]]:
    """The deal of ``seed`` (its ``redeal``-th shuffle): ``sizes[i]`` tiles to
    seat i, the tiles ``set_apart`` left out; returns (hands, boneyard)."""
    apart = set(set_apart)
    rest = [t for t in order(seed, redeal, n_tiles) if t not in apart]
    hands, i = [], 0
    for k in sizes:
        hands.append(rest[i:i + k])
        i += k
    return hands, rest[i:]


def random_seat(seed: str, redeal: int, n: int) -> int:
    """A seat drawn at random (``0..n-1``) for a hand the rules open from a random seat, from the deal's
    own seed: anyone who has the seed can check who opened."""
    return random.Random(f"domino/opener/{seed}/{redeal}").randrange(n)


def too_many_doubles(hands: list[list[int]]) -> bool:
    """A line game's redeal (``rules.redeal``): some hand holds 4 doubles or more."""
    return any(sum(tiles.DOUBLE[t] for t in h) >= 4 for h in hands)


def never(hands: list[list[int]]) -> bool:
    """Rules that never deal again: a redeal is a deal chosen among several."""
    return False


def redeal_rule(rules, allowed=None):
    """What makes ``rules`` deal again, as :func:`check`'s ``redeal_if``: a line game's 4 doubles
    (``rules.redeal``); a Chicken Foot round, or a Mexican Train round whose double's holder opens
    (``holder_starts``), where nobody holds a double it may open with (``allowed``: their numbers; the foot:
    the round's double and every lower one, the trains: the doubles no round has opened with yet); never,
    for the rest.  None: the doubles allowed are not known."""
    if rules.shape == "line":
        return too_many_doubles if rules.redeal else never
    if rules.shape == "foot" or (rules.shape == "trains" and rules.holder_starts):
        if allowed is None:
            return None
        ids = {tiles.Tile(v, v).id for v in allowed}
        return lambda hands: not any(t in ids for h in hands for t in h)
    return never


def allowed_doubles(rules, k: int, before: list[int] | None) -> set[int] | None:
    """The doubles round ``k`` of the foot or the trains may open with, from the doubles the rounds before
    it opened with (``before``, in order; None: not known)."""
    if before is None or len(before) != k:
        return None
    if rules.shape == "foot":
        top = rules.first_double if k == 0 else before[-1] - 1
        return set(range(top + 1))
    return set(range(rules.first_double + 1)) - set(before)


def opening_double(rules, hands: list[list[int]], allowed: set[int]) -> int | None:
    """The double a foot or trains round dealt ``hands`` opens with: the highest of ``allowed`` held."""
    held = {t for h in hands for t in h}
    return next((v for v in sorted(allowed, reverse=True) if tiles.Tile(v, v).id in held), None)


def check(seed, fp, n_tiles: int, sizes: list[int], redeals: int, deal=None, boneyard=None,
          set_apart=(), ordered: bool = False, redeal_if=None) -> list[str]:
    """What does not match (``[]``: all of it does): ``"fingerprint"`` (the seed
    is not the fingerprint's), ``"deal"`` (a seat's dealt tiles; ``deal[i]``
    None: not known), ``"boneyard"`` (``boneyard``: a list, or a dict
    {position: tile} of the positions seen), ``"redeals"`` (a redeal the rules
    did not call for, or a deal they would have dealt again, by ``redeal_if``)."""
    if not is_seed(seed):
        return ["fingerprint"]
    out = []
    if fingerprint(seed) != fp:
        out.append("fingerprint")
    hands, bone = deal_from(seed, redeals, n_tiles, sizes, set_apart)
    if deal is not None:
        for got, want in zip(deal, hands):
            if got is None:
                continue
            if (list(got) != want) if ordered else (sorted(got) != sorted(want)):
                out.append("deal")
                break
        if len(deal) != len(hands):
            out.append("deal")
    if boneyard is not None:
        seen = boneyard if isinstance(boneyard, dict) else dict(enumerate(boneyard))
        if isinstance(boneyard, list) and len(boneyard) != len(bone):
            out.append("boneyard")
        elif any(not (0 <= i < len(bone)) or bone[i] != t for i, t in seen.items()):
            out.append("boneyard")
    if redeal_if is not None:
        earlier = (deal_from(seed, j, n_tiles, sizes, set_apart)[0] for j in range(redeals))
        if redeal_if(hands) or not all(redeal_if(h) for h in earlier):
            out.append("redeals")
    return out


def check_hand(match, k: int, seed: str | None = None) -> list[str]:
    """Deal hand ``k`` of ``match`` again from ``seed`` (default: the match's
    own deal seed of that hand) and say what of its record does not match
    (:func:`check`): its fingerprint, every seat's tiles, the boneyard's order
    and the redeals."""
    r = match.rules
    rec = match.records[k]
    info = match.dealing(k)
    return check(match.deal_seed(k) if seed is None else seed, info["fingerprint"], r.n_tiles, info["sizes"],
                 rec["redeals"], rec["deal"], rec["boneyard"], [tiles.Tile.parse(x).id for x in info["apart"]],
                 ordered=r.shape == "row",
                 redeal_if=redeal_rule(r, allowed_doubles(r, k, [x["double"] for x in match.records[:k]])
                                       if "double" in rec else None))
