"""Every screen a player can reach, drawn after every action of whole matches.

A match is played by computer seats to its end; after each action the
screens of that moment are drawn, as the page would draw them, and every
tree is checked (:func:`tree_problems`).  The screens:

* the table for a person at each seat (alone against the computers), its
  board at phone size, with the move log open, and what a reload paints
  (the snapshot);
* the hot-seat table (every seat a person): the pass-the-device screen;
* a guest's table: the seat's view through the network's mirror, with the
  friends' bar and statuses;
* a match played when each can: the host's table with its bar (whom it
  waits for, the friends' links, the record) and a friend's (its move sent),
  and Your matches with this match's line beside a finished one;
* at a hand's end the hand result (round-by-round in the games of rounds),
  at the match's end the match result, the menu's continue card and the
  statistics with the match counted.

``full=True`` draws every screen for every seat in both languages after
every action (the long script, ``scripts/sweep_screens.py``); otherwise
each action draws one seat and one language in turn, and every hand's end
and the match's end draw everything (the CI sweep).  Used by
``tests/test_screen_sweep.py`` and ``scripts/sweep_screens.py``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from domino import players
from domino.app import snapshot
from domino.app import review
from domino.app import stats as stats_mod
from domino.app.controller import Controller
from domino.app.i18n import t
from domino.app.screens.menu import continue_card
from domino.app.screens.menu import _game_name
from domino.app.screens import later as later_screens
from domino.app.screens.review import kept_list, review_dialog
from domino.app.screens.stats import stats_dialog
from domino.app.screens.display import Display
from domino.app.screens.table import draw_board, game_screen
from domino.engine.match import Match
from domino.engine.rules import make_rules
from domino.net.mirror import MirrorMatch, check_view

LANGS = ("en", "es")
PHONE = (360, 420)
NAMES = ["Ana", "Luis", "Eva", "Pau", "Rosa", "Juan", "Lola", "Teo"]
_KEY = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")          # an i18n key shown as it is
_HOLE = re.compile(r"\{[a-z_]*\}|\bNone\b|\bnan\b|<[a-z]+[ >]")   # a template's hole, a Python value, markup
_ACTIONS: set[str] | None = None


def known_actions() -> set[str]:
    """Every ``data-action`` the session or a link answers (a method marked for it)."""
    global _ACTIONS
    if _ACTIONS is None:
        from domino.app.session import EVENTS, answered
        _ACTIONS = answered() - EVENTS
    return _ACTIONS


def _name(node) -> str:
    parts, stack = [], [node]
    while stack:
        n = stack.pop()
        if isinstance(n, str):
            parts.append(n)
        else:
            stack.extend(reversed(n[2]))
    return "".join(parts)


def _odd_text(s: str) -> bool:
    s = s.strip()
    return bool(s) and (bool(_KEY.match(s)) or bool(_HOLE.search(s)))


def tree_problems(tree, lang: str) -> list[str]:
    """What is wrong with a screen tree: a node that is no (tag, attrs,
    children), an attribute that is not text, an id used twice, a reference
    (aria-labelledby, aria-controls, aria-describedby, label for) to no id,
    a button with no name, a ``data-action`` nobody answers, a text or a
    label that shows an i18n key, a template's hole or a Python value."""
    out: list[str] = []
    ids: dict[str, int] = {}
    refs: list[tuple[str, str]] = []
    actions = known_actions()
    stack = [tree]
    while stack:
        n = stack.pop()
        if not (type(n) is tuple and len(n) == 3 and type(n[0]) is str and type(n[1]) is dict
                and type(n[2]) is list):
            out.append(f"not a node: {str(n)[:80]}")
            continue
        tag, attrs, children = n
        if attrs:
            for k, v in attrs.items():
                if type(v) is not str:
                    out.append(f"<{tag} {k}> is {type(v).__name__}")
                elif k in _LABELS and _odd_text(v):
                    out.append(f"<{tag} {k}> says {v[:60]!r}")
            if "id" in attrs:
                ids[attrs["id"]] = ids.get(attrs["id"], 0) + 1
            for k in _REFS:
                if k in attrs:
                    refs += [(k, x) for x in attrs[k].split()]
            act = attrs.get("data-action")
            if act is not None and act not in actions:
                out.append(f"data-action {act!r} has no handler")
        if tag == "button" and not (attrs.get("aria-label") or attrs.get("title") or _name(n).strip()):
            out.append(f"a button with no name: {attrs}")
        for c in children:
            if type(c) is str:
                if _odd_text(c):
                    out.append(f"<{tag}> says {c.strip()[:60]!r}")
            elif _CLEAN_TILES.get(id(c)) is not c:
                stack.append(c)
        if tag == "svg" and attrs.get("class") == "tile-svg" and len(_CLEAN_TILES) < 4096:
            _CLEAN_TILES[id(n)] = n     # tiles.tile_svg keeps each tile's tree: checked once is enough
    out += [f"id {i!r} used {k} times" for i, k in ids.items() if k > 1]
    out += [f"{k}={x!r} names no id" for k, x in refs if x not in ids]
    return out


