"""The layout sweep: every game at its largest table, on a 360 x 740 phone
(in Spanish, the longer language) and a 1280 x 800 desktop (in English),
through one whole round each, checked after every move.

A checker installed in the page (``SWEEP``) runs after every change of the
page (a MutationObserver, so Playwright does not round-trip per move) and
records what a player would see wrong into ``window.__sweep.faults``:

* a name or score cut (its box scrolls: ``scrollWidth > clientWidth``, an
  ellipsis, a word split over two lines, a board lane's name ending in
  "…"), clipped by a box round it, or past the screen's left or right edge;
* two board tiles overlapping (each tile's body rectangle is taken through
  its SVG transforms to the screen, ``getScreenCTM``, and the rotated
  rectangles are compared exactly, separating axes, 0.5 px allowed);
* an end's number lying on a tile;
* on the phone, a visible button, select, input, link or [role=button]
  smaller than 44 x 44 px; a place on the board (``[data-equiv]``, hidden
  from the keyboard) may be smaller only while the button it names, its
  equivalent, is shown and 44 px (WCAG 2.5.8).

Seat 1 is a person, the others easy computers at ``?delay=0``; the page's
own driver (in ``SWEEP`` too) taps the person's first playable tile, its
first place, or the first choice, so a round plays itself."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from domino.app.settings import games  # noqa: E402
from conftest import restart  # noqa: E402
from test_app import idle, tid  # noqa: E402

VIEWPORTS = {"phone": ({"width": 360, "height": 740}, "es"),
             "desktop": ({"width": 1280, "height": 800}, "en")}
#: every game the new-game screen offers, at the most players it allows
GAMES = [(g["id"], max(next(o["values"] for o in g["options"] if o["key"] == "players"))) for g in games()]

#: What the sweep still finds, left for issue 20 (printed, not failed):
#: nothing now.  (Chicken Foot's toes at eight seats end ~29 px apart on a
#: phone: their places are listed as 44 px buttons under the board;
#: Mexican Train's lanes: 44 px tap areas, and places side by side too thin
#: to tap apart one area that asks which.)
STILL_OPEN: tuple = ()   # faults known and not yet fixed (none: every fault fails the sweep)

SWEEP = r"""
(() => {
const S = window.__sweep = {faults: {}, samples: 0, seqs: new Set(), game: null, phone: false,
                            drive: false, done: false, taps: 0};
const TOL = 0.5;
const NAMES = '.scores .chip .names, .scores .chip .pts, .seat .seat-name, .seat .seat-score, ' +
              '.seat .seat-n, .hand-label';
const TAPS = 'button, select, input:not([type=hidden]), [role=button], a, [data-equiv]';

function fault(kind, what, detail) {   // counted by game, kind and what; the latest detail kept
  const k = `${S.game} | ${kind} | ${what}`;
  const f = S.faults[k] || (S.faults[k] = {seen: 0});
  f.seen++;
  if (detail) f.detail = detail;
}
function shown(el) {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return null;
  if (el.closest('[hidden], .sr-only, [aria-hidden=true] .sr-only')) return null;
  const cs = getComputedStyle(el);
  if (cs.visibility === 'hidden' || cs.display === 'none') return null;
  return r;
}
function label(el) { return (el.textContent || '').trim().slice(0, 40) || el.getAttribute('aria-label') || el.tagName; }

// ----- names and scores
function words_split(el) {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const re = /\S+/g;
    let m;
    while ((m = re.exec(n.data))) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) return m[0];
    }
  }
  return null;
}
function clip_box(el) {   // the nearest box round el that hides what overflows it
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') return p;
  }
  return null;
}
function names() {
  const vw = innerWidth;
  for (const el of document.querySelectorAll(NAMES)) {
    const r = shown(el);
    if (!r) continue;
    const what = label(el);
    if (el.scrollWidth > el.clientWidth + 1) fault('name cut', what, `${el.scrollWidth} > ${el.clientWidth} px`);
    const cs = getComputedStyle(el);
    if (cs.overflowY !== 'visible' && el.scrollHeight > el.clientHeight + 1) fault('name cut', what, 'height');
    if (r.left < -TOL || r.right > vw + TOL) fault('name off screen', what, `${Math.round(r.left)}..${Math.round(r.right)}`);
    const w = words_split(el);
    if (w) fault('name split', `${what}: "${w}"`);
    const box = clip_box(el);
    if (box && !(box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX === 'auto')) {
      const b = box.getBoundingClientRect();
      if (r.left < b.left - TOL || r.right > b.right + TOL || r.top < b.top - TOL || r.bottom > b.bottom + TOL)
        fault('name clipped', `${what} by .${box.className.split(' ')[0]}`);
    }
  }
  for (const t of document.querySelectorAll('svg.board text.lane-name')) {
    if (t.textContent.includes('…')) fault('name cut', `lane "${t.textContent}"`);
    const lane = t.closest('g.train');
    const chip = lane && lane.querySelector('rect.lane-chip');
    if (chip) {
      const a = t.getBoundingClientRect(), b = chip.getBoundingClientRect();
      if (a.right > b.right + TOL) fault('name cut', `lane "${t.textContent}" past its chip`);
    }
  }
}

