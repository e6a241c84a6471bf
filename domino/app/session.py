"""One path for every action: the app's decisions, in plain Python.

A tap on the page, a computer seat's move and a message from another device
all become one input, a plain dict, given to :meth:`Session.handle`; it
answers with an :class:`Out`: what to draw, what to play as sound, what to
download, where to put the focus, what to send, and whether the computer
seats should move.  The match is saved (through a :class:`Store`) before
``handle`` returns.  ``domino/browser.py`` keeps only the page: it reads an
element's ``data-*`` attributes and the new-game form into the input, turns
:meth:`Session.screen` into DOM, and runs the timers.

Each input is answered by the one method marked for it (``@answers("tile")``,
:mod:`domino.app.answers`), found in the session, its link
(:mod:`domino.app.link`: alone, hosting or joining), its comforts
(:mod:`domino.app.comforts`) or the guided hand (:mod:`domino.app.guided`).

Four paths, each a few named calls:

* **a tap** (``{"action": "tile", "tile": "6-6", "seq": ...}``): ``handle``
  (gating: dialogs, busy, stale ``seq``) -> ``tap_tile`` -> ``Controller.tap_tile``
  (the move, applied) -> ``moved`` -> ``link.after_tap`` (a guest sends it) ->
  ``save_game`` (saved; ``link.after_save``: a host sends the views) -> ``changed``
  (draw; the computers may move);
* **a computer move**: the page's loop asks ``think()`` and hands back
  ``{"action": "computer-move", "move", "gen"}`` -> ``computer_moved`` (only the
  decision for this very position) -> ``play`` -> ``moved`` as above;
* **a friend's move** (``net-message`` on the host): ``Hosting.on_message`` ->
  ``HostTable.receive`` (checked) -> ``Hosting.host_result`` -> ``play`` ->
  ``moved`` -> ``save_game`` -> ``Hosting.after_save`` (the ack and the views);
  on the guest, ``Joining.on_message`` -> ``Joining.receive`` -> a new mirror drawn;
* **a reload**: ``Session(store, path, params)`` (settings read, the link made
  from an invitation) -> ``load_game`` -> ``_load_match`` (the save read, a
  corrupt one kept aside) -> ``Hosting.restore`` (a friends' table around it)
  -> ``link.start()``.

Inputs (``{"action": name, ...}``):

* a ``data-action`` of the page (``tile``, ``end``, ``draw``, ``start``,
  ``menu``, ``undo``, ...), with the element's ``seq`` (``data-seq``: a tap
  on a screen the match has moved on from is stale and does nothing),
  ``disabled``, and its data (``tile``, ``end``, ``open``, ``act``,
  ``game``); ``form`` carries the new-game form's raw values when it is on
  screen (:meth:`Session.harvest` reads them);
* events that are no tap: ``change`` (a form field changed), ``escape``,
  ``import`` (a match file was read), ``storage`` (another tab wrote),
  ``computer-move`` / ``computer-failed`` (from the computer seats' loop),
  the network's ``net-*``.

Every tap is checked the same way (:meth:`Session.handle`): a dialog of the
safety net accepts only its own buttons, a busy table (a computer thinking)
only what changes the looks, and a stale ``seq`` nothing.
"""
from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field

from domino.app import controller
from domino.app import guide, shown, snapshot, undo
from domino.app.answers import Answering, answers
from domino.app.comforts import Comforts
from domino.app.computers import ComputerSeats
from domino.app.guided import GuidedHand
from domino.app.reviewing import HandReview
from domino.app.safety_net import PANEL_ACTIONS, PANEL_ONLY, SafetyNet
from domino.app.link.alone import Alone
from domino.app.link.base import Link
from domino.app.link.hosting import Hosting
from domino.app.link.joining import Joining
from domino.app.link.later import LATER, Browsing, Invited, LaterGuest, LaterHost
from domino.app.link.later import restore as restore_later
from domino.engine.common import new_seed
from domino.app import stats as stats_mod
from domino.app.i18n import lang_from_browser, norm_lang, t
from domino.app.nodes import Node
from domino.app.screens.table import Display
from domino.app.online import normalize_ice, normalize_relays
from domino.app.settings import default_target, parse_seed, read_form
from domino.app.storage import MemoryStore, Store  # noqa: F401 (the session's Store, and the one tests give it)
from domino.app.storage import Change, Found, Saved, Storage
from domino.table import default_options, default_settings, new_match, normalize_settings