_CLEAN_TILES: dict[int, tuple] = {}
_LABELS = frozenset({"aria-label", "title", "alt", "placeholder"})
_REFS = ("aria-labelledby", "aria-controls", "aria-describedby", "for")


@dataclass
class Sweep:
    """Counts of one sweep (for the test's message and the script's lines)."""
    matches: int = 0
    actions: int = 0
    hands: int = 0
    screens: int = 0
    problems: list[str] = field(default_factory=list)

    def add(self, other: "Sweep") -> None:
        self.matches += other.matches
        self.actions += other.actions
        self.hands += other.hands
        self.screens += other.screens
        self.problems += other.problems


def _seats(n: int, person: int | None, kind: str) -> list[dict]:
    return [{"name": NAMES[i], "kind": "human" if person is None or i == person else kind} for i in range(n)]


class _Drawer:
    def __init__(self, sweep: Sweep, label: str):
        self.sweep = sweep
        self.label = label

    def draw(self, what: str, make, lang: str) -> None:
        try:
            tree = make()
        except Exception as e:       # noqa: BLE001 - the sweep reports every crash with its place
            self.sweep.problems.append(f"{self.label} {what} [{lang}]: {type(e).__name__}: {e}")
            return
        self.sweep.screens += 1
        if tree is None:
            return
        for p in tree_problems(tree, lang):
            self.sweep.problems.append(f"{self.label} {what} [{lang}]: {p}")


KINDS = ("table", "board", "log", "reload", "hot seat", "guest", "guest board", "later", "matches")
LATER_NOW = 1_800_000_000          # the phones' clock for the screens of a match played when each can
LATER_LINK = "https://example.org/domino/#later=2." + "0" * 32 + "." + "1" * 64 + "." + "2" * 64


def _later_screens(m: Match, d: _Drawer, c: Controller, seat: int, lang: str, which) -> None:
    """A match played when each can, at this moment, for a person at ``seat``: the table with its bar (the
    host's, with the friends' links; a friend's, its move on its way) and Your matches."""
    info = later_screens.info_of(m.view(seat), LATER_NOW - 3 * 3600, LATER_NOW)
    if "later" in which:
        for host in (True, False):
            lines = later_screens.status_lines(lang, info, not host, LATER_NOW)
            invites = [(s, m.seats[s]["name"], LATER_LINK) for s in range(m.rules.players) if s != seat] if host else []
            bar = later_screens.table_bar(lang, lines, invites, record=host, sent="sending", synced="0",
                                          more_open=host)
            net = {"role": "later", "statuses": {}, "waiting": [], "clock": None, "bar": bar, "tool": None,
                   "banner": "", "review": host}
            d.draw(f"later {'host' if host else 'friend'} seat {seat}",
                   lambda: game_screen(c, Display(lang, net=net)), lang)
    if "matches" in which:
        over = dict(info, over=True, turn=None)
        d.draw(f"your matches seat {seat}", lambda: later_screens.matches_screen(
            lang, "coloured", False, [("a" * 32, over), ("b" * 32, info)], LATER_NOW), lang)


def _screens(m: Match, d: _Drawer, seat: int, lang: str, kind: str, which=KINDS) -> None:
    """The screens of this moment (``which`` of :data:`KINDS`) for ``seat``
    in ``lang`` (see the module docstring)."""
    n = m.rules.players
    real = m.seats
    try:
        m.seats = _seats(n, seat, kind)              # a person at this seat, computers elsewhere
        c = Controller(m, lang, viewer=seat)
        display = Display(lang)
        if "table" in which:
            d.draw(f"table seat {seat}", lambda: game_screen(c, display), lang)
        if "board" in which:
            d.draw(f"board seat {seat}", lambda: draw_board(c, display, *PHONE), lang)
        if "log" in which:
            c.log_open = True
            d.draw(f"log seat {seat}", lambda: game_screen(c, display), lang)
        if "reload" in which:
            d.draw(f"reload seat {seat}", lambda: snapshot.table(m, display, *PHONE)["tree"], lang)
        _later_screens(m, d, c, seat, lang, which)
        if "hot seat" in which:
            m.seats = _seats(n, None, kind)              # hot seat: every seat a person
            hot = Controller(m, lang, viewer=(seat + 1) % n)
            d.draw(f"hot seat {seat}", lambda: game_screen(hot, display), lang)
    finally:
        m.seats = real
    if "guest" not in which and "guest board" not in which:
        return
    view = m.view(seat)
    try:
        check_view(view, m.rules)
        mirror = MirrorMatch(view, m.resigned)
    except Exception as e:      # noqa: BLE001
        d.sweep.problems.append(f"{d.label} guest seat {seat}: the host's view is refused: {e}")
        return
    g = Controller(mirror, lang, viewer=seat)
    net = {"role": "guest", "statuses": {i: "host" if i == 0 else "here" for i in range(n) if i != seat},
           "bar": None,
           "waiting": ["…"] if m.phase == "hand-over" else [], "banner": ""}
    display = Display(lang, net=net)
    if "guest" in which:
        d.draw(f"guest seat {seat}", lambda: game_screen(g, display), lang)
    if "guest board" in which:
        d.draw(f"guest board seat {seat}", lambda: draw_board(g, display, *PHONE), lang)


