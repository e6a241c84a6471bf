"""What the page shows of the session: the whole screen (the table, the menu, a friends' lobby, with the
safety net's dialog and the other dialogs over it), the line a screen reader hears, where the focus goes and
what the guide points at.  Plain functions of the session's state: they change nothing."""
from __future__ import annotations

from domino.app import guide
from domino.app.i18n import t
from domino.app.nodes import Node
from domino.app.screens import menu as menu_screens
from domino.app.screens import safety
from domino.app.screens.lobby import new_game_screen
from domino.app.screens.table import Display, game_screen
from domino.app.story import side_name

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


def screen(session) -> Node:
    """The whole screen: the table or the menu, the safety net's controls
    and dialog, and the other dialogs (when no safety dialog is up)."""
    c = session.ctrl
    if not session.at_table():
        tree = session.link.lobby_screen() or menu_tree(session)
        card = first_card(tree)
        if card is not None and session.role is None:   # the menu: the table keeps its room (one tap away, ⌂ Menu)
            if c is not None:
                card[2].append(safety.export_button(session.lang))
            card[2].append(safety.file_controls(session.lang, session.last_match is not None))
    else:
        c.lang = session.lang   # the language of live_text's c.message() and c.status()
        tree = game_screen(c, Display(session.lang, session.pips, session.pace, session.practice, session.sound,
                                      session.link.table_words()))
    dialog = session.safety.panel_tree()
    if dialog is not None:
        tree[2].append(dialog)
    for extra in dialogs(session):
        if (session.safety.panel is None and not session.safety.notes) or extra[1].get("data-testid") == "guide":
            tree[2].append(extra)
    return tree


def menu_tree(session) -> Node:
    top = []
    c = session.ctrl
    if c is not None and not c.match.outcome:
        top.append(menu_screens.continue_card(c.match, session.lang, session.practice))
    elif not session.guide_seen and session.role is None:
        top.append(menu_screens.guide_offer(session.lang))
    return new_game_screen(session.new_settings, session.lang, session.pips, session.error, session.save_error,
                           top=top, sound=session.sound)


def dialogs(session) -> list:
    out = []
    if session.guided.step is not None and session.at_table():
        out.append(guide.guide_panel(session.guided.step, session.lang, session.ctrl.match.view(0)))
    if not session.at_table() and session.confirm_replace and session.ctrl is not None:
        out.append(menu_screens.replace_dialog(session.ctrl.match, session.lang))
    out += session.review.dialogs() if session.review.open else session.comforts.dialogs()
    if session.at_table():
        out += session.link.dialogs()
    return out


def guide_target(session) -> str | None:
    """The part of the table the guide's step is about (a selector)."""
    if session.guided.step is None or not session.at_table():
        return None
    return guide.TARGETS.get(session.guided.step)


def live_text(session) -> str:
    """The line a screen reader hears about the table."""
    c = session.ctrl
    if c is None or not session.at_table():
        return ""
    text = c.note or c.message()
    if c.flash:
        text += " " + " ".join(t(session.lang, "msg.fives", points=p,
                                 name=side_name(c.match.view(0), sd, session.lang)) for sd, p in c.flash)
    if c.my_turn():
        text += ". " + c.status()
    return text


def focus_target(session, keyboard: bool) -> str | None:
    """Where the focus goes on this screen (a selector), if anywhere."""
    c = session.ctrl
    if session.safety.panel is not None or session.safety.notes:
        return ".overlay.safe button"
    if session.review.open:
        return session.review.focus_target()
    if session.comforts.focus_target() is not None:
        return session.comforts.focus_target()
    if not session.at_table():
        return '[data-action="replace-no"]' if session.confirm_replace else None
    if c.handoff() is not None:
        return '[data-action="handoff"]'
    if c.confirm_resign:
        return '[data-action="resign-no"]'
    if session.link.focus_target() is not None:
        return session.link.focus_target()
    if c.match.outcome:
        return '[data-action="new-match"]'
    if session.guided.step == "score":
        return '[data-action="guide-finish"]'
    if c.match.phase == "hand-over":
        return '[data-action="next-hand"]'
    if c.asked_places():
        return '[data-testid="place-chooser"] [data-action="end"]'   # a dialog: its first place
    if c.selected and keyboard:
        # a place on the board marked aria-hidden has its button under the board
        return '[data-action="end"]:not([aria-hidden="true"]), [data-action="open"]'
    if c.my_turn() and keyboard:
        return '.tile-btn[aria-disabled="false"]'
    return None
