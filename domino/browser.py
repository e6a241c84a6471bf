"""The browser side: the page, storage, timers.  The only domino module that
imports js / pyodide.  Every decision is domino.app.session's.

* One delegated handler per event type on ``#app`` (which never changes)
  turns a tap into an input for :meth:`Session.handle` (the element's
  ``data-action``, ``data-seq`` and data, and the new-game form's values);
  the answer says what to draw, play, download and focus.  Every screen is
  rebuilt from a node tree (SVG with createElementNS).
* The computer seats move in :meth:`Page.computers`, one turn per pace; their
  moves go through the same ``handle`` as a tap.
* Test hooks on <html>: data-ready (interactive), data-usable (accepts
  input: set here, or earlier by static/first.js on a first visit),
  data-painted (the snapshot or the first real screen is visible),
  data-busy, data-seq.
  ``?fail=start`` / ``?fail=turn`` make the start, or the next computer
  turn, fail on purpose (tests of the rescue screen and of retry / resign).
* After each change of what the screen shows, a snapshot of the screen a
  reload will show goes to localStorage; static/boot.js paints it on the
  next visit before Python is up, and start() takes over; on a first visit
  it takes over static/first.js's pre-built new-game screen instead,
  keeping what was chosen on it (_adopt_first).
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
from domino.app import links
from domino.app.i18n import t
from domino.app.runtime import bytecode_state
from domino.app.session import MAX_IMPORT_BYTES, Session

SVG_NS = "http://www.w3.org/2000/svg"
document = js.document
ROOT = document.documentElement
# what a tapped element tells about itself (data-<name>)
ELEMENT_DATA = ("tile", "end", "open", "act", "game", "seat")


def build(node, svg: bool = False):
    if isinstance(node, str):
        return document.createTextNode(node)
    tag, attrs, children = node
    svg = svg or tag == "svg"
    el = document.createElementNS(SVG_NS, tag) if svg else document.createElement(tag)
    for k, v in attrs.items():
        el.setAttribute(k, v)
    for ch in children:
        el.appendChild(build(ch, svg))
    return el


def _el(v):
    """A DOM lookup result -> the element, or None for null/undefined."""
    return None if v is None or v is jsnull else v


def _str(v):
    """A JS string -> str; null/undefined (None or jsnull) -> None."""
    return v if isinstance(v, str) else None


class LocalStore:
    """localStorage, as the session's Store: every failure is a refusal, never an exception."""

    def get(self, key: str):
        try:
            return _str(js.localStorage.getItem(key))
        except Exception:
            return None

    def set(self, key: str, value: str) -> bool:
        try:
            js.localStorage.setItem(key, value)
            return True
        except Exception:
            return False

    def delete(self, key: str) -> None:
        try:
            js.localStorage.removeItem(key)
        except Exception:
            pass

    def keys(self) -> list[str]:
        try:
            return [str(js.localStorage.key(i)) for i in range(int(js.localStorage.length))]
        except Exception:
            return []


def download(name: str, text: str) -> None:
    """Offer ``text`` as a file (a Blob URL: allowed by the page's CSP)."""
    blob = js.Blob.new(to_js([text]), to_js({"type": "application/json"}, dict_converter=js.Object.fromEntries))
    url = js.URL.createObjectURL(blob)
    a = document.createElement("a")
    a.href = url
    a.download = name
    a.className = "sr-only"
    document.body.appendChild(a)
    a.click()
    a.remove()
    js.setTimeout(create_once_callable(lambda *_: js.URL.revokeObjectURL(url)), 10_000)


