"""domino.app.session in CPython: every input goes through Session.handle,
and the answer (Out) and the store say what the page would do."""
from __future__ import annotations

import json

import pytest

from domino.app import saves, snapshot, storage
from domino.app import stats as stats_mod
from domino.app.nodes import find, text_of
from domino.app.session import MemoryStore, Session
from domino.app.settings import default_target

PATH = "/domino/"
FORM_2P = {"game": "draw", "players": "2", "target": "100", "seat-kind-0": "human", "seat-name-0": "Ana",
           "seat-kind-1": "easy", "seat-name-1": "Lola"}


def session(store=None, **params) -> Session:
    return Session(store if store is not None else MemoryStore(), PATH, params={"seed": "7", **params},
                   browser_lang="es-ES")


def started(form=FORM_2P, store=None, **params) -> Session:
    s = session(store, **params)
    out = s.handle({"action": "start", "form": dict(form)})
    assert out.render and s.ctrl is not None
    return s


def run_computers(s: Session, limit: int = 200) -> int:
    """What the page's loop does: think, then give the move to handle."""
    n = 0
    while s.wants_computers() and n < limit:
        out = s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
        assert out.render
        n += 1
    return n


def saved(s: Session):
    return saves.load(s.store.get(storage.key(PATH, storage.SAVE)))


def person_tap(s: Session):
    """The person plays their first legal action as a player would: a tap on
    the tile, then on the place when it fits several (or the draw button)."""
    c = s.ctrl
    a = c.legal()[0]
    seq = str(c.match.seq)
    if "play" not in a:
        return s.handle({"action": "draw", "seq": seq})
    out = s.handle({"action": "tile", "tile": a["play"], "seq": seq})
    if c.selected:
        assert out.render and c.match.seq == int(seq)   # waiting for the place
        out = s.handle({"action": "end", "end": a["end"], "seq": seq})
    return out


def play_on(s, limit: int, stop=lambda s: False) -> None:
    """Up to ``limit`` moves of the hand (the computers', the person's first
    choice), until it ends or ``stop(s)``."""
    for _ in range(limit):
        if s.ctrl.match.phase != "play" or stop(s):
            return
        if s.wants_computers():
            run_computers(s, 1)
        else:
            person_tap(s)


def test_start_reads_the_form_and_saves_before_answering():
    s = started()
    m = s.ctrl.match
    assert [x["name"] for x in m.seats] == ["Ana", "Lola"]
    assert [x["kind"] for x in m.seats] == ["human", "easy"]
    assert saved(s).state_key() == m.state_key()
    assert json.loads(s.store.get(storage.key(PATH, storage.SETTINGS)))["new"]["seats"][0]["name"] == "Ana"


def test_a_tap_a_computer_move_and_the_save_go_one_way():
    s = started()
    for _ in range(30):
        if s.ctrl.match.phase != "play":
            break
        if s.wants_computers():
            run_computers(s, 1)
        else:
            before = s.ctrl.match.seq
            out = person_tap(s)
            assert s.ctrl.match.seq > before and out.render
        assert saved(s).state_key() == s.ctrl.match.state_key()   # saved before the answer


def test_stale_disabled_and_busy_taps_change_nothing():
    s = started()
    if s.wants_computers():
        run_computers(s, 1)
    c = s.ctrl
    key = c.match.state_key()
    tile = next(a["play"] for a in c.legal() if "play" in a)
    for inp in ({"action": "tile", "tile": tile, "seq": str(c.match.seq + 1)},
                {"action": "tile", "tile": tile, "seq": str(c.match.seq), "disabled": True}):
        out = s.handle(inp)
        assert not out.render and c.match.state_key() == key
    s.computers.running = True     # a computer thinking: only the looks may change
    assert not s.handle({"action": "tile", "tile": tile, "seq": str(c.match.seq)}).render
    assert s.handle({"action": "lang"}).render and s.lang == "en"
    assert c.match.state_key() == key


def test_a_move_for_an_old_gen_is_dropped():
    s = started({**FORM_2P, "seat-kind-0": "easy"})    # computers only
    gen = s.computers.gen
    move = s.computers.think().step(10_000)
    s.handle({"action": "menu"})             # leaving the table stops the thinking
    assert s.computers.gen != gen and not s.wants_computers()
    seq = s.ctrl.match.seq
    s.handle({"action": "computer-move", "move": move, "gen": gen})
    assert s.ctrl.match.seq == seq
    out = s.handle({"action": "continue"})
    assert out.computers and s.wants_computers()


def test_another_tab_stops_this_one_and_asks():
    s = started()
    other = saves.dump(s.ctrl.match, "someone-else")
    s.store.set(storage.key(PATH, storage.SAVE), other)
    out = s.handle({"action": "storage", "key": storage.key(PATH, storage.SAVE)})
    assert out.render and s.safety.panel[0] == "other-match" and not s.wants_computers()
    assert find(s.screen(), **{"data-testid": "other-tab"})
    # a tap on the table is held back by the dialog; its own answer goes through
    assert not s.handle({"action": "hint"}).render
    s.handle({"action": "keep-mine"})
    assert s.safety.panel is None and saves.header(s.store.get(storage.key(PATH, storage.SAVE)))[0] == s.match_id


