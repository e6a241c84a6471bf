"""One path for every action: the app's decisions, in plain Python.

A tap on the page, a computer seat's move and (later) a message from another
device all become one input, a plain dict, given to :meth:`Session.handle`;
it answers with an :class:`Out`: what to draw, what to play as sound, what to
download, where to put the focus, and whether the computer seats should
move.  The match is saved (through a :class:`Store`) before ``handle``
returns.  ``domino/browser.py`` keeps only the page: it reads an element's
``data-*`` attributes and the new-game form into the input, turns
:meth:`Session.screen` into DOM, and runs the timers.

Inputs (``{"action": name, ...}``):

* a ``data-action`` of the page (``tile``, ``end``, ``draw``, ``start``,
  ``menu``, ``undo``, ...), with the element's ``seq`` (``data-seq``: a tap
  on a screen the match has moved on from is stale and does nothing),
  ``disabled``, and its data (``tile``, ``end``, ``open``, ``act``,
  ``game``); ``form`` carries the new-game form's raw values when it is on
  screen (:meth:`Session.harvest` reads them);
* events that are no tap: ``change`` (a form field changed), ``escape``,
  ``import`` (a match file was read), ``storage`` (another tab wrote),
  ``computer-move`` / ``computer-failed`` (from the computer seats' loop).

Every tap is checked the same way (:meth:`Session.handle`): a dialog of the
safety net accepts only its own buttons, a busy table (a computer thinking)
only what changes the looks, and a stale ``seq`` nothing.
"""
from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Protocol

from domino import players
from domino.app import controller as ctl
from domino.app import guide, saves, snapshot, undo
from domino.engine.common import IllegalAction, new_seed, winning_side
from domino.app.friends import Friends
from domino.app import stats as stats_mod
from domino.app.i18n import lang_from_browser, norm_lang, t
from domino.app.nodes import Node
from domino.app.screens import menu as menu_screens
from domino.app.screens import safety
from domino.app.screens.dialogs import help_dialog
from domino.app.screens import friends as friends_screens
from domino.app.screens.lobby import new_game_screen, toolbar
from domino.app.screens.stats import stats_dialog
from domino.app.screens.table import Display, game_screen
from domino.app.online import normalize_ice, normalize_relays
from domino.app.settings import default_target, localize_names
from domino.table import default_options, default_settings, new_match, normalize_settings

# actions that only change the looks: allowed while busy and whatever the seq
UI_ONLY = frozenset({"help", "help-close", "lang", "pips", "resign", "resign-no", "save-ok", "log", "pace",
                     # comforts: leaving the table, undo and the guide stop a computer that is thinking
                     "menu", "sound", "stats", "stats-close", "stats-reset", "stats-reset-yes", "stats-reset-no",
                     "undo", "guide-start", "guide-next", "guide-skip", "guide-finish", "guide-dismiss"})
# the safety net's dialogs (domino.app.screens.safety): they answer while a dialog is up
PANEL_ACTIONS = frozenset({"free-space", "export", "save-later", "download-corrupt", "continue-here", "keep-mine",
                           "turn-retry", "turn-resign", "safe-ok", "lang"})
PANEL_ONLY = PANEL_ACTIONS - {"export", "lang"}     # (export and the language are on other screens too)
# inputs that are not a tap on the page: never gated by dialogs, busy or seq
EVENTS = frozenset({"change", "escape", "import", "storage", "computer-move", "computer-failed",
                    # the network (domino.app.friends)
                    "net-offer", "net-answer", "net-open", "net-message", "net-close", "net-tick", "net-shared",
                    "net-relay"})
MAX_URL_SEED = 64


class Store(Protocol):
    """Where the app keeps its data (localStorage in the browser)."""

    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> bool: ...   # False: refused (storage full)
    def delete(self, key: str) -> None: ...
    def keys(self) -> list[str]: ...