class Page:
    def __init__(self):
        self.root = _el(document.getElementById("app"))
        self.live = _el(document.getElementById("live"))
        params = js.URLSearchParams.new(js.location.search)
        hash_ = str(js.location.hash or "")
        self.s = Session(LocalStore(), str(js.location.pathname),
                         params=dict({k: _str(params.get(k)) for k in ("fail", "seed", "delay", "grace")},
                                     url=str(js.location.origin) + str(js.location.pathname),
                                     join=links.invitation(hash_)),
                         browser_lang=str(js.navigator.language or ""))
        if self.s.fixed_delay == 0:
            ROOT.classList.add("no-anim")
        self.last_live = ""
        self.kbd = False
        self.snap_due = False             # a snapshot is scheduled
        self.painted_seq = None           # the painted snapshot's position, until the table moves on
        self.painted: tuple = (None, 0)   # (hand, actions) the table showed last
        self.anims: list = []             # travelling tiles still running
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_keydown),
                         create_proxy(self.on_change), create_proxy(self.on_resize),
                         create_proxy(self.keep_snapshot), create_proxy(self.finish_anims),
                         create_proxy(self._anim_done), create_proxy(self.on_storage),
                         create_proxy(self.on_tick)]
        self.root.addEventListener("click", self._proxies[0])
        self.root.addEventListener("keydown", self._proxies[1])
        self.root.addEventListener("change", self._proxies[2])
        js.window.addEventListener("resize", self._proxies[3])
        js.window.addEventListener("pagehide", self._proxies[4])
        # a tap anywhere finishes a travelling tile at once
        document.addEventListener("pointerdown", self._proxies[5], True)
        ROOT.dataset.anim = "0"
        js.window.addEventListener("storage", self._proxies[7])
        # a newer invitation opened in this tab: start again from it
        js.window.addEventListener("hashchange", create_proxy(
            lambda *_: js.location.reload() if links.invitation(str(js.location.hash)) else None))
        js.setInterval(self._proxies[8], 1000)
        self.rtc = getattr(js.window, "dominoRtc", None)   # static/rtc.js: the friends' connections
        if self.rtc is not None:
            self.rtc.handlers = js.Object.fromEntries(to_js([
                ["open", create_proxy(lambda i: self.send({"action": "net-open", "conn": int(i)}))],
                ["message", create_proxy(lambda i, text: self.send(
                    {"action": "net-message", "conn": int(i), "text": _str(text)}))],
                ["close", create_proxy(lambda i, why: self.send(
                    {"action": "net-close", "conn": int(i), "reason": _str(why)}))]]))
        self.online = getattr(js.window, "dominoOnline", None)   # static/online.js: over the internet
        if self.online is not None:
            self.online.handlers = js.Object.fromEntries(to_js([
                ["status", create_proxy(lambda st: self.send(
                    {"action": "net-relay", "status": json.loads(str(js.JSON.stringify(st)))}))]]))
        self.mirror_busy()

    # ------------------------------------------------------------ one path
    def send(self, inp: dict) -> None:
        """Give the session one input and do what it answers."""
        try:
            self.apply(self.s.handle(inp))
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
        if out.focus:
            target = _el(self.root.querySelector(out.focus))
            if target is not None:
                target.focus()
        if out.computers:
            self.kick()

    # ------------------------------------------------------------ the network
    def network(self, cmd: dict) -> None:
        """One command of the session to static/rtc.js; what comes back is an input."""
        rtc, op = self.rtc, cmd["op"]
        if op.startswith("online-"):
            self.online_command(cmd)
        elif op == "send":
            if rtc is not None:
                rtc.send(cmd["conn"], cmd["text"])
        elif op == "close":
            if rtc is not None:
                rtc.close(cmd["conn"])
        else:
            asyncio.ensure_future(self.network_async(cmd))

    async def network_async(self, cmd: dict) -> None:
        op, rtc = cmd["op"], self.rtc
        if op == "share":
            how = await rtc.share(cmd["url"], cmd["title"]) if rtc is not None else "failed"
            self.send({"action": "net-shared", "how": str(how)})
            return
        back = {"offer": "net-offer", "answer": "net-answer"}.get(op)
        inp = {"action": back, "seat": cmd.get("seat")}
        try:
            if rtc is None:
                raise RuntimeError("static/rtc.js is missing")
            if op == "accept":
                await rtc.acceptAnswer(cmd["conn"], cmd["sdp"])   # a refusal closes it: net-close
                return
            res = await (rtc.createOffer() if op == "offer" else rtc.createAnswer(cmd["sdp"]))
            inp.update(conn=int(res.id), sdp=str(res.sdp))
        except Exception as e:
            if back is None:
                return
            inp["error"] = str(e)[:200]
        self.send(inp)

    def online_command(self, cmd: dict) -> None:
        """Join, re-room, pause, resume or leave the table's rooms on the relays (static/online.js)."""
        online, op = self.online, cmd["op"]
        if online is None:
            if op == "online-join":
                self.send({"action": "net-relay", "status": {"state": "failed", "relays": [],
                                                             "error": "static/online.js is missing"}})
            return
        if op == "online-join":
            opts = {k: cmd[k] for k in ("rooms", "relays", "ice", "role")}
            promise = online.join(to_js(opts, dict_converter=js.Object.fromEntries))

            def failed(err):
                self.send({"action": "net-relay", "status": {"state": "failed", "relays": [],
                                                             "error": str(err)[:200]}})
            promise.catch(create_once_callable(failed))
        elif op == "online-rooms":
            online.rooms(to_js(cmd["rooms"], dict_converter=js.Object.fromEntries))
        else:
            getattr(online, op[len("online-"):])()

    def on_tick(self, *_args) -> None:
        if self.s.role is not None:
            self.send({"action": "net-tick"})

    def mirror_busy(self) -> None:
        ROOT.dataset.busy = "1" if self.s.busy else "0"

    # ------------------------------------------------------------ render
    def render(self) -> None:
        s = self.s
        c = s.ctrl
        if self.painted_seq is not None and (c is None or c.match.seq != self.painted_seq):
            self.painted_seq = None   # the table moved on from the painted snapshot: animations again
            ROOT.removeAttribute("data-snapshot")
        ROOT.lang = s.lang
        if s.role:
            ROOT.dataset.netRole = s.role
        else:
            ROOT.removeAttribute("data-net-role")
        document.title = t(s.lang, "app.title")
        screen = build(s.screen())
        ROOT.dataset.seq = str(s.seq())
        ROOT.dataset.guide = "1" if s.guide_step is not None else "0"   # the guided hand is never saved
        self.finish_anims()
        self.root.replaceChildren(screen)
        if s.at_table():
            self.draw_board()
            self.show_moves()
            text = s.live_text()
            if text and text != self.last_live:
                self.last_live = text
                self.live.textContent = text
        self.mark_guide()
        sel = s.focus_target(self.kbd)
        target = _el(self.root.querySelector(sel)) if sel else None
        if target is not None:
            try:
                target.focus(js.Object.fromEntries([["preventScroll", True]]))
            except Exception:
                pass
        if not self.snap_due:   # built after this frame, from the state, not from the DOM
            self.snap_due = True
            js.setTimeout(self._proxies[4], 0)

    def keep_snapshot(self, *_args) -> None:
        """Store the screen a reload will show (static/boot.js paints it)."""
        self.snap_due = False
        try:
            box = _el(document.getElementById("board"))
            size = (max(200, int(box.clientWidth or 0)), max(160, int(box.clientHeight or 0))) \
                if box is not None else (800, 500)
            self.s.snapshot(size)
        except Exception as e:  # a picture for next time must never break this time
            js.console.warn("domino: no snapshot: " + repr(e))

    def mark_guide(self) -> None:
        """Point at the part of the table the guide's step is about."""
        sel = self.s.guide_target()
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

    def draw_board(self) -> None:
        box = _el(document.getElementById("board"))
        if box is None or self.s.ctrl is None:
            return
        w = max(200, int(box.clientWidth or 0))
        hgt = max(100, int(box.clientHeight or 0))
        tree = app.board_tree(self.s.ctrl, w, hgt)
        if tree is not None:
            box.replaceChildren(build(tree))

    # ------------------------------------------------------------ every move seen
    def show_moves(self) -> None:
        """What changed since the table was last shown: the seats that moved
        get their badge popped (once: a redraw does not pop it again) and the
        last tile played travels from its seat to its place.  The state and
        the save are already done: this is only looks."""
        c = self.s.ctrl
        m = c.match
        n = len(m.hand.actions) if m.hand is not None else 0
        hand, before = self.painted
        self.painted = (m.hand_no, n)
        log_list = _el(self.root.querySelector('[data-testid="move-log"]'))
        if log_list is not None and c.log_open:
            log_list.scrollTop = log_list.scrollHeight
        if hand != m.hand_no or n <= before:
            return
        fresh = c.log()[before:]
        for seat in {e["seat"] for e in fresh}:
            el = _el(self.root.querySelector(f'[data-testid="seat-{seat}"]'))
            if el is not None:
                el.classList.add("fresh")
        play = next((e for e in reversed(fresh) if e["kind"] == "play"), None)
        if play is not None:
            self.travel(play)

    def travel(self, play: dict) -> None:
        """The played tile flies from its seat to its place."""
        ms = app.travel_ms(self.s.delay)
        if ms <= 0 or ROOT.classList.contains("no-anim") or \
                js.window.matchMedia("(prefers-reduced-motion: reduce)").matches:
            return
        tile = _el(self.root.querySelector(f'#board g.tile[data-tile="{play["tile"]}"]'))
        seat = _el(self.root.querySelector(f'[data-testid="seat-{play["seat"]}"]'))
        if tile is None or seat is None:
            return
        a, b = tile.getBoundingClientRect(), seat.getBoundingClientRect()
        dx = (b.left + b.width / 2) - (a.left + a.width / 2)
        dy = (b.top + b.height / 2) - (a.top + a.height / 2)
        frames = js.JSON.parse(json.dumps([
            {"transform": f"translate({dx:.1f}px, {dy:.1f}px) scale(.7)", "opacity": 0.35},
            {"transform": "translate(0px, 0px) scale(1)", "opacity": 1}]))
        opts = js.JSON.parse(json.dumps({"duration": ms, "easing": "cubic-bezier(.2,.75,.3,1)"}))
        anim = tile.animate(frames, opts)
        anim.addEventListener("finish", self._proxies[6])
        anim.addEventListener("cancel", self._proxies[6])
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
            try:
                a.finish()
            except Exception:
                pass
        ROOT.dataset.anim = "0"

    def play_sound(self, kind: str) -> None:
        """static/sound.js makes it (Web Audio); sound must never break the game."""
        try:
            js.window.dominoSound.play(kind)
        except Exception as e:
            js.console.warn("domino: sound failed: " + repr(e))

    # ------------------------------------------------------------ events
    def read_form(self) -> dict | None:
        """The new-game form's raw values, when it is on screen (keys: the fields' test ids)."""
        if self.s.at_table():
            return None
        form: dict = {"options": {}}
        for el in self.root.querySelectorAll('[data-field], [data-testid="options"]'):
            tid, fld = str(el.getAttribute("data-testid") or ""), _str(el.getAttribute("data-field"))
            if fld == "option":
                form["options"][str(el.getAttribute("data-key"))] = str(el.value)
            elif tid == "options":
                form["show_options"] = bool(el.open)
            elif tid in ("partnership", "practice"):
                form[tid] = bool(el.checked)
            elif fld in ("game", "players", "target", "seat-kind", "seat-name"):
                form[tid] = str(el.value)
        return form

    def tap(self, el) -> None:
        """A tap (or Enter) on an element with data-action."""
        inp = {"action": str(el.getAttribute("data-action")), "seq": _str(el.getAttribute("data-seq")),
               "disabled": el.getAttribute("aria-disabled") == "true" or bool(el.hasAttribute("disabled"))}
        if inp["seq"] is None:
            del inp["seq"]
        for name in ELEMENT_DATA:
            v = _str(el.getAttribute("data-" + name))
            if v is not None:
                inp[name] = v
        field = _str(el.getAttribute("data-with"))    # a button that sends fields' texts (a reply code)
        if field:
            boxes = {i: _el(document.getElementById(i)) for i in field.split()}
            values = {i: str(b.value) if b is not None else "" for i, b in boxes.items()}
            inp["value"] = values[field.split()[0]]
            inp["values"] = values
        try:
            form = self.read_form()
        except Exception as e:
            rescue(e, "action")
            return
        if form is not None:
            inp["form"] = form
        self.send(inp)

    def on_keydown(self, ev) -> None:
        key = str(ev.key)
        self.kbd = True
        if key == "Escape":
            self.send({"action": "escape"})
            return
        if key not in ("Enter", " "):
            return
        el = _el(ev.target.closest("[data-action]")) if hasattr(ev.target, "closest") else None
        if el is None or str(el.tagName).lower() in ("button", "select", "input", "option"):
            return  # native controls click on Enter by themselves
        ev.preventDefault()
        self.tap(el)

    def on_click(self, ev) -> None:
        if getattr(ev, "detail", 1):
            self.kbd = False if ev.detail else self.kbd
        tgt = ev.target
        el = _el(tgt.closest("[data-action]")) if hasattr(tgt, "closest") else None
        if el is not None:
            self.tap(el)

    def on_change(self, ev) -> None:
        if self.s.at_table():
            return
        el = ev.target
        fld = _str(el.getAttribute("data-field")) if hasattr(el, "getAttribute") else None
        if not fld:
            return
        if fld == "import":
            asyncio.ensure_future(self.import_file(el))
            return
        self.send({"action": "change", "field": fld, "form": self.read_form(),
                   "testid": _str(el.getAttribute("data-testid")), "value": _str(el.value)})

    def on_resize(self, ev=None) -> None:
        if self.s.ctrl is not None:
            self.draw_board()

    def on_storage(self, ev) -> None:
        """The storage event: another tab of this page changed localStorage."""
        try:
            self.apply(self.s.handle({"action": "storage", "key": _str(ev.key)}))
        except Exception as exc:
            js.console.warn("domino: storage event: " + repr(exc))

    async def import_file(self, el) -> None:
        files = el.files
        if files is None or not int(files.length):
            return
        f = files.item(0)
        inp = {"action": "import", "name": str(f.name)[:80]}
        try:
            if int(f.size) > MAX_IMPORT_BYTES:
                inp["error"] = "size"
            else:
                inp["text"] = str(await f.text())
        except Exception as e:   # the file could not be read at all
            inp["error"] = str(e)[:120]
        self.send(inp)

    # ------------------------------------------------------------ computers
    def kick(self) -> None:
        """Start the computer seats' loop when one of them is to move."""
        s = self.s
        if s.wants_computers() and not s.running:
            s.running = True
            self.mirror_busy()
            asyncio.ensure_future(self.computers(s.gen))

    async def computers(self, gen: int) -> None:
        """The computer seats move, one turn per ``delay`` ms (the pace): the
        thinking happens first, the wait takes up the rest, and the move goes
        through the session like a tap (applied, saved, drawn)."""
        s = self.s
        try:
            while gen == s.gen and s.wants_computers():
                t0 = js.performance.now()
                search = s.think()
                action = search.step(40)   # slices of at most ~40 ms, a frame drawn between them
                while action is None:
                    await next_frame()
                    if gen != s.gen:
                        return
                    action = search.step(40)
                wait = s.delay - (js.performance.now() - t0)
                await asyncio.sleep(max(0.0, wait) / 1000.0)
                if gen != s.gen:
                    return
                out = s.handle({"action": "computer-move", "move": action, "gen": gen})
                out.computers = False   # this loop goes on by itself
                self.apply(out)
        except Exception as e:  # never a dead table: say so, offer retry or resign
            js.console.error("domino: computer turn failed: " + repr(e))
            self.apply(s.handle({"action": "computer-failed", "gen": gen,
                                 "error": f"{type(e).__name__}: {str(e)[:120]}"}))
        finally:
            if gen == s.gen:
                s.running = False
                self.mirror_busy()
                if s.ctrl is None or s.panel is not None or str(ROOT.dataset.seq) != str(s.seq()):
                    self.render()   # the new position, or a dialog (a failed turn, a save problem)


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
    _mark("domino:start")   # main.py has imported the package (boot.js marked domino:py-ready)
    try:
        _page = Page()
        if _page.s.fail == "start":
            raise RuntimeError("failing on purpose (?fail=start)")
        _page.apply(_page.s.load_game())
        first = _adopt_first(_page)
        if first is None:
            _page.render()
        _take_over(_page)
        ROOT.dataset.ready = "1"
        ROOT.dataset.usable = "1"
        _mark("domino:ready")
        if first is not None:
            _first_taps(_page, first)
        if _page.s.ctrl is not None:
            _page.kick()
    except Exception as e:
        rescue(e, "start")
        return
    # The computer players are not needed for the first screen: compile them
    # just after it is up, so they are ready before anyone asks for a move.
    js.setTimeout(create_proxy(_warm_up), 50)


