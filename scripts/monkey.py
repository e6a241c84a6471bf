#!/usr/bin/env python3
"""A browser monkey test: thousands of random taps, keys, resizes, reloads and
back/forward across the game presets, checking after every step that

* no ``.py-error`` box (and no rescue screen) appeared,
* the page is not stuck busy (``html[data-busy="1"]``) for more than a few
  seconds, and a reload ends on a ready page,
* the save in localStorage loads and replays (domino.app.saves, in CPython)
  and holds the position on the screen.

Prints the inputs tried (by kind) and every failure found; exits 1 when
there was one.  tests/browser/test_monkey.py runs a short walk in the suite.

    .venv/bin/python scripts/monkey.py --inputs 3000 --seed 1
"""
from __future__ import annotations

import argparse
import json
import random
import string
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from domino.app import saves  # noqa: E402
from domino.engine.match import Match  # noqa: E402
from domino.engine.rules import PRESETS, make_rules  # noqa: E402

SIZES = [(360, 740), (390, 844), (844, 390), (1280, 720), (1920, 1080), (600, 400), (768, 1024)]
KEYS = ["Tab", "Shift+Tab", "Enter", " ", "Escape", "ArrowLeft", "ArrowRight", "ArrowDown"]
BUSY_LIMIT_S = 8.0       # "not stuck busy for more than a few seconds" (computers move at ?delay=0)
READY_LIMIT_MS = 90_000

# every control the player can reach; visible ones are picked at random
CONTROLS = ("[data-action], button, select, summary, input[type=checkbox], input[type=text], "
            "input[type=file]")

# the controls on screen: [index, "tag:type:testid", x, y] (centre of the visible part); with a modal dialog
# open, only its own (a player's tap elsewhere lands on the dialog's backdrop, and does nothing); with
# `anywhere`, also those scrolled out of view
VISIBLE = """([sel, anywhere]) => {
    const out = [];
    const modal = [...document.querySelectorAll('[aria-modal="true"]')].pop();
    document.querySelectorAll(sel).forEach((e, i) => {
        if (modal && !modal.contains(e)) return;
        const r = e.getBoundingClientRect();
        const file = e.type === 'file';
        if (!file && (r.width < 1 || r.height < 1 || e.disabled)) return;
        const x = Math.min(Math.max(r.left + r.width / 2, 1), innerWidth - 1);
        const y = Math.min(Math.max(r.top + r.height / 2, 1), innerHeight - 1);
        if (!file && !anywhere && (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth))
            return;
        out.push([i, e.tagName.toLowerCase() + ':' + (e.type || '') + ':' +
                  (e.getAttribute('data-testid') || e.getAttribute('data-action') || ''), x, y]);
    });
    return out;
}"""

STATE = """() => {
    const d = document.documentElement;
    let save = null;
    for (let i = 0; i < localStorage.length; i++) {
        const k = localStorage.key(i);
        if (k.startsWith('domino:') && k.endsWith(':save')) save = localStorage.getItem(k);
    }
    return {ready: d.dataset.ready || '', busy: d.dataset.busy || '', seq: d.dataset.seq || '',
            pyError: document.querySelectorAll('.py-error').length,
            rescue: !!document.querySelector('[data-testid="boot-error"]'),
            panel: !!document.querySelector('.overlay.safe'), guide: d.dataset.guide === '1', save: save};
}"""


