"""Saves: format, the migration chain, corrupt saves."""
import json

import pytest

from domino.app import saves, storage
from domino.engine.match import Match
from domino.engine.records import to_record
from domino.engine.rules import make_rules


def _match(moves=6, game="draw", seed=11):
    m = Match(make_rules(game, players=2), seed=seed,
              seats=[{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}])
    for _ in range(moves):
        if m.phase != "play":
            break
        m.apply(m.legal_actions()[0])
    return m


def test_round_trip_same_state():
    m = _match()
    text = saves.dump(m)
    doc = json.loads(text)
    assert doc["format"] == "domino-save/1"
    assert doc["record"] == to_record(m)
    back = saves.load(text)
    assert back.state_key() == m.state_key()
    assert back.seq == m.seq
    assert back.view(0)["hand"] == m.view(0)["hand"]


def test_round_trip_finished_and_resigned():
    m = _match(200)
    assert m.phase != "play"
    assert saves.load(saves.dump(m)).state_key() == m.state_key()
    r = _match(3)
    r.resign(0)
    back = saves.load(saves.dump(r))
    assert back.outcome == r.outcome and back.outcome["reason"] == "resign"


def test_migration_from_v0():
    m = _match(5, game="block")
    old = saves.dump_v0(m, saved="2024-01-01T00:00:00Z")
    assert json.loads(old)["format"] == "domino-save/0"
    assert "record" not in json.loads(old)
    up = saves.migrate(json.loads(old))
    assert up["format"] == saves.FORMAT
    assert up["record"]["format"] == "domino-record/1"
    assert saves.load(old).state_key() == m.state_key()


def test_migration_chain_is_followed(monkeypatch):
    # a fictitious older format upgraded to /0, then /0 to /1
    def from_minus(doc):
        return dict(doc["inner"], format="domino-save/0")
    monkeypatch.setitem(saves.MIGRATIONS, "domino-save/-1", from_minus)
    m = _match(4)
    inner = json.loads(saves.dump_v0(m))
    del inner["format"]
    old = json.dumps({"format": "domino-save/-1", "inner": inner})
    assert saves.load(old).state_key() == m.state_key()


@pytest.mark.parametrize("text,why", [
    ("{not json", "json"),
    ("", "json"),
    ("[1, 2]", "json"),
    ('"just a string"', "json"),
    ('{"format": "domino-save/99", "record": {}}', "format"),
    ('{"record": {}}', "format"),
    ('{"format": "domino-save/1"}', "record"),
    ('{"format": "domino-save/1", "record": {"format": "domino-record/1"}}', "record"),
    ('{"format": "domino-save/0", "game": "draw"}', "record"),
])
def test_corrupt(text, why):
    with pytest.raises(saves.CorruptSave) as e:
        saves.load(text)
    assert e.value.why == why


def test_corrupt_when_replay_fails():
    m = _match(6)
    doc = json.loads(saves.dump(m))
    acts = doc["record"]["hands"][0]["actions"]
    acts.append(dict(acts[0]))  # a tile played twice
    with pytest.raises(saves.CorruptSave) as e:
        saves.load(json.dumps(doc))
    assert e.value.why == "record"
    doc = json.loads(saves.dump(m))
    doc["record"]["hands"][0]["deal"][0][0] = "9-9"
    with pytest.raises(saves.CorruptSave):
        saves.load(json.dumps(doc))


def test_keys_include_the_path():
    assert storage.key("/domino/", storage.SAVE) == "domino:/domino/:save"
    assert storage.key("/other/", storage.SAVE) != storage.key("/domino/", storage.SAVE)
    assert storage.corrupt_key("/domino/", "2025-01-01T00:00:00.000Z") == \
        "domino:/domino/:corrupt:2025-01-01T00:00:00.000Z"
    assert storage.key("/domino/", storage.SETTINGS) == "domino:/domino/:settings"
