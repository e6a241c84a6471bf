"""domino/app/page_decisions.py in CPython: what the page makes of what it reads (the
inputs of taps, keys and the form, the first screen's take-over, the moves a
redraw shows, a tile's flight, the computers' turns, the network's answers),
driven with plain data and a real session."""
from __future__ import annotations

import aio

from domino.app import page_decisions
from domino.app.safety_net import MAX_IMPORT_BYTES
from domino.app.session import MemoryStore, Session
from test_session import FORM_2P, person_tap, started


def test_a_tap_sends_the_elements_data_its_fields_and_the_form():
    attrs = {"data-action": "tile", "data-seq": "4", "data-tile": "3-5", "data-end": "E", "class": "tile",
             "aria-disabled": "false", "data-testid": "hand-3-5"}
    assert page_decisions.tap_input(attrs, {}, None) == {"action": "tile", "seq": "4", "tile": "3-5", "end": "E",
                                               "disabled": False}
    # a disabled button says so (either way); no seq, no data: none sent
    assert page_decisions.tap_input({"data-action": "go", "disabled": ""}, {}, None) == \
        {"action": "go", "disabled": True}
    assert page_decisions.tap_input({"data-action": "go", "aria-disabled": "true"}, {}, None)["disabled"] is True
    # a reply code's button sends its fields' texts, the first one as its value; a missing field is blank
    attrs = {"data-action": "join-reply", "data-with": "reply-code reply-name"}
    assert page_decisions.with_ids(attrs) == ["reply-code", "reply-name"]
    inp = page_decisions.tap_input(attrs, {"reply-code": "ABC"}, {"options": {}})
    assert inp["value"] == "ABC" and inp["values"] == {"reply-code": "ABC", "reply-name": ""}
    assert inp["form"] == {"options": {}}
    assert page_decisions.with_ids({"data-action": "x"}) == []


def test_keys():
    assert page_decisions.key_does("Escape", None) == "escape"
    assert page_decisions.key_does("Escape", "BUTTON") == "escape"
    assert page_decisions.key_does("Enter", "DIV") == "tap" and page_decisions.key_does(" ", "g") == "tap"
    for tag in ("BUTTON", "select", "INPUT", "option"):   # they click by themselves
        assert page_decisions.key_does("Enter", tag) is None
    assert page_decisions.key_does("Enter", None) is None and page_decisions.key_does("a", "DIV") is None


def test_tab_goes_round_a_modal_dialog():
    stop = page_decisions.tab_stop
    assert stop(0, None, False) == -1 and stop(0, None, True) == -1      # nothing to focus: Tab does nothing
    assert stop(3, None, False) == 0 and stop(3, None, True) == 2        # from outside: back into the dialog
    assert stop(3, 7, False) == 0
    assert stop(3, 2, False) == 0 and stop(3, 0, True) == 2              # past either end: round again
    assert stop(3, 0, False) is None and stop(3, 1, True) is None        # inside: the browser's own order
    assert stop(1, 0, False) == 0 and stop(1, 0, True) == 0              # one button keeps the focus


def test_the_form_is_read_from_its_fields():
    fields = [{"testid": "game", "field": "game", "value": "block"},
              {"testid": "players", "field": "players", "value": "3"},
              {"testid": "seat-kind-1", "field": "seat-kind", "value": "hard"},
              {"testid": "seat-name-0", "field": "seat-name", "value": " Ana "},
              {"testid": "opt-spinner", "field": "option", "key": "spinner", "value": "off"},
              {"testid": "options", "field": None, "open": True},
              {"testid": "partnership", "field": "partnership", "checked": True},
              {"testid": "practice", "field": "practice", "checked": False},
              {"testid": "import", "field": "import", "value": "C:\\fakepath\\m.json"}]
    assert page_decisions.form_values(fields) == {"options": {"spinner": "off"}, "game": "block", "players": "3",
                                        "seat-kind-1": "hard", "seat-name-0": " Ana ", "show_options": True,
                                        "partnership": True, "practice": False}
    assert page_decisions.form_values([]) == {"options": {}}


def test_the_form_read_drives_the_session_as_the_page_does():
    s = Session(MemoryStore(), "/p/", params={"seed": "1"}, browser_lang="en")
    s.load_game()
    form = page_decisions.form_values([{"testid": "game", "field": "game", "value": "all-fives"},
                             {"testid": "players", "field": "players", "value": "3"}])
    s.handle(page_decisions.change_input("game", "game", "all-fives", form))
    assert s.new_settings["game"] == "all-fives" and s.new_settings["players"] == 3


