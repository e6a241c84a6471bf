"""A hand's review: one step of the hand (domino.app.review) with every seat's tiles face up, the table
drawn by the very boards the table uses, the move in words, and the buttons to step and to close."""
from __future__ import annotations

from domino.app import boards
from domino.app.boards.tiles import tile_svg
from domino.app.i18n import t
from domino.app.nodes import Node, h
from domino.app.review import step_words

BOARD = (360, 260)     # the board's drawing size (its viewBox: the page scales it to the card)


def _seat(step: dict, seat: int, pips: str, lang: str) -> Node:
    tiles = step["seat_tiles"][seat]
    n = len(tiles)
    count = t(lang, "review.tiles_one") if n == 1 else (t(lang, "review.tiles_n", n=n) if n else t(lang, "review.no_tiles"))
    turn = (step["action"] or {}).get("seat") == seat
    return h("li", {"class": "review-seat" + (" moved" if turn else ""), "data-testid": "review-seat",
                    "data-seat": seat, "data-tiles": " ".join(tiles)},
             h("span", {"class": "review-name"}, step["names"][seat], " · ", count),
             h("span", {"class": "mini-hand"},
               [h("span", {"class": "mini", "data-tile": tl, "title": tl},
                  tile_svg(tl, style=pips, horizontal=True, label=tl)) for tl in tiles]))


def _step_button(which: str, at: int, last: int, lang: str) -> Node:
    off = (which in ("first", "back") and at == 0) or (which in ("forward", "last") and at == last)
    return h("button", {"type": "button", "class": "primary" if which == "forward" else "secondary",
                        "data-action": "review-step", "data-testid": "review-step", "data-step": which,
                        "aria-disabled": "true" if off else "false", "aria-label": t(lang, f"review.{which}_label")},
             t(lang, f"review.{which}"))


def seal_note(seal: dict | None, lang: str) -> Node | None:
    """The hand's deal seed (the hand is over) and whether the deal matches the fingerprint shown at the deal."""
    if not seal:
        return None
    ok = not seal["problems"]
    if seal.get("guest"):
        words = "review.seal_guest_bad" if not ok else "review.seal_guest_ok" if seal.get("saw") else \
            "review.seal_guest_late"
        return h("div", {"class": "review-seal" + ("" if ok else " warn"), "data-testid": "review-seal",
                         "data-matches": "true" if ok else "false", "data-seed": seal["seed"],
                         "data-fingerprint": seal["fingerprint"], "data-checked-by": "guest",
                         "role": None if ok else "alert"},
                 h("p", {}, t(lang, words)),
                 h("p", {"class": "muted"}, t(lang, "review.seal_seed"), " ", h("code", {"class": "seed"}, seal["seed"])),
                 h("p", {"class": "muted"}, t(lang, "review.seal_fingerprint"), " ",
                   h("code", {"class": "fingerprint"}, seal["fingerprint"])),
                 h("p", {"class": "muted"}, t(lang, "review.seal_how")))
    if not ok and seal.get("before"):
        return h("div", {"class": "review-seal", "data-testid": "review-seal", "data-matches": "before"},
                 h("p", {"class": "muted"}, t(lang, "review.seal_before")))
    return h("div", {"class": "review-seal" + ("" if ok else " warn"), "data-testid": "review-seal",
                     "data-matches": "true" if ok else "false", "data-seed": seal["seed"],
                     "data-fingerprint": seal["fingerprint"], "role": None if ok else "alert"},
             h("p", {}, t(lang, "review.seal_ok" if ok else "review.seal_bad")),
             h("p", {"class": "muted"}, t(lang, "review.seal_seed"), " ", h("code", {"class": "seed"}, seal["seed"])),
             h("p", {"class": "muted"}, t(lang, "review.seal_fingerprint"), " ",
               h("code", {"class": "fingerprint"}, seal["fingerprint"])),
             h("p", {"class": "muted"}, t(lang, "review.seal_how")))


