"""The table of each board shape, drawn in one place.

``board(view, width, height, ...)`` looks at the view's ``shape`` and draws
it: the line family (``"line"``, :mod:`.line`), Mexican Train's
trains (:mod:`.trains`), Chicken Foot's tree of feet (:mod:`.foot`) or
Frijolito's rows and line (:mod:`.row`); every board's tiles are drawn by
:mod:`.tiles`.  ``end_label`` names a place for a
screen reader and the place buttons; ``board_texts`` gives the words the
boards show.  Pure functions: no browser here.
"""
from __future__ import annotations

from domino.app.boards import foot, line, row, trains
from domino.app.i18n import t

Node = tuple

SHAPES = {"trains": trains.board, "foot": foot.board, "row": row.board}


def shape_of(view: dict) -> str:
    return view.get("shape") or "line"


def board_texts(view: dict, lang: str, me: int | None) -> dict:
    """The words a board shows, in ``lang``."""
    lay = view.get("layout") or {}
    sh = shape_of(view)
    out = {"engine": t(lang, "boards.engine"), "mexican": t(lang, "boards.mexican"),
           "public": t(lang, "boards.public"), "yours": t(lang, "boards.yours"),
           "out": t(lang, "boards.out"), "choose": t(lang, "boards.choose")}
    rounds = lay.get("rounds")
    if rounds:
        out["round"] = t(lang, "boards.round", n=view.get("hand_no", 0) + 1, total=rounds)
    if sh == "trains" and lay.get("open_doubles"):
        first = lay["open_doubles"][0]
        tr = next((x for x in lay.get("trains") or [] if x["id"] == first), None)
        if tr and tr.get("tiles"):
            out["must"] = t(lang, "boards.must_train", tile=tr["tiles"][-1]["tile"])
            out["must_short"] = t(lang, "boards.must_train_short", tile=tr["tiles"][-1]["tile"])
    if sh == "foot" and lay.get("must"):
        out["must"] = t(lang, "boards.must_foot")
    return out


def board(view: dict, width: float, height: float, *, style: str = "coloured",
          targets: dict | None = None, highlight: str | None = None, me: int | None = None,
          lang: str = "en") -> Node:
    """The table of ``view`` as one ``<svg viewBox="0 0 width height">``.
    ``me``: the seat whose tiles are face up (None: nobody's)."""
    draw = SHAPES.get(shape_of(view))
    if draw is None:
        return line.board(view, width, height, style=style, targets=targets, highlight=highlight)
    return draw(view, width, height, style=style, targets=targets, highlight=highlight, me=me,
                texts=board_texts(view, lang, me))


def end_label(view: dict, end: str, tile: str, lang: str, me: int | None = None) -> str:
    """"Play 5-12 on the Mexican train", "… on Ana's train", "… on toe 3 (4)"."""
    if end == trains.MEXICAN:
        return t(lang, "boards.play_mexican", tile=tile)
    if end.startswith("train:"):
        owner = int(end.split(":")[1])
        if owner == me:
            return t(lang, "boards.play_own", tile=tile)
        names = view.get("names") or []
        return t(lang, "boards.play_train", tile=tile, name=names[owner] if owner < len(names) else owner)
    if end.startswith("foot:"):
        k = int(end.split(":")[1])
        value = (view.get("ends") or {}).get(end)
        return t(lang, "boards.play_toe", tile=tile, n=k + 1, value="" if value is None else value)
    if end in ("W", "E", "N", "S"):
        return t(lang, "game.end_label", tile=tile, where=t(lang, "game.end." + end))
    return f"{tile} {end}"


def speaks_for(seg: list[dict]) -> bool:
    """Whether :func:`describe_segment` words this turn (a train or a
    Frijolito turn) rather than the line family's messages."""
    for a in seg:
        if "flip" in a or "peek" in a or "reject" in a:
            return True
        if str(a.get("end") or "").startswith("train:"):
            return True
    return False


