"""Strict records and rules: every malformed input is a ReplayError (or a JSON
error from the CLI with its documented exit code), never a traceback; every
recorded result field is checked; make_rules refuses hand sizes and option
values the game does not offer."""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domino.app.settings import rules_error_text
from domino.engine.match import CODES, Match
from domino.engine.records import ReplayError, from_record, json_depth, load_json, to_record
from domino.engine.rules import PRESETS, RulesError, make_rules
from helpers import random_step

ROOT = Path(__file__).resolve().parents[2]


def _record(game="draw", players=2, seed=4, steps=30, hands_over=1) -> dict:
    """A real record: a finished hand, then part of the next one."""
    m = Match(make_rules(game, players=players), seed=seed)
    rng = random.Random(seed)
    done = 0
    while not m.finished:
        if m.phase == "hand-over":
            done += 1
            if done > hands_over:
                break
            m.next_hand()
            continue
        random_step(m, rng)
        if done == hands_over and len(m.hand.actions) >= steps:
            break
    return json.loads(json.dumps(to_record(m)))


def _finished_record() -> dict:
    m = Match(make_rules("block", players=2, target=100), seed=2)
    rng = random.Random(2)
    while not m.finished:
        if m.phase == "hand-over":
            m.next_hand()
        else:
            random_step(m, rng)
    return json.loads(json.dumps(to_record(m)))


def _error(doc) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        from_record(doc)
    assert info.value.code in CODES
    json.dumps(info.value.to_json())
    return info.value


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "domino", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


# ------------------------------------------------------------ the issue's cases
BAD = {
    "resigned-x": lambda d: d.update(resigned="x"),
    "resigned-far": lambda d: d.update(resigned={"seat": 0, "hand": 9, "index": 0}),
    "idle-x": lambda d: d.update(idle="x"),
    "idle-seat": lambda d: d.update(idle={"seat": 0, "hand": 1, "index": len(d["hands"][1]["actions"])}),
    "idle-early": lambda d: d.update(idle={"hand": 1, "index": 0}),
    "idle-far": lambda d: d.update(idle={"hand": 9, "index": 0}),
    "idle-and-resigned": lambda d: d.update(idle={"hand": 1, "index": len(d["hands"][1]["actions"])},
                                            resigned={"seat": 0, "hand": 1, "index": len(d["hands"][1]["actions"])}),
    "result-x": lambda d: d["hands"][0].update(result="x"),
    "end-list": lambda d: d["hands"][0]["actions"][1].update(end=["W"]),
    "deal-5": lambda d: d["hands"][0].update(deal=5),
    "set-float": lambda d: d["options"].update(set=6.0),
    "target-str": lambda d: d["options"].update(target="100"),
    "hand-size-0": lambda d: d["options"].update(hand_size=0),
    "players-bool": lambda d: d["options"].update(players=True),
    "options-list": lambda d: d.update(options=[1]),
    "game-list": lambda d: d.update(game=["draw"]),
    "seed-float": lambda d: d.update(seed=1.5),
    "seed-huge": lambda d: d.update(seed="9" * 5000),
    "seat-name-huge": lambda d: d["seats"][0].update(name="x" * 100_000),
    "seat-kind-int": lambda d: d["seats"][0].update(kind=3),
    "seats-str": lambda d: d.update(seats="ab"),
    "opener-str": lambda d: d["hands"][0].update(opener="0"),
    "redeals-neg": lambda d: d["hands"][0].update(redeals=-1),
    "boneyard-dict": lambda d: d["hands"][0].update(boneyard={}),
    "actions-dict": lambda d: d["hands"][0].update(actions={}),
    "pass-str": lambda d: d["hands"][0]["actions"].insert(1, {"seat": 1, "pass": "x"}),
    "play-and-draw": lambda d: d["hands"][0]["actions"][1].update(draw=None),
    "extra-key": lambda d: d["hands"][0]["actions"][1].update(evil=1),
    "tile-int": lambda d: d["hands"][0]["actions"][1].update(play=5),
    "tile-sup": lambda d: d["hands"][0]["actions"][1].update(play="\u00b2-1"),
    "open-str": lambda d: d["hands"][0]["actions"][1].update(open="x"),
    "result-missing-key": lambda d: d["hands"][0]["result"].pop("counts"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_malformed_records_are_replay_errors(name):
    doc = _record()
    assert from_record(copy.deepcopy(doc))
    BAD[name](doc)
    err = _error(doc)
    assert err.message


@pytest.mark.parametrize("field,value", [
    ("winner", 1), ("winner", "0"), ("counts", [0, 0]), ("counts", "x"),
    ("points", [1, 2]), ("totals", None), ("end", "x"),
])
def test_every_hand_result_field_is_checked(field, value):
    doc = _record()
    res = doc["hands"][0]["result"]
    if res[field] == value:
        value = [99, 99]
    res[field] = value
    assert _error(doc).code in ("score-mismatch", "bad-format")


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(finished=False),
    lambda d: d.update(finished=1),
    lambda d: d["outcome"].update(winner=1 - d["outcome"]["winner"]),
    lambda d: d["outcome"].update(reason="resign"),
    lambda d: d["outcome"].update(scores=[0, 0]),
    lambda d: d.update(outcome=None),
])
def test_match_outcome_and_finished_are_checked(mutate):
    doc = _finished_record()
    assert doc["finished"] is True and doc["outcome"]["winner"] in (0, 1)
    assert from_record(copy.deepcopy(doc)).finished
    mutate(doc)
    assert _error(doc).code == "score-mismatch"