def test_the_first_screens_take_over():
    form = {"options": {}, "game": "draw"}
    assert page_decisions.first_inputs({}, form, "en") == [{"action": "change", "field": "form", "form": form}]
    both = page_decisions.first_inputs({"lang": "es", "help": "draw"}, form, "en")
    assert [i["action"] for i in both] == ["change", "lang", "help"] and both[2]["game"] == "draw"
    # the language chosen there is already the session's: not switched back
    assert [i["action"] for i in page_decisions.first_inputs({"lang": "es"}, form, "es")] == ["change"]
    assert [i["action"] for i in page_decisions.first_inputs({"lang": "fr"}, form, "en")] == ["change"]
    assert page_decisions.first_tap({"pending": {"action": "start", "testid": "start"}}) == ("start", "start")
    assert page_decisions.first_tap({"pending": None}) is None and page_decisions.first_tap({}) is None
    assert page_decisions.first_tap({"pending": {"action": "start"}}) is None


def test_a_redraw_shows_the_moves_made_since_the_last_one():
    s = started({**FORM_2P, "seat-kind-0": "human"})
    c = s.ctrl
    painted, seats, play = page_decisions.moves_seen(c, (None, 0))
    assert painted == (c.match.hand_no, len(c.match.hand.actions)) and seats == [] and play is None
    # nothing new: nothing pops, nothing travels
    assert page_decisions.moves_seen(c, painted) == (painted, [], None)
    while s.wants_computers() or not c.my_turn():
        s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
    painted = (c.match.hand_no, len(c.match.hand.actions))
    person_tap(s)
    now, seats, play = page_decisions.moves_seen(c, painted)
    assert now == (c.match.hand_no, len(c.match.hand.actions)) and now[1] > painted[1]
    assert seats == sorted({e["seat"] for e in c.log()[painted[1]:]}) and 0 in seats
    if play is not None:
        assert play == [e for e in c.log()[painted[1]:] if e["kind"] == "play"][-1]
    # another hand since: nothing of the old one is shown again
    assert page_decisions.moves_seen(c, (c.match.hand_no - 1, 0))[1:] == ([], None)


def test_a_tile_flies_from_its_seat():
    frames, timing = page_decisions.travel((100, 100, 20, 40), (10, 300, 60, 20), 300)
    assert frames[0] == {"transform": "translate(-70.0px, 190.0px) scale(.7)", "opacity": 0.35}
    assert frames[-1]["transform"] == "translate(0px, 0px) scale(1)" and frames[-1]["opacity"] == 1
    assert timing["duration"] == 300


def test_match_files_and_sizes():
    assert page_decisions.too_big(MAX_IMPORT_BYTES + 1) and not page_decisions.too_big(MAX_IMPORT_BYTES)
    assert page_decisions.import_input("m.json", "{}") == {"action": "import", "name": "m.json", "text": "{}"}
    assert page_decisions.import_input("m.json", None) == {"action": "import", "name": "m.json", "error": "size"}
    inp = page_decisions.import_input("x" * 200, None, "NotReadableError " * 20)
    assert len(inp["name"]) == 80 and len(inp["error"]) == 120 and "text" not in inp
    assert page_decisions.board_size(50, 0) == (200, 100) and page_decisions.board_size(900, 500) == (900, 500)
    assert page_decisions.snapshot_size(None) == (800, 500) and page_decisions.snapshot_size((10, 10)) == (200, 160)


