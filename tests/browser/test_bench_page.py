"""The computer-players bench page (static/bench/ai.html) still runs.

scripts/bench_ai_browser.py reads its JSON; this only keeps the page from
rotting (imports, [files] list in ai.toml, query parsing, result shape), with
one short hand.  No timing is asserted.
"""
from __future__ import annotations

import json

DONE = "document.documentElement.dataset.done === '1' || !!document.querySelector('.py-error')"
SUMMARY = {"decisions", "mean_ms", "median_ms", "p95_ms", "max_ms"}


def test_bench_page_reports_every_level(page, site, assert_no_py_error):
    page.goto(site.url + "static/bench/ai.html?game=draw&players=2&hands=1&seed=bench")
    page.wait_for_function(DONE, timeout=60_000, polling=200)
    assert_no_py_error(page)
    data = json.loads(page.locator("#result").inner_text())
    assert "error" not in data, data["error"]
    assert (data["game"], data["players"], data["hands"]) == ("draw", 2, 1)
    levels = data["levels"]
    assert set(levels) == {"easy", "medium", "hard"}
    for level, res in levels.items():
        assert SUMMARY <= set(res), (level, sorted(res))
        assert res["decisions"] > 0 and len(res["wall_ms"]) == res["decisions"]
        assert 0 <= res["median_ms"] <= res["max_ms"]
    hard = levels["hard"]
    assert {"max_slice_ms", "slices", "busy_ms", "rollout_max_ms"} <= set(hard)
    assert len(hard["slices"]) == hard["decisions"] and min(hard["slices"]) >= 1
    assert 0 < hard["max_slice_ms"] <= hard["max_ms"] + 1e-6
