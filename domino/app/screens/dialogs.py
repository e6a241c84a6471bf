"""The resign and help dialogs."""
from __future__ import annotations

from domino.app import helptext
from domino.app.controller import Controller
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.settings import games

def resign_dialog(c: Controller, lang: str) -> Node:
    """Asks the seat that would resign to confirm."""
    seat = c.resign_seat()
    name = c.match.seats[seat]["name"] if seat is not None else ""
    return h("div", {"class": "overlay", "role": "alertdialog", "aria-modal": "true", "aria-labelledby": "rs-title"},
             h("div", {"class": "card center", "data-testid": "resign-dialog"},
               h("h2", {"id": "rs-title"}, t(lang, "resign.title")),
               h("p", {}, t(lang, "resign.body", name=name)),
               h("div", {"class": "buttons"},
                 h("button", {"type": "button", "class": "secondary", "data-action": "resign-no",
                              "data-testid": "resign-cancel"}, t(lang, "resign.no")),
                 h("button", {"type": "button", "class": "danger", "data-action": "resign-yes",
                              "data-testid": "resign-confirm"}, t(lang, "resign.yes")))))


def place_chooser(c: Controller, lang: str) -> Node:
    """Places too thin to tap apart on a crowded board (Mexican Train, eight seats on a phone) were
    tapped as one: which of them, one 44 px button each (with the words the places say)."""
    places = c.targets(lang)
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "pc-title"},
             h("div", {"class": "card center", "data-testid": "place-chooser"},
               h("h2", {"id": "pc-title"}, t(lang, "boards.choose_title", tile=c.selected)),
               h("div", {"class": "buttons place-choices"},
                 [h("button", {"type": "button", "class": "primary", "data-action": "end", "data-end": e,
                               "data-seq": c.match.seq, "data-testid": "choose-" + e}, places[e])
                  for e in c.asked_places()],
                 h("button", {"type": "button", "class": "secondary", "data-action": "places-back",
                              "data-testid": "place-chooser-back"}, t(lang, "boards.choose_cancel")))))


def help_dialog(game: str, lang: str, guide: bool = True) -> Node:
    """The rules of ``game``; ``guide``: the guided hand is offered (not at a friends' table)."""
    g = next((x for x in games() if x["id"] == game), games()[0])
    paras = helptext.help_for(g["id"], lang)
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "help-title",
                     "data-testid": "help-dialog"},
             h("div", {"class": "card wide help"},
               h("h2", {"id": "help-title"}, t(lang, "help.title", game=g["name"][lang])),
               [h("p", {"class": "fair" if i == len(paras) - 1 else None}, p) for i, p in enumerate(paras)],
               h("div", {"class": "buttons"},
                 guide and h("button", {"type": "button", "class": "secondary", "data-action": "guide-start",
                                        "data-testid": "help-guide"}, t(lang, "guide.open")),
                 h("button", {"type": "button", "class": "primary", "data-action": "help-close",
                              "data-testid": "help-close"}, t(lang, "help.close")))))