def test_a_match_ended_idle_replays_and_its_end_is_checked():
    """RULES.md 3.5: a table with no move for 7 days ends with no winner; the record says where."""
    doc = _record()
    m = from_record(copy.deepcopy(doc))
    m.end_idle()
    assert m.finished and m.outcome == {"winner": None, "reason": "idle", "scores": m.scores}
    with pytest.raises(Exception):
        m.end_idle()
    idle = json.loads(json.dumps(to_record(m)))
    assert idle["idle"] == {"hand": 1, "index": len(doc["hands"][1]["actions"])}
    assert from_record(copy.deepcopy(idle)).state_key() == m.state_key()
    no_end = copy.deepcopy(idle)
    del no_end["idle"]
    assert _error(no_end).code == "score-mismatch"         # finished, with no reason to be
    moved = copy.deepcopy(idle)
    moved["hands"][1]["actions"].append({"seat": 0, "pass": True})
    assert _error(moved).code == "bad-format"


def test_unfinished_record_claiming_an_outcome():
    doc = _record()
    doc["finished"] = True
    assert _error(doc).code == "score-mismatch"


def test_deep_nesting_and_huge_texts_never_parse():
    deep = "[" * 100_000 + "]" * 100_000
    assert json_depth(deep) == 100_000
    assert json_depth('{"a": "[[[[[[", "b": [1, {"c": "]]\\"["}]}') == 3
    for text in (deep, '{"a":' * 50_000 + "1" + "}" * 50_000, "x" * 5_000_000, "9" * 5000,
                 b"\xff\xfe", "", "{", "[1,]", "NaN-"):
        with pytest.raises(ReplayError) as info:
            load_json(text)
        assert info.value.code == "bad-format"
    assert load_json('{"a": [1, 2]}') == {"a": [1, 2]}


# ------------------------------------------------------------ the CLI
@pytest.mark.parametrize("text", [
    json.dumps({"format": "domino-record/1", "resigned": "x"}),
    "[" * 200_000 + "]" * 200_000,
    "1" * 5000,
    "{not json",
    "\xff",
    "null",
], ids=["resigned-x", "deep", "huge-int", "not-json", "not-utf8", "null"])
def test_cli_replay_bad_files_exit_1_with_json(tmp_path, text):
    f = tmp_path / "bad.json"
    f.write_text(text, encoding="utf-8", errors="surrogateescape")
    p = _cli("replay", str(f))
    assert p.returncode == 1, (p.returncode, p.stdout[:300], p.stderr[-500:])
    assert "Traceback" not in p.stderr
    out = json.loads(p.stdout)
    assert out["code"] == "bad-format" and set(out) == {"hand", "index", "action", "code", "message"}


