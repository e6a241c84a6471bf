"""What the page makes of what it reads, in plain Python (no js: tested in CPython).

``domino/browser.py`` reads the DOM and writes it; the choices in between are
here: the session input a tap or a key makes, the new-game form's values
from its fields, the inputs that take over static/first.js's screen, what a
redraw shows of the moves made since the last one, how a played tile
travels, and the computer seats' turns.  Elements arrive as plain data: their attributes as a dict.
"""
from __future__ import annotations

import asyncio

from domino.app.safety_net import MAX_IMPORT_BYTES

#: what a tapped element tells about itself (data-<name>)
ELEMENT_DATA = ("tile", "end", "ends", "open", "act", "game", "seat", "step", "index", "match", "when")
#: the new-game form's fields (data-field), and its options box
FORM_FIELDS = '[data-field], [data-testid="options"]'
#: fields whose value goes into the form as it is, under the field's test id
PLAIN_FIELDS = ("game", "players", "target", "seat-kind", "seat-name")
#: native controls click on Enter by themselves
NATIVE = ("button", "select", "input", "option")


def with_ids(attrs: dict) -> list[str]:
    """The ids of the text fields a button sends (data-with: a reply code), first the one it is about."""
    return (attrs.get("data-with") or "").split()


def tap_input(attrs: dict, values: dict[str, str], form: dict | None) -> dict:
    """The session's input for a tap (or Enter) on an element with data-action:
    ``attrs`` its attributes, ``values`` the texts of the fields it names in
    data-with (by id), ``form`` the new-game form's values when it is on screen."""
    inp: dict = {"action": attrs.get("data-action") or "",
                 "disabled": attrs.get("aria-disabled") == "true" or "disabled" in attrs}
    if attrs.get("data-seq") is not None:
        inp["seq"] = attrs["data-seq"]
    for name in ELEMENT_DATA:
        if attrs.get("data-" + name) is not None:
            inp[name] = attrs["data-" + name]
    ids = with_ids(attrs)
    if ids:
        inp["values"] = {i: values.get(i, "") for i in ids}
        inp["value"] = inp["values"][ids[0]]
    if form is not None:
        inp["form"] = form
    return inp


def key_does(key: str, tag: str | None) -> str | None:
    """What a key pressed in #app does: "escape" (the session's Escape),
    "tap" (Enter or space on an element with data-action, ``tag`` its tag,
    that is not a native control), or None (the browser's own doing)."""
    if key == "Escape":
        return "escape"
    if key in ("Enter", " ") and tag is not None and tag.lower() not in NATIVE:
        return "tap"
    return None


def tab_stop(count: int, index: int | None, shift: bool) -> int | None:
    """Where Tab (``shift``: Shift+Tab) goes in the open modal dialog with ``count`` focusable elements, the focus
    on the ``index``-th of them (None: outside the dialog): the index to focus, -1 for nowhere (the dialog has
    nothing to focus: the key does nothing), or None for the browser's own next element, which is in the dialog.
    The focus never leaves a modal dialog for the page behind it (a keyboard user would act on a screen it hides)."""
    if count <= 0:
        return -1
    if index is None or not 0 <= index < count:
        return count - 1 if shift else 0
    if shift and index == 0:
        return count - 1
    if not shift and index == count - 1:
        return 0
    return None


def form_values(fields: list[dict]) -> dict:
    """The new-game form's raw values (keys: the fields' test ids), from its
    fields as the page reads them, each {"testid", "field", "key", "value",
    "checked", "open"} (attributes data-testid, data-field, data-key)."""
    form: dict = {"options": {}}
    for f in fields:
        testid, field = f.get("testid") or "", f.get("field")
        if field == "option":
            form["options"][str(f.get("key"))] = str(f.get("value"))
        elif testid == "options":
            form["show_options"] = bool(f.get("open"))
        elif testid in ("partnership", "practice"):
            form[testid] = bool(f.get("checked"))
        elif field in PLAIN_FIELDS:
            form[testid] = str(f.get("value"))
    return form


def first_inputs(state: dict, form: dict, lang: str) -> list[dict]:
    """The inputs that make the live new-game screen the one static/first.js
    handed over (``state``, its handOver()): every choice made on it (the
    ``form`` read from it), its language when switched there (the session is
    in ``lang``), its open rules."""
    out = [{"action": "change", "field": "form", "form": form}]
    if state.get("lang") in ("es", "en") and state["lang"] != lang:
        out.append({"action": "lang"})
    if state.get("help"):
        out.append({"action": "help", "game": state["help"]})
    return out