def review_dialog(steps: list[dict], at: int, hand_no: int, by_rounds: bool, pips: str, lang: str,
                  seal: dict | None = None) -> Node:
    """The review at step ``at`` of ``steps`` (0: the deal); ``seal``: the deal checked (review.deal_seal)."""
    step = steps[at]
    last = len(steps) - 1
    view = step["view"]
    words = step_words(step, lang)
    board = boards.board(view, *BOARD, style=pips, me=None, lang=lang)
    board = (board[0], {**board[1], "aria-label": t(lang, "game.board")}, board[2])
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "rv-title"},
             h("div", {"class": "card wide review", "data-testid": "review", "data-step": at, "data-steps": last},
               h("h2", {"id": "rv-title"}, t(lang, "review.title_round" if by_rounds else "review.title",
                                             n=hand_no + 1)),
               h("p", {"class": "muted"}, t(lang, "review.note")),
               h("p", {"class": "review-words", "role": "status", "data-testid": "review-words"},
                 h("strong", {}, t(lang, "review.step", i=at, n=last)), " · ", words),
               h("div", {"class": "review-board", "data-testid": "review-board"}, board),
               h("p", {"class": "muted", "data-testid": "review-boneyard", "data-count": step["boneyard"]},
                 t(lang, "review.boneyard", n=step["boneyard"])),
               h("h3", {}, t(lang, "review.seats")),
               h("ul", {"class": "review-seats"}, [_seat(step, s, pips, lang) for s in range(len(step["names"]))]),
               seal_note(seal, lang),
               h("div", {"class": "buttons review-steps"},
                 [_step_button(w, at, last, lang) for w in ("first", "back", "forward", "last")]),
               h("div", {"class": "buttons"},
                 h("button", {"type": "button", "class": "secondary", "data-action": "review-close",
                              "data-testid": "review-close"}, t(lang, "review.close")))))


def review_failed(hand_no: int, lang: str) -> Node:
    """A friends' hand this guest's phone cannot rebuild: the seed the host revealed and the moves it sent do
    not make it (the table's banner says the deal was not the seed's)."""
    return h("div", {"class": "overlay", "role": "dialog", "aria-modal": "true", "aria-labelledby": "rv-title"},
             h("div", {"class": "card review", "data-testid": "review-failed"},
               h("h2", {"id": "rv-title"}, t(lang, "review.title", n=hand_no + 1)),
               h("p", {"role": "alert"}, t(lang, "review.guest_failed")),
               h("div", {"class": "buttons"},
                 h("button", {"type": "button", "class": "secondary", "data-action": "review-close",
                              "data-testid": "review-close"}, t(lang, "review.close")))))


def review_button(lang: str) -> Node:
    """The hand's end screen's way into the review."""
    return h("button", {"type": "button", "class": "secondary", "data-action": "review-hand",
                        "data-testid": "review-hand"}, t(lang, "review.open"))


def kept_list(kept: dict, lang: str, game_name) -> Node | None:
    """The statistics' list of the last hands, each a button into its review (newest first)."""
    items = kept.get("hands") or []
    if not items:
        return None
    rows = []
    for i in range(len(items) - 1, -1, -1):
        e = items[i]
        label = t(lang, "review.kept_item", game=game_name(e["game"], lang), n=e["hand"] + 1,
                  names=", ".join(str(x) for x in e["names"]))
        rows.append(h("li", {}, h("button", {"type": "button", "class": "secondary", "data-action": "review-kept",
                                             "data-testid": "review-kept", "data-index": i}, label)))
    return h("section", {"class": "review-kept", "aria-labelledby": "rk-title"},
             h("h3", {"id": "rk-title"}, t(lang, "review.kept")),
             h("p", {"class": "muted"}, t(lang, "review.kept_note")),
             h("ul", {"class": "plain"}, rows))
