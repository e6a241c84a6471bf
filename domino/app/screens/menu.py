"""The menu around the table: the saved match to continue, the question before replacing it, the guide's offer, the table's menu/undo/sound buttons."""
from __future__ import annotations

from domino.app.story import live_scores, side_name
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.settings import games


def _game_name(game: str, lang: str) -> str:
    g = next((x for x in games() if x["id"] == game), None)
    return g["name"][lang] if g else game


def saved_summary(match, lang: str) -> dict:
    """What the menu says about a saved match: game, hand number, scores.
    The scores are the table's (story.live_scores: the points made
    during the hand, fives, count at once), not match.scores, which the line
    games update only when a hand ends."""
    v = match.view(0)
    scores = ", ".join(f"{side_name(v, i, lang)} {s}" for i, s in enumerate(live_scores(v)))
    return {"game": _game_name(match.rules.game, lang), "n": v["hand_no"] + 1, "scores": scores}


def continue_card(match, lang: str, practice: bool = False) -> Node:
    """On the menu, above the new-game form: the match in progress."""
    s = saved_summary(match, lang)
    return h("div", {"class": "saved-match", "data-testid": "saved-match"},
             h("div", {"class": "saved-text"},
               h("strong", {}, t(lang, "menu.saved")),
               practice and h("span", {"class": "tag"}, t(lang, "menu.practice")),
               h("span", {}, t(lang, "menu.saved_body", **s))),
             h("button", {"type": "button", "class": "primary", "data-action": "continue",
                          "data-testid": "continue"}, t(lang, "menu.continue")))


def replace_dialog(match, lang: str) -> Node:
    s = saved_summary(match, lang)
    return h("div", {"class": "overlay", "role": "alertdialog", "aria-modal": "true", "aria-labelledby": "rp-title",
                     "aria-describedby": "rp-body"},
             h("div", {"class": "card center", "data-testid": "replace-dialog"},
               h("h2", {"id": "rp-title"}, t(lang, "replace.title")),
               h("p", {"id": "rp-body"}, t(lang, "replace.body", game=s["game"], n=s["n"])),
               h("div", {"class": "buttons"},
                 h("button", {"type": "button", "class": "secondary", "data-action": "replace-no",
                              "data-testid": "replace-cancel"}, t(lang, "replace.no")),
                 h("button", {"type": "button", "class": "danger", "data-action": "replace-yes",
                              "data-testid": "replace-confirm"}, t(lang, "replace.yes")))))


def guide_offer(lang: str) -> Node:
    """For a first visit: take the guided hand, or not."""
    return h("div", {"class": "guide-offer", "data-testid": "guide-offer"},
             h("h2", {}, t(lang, "guide.offer_title")),
             h("p", {}, t(lang, "guide.offer_body")),
             h("div", {"class": "buttons"},
               h("button", {"type": "button", "class": "secondary", "data-action": "guide-dismiss",
                            "data-testid": "guide-dismiss"}, t(lang, "guide.offer_skip")),
               h("button", {"type": "button", "class": "primary", "data-action": "guide-start",
                            "data-testid": "guide-start"}, t(lang, "guide.offer_go"))))


def _tb(action: str, testid: str, icon: str, text: str, **attrs) -> Node:
    a = {"type": "button", "class": "tb", "data-action": action, "data-testid": testid}
    a.update({k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})
    return h("button", a, h("span", {"class": "ico", "aria-hidden": "true"}, icon),
             h("span", {"class": "tb-text"}, text))


def menu_button(lang: str) -> Node:
    """Leave the table for the menu; the match stays saved."""
    return _tb("menu", "menu", "⌂", t(lang, "tb.to_menu"), aria_label=t(lang, "tb.to_menu_label"))


def undo_button(lang: str, enabled: bool, seq: int) -> Node:
    return _tb("undo", "undo", "↶", t(lang, "tb.undo"), aria_label=t(lang, "tb.undo_label"),
               data_seq=seq, disabled=None if enabled else "")


def sound_button(lang: str, on: bool) -> Node:
    return _tb("sound", "sound", "♪", t(lang, "tb.sound"), class_="tb sound " + ("on" if on else "off"),
               aria_label=t(lang, "tb.sound_label_on" if on else "tb.sound_label_off"),
               aria_pressed="true" if on else "false")


def stats_button(lang: str) -> Node:
    return _tb("stats", "stats-open", "▥", t(lang, "tb.stats"))


def undo_tools(c, display) -> list:
    """The practice badge and the undo button, in a practice match against
    the computer (one person at the table)."""
    from domino.app import undo
    if not display.practice:
        return []
    out = [practice_badge(display.lang)]
    if undo.person(c.match) is not None:
        out.append(undo_button(display.lang, undo.can_undo(c.match), c.match.seq))
    return out


def practice_badge(lang: str) -> Node:
    return h("span", {"class": "practice-badge", "data-testid": "practice-badge"}, t(lang, "game.practice"))
