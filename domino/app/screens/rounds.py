"""Round by round: how every round of a bad-points match was scored.

Mexican Train, Chicken Foot and Frijolito are played over many rounds and
the lowest total wins; the hand and match results show this table under the
round's own: one row per round with each seat's bad points and running
total, the leader marked, and a note where a 0-0 counted 50 (Chicken Foot).
"""
from __future__ import annotations

from domino.app import boards
from domino.app.i18n import t
from domino.app.nodes import Node, h


def round_results(v: dict) -> list[dict]:
    res = list(v.get("results") or [])
    if v.get("result"):
        res.append(v["result"])
    return [r for r in res if r]


def rounds_table(v: dict, lang: str) -> Node | None:
    """The table of every round so far (None for the line family)."""
    if boards.shape_of(v) == "line":
        return None
    results = round_results(v)
    if not results:
        return None
    names = v["names"]
    n = v["players"]
    head = [h("th", {"scope": "col"}, t(lang, "rounds.round"))]
    head += [h("th", {"scope": "col"}, names[s]) for s in range(n)]
    body = []
    for k, r in enumerate(results):
        pts = r.get("points") or [0] * n
        tot = r.get("totals") or [0] * n
        cells = [h("th", {"scope": "row"}, str(k + 1))]
        for s in range(n):
            cells.append(h("td", {"data-seat-points": s},
                           h("span", {"class": "rp"}, ("+" if pts[s] > 0 else "") + str(pts[s])),
                           h("span", {"class": "rt"}, str(tot[s]))))
        body.append(h("tr", {"data-round": k, "data-points": ",".join(map(str, pts)),
                             "data-totals": ",".join(map(str, tot))}, cells))
    final = results[-1].get("totals") or [0] * n
    low = min(final)
    foot = [h("th", {"scope": "row"}, t(lang, "rounds.total"))]
    foot += [h("td", {"class": "lead" if final[s] == low else None}, str(final[s])
               + (" ★" if final[s] == low else "")) for s in range(n)]
    notes = [t(lang, "rounds.lowest")]
    if v.get("game") == "chicken-foot":
        notes.append(t(lang, "rounds.zero_zero"))
        hands = (v.get("result") or {}).get("hands") or []
        for s, tiles in enumerate(hands):
            if "0-0" in tiles:
                notes.append(t(lang, "rounds.zero_zero_held", name=names[s]))
    return h("div", {"class": "rounds", "data-testid": "rounds"},
             h("div", {"class": "table-wrap"},
               h("table", {"class": "result rounds-table"},
                 h("caption", {}, t(lang, "rounds.title")),
                 h("thead", {}, h("tr", {}, head)),
                 h("tbody", {}, body),
                 h("tfoot", {}, h("tr", {}, foot)))),
             [h("p", {"class": "rounds-note"}, x) for x in notes])
