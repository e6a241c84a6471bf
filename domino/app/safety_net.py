"""The safety net: nothing a player did is lost.  The dialog of a storage that is full, a save that cannot
be read (kept aside, or downloaded when there is no room for its copy), another tab that moved the match on, a
computer turn that failed; the notes told once (a setting reset, a seat repaired, a file imported); and the
files a player saves or opens (export, import).  The session turns storage's answers into :attr:`panel`; the
buttons of the dialog on screen are the only taps it answers (:meth:`panel_actions`)."""
from __future__ import annotations

import re
import secrets

from domino.app import controller
from domino.app import saves
from domino.app.answers import Answering, answers
from domino.app.i18n import t
from domino.app.screens import safety
from domino.app.storage import Found, now_stamp

# the safety net's dialogs (domino.app.screens.safety): they answer while a dialog is up
PANEL_ACTIONS = frozenset({"free-space", "export", "save-later", "download-corrupt", "continue-here", "keep-mine",
                           "turn-retry", "turn-resign", "safe-ok", "lang"})
PANEL_ONLY = PANEL_ACTIONS - {"export", "lang"}     # (export and the language are on other screens too)
MAX_IMPORT_BYTES = saves.MAX_IMPORT_CHARS * 4   # a file larger than this is not read


class SafetyNet(Answering):
    """The safety net's state (the dialog up, the notes), its dialog, and its taps."""

    def __init__(self, session):
        self.session = session
        self.notes: list[str] = []     # told once, in a dialog (settings reset, URL, repaired seats)
        self.panel: tuple | None = None   # ("full" | "blocked" | "corrupt" | "other-tab" | "other-match" | "turn", info)
        self.panel_extra = ""           # a line under the full storage's dialog (nothing could be freed)
        self.save_failed = False        # the last write did not go through
        self.save_later = False         # the player chose to keep playing unsaved: not asked again

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


    def panel_tree(self):
        session = self.session
        lang = session.lang
        if self.panel is None:
            return safety.notes(lang, self.notes) if self.notes else None
        kind, info = self.panel
        if kind == "full":
            return safety.storage_full(lang, session.storage.can_free(), self.panel_extra)
        if kind == "blocked":
            return safety.storage_full(lang, False, self.panel_extra, blocked=True)
        if kind == "corrupt":
            return safety.corrupt_no_room(lang, info)
        if kind in ("other-tab", "other-match"):
            return safety.other_tab(lang, kind == "other-tab")
        if kind == "turn":
            seat, why = info
            name = session.ctrl.match.seats[seat]["name"] if session.ctrl else ""
            return safety.turn_error(lang, name, why)
        return None


    @answers("safe-ok")
    def safe_ok(self, inp: dict) -> None:
        session = self.session
        self.notes = []
        session.render()

    @answers("save-later")
    def play_on_unsaved(self, inp: dict) -> None:
        session = self.session
        self.save_later = self.panel is not None and self.panel[0] in ("full", "blocked")
        self.panel = None
        self.panel_extra = ""
        session.changed()

    @answers("free-space")
    def free_space(self, inp: dict) -> None:
        """Remove old corrupt copies (and the boot snapshot), then save again."""
        session = self.session
        session.storage.free_space()
        if session.save_game():
            self.panel = None
            self.panel_extra = ""
            session.changed()
            return
        self.panel_extra = t(session.lang, "safe.free_none")
        session.render()

    @answers("export")
    def export_match(self, inp: dict) -> None:
        session = self.session
        m = session.ctrl.match if session.ctrl is not None else session.last_match
        if m is None or not session.link.holds_record:   # a guest's table is the host's: it holds no record
            return
        name = saves.export_name(m, now_stamp())
        session.out.downloads.append((name, saves.export_text(m)))
        session.out.live = t(session.lang, "safe.downloaded", file=name)

    @answers("download-corrupt")
    def download_corrupt(self, inp: dict) -> None:
        """The corrupt save with no room for a copy: download it, then remove it."""
        session = self.session
        text = session.storage.download_corrupt()
        if text is None:
            return
        name = f"domino-damaged-save-{re.sub(r'[^0-9]', '', now_stamp())[:12]}.json"
        session.out.downloads.append((name, text))
        self.panel = None
        session.save_error = t(session.lang, "safe.corrupt_downloaded", file=name)
        if session.ctrl is not None:
            session.known = None
            session.save_game()
            if session.ctrl is not None:
                self.notes.append(session.save_error)
        session.render()

    @answers("continue-here")
    def continue_here(self, inp: dict) -> None:
        """Take the match over from the save another tab wrote (its newest position)."""
        session = self.session
        found = session.storage.read_save()
        self.panel = None
        if found.what is Found.NOTHING:     # the other tab has left it: this tab's match goes on
            session.known = None
            session.save_game()
            session.changed()
            return
        if found.what is not Found.MATCH:
            session.guided.drop()
            session.ctrl = None
            session.keep_corrupt(found)
            session.render()
            return
        session.match_id = found.match_id
        session.known = found.header
        session.guided.drop()
        session.ctrl = controller.Controller(found.match, session.lang)
        session.tell_repairs(found.repairs)
        session.stop_computers()
        session.changed()

    @answers("keep-mine")
    def keep_mine(self, inp: dict) -> None:
        session = self.session
        self.panel = None
        session.save_game(force=True)
        session.changed()

    @answers("turn-retry")
    def turn_retry(self, inp: dict) -> None:
        session = self.session
        self.panel = None
        session.changed()

    @answers("turn-resign")
    def turn_resign(self, inp: dict) -> None:
        session = self.session
        c = session.ctrl
        self.panel = None
        if c is not None and not c.match.outcome and c.match.turn is not None:
            c.match.apply({"seat": c.match.turn, "resign": True})
            c.clear()
            session.save_game()
        session.render()

    @answers("import")
    def file_imported(self, inp: dict) -> None:
        """A match file, read by the page: ``name``, and ``text`` or ``error``."""
        session = self.session
        name = str(inp.get("name") or "")[:80]
        try:
            if inp.get("error") == "size":
                raise saves.CorruptSave("size", "")
            if inp.get("error"):
                raise ValueError(str(inp["error"])[:120])
            match, repaired = saves.import_text(inp.get("text"))
        except saves.CorruptSave as e:
            why = e.detail if e.why == "record" else t(session.lang, "safe.import_format") \
                if e.why in ("format", "json") else t(session.lang, "safe.why.size")
            self.notes.append(t(session.lang, "safe.import_failed", file=name, why=why))
            session.render()
            return
        except Exception as e:   # the file could not be read at all
            self.notes.append(t(session.lang, "safe.import_failed", file=name, why=str(e)[:120]))
            session.render()
            return
        session.match_id = secrets.token_hex(8)
        session.guided.drop()
        session.ctrl = controller.Controller(match, session.lang)
        session.tell_repairs(repaired)
        self.notes.append(t(session.lang, "safe.imported", file=name))
        session.stop_computers()
        session.save_game()
        session.changed()
