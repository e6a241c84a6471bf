"""A short monkey walk (scripts/monkey.py): a few hundred random taps, keys,
resizes and a reload or two, checking after every step that no .py-error
appeared, that the page is never stuck busy, and that the save replays.
The walk starts on the worker's shared page (conftest ``app``): its first
visit starts the app again there instead of booting a page of its own; the
walk's own reloads, back, forward and visits are real ones."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import restart

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
from monkey import Monkey  # noqa: E402


class SharedPageMonkey(Monkey):
    """A Monkey whose first visit is a restart of the already booted page."""

    started = False

    def goto(self, url: str) -> None:
        if not self.started and url.startswith(self.base + "?"):
            self.started = True
            restart(self.page, url[len(self.base):])
            return
        super().goto(url)


def test_short_monkey_walk(app, site):
    out = SharedPageMonkey(app, site.url, seed=11, log=lambda s: None, reloads=0.004).run(300)
    assert out["failures"] == [], out
    assert sum(out["by_kind"].values()) >= 300
    # the walk played: most inputs reached a control (taps, choices, names, files: the share of each depends
    # on the screens the walk wandered through), and a match was saved and replayed after most steps
    reached = sum(out["by_kind"].get(k, 0) for k in ("tap", "start", "select", "type", "open-file"))
    assert reached > 150 and out["saves_checked"] > 50, json.dumps(out)
    # the walk's own inputs seldom fail (a locator click that waited 2 s for a dialog to go, every
    # time, made the walk 150 s instead of 10 s without a check more)
    assert out["by_kind"].get("error", 0) <= 5, out
