"""The command line (python -m domino ...), run as a subprocess."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domino.engine.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]


def cli(*args):
    return subprocess.run([sys.executable, "-m", "domino", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_games_json_schema():
    p = cli("games", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert [g["id"] for g in doc["games"]] == list(PRESETS)
    for g in doc["games"]:
        assert set(g) >= {"id", "name", "players", "lobby_code", "options"}
        assert set(g["name"]) == {"en", "es"} and all(g["name"].values())
        assert g["players"] and all(2 <= n <= 8 for n in g["players"])
        assert isinstance(g["lobby_code"], str) and g["lobby_code"]
        for o in g["options"]:
            assert set(o) == {"key", "values", "default", "locked"}
            assert isinstance(o["locked"], bool) and isinstance(o["values"], list)
            if o["key"] != "hand_size":
                assert o["default"] in o["values"], (g["id"], o)
    byid = {g["id"]: g for g in doc["games"]}
    assert byid["draw"]["lobby_code"] == "100pt/ab." and byid["block"]["lobby_code"] == "100pt/cer."


SIM_KEYS = {"game", "players", "seats", "options", "seed", "matches", "hands", "teams", "wins",
            "draws", "mean_points_per_hand", "seconds"}


def test_simulate_output_and_determinism():
    args = ("simulate", "--game", "block", "--players", "4", "--seats", "random,random,random,random",
            "--matches", "3", "--seed", "5", "--option", "partnership=true")
    a, b = cli(*args), cli(*args)
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert set(ja) == SIM_KEYS
    assert ja["teams"] == [[0, 2], [1, 3]] and ja["players"] == 4 and ja["game"] == "block"
    assert sum(ja["wins"]) + ja["draws"] == 3 and len(ja["wins"]) == 2
    assert ja["seed"] == 5 and ja["matches"] == 3 and ja["hands"] >= 3
    ja.pop("seconds"), jb.pop("seconds")
    assert ja == jb
    c = cli("simulate", "--game", "draw", "--players", "3", "--matches", "2", "--seed", "6")
    jc = json.loads(c.stdout)
    assert c.returncode == 0 and jc["teams"] is None and len(jc["wins"]) == 3
    assert jc["seats"] == ["random"] * 3 and jc["options"]["players"] == 3


@pytest.mark.parametrize("args", [
    ("--game", "draw", "--players", "3", "--seats", "random,random"),
    ("--game", "draw", "--players", "2", "--option", "target=7"),
    ("--game", "draw", "--players", "2", "--option", "nonsense=1"),
    ("--game", "draw", "--players", "2", "--option", "target"),
    ("--game", "block", "--players", "2", "--option", "boneyard=draw"),
    ("--game", "nope", "--players", "2"),
    ("--game", "draw", "--players", "2", "--seats", "random,nobody"),
])
def test_simulate_usage_errors_exit_2(args):
    p = cli("simulate", "--matches", "1", *args)
    assert p.returncode == 2, (p.returncode, p.stdout, p.stderr)
    assert p.stdout == "" and p.stderr


def test_replay_missing_file_exits_2(tmp_path):
    assert cli("replay", str(tmp_path / "none.json")).returncode == 2


@pytest.mark.parametrize("game,players", [("mexican-train", 3), ("chicken-foot", 2), ("frijolito", 3),
                                          ("draw", 2), ("matador", 3)])
def test_simulate_records_replay(tmp_path, game, players):
    """simulate --records DIR writes every match as a record that replay accepts."""
    p = cli("simulate", "--game", game, "--players", str(players), "--matches", "2", "--seed", "4",
            "--records", str(tmp_path), *(["--option", "start_double=3"] if game in ("mexican-train", "chicken-foot") else []))
    assert p.returncode == 0, p.stderr
    sim = json.loads(p.stdout)
    files = sorted(tmp_path.glob("*.json"))
    assert [f.name for f in files] == [f"{game}-4-{i}.json" for i in range(2)]
    hands = 0
    for f in files:
        r = cli("replay", str(f))
        assert r.returncode == 0, r.stdout + r.stderr
        out = json.loads(r.stdout)
        doc = json.loads(f.read_text())
        assert out["finished"] and out["totals"] == doc["outcome"]["scores"]
        hands += len(out["hands"])
    assert hands == sim["hands"]
