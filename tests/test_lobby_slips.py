"""Issue "every name, score and tile readable on a phone", the lobby, menu and
guide part, in CPython: every input goes through Session.handle (MemoryStore)."""
from __future__ import annotations

import re

import pytest

from domino import players
from domino.app import guide, saves, shown, storage
from domino.app.story import live_scores
from domino.app.i18n import MESSAGES
from domino.app.nodes import find, text_of, walk
from domino.app.screens.lobby import new_game_screen, toolbar
from domino.app.session import MemoryStore, Session
from domino.table import COMPANIONS, default_settings, max_seats, normalize_settings, seat_names
from tests.test_session import play_on, run_computers

PATH = "/domino/"
FIVES = {"game": "all-fives", "players": "2", "target": "100", "seat-kind-0": "human", "seat-name-0": "",
         "seat-kind-1": "medium", "seat-name-1": ""}


def session(seed="5", lang="en", store=None) -> Session:
    return Session(store if store is not None else MemoryStore(), PATH, params={"seed": seed},
                   browser_lang=lang)


def saved_match_text(s: Session) -> str:
    return text_of(find(s.screen(), data_testid="saved-match")[0])


# ------------------------------------------------------------ 1. the menu's score is the table's
def test_menu_shows_the_live_score_not_the_one_of_the_last_hand():
    """All Fives, seed 24: Lola opens and scores 10 at once; the hand goes on
    (match.scores still 0-0).  The menu says 10, as the table does."""
    s = session(seed="24")
    s.handle({"action": "start", "form": dict(FIVES)})
    run_computers(s)
    v = s.ctrl.match.view(0)
    assert v["phase"] == "play" and v["scores"] == [0, 0] and live_scores(v) == [0, 10]
    s.handle({"action": "menu"})
    text = saved_match_text(s)
    assert "Player 1 0, Lola 10" in text
    s.handle({"action": "continue"})
    chips = [int(n[1]["data-value"]) for n in walk(s.screen()) if re.fullmatch(r"score-\d", n[1].get("data-testid", ""))]
    assert chips == [0, 10]                                            # what the table shows


# ------------------------------------------------------------ 3. names
def test_a_default_name_follows_the_language_of_the_moment():
    s = session(seed="7")
    s.handle({"action": "start", "form": dict(FIVES, **{"seat-name-1": "Ana"})})
    assert [x["name"] for x in s.ctrl.match.seats] == ["Player 1", "Ana"]
    s.handle({"action": "lang"})
    assert s.lang == "es"
    assert [x["name"] for x in s.ctrl.match.seats] == ["Jugador 1", "Ana"]      # a typed name stays
    assert [x["name"] for x in saves.load(s.store.get(storage.key(PATH, storage.SAVE))).seats] == ["Jugador 1", "Ana"]
    assert "Jugador 1" in text_of(s.screen()) and "Player 1" not in text_of(s.screen())
    s.handle({"action": "lang"})
    assert [x["name"] for x in s.ctrl.match.seats] == ["Player 1", "Ana"]
    # a reload reads the renamed save in the language stored with it
    s.handle({"action": "lang"})
    again = session(seed="7", store=s.store)
    again.load_game()
    assert again.lang == "es" and again.ctrl.match.seats[0]["name"] == "Jugador 1"


def test_the_match_kept_during_the_guide_is_renamed_too():
    s = session(seed="7")
    s.handle({"action": "start", "form": dict(FIVES)})
    s.handle({"action": "menu"})
    s.handle({"action": "guide-start"})
    assert s.ctrl.match.seats[0]["name"] == "Player 1"
    s.handle({"action": "lang"})
    assert s.ctrl.match.seats[0]["name"] == "Jugador 1"                         # the guided hand
    s.handle({"action": "guide-skip"})
    assert s.ctrl.match.seats[0]["name"] == "Jugador 1"                         # the match kept
    assert saves.load(s.store.get(storage.key(PATH, storage.SAVE))).seats[0]["name"] == "Jugador 1"


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_computer_seat_has_a_name_of_its_own(level):
    s = normalize_settings({"game": "mexican-train", "players": max_seats(),
                            "seats": [{"kind": "human", "name": ""}] +
                                     [{"kind": level, "name": ""}] * (max_seats() - 1)})
    names = seat_names(s, "en")
    assert len(names) == max_seats() == len(set(names))
    assert not any(re.search(r"\d", n) for n in names[1:]), names     # no "Lucía 3, Chema 4, Lucía 5"
    assert names[1] == players.PERSONAS[level]["name"]