class MemoryStore:
    """A Store in a dict, with an optional quota in characters (tests: a full storage)."""

    def __init__(self, quota: int | None = None):
        self.data: dict[str, str] = {}
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> bool:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                return False
        self.data[key] = value
        return True

    def delete(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


@dataclass
class Out:
    """What one input asks of the page."""
    render: bool = False
    computers: bool = False          # the computer seats may have a turn to take
    sounds: list[str] = field(default_factory=list)
    downloads: list[tuple[str, str]] = field(default_factory=list)   # (file name, text)
    focus: str | None = None         # a selector to focus after drawing (else the screen's own choice)
    live: str | None = None          # words for the screen reader's live region
    warnings: list[str] = field(default_factory=list)
    net: list[dict] = field(default_factory=list)    # the network's commands (domino.app.friends)
    clear_hash: bool = False         # drop the invitation from the page's URL


def now_stamp() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_seed(raw):
    """?seed=: ASCII digits (at most 40: a new match's 128-bit seed has 39) -> int; a short word -> str; anything
    else (--5, ², 5,000 digits) -> (None, False): not used, and the player told."""
    if raw is None or not str(raw).strip():
        return None, True
    s = str(raw).strip()
    if re.fullmatch(r"-?[0-9]{1,40}", s):
        return int(s), True
    if len(s) <= MAX_URL_SEED and re.fullmatch(r"[A-Za-z0-9_.:-]+", s) and re.search(r"[A-Za-z]", s):
        return s, True
    return None, False


def first_card(tree: Node):
    """The first node whose class list holds ``card`` (where the menu's file controls go)."""
    if isinstance(tree, str):
        return None
    if "card" in tree[1].get("class", "").split():
        return tree
    for ch in tree[2]:
        found = first_card(ch)
        if found is not None:
            return found
    return None


class Done:
    """A computer decision already made (the levels that need no slicing)."""

    def __init__(self, action: dict):
        self.action = action

    def step(self, _ms: float) -> dict:
        return self.action


class Session(Friends):
    """The app's state around the current match, and every decision on it."""

    def __init__(self, store: Store, path: str, *, params: dict | None = None, browser_lang: str = "en"):
        self.store = store
        self.path = path
        params = params or {}
        self.notes: list[str] = []     # told once, in a dialog (settings reset, URL, repaired seats)
        self.fail = str(params.get("fail") or "")[:20]
        seed_raw = params.get("seed")
        self.seed, ok = parse_seed(seed_raw)
        d = params.get("delay")
        try:   # ?delay=ms overrides the pace (tests: 0, no pauses, no animations)
            self.fixed_delay = min(5000, max(0, int(str(d)))) if d is not None else None
        except ValueError:
            self.fixed_delay = None
        stored, ok_settings = saves.load_settings(store.get(saves.settings_key(path)))
        pace = stored.get("pace")
        self.pace = pace if isinstance(pace, str) and pace in ctl.PACES else ctl.DEFAULT_PACE
        lang = stored.get("lang")
        self.lang = norm_lang(lang) if isinstance(lang, str) and lang else lang_from_browser(browser_lang)
        self.pips = stored.get("pips") if stored.get("pips") in ("coloured", "black") else "coloured"
        self.relays = normalize_relays(stored.get("relays"))    # play over the internet (domino.app.online)
        self.ice = normalize_ice(stored.get("ice"))
        try:
            self.new_settings = normalize_settings(stored.get("new"), self.lang)
        except Exception:
            self.new_settings = default_settings(self.lang)
            ok_settings = False
        if not ok_settings:
            self.notes.append(t(self.lang, "safe.settings_reset"))
        if not ok:
            shown = str(seed_raw)[:24] + ("…" if len(str(seed_raw)) > 24 else "")
            self.notes.append(t(self.lang, "safe.url_seed", seed=shown))
        self.sound = stored.get("sound") is True          # off by default
        self.guide_seen = stored.get("guide_seen") is True
        self.menu_open = False                            # at the menu with a match kept
        self.confirm_replace = False
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""
        self.practice = False                             # the current match allows undo
        self.undos = 0
        self.stats_pending = False                        # the current match is counted when it ends
        self.heard: tuple | None = None                   # (seq, hand) last sounded
        self.guide_step: str | None = None
        self.held: tuple | None = None                    # the match kept while the guide plays
        self.ctrl: ctl.Controller | None = None
        self.error = ""
        self.save_error = ""
        self.help_game: str | None = None
        self.gen = 0                # bumped to stop a computer that is thinking
        self.thinking: tuple | None = None   # (match, seq, seat) the computer seat is deciding for
        self.running = False        # the computer seats' loop is on (the table is busy)
        self.snap_state = None      # what the stored snapshot was built from
        self.match_id = ""          # this tab's match (saves carry it, with seq)
        self.known: tuple | None = None   # (id, seq) of the save as this tab last read or wrote it
        self.panel: tuple | None = None   # ("full" | "blocked" | "corrupt" | "other-tab" | "other-match" | "turn", info)
        self.save_failed = False    # the last write did not go through
        self.save_later = False     # the player chose to keep playing unsaved: not asked again
        self.pending_corrupt: tuple | None = None   # (text, why): a corrupt save left in place (no room for its copy)
        self.last_match = None      # the match left for the new-game screen (to download)
        self.panel_extra = ""
        self.out = Out()
        self.friends_init(params)

    # ------------------------------------------------------------ the one entry
    def handle(self, inp: dict) -> Out:
        """Apply one input; return what the page must do about it."""
        self.out = out = Out()
        action = str(inp.get("action") or "")
        if action in EVENTS:
            if action.startswith("net-") and not all(inp.get(k) is None or type(inp[k]) is int
                                                     for k in ("conn", "seat")):
                self.warn(f"domino: {action} with a connection or seat that is not a number was dropped")
                return out
            getattr(self, "on_" + action.replace("-", "_"))(inp)
            return out
        if (self.panel is not None or self.notes or action in PANEL_ONLY) and action not in self.panel_actions():
            return out     # a dialog answers only its own buttons; theirs do nothing without it
        if self.busy and action not in UI_ONLY and action not in PANEL_ACTIONS:
            return out
        seq = inp.get("seq")
        if seq is not None and (self.ctrl is None or str(seq) != str(self.ctrl.match.seq)):
            return out
        if inp.get("disabled"):
            return out
        handler = getattr(self, "do_" + action.replace("-", "_"), None)
        if handler is not None:
            if "form" in inp and not self.at_table() and self.role is None:
                self.harvest(inp["form"])
            handler(inp)
        return out

    def panel_actions(self) -> set:
        """What the safety net's dialog on screen offers (its buttons, and the language)."""
        tree = self.panel_tree()
        found = {"lang"}
        stack = [tree] if tree is not None else []
        while stack:
            n = stack.pop()
            if not isinstance(n, str):
                if n[1].get("data-action") in PANEL_ACTIONS:
                    found.add(n[1]["data-action"])
                stack.extend(n[2])
        return found

    @property
    def busy(self) -> bool:
        return self.running

    @property
    def delay(self) -> int:
        """Milliseconds a computer turn takes (its tile's travel included)."""
        return self.fixed_delay if self.fixed_delay is not None else ctl.pace_ms(self.pace)

    def render(self) -> None:
        self.out.render = True

    def changed(self) -> None:
        """The position changed: draw it, and let the computer seats move."""
        self.out.render = True
        self.out.computers = True

    def warn(self, text: str) -> None:
        self.out.warnings.append(text)

    def at_table(self) -> bool:
        return self.ctrl is not None and not self.menu_open

    def wants_computers(self) -> bool:
        """A computer seat is to move and nothing stands in its way."""
        c = self.ctrl
        return (c is not None and self.guest is None and self.at_table() and ctl.is_computer_turn(c.match)
                and (self.panel is None or self.panel[0] in ("full", "blocked")))

    def stop_computers(self) -> None:
        self.gen += 1
        self.running = False

    # ------------------------------------------------------------ storage
    def _settings(self) -> dict:
        return saves.load_settings(self.store.get(saves.settings_key(self.path)))[0]

    def save_settings(self) -> None:
        text = json.dumps({"lang": self.lang, "pips": self.pips, "pace": self.pace, "new": self.new_settings,
                           "sound": self.sound, "guide_seen": self.guide_seen,
                           "relays": self.relays, "ice": self.ice})
        if not self._write(saves.settings_key(self.path), text):
            self.notes.append(t(self.lang, "safe.settings_failed"))

    def _write(self, key: str, text: str) -> bool:
        """A checked write: when storage is full, first give up what can be
        rebuilt (the boot snapshot), then try once more."""
        if self.store.set(key, text):
            return True
        self.store.delete(snapshot.key(self.path))
        self.snap_state = None
        return self.store.set(key, text)

    def save_game(self, force: bool = False) -> bool:
        """Write the match (checked, below), then what follows every change
        (statistics, the guide, sounds).  The guided hand is never saved."""
        ok = self.guide_step is not None or self.guest is not None or self._save_match(force)
        self.after_change()
        if ok:
            self.net_sync()   # the guests hear of a move only once it is saved
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
        hdr = saves.header(self.store.get(key))
        if hdr is not None and hdr != self.known and not force:
            self.other_tab(hdr)
            return False
        text = saves.dump(c.match, self.match_id)
        if not self._write(key, text):
            self.save_failed = True
            if not self.save_later:
                self.panel = ("full", None)
            self.warn("domino: the save did not fit in storage")
            return False
        self.known = (self.match_id, c.match.seq)
        if self.save_failed:
            self.save_failed = False
            self.save_later = False
            if self.panel and self.panel[0] in ("full", "blocked"):
                self.panel = None
            self.notes.append(t(self.lang, "safe.saved_again"))
        return True

    def load_game(self) -> Out:
        """The saved match, if any (at start), and a friends' table around it;
        a guest's device leaves its own save alone."""
        self.out = Out()
        if self.guest is None:
            self._load_match()
            self.restore_table()
        self.net_start()
        return self.out

    def _load_match(self) -> None:
        key = saves.save_key(self.path)
        text = self.store.get(key)
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
        self.ctrl = ctl.Controller(match, self.lang, self.pips)
        meta = undo.load_meta(self.store.get(undo.meta_key(self.path)))
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
        self.warn("domino: corrupt save: " + str(e)[:300])
        for k in saves.corrupt_to_drop(self.store.keys(), self.path, saves.MAX_CORRUPT - 1):
            self.store.delete(k)
        stamp = now_stamp()
        kept = self._write(saves.corrupt_key(self.path, stamp), text)
        if not kept:   # no room: older copies go first, oldest first
            for k in saves.corrupt_keys(self.store.keys(), self.path):
                self.store.delete(k)
                kept = self.store.set(saves.corrupt_key(self.path, stamp), text)
                if kept:
                    break
        if kept:
            self.store.delete(saves.save_key(self.path))
            self.save_error = t(self.lang, "save.corrupt", why=why)
        else:
            self.pending_corrupt = (text, why)
            self.panel = ("corrupt", why)

    def other_tab(self, hdr) -> None:
        """Another tab wrote the save: stop here and ask."""
        self.stop_computers()
        same = hdr is not None and hdr[0] == self.match_id
        self.panel = ("other-tab" if same else "other-match", hdr)

    def on_storage(self, inp: dict) -> None:
        """Another tab of this page changed the storage."""
        key = inp.get("key")
        if key is not None and key != saves.save_key(self.path):
            return
        if self.ctrl is None:
            return
        text = self.store.get(saves.save_key(self.path))
        if text is None:    # the other tab left its match for the new-game screen
            self.known = None
            return
        hdr = saves.header(text)
        if hdr is not None and hdr != self.known:
            self.other_tab(hdr)
            self.render()

    def write_meta(self) -> None:
        if self.ctrl is not None and self.guide_step is None:
            self.store.set(undo.meta_key(self.path),
                           json.dumps(undo.meta_for(self.ctrl.match, self.practice, self.undos)))

    def load_stats(self) -> dict:
        key = stats_mod.stats_key(self.path)
        raw = self.store.get(key)
        try:
            return stats_mod.load(raw)
        except stats_mod.StatsError as e:
            self.store.set(key + ":unreadable", raw or "")
            self.store.delete(key)
            self.stats_note = t(self.lang, "stats.unreadable")
            self.warn("domino: unreadable statistics kept aside: " + str(e))
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
        elif self.stats_pending and m.outcome and self.guest is None:
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
            if me is not None and winning_side(res, m.rules.sides) == m.rules.side_of(me):
                self.out.sounds.append("win")
                return
        if m.hand and any(a[1] == "p" for a in m.hand.actions[-1:]) and before[0] < m.seq:
            self.out.sounds.append("click")

    def snapshot(self, size: tuple[int, int]) -> None:
        """Store the screen a reload will show (static/boot.js paints it);
        ``size`` is the board's on screen."""
        if self.guest is not None or (self.host is not None and not self.at_table()):
            return    # a guest's table is the host's; the friends' lobby is not what a reload shows first
        if self.fixed_delay == 0 and self.running and self.wants_computers():
            return    # at ?delay=0 the computers' moves follow one another with no pause: only the
            #           position where they stop is one a reload can come back to
        c = self.ctrl if self.guide_step is None else (self.held[0] if self.held else None)
        if c is None:
            state: tuple = ("lobby", self.lang, self.pips, json.dumps(self._settings().get("new")))
        else:
            m = c.match
            state = (id(m), m.seq, m.hand_no, m.phase, bool(m.outcome), self.lang, self.pips, self.pace,
                     self.sound, self.practice, size)
        if state == self.snap_state:
            return
        if c is None:
            snap = snapshot.lobby(self._settings().get("new"), self.lang, self.pips)
        else:   # as a reload shows it: the stored choices, no friends' bars
            snap = snapshot.table(c.match, Display(self.lang, self.pips, self.pace, self.practice, self.sound), *size)
        text = snapshot.dumps(snap)
        key = snapshot.key(self.path)
        if text is None or not self.store.set(key, text):
            self.store.delete(key)
        self.snap_state = state

    # ------------------------------------------------------------ what the page shows
    def screen(self) -> Node:
        """The whole screen: the table or the menu, the safety net's controls
        and dialog, and the other dialogs (when no safety dialog is up)."""
        c = self.ctrl
        if not self.at_table() and self.guest is not None:
            tree = friends_screens.guest_screen(self, toolbar(self.lang, self.pips, game=None, seq=None,
                                                              sound=self.sound))
        elif not self.at_table():
            tree = self.menu_tree()
            card = first_card(tree)
            if card is not None and self.role is None:   # the menu: the table keeps its room (one tap away, ⌂ Menu)
                if c is not None:
                    card[2].append(safety.export_button(self.lang))
                card[2].append(safety.file_controls(self.lang, self.last_match is not None))
        else:
            c.lang = self.lang   # the language of live_text's c.message() and c.status()
            tree = game_screen(c, Display(self.lang, self.pips, self.pace, self.practice, self.sound,
                                          self.table_net()))
        dialog = self.panel_tree()
        if dialog is not None:
            tree[2].append(dialog)
        for extra in self.dialogs():
            if (self.panel is None and not self.notes) or extra[1].get("data-testid") == "guide":
                tree[2].append(extra)
        return tree

    def seq(self) -> int:
        """The position the screen shows (0 at the menu)."""
        return self.ctrl.match.seq if self.at_table() and self.ctrl else 0

    def panel_tree(self):
        lang = self.lang
        if self.panel is None:
            return safety.notes(lang, self.notes) if self.notes else None
        kind, info = self.panel
        if kind == "full":
            can_free = bool(saves.corrupt_keys(self.store.keys(), self.path))
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

    def menu_tree(self) -> Node:
        if self.host is not None and not self.host.started:
            return new_game_screen(self.host.config, self.lang, self.pips, self.error, self.save_error,
                                   sound=self.sound, friends=friends_screens.host_panel(self))
        top = []
        c = self.ctrl
        if c is not None and not c.match.outcome:
            top.append(menu_screens.continue_card(c.match, self.lang, self.practice))
        elif not self.guide_seen and self.role is None:
            top.append(menu_screens.guide_offer(self.lang))
        return new_game_screen(self.new_settings, self.lang, self.pips, self.error, self.save_error,
                               top=top, sound=self.sound)

    def dialogs(self) -> list:
        out = []
        if self.guide_step is not None and self.at_table():
            out.append(guide.guide_panel(self.guide_step, self.lang, self.ctrl.match.view(0)))
        if not self.at_table() and self.confirm_replace and self.ctrl is not None:
            out.append(menu_screens.replace_dialog(self.ctrl.match, self.lang))
        if self.stats_open:
            out.append(stats_dialog(self.load_stats(), self.lang, self.stats_reset_ask, self.stats_note))
        if self.help_game is not None:
            out.append(help_dialog(self.help_game, self.lang, guide=self.role is None))
        if self.host is not None and self.invite_seat is not None and self.at_table():
            out.append(friends_screens.invite_dialog(self, self.invite_seat))
        if self.host is not None and self.confirm_absence is not None and self.at_table():
            out.append(friends_screens.absence_dialog(self, self.confirm_absence))
        return out

    def guide_target(self) -> str | None:
        """The part of the table the guide's step is about (a selector)."""
        if self.guide_step is None or not self.at_table():
            return None
        return guide.TARGETS.get(self.guide_step)

    def live_text(self) -> str:
        """The line a screen reader hears about the table."""
        c = self.ctrl
        if c is None or not self.at_table():
            return ""
        text = c.note or c.message()
        if c.flash:
            text += " " + " ".join(t(self.lang, "msg.fives", points=p,
                                     name=ctl.side_name(c.match.view(0), sd, self.lang)) for sd, p in c.flash)
        if c.my_turn():
            text += ". " + c.status()
        return text

    def focus_target(self, keyboard: bool) -> str | None:
        """Where the focus goes on this screen (a selector), if anywhere."""
        c = self.ctrl
        if self.panel is not None or self.notes:
            return ".overlay.safe button"
        if self.help_game is not None:
            return '[data-action="help-close"]'
        if self.stats_open:
            return '[data-action="stats-close"], [data-action="stats-reset-no"]'
        if not self.at_table():
            return '[data-action="replace-no"]' if self.confirm_replace else None
        if c.handoff() is not None:
            return '[data-action="handoff"]'
        if c.confirm_resign:
            return '[data-action="resign-no"]'
        if self.confirm_absence is not None:
            return '[data-action="end-absence-no"]'
        if c.match.outcome:
            return '[data-action="new-match"]'
        if self.guide_step == "score":
            return '[data-action="guide-finish"]'
        if c.match.phase == "hand-over":
            return '[data-action="next-hand"]'
        if c.selected and keyboard:
            # a place on the board marked aria-hidden has its button under the board
            return '[data-action="end"]:not([aria-hidden="true"]), [data-action="open"]'
        if c.my_turn() and keyboard:
            return '.tile-btn[aria-disabled="false"]'
        return None

    # ------------------------------------------------------------ the new-game form
    def harvest(self, form: dict) -> None:
        """Read the new-game form's raw values (as the page found them) into
        the settings; what is missing keeps its value."""
        if not isinstance(form, dict):
            return
        s = dict(self.new_settings)
        s["seats"] = [dict(x) for x in s["seats"]]
        if form.get("game") is not None:
            s["game"] = str(form["game"])
        for key in ("players", "target"):
            if form.get(key) is not None:
                try:
                    s[key] = int(str(form[key]))
                except ValueError:
                    pass
        for key in ("partnership", "practice", "show_options"):
            if form.get(key) is not None:
                s[key] = bool(form[key])
        opts = dict(s.get("options") or {})
        if isinstance(form.get("options"), dict):
            opts.update({str(k): str(v) for k, v in form["options"].items()})   # decoded by normalize_settings
        s["options"] = opts
        for i in range(len(s["seats"])):
            if form.get(f"seat-kind-{i}") is not None:
                s["seats"][i]["kind"] = str(form[f"seat-kind-{i}"])
            if form.get(f"seat-name-{i}") is not None:
                s["seats"][i]["name"] = str(form[f"seat-name-{i}"])
        self.new_settings = s

    def on_change(self, inp: dict) -> None:
        if self.at_table() or self.guest is not None:
            return
        if self.host is not None and not self.host.started:
            if inp.get("field") in ("away-policy", "time-limit"):
                self.do_away_policy(inp)
            else:
                self.friends_change(inp.get("form") or {}, inp.get("field"))
            return
        self.harvest(inp.get("form") or {})
        fld = inp.get("field")
        if fld == "seat-name":  # no re-render: a click that caused the blur must still land
            self.new_settings = normalize_settings(self.new_settings, self.lang)
            return
        if fld == "game":   # a new game starts from its own defaults
            game = self.new_settings["game"]
            self.new_settings["target"] = default_target(game)
            self.new_settings["options"] = default_options(game)
        self.new_settings = normalize_settings(self.new_settings, self.lang)
        self.error = ""
        self.render()
        if inp.get("testid"):
            self.out.focus = f'[data-testid="{inp["testid"]}"]'

    def on_escape(self, inp: dict) -> None:
        if self.help_game is not None:
            self.help_game = None
            self.render()
        elif self.stats_open or self.confirm_replace or self.confirm_absence is not None:
            self.stats_open = self.stats_reset_ask = self.confirm_replace = False
            self.confirm_absence = None
            self.render()
        elif self.ctrl is not None and (self.ctrl.confirm_resign or self.ctrl.selected):
            self.ctrl.confirm_resign = False
            self.ctrl.clear()
            self.render()

    # ------------------------------------------------------------ moves
    def play(self, action: dict) -> None:
        """Every move goes here, whoever made it: applied, saved, drawn."""
        self.ctrl.apply(action)
        self.moved([action])

    def moved(self, done) -> None:
        self.guest_flush()     # a guest's tap is a decision for the host
        if done:
            self.save_game()
            self.changed()
        else:
            self.render()

    def do_tile(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.moved(self.ctrl.tap_tile(str(inp.get("tile"))))

    def do_end(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.moved(self.ctrl.tap_end(str(inp.get("end"))))

    def do_open(self, inp: dict) -> None:
        if self.ctrl is not None:
            try:
                n = int(str(inp.get("open")))
            except ValueError:
                return
            self.moved(self.ctrl.tap_open(n))

    def do_act(self, inp: dict) -> None:
        """A button naming its action (Frijolito: turn over, send back, play at an end)."""
        c = self.ctrl
        acts = c.row_actions() if c else []
        try:
            i = int(str(inp.get("act")))
        except ValueError:
            return
        if 0 <= i < len(acts):
            self.play(acts[i][1])

    def do_draw(self, inp: dict) -> None:
        a = self.ctrl.draw_action() if self.ctrl else None
        if a is not None:
            self.play(a)

    def think(self):
        """The computer seat to move, deciding: an object whose ``step(ms)``
        returns its action, or None while a sliced search goes on."""
        m = self.ctrl.match
        seat = m.turn
        kind = m.seats[seat]["kind"]
        if self.fail == "turn":
            self.fail = ""
            raise RuntimeError("failing on purpose (?fail=turn)")
        self.thinking = (id(m), m.seq, seat)   # the position this decision is for (on_computer_move)
        view = m.view(seat)
        rng = m.player_rng(seat)
        if kind == "hard":
            # the search runs in slices, and the page draws a frame between
            # slices: the board never freezes
            return ctl.load_ai().HardSearch(view, rng)
        return Done(players.get_player(kind)(view, rng))

    def on_computer_move(self, inp: dict) -> None:
        """A computer seat's decision (from the page's loop, for ``gen``)."""
        c = self.ctrl
        if c is None or inp.get("gen") != self.gen or not ctl.is_computer_turn(c.match):
            return
        m, move = c.match, inp.get("move")
        # only the decision for this very position: a friend back from being away may have
        # played the seat's turn meanwhile (the same gen), and the next seat is a computer too
        if self.thinking != (id(m), m.seq, m.turn) or not isinstance(move, dict) or move.get("seat") != m.turn \
                or move.get("resign"):
            self.warn("domino: a computer move for another position was dropped")
            return
        try:
            m.find_move(move)
        except (IllegalAction, TypeError, ValueError) as e:
            self.warn("domino: a computer move that is not legal was dropped: " + str(e)[:120])
            return
        self.thinking = None
        self.play(move)   # a save refused (another tab moved on) stops the loop: wants_computers()

    def on_computer_failed(self, inp: dict) -> None:
        """Never a dead table: say so, offer retry or resign."""
        self.warn("domino: computer turn failed: " + str(inp.get("error")))
        if inp.get("gen") == self.gen and self.ctrl is not None and self.ctrl.match.turn is not None:
            self.panel = ("turn", (self.ctrl.match.turn, str(inp.get("error"))[:200]))
            self.render()

    def do_handoff(self, inp: dict) -> None:
        if self.ctrl and self.ctrl.continue_handoff():
            self.render()

    def do_next_hand(self, inp: dict) -> None:
        c = self.ctrl
        if c is not None and self.role is not None and c.match.phase == "hand-over":
            if self.guest is not None:      # a request: the host deals when everyone has tapped
                c.match.next_hand()
                self.guest_flush()
                self.votes.add(self.guest.seat)
                self.render()
            elif self.host.match is c.match:
                self.vote("host")
            return
        if self.guide_step is not None:   # the guided hand is one hand: its way on is Finish
            self.end_guide()
            return
        if self.ctrl and self.ctrl.next_hand():
            self.save_game()
            self.changed()

    def do_resign(self, inp: dict) -> None:
        if self.ctrl and not self.ctrl.match.outcome:
            self.ctrl.confirm_resign = True
            self.render()

    def do_resign_no(self, inp: dict) -> None:
        if self.ctrl:
            self.ctrl.confirm_resign = False
            self.render()

    def do_resign_yes(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or c.match.outcome:
            return
        self.stop_computers()
        c.resign()
        self.guest_flush()
        self.save_game()
        self.render()

    def do_hint(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or not c.my_turn():
            return
        c.hint()
        self.render()

    # ------------------------------------------------------------ starting and leaving
    def do_start(self, inp: dict) -> None:
        self.new_settings = normalize_settings(self.new_settings, self.lang)
        if self.ctrl is not None and not self.ctrl.match.outcome and self.guide_step is None:
            self.confirm_replace = True    # ask before a new match replaces the one in progress
            self.render()
            return
        self.start_match()

    def do_replace_no(self, inp: dict) -> None:
        self.confirm_replace = False
        self.render()

    def do_replace_yes(self, inp: dict) -> None:
        self.confirm_replace = False
        self.start_match()

    def start_match(self) -> None:
        seed = self.seed if self.seed is not None else new_seed()
        try:
            match = new_match(self.new_settings, seed, self.lang)
        except Exception as e:  # RulesError: say why, stay on the form
            self.error = t(self.lang, "new.invalid", why=str(e))
            self.render()
            return
        self.start_with(match)

    def start_with(self, match) -> None:
        """A new match on the table: saved, drawn, the computers on."""
        if self.host is not None and match is not self.host.match and self.host.started:
            self.close_table()      # a match of this phone's own replaces the friends' one
        self.drop_guide()
        self.error = ""
        self.save_error = ""
        self.guide_seen = True   # a player who starts a match has chosen; the guide stays in the help
        self.save_settings()
        self.stop_computers()
        self.ctrl = ctl.Controller(match, self.lang, self.pips)
        self.match_id = secrets.token_hex(8)
        self.last_match = None
        self.menu_open = False
        self.practice = bool(self.new_settings.get("practice"))
        self.undos = 0
        self.stats_pending = True
        self.heard = (match.seq, match.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()

    def do_new_match(self, inp: dict) -> None:
        if self.guide_step is not None:   # the guided hand's way out is back to the menu
            self.end_guide()
            return
        if self.role is not None and self.ctrl is not None and self.ctrl.match.outcome:
            self.ctrl = None           # a friends' table goes back to its lobby, the same friends seated
            if self.host is not None:
                self.host_result(self.host.to_lobby())
                self.store.delete(saves.save_key(self.path))
                self.known = None
            self.render()
            return
        if self.ctrl is not None and self.guest is None:
            self.last_match = self.ctrl.match    # still downloadable from the new-game screen
        self.ctrl = None
        self.stop_computers()
        self.menu_open = False
        key = saves.save_key(self.path)
        hdr = saves.header(self.store.get(key))
        if hdr is not None and hdr == self.known:   # never another tab's match
            self.store.delete(key)
        self.known = None
        self.render()

    def do_menu(self, inp: dict) -> None:
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

    def do_continue(self, inp: dict) -> None:
        if self.ctrl is None:
            return
        self.menu_open = False
        self.confirm_replace = False
        self.changed()

    def do_undo(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or not self.practice or self.guide_step is not None:
            return
        back = undo.undo(c.match)
        if back is None:
            return
        self.stop_computers()
        ctrl = ctl.Controller(back, self.lang, self.pips, c.viewer)
        ctrl.hint_why = {"key": "undo.done"}   # the message line says so, in the language of the moment
        self.ctrl = ctrl
        self.undos += 1
        self.stats_pending = not back.outcome
        self.heard = (back.seq, back.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()

    # ------------------------------------------------------------ comforts
    def do_help(self, inp: dict) -> None:
        game = inp.get("game") or (self.ctrl.match.rules.game if self.ctrl else "draw")
        self.help_game = str(game)
        self.render()

    def do_help_close(self, inp: dict) -> None:
        self.help_game = None
        self.render()

    def do_lang(self, inp: dict) -> None:
        self.lang = "en" if self.lang == "es" else "es"
        self.save_error = ""
        self.save_settings()
        self.rename_defaults()
        self.render()

    def rename_defaults(self) -> None:
        """A seat still carrying a default name ("Player 1") takes it in the
        new language ("Jugador 1"); the match kept (and its save) too.  A
        friends' table keeps the names its phones agreed on."""
        if self.role is not None:
            return
        held = self.held[0] if self.held else None
        if self.ctrl is not None and localize_names(self.ctrl.match.seats, self.lang) \
                and self.guide_step is None and self.panel is None:
            self.save_game()
        if held is not None and localize_names(held.match.seats, self.lang) and self.known is not None:
            key = saves.save_key(self.path)   # the match kept while the guide plays: its save too
            if saves.header(self.store.get(key)) == self.known:
                self._write(key, saves.dump(held.match, self.match_id))

    def do_pips(self, inp: dict) -> None:
        self.pips = "black" if self.pips == "coloured" else "coloured"
        self.save_settings()
        self.render()

    def do_log(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.ctrl.log_open = not self.ctrl.log_open
            self.render()
            self.out.focus = '[data-testid="log-close"]' if self.ctrl.log_open else '[data-testid="log"]'

    def do_pace(self, inp: dict) -> None:
        order = list(ctl.PACES)
        self.pace = order[(order.index(self.pace) + 1) % len(order)] if self.pace in order else ctl.DEFAULT_PACE
        self.save_settings()
        self.render()
        self.out.focus = '[data-testid="pace"]'

    def do_sound(self, inp: dict) -> None:
        self.sound = not self.sound
        self.save_settings()
        if self.sound:
            self.out.sounds.append("click")   # made on the tap: browsers start audio only from a gesture
        self.render()

    def do_stats(self, inp: dict) -> None:
        self.stats_open = True
        self.stats_reset_ask = False
        self.render()

    def do_stats_close(self, inp: dict) -> None:
        self.stats_open = False
        self.stats_reset_ask = False
        self.stats_note = ""
        self.render()

    def do_stats_reset(self, inp: dict) -> None:
        self.stats_reset_ask = True
        self.render()

    def do_stats_reset_no(self, inp: dict) -> None:
        self.stats_reset_ask = False
        self.render()

    def do_stats_reset_yes(self, inp: dict) -> None:
        self.store.delete(stats_mod.stats_key(self.path))
        self.stats_reset_ask = False
        self.render()

    # --- the guided hand
    def do_guide_start(self, inp: dict) -> None:
        if self.guide_step is not None or self.role is not None:
            return     # a friends' table stays on this phone: the others wait for no tutorial
        self.stop_computers()
        self.help_game = None
        self.guide_seen = True
        self.save_settings()
        self.held = (self.ctrl, self.menu_open)
        match = new_match(guide.settings(), guide.SEED, self.lang)
        self.ctrl = ctl.Controller(match, self.lang, self.pips)
        self.menu_open = False
        self.confirm_replace = False
        self.guide_step = guide.first()
        self.heard = (match.seq, match.hand_no)
        self.changed()

    def do_guide_next(self, inp: dict) -> None:
        if self.guide_step is None or self.ctrl is None:
            return
        m = self.ctrl.match
        step = guide.advance(self.guide_step, "next", phase=m.phase, played=guide.person_played(m.view(0)),
                             drew=guide.draw_ready(m.view(0)))
        if step is None:
            self.end_guide()
            return
        self.guide_step = step
        self.render()

    def do_guide_skip(self, inp: dict) -> None:
        if self.guide_step is not None:    # without a guide open there is nothing to leave
            self.end_guide()

    do_guide_finish = do_guide_skip

    def do_guide_dismiss(self, inp: dict) -> None:
        self.guide_seen = True
        self.save_settings()
        self.render()

    def drop_guide(self) -> None:
        """A real match takes the table (started, imported, taken over from
        another tab): the guided hand is over, and the match it kept is not
        given back over it."""
        self.guide_step = None
        self.held = None

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

    # ------------------------------------------------------------ the safety net
    def do_safe_ok(self, inp: dict) -> None:
        self.notes = []
        self.render()

    def do_save_later(self, inp: dict) -> None:
        self.save_later = self.panel is not None and self.panel[0] in ("full", "blocked")
        self.panel = None
        self.panel_extra = ""
        self.changed()

    def do_free_space(self, inp: dict) -> None:
        """Remove old corrupt copies (and the boot snapshot), then save again."""
        for k in saves.corrupt_keys(self.store.keys(), self.path):
            self.store.delete(k)
        self.store.delete(snapshot.key(self.path))
        self.snap_state = None
        if self.save_game():
            self.panel = None
            self.panel_extra = ""
            self.changed()
            return
        self.panel_extra = t(self.lang, "safe.free_none")
        self.render()

    def do_export(self, inp: dict) -> None:
        m = self.ctrl.match if self.ctrl is not None else self.last_match
        if m is None or self.guest is not None:   # a guest's table is the host's: it holds no record
            return
        name = saves.export_name(m, now_stamp())
        self.out.downloads.append((name, saves.export_text(m)))
        self.out.live = t(self.lang, "safe.downloaded", file=name)

    def do_download_corrupt(self, inp: dict) -> None:
        """The corrupt save with no room for a copy: download it, then remove it."""
        if self.pending_corrupt is None:
            return
        text, _why = self.pending_corrupt
        name = f"domino-damaged-save-{re.sub(r'[^0-9]', '', now_stamp())[:12]}.json"
        self.out.downloads.append((name, text))
        key = saves.save_key(self.path)
        if self.store.get(key) == text:
            self.store.delete(key)
        self.pending_corrupt = None
        self.panel = None
        self.save_error = t(self.lang, "safe.corrupt_downloaded", file=name)
        if self.ctrl is not None:
            self.known = None
            self.save_game()
            if self.ctrl is not None:
                self.notes.append(self.save_error)
        self.render()

    def do_continue_here(self, inp: dict) -> None:
        """Take the match over from the save another tab wrote (its newest position)."""
        text = self.store.get(saves.save_key(self.path))
        self.panel = None
        if text is None:     # the other tab has left it: this tab's match goes on
            self.known = None
            self.save_game()
            self.changed()
            return
        try:
            match, repaired = saves.load_with_notes(text)
        except saves.CorruptSave as e:
            self.drop_guide()
            self.ctrl = None
            self.keep_corrupt(text, e)
            self.render()
            return
        hdr = saves.header(text)
        self.match_id = hdr[0] if hdr else saves.legacy_id(match)
        self.known = hdr
        self.drop_guide()
        self.ctrl = ctl.Controller(match, self.lang, self.pips)
        self.tell_repairs(repaired)
        self.stop_computers()
        self.changed()

    def do_keep_mine(self, inp: dict) -> None:
        self.panel = None
        self.save_game(force=True)
        self.changed()

    def do_turn_retry(self, inp: dict) -> None:
        self.panel = None
        self.changed()

    def do_turn_resign(self, inp: dict) -> None:
        c = self.ctrl
        self.panel = None
        if c is not None and not c.match.outcome and c.match.turn is not None:
            c.match.apply({"seat": c.match.turn, "resign": True})
            c.clear()
            self.save_game()
        self.render()

    def on_import(self, inp: dict) -> None:
        """A match file, read by the page: ``name``, and ``text`` or ``error``."""
        name = str(inp.get("name") or "")[:80]
        try:
            if inp.get("error") == "size":
                raise saves.CorruptSave("size", "")
            if inp.get("error"):
                raise ValueError(str(inp["error"])[:120])
            match, repaired = saves.import_text(inp.get("text"))
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
        self.drop_guide()
        self.ctrl = ctl.Controller(match, self.lang, self.pips)
        self.tell_repairs(repaired)
        self.notes.append(t(self.lang, "safe.imported", file=name))
        self.stop_computers()
        self.save_game()
        self.changed()



MAX_IMPORT_BYTES = saves.MAX_IMPORT_CHARS * 4   # a file larger than this is not read
