"""The loading screen, the toolbar and the new-game screen."""
from __future__ import annotations

from domino.app import helptext
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.screens.menu import sound_button, stats_button
from domino.app.settings import games, kind_label, option_label, option_value_label, rules_error_text
from domino.engine.match import HUMAN
from domino.engine.rules import PRESETS, RulesError
from domino.table import (REMOTE, computer_kinds, enc, game_options, normalize_settings, partnership_choice,
                          persona, rules_for, seat_names, target_option)

def loading_screen(lang: str) -> Node:
    return h("div", {"class": "loading"}, t(lang, "app.loading"))


def toolbar(c_lang: str, pips: str, *, game: str | None, seq: int | None, extra: list | None = None,
            sound: bool | None = None) -> Node:
    other = "en" if c_lang == "es" else "es"
    style = t(c_lang, "pips." + pips)
    items = [
        h("button", {"type": "button", "class": "tb", "data-action": "help", "data-testid": "help",
                     "data-game": game}, h("span", {"class": "ico", "aria-hidden": "true"}, "?"),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.help"))),
        h("button", {"type": "button", "class": "tb", "data-action": "lang", "data-testid": "lang",
                     "data-lang": other, "lang": other, "title": t(c_lang, "tb.lang_label")},
          h("span", {"class": "ico", "aria-hidden": "true"}, other.upper()),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.lang"))),
        h("button", {"type": "button", "class": "tb", "data-action": "pips", "data-testid": "pips",
                     "data-pips": pips, "aria-label": t(c_lang, "tb.pips_label", style=style)},
          h("span", {"class": "ico pipdot " + pips, "aria-hidden": "true"}, "⁘"),
          h("span", {"class": "tb-text"}, t(c_lang, "tb.pips", style=style))),
    ]
    if sound is not None:
        items.append(sound_button(c_lang, sound))
    return h("div", {"class": "toolbar", "role": "toolbar", "aria-label": t(c_lang, "tb.label")},
             items + (extra or []))


def new_game_screen(settings: dict, lang: str, pips: str, error: str = "", save_error: str = "", *,
                    top: list | None = None, sound: bool = False, friends: Node | None = None) -> Node:
    """The menu: the new-game form, with ``top`` (the match in progress, the
    guide's offer) above it.  With ``friends`` (the table's panel,
    domino.app.screens.friends) it is the friends' lobby: ``settings`` are
    the table's (seats of kind "remote" are friends' phones) and the panel
    takes the place of Start."""
    s = settings if friends is not None else normalize_settings(settings, lang)
    game = s["game"]
    n = s["players"]
    game_opts = [h("option", {"value": g["id"], "selected": "" if g["id"] == game else None},
                   g["name"][lang] if g["name"][lang] == g["name"]["en"] else f"{g['name'][lang]}")
                 for g in games()]
    player_opts = [h("option", {"value": k, "selected": "" if k == n else None}, str(k))
                   for k in PRESETS[game].choices("players")]
    tgt = target_option(game) or {"values": [], "locked": True}
    target_opts = [h("option", {"value": v, "selected": "" if v == s["target"] else None},
                     t(lang, "new.target_value", points=v)) for v in tgt["values"]]
    kinds = [HUMAN] + computer_kinds() + ([REMOTE] if friends is not None else [])
    rows = []
    named = seat_names(s, lang)   # what a seat left blank is called at the table (Lola, Lucía, Chema)
    for i in range(n):
        seat = s["seats"][i]
        remote = seat["kind"] == REMOTE
        rows.append(h("div", {"class": "seat-row"},
            h("span", {"class": "seat-no", "aria-hidden": "true"}, str(i + 1)),
            h("select", {"data-testid": f"seat-kind-{i}", "data-field": "seat-kind", "data-seat": i,
                         "aria-label": t(lang, "new.kind", n=i + 1)},
              [h("option", {"value": k, "selected": "" if k == seat["kind"] else None}, kind_label(lang, k))
               for k in kinds]),
            h("input", {"type": "text", "data-testid": f"seat-name-{i}", "data-field": "seat-name",
                        "data-seat": i, "value": seat["name"], "maxlength": 24, "autocomplete": "off",
                        "placeholder": named[i] if not seat["name"].strip() else
                                       (t(lang, "name.player", n=i + 1) if seat["kind"] in (HUMAN, REMOTE)
                                        else persona(seat["kind"], 0) or kind_label(lang, seat["kind"])),
                        "readonly": "" if remote else None,
                        "aria-label": t(lang, "new.name", n=i + 1)})))
    part = partnership_choice(game, n)
    part_row = None
    if part != "none":
        part_row = h("label", {"class": "check"},
                     h("input", {"type": "checkbox", "data-testid": "partnership", "data-field": "partnership",
                                 "checked": "" if (part == "fixed" or s["partnership"]) else None,
                                 "disabled": "" if part == "fixed" else None}),
                     t(lang, "new.partnership"))
    options_error = ""
    try:
        code = rules_for(s).lobby_code()
    except RulesError as e:
        code = ""
        options_error = t(lang, "new.invalid", why=rules_error_text(lang, e))
    opt_rows = []
    for o in game_options(game):
        key = o["key"]
        cur = s["options"].get(key, o["default"])
        opt_rows.append(h("label", {"class": "field opt"}, h("span", {}, option_label(lang, key)),
                          h("select", {"data-testid": f"opt-{key}", "data-field": "option", "data-key": key},
                            [h("option", {"value": enc(v), "selected": "" if v == cur and type(v) is type(cur) else None},
                               option_value_label(lang, key, v)) for v in o["values"]])))
    changed = sum(1 for o in game_options(game) if s["options"].get(o["key"], o["default"]) != o["default"])
    options_box = opt_rows and h(
        "details", {"class": "options", "data-testid": "options", "open": "" if s["show_options"] else None},
        h("summary", {"data-testid": "options-toggle"}, t(lang, "new.options"),
          changed > 0 and h("span", {"class": "badge"}, t(lang, "new.options_changed", n=changed))),
        h("div", {"class": "opt-grid"}, opt_rows))
    help_paras = helptext.help_for(game, lang)
    first = None
    if friends is None:   # at the top: Continue (the match in progress), one-tap Play, the guide's offer
        top = list(top or [])
        saved = [x for x in top if isinstance(x, tuple) and x[1].get("data-testid") == "saved-match"]
        quick = quick_play(s, lang, named, disabled=bool(options_error), second=bool(saved))
        first = h("div", {"class": "card top-card"}, saved, quick, [x for x in top if x not in saved])
    elif top:
        first = h("div", {"class": "card top-card"}, top)
    return h("section", {"class": "screen newgame", "data-testid": "new-game"},
        h("header", {"class": "topbar"},
          h("h1", {"class": "brand"}, h("span", {"class": "logo", "aria-hidden": "true"}), t(lang, "app.title")),
          toolbar(lang, pips, game=game, seq=None, sound=sound, extra=[stats_button(lang)])),
        first,
        h("div", {"class": "card"},
          save_error and h("div", {"class": "save-error", "data-testid": "save-error", "role": "alert"}, save_error),
          h("h2", {}, t(lang, "friends.title" if friends is not None else "new.title")),
          friends is not None and h("p", {"class": "summary"}, t(lang, "friends.lead")),
          h("label", {"class": "field"}, h("span", {}, t(lang, "new.game")),
            h("select", {"data-testid": "game", "data-field": "game"}, game_opts)),
          h("p", {"class": "summary"}, help_paras[0]),
          h("div", {"class": "field-row"},
            h("label", {"class": "field"}, h("span", {}, t(lang, "new.players")),
              h("select", {"data-testid": "players", "data-field": "players"}, player_opts)),
            len(tgt["values"]) > 1 and not tgt["locked"] and
            h("label", {"class": "field"}, h("span", {}, t(lang, "new.target")),
              h("select", {"data-testid": "target", "data-field": "target"}, target_opts))),
          part_row,
          h("div", {"class": "seats"}, rows),
          options_box,
          friends,
          friends is None and h("label", {"class": "check practice"},
            h("input", {"type": "checkbox", "data-testid": "practice", "data-field": "practice",
                        "checked": "" if s.get("practice") else None}),
            t(lang, "new.practice")),
          error and h("p", {"class": "error", "role": "alert"}, error),
          friends is None and code and h("details", {"class": "lobby-more", "data-testid": "lobby-code",
                                                     "data-code": code},
            h("summary", {"data-testid": "lobby-toggle"}, t(lang, "new.lobby_title", code=code)),
            h("p", {"class": "lobby"}, t(lang, "new.lobby"))),
          options_error and h("p", {"class": "error", "role": "alert", "data-testid": "options-error",
                                    "id": "options-error"},
                              options_error),
          friends is None and h("div", {"class": "start-row"},
            h("button", {"type": "button", "class": "primary big", "data-testid": "start", "data-action": "start",
                         "disabled": "" if options_error else None,
                         "aria-describedby": "options-error" if options_error else None},
              t(lang, "new.start")),
            h("button", {"type": "button", "class": "secondary", "data-testid": "play-friends",
                         "data-action": "play-friends", "aria-label": t(lang, "friends.play_label")},
              t(lang, "friends.play")),
            h("button", {"type": "button", "class": "secondary", "data-testid": "my-matches",
                         "data-action": "my-matches"}, t(lang, "later.open_list")))))


def quick_play(s: dict, lang: str, names: list[str], *, disabled: bool = False, second: bool = False) -> Node:
    """One tap to play: the settings below as they stand (the last ones, or
    the default game against the computer), said in one line.  It is the
    Start button's action (data-action="start"), so a match in progress is
    asked about first.  ``second``: a match is saved, Continue comes first."""
    g = next((x for x in games() if x["id"] == s["game"]), None)
    game = g["name"][lang] if g else s["game"]
    who = ", ".join(names)
    line = (t(lang, "quick.summary", game=game, target=t(lang, "quick.target", points=s["target"]), names=who)
            if s.get("target") is not None else t(lang, "quick.summary_rounds", game=game, names=who))
    return h("div", {"class": "quick-play"},
             h("button", {"type": "button", "class": ("secondary" if second else "primary") + " quick",
                          "data-testid": "quick-play", "data-action": "start",
                          "aria-describedby": "quick-line", "disabled": "" if disabled else None},
               h("span", {"class": "ico", "aria-hidden": "true"}, "▶"), " ", t(lang, "quick.play")),
             h("p", {"class": "quick-line", "id": "quick-line", "data-testid": "quick-line"}, line),
             h("p", {"class": "quick-or"}, t(lang, "quick.or")))
