"""The first-hand guide: a short guided hand of Draw (2 players, a fixed seed) and its steps.  Pure Python.

The guided hand is an ordinary match against the easy computer, dealt from
:data:`SEED` (the computer holds the highest double and opens, so the first
thing the player sees is a tile on the table with two open ends).  It is not
saved over the player's match, and it is not counted in the statistics.

Steps, in order, each pointing at a part of the table (``TARGETS``: CSS
selectors the browser marks) and moving on with an event (``ADVANCE``):
"next" (the Next button), "play" (the person has played a tile this hand)
or "hand-over" (the hand has ended).  Whatever the step, the end of the hand
jumps to "score".
"""
from __future__ import annotations

from domino.app.i18n import t
from domino.app.nodes import Node, h

SEED = 38
LEVEL = "easy"
STEPS = ("hand", "ends", "play", "draw", "play_on", "score")
ADVANCE = {"hand": "next", "ends": "next", "play": "play", "draw": "next", "play_on": "hand-over",
           "score": "finish"}
TARGETS = {
    "hand": ".hand",
    "ends": '[data-testid="end-label"], #board svg',
    "play": ".tile-btn.playable",
    "draw": '[data-testid="scores"] .meta',
    "play_on": ".hand",
    "score": '[data-testid="hand-result"] table',
}


def settings() -> dict:
    """The new-game settings of the guided hand."""
    return {"game": "draw", "players": 2, "target": 100, "partnership": False,
            "seats": [{"kind": "human", "name": ""}, {"kind": LEVEL, "name": ""}]}


def first() -> str:
    return STEPS[0]


def advance(step: str, event: str, *, phase: str, played: bool) -> str | None:
    """The step after ``event`` ("next", "moved" after any change of the
    match, "finish"); None when the guide is over.

    ``phase`` is the match's phase; ``played`` whether the person has played
    a tile in the current hand."""
    if step not in STEPS:
        return None
    if event == "finish" or (event == "next" and step == "score"):
        return None
    if phase in ("hand-over", "match-over"):
        return "score"
    i = STEPS.index(step)
    if event == "next" and ADVANCE[step] == "next":
        step = STEPS[i + 1]
    elif event == "moved" and ADVANCE[step] == "play" and played:
        step = STEPS[i + 1]
    # a step already done by play (the person played during "hand" or "ends")
    if step in ("hand", "ends") and played:
        return "draw"
    return step


def person_played(view: dict, seat: int = 0) -> bool:
    return any(a.get("seat") == seat and "play" in a for a in view.get("history", []))


def guide_panel(step: str, lang: str) -> Node:
    """The guide's card (data-testid="guide"), with Next where the step waits
    for it and Skip always."""
    n = STEPS.index(step) + 1
    buttons = []
    if ADVANCE[step] == "next":
        buttons.append(h("button", {"type": "button", "class": "primary", "data-action": "guide-next",
                                    "data-testid": "guide-next"}, t(lang, "guide.next")))
    if step == "score":
        buttons.append(h("button", {"type": "button", "class": "primary", "data-action": "guide-finish",
                                    "data-testid": "guide-finish"}, t(lang, "guide.finish")))
    else:
        buttons.append(h("button", {"type": "button", "class": "secondary", "data-action": "guide-skip",
                                    "data-testid": "guide-skip"}, t(lang, "guide.skip")))
    return h("aside", {"class": "guide", "data-testid": "guide", "data-step": step,
                       "aria-labelledby": "guide-title"},
             h("p", {"class": "guide-head"},
               h("strong", {"id": "guide-title"}, t(lang, "guide.title")), " · ",
               h("span", {}, t(lang, "guide.step", n=n, total=len(STEPS)))),
             h("p", {"class": "guide-text", "role": "status"}, t(lang, "guide." + step)),
             h("div", {"class": "guide-buttons"}, buttons))
