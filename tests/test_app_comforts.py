"""The comforts in CPython: statistics accounting and storage, undo by
rebuilding the match from its record, the guided hand's steps, the menu and
statistics screens, and the bugs fixed with them."""
import json

import pytest

from domino import app, players, table
from domino.app import guide, helptext, stats, storage, undo
from domino.app.boards.tiles import to_svg
from domino.app.i18n import t
from domino.app.screens.display import Display
from domino.app.screens.menu import continue_card, replace_dialog, undo_tools
from domino.app.screens.stats import chart, stats_dialog
from domino.engine.match import Match
from domino.engine.records import to_record
from domino.engine.rules import PRESETS, make_rules


def _vs(game="draw", seed=3, level="easy", n=2, **opts):
    kinds = ["human"] + [level] * (n - 1)
    return Match(make_rules(game, players=n, **opts), seed=seed,
                 seats=[{"name": f"P{i}", "kind": k} for i, k in enumerate(kinds)])


def _computer(m):
    seat = m.turn
    return players.get_player(m.seats[seat]["kind"])(m.view(seat), m.player_rng(seat))


def _person_first(m):
    """The person's policy in these tests: the first play, else what is legal."""
    legal = m.legal_actions()
    return next((a for a in legal if "play" in a), legal[0])


def _play_out(m, until_over=True):
    while not m.outcome:
        if m.phase == "hand-over":
            m.next_hand()
            continue
        m.apply(_person_first(m) if m.seats[m.turn]["kind"] == "human" else _computer(m))
        if not until_over and m.phase != "play":
            return m
    return m


# ------------------------------------------------------------ statistics
def test_two_matches_counted_per_game_players_and_level():
    doc = stats.empty()
    results = []
    for seed in (3, 4):
        m = _play_out(_vs(seed=seed, target=100))
        g = stats.record(doc, m)
        results.append(m)
        assert g is not None
    assert list(doc["groups"]) == ["draw/2/easy"]
    g = doc["groups"]["draw/2/easy"]
    assert g["matches"] == 2
    won = sum(1 for m in results if m.outcome["winner"] == 0)
    assert (g["won"], g["lost"], g["drawn"]) == (won, 2 - won, 0)
    hands = sum(len([r for r in m.records if r["result"]]) for m in results)
    assert g["hands"] == hands
    assert g["hands_won"] + g["hands_lost"] <= hands
    finals = [m.outcome["scores"][0] for m in results]
    assert g["best"] == max(finals) and g["total"] == sum(finals)
    assert stats.average(g) == sum(finals) / 2
    last = ["W" if m.outcome["winner"] == 0 else "L" for m in results]
    assert g["last"] == last
    assert g["streak"] == (2 if last == ["W", "W"] else -2 if last == ["L", "L"] else (1 if last[1] == "W" else -1))
    # a stored copy reads back the same
    assert stats.load(stats.dump(doc)) == doc


def test_streaks_best_and_bad_points():
    doc = stats.empty()
    row = {"game": "muggins", "players": 2, "levels": "hard", "practice": False, "good": False,
           "hands": 3, "hands_won": 2, "hands_lost": 1}
    for res, score in (("W", 40), ("W", 20), ("L", 120), ("L", 101), ("D", 90), ("W", 30)):
        stats._count(doc, dict(row, result=res, score=score))
    g = doc["groups"]["muggins/2/hard"]
    assert g["best"] == 20          # bad points: the lowest final score is the best
    assert g["streak"] == 1 and g["best_streak"] == 2
    assert (g["won"], g["lost"], g["drawn"]) == (3, 2, 1)
    assert g["last"] == ["W", "W", "L", "L", "D", "W"]