def describe_segment(seg: list[dict], names: list[str], lang: str) -> str:
    """One turn in words: "Ana drew 1 and played 5-12 on the Mexican train",
    "Luis turned over 3-5 and played it", "Rita turned over 2-6: back to the
    end of her row"."""
    name = names[seg[0]["seat"]]
    play = next((a for a in seg if "play" in a), None)
    flips = [a for a in seg if "flip" in a]
    reject = next((a for a in seg if "reject" in a), None)
    peek = next((a for a in seg if "peek" in a), None)
    draws = sum(1 for a in seg if "draw" in a)
    if flips or reject or peek:
        turned = flips[-1].get("flip") if flips else None
        if reject is not None:
            key = "boards.msg.reject_up" if reject.get("face_up") else "boards.msg.reject"
            return t(lang, key, name=name, tile=reject["reject"])
        if play is not None:
            if peek is not None and peek.get("peek"):
                return t(lang, "boards.msg.peek_played", name=name, tile=play["play"], peek=peek["peek"])
            if turned:
                return t(lang, "boards.msg.flip_played", name=name, tile=play["play"])
            return t(lang, "msg.played", name=name, tile=play["play"])
        if peek is not None and peek.get("peek"):
            return t(lang, "boards.msg.peeked", name=name, tile=turned or "?", peek=peek["peek"])
        return t(lang, "boards.msg.flipped", name=name, tile=turned or "?")
    if play is not None:
        end = str(play.get("end") or "")
        if end == trains.MEXICAN:
            where = t(lang, "boards.on_mexican")
        elif end == f"train:{seg[0]['seat']}":
            where = t(lang, "boards.on_own")
        else:
            owner = int(end.split(":")[1])
            where = t(lang, "boards.on_train", name=names[owner] if owner < len(names) else owner)
        if draws:
            return t(lang, "boards.msg.drew_played", name=name, n=draws, tile=play["play"], where=where)
        return t(lang, "boards.msg.played", name=name, tile=play["play"], where=where)
    return t(lang, "msg.passes", name=name)


def row_actions(legal: list[dict], view: dict, lang: str) -> list[tuple[str, dict]]:
    """Frijolito's buttons for the seat to move: (words, action)."""
    if shape_of(view) != "row":
        return []
    out: list[tuple[str, dict]] = []
    active = (view.get("layout") or {}).get("active")
    ends = view.get("ends") or {}
    for a in legal:
        if "flip" in a:
            out.append((t(lang, "boards.btn.flip"), a))
    for a in legal:
        if "peek" in a:
            out.append((t(lang, "boards.btn.peek"), a))
    for a in legal:
        if "play" in a and a["play"] == active:
            end = a.get("end")
            if end is None:
                out.append((t(lang, "boards.btn.open", tile=a["play"]), a))
            else:
                out.append((t(lang, "boards.btn.play_end", tile=a["play"],
                              where=t(lang, "game.end." + end), n=ends.get(end, "")), a))
    pair = reject_choice(legal, view, lang)   # face down or face up: the tile is named once, above
    for a in legal:
        if "reject" in a:
            if pair is not None:
                out.append((pair[1][bool(a.get("face_up"))][0], a))
                continue
            key = "boards.btn.reject_up" if a.get("face_up") else "boards.btn.reject"
            out.append((t(lang, key, tile=a["reject"]), a))
    return out


def reject_choice(legal: list[dict], view: dict, lang: str) -> tuple[str, dict] | None:
    """Frijolito, a turned double that does not fit and may go face down or
    face up: the line that names it once, and under each way the words of
    what it does (RULES.md 6: face down it is hidden again and turned over
    when it comes round; face up everyone sees it, and with "doubles
    anywhere" it may be played from where it lies).  None without that choice."""
    rej = [a for a in legal if "reject" in a]
    if shape_of(view) != "row" or len({bool(a.get("face_up")) for a in rej}) < 2:
        return None
    anywhere = (view.get("options") or {}).get("doubles_anywhere")
    return (t(lang, "boards.reject.note", tile=rej[0]["reject"]),
            {False: (t(lang, "boards.reject.down"), t(lang, "boards.reject.down_says")),
             True: (t(lang, "boards.reject.up"),
                    t(lang, "boards.reject.up_says_anywhere" if anywhere else "boards.reject.up_says"))})


def turn_note(view: dict, lang: str) -> str:
    """What the seat to move must know besides "your turn": a double to
    cover, a foot to fill, the extra play after a double."""
    lay = view.get("layout") or {}
    sh = shape_of(view)
    if sh == "trains":
        if lay.get("open_doubles") and (view.get("options") or {}).get("close_doubles", True):
            tr = next((x for x in lay.get("trains") or [] if x["id"] == lay["open_doubles"][0]), None)
            if tr and tr.get("tiles"):
                return " · " + t(lang, "boards.note.cover", tile=tr["tiles"][-1]["tile"])
        if lay.get("again") is not None and lay.get("again") == view.get("turn"):
            return " · " + t(lang, "boards.note.again")
    if sh == "foot" and lay.get("must"):
        return " · " + t(lang, "boards.must_foot")
    return ""


__all__ = ["board", "board_texts", "end_label", "reject_choice", "shape_of", "trains", "foot", "row"]