def _end_screens(m: Match, d: _Drawer, lang: str, kind: str) -> None:
    """The match's end: the menu's card of the finished match and the
    statistics with it counted, for a person at each seat."""
    n = m.rules.players
    real = m.seats
    try:
        for seat in range(n):
            m.seats = _seats(n, seat, kind)
            d.draw("menu card", lambda: continue_card(m, lang), lang)
            stats = stats_mod.empty()
            stats_mod.record(stats, m)
            d.draw("statistics", lambda: stats_dialog(stats, lang), lang)
            kept = kept_list(review.keep(review.empty(), m, "sweep"), lang, _game_name)
            d.draw("statistics with the last hands", lambda: stats_dialog(stats, lang, kept=kept), lang)
    finally:
        m.seats = real


def _review_screens(m: Match, d: _Drawer) -> None:
    """The hand's review (replayed from the match's record): the deal, a move midway and the end."""
    st = review.steps_of_match(m)
    rounds = bool((st[0]["view"].get("layout") or {}).get("rounds"))
    for lang in LANGS:
        for i in sorted({0, len(st) // 2, len(st) - 1}):
            d.draw(f"review step {i}", lambda: review_dialog(st, i, m.hand_no, rounds, "coloured", lang), lang)


def sweep_match(game: str, n: int, opts: dict, seed: int, *, full: bool = False, kind: str = "medium",
                max_hands: int | None = None, every_action: bool = True) -> Sweep:
    """Play one match with ``kind`` computers at every seat, drawing every
    screen as it goes (see the module docstring).  ``every_action=False``:
    only the hands' ends and the match's end, for every seat, each seat in
    one language in turn, and the review of the match's last hand (the
    many-matches sweep)."""
    sw = Sweep(matches=1)
    label = f"{game}/{n}/{opts}/seed {seed}"
    m = Match(make_rules(game, players=n, **opts), seed=seed, seats=_seats(n, None, kind))
    d = _Drawer(sw, label)
    choose = players.get_player(kind)
    turn = 0

    def moment(which) -> None:
        """``which`` screens for every seat in both languages; None: one
        screen of one seat in one language, each in turn."""
        nonlocal turn
        if not every_action:
            if which is not None and m.phase != "play":
                for seat in range(n):
                    _screens(m, d, seat, LANGS[(seat + m.hand_no) % 2], kind, ("table", "guest"))
            return
        if which is None:
            _screens(m, d, turn % n, LANGS[(turn // n) % 2], kind, (KINDS[turn % len(KINDS)],))
            turn += 1
            return
        for seat in range(n):
            for lang in LANGS:
                _screens(m, d, seat, lang, kind, which)

    ends = KINDS if full else ("table", "guest", "later")     # the results are overlays of the table
    moment(KINDS)
    while True:
        if m.phase == "play":
            seat = m.turn
            try:
                m.apply(choose(m.view(seat), m.player_rng(seat)))
            except Exception as e:      # noqa: BLE001
                sw.problems.append(f"{label} hand {m.hand_no} move: {type(e).__name__}: {e}")
                return sw
            sw.actions += 1
            moment(KINDS if full else ends if m.phase != "play" else None)
            continue
        sw.hands += 1
        last = m.finished or (max_hands is not None and sw.hands >= max_hands)
        if every_action or last:      # the many-matches sweep reviews each match's last hand
            _review_screens(m, d)
        if last:
            break
        m.next_hand()
        sw.actions += 1
        moment(KINDS if full else None)
    if m.finished:
        for lang in LANGS:
            _end_screens(m, d, lang, kind)
    return sw
