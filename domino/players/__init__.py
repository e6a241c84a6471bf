"""Computer players, by kind.  A player is ``choose(view, rng) -> action``:
it gets the seat view from the engine and its own generator, nothing else
(it never sees the full state), and returns one of ``view["legal"]``."""
from __future__ import annotations

import random
from typing import Callable

Chooser = Callable[[dict, random.Random], dict]


def random_player(view: dict, rng: random.Random) -> dict:
    return rng.choice(view["legal"])


#: The computer levels, weakest first.  Their code (domino.players.levels) is imported on
#: first use, so the browser shows its first screen without compiling it.
LEVELS = ("easy", "medium", "hard")
COMPUTER_KINDS = ("random",) + LEVELS

PLAYERS: dict[str, Chooser] = {"random": random_player}


def load_levels() -> dict[str, Chooser]:
    """Import domino.players.levels and register its levels (once)."""
    if "easy" not in PLAYERS:
        from domino.players.levels import LEVELS as levels
        PLAYERS.update(levels)
    return PLAYERS

#: Who sits behind each level: a name of our own and one line (en / es).
PERSONAS: dict[str, dict[str, str]] = {
    "easy": {"name": "Pepe",
             "en": "Plays for fun: gets rid of the heavy tiles and hopes for the best.",
             "es": "Juega por diversión: suelta las fichas gordas y a ver qué pasa."},
    "medium": {"name": "Lola",
               "en": "A club player: counts the tiles, remembers who passed and blocks when ahead.",
               "es": "Jugadora de club: cuenta las fichas, recuerda quién pasó y tranca si va ganando."},
    "hard": {"name": "Don Ramón",
             "en": "Has seen it all: weighs every hand you could be holding before he plays.",
             "es": "Lo ha visto todo: piensa en todas las manos que puedes tener antes de jugar."},
}


def get_player(kind: str) -> Chooser:
    if kind not in COMPUTER_KINDS:
        raise ValueError(f"unknown player kind {kind!r}; kinds: {', '.join(COMPUTER_KINDS)}")
    return load_levels()[kind]


def play_turn(match, kind: str) -> list[dict]:
    """Let a computer seat move: view -> choose -> apply.  Returns what happened."""
    seat = match.turn
    action = get_player(kind)(match.view(seat), match.player_rng(seat))
    return match.apply(action)
