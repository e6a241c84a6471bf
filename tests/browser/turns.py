"""A person's move on a friends' table in the browser, shared by the tests of play with friends."""
from __future__ import annotations


def tap_move(page) -> bool:
    """Tap the first playable tile (and its first place), or draw, or the first of the table's action
    buttons.  True when it tapped."""
    tiles = page.locator('.tile-btn[aria-disabled="false"]')
    if tiles.count():
        tiles.first.click()
        ends = page.locator('[data-action="end"], [data-action="open"]')
        if ends.count():
            ends.first.click()
        return True
    draw = page.locator('[data-testid="draw"]')
    if draw.count():
        draw.click()
        return True
    acts = page.locator('[data-action="act"]')
    if not acts.count():
        return False
    acts.first.click()
    return True
