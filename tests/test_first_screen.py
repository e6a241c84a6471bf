"""The first visit's pre-built screen (static/first/<lang>.json, domino/app/first.py)
is the screen the session draws live, in both languages, for every game and
player count the form can show; and the built files are up to date."""
from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from domino.app import first
from domino.app.i18n import LANGS, t
from domino.app.nodes import find
from domino.app.settings import default_target, games
from domino.engine.match import HUMAN
from domino.engine.rules import PRESETS
from domino.table import computer_kinds, default_options, seat_names

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module", params=LANGS)
def built(request):
    return request.param, first.build(request.param)


def _plain(tree):
    """A tree as JSON has it (lists, not tuples)."""
    return json.loads(json.dumps(tree))


def test_the_start_screen_is_the_live_first_visit(built):
    lang, data = built
    live = first.fresh(lang).screen()
    assert _plain(first.expand(data, data["screens"][data["start"]])) == _plain(live)
    assert data["start"] == "draw/2" and data["lang"] == lang
    assert find(live, data_testid="new-game") and find(live, data_testid="quick-play")


def test_every_game_and_player_count_is_the_live_screen(built):
    lang, data = built
    assert set(data["screens"]) == {f"{g}/{n}" for g, n in first.variants()}
    for game, n in first.variants():
        live = first.at(lang, game, n).screen()
        tree = first.expand(data, data["screens"][f"{game}/{n}"])
        assert _plain(tree) == _plain(live), (game, n)
        # its game's own defaults (a new game starts from them)
        s = first.at(lang, game, n).new_settings
        assert s["target"] == default_target(game) and s["options"] == default_options(game)


def test_moves_follow_the_session(built):
    lang, data = built
    for key, moves in data["moves"].items():
        game, n = key.split("/")
        for change, to in moves.items():
            field, value = change.split("=")
            s = first.change(first.at(lang, game, int(n)), field, value)
            assert first.key_of(s) == to, (key, change)
            assert to in data["screens"]
    # Mexican Train at 8 back to Draw: Draw's player counts
    assert data["moves"]["mexican-train/8"]["game=draw"] == "draw/2"


def test_help_is_the_live_dialog(built):
    lang, data = built
    for g in games():
        s = first.fresh(lang)
        s.handle({"action": "help", "game": g["id"]})
        assert _plain(first.expand(data, data["help"][g["id"]])) == _plain(s.screen()[2][-1])
        assert g["name"][lang] in json.dumps(first.expand(data, data["help"][g["id"]]), ensure_ascii=False)


def test_built_files_are_up_to_date():
    """scripts/setup writes them (scripts/build_first.py); a change of the screens rebuilds them."""
    for lang, text in first.all_langs().items():
        path = ROOT / "static" / "first" / f"{lang}.json"
        assert path.is_file(), f"{path} missing: run scripts/setup"
        assert path.read_text(encoding="utf-8") == text, f"{path} is stale: run scripts/build_first.py"


def test_the_words_are_in_both_languages(built):
    lang, data = built
    assert set(data["words"]) == {"start", "other"} and all(data["words"].values())
    assert data["words"]["start"] != first.build("en" if lang == "es" else "es")["words"]["start"]


# static/first.js's seatNames, run by node on the file's "texts" (the page's own code, not a copy)
SEAT_NAMES_JS = r"""
const vm = require('vm'), fs = require('fs');
const ctx = {window: {}, navigator: {language: 'en'}, location: {pathname: '/', hash: ''},
             document: {documentElement: {getAttribute: () => null}, currentScript: null, baseURI: 'http://x/'},
             localStorage: {length: 1, key: () => 'domino:/:settings'}};   // a returning visit: only the helpers
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(process.argv[2], 'utf8'), ctx);
const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(cases.map(c => ctx.window.dominoFirst.seatNames(c.texts, c.seats))));
"""


def _first_js_names(tmp_path, cases: list[dict]) -> list:
    script = tmp_path / "names.js"
    script.write_text(SEAT_NAMES_JS, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(ROOT / "static" / "first.js")], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_first_js_names_the_seats_as_python_does(built, tmp_path):
    """The names first.js puts in the placeholders and the line by Play are
    settings.seat_names's for the tables players set up: 2 to 4 seats, every
    level on every seat, names typed or left blank (a person who takes a
    computer's name, two people of one name)."""
    lang, data = built
    kinds = [HUMAN] + computer_kinds()
    lola, lucia = data["texts"]["names"]["computers"]["medium"][:2]   # the medium level's first two
    typed = ["", "Ana", "Bea", " Carlos ", "", "Dani"]
    cases = []
    for n in (2, 3, 4):
        for seat_kinds in itertools.product(kinds, repeat=n):
            for names in (["", "", "", ""], typed[:n], typed[-n:], ["", "Ana", "", "Eva"][:n],
                          [lola, "", "", ""][:n], ["", lucia, "", lola][:n], ["Ana", "", "Ana", ""][:n]):
                seats = [{"kind": k, "name": nm} for k, nm in zip(seat_kinds, names)]
                cases.append({"texts": data["texts"], "seats": seats})
    for case, names in zip(cases, _first_js_names(tmp_path, cases)):
        settings = {"players": len(case["seats"]), "seats": case["seats"]}
        assert names == seat_names(settings, lang), case["seats"]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_first_js_names_any_table_as_python_does(built, tmp_path):
    """Any table (2 to 8 seats, typed names that take a persona's, repeated
    names, blanks, every level): first.js's names are seat_names's."""
    lang, data = built
    rng = random.Random(21)
    kinds = [HUMAN] + computer_kinds()
    pool = ["", "", "", " ", "Ana", "Ana", "Lola", "Lucía", "Pepe", "Doña Carmen", t(lang, "name.player", n=2),
            t(lang, "name.computer", n=1), "Chema ", "Paco"]
    pool += [name for names in data["texts"]["names"]["computers"].values() for name in names[:3]]
    cases = []
    for _ in range(600):
        n = rng.randint(2, 8)
        seats = [{"kind": rng.choice(kinds), "name": rng.choice(pool)} for _ in range(n)]
        cases.append({"texts": data["texts"], "seats": seats})
    for case, names in zip(cases, _first_js_names(tmp_path, cases)):
        settings = {"players": len(case["seats"]), "seats": case["seats"]}
        assert names == seat_names(settings, lang), case["seats"]


def test_the_codes_are_the_live_ones(built):
    """The table code first.js shows for a target with the game's own options
    is the one the live screen shows there."""
    lang, data = built
    for game, n in first.variants():
        key = f"{game}/{n}"
        s = first.at(lang, game, n)
        assert data["targets"][key] == s.new_settings["target"]
        for target, code in data["codes"][key].items():
            if target:
                first.change(s, "target", target)
            boxes = find(s.screen(), data_testid="lobby-code")
            assert boxes and boxes[0][1]["data-code"] == code, (key, target)
