"""The browser side: the page, storage, timers and the network.  The only
domino module that imports js / pyodide.  Every decision is domino.app's:
the session's, and domino.app.page_decisions's for what the page reads.

* One delegated handler per event type on ``#app`` (which never changes)
  turns a tap into an input for :meth:`Session.handle`; the answer says what
  to draw, play, download and focus.  Every screen is built from its node
  tree by the page's one builder (static/tree.js, which static/boot.js
  carries), the tree handed over as JSON.
* The computer seats move in :meth:`Page.computers`, through the same ``handle``.
* Test hooks on <html>: data-ready (interactive), data-usable (accepts
  input: set here, or earlier by static/first.js on a first visit),
  data-painted (the snapshot or the first real screen is visible),
  data-busy, data-seq.  ``?fail=start`` / ``?fail=turn`` make the start, or
  the next computer turn, fail on purpose (tests of the rescue screen).
* After each change of the screen, the screen a reload will show goes to
  localStorage; static/boot.js paints it on the next visit before Python is
  up, and start() takes over; on a first visit it takes over static/first.js's
  new-game screen instead, keeping what was chosen on it (_adopt_first).
"""
from __future__ import annotations

import asyncio
import json

import js
from pyodide.ffi import create_once_callable, create_proxy, to_js

try:  # newer Pyodide turns JS null into jsnull, not None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover
    jsnull = None

from domino import app
from domino.app import links, storage
from domino.app import page_decisions
from domino.app.i18n import t
from domino.app.runtime import bytecode_state
from domino.app.session import Session

document = js.document
ROOT = document.documentElement
# what Tab can reach in a dialog
FOCUSABLE = ('button:not([disabled]), a[href], input:not([disabled]):not([type=hidden]), select:not([disabled]), '
             'textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])')


def show(parent, node) -> None:
    """``parent``'s content made to be the node tree, in place, by the page's one
    builder (static/tree.js, which static/boot.js carries): what is the same stays
    the same element (a tap or the focus on it survives a redraw), the rest is
    made anew.  The tree crosses over as one JSON text."""
    js.window.dominoTree.into(parent, json.dumps([node], separators=(",", ":"), ensure_ascii=False))


def _el(v):
    """A DOM lookup result -> the element, or None for null/undefined."""
    return None if v is None or v is jsnull else v


def _str(v):
    """A JS string -> str; null/undefined (None or jsnull) -> None."""
    return v if isinstance(v, str) else None


def _js(value):
    """A Python dict or list as a plain JS object or array."""
    return to_js(value, dict_converter=js.Object.fromEntries)


def _py(value):
    """A plain JS value (object, array, string, number) as Python data; null/undefined -> None."""
    return None if value is None or value is jsnull else json.loads(str(js.JSON.stringify(value)))


def _quietly(fn, refused=None):
    """``fn()``, or ``refused`` when the browser throws (storage disabled, full,
    private mode; no User Timing; an animation or a focus that is gone)."""
    try:
        return fn()
    except Exception:
        return refused


def _warned(fn, what: str) -> None:
    """``fn()``; when it throws, the console says so (``what``) and the page goes on."""
    try:
        fn()
    except Exception as e:
        js.console.warn(f"domino: {what}: " + repr(e))


def _size(el) -> tuple[int, int]:
    """An element's width and height on screen, in CSS pixels."""
    return int(el.clientWidth or 0), int(el.clientHeight or 0)


class LocalStore:
    """localStorage, as the app's :class:`~domino.app.storage.Store` (the keys and
    what is written under them: domino.app.storage): every failure is a refusal,
    never an exception."""

    def get(self, key: str):
        return _quietly(lambda: _str(js.localStorage.getItem(key)), None)

    def set(self, key: str, value: str) -> bool:
        return _quietly(lambda: js.localStorage.setItem(key, value) or True, False)

    def delete(self, key: str) -> None:
        _quietly(lambda: js.localStorage.removeItem(key))

    def keys(self) -> list[str]:
        return _quietly(lambda: [str(js.localStorage.key(i)) for i in range(int(js.localStorage.length))], [])


def listen(target, event: str, handler, capture: bool = False) -> None:
    """``handler`` runs on ``event`` at ``target`` for as long as the page lives."""
    target.addEventListener(event, create_proxy(handler), capture)