# actions that only change the looks: allowed while busy and whatever the seq
UI_ONLY = frozenset({"help", "help-close", "lang", "pips", "resign", "resign-no", "save-ok", "log", "pace",
                     # comforts: leaving the table, undo and the guide stop a computer that is thinking
                     "menu", "sound", "stats", "stats-close", "stats-reset", "stats-reset-yes", "stats-reset-no",
                     "undo", "review-kept", "review-step", "review-close", "guide-start", "guide-next", "guide-skip", "guide-finish", "guide-dismiss"})
# inputs that are not a tap on the page: never gated by dialogs, busy or seq
EVENTS = frozenset({"change", "escape", "import", "storage", "computer-move", "computer-failed",
                    # the network (domino.app.link)
                    "net-offer", "net-answer", "net-open", "net-message", "net-close", "net-tick", "net-shared",
                    "net-relay",
                    # a match kept on the relays (domino.app.link.later)
                    "mail-event", "mail-eose", "mail-ok"})


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
    net: list[dict] = field(default_factory=list)    # the network's commands (domino.app.link)
    clear_hash: bool = False         # drop the invitation from the page's URL






class Session(Answering):
    """The app's state around the current match, and every decision on it.

    The session holds a :class:`~domino.app.link.base.Link`: :class:`Alone`, :class:`Hosting` or
    :class:`Joining` (see :mod:`domino.app.link`); what differs between playing alone, hosting friends and
    joining a friend's table is asked of it."""

    def __init__(self, store: Store, path: str, *, params: dict | None = None, browser_lang: str = "en"):
        self.store = store
        self.path = path
        self.storage = Storage(store, path)
        params = params or {}
        self.safety = SafetyNet(self)      # its dialogs, notes, and the files a player saves or opens
        self.fail = str(params.get("fail") or "")[:20]
        seed_raw = params.get("seed")
        self.seed, ok = parse_seed(seed_raw)
        d = params.get("delay")
        try:   # ?delay=ms overrides the pace (tests: 0, no pauses, no animations)
            self.fixed_delay = min(5000, max(0, int(str(d)))) if d is not None else None
        except ValueError:
            self.fixed_delay = None
        stored, ok_settings = self.storage.settings()
        pace = stored.get("pace")
        self.pace = pace if isinstance(pace, str) and pace in controller.PACES else controller.DEFAULT_PACE
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
            self.safety.notes.append(t(self.lang, "safe.settings_reset"))
        if not ok:
            seed_words = str(seed_raw)[:24] + ("…" if len(str(seed_raw)) > 24 else "")
            self.safety.notes.append(t(self.lang, "safe.url_seed", seed=seed_words))
        self.sound = stored.get("sound") is True          # off by default
        self.guide_seen = stored.get("guide_seen") is True
        self.menu_open = False                            # at the menu with a match kept
        self.confirm_replace = False
        self.practice = False                             # the current match allows undo
        self.undos = 0
        self.stats_pending = False                        # the current match is counted when it ends
        self.heard: tuple | None = None                   # (seq, hand) last sounded
        self.ctrl: controller.Controller | None = None
        self.error = ""
        self.save_error = ""
        self.computers = ComputerSeats(self)   # their turns: thinking, and the loop's generation
        self.match_id = ""          # this tab's match (saves carry it, with seq)
        self.known: tuple | None = None   # (id, seq) of the save as this tab last read or wrote it
        self.last_match = None      # the match left for the new-game screen (to download)
        self.out = Out()
        self.base_url = str(params.get("url") or "")      # the page's address, for invitation links
        try:   # ?grace=s: the seconds an away seat is waited for (tests)
            self.grace = max(0, min(600, int(str(params.get("grace")))))
        except (TypeError, ValueError):
            self.grace = None
        self.clock = time.monotonic
        self.wall = time.time       # seconds since the epoch: a match played when each can says since when
        self.comforts = Comforts(self)     # help, language, pips, log, pace, sound, statistics
        self.guided = GuidedHand(self)     # the guided hand, and the match it keeps aside
        self.review = HandReview(self)     # a hand's review, and the last hands kept for it
        join = params.get("join")
        if join and str(join).startswith(LATER):
            self.link: Link = Invited.from_link(self, str(join))
        else:
            self.link = Joining.from_link(self, str(join)) if join else Alone(self)

    @property
    def role(self) -> str | None:
        """None (alone), "host" or "guest": the link's."""
        return self.link.role

    def unlink(self) -> None:
        """The friends' table is left or closed: this phone plays alone again."""
        self.link = Alone(self)

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
            handler = self.answerer(action)
            if handler is not None:
                handler(inp)
            return out
        if (self.safety.panel is not None or self.safety.notes or action in PANEL_ONLY) and action not in self.safety.panel_actions():
            return out     # a dialog answers only its own buttons; theirs do nothing without it
        if self.busy and action not in UI_ONLY and action not in PANEL_ACTIONS:
            return out
        seq = inp.get("seq")
        if seq is not None and (self.ctrl is None or str(seq) != str(self.ctrl.match.seq)):
            return out
        if inp.get("disabled"):
            return out
        handler = self.answerer(action)
        if handler is not None:
            if "form" in inp and not self.at_table() and self.role is None:
                self.harvest(inp["form"])
            handler(inp)
        return out

    def answerer(self, action: str):
        """The method that answers this input: the session's, its link's, the comforts' or the guide's."""
        for part in (self, self.link, self.comforts, self.guided, self.safety, self.computers, self.review):
            handler = part.answer(action)
            if handler is not None:
                return handler
        return None

    @property
    def busy(self) -> bool:
        return self.computers.running

    @property
    def delay(self) -> int:
        """Milliseconds a computer turn takes (its tile's travel included)."""
        return self.fixed_delay if self.fixed_delay is not None else controller.pace_ms(self.pace)

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
        return (c is not None and self.link.may_run_computers() and self.at_table() and controller.is_computer_turn(c.match)
                and (self.safety.panel is None or self.safety.panel[0] in ("full", "blocked")))

    def stop_computers(self) -> None:
        """A computer that is thinking is stopped (its move, if it comes, is dropped)."""
        self.computers.stop()

    # ------------------------------------------------------------ storage
    def _settings(self) -> dict:
        return self.storage.settings()[0]

    def save_settings(self) -> None:
        doc = {"lang": self.lang, "pips": self.pips, "pace": self.pace, "new": self.new_settings,
               "sound": self.sound, "guide_seen": self.guide_seen, "relays": self.relays, "ice": self.ice}
        if not self.storage.write_settings(doc):
            self.safety.notes.append(t(self.lang, "safe.settings_failed"))

    def save_game(self, force: bool = False) -> bool:
        """Write the match (checked, below), then what follows every change
        (statistics, the guide, sounds).  The guided hand is never saved."""
        ok = self.guided.step is not None or not self.link.keeps_save or self._save_match(force)
        self.after_change()
        if ok:
            self.link.after_save()   # the guests hear of a move only once it is saved
        return ok

    def _save_match(self, force: bool = False) -> bool:
        """Write the match (checked).  Never over a save of another match or a
        newer position written by another tab (unless ``force``: the player
        chose to keep this one).  Returns True when the save holds the match."""
        c = self.ctrl
        if c is None:
            return False
        done = self.storage.write_save(c.match, self.match_id, self.known, force)
        if done.what is Saved.BLOCKED:   # a corrupt save waits for its download: its place is not taken
            self.safety.save_failed = True
            self.safety.panel = ("blocked", None)
            return False
        if done.what is Saved.OTHER_TAB:
            self.other_tab(done.header)
            return False
        if done.what is Saved.FULL:
            self.safety.save_failed = True
            if not self.safety.save_later:
                self.safety.panel = ("full", None)
            self.warn("domino: the save did not fit in storage")
            return False
        self.known = done.header
        if self.safety.save_failed:
            self.safety.save_failed = False
            self.safety.save_later = False
            if self.safety.panel and self.safety.panel[0] in ("full", "blocked"):
                self.safety.panel = None
            self.safety.notes.append(t(self.lang, "safe.saved_again"))
        return True

    def load_game(self) -> Out:
        """The saved match, if any (at start), and a friends' table around it;
        a guest's device leaves its own save alone."""
        self.out = Out()
        if self.link.keeps_save:
            self._load_match()
            self.link = Hosting.restore(self) or restore_later(self) or self.link
        self.link.start()
        return self.out

    def _load_match(self) -> None:
        found = self.storage.read_save()
        if found.what is Found.NOTHING:
            return
        if found.what is not Found.MATCH:
            self.keep_corrupt(found)
            return
        match, repaired = found.match, found.repairs
        self.match_id = found.match_id
        self.known = found.header
        self.ctrl = controller.Controller(match, self.lang)
        meta = self.storage.meta()
        if undo.meta_applies(meta, match):
            self.practice = meta.get("practice") is True
            self.undos = int(meta.get("undos") or 0)
        self.stats_pending = not match.outcome   # a match that ended before the reload was counted then
        self.heard = (match.seq, match.hand_no)
        self.tell_repairs(repaired)
        # an upgraded (or repaired) save is written back in the current format
        if not found.current or repaired:
            self.save_game(force=True)
        else:
            self.after_change()

    def tell_repairs(self, repaired) -> None:
        for what, seat in repaired:
            self.safety.notes.append(t(self.lang, "safe.seat_" + what, n=seat + 1))

    def keep_corrupt(self, found) -> None:
        """A save that cannot be read (storage.read_save kept it aside, or had
        no room for its copy and left it in place, to download): say so."""
        e = found.error
        why = t(self.lang, "save.why." + e.why) if e.why != "size" else t(self.lang, "safe.why.size")
        self.warn("domino: corrupt save: " + str(e)[:300])
        if found.what is Found.CORRUPT:
            self.save_error = t(self.lang, "save.corrupt", why=why)
        else:
            self.safety.panel = ("corrupt", why)

    def other_tab(self, hdr) -> None:
        """Another tab wrote the save: stop here and ask."""
        self.stop_computers()
        same = hdr is not None and hdr[0] == self.match_id
        self.safety.panel = ("other-tab" if same else "other-match", hdr)

    @answers("storage")
    def storage_changed(self, inp: dict) -> None:
        """Another tab of this page changed the storage."""
        if self.ctrl is None:
            return
        change = self.storage.other_write(inp.get("key"), self.known)
        if change.what is Change.LEFT:    # the other tab left its match for the new-game screen
            self.known = None
        elif change.what is Change.OTHER_TAB:
            self.other_tab(change.header)
            self.render()

    def write_meta(self) -> None:
        if self.ctrl is not None and self.guided.step is None:
            self.storage.write_meta(self.ctrl.match, self.practice, self.undos)

    def load_stats(self) -> dict:
        got = self.storage.stats()
        if got.error is not None:
            self.comforts.stats_note = t(self.lang, "stats.unreadable")
            self.warn("domino: unreadable statistics kept aside: " + str(got.error))
        return got.doc

    def after_change(self) -> None:
        """After every change of the match: count a match that just ended,
        move the guide on, make the sounds."""
        c = self.ctrl
        if c is None:
            return
        m = c.match
        if self.guided.step is not None:
            step = guide.advance(self.guided.step, "moved", phase=m.phase,
                                 played=guide.person_played(m.view(0)))
            self.guided.step = step or self.guided.step
        elif self.stats_pending and m.outcome and self.link.keeps_save:
            self.stats_pending = False
            doc = self.load_stats()
            if stats_mod.record(doc, m, self.practice) is not None:
                self.storage.write_stats(doc)
        self.review.keep(m)
        self.comforts.sounds_for(m)

    def snapshot(self, size: tuple[int, int]) -> None:
        """Store the screen a reload will show (static/boot.js paints it);
        ``size`` is the board's on screen."""
        if not self.link.snapshot_ok():
            return    # a guest's table is the host's; the friends' lobby is not what a reload shows first
        if self.fixed_delay == 0 and self.computers.running and self.wants_computers():
            return    # at ?delay=0 the computers' moves follow one another with no pause: only the
            #           position where they stop is one a reload can come back to
        c = self.ctrl if self.guided.step is None else (self.guided.held[0] if self.guided.held else None)
        if c is None:
            state: tuple = ("lobby", self.lang, self.pips, json.dumps(self._settings().get("new")))
        else:
            m = c.match
            state = (id(m), m.seq, m.hand_no, m.phase, bool(m.outcome), self.lang, self.pips, self.pace,
                     self.sound, self.practice, size)
        if state == self.storage.snapshot_of:
            return
        if c is None:
            snap = snapshot.lobby(self._settings().get("new"), self.lang, self.pips)
        else:   # as a reload shows it: the stored choices, no friends' bars
            snap = snapshot.table(c.match, Display(self.lang, self.pips, self.pace, self.practice, self.sound), *size)
        self.storage.put_snapshot(state, snapshot.dumps(snap))

    # ------------------------------------------------------------ what the page shows (domino.app.shown)
    def screen(self) -> Node:
        """The whole screen (:func:`domino.app.shown.screen`)."""
        return shown.screen(self)

    def live_text(self) -> str:
        return shown.live_text(self)

    def focus_target(self, keyboard: bool) -> str | None:
        return shown.focus_target(self, keyboard)

    def guide_target(self) -> str | None:
        return shown.guide_target(self)

    def seq(self) -> int:
        """The position the screen shows (0 at the menu)."""
        return self.ctrl.match.seq if self.at_table() and self.ctrl else 0

    # ------------------------------------------------------------ the new-game form
    def harvest(self, form: dict) -> None:
        """Read the new-game form's raw values (as the page found them) into the settings."""
        self.new_settings = read_form(self.new_settings, form)

    @answers("change")
    def form_changed(self, inp: dict) -> None:
        if self.at_table() or self.link.form_change(inp):
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

    @answers("escape")
    def escape_pressed(self, inp: dict) -> None:
        if self.safety.panel is None and self.safety.notes:
            self.safety.safe_ok(inp)      # a note told once: Escape is its OK (a dialog with choices waits for one)
        elif self.comforts.help_game is not None or self.review.escape():
            self.comforts.help_game = None
            self.render()
        elif self.comforts.stats_open or self.confirm_replace or self.link.escape():
            self.comforts.stats_open = self.comforts.stats_reset_ask = self.confirm_replace = False
            self.link.escape()
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
        self.link.after_tap()     # a guest's tap is a decision for the host
        if done:
            self.save_game()
            self.changed()
        else:
            self.render()

    @answers("tile")
    def tap_tile(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.moved(self.ctrl.tap_tile(str(inp.get("tile"))))

    @answers("end")
    def tap_end(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.moved(self.ctrl.tap_end(str(inp.get("end"))))

    @answers("places")
    def tap_places(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.ctrl.tap_among(str(inp.get("ends") or "").split())
            self.render()

    @answers("places-back")
    def places_back(self, inp: dict) -> None:
        if self.ctrl is not None:
            self.ctrl.tap_among([])
            self.render()

    @answers("open")
    def tap_open(self, inp: dict) -> None:
        if self.ctrl is not None:
            try:
                n = int(str(inp.get("open")))
            except ValueError:
                return
            self.moved(self.ctrl.tap_open(n))

    @answers("act")
    def tap_act(self, inp: dict) -> None:
        """A button naming its action (Frijolito: turn over, send back, play at an end)."""
        c = self.ctrl
        acts = c.row_actions() if c else []
        try:
            i = int(str(inp.get("act")))
        except ValueError:
            return
        if 0 <= i < len(acts):
            self.play(acts[i][1])

    @answers("draw")
    def tap_draw(self, inp: dict) -> None:
        a = self.ctrl.draw_action() if self.ctrl else None
        if a is not None:
            self.play(a)

    @answers("handoff")
    def take_device(self, inp: dict) -> None:
        if self.ctrl and self.ctrl.continue_handoff():
            self.render()

    @answers("next-hand")
    def next_hand(self, inp: dict) -> None:
        if self.link.next_hand():      # a friends' table deals when everyone has tapped
            return
        if self.guided.step is not None:   # the guided hand is one hand: its way on is Finish
            self.guided.end()
            return
        if self.ctrl and self.ctrl.next_hand():
            self.save_game()
            self.changed()

    @answers("resign")
    def resign_asked(self, inp: dict) -> None:
        if self.ctrl and not self.ctrl.match.outcome:
            self.ctrl.confirm_resign = True
            self.render()

    @answers("resign-no")
    def resign_no(self, inp: dict) -> None:
        if self.ctrl:
            self.ctrl.confirm_resign = False
            self.render()

    @answers("resign-yes")
    def resign_yes(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or c.match.outcome:
            return
        self.stop_computers()
        c.resign()
        self.link.after_tap()
        self.save_game()
        self.render()

    @answers("hint")
    def show_hint(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or not c.my_turn():
            return
        c.hint()
        self.render()

    # ------------------------------------------------------------ starting and leaving
    @answers("start")
    def start_asked(self, inp: dict) -> None:
        self.new_settings = normalize_settings(self.new_settings, self.lang)
        if self.ctrl is not None and not self.ctrl.match.outcome and self.guided.step is None:
            self.confirm_replace = True    # ask before a new match replaces the one in progress
            self.render()
            return
        self.start_match()

    @answers("replace-no")
    def replace_no(self, inp: dict) -> None:
        self.confirm_replace = False
        self.render()

    @answers("replace-yes")
    def replace_yes(self, inp: dict) -> None:
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
        self.link.replaced_by(match)     # a match of this phone's own replaces a friends' one
        self.guided.drop()
        self.error = ""
        self.save_error = ""
        self.guide_seen = True   # a player who starts a match has chosen; the guide stays in the help
        self.save_settings()
        self.stop_computers()
        self.ctrl = controller.Controller(match, self.lang)
        self.match_id = secrets.token_hex(8)
        self.last_match = None
        self.menu_open = False
        self.practice = bool(self.new_settings.get("practice")) and self.role is None   # friends: no undo
        self.undos = 0
        self.stats_pending = True
        self.heard = (match.seq, match.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()

    @answers("new-match")
    def leave_match(self, inp: dict) -> None:
        if self.guided.step is not None:   # the guided hand's way out is back to the menu
            self.guided.end()
            return
        if self.link.back_to_lobby():     # a friends' table goes back to its lobby, the same friends seated
            return
        if self.ctrl is not None and self.link.keeps_save:
            self.last_match = self.ctrl.match    # still downloadable from the new-game screen
        self.ctrl = None
        self.stop_computers()
        self.menu_open = False
        self.storage.drop_own_save(self.known)   # never another tab's match
        self.known = None
        self.render()

    @answers("menu")
    def to_menu(self, inp: dict) -> None:
        """Leave the table for the menu; the match stays saved, to continue."""
        if self.guided.step is not None:
            self.guided.end()
            return
        self.stop_computers()
        if self.ctrl is not None:
            self.ctrl.clear()
            self.ctrl.confirm_resign = False
        self.menu_open = True
        self.render()

    @answers("continue")
    def continue_match(self, inp: dict) -> None:
        if self.ctrl is None:
            return
        self.menu_open = False
        self.confirm_replace = False
        self.changed()

    @answers("undo")
    def undo_move(self, inp: dict) -> None:
        c = self.ctrl
        if c is None or not self.practice or self.role is not None or self.guided.step is not None:
            return      # a friends' match is shared: a move taken back on one phone cannot be fair
        back = undo.undo(c.match)
        if back is None:
            return
        self.stop_computers()
        ctrl = controller.Controller(back, self.lang, c.viewer)
        ctrl.hint_why = {"key": "undo.done"}   # the message line says so, in the language of the moment
        self.ctrl = ctrl
        self.undos += 1
        self.stats_pending = not back.outcome
        self.heard = (back.seq, back.hand_no)
        self.write_meta()
        self.save_game()
        self.changed()


def answered() -> set[str]:
    """Every input some part of the app answers: the session's and each link's (taps and events)."""
    return set().union(*(cls.ANSWERS for cls in (Session, Alone, Hosting, Joining, Comforts, GuidedHand, SafetyNet,
                                                   ComputerSeats, HandReview, LaterHost, LaterGuest, Browsing,
                                                   Invited)))