// ----- the board: rotated rectangles on the screen
function quad(el) {
  const m = el.getScreenCTM();
  const x = el.x.baseVal.value, y = el.y.baseVal.value, w = el.width.baseVal.value, h = el.height.baseVal.value;
  return [[x, y], [x + w, y], [x + w, y + h], [x, y + h]].map(([px, py]) =>
    [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f]);
}
function axes(p) {
  const out = [];
  for (let i = 0; i < p.length; i++) {
    const [x0, y0] = p[i], [x1, y1] = p[(i + 1) % p.length];
    const n = Math.hypot(x1 - x0, y1 - y0) || 1;
    out.push([-(y1 - y0) / n, (x1 - x0) / n]);
  }
  return out;
}
function overlap(p, q) {   // how deep two convex polygons overlap (0: apart or touching)
  let depth = Infinity;
  for (const [ax, ay] of axes(p).concat(axes(q))) {
    const a = p.map(([x, y]) => x * ax + y * ay), b = q.map(([x, y]) => x * ax + y * ay);
    const d = Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b));
    if (d <= 0) return 0;
    depth = Math.min(depth, d);
  }
  return depth;
}
function dist(pt, p) {     // from a point to a convex polygon (< 0 inside)
  const [x, y] = pt;
  let best = Infinity, pos = 0, neg = 0;
  for (let i = 0; i < p.length; i++) {
    const [x0, y0] = p[i], [x1, y1] = p[(i + 1) % p.length];
    const dx = x1 - x0, dy = y1 - y0;
    const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)));
    best = Math.min(best, Math.hypot(x - x0 - t * dx, y - y0 - t * dy));
    const c = dx * (y - y0) - dy * (x - x0);
    if (c >= 0) pos++; else neg++;
  }
  return (pos === p.length || neg === p.length) ? -best : best;
}
function board() {
  const svg = document.querySelector('[data-testid=board] svg.board');
  if (!svg) return;
  const tiles = [...svg.querySelectorAll('g.tile > rect.tile-body, g.row-tile > rect.tile-body, g.row-tile > rect.tile-back')]
    .map(el => ({name: el.parentElement.dataset.tile || 'row ' + el.parentElement.dataset.pos, poly: quad(el)}));
  for (const t of tiles) {
    const xs = t.poly.map(p => p[0]), ys = t.poly.map(p => p[1]);
    t.box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  for (let i = 0; i < tiles.length; i++) for (let j = i + 1; j < tiles.length; j++) {
    const a = tiles[i].box, b = tiles[j].box;
    if (a[0] >= b[2] - TOL || b[0] >= a[2] - TOL || a[1] >= b[3] - TOL || b[1] >= a[3] - TOL) continue;
    const d = overlap(tiles[i].poly, tiles[j].poly);
    if (d > TOL) fault('tiles overlap', `${tiles[i].name} and ${tiles[j].name}`, `${d.toFixed(1)} px`);
  }
  for (const c of svg.querySelectorAll('[data-testid=end-label] > circle, g.open-end > circle')) {
    const m = c.getScreenCTM();
    const cx = c.cx.baseVal.value, cy = c.cy.baseVal.value;
    const pt = [m.a * cx + m.c * cy + m.e, m.b * cx + m.d * cy + m.f];
    const r = c.r.baseVal.value * Math.hypot(m.a, m.b);
    for (const t of tiles) {
      if (dist(pt, t.poly) < r - TOL) fault('end label on a tile', `${c.parentElement.textContent.trim()} on ${t.name}`);
    }
  }
}

// ----- targets on the phone
function targets() {
  for (const el of document.querySelectorAll(TAPS)) {
    let r = shown(el);
    if (!r) continue;
    if (el.matches('input[type=checkbox], input[type=radio]')) {
      const lab = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (lab) r = lab.getBoundingClientRect();
    }
    if (r.width < 44 - TOL || r.height < 44 - TOL) {
      // a mark on the board may be small when its equivalent, a button it names, is shown and 44 px
      const eq = el.dataset.equiv && document.getElementById(el.dataset.equiv);
      const er = eq && shown(eq);
      if (er && er.width >= 44 - TOL && er.height >= 44 - TOL && eq.closest('[aria-hidden=true]') === null) continue;
      if (el.dataset.equiv) { fault('target under 44 px', 'a place on the board without its button', el.dataset.equiv); continue; }
      const what = el.matches('[data-tile]') ? 'a tile of the hand' : el.matches('svg *') ? 'a place on the board'
        : `${el.tagName.toLowerCase()} "${label(el)}"`;
      fault('target under 44 px', what, `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
}

function check() {
  if (!S.game) return;
  const t0 = performance.now();
  try { check1(); } finally { S.ms = (S.ms || 0) + performance.now() - t0; }
}
function check1() {
  S.samples++;
  S.seqs.add(document.documentElement.dataset.seq);
  names();
  board();
  if (S.phone) targets();
  if (document.documentElement.scrollWidth > innerWidth + 1) fault('page scrolls sideways', `${document.documentElement.scrollWidth} px`);
}

// ----- the person's taps
function tap(el) {
  S.taps++;
  el.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
}
function drive() {
  if (!S.drive || document.documentElement.dataset.busy !== '0') return;
  if (document.querySelector('[data-testid=hand-result], [data-testid=match-result]')) {
    S.drive = false; S.done = true; return;
  }
  const q = s => document.querySelector(s);
  const el = q('[data-testid=handoff-continue]') || q('[data-action=end]')
    || q('.hand button[data-tile][aria-disabled=false]:not([aria-pressed=true])')
    || q('.choices button') || q('[data-testid=draw]');
  if (el) tap(el);
}

// ----- the games, one round each, set up on the new-game screen as a player would
const sleep = ms => new Promise(r => setTimeout(r, ms));
async function settle() {
  for (let calm = 0; calm < 2; await sleep(10)) calm = document.documentElement.dataset.busy === '0' ? calm + 1 : 0;
}
async function choose(testid, value) {
  const el = document.querySelector(`[data-testid="${testid}"]`);
  if (!el) throw new Error('no ' + testid);
  if (el.value === value) return;
  el.value = value;
  el.dispatchEvent(new Event('change', {bubbles: true}));
  await settle();
}
S.run = async (games) => {
  try { await run(games); } catch (e) { S.error = String(e && e.stack || e); }
  S.game = null;
  S.finished = true;
};
async function run(games) {
  S.report = {};
  for (const [game, n] of games) {
    const t0 = performance.now();
    await settle();
    if (!document.querySelector('[data-testid=game]')) { tap(document.querySelector('[data-testid=menu]')); await settle(); }
    await choose('game', game);
    await choose('players', String(n));
    for (let i = 0; i < n; i++) await choose(`seat-kind-${i}`, i ? 'easy' : 'human');
    Object.assign(S, {game, done: false, drive: false, samples: 0, seqs: new Set(), taps: 0, ms: 0});
    tap(document.querySelector('[data-testid=start]'));
    await settle();
    const ok = document.querySelector('[data-testid=replace-confirm]');
    if (ok) { tap(ok); await settle(); }
    const t1 = performance.now();
    S.taps = 0;
    S.drive = true;
    while (!S.done && performance.now() - t1 < 90000) await sleep(50);
    if (!S.done) fault('round not over', 'in 90 s');
    S.drive = false;
    S.report[game] = {players: n, samples: S.samples, positions: S.seqs.size, taps: S.taps,
                      setup_s: Math.round(t1 - t0) / 1000, play_s: Math.round(performance.now() - t1) / 1000,
                      check_s: Math.round(S.ms) / 1000};
  }
}

let due = false;
new MutationObserver(() => {
  if (due) return;
  due = true;
  queueMicrotask(() => { due = false; try { check(); } catch (e) { fault('checker failed', String(e)); } });
}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
setInterval(drive, 15);
})();
"""


def guarded(context, site, external_requests):
    """A page of ``context`` whose requests leave nothing but the local server (as conftest's page)."""
    origin = site.origin + "/"
    context.on("request", lambda r: r.url.startswith((origin, "data:", "blob:", "about:"))
               or external_requests.append(r.url))
    return context.new_page()


def open_sweep(pg, site, wait_ready, where: str):
    size, lang = VIEWPORTS[where]
    pg.add_init_script(SWEEP)
    pg.set_viewport_size(size)
    pg.goto(site.url + "?delay=0&seed=11")
    wait_ready(pg)
    idle(pg)
    if pg.evaluate("document.documentElement.lang") != lang:
        tid(pg, "lang").click()
        idle(pg)
    pg.evaluate(f"window.__sweep.phone = {str(where == 'phone').lower()}")


def test_every_game_at_its_largest_table_reads_whole(page, browser, site, wait_ready, assert_no_py_error,
                                                     external_requests):
    """The phone and the desktop play side by side (two pages, two
    processes): each plays one round of every game and checks each move."""
    desk_ctx = browser.new_context(service_workers="block")
    pages = {"phone": page, "desktop": guarded(desk_ctx, site, external_requests)}
    try:
        for where, pg in pages.items():
            open_sweep(pg, site, wait_ready, where)
        for pg in pages.values():
            pg.evaluate("g => { window.__sweep.run(g); }", GAMES)
        out = {}
        deadline = time.monotonic() + 600
        while len(out) < len(pages):
            assert time.monotonic() < deadline, {w: pg.evaluate("[window.__sweep.game, window.__sweep.report]")
                                                 for w, pg in pages.items()}
            for where, pg in pages.items():
                if where not in out and pg.evaluate("window.__sweep.finished === true"):
                    out[where] = pg.evaluate("[window.__sweep.faults, window.__sweep.report, window.__sweep.error]")
                    assert out[where][2] is None, (where, out[where][2])
                    assert_no_py_error(pg)
            time.sleep(0.5)
    finally:
        desk_ctx.close()
    for where, (_, report, _) in out.items():
        print(where, json.dumps(report))
        for game, r in report.items():   # a whole round, every position the page showed looked at
            assert r["positions"] >= 10 and r["samples"] >= r["positions"], (where, game, r)
    faults = {f"{where} | {k}": n for where, (f, _, _) in out.items() for k, n in f.items()}
    left = {k: f for k, f in faults.items() if any(k.startswith(x) for x in STILL_OPEN)}
    if left:
        print("still open (issue 20):", json.dumps(left, ensure_ascii=False))
    faults = {k: f for k, f in faults.items() if k not in left}
    assert faults == {}, f"{len(faults)} faults ({sum(f['seen'] for f in faults.values())} sightings):\n" + \
        json.dumps(faults, indent=1, ensure_ascii=False)


#: the widest seat head of the 8-seat strip: the longest word of a persona
#: name, two-digit tiles in hand, a three-digit score, the seat to move
WIDEST = {"name": "Don Anselmo", "count": "15", "score": "188"}


def test_the_eight_seat_strip_keeps_every_name_and_score_in_its_box(app, assert_no_py_error):
    """Once a round, a seat to move with ten tiles put its score past the
    screen's right edge (Chicken Foot, 8 seats, 360 px): every seat of the
    strip, drawn with the widest head a round can give it, keeps its name,
    count and score inside its own box and on the screen."""
    page = app   # the worker's shared page
    page.set_viewport_size(VIEWPORTS["phone"][0])
    restart(page, "?delay=0&seed=11")
    tid(page, "game").select_option("chicken-foot")
    tid(page, "players").select_option("8")
    tid(page, "start").click()
    tid(page, "board").wait_for()
    idle(page)
    out = page.evaluate("""w => [...document.querySelectorAll('.seats-top .seat')].flatMap(seat => {
        seat.classList.add('turn');
        seat.querySelector('.seat-name').textContent = w.name;
        seat.querySelector('.seat-n').textContent = w.count;
        seat.querySelector('.seat-score').textContent = w.score;
        const b = seat.getBoundingClientRect();
        return [...seat.querySelectorAll('.seat-head > *')].filter(el => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.right > innerWidth + 0.5
                                   || r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5);
        }).map(el => `${seat.dataset.seat}: ${el.className} "${el.textContent}"`);
    })""", WIDEST)
    assert page.locator(".seats-top .seat").count() == 7
    assert out == []
    assert_no_py_error(page)