def first_tap(state: dict) -> tuple[str, str] | None:
    """The tap made on static/first.js's screen while Python was on its way
    (Start, Play, the guided hand...): (test id, action) of the element to tap now."""
    tapped = state.get("pending") or {}
    if not tapped.get("testid") or not tapped.get("action"):
        return None
    return str(tapped["testid"]), str(tapped["action"])


def moves_seen(ctrl, painted: tuple) -> tuple[tuple, list[int], dict | None]:
    """What a redraw of the table shows of the moves made since it was last
    shown (``painted``: the hand's number and its count of actions then): the
    new ``painted``, the seats that moved since (their badge pops) and the
    last tile played (it travels), if any."""
    m = ctrl.match
    n = len(m.hand.actions) if m.hand is not None else 0
    hand, before = painted
    now = (m.hand_no, n)
    if hand != m.hand_no or n <= before:
        return now, [], None
    fresh = ctrl.log()[before:]
    seats = sorted({e["seat"] for e in fresh})
    play = next((e for e in reversed(fresh) if e["kind"] == "play"), None)
    return now, seats, play


def travel(tile: tuple, seat: tuple, ms: int) -> tuple[list[dict], dict]:
    """The keyframes and timing of a played tile's flight from its seat to its
    place (``tile`` and ``seat``: their boxes on screen, (left, top, width, height))."""
    dx = (seat[0] + seat[2] / 2) - (tile[0] + tile[2] / 2)
    dy = (seat[1] + seat[3] / 2) - (tile[1] + tile[3] / 2)
    frames = [{"transform": f"translate({dx:.1f}px, {dy:.1f}px) scale(.7)", "opacity": 0.35},
              {"transform": "translate(0px, 0px) scale(1)", "opacity": 1}]
    return frames, {"duration": ms, "easing": "cubic-bezier(.2,.75,.3,1)"}


def change_input(field: str, testid: str | None, value: str | None, form: dict | None) -> dict:
    """The session's input for a change of a new-game field (data-field ``field``)."""
    return {"action": "change", "field": field, "form": form, "testid": testid, "value": value}


def too_big(size: int) -> bool:
    """A match file larger than the session takes is not even read."""
    return size > MAX_IMPORT_BYTES


def import_input(name: str, text: str | None, error: str | None = None) -> dict:
    """The session's input for a match file opened on the new-game screen:
    its ``text``, or why it was not read (``error``; None and no text: too big)."""
    inp = {"action": "import", "name": name[:80]}
    if error is not None:
        inp["error"] = error[:120]
    elif text is None:
        inp["error"] = "size"
    else:
        inp["text"] = text
    return inp


def relay_status(status: dict) -> dict:
    """The session's input for what static/online.js tells of the relays of play over the internet."""
    return {"action": "net-relay", "status": status}


def online_call(cmd: dict) -> tuple[str, list]:
    """static/online.js's method for the session's command ``cmd`` ("online-join", "online-rooms",
    "online-pause", "online-resume", "online-leave"), and its arguments."""
    method = cmd["op"][len("online-"):]
    if method == "join":
        return method, [{k: cmd[k] for k in ("rooms", "relays", "ice", "role")}]
    return method, [cmd["rooms"]] if method == "rooms" else []


def restart_commands(session) -> list[dict]:
    """What the page stops before session ``s`` gives way to a new one (the
    tests' restart in the same page): every connection its link holds is
    closed and the relays of play over the internet are left."""
    return [{"op": "close", "conn": conn} for conn in sorted(session.link.connections())] + [{"op": "online-leave"}]


def relay_failed(error: str) -> dict:
    """The session's input when the relays of play over the internet could not be joined."""
    return relay_status({"state": "failed", "relays": [], "error": error[:200]})


def board_size(width: int, height: int) -> tuple[int, int]:
    """The board's drawing size for a box of ``width`` x ``height`` (never smaller than 200 x 100)."""
    return max(200, width), max(100, height)


def snapshot_size(box: tuple[int, int] | None) -> tuple[int, int]:
    """The board size of the snapshot of a screen whose board box is ``box`` (None: no board on it)."""
    return (max(200, box[0]), max(160, box[1])) if box is not None else (800, 500)


