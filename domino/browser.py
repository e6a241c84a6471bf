"""The browser side: DOM, events, storage, timers.  The only domino module
that imports js / pyodide.  Screens and decisions come from domino.app.

* One delegated handler per event type on ``#app`` (which never changes);
  every screen is rebuilt from a node tree (SVG with createElementNS).
* Stale input is ignored: clickable game elements carry ``data-seq`` and a
  click whose seq differs from ``match.seq`` does nothing; so does any game
  input while ``html[data-busy="1"]``.
* Test hooks on <html>: data-ready (interactive), data-painted (the
  snapshot or the first real screen is visible), data-busy, data-seq.
  ``?fail=start`` / ``?fail=turn`` make the start, or the next computer
  turn, fail on purpose (tests of the rescue screen and of retry / resign).
* Every write is checked (the ``save-error`` dialog: storage full, free
  space, download the match); a save carries its match id and seq, and a
  tab never writes over another tab's newer save or other match without
  asking (the ``storage`` event shows "this match continues in another
  tab").  Errors anywhere end in a dialog with a way on, or in
  static/rescue.js's screen; never a .py-error box.
* After each change of what the screen shows, a snapshot of the screen a
  reload will show (domino.app.snapshot) goes to localStorage; static/boot.js
  paints it on the next visit before Python is up, and start() takes over.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import secrets
from datetime import datetime, timezone

import js
from pyodide.ffi import create_once_callable, create_proxy, to_js

try:  # newer Pyodide turns JS null into jsnull, not None
    from pyodide.ffi import jsnull
except ImportError:  # pragma: no cover
    jsnull = None

from domino import app
from domino import players
from domino.app import guide, saves, snapshot, undo
from domino.app import stats as stats_mod
from domino.app.screens import menu as menu_screens
from domino.app.screens import safety
from domino.app.screens.stats import stats_dialog
from domino.app.i18n import lang_from_browser, norm_lang, t

SVG_NS = "http://www.w3.org/2000/svg"
document = js.document
ROOT = document.documentElement

# actions that only change the looks: allowed while busy and whatever the seq
UI_ONLY = {"help", "help-close", "lang", "pips", "resign", "resign-no", "save-ok", "log", "pace",
           # comforts: leaving the table, undo and the guide stop a computer that is thinking
           "menu", "sound", "stats", "stats-close", "stats-reset", "stats-reset-yes", "stats-reset-no",
           "undo", "guide-start", "guide-next", "guide-skip", "guide-finish", "guide-dismiss"}
# the safety net's dialogs (domino.app.screens.safety): they answer while a dialog is up
PANEL_ACTIONS = {"free-space", "export", "save-later", "download-corrupt", "continue-here", "keep-mine",
                 "turn-retry", "turn-resign", "safe-ok", "lang"}
MAX_URL_SEED = 64


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


def _store_get(key: str):
    try:
        return _str(js.localStorage.getItem(key))
    except Exception:
        return None


def _store_set(key: str, value: str) -> bool:
    """Write one key; False when the browser refused (storage full)."""
    try:
        js.localStorage.setItem(key, value)
        return True
    except Exception:
        return False


def _store_del(key: str) -> None:
    try:
        js.localStorage.removeItem(key)
    except Exception:
        pass


def _store_keys() -> list[str]:
    try:
        n = int(js.localStorage.length)
        return [str(js.localStorage.key(i)) for i in range(n)]
    except Exception:
        return []


def _now_stamp() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


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


def parse_seed(raw):
    """?seed=: ASCII digits (at most 18) -> int; a short word -> str; anything
    else (--5, ², 5,000 digits) -> (None, False): not used, and the player told."""
    if raw is None or not str(raw).strip():
        return None, True
    s = str(raw).strip()
    if re.fullmatch(r"-?[0-9]{1,18}", s):
        return int(s), True
    if len(s) <= MAX_URL_SEED and re.fullmatch(r"[A-Za-z0-9_.:-]+", s) and re.search(r"[A-Za-z]", s):
        return s, True
    return None, False


class UI:
    def __init__(self):
        self.root = _el(document.getElementById("app"))
        self.live = _el(document.getElementById("live"))
        self.path = str(js.location.pathname)
        self.notes: list[str] = []     # told once, in a dialog (settings reset, URL, repaired seats)
        params = js.URLSearchParams.new(js.location.search)
        self.fail = str(_str(params.get("fail")) or "")[:20]
        seed_raw = _str(params.get("seed"))
        self.seed, ok = parse_seed(seed_raw)
        d = _str(params.get("delay"))
        try:   # ?delay=ms overrides the pace (tests: 0, no pauses, no animations)
            self.fixed_delay = min(5000, max(0, int(str(d)))) if d is not None else None
        except ValueError:
            self.fixed_delay = None
        if self.fixed_delay == 0:
            ROOT.classList.add("no-anim")
        stored, ok_settings = saves.load_settings(_store_get(saves.settings_key(self.path)))
        pace = stored.get("pace")
        self.pace = pace if isinstance(pace, str) and pace in app.PACES else app.DEFAULT_PACE
        lang = stored.get("lang")
        self.lang = norm_lang(lang) if isinstance(lang, str) and lang else lang_from_browser(
            str(js.navigator.language or ""))
        self.pips = stored.get("pips") if stored.get("pips") in ("coloured", "black") else "coloured"
        try:
            self.new_settings = app.normalize_settings(stored.get("new"), self.lang)
        except Exception:
            self.new_settings = app.default_settings(self.lang)
            ok_settings = False
        if not ok_settings:
            self.notes.append(t(self.lang, "safe.settings_reset"))
        if not ok:
            shown = str(seed_raw)[:24] + ("…" if len(str(seed_raw)) > 24 else "")
            self.notes.append(t(self.lang, "safe.url_seed", seed=shown))
        self.sound = stored.get("sound") is True          # off by default
        self.guide_seen = stored.get("guide_seen") is True
        self.audio = None                                 # an AudioContext, made on first use
        self.sounds_made = 0                              # test hook: html[data-sounds]
        self.menu_open = False                            # at the menu with a match kept
        self.confirm_replace = False
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""
        self.practice = False                             # the current match allows undo
        self.undos = 0
        self.stats_pending = False                        # the current match is counted when it ends
        self.heard = None                                 # (seq, hand) last sounded
        self.guide_step: str | None = None
        self.held = None                                  # the match kept while the guide plays
        self.ctrl: app.Controller | None = None
        self.error = ""
        self.save_error = ""
        self.help_game: str | None = None
        self.gen = 0
        self.running = False
        self.last_live = ""
        self.kbd = False
        self.snap_due = False      # a snapshot is scheduled
        self.snap_state = None     # what the stored snapshot was built from
        self.painted_seq = None    # the painted snapshot's position, until the table moves on
        self.painted: tuple = (None, 0)   # (hand, actions) the table showed last
        self.anims: list = []             # travelling tiles still running
        self.match_id = ""         # this tab's match (saves carry it, with seq)
        self.known = None          # (id, seq) of the save as this tab last read or wrote it
        self.panel = None          # ("full" | "blocked" | "corrupt" | "other-tab" | "other-match" | "turn", info)
        self.save_failed = False   # the last write did not go through
        self.save_later = False    # the player chose to keep playing unsaved: not asked again
        self.pending_corrupt = None   # (text, why): a corrupt save left in place (no room for its copy)
        self.last_match = None     # the match left for the new-game screen (to download)
        self.panel_extra = ""
        self._proxies = [create_proxy(self.on_click), create_proxy(self.on_keydown),
                         create_proxy(self.on_change), create_proxy(self.on_resize),
                         create_proxy(self.keep_snapshot), create_proxy(self.finish_anims),
                         create_proxy(self._anim_done), create_proxy(self.on_storage)]
        self.root.addEventListener("click", self._proxies[0])
        self.root.addEventListener("keydown", self._proxies[1])
        self.root.addEventListener("change", self._proxies[2])
        js.window.addEventListener("resize", self._proxies[3])
        js.window.addEventListener("pagehide", self._proxies[4])
        # a tap anywhere finishes a travelling tile at once
        document.addEventListener("pointerdown", self._proxies[5], True)
        ROOT.dataset.anim = "0"
        js.window.addEventListener("storage", self._proxies[7])
        self.set_busy(False)

    # ------------------------------------------------------------ storage
    def _settings(self) -> dict:
        return saves.load_settings(_store_get(saves.settings_key(self.path)))[0]

    def save_settings(self) -> None:
        text = json.dumps({"lang": self.lang, "pips": self.pips, "pace": self.pace, "new": self.new_settings,
                           "sound": self.sound, "guide_seen": self.guide_seen})
        if not self._write(saves.settings_key(self.path), text):
            self.notes.append(t(self.lang, "safe.settings_failed"))

    @property
    def delay(self) -> int:
        """Milliseconds a computer turn takes (its tile's travel included)."""
        return self.fixed_delay if self.fixed_delay is not None else app.pace_ms(self.pace)

    def _write(self, key: str, text: str) -> bool:
        """A checked write: when storage is full, first give up what can be
        rebuilt (the boot snapshot), then try once more."""
        if _store_set(key, text):
            return True
        _store_del(snapshot.key(self.path))
        self.snap_state = None
        return _store_set(key, text)

    def save_game(self, force: bool = False) -> bool:
        """Write the match (checked, below), then what follows every change
        (statistics, the guide, sounds).  The guided hand is never saved."""
        ok = self.guide_step is not None or self._save_match(force)
        self.after_change()
        return ok

    def _save_match(self, force: bool = False) -> bool:
        """Write the match (checked).  Never over a save of another match or a
        newer position written by another tab (unless ``force``: the player
        chose to keep this one).  Returns True when the save holds the match."""
        c = self.ctrl
        if c is None:
            return False
        if self.pending_corrupt is not None:   # its place is taken until it is downloaded
            self.save_failed = True
            self.panel = ("blocked", None)
            return False
        key = saves.save_key(self.path)
        hdr = saves.header(_store_get(key))
        if hdr is not None and hdr != self.known and not force:
            self.other_tab(hdr)
            return False
        text = saves.dump(c.match, self.match_id)
        if not self._write(key, text):
            self.save_failed = True
            if not self.save_later:
                self.panel = ("full", None)
            js.console.warn("domino: the save did not fit in storage")
            return False
        self.known = (self.match_id, c.match.seq)
        if self.save_failed:
            self.save_failed = False
            self.save_later = False
            if self.panel and self.panel[0] in ("full", "blocked"):
                self.panel = None
            self.notes.append(t(self.lang, "safe.saved_again"))
        return True

    def load_game(self) -> None:
        key = saves.save_key(self.path)
        text = _store_get(key)
        if text is None:
            return
        try:
            match, repaired = saves.load_with_notes(text)
        except saves.CorruptSave as e:
            self.keep_corrupt(text, e)
            return
        hdr = saves.header(text)
        self.match_id = hdr[0] if hdr else saves.legacy_id(match)
        self.known = hdr
        self.ctrl = app.Controller(match, self.lang, self.pips)
        meta = undo.load_meta(_store_get(undo.meta_key(self.path)))
        if undo.meta_applies(meta, match):
            self.practice = meta.get("practice") is True
            self.undos = int(meta.get("undos") or 0)
        self.stats_pending = not match.outcome   # a match that ended before the reload was counted then
        self.heard = (match.seq, match.hand_no)
        self.tell_repairs(repaired)
        # an upgraded (or repaired) save is written back in the current format
        if not saves.is_current(text) or repaired:
            self.save_game(force=True)
        else:
            self.after_change()

    def tell_repairs(self, repaired) -> None:
        for what, seat in repaired:
            self.notes.append(t(self.lang, "safe.seat_" + what, n=seat + 1))

    def keep_corrupt(self, text: str, e) -> None:
        """Keep a save that cannot be read aside (at most a few copies, oldest
        dropped first); the original goes only once its copy is stored."""
        why = t(self.lang, "save.why." + e.why) if e.why != "size" else t(self.lang, "safe.why.size")
        js.console.warn("domino: corrupt save: " + str(e)[:300])
        for k in saves.corrupt_to_drop(_store_keys(), self.path, saves.MAX_CORRUPT - 1):
            _store_del(k)
        stamp = _now_stamp()
        kept = self._write(saves.corrupt_key(self.path, stamp), text)
        if not kept:   # no room: older copies go first, oldest first
            for k in saves.corrupt_keys(_store_keys(), self.path):
                _store_del(k)
                kept = _store_set(saves.corrupt_key(self.path, stamp), text)
                if kept:
                    break
        if kept:
            _store_del(saves.save_key(self.path))
            self.save_error = t(self.lang, "save.corrupt", why=why)
        else:
            self.pending_corrupt = (text, why)
            self.panel = ("corrupt", why)

    def other_tab(self, hdr) -> None:
        """Another tab wrote the save: stop here and ask."""
        self.gen += 1          # a computer thinking here stops
        self.running = False
        self.set_busy(False)
        same = hdr is not None and hdr[0] == self.match_id
        self.panel = ("other-tab" if same else "other-match", hdr)

    def on_storage(self, ev) -> None:
        """The storage event: another tab of this page changed localStorage."""
        try:
            key = _str(ev.key)
            if key is not None and key != saves.save_key(self.path):
                return
            if self.ctrl is None:
                return
            text = _store_get(saves.save_key(self.path))
            if text is None:    # the other tab left its match for the new-game screen
                self.known = None
                return
            hdr = saves.header(text)
            if hdr is not None and hdr != self.known:
                self.other_tab(hdr)
                self.render()
        except Exception as exc:
            js.console.warn("domino: storage event: " + repr(exc))

    # ------------------------------------------------------------ hooks
    def set_busy(self, busy: bool) -> None:
        ROOT.dataset.busy = "1" if busy else "0"

    def busy(self) -> bool:
        return ROOT.dataset.busy == "1"

    # ------------------------------------------------------------ render
    def render(self) -> None:
        if self.painted_seq is not None and (self.ctrl is None or self.ctrl.match.seq != self.painted_seq):
            self.painted_seq = None   # the table moved on from the painted snapshot: animations again
            ROOT.removeAttribute("data-snapshot")
        ROOT.lang = self.lang
        document.title = t(self.lang, "app.title")
        c = self.ctrl
        if not self.at_table():
            tree = self.menu_tree()
            ROOT.dataset.seq = "0"
        else:
            c.lang = self.lang
            c.pips = self.pips
            c.pace = self.pace
            c.practice = self.practice
            c.sound = self.sound
            tree = app.game_screen(c)
            ROOT.dataset.seq = str(c.match.seq)
        screen = build(tree)
        self.add_safety(screen)
        ROOT.dataset.guide = "1" if self.guide_step is not None else "0"   # the guided hand is never saved
        for extra in self.dialogs():
            if (self.panel is None and not self.notes) or extra[1].get("data-testid") == "guide":
                screen.appendChild(build(extra))
        self.finish_anims()
        self.root.replaceChildren(screen)
        if self.at_table():
            self.draw_board()
            self.show_moves()
            self.announce()
        self.mark_guide()
        self.focus()
        if not self.snap_due:   # built after this frame, from the state, not from the DOM
            self.snap_due = True
            js.setTimeout(self._proxies[4], 0)

    def add_safety(self, screen) -> None:
        """Download / open-file controls, and the safety dialog if one is up."""
        lang = self.lang
        c = self.ctrl
        if not self.at_table():   # the menu: the table keeps its room (one tap away, ⌂ Menu)
            card = _el(screen.querySelector(".card"))
            if card is not None:
                if c is not None:
                    card.appendChild(build(safety.export_button(lang)))
                card.appendChild(build(safety.file_controls(lang, self.last_match is not None)))
        dialog = self.panel_tree()
        if dialog is not None:
            screen.appendChild(build(dialog))

    def panel_tree(self):
        lang = self.lang
        if self.panel is None:
            return safety.notes(lang, self.notes) if self.notes else None
        kind, info = self.panel
        if kind == "full":
            can_free = bool(saves.corrupt_keys(_store_keys(), self.path))
            return safety.storage_full(lang, can_free, self.panel_extra)
        if kind == "blocked":
            return safety.storage_full(lang, False, self.panel_extra, blocked=True)
        if kind == "corrupt":
            return safety.corrupt_no_room(lang, info)
        if kind in ("other-tab", "other-match"):
            return safety.other_tab(lang, kind == "other-tab")
        if kind == "turn":
            seat, why = info
            name = self.ctrl.match.seats[seat]["name"] if self.ctrl else ""
            return safety.turn_error(lang, name, why)
        return None

    def keep_snapshot(self, *_args) -> None:
        """Store the screen a reload will show (static/boot.js paints it)."""
        self.snap_due = False
        try:
            c = self.ctrl if self.guide_step is None else (self.held[0] if self.held else None)
            if c is None:
                state = ("lobby", self.lang, self.pips, json.dumps(self._settings().get("new")))
            else:
                box = _el(document.getElementById("board"))
                size = (max(200, int(box.clientWidth or 0)), max(160, int(box.clientHeight or 0))) \
                    if box is not None else (800, 500)
                m = c.match
                state = (id(m), m.seq, m.hand_no, m.phase, bool(m.outcome), self.lang, self.pips, size)
            if state == self.snap_state:
                return
            if c is None:
                snap = snapshot.lobby(self._settings().get("new"), self.lang, self.pips)
            else:
                snap = snapshot.table(c.match, self.lang, self.pips, *size)
            text = snapshot.dumps(snap)
            key = snapshot.key(self.path)
            if text is None or not _store_set(key, text):
                _store_del(key)
            self.snap_state = state
        except Exception as e:  # a picture for next time must never break this time
            js.console.warn("domino: no snapshot: " + repr(e))

    # ------------------------------------------------------------ comforts: menu, stats, guide
    def at_table(self) -> bool:
        return self.ctrl is not None and not self.menu_open

    def menu_tree(self):
        top = []
        c = self.ctrl
        if c is not None and not c.match.outcome:
            top.append(menu_screens.continue_card(c.match, self.lang, self.practice))
        elif not self.guide_seen:
            top.append(menu_screens.guide_offer(self.lang))
        return app.new_game_screen(self.new_settings, self.lang, self.pips, self.error, self.save_error,
                                   top=top, sound=self.sound)

    def dialogs(self) -> list:
        out = []
        if self.guide_step is not None and self.at_table():
            out.append(guide.guide_panel(self.guide_step, self.lang))
        if not self.at_table() and self.confirm_replace and self.ctrl is not None:
            out.append(menu_screens.replace_dialog(self.ctrl.match, self.lang))
        if self.stats_open:
            out.append(stats_dialog(self.load_stats(), self.lang, self.stats_reset_ask, self.stats_note))
        if self.help_game is not None:
            out.append(app.help_dialog(self.help_game, self.lang))
        return out

    def mark_guide(self) -> None:
        """Point at the part of the table the guide's step is about."""
        if self.guide_step is None or not self.at_table():
            return
        sel = guide.TARGETS.get(self.guide_step)
        el = _el(self.root.querySelector(sel)) if sel else None
        if el is not None:
            el.classList.add("guide-spot")
        # the panel sits just under the top bar, over the table, never on the hand
        panel = _el(self.root.querySelector('[data-testid="guide"]'))
        bar = _el(self.root.querySelector(".topbar"))
        if panel is not None and bar is not None and float(js.window.innerHeight) > 500:
            panel.style.top = f"{int(bar.getBoundingClientRect().bottom) + 8}px"

    def load_stats(self) -> dict:
        key = stats_mod.stats_key(self.path)
        raw = _store_get(key)
        try:
            return stats_mod.load(raw)
        except stats_mod.StatsError as e:
            _store_set(key + ":unreadable", raw or "")
            _store_del(key)
            self.stats_note = t(self.lang, "stats.unreadable")
            js.console.warn("domino: unreadable statistics kept aside: " + str(e))
            return stats_mod.empty()

    def after_change(self) -> None:
        """After every change of the match: count a match that just ended,
        move the guide on, make the sounds."""
        c = self.ctrl
        if c is None:
            return
        m = c.match
        if self.guide_step is not None:
            step = guide.advance(self.guide_step, "moved", phase=m.phase,
                                 played=guide.person_played(m.view(0)))
            self.guide_step = step or self.guide_step
        elif self.stats_pending and m.outcome:
            self.stats_pending = False
            doc = self.load_stats()
            if stats_mod.record(doc, m, self.practice) is not None:
                self._write(stats_mod.stats_key(self.path), stats_mod.dump(doc))
        self.sounds_for(m)

    def sounds_for(self, m) -> None:
        heard = (m.seq, m.hand_no)
        if self.heard == heard:
            return
        before = self.heard
        self.heard = heard
        if before is None or not self.sound:
            return
        if m.phase != "play" and m.hand and m.hand.ended and before[1] == m.hand_no and before[0] < m.seq:
            res = m.records[-1]["result"] or {}
            me = self.ctrl.face_up() if self.ctrl else None
            if me is not None and res.get("winner") == m.rules.side_of(me):
                self.play_sound("win")
                return
        if m.hand and any(a[1] == "p" for a in m.hand.actions[-1:]) and before[0] < m.seq:
            self.play_sound("click")

    def play_sound(self, kind: str) -> None:
        """A short click (a tile played) or three rising notes (a hand won),
        made with Web Audio: nothing is loaded."""
        try:
            if self.audio is None:
                ctor = getattr(js.window, "AudioContext", None) or getattr(js.window, "webkitAudioContext", None)
                if ctor is None:
                    return
                self.audio = ctor.new()
                ROOT.dataset.audio = "1"
            ctx = self.audio
            if str(ctx.state) == "suspended":
                ctx.resume()
            now = ctx.currentTime
            notes = [(1500, 0.0, 0.04)] if kind == "click" else [(523.25, 0.0, 0.14), (659.25, 0.12, 0.14),
                                                                  (783.99, 0.24, 0.3)]
            peak = 0.12 if kind == "click" else 0.2
            for freq, at, dur in notes:
                osc = ctx.createOscillator()
                gain = ctx.createGain()
                osc.type = "square" if kind == "click" else "triangle"
                osc.frequency.value = freq
                gain.gain.setValueAtTime(0.0001, now + at)
                gain.gain.exponentialRampToValueAtTime(peak, now + at + 0.004)
                gain.gain.exponentialRampToValueAtTime(0.0001, now + at + dur)
                osc.connect(gain)
                gain.connect(ctx.destination)
                osc.start(now + at)
                osc.stop(now + at + dur + 0.02)
            ROOT.dataset.lastSound = kind
            self.sounds_made += 1
            ROOT.dataset.sounds = str(self.sounds_made)
        except Exception as e:  # sound must never break the game
            js.console.warn("domino: sound failed: " + repr(e))

    def stop_computers(self) -> None:
        self.gen += 1
        self.running = False
        self.set_busy(False)

    def write_meta(self) -> None:
        if self.ctrl is not None and self.guide_step is None:
            _store_set(undo.meta_key(self.path),
                       json.dumps(undo.meta_for(self.ctrl.match, self.practice, self.undos)))

    def draw_board(self) -> None:
        box = _el(document.getElementById("board"))
        if box is None or self.ctrl is None:
            return
        w = max(200, int(box.clientWidth or 0))
        hgt = max(100, int(box.clientHeight or 0))
        tree = app.board_tree(self.ctrl, w, hgt)
        if tree is not None:
            box.replaceChildren(build(tree))

    # ------------------------------------------------------------ every move seen
    def show_moves(self) -> None:
        """What changed since the table was last shown: the seats that moved
        get their badge popped (once: a redraw does not pop it again) and the
        last tile played travels from its seat to its place.  The state and
        the save are already done: this is only looks."""
        c = self.ctrl
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
        ms = app.travel_ms(self.delay)
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

    def announce(self) -> None:
        c = self.ctrl
        text = (c.note or c.message()) if c else ""
        if c and c.flash:
            text += " " + " ".join(t(self.lang, "msg.fives", points=p, name=app.side_name(c.match.view(0), sd, self.lang))
                                   for sd, p in c.flash)
        if c and c.my_turn():
            text += ". " + c.status()
        if text and text != self.last_live:
            self.last_live = text
            self.live.textContent = text

    def focus(self) -> None:
        target = None
        sel = None
        c = self.ctrl
        if self.panel is not None or self.notes:
            sel = ".overlay.safe button"
        elif self.help_game is not None:
            sel = '[data-action="help-close"]'
        elif self.stats_open:
            sel = '[data-action="stats-close"], [data-action="stats-reset-no"]'
        elif not self.at_table():
            sel = '[data-action="replace-no"]' if self.confirm_replace else None
            if sel is None:
                return
        elif c.handoff() is not None:
            sel = '[data-action="handoff"]'
        elif c.confirm_resign:
            sel = '[data-action="resign-no"]'
        elif c.match.outcome:
            sel = '[data-action="new-match"]'
        elif c.match.phase == "hand-over":
            sel = '[data-action="next-hand"]'
        elif c.selected and self.kbd:
            sel = '[data-action="end"], [data-action="open"]'
        elif c.my_turn() and self.kbd:
            sel = '.tile-btn[aria-disabled="false"]'
        if sel:
            target = _el(self.root.querySelector(sel))
        if target is not None:
            try:
                target.focus(js.Object.fromEntries([["preventScroll", True]]))
            except Exception:
                pass

    # ------------------------------------------------------------ events
    def on_keydown(self, ev) -> None:
        key = str(ev.key)
        self.kbd = True
        if key == "Escape":
            if self.help_game is not None:
                self.help_game = None
                self.render()
            elif self.stats_open or self.confirm_replace:
                self.stats_open = self.stats_reset_ask = self.confirm_replace = False
                self.render()
            elif self.ctrl is not None and (self.ctrl.confirm_resign or self.ctrl.selected):
                self.ctrl.confirm_resign = False
                self.ctrl.clear()
                self.render()
            return
        if key not in ("Enter", " "):
            return
        el = _el(ev.target.closest("[data-action]")) if hasattr(ev.target, "closest") else None
        if el is None or str(el.tagName).lower() in ("button", "select", "input", "option"):
            return  # native controls click on Enter by themselves
        ev.preventDefault()
        self.act(el)

    def on_click(self, ev) -> None:
        if getattr(ev, "detail", 1):
            self.kbd = False if ev.detail else self.kbd
        tgt = ev.target
        el = _el(tgt.closest("[data-action]")) if hasattr(tgt, "closest") else None
        if el is None:
            return
        self.act(el)

    def on_change(self, ev) -> None:
        if self.at_table():
            return
        el = ev.target
        field = _str(el.getAttribute("data-field")) if hasattr(el, "getAttribute") else None
        if not field:
            return
        if field == "import":
            asyncio.ensure_future(self.import_file(el))
            return
        self.harvest()
        if field == "seat-name":  # no re-render: a click that caused the blur must still land
            self.new_settings = app.normalize_settings(self.new_settings, self.lang)
            return
        if field == "game":   # a new game starts from its own defaults
            game = self.new_settings["game"]
            self.new_settings["target"] = app.default_target(game)
            self.new_settings["options"] = app.default_options(game)
        self.new_settings = app.normalize_settings(self.new_settings, self.lang)
        self.error = ""
        self.render()
        testid = _str(el.getAttribute("data-testid"))
        fresh = _el(self.root.querySelector(f'[data-testid="{testid}"]')) if testid else None
        if fresh is not None:
            fresh.focus()

    def on_resize(self, ev=None) -> None:
        if self.ctrl is not None:
            self.draw_board()

    def harvest(self) -> None:
        """Read the new-game form into self.new_settings."""
        s = dict(self.new_settings)
        s["seats"] = [dict(x) for x in s["seats"]]

        def val(testid):
            el = _el(self.root.querySelector(f'[data-testid="{testid}"]'))
            return None if el is None else el

        g = val("game")
        if g is not None:
            s["game"] = str(g.value)
        p = val("players")
        if p is not None:
            s["players"] = int(str(p.value))
        tg = val("target")
        if tg is not None:
            s["target"] = int(str(tg.value))
        pt = val("partnership")
        if pt is not None:
            s["partnership"] = bool(pt.checked)
        pr = val("practice")
        if pr is not None:
            s["practice"] = bool(pr.checked)
        box = val("options")
        if box is not None:
            s["show_options"] = bool(box.open)
        opts = dict(s.get("options") or {})
        for el in self.root.querySelectorAll('[data-field="option"]'):
            opts[str(el.getAttribute("data-key"))] = str(el.value)   # decoded by normalize_settings
        s["options"] = opts
        for i in range(len(s["seats"])):
            k = val(f"seat-kind-{i}")
            if k is not None:
                s["seats"][i]["kind"] = str(k.value)
            n = val(f"seat-name-{i}")
            if n is not None:
                s["seats"][i]["name"] = str(n.value)
        self.new_settings = s

    def act(self, el) -> None:
        try:
            self._act(el)
        except Exception as e:   # never a dead page: say what broke, offer a way on
            rescue(e, "action")

    def _act(self, el) -> None:
        action = str(el.getAttribute("data-action"))
        if (self.panel is not None or self.notes) and action not in PANEL_ACTIONS:
            return
        busy = self.busy()
        if busy and action not in UI_ONLY and action not in PANEL_ACTIONS:
            return
        c = self.ctrl
        seq = _str(el.getAttribute("data-seq"))
        if seq is not None and (c is None or str(seq) != str(c.match.seq)):
            return
        if el.getAttribute("aria-disabled") == "true" or el.hasAttribute("disabled"):
            return
        handler = getattr(self, "do_" + action.replace("-", "_"), None)
        if handler is not None:
            handler(el)

    # ------------------------------------------------------------ safety net
    def do_safe_ok(self, el) -> None:
        self.notes = []
        self.render()

    def do_save_later(self, el) -> None:
        self.save_later = self.panel is not None and self.panel[0] in ("full", "blocked")
        self.panel = None
        self.panel_extra = ""
        self.changed()

    def do_free_space(self, el) -> None:
        """Remove old corrupt copies (and the boot snapshot), then save again."""
        keys = saves.corrupt_keys(_store_keys(), self.path)
        for k in keys:
            _store_del(k)
        _store_del(snapshot.key(self.path))
        self.snap_state = None
        if self.save_game():
            self.panel = None
            self.panel_extra = ""
            self.changed()
            return
        self.panel_extra = t(self.lang, "safe.free_none")
        self.render()

    def do_export(self, el) -> None:
        m = self.ctrl.match if self.ctrl is not None else self.last_match
        if m is None:
            return
        name = saves.export_name(m, _now_stamp())
        download(name, saves.export_text(m))
        self.last_live = t(self.lang, "safe.downloaded", file=name)
        self.live.textContent = self.last_live

    def do_download_corrupt(self, el) -> None:
        """The corrupt save with no room for a copy: download it, then remove it."""
        if self.pending_corrupt is None:
            return
        text, _why = self.pending_corrupt
        name = f"domino-damaged-save-{re.sub(r'[^0-9]', '', _now_stamp())[:12]}.json"
        download(name, text)
        key = saves.save_key(self.path)
        if _store_get(key) == text:
            _store_del(key)
        self.pending_corrupt = None
        self.panel = None
        self.save_error = t(self.lang, "safe.corrupt_downloaded", file=name)
        if self.ctrl is not None:
            self.known = None
            self.save_game()
            if self.ctrl is not None:
                self.notes.append(self.save_error)
        self.render()

    def do_continue_here(self, el) -> None:
        """Take the match over from the save another tab wrote (its newest position)."""
        key = saves.save_key(self.path)
        text = _store_get(key)
        self.panel = None
        if text is None:     # the other tab has left it: this tab's match goes on
            self.known = None
            self.save_game()
            self.changed()
            return
        try:
            match, repaired = saves.load_with_notes(text)
        except saves.CorruptSave as e:
            self.ctrl = None
            self.keep_corrupt(text, e)
            self.render()
            return
        hdr = saves.header(text)
        self.match_id = hdr[0] if hdr else saves.legacy_id(match)
        self.known = hdr
        self.ctrl = app.Controller(match, self.lang, self.pips)
        self.tell_repairs(repaired)
        self.gen += 1
        self.running = False
        self.changed()

    def do_keep_mine(self, el) -> None:
        self.panel = None
        self.save_game(force=True)
        self.changed()

    def do_turn_retry(self, el) -> None:
        self.panel = None
        self.changed()

    def do_turn_resign(self, el) -> None:
        c = self.ctrl
        self.panel = None
        if c is not None and not c.match.outcome and c.match.turn is not None:
            c.match.apply({"seat": c.match.turn, "resign": True})
            c.clear()
            self.save_game()
        self.render()

    async def import_file(self, el) -> None:
        files = el.files
        if files is None or not int(files.length):
            return
        f = files.item(0)
        name = str(f.name)[:80]
        try:
            if int(f.size) > saves.MAX_IMPORT_CHARS * 4:
                raise saves.CorruptSave("size", "")
            text = str(await f.text())
            match, repaired = saves.import_text(text)
        except saves.CorruptSave as e:
            why = e.detail if e.why == "record" else t(self.lang, "safe.import_format") \
                if e.why in ("format", "json") else t(self.lang, "safe.why.size")
            self.notes.append(t(self.lang, "safe.import_failed", file=name, why=why))
            self.render()
            return
        except Exception as e:   # the file could not be read at all
            self.notes.append(t(self.lang, "safe.import_failed", file=name, why=str(e)[:120]))
            self.render()
            return
        self.match_id = secrets.token_hex(8)
        self.ctrl = app.Controller(match, self.lang, self.pips)
        self.tell_repairs(repaired)
        self.notes.append(t(self.lang, "safe.imported", file=name))
        self.gen += 1
        self.running = False
        self.save_game()
        self.changed()

    # ------------------------------------------------------------ actions
    def do_help(self, el) -> None:
        game = _str(el.getAttribute("data-game")) or (self.ctrl.match.rules.game if self.ctrl else "draw")
        self.help_game = str(game)
        self.render()

    def do_help_close(self, el) -> None:
        self.help_game = None
        self.render()

    def do_lang(self, el) -> None:
        if not self.at_table():
            self.harvest()
        self.lang = "en" if self.lang == "es" else "es"
        self.save_error = ""
        self.save_settings()
        self.render()

    def do_pips(self, el) -> None:
        if not self.at_table():
            self.harvest()
        self.pips = "black" if self.pips == "coloured" else "coloured"
        self.save_settings()
        self.render()

    def do_log(self, el) -> None:
        if self.ctrl is not None:
            self.ctrl.log_open = not self.ctrl.log_open
            self.render()
            sel = '[data-testid="log-close"]' if self.ctrl.log_open else '[data-testid="log"]'
            target = _el(self.root.querySelector(sel))
            if target is not None:
                target.focus()

    def do_pace(self, el) -> None:
        order = list(app.PACES)
        self.pace = order[(order.index(self.pace) + 1) % len(order)] if self.pace in order else app.DEFAULT_PACE
        self.save_settings()
        self.render()
        target = _el(self.root.querySelector('[data-testid="pace"]'))
        if target is not None:
            target.focus()

    def do_start(self, el) -> None:
        self.harvest()
        self.new_settings = app.normalize_settings(self.new_settings, self.lang)
        if self.ctrl is not None and not self.ctrl.match.outcome and self.guide_step is None:
            self.confirm_replace = True    # ask before a new match replaces the one in progress
            self.render()
            return
        self.start_match()

    def do_replace_no(self, el) -> None:
        self.confirm_replace = False
        self.render()

    def do_replace_yes(self, el) -> None:
        self.confirm_replace = False
        self.start_match()

    def start_match(self) -> None:
        seed = self.seed if self.seed is not None else random.SystemRandom().randrange(1, 2 ** 31)
        try:
            match = app.new_match(self.new_settings, seed, self.lang)
        except Exception as e:  # RulesError: say why, stay on the form
            self.error = t(self.lang, "new.invalid", why=str(e))
            self.render()
            return
        self.error = ""
        self.save_error = ""
        self.guide_seen = True   # a player who starts a match has chosen; the guide stays in the help
        self.save_settings()
        self.stop_computers()
        self.ctrl = app.Controller(match, self.lang, self.pips)
        self.match_id = secrets.token_hex(8)
        self.last_match = None
        self.gen += 1
        self.running = False
        self.menu_open = False
        self.practice = bool(self.new_settings.get("practice"))
        self.undos = 0
        self.stats_pending = True
        self.heard = (match.seq, match.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()

    def do_tile(self, el) -> None:
        c = self.ctrl
        if c is None:
            return
        done = c.tap_tile(str(el.getAttribute("data-tile")))
        self.after_input(done)

    def do_end(self, el) -> None:
        c = self.ctrl
        if c is None:
            return
        self.after_input(c.tap_end(str(el.getAttribute("data-end"))))

    def do_open(self, el) -> None:
        c = self.ctrl
        if c is None:
            return
        self.after_input(c.tap_open(int(str(el.getAttribute("data-open")))))

    def do_act(self, el) -> None:
        """A button naming its action (Frijolito: turn over, send back, play at an end)."""
        c = self.ctrl
        acts = c.row_actions() if c else []
        i = int(str(el.getAttribute("data-act") or -1))
        if 0 <= i < len(acts):
            self.after_input(c.apply(acts[i][1]))

    def do_draw(self, el) -> None:
        c = self.ctrl
        a = c.draw_action() if c else None
        if a is not None:
            self.after_input(c.apply(a))

    def after_input(self, done) -> None:
        if done:
            self.save_game()
            self.changed()
        else:
            self.render()

    def do_handoff(self, el) -> None:
        if self.ctrl and self.ctrl.continue_handoff():
            self.render()

    def do_next_hand(self, el) -> None:
        if self.ctrl and self.ctrl.next_hand():
            self.save_game()
            self.changed()

    def do_new_match(self, el) -> None:
        if self.ctrl is not None:
            self.last_match = self.ctrl.match    # still downloadable from the new-game screen
        self.ctrl = None
        self.gen += 1
        self.running = False
        self.set_busy(False)
        self.menu_open = False
        key = saves.save_key(self.path)
        hdr = saves.header(_store_get(key))
        if hdr is not None and hdr == self.known:   # never another tab's match
            _store_del(key)
        self.known = None
        self.render()

    def do_menu(self, el) -> None:
        """Leave the table for the menu; the match stays saved, to continue."""
        if self.guide_step is not None:
            self.end_guide()
            return
        self.stop_computers()
        if self.ctrl is not None:
            self.ctrl.clear()
            self.ctrl.confirm_resign = False
        self.menu_open = True
        self.render()

    def do_continue(self, el) -> None:
        if self.ctrl is None:
            return
        self.menu_open = False
        self.confirm_replace = False
        self.changed()

    def do_undo(self, el) -> None:
        c = self.ctrl
        if c is None or not self.practice or self.guide_step is not None:
            return
        back = undo.undo(c.match)
        if back is None:
            return
        self.stop_computers()
        ctrl = app.Controller(back, self.lang, self.pips, c.viewer)
        ctrl.hint_why = {"key": "undo.done"}   # the message line says so, in the language of the moment
        self.ctrl = ctrl
        self.undos += 1
        self.stats_pending = not back.outcome
        self.heard = (back.seq, back.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()

    def do_sound(self, el) -> None:
        if not self.at_table():
            self.harvest()
        self.sound = not self.sound
        self.save_settings()
        if self.sound:
            self.play_sound("click")   # made on the tap: browsers start audio only from a gesture
        self.render()

    def do_stats(self, el) -> None:
        if not self.at_table():
            self.harvest()
        self.stats_open = True
        self.stats_reset_ask = False
        self.render()

    def do_stats_close(self, el) -> None:
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""
        self.render()

    def do_stats_reset(self, el) -> None:
        self.stats_reset_ask = True
        self.render()

    def do_stats_reset_no(self, el) -> None:
        self.stats_reset_ask = False
        self.render()

    def do_stats_reset_yes(self, el) -> None:
        _store_del(stats_mod.stats_key(self.path))
        self.stats_reset_ask = False
        self.render()

    # --- the guided hand
    def do_guide_start(self, el) -> None:
        if self.guide_step is not None:
            return
        if not self.at_table():
            self.harvest()
        self.stop_computers()
        self.help_game = None
        self.guide_seen = True
        self.save_settings()
        self.held = (self.ctrl, self.menu_open)
        match = app.new_match(guide.settings(), guide.SEED, self.lang)
        self.ctrl = app.Controller(match, self.lang, self.pips)
        self.menu_open = False
        self.confirm_replace = False
        self.guide_step = guide.first()
        self.heard = (match.seq, match.hand_no)
        self.changed()

    def do_guide_next(self, el) -> None:
        if self.guide_step is None or self.ctrl is None:
            return
        m = self.ctrl.match
        step = guide.advance(self.guide_step, "next", phase=m.phase, played=guide.person_played(m.view(0)))
        if step is None:
            self.end_guide()
            return
        self.guide_step = step
        self.render()

    def do_guide_skip(self, el) -> None:
        self.end_guide()

    do_guide_finish = do_guide_skip

    def do_guide_dismiss(self, el) -> None:
        self.harvest()
        self.guide_seen = True
        self.save_settings()
        self.render()

    def end_guide(self) -> None:
        """Back to the menu, with the match that was kept (if any)."""
        self.stop_computers()
        held, _was_menu = self.held if self.held else (None, False)
        self.held = None
        self.guide_step = None
        self.ctrl = held
        self.menu_open = held is not None
        if held is not None:
            self.heard = (held.match.seq, held.match.hand_no)
        self.render()

    def do_resign(self, el) -> None:
        if self.ctrl and not self.ctrl.match.outcome:
            self.ctrl.confirm_resign = True
            self.render()

    def do_resign_no(self, el) -> None:
        if self.ctrl:
            self.ctrl.confirm_resign = False
            self.render()

    def do_resign_yes(self, el) -> None:
        c = self.ctrl
        if c is None or c.match.outcome:
            return
        self.gen += 1   # stop a computer that is thinking
        self.running = False
        c.resign()
        self.set_busy(False)
        self.save_game()
        self.render()

    def do_hint(self, el) -> None:
        c = self.ctrl
        if c is None or not c.my_turn():
            return
        self.set_busy(True)
        try:
            c.hint()
        finally:
            self.set_busy(False)
        self.render()

    # ------------------------------------------------------------ computers
    def changed(self) -> None:
        self.render()
        c = self.ctrl
        if c is not None and self.at_table() and app.is_computer_turn(c.match) and not self.running and (
                self.panel is None or self.panel[0] in ("full", "blocked")):
            self.running = True
            self.set_busy(True)
            asyncio.ensure_future(self.computers(self.gen))

    async def computers(self, gen: int) -> None:
        """The computer seats move, one turn per ``delay`` ms (the pace): the
        thinking happens first, the wait takes up the rest, and the table
        (with the tile's travel, shorter than the pace) is shown after each
        move, once the move is applied and saved."""
        try:
            while self.ctrl is not None and gen == self.gen and app.is_computer_turn(self.ctrl.match):
                c = self.ctrl
                m = c.match
                self.set_busy(True)
                t0 = js.performance.now()
                seat = m.turn
                kind = m.seats[seat]["kind"]
                if self.fail == "turn":
                    self.fail = ""
                    raise RuntimeError("failing on purpose (?fail=turn)")
                view = m.view(seat)
                rng = m.player_rng(seat)
                if kind == "hard":
                    # the search runs in slices of at most ~40 ms, and the page
                    # draws a frame between slices: the board never freezes
                    search = app.load_ai().HardSearch(view, rng)
                    action = search.step(40)
                    while action is None:
                        await next_frame()
                        if gen != self.gen:
                            return
                        action = search.step(40)
                else:
                    action = players.get_player(kind)(view, rng)
                wait = self.delay - (js.performance.now() - t0)
                await asyncio.sleep(max(0.0, wait) / 1000.0)
                if gen != self.gen:
                    return
                c.apply(action)
                if not self.save_game() and self.panel is not None and self.panel[0].startswith("other"):
                    self.render()    # another tab moved on: this one stops and asks
                    return
                self.render()
        except Exception as e:  # never a dead table: say so, offer retry or resign
            js.console.error("domino: computer turn failed: " + repr(e))
            if gen == self.gen and self.ctrl is not None and self.ctrl.match.turn is not None:
                self.panel = ("turn", (self.ctrl.match.turn, f"{type(e).__name__}: {str(e)[:120]}"))
        finally:
            if gen == self.gen:
                self.running = False
                self.set_busy(False)
                if self.ctrl is None or self.panel is not None or str(ROOT.dataset.seq) != str(self.ctrl.match.seq):
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


_ui: UI | None = None


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
    global _ui
    _mark("domino:start")   # main.py has imported the package (boot.js marked domino:py-ready)
    try:
        _ui = UI()
        if _ui.fail == "start":
            raise RuntimeError("failing on purpose (?fail=start)")
        _ui.load_game()
        _ui.render()
        _take_over(_ui)
        ROOT.dataset.ready = "1"
        _mark("domino:ready")
        if _ui.ctrl is not None:
            _ui.changed()
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


def _take_over(ui: UI) -> None:
    """The live screen has replaced static/boot.js's painted snapshot (the
    same tree, drawn by the same code: nothing moves).  Until the table moves
    on, html[data-snapshot="live"] keeps the last tile from replaying its
    landing animation."""
    ui.root.removeAttribute("inert")
    if _str(ROOT.getAttribute("data-snapshot")) == "painted":
        ROOT.dataset.snapshot = "live"
        ui.painted_seq = ui.ctrl.match.seq if ui.ctrl is not None else None
        if ui.painted_seq is None:
            ROOT.removeAttribute("data-snapshot")
    ROOT.dataset.painted = "1"


def _warm_up(*_args) -> None:
    app.load_ai()
    js.setTimeout(create_once_callable(_warm_up_boards), 0)


def _warm_up_boards(*_args) -> None:
    """The other boards' players, in a task of their own: otherwise the first
    hard move on a trains, foot or row table imports them inside its first
    slice."""
    import domino.players.boards  # noqa: F401
    ROOT.dataset.bytecode = _bytecode()


def _bytecode() -> str:
    """"shipped" when every loaded module of the package ran from the bytecode
    in domino.zip (scripts/build_zip.py: unchecked-hash .pyc files of this
    interpreter), "compiled" when any was compiled from its source at boot
    (a stale or foreign .pyc is ignored by the import system, which then
    compiles the source and writes its own, timestamped one)."""
    import importlib.util
    import sys
    for name, mod in list(sys.modules.items()):
        if name != "domino" and not name.startswith("domino."):
            continue
        try:
            with open(mod.__cached__, "rb") as f:
                head = f.read(8)
        except (AttributeError, TypeError, OSError):
            return "compiled"
        if head[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(head[4:8], "little") != 1:
            return "compiled"
    return "shipped"
