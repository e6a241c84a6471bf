"""How the table is shown: every display choice a screen takes besides the
game's state, passed to it as one value (the game's state is the
:class:`~domino.app.controller.Controller`'s)."""
from __future__ import annotations

from dataclasses import dataclass

from domino.app.controller import DEFAULT_PACE


@dataclass(frozen=True)
class Display:
    """The display choices of one screen.

    ``lang``: the language of every word; ``pips``: how the tiles' pips look
    ("coloured" or "black"); ``pace``: the computer's pace the pace button
    shows; ``practice``: the match allows undo (the undo tools, the practice
    note); ``sound``: the sound toggle's state; ``net``: a friends' table's
    statuses, bars and buttons (:meth:`domino.app.session.Session.table_net`),
    None at a table on one device."""
    lang: str = "en"
    pips: str = "coloured"
    pace: str = DEFAULT_PACE
    practice: bool = False
    sound: bool = False
    net: dict | None = None
