"""Deals nobody can predict: a new match's seed carries 128 bits of the
operating system's randomness (a seat that sees its own tiles could search
2**31 seeds one by one and then know every hand, the boneyard and every later
deal); ``?seed=`` and the records' seeds still reproduce a match exactly."""
from __future__ import annotations

import json

import pytest

from domino.app import saves, storage
from domino.app.session import MemoryStore, Session
from domino.app.settings import parse_seed
from domino.engine import common
from domino.engine.common import SEED_BITS, new_seed
from domino.engine.records import from_record, to_record

PATH = "/domino/"
FORM = {"game": "draw", "players": "2", "target": "100", "seat-kind-0": "human", "seat-name-0": "Ana",
        "seat-kind-1": "easy", "seat-name-1": "Lola"}


def _started(**params) -> Session:
    s = Session(MemoryStore(), PATH, params=params, browser_lang="en")
    s.handle({"action": "start", "form": dict(FORM)})
    assert s.ctrl is not None
    return s


def test_new_seeds_are_128_bits_from_the_os(monkeypatch):
    asked = []
    real = common.secrets.randbits

    def spy(k):
        asked.append(k)
        return real(k)

    monkeypatch.setattr(common.secrets, "randbits", spy)
    seeds = [new_seed() for _ in range(64)]
    assert asked == [SEED_BITS] * 64 and SEED_BITS >= 128
    assert len(set(seeds)) == 64
    assert max(x.bit_length() for x in seeds) > 120    # 2**31 would be 31


def test_a_new_match_takes_a_new_seed_and_its_record_replays(monkeypatch):
    monkeypatch.setattr(common.secrets, "randbits", lambda k: (1 << (k - 1)) | 12345)
    s = _started()
    m = s.ctrl.match
    assert m.seed == (1 << 127) | 12345
    doc = saves.load(s.store.get(storage.key(PATH, storage.SAVE)))
    again = from_record(json.loads(json.dumps(to_record(m))))
    assert again.seed == m.seed and again.hand.hands == m.hand.hands and doc is not None


def test_two_new_matches_are_not_dealt_alike():
    a, b = _started().ctrl.match, _started().ctrl.match
    assert a.seed != b.seed and a.seed.bit_length() > 64 and b.seed.bit_length() > 64


@pytest.mark.parametrize("raw,want", [("7", 7), (str(2 ** 128 - 1), 2 ** 128 - 1), ("-12", -12),
                                      ("bug-42", "bug-42"), ("9" * 41, None), ("--5", None)])
def test_url_seed_reproduces_a_match(raw, want):
    got, ok = parse_seed(raw)
    assert got == want and ok == (want is not None)
    if want is None:
        return
    a, b = _started(seed=raw).ctrl.match, _started(seed=raw).ctrl.match
    assert a.seed == want and a.hand.hands == b.hand.hands and a.hand.bone == b.hand.bone


def test_a_friends_match_takes_a_new_128_bit_seed_too():
    from tests.test_friends_session import started as friends_started
    _net, host, _guest = friends_started()
    assert host.ctrl.match.seed.bit_length() > 64
