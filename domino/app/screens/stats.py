"""The statistics view: a small table and a bar chart drawn as an SVG tree in plain Python."""
from __future__ import annotations

from domino.app.stats import average, rows
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.screens.menu import _game_name
from domino.table import persona

WON = "#1d7a45"
LOST = "#b3261e"
DRAWN = "#8a8a7a"
INK = "#1f2a22"


def against(levels: str, lang: str) -> str:
    """"Lola (medium)", "Pepe (easy) + Lola (medium)"."""
    out = []
    for lv in levels.split("+") if levels else []:
        name = persona(lv, 0) if lv in ("easy", "medium", "hard") else None
        level = t(lang, "level." + lv) if lv in ("easy", "medium", "hard") else lv
        out.append(f"{name} ({level})" if name else level)
    return " + ".join(out)


def row_label(g: dict, lang: str) -> str:
    return f"{_game_name(g['game'], lang)} · {g['players']}"


def streak_text(n: int, lang: str) -> str:
    if n > 0:
        return t(lang, "stats.streak_w", n=n)
    if n < 0:
        return t(lang, "stats.streak_l", n=-n)
    return t(lang, "stats.streak_none")


def _fmt_avg(g: dict) -> str:
    a = average(g)
    return "—" if a is None else (str(int(a)) if a == int(a) else f"{a:.1f}")


def stats_table(stats: dict, lang: str) -> Node:
    head = [t(lang, "stats.game"), t(lang, "stats.against"), t(lang, "stats.matches"), t(lang, "stats.won"),
            t(lang, "stats.lost"), t(lang, "stats.hands"), t(lang, "stats.best"), t(lang, "stats.avg"),
            t(lang, "stats.streak")]
    body = []
    for g in rows(stats):
        vs = against(g["levels"], lang)
        if g["practice"]:
            vs = t(lang, "stats.practice_row", against=vs)
        body.append(h("tr", {"data-game": g["game"], "data-players": g["players"], "data-levels": g["levels"],
                             "data-practice": "1" if g["practice"] else "0", "data-matches": g["matches"],
                             "data-won": g["won"], "data-lost": g["lost"], "data-hands": g["hands"],
                             "data-best": "" if g["best"] is None else g["best"], "data-streak": g["streak"],
                             "class": "practice" if g["practice"] else None},
                      h("th", {"scope": "row"}, row_label(g, lang)),
                      # data-label: on a phone each row stacks as a card, every
                      # cell named by its column (CSS), so nothing scrolls sideways
                      [h("td", {"data-label": label}, value) for label, value in zip(head[1:], (
                          vs, str(g["matches"]), str(g["won"]), str(g["lost"]),
                          t(lang, "stats.hands_value", n=g["hands"], w=g["hands_won"], l=g["hands_lost"]),
                          "—" if g["best"] is None else str(g["best"]), _fmt_avg(g),
                          streak_text(g["streak"], lang)))]))
    return h("div", {"class": "table-wrap"},
             h("table", {"class": "result stats-table", "data-testid": "stats-table"},
               h("thead", {}, h("tr", {}, [h("th", {"scope": "col"}, x) for x in head])),
               h("tbody", {}, body)))


def chart(stats: dict, lang: str, width: int = 340) -> Node:
    """Won / drawn / lost bars, one per row of the table, scaled to the row
    with the most matches.  Pure SVG (no script, no fonts loaded)."""
    groups = rows(stats)
    bar_h, gap, label_h, pad = 14, 10, 15, 4
    row_h = label_h + bar_h + gap
    height = max(1, len(groups)) * row_h + pad
    most = max([g["matches"] for g in groups] + [1])
    usable = width - 2 * pad - 34
    title = t(lang, "stats.chart")
    parts: list = [h("title", {}, title)]
    y = pad
    for g in groups:
        label = row_label(g, lang) + " · " + (t(lang, "stats.practice_row", against=against(g["levels"], lang))
                                              if g["practice"] else against(g["levels"], lang))
        parts.append(h("text", {"x": pad, "y": y + 11, "font-size": 11, "fill": INK}, label))
        x = pad
        by = y + label_h
        for key, colour in (("won", WON), ("drawn", DRAWN), ("lost", LOST)):
            n = g[key]
            if n <= 0:
                continue
            w = round(usable * n / most, 1)
            parts.append(h("rect", {"x": x, "y": by, "width": w, "height": bar_h, "rx": 3, "fill": colour,
                                    "data-kind": key, "data-n": n}))
            x += w
        parts.append(h("text", {"x": round(x + 4, 1), "y": by + 11, "font-size": 11, "fill": INK},
                       f"{g['won']}–{g['lost']}"))
        y += row_h
    desc = "; ".join(t(lang, "stats.chart_row", label=row_label(g, lang), won=g["won"], lost=g["lost"])
                     for g in groups)
    return h("svg", {"xmlns": "http://www.w3.org/2000/svg", "class": "stats-chart", "data-testid": "stats-chart",
                     "viewBox": f"0 0 {width} {height}", "width": width, "height": height,
                     "role": "img", "aria-label": title + (": " + desc if desc else "")}, parts)


def stats_dialog(stats: dict, lang: str, confirm_reset: bool = False, note: str = "", kept: Node | None = None) -> Node:
    groups = rows(stats)
    if confirm_reset:
        reset = h("div", {"class": "reset-ask", "role": "alert"},
                  h("p", {}, t(lang, "stats.reset_ask")),
                  h("div", {"class": "buttons"},
                    h("button", {"type": "button", "class": "secondary", "data-action": "stats-reset-no",
                                 "data-testid": "stats-reset-cancel"}, t(lang, "stats.reset_no")),
                    h("button", {"type": "button", "class": "danger", "data-action": "stats-reset-yes",
                                 "data-testid": "stats-reset-confirm"}, t(lang, "stats.reset_yes"))))
    else:
        reset = groups and h("button", {"type": "button", "class": "secondary", "data-action": "stats-reset",
                                        "data-testid": "stats-reset"}, t(lang, "stats.reset"))
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "st-title"},
             h("div", {"class": "card wide stats", "data-testid": "stats", "data-groups": len(groups)},
               h("h2", {"id": "st-title"}, t(lang, "stats.title")),
               note and h("p", {"class": "save-error", "role": "alert"}, note),
               h("p", {"class": "summary"}, t(lang, "stats.note")),
               stats_table(stats, lang) if groups else h("p", {"data-testid": "stats-empty"}, t(lang, "stats.empty")),
               groups and h("div", {"class": "chart-wrap"}, chart(stats, lang)),
               kept,
               h("div", {"class": "buttons"}, reset,
                 h("button", {"type": "button", "class": "primary", "data-action": "stats-close",
                              "data-testid": "stats-close"}, t(lang, "stats.close")))))
