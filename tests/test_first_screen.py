"""The first visit's pre-built screen (static/first/<lang>.json, domino/app/first.py)
is the screen the session draws live, in both languages, for every game and
player count the form can show; and the built files are up to date."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from domino.app import first
from domino.app.i18n import LANGS
from domino.app.nodes import find
from domino.app.settings import default_options, default_target, games
from domino.engine.rules import PRESETS

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