def test_practice_counted_apart_and_who_is_counted():
    doc = stats.empty()
    m = _play_out(_vs(seed=5, target=100))
    stats.record(doc, m, practice=True)
    assert list(doc["groups"]) == ["draw/2/easy/practice"]
    assert doc["groups"]["draw/2/easy/practice"]["practice"] is True
    # people against people, computers only, or a match not over: not counted
    hot = Match(make_rules("draw", players=2, target=100), seed=1,
                seats=[{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}])
    assert stats.match_row(_play_out(hot)) is None
    bots = Match(make_rules("draw", players=2, target=100), seed=1,
                 seats=[{"name": "A", "kind": "easy"}, {"name": "B", "kind": "easy"}])
    assert stats.match_row(_play_out(bots)) is None
    assert stats.match_row(_vs(seed=1)) is None
    # two partners against two computers count, for the partners' side
    four = Match(make_rules("draw", players=4, partnership=True, target=100), seed=2,
                 seats=[{"name": "A", "kind": "human"}, {"name": "B", "kind": "medium"},
                        {"name": "C", "kind": "human"}, {"name": "D", "kind": "hard"}])
    m4 = four
    m4.resign(2)
    row = stats.match_row(m4)
    assert row["levels"] == "medium+hard" and row["result"] == "L" and row["players"] == 4


def test_stats_survive_updates():
    """Older formats are migrated; unknown fields of a newer group are kept;
    unreadable text raises StatsError (the browser keeps it aside)."""
    v0 = {"format": "domino-stats/0", "matches": [
        {"game": "draw", "players": 2, "levels": "medium", "practice": False, "good": True,
         "result": "W", "score": 104, "hands": 4, "hands_won": 3, "hands_lost": 1}]}
    doc = stats.load(json.dumps(v0))
    assert doc["format"] == stats.FORMAT
    assert doc["groups"]["draw/2/medium"]["won"] == 1
    doc["groups"]["draw/2/medium"]["future_field"] = [1, 2]
    doc["groups"]["draw/2/medium"]["won"] = "x"   # damaged counter: read as 0
    again = stats.load(json.dumps(doc))
    assert again["groups"]["draw/2/medium"]["future_field"] == [1, 2]
    assert again["groups"]["draw/2/medium"]["won"] == 0
    assert stats.load(None) == stats.empty()
    for bad in ("{", "[]", json.dumps({"format": "domino-stats/99"})):
        with pytest.raises(stats.StatsError):
            stats.load(bad)
    assert storage.key("/domino/", storage.STATS) == "domino:/domino/:stats"


def test_stats_screen_table_and_svg_chart():
    doc = stats.empty()
    stats.record(doc, _play_out(_vs(seed=3, target=100)))
    stats.record(doc, _play_out(_vs(seed=4, target=100, level="hard")), practice=True)
    tree = stats_dialog(doc, "es")
    rows = app.find(tree, data_testid="stats-table")[0]
    trs = [n for n in app.walk(rows) if n[0] == "tr" and "data-game" in n[1]]
    assert [(r[1]["data-levels"], r[1]["data-practice"]) for r in trs] == [("easy", "0"), ("hard", "1")]
    assert "Pepe (fácil)" in app.text_of(trs[0]) and "práctica" in app.text_of(trs[1])
    svg = chart(doc, "en")
    assert svg[0] == "svg" and svg[1]["role"] == "img" and "won" in svg[1]["aria-label"]
    bars = [n for n in app.walk(svg) if n[0] == "rect"]
    g = doc["groups"]["draw/2/easy"]
    assert sum(int(b[1]["data-n"]) for b in bars if b[1]["data-kind"] == "won") == \
        g["won"] + doc["groups"]["draw/2/hard/practice"]["won"]
    assert to_svg(svg).startswith("<svg")
    # empty statistics: a sentence, no table, no reset
    empty = stats_dialog(stats.empty(), "en")
    assert app.find(empty, data_testid="stats-empty") and not app.find(empty, data_testid="stats-reset")


# ------------------------------------------------------------ undo
def _to_person_turn_after_moves(seed, game="draw", person_moves=2):
    m = _vs(game=game, seed=seed)
    made = 0
    while m.phase == "play":
        if m.seats[m.turn]["kind"] == "human":
            if made == person_moves:
                return m
            m.apply(_person_first(m))
            made += 1
        else:
            m.apply(_computer(m))
    return None


@pytest.mark.parametrize("seed", range(1, 9))
def test_undo_gives_back_the_position_the_person_saw(seed):
    m = _vs(seed=seed)
    snaps = []     # the person's view each time they were to move
    while m.phase == "play":
        if m.seats[m.turn]["kind"] == "human":
            snaps.append((json.dumps(m.view(0), sort_keys=True), m.state_key()))
            m.apply(_person_first(m))
        else:
            m.apply(_computer(m))
    # undo back through the whole hand, one decision at a time
    while snaps and undo.can_undo(m):
        back = undo.undo(m)
        view, key = snaps.pop()
        assert json.dumps(back.view(0), sort_keys=True) == view
        assert back.state_key() == key
        assert back.turn == 0 and back.phase == "play" and not back.outcome
        m = back
    assert not snaps
    assert not undo.can_undo(m)