def test_no_persona_name_is_shared_between_levels():
    every = [players.PERSONAS[k]["name"] for k in COMPANIONS] + [n for v in COMPANIONS.values() for n in v]
    assert len(every) == len(set(every))


def test_a_typed_name_is_not_given_again_to_a_computer():
    s = normalize_settings({"game": "draw", "players": 3, "seats": [
        {"kind": "human", "name": "Lola"}, {"kind": "medium", "name": ""}, {"kind": "medium", "name": ""}]})
    assert seat_names(s, "en") == ["Lola", "Lucía", "Chema"]


def test_placeholders_are_the_names_the_game_gives():
    s = normalize_settings({"game": "draw", "players": 4,
                            "seats": [{"kind": "human", "name": ""}] + [{"kind": "medium", "name": ""}] * 3})
    tree = new_game_screen(s, "es", "coloured")
    ph = [find(tree, data_testid=f"seat-name-{i}")[0][1]["placeholder"] for i in range(4)]
    assert ph == ["Jugador 1", "Lola", "Lucía", "Chema"] == seat_names(s, "es")


# ------------------------------------------------------------ 4. wording that fits everyone
def test_spanish_never_assumes_the_players_gender():
    es = MESSAGES["es"]
    for key in ("handoff.body", "guide.offer_title", "guide.score", "opt.next_opener.winner",
                "opt.after_block.winner", "opt.points.good"):
        assert not re.search(r"\b(listo|lista|nuevo|nueva|el ganador|la ganadora)\b", es[key], re.I), key
    assert "{name}" in es["handoff.body"]


# ------------------------------------------------------------ 5. one tap to play
def test_quick_play_at_the_top_starts_the_last_settings():
    s = session(seed="7")
    s.handle({"action": "change", "field": "game", "form": {"game": "block"}})
    tree = s.screen()
    cards = [n for n in walk(tree) if "card" in n[1].get("class", "").split()]
    assert find(cards[0], data_testid="quick-play") and not find(cards[0], data_testid="start")
    btn = find(tree, data_testid="quick-play")[0]
    assert btn[1]["data-action"] == "start" and "disabled" not in btn[1]
    assert "Block" in text_of(find(tree, data_testid="quick-line")[0])
    assert "Lola" in text_of(find(tree, data_testid="quick-line")[0])
    s.handle({"action": "start"})
    assert s.ctrl is not None and s.ctrl.match.rules.game == "block" and s.at_table()
    # with a match saved: Continue first, then Play, both in the first card
    s.handle({"action": "menu"})
    first = [n for n in walk(s.screen()) if "card" in n[1].get("class", "").split()][0]
    ids = [n[1].get("data-testid") for n in walk(first) if n[1].get("data-testid") in ("continue", "quick-play")]
    assert ids == ["continue", "quick-play"]
    assert "secondary" in find(first, data_testid="quick-play")[0][1]["class"]
    s.handle({"action": "start"})                   # asks before replacing the match
    assert s.confirm_replace


def test_the_table_code_is_folded_and_explained():
    tree = new_game_screen(default_settings(), "es", "coloured")
    box = find(tree, data_testid="lobby-code")[0]
    assert box[0] == "details" and "open" not in box[1] and box[1]["data-code"] == "100pt/ab."
    assert "100pt/ab." in text_of(find(box, data_testid="lobby-toggle")[0])
    assert "100 puntos" in text_of(box) and "No hace falta" in text_of(box)


def test_start_and_the_friends_button_stay():
    tree = new_game_screen(default_settings(), "en", "coloured")
    assert find(tree, data_testid="start") and find(tree, data_testid="play-friends")
    assert find(tree, data_testid="practice")