def test_the_networks_inputs():
    assert page_decisions.rtc_input("open", 2, None) == {"action": "net-open", "conn": 2}
    assert page_decisions.rtc_input("message", 2, "hi") == {"action": "net-message", "conn": 2, "text": "hi"}
    assert page_decisions.rtc_input("close", 2, "gone") == {"action": "net-close", "conn": 2, "reason": "gone"}
    assert set(page_decisions.RTC_EVENTS) == {"open", "message", "close"}
    offer = {"op": "offer", "seat": 1}
    assert page_decisions.rtc_answer(offer, {"id": 3, "sdp": "v=0"}) == \
        {"action": "net-offer", "seat": 1, "conn": 3, "sdp": "v=0"}
    assert page_decisions.rtc_answer({"op": "answer", "sdp": "x"}, error="e" * 300) == \
        {"action": "net-answer", "seat": None, "error": "e" * 200}
    assert page_decisions.rtc_answer({"op": "accept", "conn": 3, "sdp": "x"}, error="refused") is None
    assert page_decisions.rtc_answer({"op": "accept", "conn": 3, "sdp": "x"}) is None
    share = {"op": "share", "url": "https://x/#j", "title": "Dominoes"}
    assert page_decisions.rtc_answer(share, "copied") == {"action": "net-shared", "how": "copied"}
    assert page_decisions.rtc_answer(share, error="static/rtc.js is missing") == \
        {"action": "net-shared", "how": "failed"}
    # what each command asks of static/rtc.js; only sending and closing are done at once
    assert page_decisions.rtc_call({"op": "send", "conn": 2, "text": "hi"}) == ("send", [2, "hi"])
    assert page_decisions.rtc_call({"op": "close", "conn": 2}) == ("close", [2])
    assert page_decisions.rtc_call(share) == ("share", ["https://x/#j", "Dominoes"])
    assert page_decisions.rtc_call({"op": "accept", "conn": 3, "sdp": "x", "seat": 1}) == ("acceptAnswer", [3, "x"])
    assert page_decisions.rtc_call(offer) == ("createOffer", [])
    assert page_decisions.rtc_call({"op": "answer", "sdp": "x"}) == ("createAnswer", ["x"])
    assert set(page_decisions.RTC_AT_ONCE) == {"send", "close"}
    failed = page_decisions.relay_failed("x" * 300)
    assert failed["action"] == "net-relay" and failed["status"]["state"] == "failed"
    assert len(failed["status"]["error"]) == 200
    join = {"op": "online-join", "rooms": [{"room": "a"}], "relays": ["wss://a"], "ice": [], "role": "host", "seat": 2}
    assert page_decisions.online_call(join) == \
        ("join", [{"rooms": [{"room": "a"}], "relays": ["wss://a"], "ice": [], "role": "host"}])
    assert page_decisions.online_call({"op": "online-rooms", "rooms": [{"room": "b"}]}) == ("rooms", [[{"room": "b"}]])
    for op in ("pause", "resume", "leave"):
        assert page_decisions.online_call({"op": "online-" + op}) == (op, [])
    # a restart closes what the session's link holds and leaves the relays
    s = started()
    assert page_decisions.restart_commands(s) == [{"op": "online-leave"}]
    s.link = type("Link", (), {"connections": lambda self: {3, 1}})()
    assert page_decisions.restart_commands(s) == [{"op": "close", "conn": 1}, {"op": "close", "conn": 3},
                                                  {"op": "online-leave"}]
    assert page_decisions.relay_status({"state": "open", "relays": ["wss://a"]}) == \
        {"action": "net-relay", "status": {"state": "open", "relays": ["wss://a"]}}


def test_root_attributes_follow_the_session():
    s = started()
    attrs = page_decisions.root_attributes(s)
    assert attrs == {"lang": s.lang, "data-net-role": None, "data-seq": str(s.seq()), "data-guide": "0"}


class _Clock:
    def __init__(self):
        self.ms = 0.0

    def __call__(self) -> float:
        return self.ms


def test_the_computers_play_until_a_person_is_to_move():
    s = started({**FORM_2P, "seat-kind-0": "easy", "seat-kind-1": "easy"}, delay="0")
    frames, outs = [], []

    async def frame():
        frames.append(1)

    failed = aio.run(page_decisions.computer_turns(s, s.computers.gen, _Clock(), frame, outs.append))
    assert failed is None and outs and all(o.render and not o.computers for o in outs)
    assert not s.wants_computers()   # the match is over (two computers) or waits for a tap
    assert page_decisions.redraw_after_computers(s, str(s.seq())) == (s.ctrl is None or s.safety.panel is not None)
    assert page_decisions.redraw_after_computers(s, "-1")


def test_a_new_game_stops_the_computers_and_a_failure_is_the_sessions():
    s = started({**FORM_2P, "seat-kind-0": "easy", "seat-kind-1": "easy"}, delay="0")
    outs = []

    async def frame():
        pass

    def apply(out):
        outs.append(out)
        s.computers.gen += 1   # something new started after the first move

    aio.run(page_decisions.computer_turns(s, s.computers.gen, _Clock(), frame, apply))
    assert len(outs) == 1
    s = started({**FORM_2P, "seat-kind-0": "easy"}, fail="turn", delay="0")
    outs = []
    failed = aio.run(page_decisions.computer_turns(s, s.computers.gen, _Clock(), frame, outs.append))
    assert failed and "RuntimeError" in failed
    assert len(outs) == 1 and s.safety.panel[0] == "turn"   # retry or resign, never a dead table
