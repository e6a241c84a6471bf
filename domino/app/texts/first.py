"""What the first visit's pre-built screen says while a tap waits for the game (domino/app/first.py)."""

EN = {
    "first.pending_start": "Your game starts as soon as it is ready.",
    "first.pending_other": "That happens as soon as the game is ready.",
    "first.code_pending": "Table code: shown when the game is ready",
}

ES = {
    "first.pending_start": "La partida empieza en cuanto el juego esté listo.",
    "first.pending_other": "Eso ocurre en cuanto el juego esté listo.",
    "first.code_pending": "Código de la mesa: se verá cuando el juego esté listo",
}