def test_storage_full_is_said_and_nothing_is_lost():
    store = MemoryStore()
    s = started(store=store)
    store.set("domino:/domino/:corrupt:old", "x" * 0)   # an old corrupt copy: Free space is offered
    store.quota = sum(len(k) + len(v) for k, v in store.data.items()) + 10   # nearly full now
    play_on(s, 10, stop=lambda s: bool(s.safety.panel))
    assert s.safety.panel == ("full", None) and s.safety.save_failed
    assert s.wants_computers() or s.ctrl.my_turn() or s.ctrl.match.phase != "play"   # the table goes on
    store.quota = None
    out = s.handle({"action": "free-space"})
    assert out.render and s.safety.panel is None and saved(s).state_key() == s.ctrl.match.state_key()


def test_corrupt_save_is_kept_aside_and_reported():
    store = MemoryStore()
    store.set(storage.key(PATH, storage.SAVE), '{"format": "domino-save/1", "match": [')
    s = session(store)
    s.load_game()
    assert s.ctrl is None and s.save_error
    kept = storage.corrupt_keys(store.keys(), PATH)
    assert len(kept) == 1 and store.get(kept[0]).endswith('"match": [')
    assert store.get(storage.key(PATH, storage.SAVE)) is None


def test_reload_resumes_the_same_match():
    store = MemoryStore()
    s = started(store=store)
    run_computers(s)
    person_tap(s)
    again = session(store)
    again.load_game()
    assert again.ctrl.match.state_key() == s.ctrl.match.state_key() and again.match_id == s.match_id


def test_undo_in_practice_only():
    s = started({**FORM_2P, "practice": True})
    run_computers(s)
    before = s.ctrl.match.seq
    person_tap(s)
    run_computers(s)
    out = s.handle({"action": "undo"})
    assert out.render and s.ctrl.match.seq == before and s.undos == 1
    assert json.loads(s.store.get(storage.key(PATH, storage.META)))["undos"] == 1
    plain = started()
    run_computers(plain)
    person_tap(plain)
    seq = plain.ctrl.match.seq
    plain.handle({"action": "undo"})
    assert plain.ctrl.match.seq == seq


def test_resign_ends_the_match_and_counts_it_once():
    s = started()
    s.handle({"action": "resign"})
    assert s.ctrl.confirm_resign
    s.handle({"action": "resign-yes"})
    assert s.ctrl.match.outcome and saved(s).outcome
    doc = stats_mod.load(s.store.get(storage.key(PATH, storage.STATS)))
    assert [(g["matches"], g["lost"]) for g in doc["groups"].values()] == [(1, 1)]
    s.handle({"action": "new-match"})
    assert s.ctrl is None and s.store.get(storage.key(PATH, storage.SAVE)) is None and s.last_match is not None


def test_guided_hand_is_never_saved_and_gives_back_the_match():
    s = started()
    key = s.store.get(storage.key(PATH, storage.SAVE))
    s.handle({"action": "guide-start"})
    assert s.guided.step is not None and s.ctrl.match.rules.game == "draw"
    run_computers(s)
    person_tap(s)
    assert s.store.get(storage.key(PATH, storage.SAVE)) == key
    s.handle({"action": "guide-skip"})
    assert s.guided.step is None and s.menu_open and s.store.get(storage.key(PATH, storage.SAVE)) == key


def test_export_and_import_round_trip():
    s = started()
    run_computers(s)
    person_tap(s)
    out = s.handle({"action": "export"})
    (name, text), = out.downloads
    assert name.endswith(".json") and out.live
    t = session()
    t.handle({"action": "import", "name": name, "text": text})
    assert t.ctrl.match.state_key() == s.ctrl.match.state_key() and t.safety.notes
    bad = session()
    bad.handle({"action": "import", "name": "x.json", "text": "{nope"})
    assert bad.ctrl is None and "x.json" in bad.safety.notes[0]
    big = session()
    big.handle({"action": "import", "name": "big.json", "error": "size"})
    assert big.ctrl is None and big.safety.notes


def test_escape_closes_a_note_but_never_chooses_in_a_dialog_of_choices():
    s = session(seed="--5")                 # a seed that was not used: a note told once
    assert s.safety.notes and find(s.screen(), data_testid="safe-note")
    s.handle({"action": "help", "game": "draw"})          # the page behind the note answers nothing
    assert s.comforts.help_game is None
    out = s.handle({"action": "escape"})
    assert out.render and not s.safety.notes and not find(s.screen(), data_testid="safe-note")
    # a dialog with choices (the storage is full): Escape leaves it up, the match as it was
    store = MemoryStore()
    t = started(store=store)
    t.safety.panel = ("full", None)
    before = t.ctrl.match.seq
    t.handle({"action": "escape"})
    assert t.safety.panel == ("full", None) and t.ctrl.match.seq == before
    assert find(t.screen(), data_testid="save-error")


