"""Mexican Train at eight seats on a phone: places side by side too thin to tap apart are one
44 px area; a tap on it opens a dialog with one button per place (axe clean), and the button
plays the tile there.  The position is found in CPython (tests/trains_cases.py) for the board's
size as this phone lays it out, then loaded as the save."""
from __future__ import annotations

import json

import pytest

from a11y import axe_violations
from conftest import assert_no_py_error, restart
from trains_cases import crowded_places

from domino.app import page_decisions, saves, storage
from domino.engine.records import to_record

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def app_context_args():
    """A phone (the same as tests/browser/test_new_games.py's: one shared page for both)."""
    return {"viewport": PHONE, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def _load(page, m) -> tuple[int, int]:
    restart(page, "?delay=0", {storage.key("/domino/", storage.SAVE): saves.dump(m)})
    box = page.evaluate("() => { const r = document.getElementById('board').getBoundingClientRect();"
                        " return [Math.round(r.width), Math.round(r.height)]; }")
    return page_decisions.board_size(*box)


def test_crowded_places_are_one_tap_then_a_dialog_that_plays_the_tile_there(app):
    page = app
    size = (360, 420)
    for _ in range(3):      # the board's box as this phone lays out the position found for it
        m, c, _board, group = crowded_places(*size)
        got = _load(page, m)
        if got == size:
            break
        size = got
    else:
        raise AssertionError(f"the board's box kept changing: {size}")
    tile, ends = c.selected, group[1]["data-ends"].split()
    page.locator(f'button[data-tile="{tile}"]').click()
    area = page.locator(f'#board g.target-group[data-ends="{" ".join(ends)}"]')
    area.wait_for(timeout=10_000)
    assert area.bounding_box()["height"] >= 44 - 0.5
    assert page.locator("#board g.target[data-end]").evaluate_all(
        "(els, ends) => els.filter(e => ends.includes(e.dataset.end)).length", ends) == 0
    seq = m.seq
    area.click()
    dialog = page.locator('[data-testid="place-chooser"]')
    dialog.wait_for(timeout=10_000)
    buttons = dialog.locator('[data-action="end"]')
    assert buttons.evaluate_all("els => els.map(e => e.dataset.end)") == ends
    for i in range(buttons.count()):
        assert buttons.nth(i).bounding_box()["height"] >= 44 - 0.5
    assert axe_violations(page, '[data-testid="place-chooser"]') == []
    # Back closes it, the tile stays chosen; the area again, then the last place
    dialog.locator('[data-testid="place-chooser-back"]').click()
    dialog.wait_for(state="detached", timeout=10_000)
    area.click()
    page.locator(f'[data-testid="choose-{ends[-1]}"]').click()
    page.wait_for_function("s => Number(document.documentElement.dataset.seq) > s", arg=seq, timeout=10_000)
    saved = saves.load(page.evaluate(f"localStorage.getItem({json.dumps(storage.key('/domino/', storage.SAVE))})"))
    played = to_record(saved)["hands"][-1]["actions"][len(to_record(m)["hands"][-1]["actions"])]
    assert played["seat"] == 0 and played["play"] == tile and played["end"] == ends[-1]
    assert_no_py_error(page)