def _mark(name: str) -> None:
    """A User Timing mark (scripts/bench_boot.py splits the boot with them)."""
    try:
        js.performance.mark(name)
    except Exception:
        pass


def _take_over(page: Page) -> None:
    """The live screen has replaced static/boot.js's painted snapshot (the
    same tree, drawn by the same code: nothing moves).  Until the table moves
    on, html[data-snapshot="live"] keeps the last tile from replaying its
    landing animation."""
    page.root.removeAttribute("inert")
    if _str(ROOT.getAttribute("data-snapshot")) == "painted":
        ROOT.dataset.snapshot = "live"
        page.painted_seq = page.s.ctrl.match.seq if page.s.ctrl is not None else None
        if page.painted_seq is None:
            ROOT.removeAttribute("data-snapshot")
    ROOT.dataset.painted = "1"


def _adopt_first(page: Page) -> dict | None:
    """A first visit's pre-built screen (static/first.js) is on screen: the
    live one keeps every choice made on it, its language (switched there:
    then chosen, and saved, as the live button does), its open rules, the
    focus, the caret and the scroll.  Returns what first.js handed over."""
    first = getattr(js.window, "dominoFirst", None)
    if first is None or not first.painted or page.s.ctrl is not None:
        return None
    if page.s.guest is not None:   # an invitation: the guest's screen replaces it, nothing is kept
        first.handOver()
        ROOT.removeAttribute("data-first")
        return None
    state = json.loads(str(first.handOver()))
    chosen = _el(page.root.querySelector('[data-field="import"]'))
    page.send({"action": "change", "field": "form", "form": page.read_form()})
    if state.get("lang") in ("es", "en") and state["lang"] != page.s.lang:
        page.send({"action": "lang"})
    if state.get("help"):
        page.send({"action": "help", "game": state["help"]})
    first.restore()
    if chosen is not None and chosen.files is not None and int(chosen.files.length):
        asyncio.ensure_future(page.import_file(chosen))   # a match file opened before Python was up
    return state


