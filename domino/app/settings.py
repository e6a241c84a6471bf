"""The new-game form's side of the settings: the games in the order the form
lists them, option and seat-kind labels, default names across languages.
The settings themselves (seat kinds, making them valid, the rules and the
match they start) are :mod:`domino.table`'s, shared with the host of play
with friends."""
from __future__ import annotations

import re
from typing import Any

from domino.app.i18n import LANGS, t
from domino.engine.match import HUMAN
from domino.engine.rules import RulesError
from domino.players import LEVELS
from domino.table import REMOTE, catalogue, offered, persona, target_option


def games() -> list[dict]:
    """Every preset the table can show, Draw and Block first."""
    cat = [g for g in catalogue() if offered(g["id"])]
    first = [g for g in cat if g["id"] in ("draw", "block")]
    first.sort(key=lambda g: ("draw", "block").index(g["id"]))
    return first + [g for g in cat if g["id"] not in ("draw", "block")]


def default_target(game: str):
    tg = target_option(game)
    return None if tg is None else tg["default"]


def option_label(lang: str, key: str) -> str:
    return t(lang, "opt." + key)


def option_value_label(lang: str, key: str, value: Any) -> str:
    if key == "hand_size" and isinstance(value, int):
        return t(lang, "opt.hand_size.n", n=value)
    if key == "set":
        return t(lang, "opt.set.n", n=value)
    if isinstance(value, bool):
        return t(lang, "opt.on" if value else "opt.off")
    return t(lang, f"opt.{key}.{value}")


def kind_label(lang: str, kind: str) -> str:
    """"Person", "Computer — Lola (medium)"."""
    if kind in LEVELS:
        name = persona(kind, 0)
        return t(lang, "kind.persona", name=name, level=t(lang, "level." + kind)) if name else \
            t(lang, "kind.other", level=t(lang, "level." + kind))
    if kind in (HUMAN, "random", REMOTE):
        return t(lang, "kind." + kind)
    return t(lang, "kind.other", level=kind)


def rules_error_text(lang: str, e: RulesError) -> str:
    """A RulesError in the player's language (the engine's English as a fallback)."""
    key = "rules." + getattr(e, "code", "")
    params = dict(getattr(e, "params", {}) or {})
    option = params.pop("key", None)
    if option:
        params["option"] = t(lang, "opt." + option)
    text = t(lang, key, **params)
    return str(e) if text == key else text


def is_default_name(name: str, seat: int) -> str | None:
    """The kind of default ("name.player" or "name.computer") that ``name``
    is for ``seat`` in any language; None for a name of the player's own or
    a persona (personas are the same in every language)."""
    for key in ("name.player", "name.computer"):
        if any(name == t(lang, key, n=seat + 1) for lang in LANGS):
            return key
    return None


def localize_names(seats: list, lang: str) -> bool:
    """Rename, in place, every seat still carrying a default name of another
    language ("Player 1" after a switch to Spanish is "Jugador 1"); True when
    a name changed.  A name the player typed or a persona stays."""
    changed = False
    for i, seat in enumerate(seats):
        key = is_default_name(str(seat.get("name", "")), i)
        if key is not None and seat["name"] != t(lang, key, n=i + 1):
            seat["name"] = t(lang, key, n=i + 1)
            changed = True
    return changed


def read_form(settings: dict, form) -> dict:
    """The new-game form's raw values (as the page found them) read into a copy of ``settings``; what is
    missing keeps its value (normalize_settings checks the rest)."""
    if not isinstance(form, dict):
        return settings
    s = dict(settings)
    s["seats"] = [dict(x) for x in s["seats"]]
    if form.get("game") is not None:
        s["game"] = str(form["game"])
    for key in ("players", "target"):
        if form.get(key) is not None:
            try:
                s[key] = int(str(form[key]))
            except ValueError:
                pass
    for key in ("partnership", "practice", "show_options"):
        if form.get(key) is not None:
            s[key] = bool(form[key])
    opts = dict(s.get("options") or {})
    if isinstance(form.get("options"), dict):
        opts.update({str(k): str(v) for k, v in form["options"].items()})   # decoded by normalize_settings
    s["options"] = opts
    for i in range(len(s["seats"])):
        if form.get(f"seat-kind-{i}") is not None:
            s["seats"][i]["kind"] = str(form[f"seat-kind-{i}"])
        if form.get(f"seat-name-{i}") is not None:
            s["seats"][i]["name"] = str(form[f"seat-name-{i}"])
    return s


MAX_URL_SEED = 64       # characters of a ?seed= word


def parse_seed(raw):
    """?seed=: ASCII digits (at most 40: a new match's 128-bit seed has 39) -> int; a short word -> str; anything
    else (--5, ², 5,000 digits) -> (None, False): not used, and the player told."""
    if raw is None or not str(raw).strip():
        return None, True
    s = str(raw).strip()
    if re.fullmatch(r"-?[0-9]{1,40}", s):
        return int(s), True
    if len(s) <= MAX_URL_SEED and re.fullmatch(r"[A-Za-z0-9_.:-]+", s) and re.search(r"[A-Za-z]", s):
        return s, True
    return None, False
