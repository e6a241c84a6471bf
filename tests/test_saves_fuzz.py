"""The save loader under fuzzing: mutated saves, random JSON and random text
only ever give a loaded match or a CorruptSave; plus the helpers of the safety
net (corrupt copies, headers, files, settings)."""
from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino.app import saves, storage
from domino.engine.match import Match
from domino.engine.records import to_record
from domino.engine.rules import make_rules


def _match(moves=8, seed=3) -> Match:
    m = Match(make_rules("draw", players=2), seed=seed,
              seats=[{"name": "Ana", "kind": "human"}, {"name": "Rita", "kind": "easy"}])
    rng = random.Random(seed)
    for _ in range(moves):
        if m.phase != "play":
            break
        m.apply(rng.choice(m.legal_actions()))
    return m


BASE = json.loads(saves.dump(_match(), "abc123"))

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
    | st.text(max_size=10) | st.sampled_from(["domino-save/0", "domino-save/1", "domino-record/1", "human",
                                              "evil", "6-6", "draw"]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["format", "record", "seats", "name", "kind", "hands", "game", "options",
                         "seed", "id", "seq", "x"]), kids, max_size=4),
    max_leaves=12)


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


PATHS = list(_paths(BASE))[1:]
COUNT = {"saves": 0}


def _outcome(text):
    COUNT["saves"] += 1
    try:
        m, notes = saves.load_with_notes(text)
    except saves.CorruptSave as e:
        assert e.why in ("size", "json", "format", "record")
        return None
    # a loaded match is a real one, with seats a new game could have
    assert all(s["kind"] in saves.KINDS and len(s["name"]) <= saves.MAX_NAME for s in m.seats)
    assert saves.load(saves.dump(m, "x")).state_key() == m.state_key()
    return m


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from(PATHS), st.sampled_from(["set", "drop", "wrap"]), JSON),
                min_size=1, max_size=3))
def test_fuzz_mutated_saves(muts):
    doc = copy.deepcopy(BASE)
    for path, how, value in muts:
        try:
            parent = doc
            for p in path[:-1]:
                parent = parent[p]
            if how == "set":
                parent[path[-1]] = value
            elif how == "drop":
                del parent[path[-1]]
            else:
                parent[path[-1]] = [parent[path[-1]]]
        except (KeyError, IndexError, TypeError):
            pass
    _outcome(json.dumps(doc))


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(JSON)
def test_fuzz_random_json_saves(doc):
    assert _outcome(json.dumps(doc)) is None or isinstance(doc, dict)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=200) | st.binary(max_size=50).map(lambda b: b.decode("latin-1")))
def test_fuzz_random_text_saves(text):
    _outcome(text)
    d, ok = saves.load_settings(text)
    assert isinstance(d, dict)


@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000, '{"a":' * 40 + "1" + "}" * 40, "x" * (saves.MAX_SAVE_CHARS + 1),
    "9" * 5000, None, 5, "",
])
def test_hostile_saves_are_corrupt_not_crashes(text):
    with pytest.raises(saves.CorruptSave) as info:
        saves.load(text)
    assert info.value.why in ("size", "json")


def test_seats_are_validated_like_new_ones():
    doc = copy.deepcopy(BASE)
    doc["record"]["seats"] = [{"name": "  Ana   María ", "kind": "human"}, {"name": "n" * 60, "kind": "evil"}]
    m, notes = saves.load_with_notes(json.dumps(doc))
    assert [s["kind"] for s in m.seats] == ["human", saves.FALLBACK_LEVEL]
    assert m.seats[0]["name"] == "Ana María" and len(m.seats[1]["name"]) == saves.MAX_NAME
    assert notes == [("kind", 1), ("name", 1)]
    doc["record"]["seats"][1]["name"] = "n" * 100_000    # beyond any record: not a save
    with pytest.raises(saves.CorruptSave):
        saves.load(json.dumps(doc))


def test_header_reads_id_and_seq():
    m = _match()
    text = saves.dump(m, 'a"b')
    assert saves.header(text) == ('a"b', m.seq)
    old = json.dumps({"format": "domino-save/1", "record": to_record(m)})
    assert saves.header(old) == (saves.legacy_id(m), m.seq)
    for bad in (None, "", "{", "[" * 100_000, '{"format":"domino-save/1","id":"x","seq":"3",'):
        assert saves.header(bad) is None


def test_corrupt_copies_oldest_dropped_first():
    p = "/domino/"
    keys = [storage.corrupt_key(p, f"2024-01-0{i}T00:00:00.000Z") for i in (3, 1, 2, 4)]
    keys += ["other", storage.key(p, storage.SAVE)]
    assert storage.corrupt_keys(keys, p) == sorted(keys[:4])
    assert storage.corrupt_to_drop(keys, p, keep=2) == sorted(keys[:4])[:2]
    assert storage.corrupt_to_drop(keys, p, keep=5) == []


def test_export_import_round_trip():
    m = _match(12)
    text = saves.export_text(m)
    back, notes = saves.import_text(text)
    assert back.state_key() == m.state_key() and notes == []
    assert saves.import_text(saves.dump(m))[0].state_key() == m.state_key()   # a save file opens too
    assert saves.export_name(m, "2026-11-30T09:45:12.000Z") == "domino-draw-20261130-0945.json"
    doc = json.loads(text)
    doc["hands"][0]["actions"][0]["play"] = "9-9"
    with pytest.raises(saves.CorruptSave) as info:
        saves.import_text(json.dumps(doc))
    assert info.value.why == "record" and "hand 1, move 1" in info.value.detail
    with pytest.raises(saves.CorruptSave):
        saves.import_text('{"format": "something else"}')


def test_settings_loader():
    assert saves.load_settings(None) == ({}, True)
    assert saves.load_settings('{"lang": "es"}') == ({"lang": "es"}, True)
    for bad in ("[1]", "{", "[" * 100_000, "x" * 100_000):
        assert saves.load_settings(bad) == ({}, False)


def test_normalize_settings_survives_wrong_types():
    from domino.table import normalize_settings
    for new in ({"game": []}, {"game": {}}, {"players": [], "target": {}}, {"seats": [{"kind": []}, 5]},
                {"options": {"hand_size": []}}):
        s = normalize_settings(new)
        assert s["game"] in ("draw",) and len(s["seats"]) >= 4