def _first_taps(page: Page, state: dict) -> None:
    """The tap made on the pre-built screen while Python was on its way
    (Start, Play, the guided hand...): done now, once."""
    ROOT.removeAttribute("data-start-pending")
    tapped = state.get("pending") or {}
    el = _el(page.root.querySelector(f'[data-testid="{tapped.get("testid")}"]')) if tapped.get("testid") else None
    if el is not None and _str(el.getAttribute("data-action")) == tapped.get("action"):
        page.tap(el)


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
    """Start again from nothing without reloading (the browser tests share
    one booted page; ``window.dominoReset(query, stored)``): the computer
    loop and every network connection of the old session are stopped, every
    localStorage key of this page's path ("domino:<path>:...") is removed,
    then ``stored`` (an optional {key: text} object) is written, the URL's
    query and hash become ``query``'s (e.g. "?seed=3&delay=0", or with an
    invitation "?delay=0#join=..."), and a fresh Session loads and shows its
    first screen, as at a boot."""
    page = _page
    if page is None:
        raise RuntimeError("domino: reset before the page is up")
    old = page.s
    old.stop_computers()
    conns = set(old.conn_seat) | {o.get("conn") for o in old.offers.values()} | {old.guest_conn}
    if old.host is not None:
        conns |= {int(p) for p in old.host.peers if str(p).isdigit()}
    for conn in conns - {None}:
        if page.rtc is not None:
            page.rtc.close(conn)
    if page.online is not None:
        page.online.leave()
    store = LocalStore()
    prefix = f"domino:{js.location.pathname}:"
    for key in store.keys():
        if key.startswith(prefix):
            store.delete(key)
    items = json.loads(str(js.JSON.stringify(stored))) if stored is not None and stored is not jsnull else {}
    for key, text in items.items():
        store.set(str(key), str(text))
    js.history.replaceState(jsnull, "", str(js.location.pathname) + str(query or ""))
    params = js.URLSearchParams.new(js.location.search)
    page.s = Session(store, str(js.location.pathname),
                     params=dict({k: _str(params.get(k)) for k in ("fail", "seed", "delay", "grace")},
                                 url=str(js.location.origin) + str(js.location.pathname),
                                 join=links.invitation(str(js.location.hash or ""))),
                     browser_lang=str(js.navigator.language or ""))
    ROOT.classList.toggle("no-anim", page.s.fixed_delay == 0)
    for name in ("data-snapshot", "data-first", "data-start-pending"):
        ROOT.removeAttribute(name)
    page.finish_anims()
    page.last_live, page.kbd, page.painted_seq, page.painted = "", False, None, (None, 0)
    page.live.textContent = ""
    active = _el(document.activeElement)
    if active is not None and hasattr(active, "blur"):
        active.blur()
    js.window.scrollTo(0, 0)
    page.apply(page.s.load_game())
    page.render()
    page.mirror_busy()
    if page.s.ctrl is not None:
        page.kick()


js.window.dominoReset = create_proxy(reset)