def test_undo_replays_the_same_computer_answers():
    m = _to_person_turn_after_moves(7)
    assert m is not None
    before = to_record(m)
    a = _person_first(m)
    m.apply(a)
    while m.phase == "play" and m.seats[m.turn]["kind"] != "human":
        m.apply(_computer(m))
    after = to_record(m)
    back = undo.undo(m)
    assert to_record(back) == before
    back.apply(a)
    while back.phase == "play" and back.seats[back.turn]["kind"] != "human":
        back.apply(_computer(back))
    assert to_record(back) == after


def test_undo_after_the_hand_ends_and_not_with_two_people():
    m = _play_out(_vs(seed=2, target=500), until_over=False)
    assert m.phase == "hand-over"
    back = undo.undo(m)
    assert back.phase == "play" and back.turn == 0 and back.scores == [0, 0]
    hot = Match(make_rules("draw", players=2), seed=1,
                seats=[{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}])
    hot.apply(hot.legal_actions()[0])
    assert not undo.can_undo(hot)


def test_undo_skips_forced_draws_but_not_a_chosen_draw():
    """A forced draw is the game's, not the person's: undo goes back to the
    play before it."""
    for seed in range(1, 80):
        m = _vs(seed=seed)
        while m.phase == "play":
            if m.seats[m.turn]["kind"] == "human":
                done = m.apply(_person_first(m))
                if any("draw" in d for d in done) and any("play" in d for d in m.view(0)["history"][:-len(done)]
                                                          if d.get("seat") == 0):
                    i = undo.undo_point(m)
                    acts = to_record(m)["hands"][-1]["actions"]
                    assert "play" in acts[i] and acts[i]["seat"] == 0
                    return
            else:
                m.apply(_computer(m))
    pytest.skip("no forced draw found")  # pragma: no cover


def test_practice_meta_and_undo_button():
    m = _to_person_turn_after_moves(5, person_moves=1)
    meta = undo.meta_for(m, True, 2)
    assert undo.meta_applies(undo.load_meta(json.dumps(meta)), m)
    assert not undo.meta_applies(dict(meta, seed=m.seed + 1), m)
    c = app.Controller(m)
    assert undo_tools(c, Display()) == []
    practice = Display(practice=True)
    tools = undo_tools(c, practice)
    btn = [x for x in tools if x[1].get("data-testid") == "undo"][0]
    assert "disabled" not in btn[1]
    screen = app.game_screen(c, practice)
    assert app.find(screen, data_testid="undo") and app.find(screen, data_testid="practice-badge")
    assert app.find(screen, data_testid="menu")


# ------------------------------------------------------------ guide
def test_guide_steps():
    adv = guide.advance
    assert guide.first() == "hand"
    assert adv("hand", "next", phase="play", played=False) == "ends"
    assert adv("ends", "next", phase="play", played=False) == "play"
    assert adv("play", "next", phase="play", played=False) == "play"      # waits for a tile
    assert adv("play", "moved", phase="play", played=False) == "play"
    assert adv("play", "moved", phase="play", played=True) == "draw"
    assert adv("hand", "moved", phase="play", played=True) == "draw"     # played before reading on
    assert adv("draw", "next", phase="play", played=True) == "play_on"
    assert adv("play_on", "moved", phase="play", played=True) == "play_on"
    assert adv("play_on", "moved", phase="hand-over", played=True) == "score"
    assert adv("ends", "moved", phase="hand-over", played=True) == "score"
    assert adv("score", "next", phase="hand-over", played=True) is None
    assert adv("draw", "finish", phase="play", played=True) is None