#: the longest slice of a computer's thinking between two frames, in ms
THINK_SLICE_MS = 40


async def computer_turns(session, gen: int, now, frame, apply) -> str | None:
    """The computer seats of session ``s`` move while they are to move and
    nothing new has started (``gen``), one turn per ``session.delay`` ms (the pace):
    the thinking first, in slices with a frame drawn between them (``await
    frame()``), the wait takes up the rest of the pace (``now()``: the clock,
    in ms), and the move goes through the session like a tap (``apply`` does
    its answer).  A failed turn is never a dead table: the session hears of
    it (it offers retry or resign) and the failure is returned, to be logged."""
    try:
        while gen == session.computers.gen and session.wants_computers():
            started = now()
            search = session.computers.think()
            action = search.step(THINK_SLICE_MS)
            while action is None:
                await frame()
                if gen != session.computers.gen:
                    return None
                action = search.step(THINK_SLICE_MS)
            await asyncio.sleep(max(0.0, session.delay - (now() - started)) / 1000.0)
            if gen != session.computers.gen:
                return None
            out = session.handle({"action": "computer-move", "move": action, "gen": gen})
            out.computers = False   # this loop goes on by itself
            apply(out)
    except Exception as e:
        apply(session.handle({"action": "computer-failed", "gen": gen, "error": f"{type(e).__name__}: {str(e)[:120]}"}))
        return repr(e)
    return None


def redraw_after_computers(session, shown_seq: str) -> bool:
    """Whether the screen needs drawing once the computers' loop stops: no
    table, a dialog (a failed turn, a save problem), or a position other than
    the one shown (``shown_seq``: html[data-seq])."""
    return session.ctrl is None or session.safety.panel is not None or shown_seq != str(session.seq())


#: what static/rtc.js tells of a friend's connection: it opened, a message came, it closed
RTC_EVENTS = ("open", "message", "close")


def rtc_input(event: str, conn: int, said: str | None) -> dict:
    """The session's input for one of :data:`RTC_EVENTS` on connection
    ``conn`` (``said``: the message's text, or why it closed)."""
    inp: dict = {"action": "net-" + event, "conn": conn}
    if event == "message":
        inp["text"] = said
    elif event == "close":
        inp["reason"] = said
    return inp


def root_attributes(session) -> dict[str, str | None]:
    """What <html> says of session ``s`` (None: the attribute is removed):
    its language, the role in a networked match, the position shown
    (data-seq, for tests) and whether the guided hand is on (never saved)."""
    return {"lang": session.lang, "data-net-role": session.role or None, "data-seq": str(session.seq()),
            "data-guide": "1" if session.guided.step is not None else "0"}


#: the session's commands to static/rtc.js (op): its method, and the command's fields passed to it
RTC_CALLS = {"send": ("send", ("conn", "text")), "close": ("close", ("conn",)),
             "share": ("share", ("url", "title")), "accept": ("acceptAnswer", ("conn", "sdp")),
             "offer": ("createOffer", ()), "answer": ("createAnswer", ("sdp",))}
#: the commands done at once, in order (the others answer later: a promise)
RTC_AT_ONCE = ("send", "close")


def rtc_call(cmd: dict) -> tuple[str, list]:
    """static/rtc.js's method for the session's command ``cmd``, and its arguments."""
    method, fields = RTC_CALLS[cmd["op"]]
    return method, [cmd[f] for f in fields]


def rtc_answer(cmd: dict, result=None, error: str | None = None) -> dict | None:
    """The session's input once static/rtc.js has done the command ``cmd``
    (``result``: what its promise gave, as data; ``error``: why it failed):
    how the link was shared ("share"), or the connection and its description
    ("offer", "answer"), or why not; None for a command that has no answer
    ("accept": a refusal closes the connection, which says so itself)."""
    if cmd["op"] == "share":
        return {"action": "net-shared", "how": "failed" if error is not None else str(result)}
    back = {"offer": "net-offer", "answer": "net-answer"}.get(cmd["op"])
    if back is None:
        return None
    if error is not None:
        return {"action": back, "seat": cmd.get("seat"), "error": error[:200]}
    return {"action": back, "seat": cmd.get("seat"), "conn": int(result["id"]), "sdp": str(result["sdp"])}