def test_form_changes_keep_the_choices_and_a_new_game_takes_its_defaults():
    s = session()
    out = s.handle({"action": "change", "field": "seat-name", "form": {"seat-name-0": "Pilar"}})
    assert not out.render and s.new_settings["seats"][0]["name"] == "Pilar"
    out = s.handle({"action": "change", "field": "game", "form": {"game": "all-fives"}, "testid": "game"})
    assert out.render and out.focus == '[data-testid="game"]'
    assert s.new_settings["game"] == "all-fives" and s.new_settings["target"] == default_target("all-fives")
    names = [n[1].get("value") for n in find(s.screen(), **{"data-testid": "seat-name-0"})]
    assert names == ["Pilar"]


def test_screen_menu_has_file_controls_and_the_table_its_board():
    s = session()
    menu = s.screen()
    assert find(menu, **{"data-testid": "import-file"}) and not find(menu, **{"data-testid": "export"})
    s = started()
    s.handle({"action": "menu"})
    assert find(s.screen(), **{"data-testid": "export"})
    s.handle({"action": "continue"})
    table = s.screen()
    assert find(table, id="board") and s.seq() == s.ctrl.match.seq
    assert s.live_text()


def test_snapshot_is_stored_once_per_position():
    s = started()
    s.snapshot((400, 300))
    text = s.store.get(storage.key(PATH, storage.SNAPSHOT))
    assert json.loads(text)["format"] == snapshot.FORMAT
    s.store.delete(storage.key(PATH, storage.SNAPSHOT))
    s.snapshot((400, 300))
    assert s.store.get(storage.key(PATH, storage.SNAPSHOT)) is None     # the same position: not built again
    run_computers(s)
    person_tap(s)
    s.snapshot((400, 300))
    assert s.store.get(storage.key(PATH, storage.SNAPSHOT)) is not None


def test_a_failed_computer_turn_offers_retry():
    s = started({**FORM_2P, "seat-kind-0": "easy"}, fail="turn")
    with pytest.raises(RuntimeError):
        s.computers.think()
    out = s.handle({"action": "computer-failed", "gen": s.computers.gen, "error": "RuntimeError: boom"})
    assert out.render and s.safety.panel[0] == "turn" and "boom" in text_of(s.screen())
    out = s.handle({"action": "turn-retry"})
    assert s.safety.panel is None and out.computers and s.wants_computers()


def test_sound_on_is_heard_on_the_tap_and_each_play():
    s = started()
    out = s.handle({"action": "sound"})
    assert out.sounds == ["click"]
    run_computers(s)
    out = person_tap(s)
    assert out.sounds in (["click"], [])   # a draw makes no sound


def test_at_delay_zero_the_snapshot_waits_for_the_computers_to_stop():
    """?delay=0 (tests, benchmarks): the computers' moves follow one another
    with no pause, so the screen a reload paints is built once where they
    stop (the person's turn), not after each of their moves."""
    form = {"game": "draw", "players": "4", "target": "100", "seat-kind-0": "human", "seat-kind-1": "easy",
            "seat-kind-2": "easy", "seat-kind-3": "easy"}
    s = started(form, delay="0")
    key = storage.key(PATH, storage.SNAPSHOT)
    built = 0
    for _ in range(6):          # until a run of two computer moves or more (the deal decides who opens)
        while not s.wants_computers():
            person_tap(s)
        s.computers.running = True   # the page's loop, as domino/browser.py runs it
        built = 0
        while s.wants_computers():
            s.store.delete(key)
            s.handle({"action": "computer-move", "move": s.computers.think().step(10_000), "gen": s.computers.gen})
            s.snapshot((400, 300))
            if s.wants_computers():
                assert s.store.get(key) is None
            built += 1
        s.computers.running = False
        if built >= 2:
            break
    assert built >= 2 and s.store.get(key) is not None   # where the computers stop: the person's turn


def test_every_input_named_is_answered_by_a_method_whatever_the_link():
    """Each name a part marks with @answers resolves, on a live session and its parts, to a method: an attribute
    of the same name (``save_later``, a flag) must never hide the method that answers the tap."""
    from domino.app.link.hosting import Hosting
    from domino.app.link.joining import Joining
    from domino.app.session import answered

    s = Session(MemoryStore(), PATH)
    s.handle({"action": "play-friends"})
    assert isinstance(s.link, Hosting)
    guest = Session(MemoryStore(), PATH, params={"join": "join=2.x.bad"})
    assert isinstance(guest.link, Joining)
    for session in (Session(MemoryStore(), PATH), s, guest):
        for part in (session, session.link, session.comforts, session.guided):
            for name, attr in part.ANSWERS.items():
                assert callable(part.answer(name)), (type(part).__name__, name, attr)
    assert answered() >= {"tile", "save-later", "play-friends", "guest-answer", "net-tick", "guide-finish"}
