"""What the app reads from the page's URL fragment: the one list, for Python and the page's scripts.

A link to the game may carry, after ``#``, an invitation to a friend's table:

* ``#join=<seat+1>.<secret>.<offer code>``: on the same Wi-Fi
  (:func:`domino.app.friends.parse_join`);
* ``#online=<seat+1>.<secret>.<room>.<password>[.<relays>]``: over the
  internet (:func:`domino.app.online.parse_online`);
* ``#later=<seat+1>.<match>.<host key>.<seat's secret>[.<relays>]``: a match
  played when each can (:func:`domino.app.link.later.parse_later`).

Any other fragment is not the game's: the page opens as if it had none.

An invitation opens the guest's screen, never the new-game screen nor the
phone's own last screen.  The page's scripts decide that before Python is up
(``static/first.js`` paints the first visit's new-game screen,
``static/boot.js`` the saved screen), so they need the same list:
``scripts/build_first.py`` writes :func:`js_line` into both (between the
``links:`` marker and the end of its line), and tests/test_links.py checks
that each script sees an invitation exactly where :func:`invitation` does.
"""
from __future__ import annotations

import json

from domino.app.online import ONLINE
from domino.app.script_lines import with_line

JOIN = "join="
LATER = "later="               # a match played when each can (domino.app.link.later)
INVITATIONS = (JOIN, ONLINE, LATER)   # the fragment prefixes that open the guest's screen

JS_FILES = ("static/first.js", "static/boot.js")
JS_MARK = "/* links: domino/app/links.py, written by scripts/build_first.py */"


def invitation(fragment: str | None) -> str | None:
    """``location.hash`` -> the invitation it carries (without ``#``), or None."""
    frag = str(fragment or "")
    frag = frag[1:] if frag.startswith("#") else frag
    return frag if frag.startswith(INVITATIONS) else None


def js_line() -> str:
    """The line of the page's scripts that lists the invitations' prefixes."""
    return f"{JS_MARK} var INVITATIONS = {json.dumps(list(INVITATIONS))};"


def with_js_line(source: str) -> str:
    """A script's text with its links line written from :data:`INVITATIONS`.
    ValueError when the script has no such line."""
    return with_line(source, JS_MARK, js_line())