def _names(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return ""
    if pick < 0.5:
        return "".join(rng.choice("ñÑáé😀 <>&\"'\u202e") for _ in range(rng.randint(1, 30)))
    return "".join(rng.choice(string.ascii_letters) for _ in range(rng.randint(1, 40)))


def _files(rng: random.Random, tmp: Path) -> Path:
    """A file to open: a real record of a preset, a tampered one, or junk."""
    game = rng.choice(list(PRESETS))
    try:
        m = Match(make_rules(game, players=rng.choice(PRESETS[game].choices("players"))), seed=rng.randint(1, 999))
        for _ in range(rng.randint(0, 30)):
            if m.finished:
                break
            if m.phase == "hand-over":
                m.next_hand()
            else:
                m.apply(rng.choice(m.legal_actions()))
        text = saves.export_text(m)
    except Exception:
        text = "{}"
    kind = rng.random()
    if kind < 0.3:
        text = text.replace('"seat": 0', '"seat": 1', 1)
    elif kind < 0.4:
        text = "[" * rng.choice([10, 1000, 100_000])
    elif kind < 0.5:
        text = "".join(rng.choice(string.printable) for _ in range(200))
    f = tmp / f"m{rng.randint(0, 10**9)}.json"
    f.write_text(text, encoding="utf-8")
    return f


class Monkey:
    def __init__(self, page, base_url: str, seed: int = 1, log=print, reloads: float = 0.015):
        self.page = page
        self.base = base_url
        self.rng = random.Random(seed)
        self.kinds: Counter = Counter()
        self.failures: list[str] = []
        self.steps = 0
        self.log = log
        self.saves_checked = 0
        self.seen: Counter = Counter()   # what the checks found: steps in the guided hand, with no save
        self.trail: list[str] = []       # the last inputs, with what they hit and what the screen then showed
        self.tmp = Path(tempfile.mkdtemp(prefix="domino-monkey-"))
        self.reloads = reloads     # share of inputs that load the page again (reload, back, forward, goto)

    # ------------------------------------------------------------ inputs
    def url(self) -> str:
        seed = self.rng.choice(["", "&seed=" + str(self.rng.randint(1, 10**6)), "&seed=abc", "&seed=--5"])
        return self.base + "?delay=0" + seed

    def goto(self, url: str) -> None:
        self.page.goto(url)
        self.wait_ready()

    def wait_ready(self) -> None:
        try:
            self.page.wait_for_selector('html[data-ready="1"]', state="attached", timeout=READY_LIMIT_MS)
        except Exception:
            self.fail("the page did not become ready")

    def step(self) -> None:
        page = self.page
        r = self.rng.random()
        if r >= self.reloads * 3:        # scale the rest into place
            r = 0.045 + (r - self.reloads * 3) / (1 - self.reloads * 3) * 0.955
        else:
            r = r / (self.reloads * 3) * 0.045
        if r < 0.015:
            self.kinds["reload"] += 1
            self.note("reload")
            page.reload()
            self.wait_ready()
        elif r < 0.035:
            back = r < 0.025
            self.kinds["back" if back else "forward"] += 1
            self.note("back" if back else "forward")
            page.go_back() if back else page.go_forward()
            if not page.url.startswith(self.base):   # before the first page: come back in
                self.goto(self.url())
            self.wait_ready()
        elif r < 0.045:
            self.kinds["goto"] += 1
            self.note("goto")
            self.goto(self.url())
        elif r < 0.09:
            self.kinds["resize"] += 1
            w, h = self.rng.choice(SIZES)
            page.set_viewport_size({"width": w, "height": h})
        elif r < 0.2:
            self.kinds["key"] += 1
            key = self.rng.choice(KEYS)
            self.note("key:" + key)
            page.keyboard.press(key)
        else:
            start = page.locator('[data-testid="start"]:not([disabled])')
            box = start.first.bounding_box() if self.rng.random() < 0.2 and start.count() else None
            if box is not None and box["width"] > 0 and box["height"] > 0:
                self.kinds["start"] += 1     # play more than the new-game form
                self.note("start")
                # a real tap where the button shows: a dialog over it takes the tap, as it would a
                # player's (a locator click waited 2 s for the dialog to go, each time)
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
                return
            self.tap()

    def tap(self) -> None:
        page = self.page
        try:
            found = page.evaluate(VISIBLE, [CONTROLS, False])
            away = [] if found else page.evaluate(VISIBLE, [CONTROLS, True])
        except Exception:
            found = away = []
        if away:     # all out of view (a dialog's buttons under a long text on a short screen): scroll, as a player does
            i, tag, _, _ = self.rng.choice(away)
            self.kinds["scroll"] += 1
            self.note("scroll:" + tag)
            try:
                page.locator(CONTROLS).nth(i).scroll_into_view_if_needed(timeout=2000)
            except Exception:
                self.kinds["missed"] += 1
            return
        if not found:
            self.kinds["nothing"] += 1
            try:
                self.note("nothing:" + page.evaluate(
                    "() => ([...document.querySelectorAll('[aria-modal=\"true\"]')].pop() || {outerHTML: ''})"
                    ".outerHTML.slice(0, 120)"))
            except Exception:
                self.note("nothing")
            return
        i, tag, x, y = self.rng.choice(found)
        self.note(tag)
        el = page.locator(CONTROLS).nth(i)
        try:
            if tag.startswith("select"):
                self.kinds["select"] += 1
                opts = el.locator("option")
                k = opts.count()
                if k and el.is_enabled():
                    el.select_option(index=self.rng.randrange(k), timeout=2000)
            elif tag.startswith("input:text"):
                self.kinds["type"] += 1
                el.fill(_names(self.rng), timeout=2000)
            elif tag.startswith("input:file"):
                self.kinds["open-file"] += 1
                el.set_input_files(str(_files(self.rng, self.tmp)), timeout=2000)
            elif "start-fresh" in tag or tag.endswith(":reload"):
                return   # the rescue screen's buttons: its presence is a failure already
            else:
                self.kinds["tap"] += 1
                page.mouse.click(x, y)      # a real tap where it shows, no waiting
        except Exception:
            self.kinds["missed"] += 1   # the element went away (re-render): a real player misses too

    def note(self, what: str) -> None:
        self.trail = self.trail[-59:] + [f"{self.steps}:{what}"]

    # ------------------------------------------------------------ checks
    def fail(self, why: str) -> None:
        self.failures.append(f"step {self.steps}: {why}")
        self.log(f"FAIL step {self.steps}: {why}")

    def check(self) -> None:
        page = self.page
        t0 = start = time.monotonic()
        last_seq = None
        moving = False
        while True:
            try:
                st = page.evaluate(STATE)
            except Exception:      # navigating
                page.wait_for_timeout(100)
                if time.monotonic() - t0 > READY_LIMIT_MS / 1000:
                    self.fail("the page never settled")
                    return
                continue
            if st["ready"] == "1" and st["busy"] == "1" and st["seq"] != last_seq:
                moving = last_seq is not None
                last_seq = st["seq"]      # computers playing each other: busy, but moving on
                t0 = time.monotonic()
            if moving and time.monotonic() - start > 1.0:
                break                     # not stuck: go on tapping while they play
            if st["ready"] != "1" or st["busy"] == "1":
                if time.monotonic() - t0 > (READY_LIMIT_MS / 1000 if st["ready"] != "1" else BUSY_LIMIT_S):
                    self.fail("stuck busy" if st["ready"] == "1" else "not ready")
                    return
                page.wait_for_timeout(50)
                continue
            break
        self.seen["guide"] += bool(st["guide"])
        self.seen["no-save"] += st["save"] is None
        self.note("=" + "".join(k[0] for k in ("panel", "guide", "save") if st[k]) + "/" + st["seq"])
        if st["pyError"]:
            self.fail("a .py-error box: " + " | ".join(page.locator(".py-error").all_inner_texts())[:300])
        if st["rescue"]:
            self.fail("the rescue screen: " + page.locator('[data-testid="boot-error"]').inner_text()[:300])
        if st["save"] is not None:
            try:
                m = saves.load(st["save"])
                self.saves_checked += 1
            except saves.CorruptSave as e:
                self.fail(f"the save does not replay: {e}")
                return
            if st["busy"] != "1" and not st["panel"] and not st["guide"] and st["seq"] not in ("", "0") \
                    and int(st["seq"]) != m.seq:   # (the guided hand is never saved)
                # one more look: a save lands right after the screen
                page.wait_for_timeout(200)
                st2 = page.evaluate(STATE)
                m2 = saves.load(st2["save"]) if st2["save"] else None
                if m2 is not None and st2["busy"] != "1" and not st2["panel"] and not st2["guide"] \
                        and st2["seq"] not in ("", "0") \
                        and int(st2["seq"]) != m2.seq:
                    self.fail(f"the screen shows seq {st2['seq']}, the save holds {m2.seq if m2 else None}")

    def run(self, inputs: int, max_seconds: float | None = None) -> dict:
        t0 = time.monotonic()
        self.goto(self.url())
        self.check()
        done = 0
        for self.steps in range(1, inputs + 1):
            if max_seconds is not None and time.monotonic() - t0 > max_seconds:
                break
            done = self.steps
            try:
                self.step()
            except Exception as e:      # a Playwright error is the monkey's, not the game's
                self.kinds["error"] += 1
                self.log(f"step {self.steps}: input error {type(e).__name__}: {str(e)[:400]}")
            self.check()
            if self.steps % 250 == 0:
                self.log(f"{self.steps} inputs, {len(self.failures)} failures, {time.monotonic() - t0:.0f} s")
        return {"inputs": done, "by_kind": dict(self.kinds), "saves_checked": self.saves_checked,
                "seen": dict(self.seen), "trail": self.trail,
                "failures": self.failures, "seconds": round(time.monotonic() - t0, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--inputs", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-seconds", type=float, default=None, help="stop after this long (reports what was done)")
    ap.add_argument("--reloads", type=float, default=0.015, help="share of reloads (and as many back/forward, goto)")
    args = ap.parse_args(argv)
    from devserver import DevServer
    from find_browser import LAUNCH_ARGS, find_chromium
    from playwright.sync_api import sync_playwright
    server = DevServer(root=str(ROOT), port=0, prefix="/domino/")
    server.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=find_chromium(), args=LAUNCH_ARGS)
            ctx = browser.new_context(service_workers="block", accept_downloads=True)
            page = ctx.new_page()
            out = Monkey(page, server.url, args.seed, log=lambda s: print(s, file=sys.stderr),
                         reloads=args.reloads).run(args.inputs, args.max_seconds)
            browser.close()
    finally:
        server.stop()
    print(json.dumps(out, indent=1))
    print(f"inputs tried: {out['inputs']}; saves replayed: {out['saves_checked']}; "
          f"failures found: {len(out['failures'])}", file=sys.stderr)
    return 1 if out["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