def download(name: str, text: str) -> None:
    """Offer ``text`` as a file (a Blob URL: allowed by the page's CSP)."""
    blob = js.Blob.new(to_js([text]), _js({"type": "application/json"}))
    url = js.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    a.download = name
    a.className = "sr-only"
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_once_callable(lambda *_: js.URL.revokeObjectURL(url)), 10_000)


def new_session(store) -> Session:
    """The session of this page's address: its query's test parameters, its invitation."""
    params = js.URLSearchParams.new(js.location.search)
    session = Session(store, str(js.location.pathname),
                   params=dict({k: _str(params.get(k)) for k in ("fail", "seed", "delay", "grace")},
                               url=str(js.location.origin) + str(js.location.pathname),
                               join=links.invitation(str(js.location.hash or ""))),
                   browser_lang=str(js.navigator.language or ""))
    session.wall = lambda: float(js.Date.now()) / 1000    # the page's clock (a test may move it forward)
    return session


class Page:
    """The page: #app and its live region, the session they show, and every
    listener, timer and connection that feeds the session its inputs."""

    def __init__(self):
        self.root = _el(document.getElementById("app"))
        self.live = _el(document.getElementById("live"))
        self.snap_due = False             # a snapshot is scheduled
        self.anims: list = []             # travelling tiles still running
        self._snap = create_proxy(self.keep_snapshot)   # also run by a timer after each render
        self._anim_end = create_proxy(self._anim_done)  # every travelling tile's
        listen(self.root, "click", self.on_click)
        listen(self.root, "keydown", self.on_keydown)
        listen(document, "keydown", self.keep_tab_in_dialog)
        listen(self.root, "change", self.on_change)
        listen(js.window, "resize", self.draw_board)
        listen(js.window, "storage", self.on_storage)
        listen(js.window, "hashchange", self.on_hash)
        listen(document, "pointerdown", self.finish_anims, True)   # a tap anywhere finishes a travelling tile
        js.window.addEventListener("pagehide", self._snap)
        ROOT.dataset.anim = "0"
        js.setInterval(create_proxy(self.on_tick), 1000)
        self.rtc = getattr(js.window, "dominoRtc", None)   # static/rtc.js: the friends' connections
        if self.rtc is not None:
            self.rtc.handlers = _js({event: create_proxy(
                lambda i, said=None, event=event: self.send(page_decisions.rtc_input(event, int(i), _str(said))))
                for event in page_decisions.RTC_EVENTS})
        self.mail = getattr(js.window, "dominoMail", None)       # static/mailbox.js: a match played when each can
        if self.mail is not None:
            self.mail.handlers = _js({event: create_proxy(
                lambda data, event=event: self.send(dict(_py(data), action="mail-" + event)))
                for event in ("event", "eose", "ok")})
        self.online = getattr(js.window, "dominoOnline", None)   # static/online.js: over the internet
        if self.online is not None:
            self.online.handlers = _js({"status": create_proxy(
                lambda status: self.send(page_decisions.relay_status(_py(status))))})

    # ------------------------------------------------------------ one path
    def begin(self, first_visit: bool = False) -> None:
        """A new session of this page's address, and its first screen: the
        game saved, if any, else the new-game screen; at the page's start
        (``first_visit``) static/first.js's screen, when it is up, is taken
        over and the tap made on it is done."""
        self.session = new_session(LocalStore())
        ROOT.classList.toggle("no-anim", self.session.fixed_delay == 0)
        self.last_live = ""
        self.kbd = False
        self.painted_seq = None           # the painted snapshot's position, until the table moves on
        self.painted: tuple = (None, 0)   # (hand, actions) the table showed last
        if self.session.fail == "start":
            raise RuntimeError("failing on purpose (?fail=start)")
        self.apply(self.session.load_game())
        first = _adopt_first(self) if first_visit else None
        if first is None:
            self.render()
        # The live screen has replaced static/boot.js's painted snapshot (the same tree, drawn by the same
        # code: nothing moves).  Until the table moves on, html[data-snapshot="live"] keeps the last tile
        # from replaying its landing animation.
        self.root.removeAttribute("inert")
        if _str(ROOT.getAttribute("data-snapshot")) == "painted":
            ROOT.dataset.snapshot = "live"
            self.painted_seq = self.session.ctrl.match.seq if self.session.ctrl is not None else None
            if self.painted_seq is None:
                ROOT.removeAttribute("data-snapshot")
        for name in ("data-painted", "data-ready", "data-usable"):   # the tests' hooks: see the module's docstring
            ROOT.setAttribute(name, "1")
        _quietly(lambda: js.performance.mark("domino:ready"))
        if first is not None:   # the tap made on first.js's screen while Python was on its way: done now, once
            ROOT.removeAttribute("data-start-pending")
            tapped = page_decisions.first_tap(first)
            el = _el(self.root.querySelector(f'[data-testid="{tapped[0]}"]')) if tapped else None
            if el is not None and _str(el.getAttribute("data-action")) == tapped[1]:
                self.tap(el)
        self.kick()

    def send(self, inp: dict) -> None:
        """Give the session one input and do what it answers."""
        try:
            self.apply(self.session.handle(inp))
        except Exception as e:   # never a dead page: say what broke, offer a way on
            rescue(e, "action")

    def apply(self, out) -> None:
        for w in out.warnings:
            js.console.warn(w)
        for cmd in out.net:
            self.network(cmd)
        if out.clear_hash:
            js.history.replaceState(jsnull, "", str(js.location.pathname) + str(js.location.search))
        for name, text in out.downloads:
            download(name, text)
        if out.live:
            self.last_live = out.live
            self.live.textContent = out.live
        for kind in out.sounds:
            self.play_sound(kind)
        self.mirror_busy()
        if out.render:
            self.render()
        self.focus(out.focus)
        if out.computers:
            self.kick()

    # ------------------------------------------------------------ the network
    def network(self, cmd: dict) -> None:
        """One command of the session to static/online.js or static/rtc.js; what comes back is an input."""
        if cmd["op"].startswith("online-"):
            self.online_command(cmd)
        elif cmd["op"].startswith("mail-"):
            self.mail_command(cmd)
        elif cmd["op"] in page_decisions.RTC_AT_ONCE:
            if self.rtc is not None:
                method, args = page_decisions.rtc_call(cmd)
                getattr(self.rtc, method)(*args)
        else:
            asyncio.ensure_future(self.rtc_promise(cmd))

    async def rtc_promise(self, cmd: dict) -> None:
        """A command static/rtc.js answers later: what its promise gives, or why not, goes to the session."""
        method, args = page_decisions.rtc_call(cmd)
        try:
            if self.rtc is None:
                raise RuntimeError("static/rtc.js is missing")
            inp = page_decisions.rtc_answer(cmd, _py(await getattr(self.rtc, method)(*args)))
        except Exception as e:
            inp = page_decisions.rtc_answer(cmd, error=str(e))
        if inp is not None:
            self.send(inp)

    def online_command(self, cmd: dict) -> None:
        """Join, re-room, pause, resume or leave the table's rooms on the relays (static/online.js)."""
        online, op = self.online, cmd["op"]
        if online is None:
            if op == "online-join":
                self.send(page_decisions.relay_failed("static/online.js is missing"))
            return
        method, args = page_decisions.online_call(cmd)
        done = getattr(online, method)(*[_js(a) for a in args])
        if op == "online-join":
            done.catch(create_once_callable(lambda err: self.send(page_decisions.relay_failed(str(err)))))

    def mail_command(self, cmd: dict) -> None:
        """Subscribe, publish or close on the relays of a match played when each can (static/mailbox.js)."""
        if self.mail is None:
            return
        if cmd["op"] == "mail-open":
            self.mail.open(cmd["sub"], _js(cmd["relays"]), json.dumps(cmd["filters"]))
        elif cmd["op"] == "mail-publish":
            self.mail.publish(_js(cmd["relays"]), _js(cmd["events"]))
        elif cmd["op"] == "mail-close":
            self.mail.close(cmd["sub"])

    def on_tick(self, *_args) -> None:
        if self.session.role is not None:
            self.send({"action": "net-tick"})

    def mirror_busy(self) -> None:
        ROOT.dataset.busy = "1" if self.session.busy else "0"

    # ------------------------------------------------------------ render
    def render(self) -> None:
        session = self.session
        c = session.ctrl
        if self.painted_seq is not None and (c is None or c.match.seq != self.painted_seq):
            self.painted_seq = None   # the table moved on from the painted snapshot: animations again
            ROOT.removeAttribute("data-snapshot")
        screen = session.screen()
        for name, value in page_decisions.root_attributes(session).items():
            if value is None:
                ROOT.removeAttribute(name)
            else:
                ROOT.setAttribute(name, value)
        document.title = t(session.lang, "app.title")
        self.finish_anims()
        show(self.root, screen)
        if session.at_table():
            self.draw_board()
            self.show_moves()
            text = session.live_text()
            if text and text != self.last_live:
                self.last_live = text
                self.live.textContent = text
        self.mark_guide()
        self.focus(session.focus_target(self.kbd), preventScroll=True)
        if not self.snap_due:   # built after this frame, from the state, not from the DOM
            self.snap_due = True
            js.setTimeout(self._snap, 0)

    def focus(self, selector: str | None, **options) -> None:
        """Focus the element of #app ``selector`` names, if it is there (``options``: focus()'s)."""
        target = _el(self.root.querySelector(selector)) if selector else None
        if target is not None:
            _quietly(lambda: target.focus(_js(options)))

    def keep_snapshot(self, *_args) -> None:
        """Store the screen a reload will show (static/boot.js paints it)."""
        self.snap_due = False
        box = _el(document.getElementById("board"))   # a picture for next time must never break this time
        _warned(lambda: self.session.snapshot(page_decisions.snapshot_size(_size(box) if box is not None else None)),
                "no snapshot")

    def mark_guide(self) -> None:
        """Point at the part of the table the guide's step is about."""
        sel = self.session.guide_target()
        if sel is None:
            return
        el = _el(self.root.querySelector(sel))
        if el is not None:
            el.classList.add("guide-spot")
        # the panel sits just under the top bar, over the table, never on the hand
        panel = _el(self.root.querySelector('[data-testid="guide"]'))
        bar = _el(self.root.querySelector(".topbar"))
        if panel is not None and bar is not None and float(js.window.innerHeight) > 500:
            panel.style.top = f"{int(bar.getBoundingClientRect().bottom) + 8}px"

    def draw_board(self, *_args) -> None:
        """The board, drawn to the size of its box (again on each resize)."""
        box = _el(document.getElementById("board"))
        if box is None or self.session.ctrl is None:
            return
        tree = app.board_tree(self.session.ctrl, *page_decisions.board_size(*_size(box)))
        if tree is not None:
            show(box, tree)

    # ------------------------------------------------------------ every move seen
    def show_moves(self) -> None:
        """What changed since the table was last shown: the seats that moved
        get their badge popped (once: a redraw does not pop it again) and the
        last tile played travels from its seat to its place.  The state and
        the save are already done: this is only looks."""
        c = self.session.ctrl
        self.painted, seats, play = page_decisions.moves_seen(c, self.painted)
        log_list = _el(self.root.querySelector('[data-testid="move-log"]'))
        if log_list is not None and c.log_open:
            log_list.scrollTop = log_list.scrollHeight
        for seat in seats:
            el = _el(self.root.querySelector(f'[data-testid="seat-{seat}"]'))
            if el is not None:   # the redraw kept the element: a style read between lets its pop play again
                _quietly(lambda el=el: el.offsetWidth)
                el.classList.add("fresh")
        if play is not None:
            self.travel(play)

    def travel(self, play: dict) -> None:
        """The played tile flies from its seat to its place."""
        ms = app.travel_ms(self.session.delay)
        if ms <= 0 or ROOT.classList.contains("no-anim") or \
                js.window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            return
        tile = _el(self.root.querySelector(f'#board g.tile[data-tile="{play["tile"]}"]'))
        seat = _el(self.root.querySelector(f'[data-testid="seat-{play["seat"]}"]'))
        if tile is None or seat is None:
            return
        a, b = tile.getBoundingClientRect(), seat.getBoundingClientRect()
        frames, timing = page_decisions.travel((a.left, a.top, a.width, a.height),
                                               (b.left, b.top, b.width, b.height), ms)
        anim = tile.animate(_js(frames), _js(timing))
        anim.addEventListener("finish", self._anim_end)
        anim.addEventListener("cancel", self._anim_end)
        self.anims.append(anim)
        ROOT.dataset.anim = "1"

    def _anim_done(self, *_args) -> None:
        self.anims = [a for a in self.anims if str(a.playState) == "running"]
        if not self.anims:
            ROOT.dataset.anim = "0"

    def finish_anims(self, *_args) -> None:
        """A tap (or the next screen) ends a travelling tile where it lands."""
        anims, self.anims = self.anims, []
        for a in anims:
            _quietly(a.finish)
        ROOT.dataset.anim = "0"

    def play_sound(self, kind: str) -> None:
        """static/sound.js makes it (Web Audio); sound must never break the game."""
        _warned(lambda: js.window.dominoSound.play(kind), "sound failed")

    # ------------------------------------------------------------ events
    def read_form(self) -> dict | None:
        """The new-game form's raw values, when it is on screen (keys: the fields' test ids)."""
        if self.session.at_table():
            return None
        return page_decisions.form_values([
            {"testid": _str(el.getAttribute("data-testid")), "field": _str(el.getAttribute("data-field")),
             "key": _str(el.getAttribute("data-key")), "value": _str(getattr(el, "value", None)),
             "checked": getattr(el, "checked", None) is True, "open": getattr(el, "open", None) is True}
            for el in self.root.querySelectorAll(page_decisions.FORM_FIELDS)])

    def tap(self, el) -> None:
        """A tap (or Enter) on an element with data-action."""
        attrs = {str(a.name): str(a.value) for a in el.attributes}
        boxes = {i: _el(document.getElementById(i)) for i in page_decisions.with_ids(attrs)}
        try:
            form = self.read_form()
        except Exception as e:
            rescue(e, "action")
            return
        self.send(page_decisions.tap_input(attrs, {i: str(b.value) for i, b in boxes.items() if b is not None}, form))

    def on_keydown(self, ev) -> None:
        self.kbd = True
        el = _el(ev.target.closest("[data-action]")) if hasattr(ev.target, "closest") else None
        does = page_decisions.key_does(str(ev.key), str(el.tagName) if el is not None else None)
        if does == "escape":
            self.send({"action": "escape"})
        elif does == "tap":
            ev.preventDefault()
            self.tap(el)

    def keep_tab_in_dialog(self, ev) -> None:
        """Tab and Shift+Tab go round the open modal dialog (the last one drawn): the page behind it is out of
        reach until it closes (page_decisions.tab_stop)."""
        if str(ev.key) != "Tab":
            return
        modals = self.root.querySelectorAll('[aria-modal="true"]')
        if not modals.length:
            return
        modal = modals.item(modals.length - 1)
        items = [e for e in modal.querySelectorAll(FOCUSABLE) if e.getClientRects().length]
        active = document.activeElement
        index = next((i for i, e in enumerate(items) if active is not None and e.isSameNode(active)), None)
        to = page_decisions.tab_stop(len(items), index, bool(ev.shiftKey))
        if to is None:
            return
        ev.preventDefault()
        if to >= 0:
            _quietly(lambda: items[to].focus())

    def on_click(self, ev) -> None:
        if getattr(ev, "detail", 1):   # a pointer's click (a key's has detail 0)
            self.kbd = False
        el = _el(ev.target.closest("[data-action]")) if hasattr(ev.target, "closest") else None
        if el is not None:
            self.tap(el)

    def on_change(self, ev) -> None:
        el = ev.target
        at_form = hasattr(el, "getAttribute") and not self.session.at_table()
        field = _str(el.getAttribute("data-field")) if at_form else None
        if field == "import":
            asyncio.ensure_future(self.import_file(el))
        elif field:
            self.send(page_decisions.change_input(field, _str(el.getAttribute("data-testid")), _str(el.value),
                                          self.read_form()))

    def on_hash(self, *_args) -> None:
        """A newer invitation opened in this tab: start again from it."""
        if links.invitation(str(js.location.hash)):
            js.location.reload()

    def on_storage(self, ev) -> None:
        """The storage event: another tab of this page changed localStorage."""
        _warned(lambda: self.apply(self.session.handle({"action": "storage", "key": _str(ev.key)})), "storage event")

    async def import_file(self, el) -> None:
        files = el.files
        if files is None or not int(files.length):
            return
        f = files.item(0)
        try:
            text = None if page_decisions.too_big(int(f.size)) else str(await f.text())
            inp = page_decisions.import_input(str(f.name), text)
        except Exception as e:   # the file could not be read at all
            inp = page_decisions.import_input(str(f.name), None, str(e))
        self.send(inp)

    # ------------------------------------------------------------ computers
    def kick(self) -> None:
        """Start the computer seats' loop when one of them is to move."""
        session = self.session
        if session.wants_computers() and not session.computers.running:
            session.computers.running = True
            self.mirror_busy()
            asyncio.ensure_future(self.computers(session.computers.gen))

    async def computers(self, gen: int) -> None:
        """The computer seats move (domino.app.page_decisions.computer_turns), one turn per pace."""
        session = self.session
        try:
            failed = await page_decisions.computer_turns(session, gen, lambda: js.performance.now(), next_frame,
                                                         self.apply)
            if failed:
                js.console.error("domino: computer turn failed: " + failed)
        finally:
            if gen == session.computers.gen:
                session.computers.running = False
                self.mirror_busy()
                if page_decisions.redraw_after_computers(session, str(ROOT.dataset.seq)):
                    self.render()