def test_cli_replay_every_issue_case(tmp_path):
    for name in ("resigned-x", "result-x", "end-list", "deal-5", "set-float"):
        doc = _record()
        BAD[name](doc)
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps(doc))
        p = _cli("replay", str(f))
        assert p.returncode == 1 and "Traceback" not in p.stderr, (name, p.stderr)
        assert json.loads(p.stdout)["code"] in CODES


@pytest.mark.parametrize("option", ["hand_size=0", "hand_size=-1", "hand_size=27", "set=6.0",
                                    "target=\u00b2", "players=9"])
def test_cli_simulate_bad_options_exit_2(option):
    p = _cli("simulate", "--game", "draw", "--matches", "1", "--option", option)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stdout == "" and "Traceback" not in p.stderr and p.stderr.startswith("error:")


# ------------------------------------------------------------ make_rules
@pytest.mark.parametrize("game,opts,code", [
    ("draw", {"hand_size": -1}, "not-allowed"),
    ("draw", {"hand_size": 0}, "not-allowed"),
    ("draw", {"hand_size": 27}, "not-allowed"),
    ("muggins", {"hand_size": 9}, "not-allowed"),
    ("muggins", {"hand_size": 2.5}, "not-allowed"),
    ("latin", {"hand_size": 5}, "locked"),
    ("draw", {"set": 6.0}, "not-allowed"),
    ("draw", {"target": [100]}, "not-allowed"),
    ("draw", {"keep_last_two": 1}, "not-allowed"),
    ("draw", {"players": 2.0}, "not-allowed"),
    ("draw", {"players": "\u00b2"}, "not-allowed"),
    ("draw", {"target": "9" * 5000}, "not-allowed"),
    ("matador", {"set": 6, "players": 4, "hand_size": 7, "target": 100}, None),
])
def test_make_rules_refuses_values_the_game_does_not_offer(game, opts, code):
    if code is None:     # a value the game offers still works
        assert make_rules(game, **opts).hand_size == 7
        return
    with pytest.raises(RulesError) as info:
        make_rules(game, **opts)
    assert info.value.code == code
    for lang in ("en", "es"):   # the new-game screen explains the code
        text = rules_error_text(lang, info.value)
        assert text and not text.startswith("rules.")


def test_records_keep_their_resolved_hand_sizes():
    for game in PRESETS:
        for n in PRESETS[game].choices("players"):
            r = make_rules(game, players=n)
            m = Match(r, seed=1)
            assert from_record(json.loads(json.dumps(to_record(m)))).rules == r


# ------------------------------------------------------------ fuzz
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["6-6", "0-1", "W", "E", "human", "draw"]),
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
        st.sampled_from(["seat", "play", "end", "draw", "pass", "hand", "index", "result",
                         "deal", "winner", "x"]), kids, max_size=4),
    max_leaves=12)

FUZZED = {"records": 0}


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, path + (i,))


BASE = _record(hands_over=1, steps=6)
BASE_PATHS = list(_paths(BASE))[1:]


def _mutate(doc, path, how, value):
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    key = path[-1]
    if how == "set":
        parent[key] = value
    elif how == "drop":
        del parent[key]
    elif how == "dup" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    else:
        parent[key] = [parent[key]]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from(BASE_PATHS), st.sampled_from(["set", "drop", "dup", "wrap"]),
                          JSON), min_size=1, max_size=3))
def test_fuzz_mutated_records_replay_or_replay_error(muts):
    doc = copy.deepcopy(BASE)
    for path, how, value in muts:
        try:
            _mutate(doc, path, how, value)
        except (KeyError, IndexError, TypeError):
            pass      # the path no longer exists after an earlier mutation
    FUZZED["records"] += 1
    try:
        m = from_record(doc)
    except ReplayError as exc:
        assert exc.code in CODES
        json.dumps(exc.to_json())
        return
    # accepted: then it is a real match whose record replays again
    assert from_record(json.loads(json.dumps(to_record(m)))).state_key() == m.state_key()


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(JSON)
def test_fuzz_random_json_is_a_replay_error(doc):
    with pytest.raises(ReplayError):
        from_record(doc)
    with pytest.raises(ReplayError):
        from_record({"format": "domino-record/1", "game": "draw", "options": {}, "seats": doc,
                     "hands": doc})