def test_guided_hand_deal():
    """The fixed seed: the computer opens, the person then has a tile that
    fits, and the panel says each step in both languages."""
    m = table.new_match(guide.settings(), guide.SEED, "en")
    assert m.rules.game == "draw" and m.rules.players == 2
    assert [s["kind"] for s in m.seats] == ["human", guide.LEVEL]
    assert m.turn == 1
    m.apply(_computer(m))
    assert m.turn == 0 and any("play" in a for a in m.legal_actions())
    for lang in ("en", "es"):
        for step in guide.STEPS:
            panel = guide.guide_panel(step, lang)
            assert panel[1]["data-testid"] == "guide" and panel[1]["data-step"] == step
            text = app.text_of(panel)
            assert t(lang, "guide." + step) in text
            ids = {n[1].get("data-testid") for n in app.walk(panel)}
            assert ("guide-next" in ids) == (guide.ADVANCE[step] == "next")
            assert ("guide-skip" in ids) != (step == "score")
    assert set(guide.TARGETS) == set(guide.STEPS)


# ------------------------------------------------------------ menu
def test_menu_continue_card_and_replace_question():
    m = _to_person_turn_after_moves(5, person_moves=1)
    card = continue_card(m, "en", practice=True)
    text = app.text_of(card)
    assert "Draw" in text and "hand 1" in text and "practice" in text
    assert app.find(card, data_testid="continue")
    d = replace_dialog(m, "es")
    assert app.find(d, data_testid="replace-confirm") and "Abierto" in app.text_of(d)
    screen = app.new_game_screen(table.default_settings(), "en", "coloured", top=[card], sound=False)
    assert app.find(screen, data_testid="saved-match")
    assert app.find(screen, data_testid="practice")[0][1].get("checked") is None
    assert app.find(screen, data_testid="sound")[0][1]["aria-pressed"] == "false"
    tb = [n for n in app.walk(screen) if n[1].get("role") == "toolbar"]
    assert tb and tb[0][1]["aria-label"] == "Game tools"
    s = table.normalize_settings({"practice": True})
    assert s["practice"] is True and table.normalize_settings({})["practice"] is False


# ------------------------------------------------------------ bugs
def test_matador_help_has_no_same_number_join():
    same_en = helptext.JOIN_SAME["en"]
    assert same_en not in helptext.help_for("matador", "en")
    assert helptext.JOIN_SAME["es"] not in helptext.help_for("matador", "es")
    assert same_en in helptext.help_for("draw", "en")
    assert not any("same number" in p for p in helptext.help_for("matador", "en"))


def test_spanish_spinner_label():
    assert app.option_label("es", "spinner") != app.option_label("en", "spinner")


def test_hand_result_zero_is_not_a_gain():
    m = _play_out(_vs(seed=2, target=500), until_over=False)
    c = app.Controller(m)
    tree = app.hand_result(c, m.view(0), Display())
    cells = {n[1]["data-seat"]: [x for x in app.walk(n) if "pts" in x[1].get("class", "")][0]
             for n in app.walk(tree) if n[0] == "tr" and "data-seat" in n[1]}
    for seat, cell in cells.items():
        pts = int(app.text_of(cell).lstrip("+"))
        want = "gain" if pts > 0 else "none" if pts == 0 else "loss"
        assert want in cell[1]["class"].split(), (seat, cell)
    assert any("none" in c[1]["class"] for c in cells.values())


def test_lobby_code_says_what_it_is():
    tree = app.new_game_screen(table.default_settings(), "en", "coloured")
    lobby = app.find(tree, data_testid="lobby-code")[0]
    assert "100pt/ab." in app.text_of(lobby) and "game rooms" in app.text_of(lobby)


@pytest.mark.parametrize("game", sorted(PRESETS))
def test_undo_and_statistics_in_every_game(game):
    """Every game: each undo gives back a position the person saw, with the
    person to move; a finished match against the computer is counted."""
    s = table.normalize_settings({"game": game, "players": 2,
                                "seats": [{"kind": "human", "name": ""}, {"kind": "easy", "name": ""}]})
    m = table.new_match(s, 5)
    seen = set()
    moves = 0
    while m.phase == "play" and moves < 12:
        if m.seats[m.turn]["kind"] == "human":
            seen.add(json.dumps(m.view(0), sort_keys=True))
            m.apply(_person_first(m))
            moves += 1
        else:
            m.apply(_computer(m))
    undone = 0
    while undo.can_undo(m):
        m = undo.undo(m)
        assert json.dumps(m.view(0), sort_keys=True) in seen
        assert m.turn == 0 and m.phase == "play"
        undone += 1
    assert undone >= 1
    m.resign(0)
    row = stats.match_row(m)
    assert row["game"] == game and row["result"] == "L" and row["levels"] == "easy"