async def next_frame() -> None:
    """Yield to the page until it has drawn a frame (a plain sleep(0) lets
    Chromium run the next slice before painting); hidden tabs draw no
    frames, so there it only yields."""
    if document.hidden:
        await asyncio.sleep(0)
        return
    fut = asyncio.get_event_loop().create_future()

    def done(*_args) -> None:
        if not fut.done():
            fut.set_result(None)

    js.requestAnimationFrame(create_once_callable(done))
    await fut


_page: Page | None = None


def rescue(exc: BaseException, where: str) -> None:
    """A Python failure: static/rescue.js shows it, readable, with "start
    fresh" (old data kept aside) and "reload"; never a frozen loader."""
    text = f"{where}: {type(exc).__name__}: {str(exc)[:400]}"
    try:
        js.console.error("domino: " + text)
        js.window.dominoRescue.show(text)
    except Exception:   # rescue.js missing: the plainest page that still says it
        ROOT.dataset.ready = "1"
        box = _el(document.getElementById("app"))
        if box is not None:
            box.textContent = "Dominoes could not start / El dominó no pudo arrancar: " + text


def start() -> None:
    global _page
    # User Timing marks (scripts/bench_boot.py splits the boot with them): main.py has imported the
    # package (static/boot.js marked domino:py-ready); below, the first screen is up (domino:ready)
    _quietly(lambda: js.performance.mark("domino:start"))
    try:
        _page = Page()
        _page.begin(first_visit=True)
    except Exception as e:
        rescue(e, "start")
        return
    # The computer players are not needed for the first screen: compile them
    # just after it is up, so they are ready before anyone asks for a move.
    js.setTimeout(create_proxy(_warm_up), 50)