# ------------------------------------------------------------ 6. the language button's name
@pytest.mark.parametrize("lang", ["en", "es"])
def test_toolbar_names_start_with_their_visible_text(lang):
    bar = toolbar(lang, "coloured", game="draw", seq=None, sound=True)
    for b in walk(bar):
        if b[0] != "button" or "aria-label" not in b[1]:
            continue
        visible = text_of([x for x in b[2] if x[1].get("class") == "tb-text"][0])
        assert b[1]["aria-label"].lower().startswith(visible.lower()), (visible, b[1]["aria-label"])
    lang_btn = find(bar, data_testid="lang")[0]
    # named by its word alone ("Español", in Spanish): on a phone only "ES" shows, and "Cambiar a español"
    # would start with neither; what it does is its title (the accessible description)
    assert "aria-label" not in lang_btn[1] and lang_btn[1]["title"]
    visible = [x for x in lang_btn[2] if x[1].get("aria-hidden") != "true"]
    assert [text_of(x) for x in visible] == [{"en": "Español", "es": "English"}[lang]]


# ------------------------------------------------------------ 7. the guided hand
def _guide_walk(choice: int):
    """The guided hand through the session, the person playing its
    ``choice``-th legal action first (then the first); the steps seen."""
    s = session(seed="1")
    s.handle({"action": "guide-start"})
    seen = [s.guided.step]
    s.handle({"action": "guide-next"})
    s.handle({"action": "guide-next"})
    seen.append(s.guided.step)
    run_computers(s)
    c = s.ctrl
    a = c.legal()[min(choice, len(c.legal()) - 1)]
    s.handle({"action": "tile", "tile": a["play"], "seq": str(c.match.seq)})
    if c.selected:
        s.handle({"action": "end", "end": a["end"], "seq": str(c.match.seq)})
    seen.append(s.guided.step)
    return s, seen


@pytest.mark.parametrize("choice", [0, 1])
def test_the_guided_hand_teaches_drawing(choice):
    s, seen = _guide_walk(choice)
    assert seen == ["hand", "play", "draw"]
    # before the computer's reply the draw step waits: no Next, and Next does nothing
    panel = [x for x in shown.dialogs(s) if x[1].get("data-testid") == "guide"][0]
    assert not find(panel, data_testid="guide-next") and panel[1].get("data-waiting") == "1"
    s.handle({"action": "guide-next"})
    assert s.guided.step == "draw"
    run_computers(s)
    assert guide.person_drew(s.ctrl.match.view(0)) >= 1 and s.ctrl.match.phase == "play"
    panel = [x for x in shown.dialogs(s) if x[1].get("data-testid") == "guide"][0]
    assert find(panel, data_testid="guide-next") and find(panel, data_testid="guide-drew")
    assert "Step 4 of 6" in text_of(panel)
    s.handle({"action": "guide-next"})
    assert s.guided.step == "play_on"
    assert "Step 5 of 6" in text_of([x for x in shown.dialogs(s) if x[1].get("data-testid") == "guide"][0])
    play_on(s, 60)
    assert s.guided.step == "score"
    assert s.focus_target(True) == '[data-action="guide-finish"]'
    s.handle({"action": "next-hand", "seq": str(s.ctrl.match.seq)})   # one way on: the guide ends
    assert s.guided.step is None and s.ctrl is None and not s.at_table()


def test_every_first_play_of_the_guided_deal_leads_to_a_draw():
    from domino.table import new_match
    m = new_match(guide.settings(), guide.SEED, "en")
    assert m.turn == 1
    m.apply(players.get_player(guide.LEVEL)(m.view(1), m.player_rng(1)))
    assert m.view(0)["history"][0]["play"] == "6-6"          # the highest double opens
    assert guide.person_drew(m.view(0)) == 0                  # and the person holds a tile that fits
    for a in m.legal_actions():
        mm = new_match(guide.settings(), guide.SEED, "en")
        mm.apply(players.get_player(guide.LEVEL)(mm.view(1), mm.player_rng(1)))
        mm.apply(a)
        while mm.phase == "play" and mm.turn == 1:
            mm.apply(players.get_player(guide.LEVEL)(mm.view(1), mm.player_rng(1)))
        assert guide.person_drew(mm.view(0)) >= 1 and mm.phase == "play"
