"""A short monkey walk (scripts/monkey.py): a few hundred random taps, keys,
resizes and a reload or two, checking after every step that no .py-error
appeared, that the page is never stuck busy, and that the save replays."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from monkey import Monkey  # noqa: E402


def test_short_monkey_walk(page, site):
    out = Monkey(page, site.url, seed=11, log=lambda s: None, reloads=0.004).run(300)
    assert out["failures"] == [], out
    assert sum(out["by_kind"].values()) >= 300
    assert out["by_kind"].get("tap", 0) > 100 and out["saves_checked"] > 50, out