def _adopt_first(page: Page) -> dict | None:
    """A first visit's pre-built screen (static/first.js) is on screen: the
    live one keeps every choice made on it, its language (switched there:
    then chosen, and saved, as the live button does), its open rules, the
    focus, the caret and the scroll.  Returns what first.js handed over."""
    first = getattr(js.window, "dominoFirst", None)
    if first is None or not first.painted or page.session.ctrl is not None:
        return None
    if page.session.role == "guest":   # an invitation: the guest's screen replaces it, nothing is kept
        first.handOver()
        ROOT.removeAttribute("data-first")
        return None
    state = json.loads(str(first.handOver()))
    chosen = _el(page.root.querySelector('[data-field="import"]'))
    for inp in page_decisions.first_inputs(state, page.read_form(), page.session.lang):
        page.send(inp)
    first.restore()
    if chosen is not None and chosen.files is not None and int(chosen.files.length):
        asyncio.ensure_future(page.import_file(chosen))   # a match file opened before Python was up
    return state


def _warm_up(*_args) -> None:
    app.load_ai()
    js.setTimeout(create_once_callable(_warm_up_boards), 0)


def _warm_up_boards(*_args) -> None:
    """The other boards' players, in a task of their own: otherwise the first
    hard move on a trains, foot or row table imports them inside its first
    slice."""
    import domino.players.boards  # noqa: F401
    ROOT.dataset.bytecode = bytecode_state()


# ------------------------------------------------------------ tests: start again in the same page
def reset(query: str = "", stored=None) -> None:
    """``window.dominoReset(query, stored)``: start again from nothing without reloading (the browser tests
    share one booted page): the computers and the connections stopped, the app's storage holding only
    ``stored`` ({key: text}), the URL's query and hash ``query``'s, and a fresh session's first screen."""
    page = _page
    page.session.stop_computers()
    for cmd in page_decisions.restart_commands(page.session):
        page.network(cmd)
    storage.start_afresh(LocalStore(), str(js.location.pathname), _py(stored) or {})
    js.history.replaceState(jsnull, "", str(js.location.pathname) + str(query or ""))
    for name in ("data-snapshot", "data-first", "data-start-pending"):
        ROOT.removeAttribute(name)
    page.finish_anims()
    page.live.textContent = ""
    if _el(document.activeElement) is not None and hasattr(document.activeElement, "blur"):
        document.activeElement.blur()
    js.window.scrollTo(0, 0)
    page.begin()


js.window.dominoReset = create_proxy(reset)
