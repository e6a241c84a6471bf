"""The safety net's dialogs: a save that failed (storage full), a corrupt save
with no room for its copy, another tab moving the match on, a computer seat
that failed, notes after boot or import; and the download / open-file
controls.  Each dialog offers a way forward (the buttons' ``data-action`` is
handled by domino/browser.py)."""
from __future__ import annotations

from domino.app.i18n import t
from domino.app.nodes import Node, h


def _button(lang: str, key: str, action: str, testid: str, kind: str = "secondary") -> Node:
    return h("button", {"type": "button", "class": kind, "data-action": action, "data-testid": testid},
             t(lang, key))


def _dialog(testid: str, title: str, body: list, buttons: list, alert: bool = True) -> Node:
    return h("div", {"class": "overlay safe", "role": "alertdialog" if alert else "dialog", "aria-modal": "true",
                     "aria-labelledby": "safe-title", "aria-describedby": "safe-body"},
             h("div", {"class": "card center", "data-testid": testid},
               h("h2", {"id": "safe-title"}, title),
               h("div", {"id": "safe-body"}, [h("p", {}, p) for p in body if p]),
               h("div", {"class": "buttons"}, buttons)))


def storage_full(lang: str, can_free: bool, extra: str = "", blocked: bool = False) -> Node:
    """A save failed: say why, offer to free space and to download the match."""
    buttons = []
    if can_free:
        buttons.append(_button(lang, "safe.free", "free-space", "free-space"))
    if blocked:
        buttons.append(_button(lang, "safe.download_corrupt", "download-corrupt", "download-corrupt", "primary"))
    buttons.append(_button(lang, "safe.download", "export", "download-match", "primary"))
    buttons.append(_button(lang, "safe.later", "save-later", "save-later"))
    body = [t(lang, "safe.blocked") if blocked else t(lang, "safe.full.body"), extra]
    return _dialog("save-error", t(lang, "safe.full.title"), body, buttons)


def corrupt_no_room(lang: str, why: str) -> Node:
    """A corrupt save whose copy does not fit: it stays until downloaded."""
    return _dialog("save-error", t(lang, "safe.full.title"),
                   [t(lang, "safe.corrupt_nospace", why=why)],
                   [_button(lang, "safe.download_corrupt", "download-corrupt", "download-corrupt", "primary"),
                    _button(lang, "safe.later", "save-later", "save-later")])


def other_tab(lang: str, same_match: bool) -> Node:
    """Another tab changed the save: continue here (from the newest save)."""
    key = "safe.other_tab" if same_match else "safe.other_match"
    buttons = [_button(lang, "safe.continue_here", "continue-here", "continue-here", "primary")]
    if not same_match:
        buttons.append(_button(lang, "safe.keep_mine", "keep-mine", "keep-mine"))
    buttons.append(_button(lang, "safe.download", "export", "download-match"))
    return _dialog("other-tab", t(lang, key + ".title"), [t(lang, key + ".body")], buttons)


def turn_error(lang: str, name: str, why: str) -> Node:
    """A computer seat failed: try again, or end the match."""
    return _dialog("turn-error", t(lang, "safe.turn.title"), [t(lang, "safe.turn.body", name=name, why=why)],
                   [_button(lang, "safe.retry", "turn-retry", "turn-retry", "primary"),
                    h("button", {"type": "button", "class": "secondary", "data-action": "turn-resign",
                                 "data-testid": "turn-resign"}, t(lang, "safe.resign_for", name=name)),
                    _button(lang, "safe.download", "export", "download-match")])


def notes(lang: str, lines: list[str]) -> Node:
    """Things the player should know (a setting reset, a file opened)."""
    return _dialog("safe-note", t(lang, "app.title"), lines,
                   [_button(lang, "safe.close", "safe-ok", "safe-ok", "primary")], alert=False)


def export_button(lang: str) -> Node:
    return h("button", {"type": "button", "class": "tb", "data-action": "export", "data-testid": "export",
                        "aria-label": t(lang, "safe.export_label"), "title": t(lang, "safe.export_label")},
             h("span", {"class": "ico", "aria-hidden": "true"}, "\u2913"),
             h("span", {"class": "tb-text"}, t(lang, "safe.export")))


def file_controls(lang: str, last_match: bool) -> Node:
    """On the new-game screen: open a match file; download the last match."""
    return h("div", {"class": "files"},
             h("label", {"class": "secondary file-pick"},
               h("input", {"type": "file", "accept": ".json,application/json", "data-field": "import",
                           "data-testid": "import-file", "class": "sr-only"}),
               t(lang, "safe.import")),
             last_match and h("button", {"type": "button", "class": "secondary", "data-action": "export",
                                         "data-testid": "download-last"}, t(lang, "safe.download")))
