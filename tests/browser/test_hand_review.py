"""Review the hand in Chromium on a phone: a hand played against the computer, its review stepped to the end
and back to the deal with every seat's tiles face up, axe clean, closed back to the hand's end."""
from __future__ import annotations

import pytest

from a11y import axe_violations
from test_app import idle, open_app, play_until, saved_match, start, tid

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(app):
    """The worker's shared page, on the app's first screen."""
    return app


def step(page, which: str) -> int:
    page.locator(f'[data-testid="review-step"][data-step="{which}"]').click()
    idle(page)
    return int(tid(page, "review").get_attribute("data-step"))


def test_review_the_hand_on_a_phone(page, assert_no_py_error):
    page.set_viewport_size(PHONE)
    open_app(page, "&seed=5")
    level = tid(page, "seat-kind-1").locator("option").nth(1).get_attribute("value")
    start(page, "draw", kinds=("human", level), names=("Ana", ""))
    play_until(page, "hand-result")
    m = saved_match(page)
    rec = m.records[-1]
    tid(page, "review-hand").click()
    idle(page)
    rv = tid(page, "review")
    rv.wait_for()
    last = int(rv.get_attribute("data-steps"))
    assert last == len(rec["actions"]) and int(rv.get_attribute("data-step")) == 0
    assert page.locator('[data-testid="review-board"] svg').count() == 1
    seats = tid(page, "review-seat")
    assert seats.count() == 2
    # the deal: the computer's tiles too, face up
    final = [sorted(x) for x in m.view(0)["result"]["hands"]]
    assert seats.nth(1).locator(".mini").count() == 7
    assert axe_violations(page) == [], "the deal"
    for i in range(1, last + 1):
        assert step(page, "forward") == i
    assert tid(page, "review-words").inner_text().strip()
    for seat in range(2):
        shown = sorted(seats.nth(seat).get_attribute("data-tiles").split())
        assert shown == final[seat], "the review ends on the hand's end"
    assert axe_violations(page, '[data-testid="review"]') == [], "the end"
    assert step(page, "back") == last - 1
    assert step(page, "first") == 0
    tid(page, "review-close").click()
    idle(page)
    assert tid(page, "review").count() == 0 and tid(page, "hand-result").count() == 1
    assert_no_py_error(page)
