"""Rules help for each game, in Spanish and English (written from RULES.md).

``help_for(game, lang) -> list[str]`` gives the paragraphs to show: the
common ground, the game's own rules and the fair-play note.
"""
from __future__ import annotations

COMMON = {
    "en": [
        "Doubles are placed crosswise. If a tile fits two ends, you choose.",
        "If you can play you must play. When you cannot, the app draws or passes for you and says so.",
        "The hand ends when a player plays their last tile (domino) or when nobody can play or draw (blocked).",
        "Play passes to the next seat. At four players, partners sit opposite (seats 1+3 against 2+4) and score together.",
        "Resigning loses the match for your side.",
    ],
    "es": [
        "Los dobles se ponen cruzados. Si una ficha cabe en dos puntas, eliges tú.",
        "Si puedes jugar, tienes que jugar. Si no puedes, la aplicación roba o pasa por ti y lo indica.",
        "La mano termina cuando alguien pone su última ficha (dominó) o cuando nadie puede jugar ni robar (tranque).",
        "El turno pasa al siguiente puesto. Con cuatro jugadores, las parejas se sientan enfrente (puestos 1+3 contra 2+4) y suman juntas.",
        "Quien se rinde pierde la partida para su bando.",
    ],
}

#: How tiles join, for every game whose tiles join by the same number (not Matador's).
JOIN_SAME = {
    "en": "A tile is played against an open end showing the same number; its other half becomes the new open end.",
    "es": "Cada ficha se pone junto a una punta abierta con el mismo número; su otra mitad pasa a ser la punta abierta.",
}

FAIR = {
    "en": "Fair play: shuffles are never steered — every deal is random — and the computer sees only its own tiles "
          "and what has been played, never your hand or the boneyard.",
    "es": "Juego limpio: el barajado nunca se amaña —cada reparto es al azar— y la computadora solo ve sus propias "
          "fichas y lo que se ha jugado, nunca tu mano ni el pozo.",
}

GAMES: dict[str, dict[str, list[str]]] = {
    "draw": {
        "en": ["Draw: double-6, 2 to 4 players, 7 tiles each. A player who cannot play draws from the boneyard "
               "until a tile fits; with the boneyard empty, passes.",
               "The player who goes out scores the pips left in the opponents' hands. Blocked: the lowest count wins "
               "and takes the others' pips; if the lowest count is shared, nobody scores.",
               "The highest double opens the first hand; later the winner opens with any tile. First to the target (100 by default) wins."],
        "es": ["Abierto: doble 6, de 2 a 4 jugadores, 7 fichas cada uno. Quien no puede jugar roba del pozo hasta "
               "que le quepa una ficha; con el pozo vacío, pasa.",
               "Quien dominó se anota los puntos que quedan en las manos de los rivales. Tranque: gana la cuenta más "
               "baja y se lleva los puntos de los demás; si la más baja está empatada, nadie puntúa.",
               "El doble más alto abre la primera mano; después abre el ganador con cualquier ficha. Gana quien llega primero a la meta (100 por defecto)."],
    },
    "block": {
        "en": ["Block: as Draw, but nobody draws — a player who cannot play passes.",
               "Going out scores the opponents' pips; blocked: the lowest count wins and takes the others' pips "
               "(a shared lowest count scores nothing). The winner of a hand opens the next one."],
        "es": ["Cerrado: como el Abierto, pero nadie roba: quien no puede jugar, pasa.",
               "Dominar da los puntos de los rivales; en un tranque gana la cuenta más baja y se lleva los puntos de los "
               "demás (si la más baja está empatada, nadie puntúa). El ganador de una mano abre la siguiente."],
    },
    "all-fives": {
        "en": ["All Fives: as Draw, with a spinner — the first double can be played on all four sides once both of its "
               "line sides are covered.",
               "After each play, if the open ends add up to a multiple of 5, the player scores that total (shown as +10 and so on).",
               "Going out scores the opponents' pips rounded to the nearest 5. The match ends the moment a side reaches the target, even mid-hand."],
        "es": ["De cincos: como el Abierto, con cruce: el primer doble se puede jugar por sus cuatro lados cuando sus "
               "dos lados en línea tienen ficha.",
               "Tras cada jugada, si las puntas suman un múltiplo de 5, quien jugó se anota ese total (se muestra como +10, etc.).",
               "Dominar da los puntos de los rivales redondeados al 5 más cercano. La partida termina en cuanto un bando llega a la meta, aunque sea a media mano."],
    },
    "classic": {
        "en": ["Classic 50: 2 players with 7 tiles (or 4 in partnership with 5), draw until playable, to 50 points.",
               "Going out scores the opponent's pips rounded to the nearest 5. Blocked: the lower count scores the "
               "difference, rounded; equal counts score nothing."],
        "es": ["Clásico 50: 2 jugadores con 7 fichas (o 4 por parejas con 5), se roba hasta poder jugar, a 50 puntos.",
               "Dominar da los puntos del rival redondeados al 5 más cercano. Tranque: la cuenta más baja se anota la "
               "diferencia, redondeada; con cuentas iguales nadie puntúa."],
    },
    "latin": {
        "en": ["Latin partnership: 7 tiles each; 2 players keep a boneyard of 14, 3 players 7, 4 players (always partners) none.",
               "A hand with 4 or more doubles is redealt. The 6-6 opens the first hand; later the next seat opens with any tile.",
               "Going out scores the rivals' pips (a partner's tiles never count). Blocked: the lowest hand (pairs add up) wins; "
               "individuals tied compare their lowest tiles. To 100 (or 50)."],
        "es": ["Dominó latino: 7 fichas cada uno; con 2 jugadores quedan 14 en el pozo, con 3 quedan 7, con 4 (siempre por parejas) ninguna.",
               "Si a alguien le tocan 4 dobles o más, se reparte de nuevo. El 6-6 abre la primera mano; después abre el siguiente con cualquier ficha.",
               "Dominar da los puntos de los rivales (las fichas del compañero no cuentan). Tranque: gana la mano más baja "
               "(las parejas suman); en un empate individual se comparan las fichas más bajas. A 100 (o 50)."],
    },
    "muggins": {
        "en": ["Muggins with bad points: the highest double opens every hand; draw until playable.",
               "At the end of a hand each player adds their own remaining pips to their total; whoever went out adds 0. "
               "When anyone reaches 100 the match ends and the lowest total wins."],
        "es": ["Muggins con puntos malos: el doble más alto abre cada mano; se roba hasta poder jugar.",
               "Al final de la mano cada jugador suma a su total los puntos que le quedan; quien dominó suma 0. "
               "Cuando alguien llega a 100 termina la partida y gana el total más bajo."],
    },
    "los-cincos": {
        "en": ["Los Cincos: the highest double opens every hand and is the spinner.",
               "A play that makes the open ends a multiple of 5 scores the total divided by 5 (5 gives 1, 10 gives 2).",
               "Going out scores the others' pips divided by 5, rounded. Match to 200."],
        "es": ["Los Cincos: el doble más alto abre cada mano y hace de cruce.",
               "Una jugada que deja las puntas en un múltiplo de 5 se anota el total dividido entre 5 (5 da 1, 10 da 2).",
               "Dominar da los puntos de los demás divididos entre 5, redondeados. Partida a 200."],
    },
    "matador": {
        "en": ["Matador: double-9 by default. A join must make the touching halves add up to 10 (7 with double-6).",
               "Matadors (tiles adding up to 10, and 0-0) can be played on any end at any time; a blank end accepts only a matador.",
               "If your only plays are matadors you may draw instead. Scored with bad points, like Muggins: lowest total wins."],
        "es": ["Matador: doble 9 por defecto. Al unir, las mitades que se tocan deben sumar 10 (7 con doble 6).",
               "Los matadores (fichas que suman 10, y el 0-0) se juegan en cualquier punta y en cualquier momento; una punta blanca solo admite matador.",
               "Si solo puedes jugar matadores, puedes robar en su lugar. Se cuenta con puntos malos, como en Muggins: gana el total más bajo."],
    },
    "mexican-train": {
        "en": ["Mexican Train: double-12 by default (double-9 for up to 4 players, or double-15), 2 to 8 players. "
               "Round 1's engine, the 12-12, is set in the middle; each round uses the next lower double, down to 0-0 "
               "(13 rounds). For a shorter match, play fewer rounds (option \"Rounds\": from 6-6 down to 0-0, for example).",
               "Each player has a train of their own starting at the engine; the Mexican train is shared: anyone may "
               "start or extend it. On your turn play one tile on your own train, on the Mexican train or on any open "
               "train (one with a marker).",
               "A double gives you another play, and it must be covered before anything else is played: each player "
               "in turn tries; who cannot draws one tile and, still unable, passes and marks their train open.",
               "Cannot play at all: draw one tile; still unable: pass, and your train gets the marker (open to "
               "everyone) until you play on it again.",
               "The round ends when someone plays their last tile or nobody can play. Everyone adds the pips left in "
               "their own hand; after the last round the lowest total wins.",
               "Options: the holder of the round's double opens by playing it; double chains (a double, then another "
               "double on another train); doubles need not be covered; no boneyard; no Mexican train."],
        "es": ["Tren mexicano: doble 12 por defecto (doble 9 hasta 4 jugadores, o doble 15), de 2 a 8 jugadores. "
               "La máquina de la ronda 1, el 12-12, va en el centro; cada ronda usa el doble siguiente hacia abajo, "
               "hasta el 0-0 (13 rondas). Para una partida más corta, juega menos rondas (opción \"Rondas\": del 6-6 al 0-0, por ejemplo).",
               "Cada jugador tiene su propio tren, que sale de la máquina; el tren mexicano es de todos: cualquiera "
               "puede empezarlo o alargarlo. En tu turno pones una ficha en tu tren, en el mexicano o en cualquier "
               "tren abierto (con marcador).",
               "Un doble te da otra jugada y hay que cubrirlo antes de jugar en otro sitio: cada jugador por turno lo "
               "intenta; quien no puede roba una ficha y, si sigue sin poder, pasa y abre su tren.",
               "Si no puedes jugar, robas una ficha; si sigues sin poder, pasas y tu tren recibe el marcador (abierto a "
               "todos) hasta que vuelvas a jugar en él.",
               "La ronda termina cuando alguien pone su última ficha o nadie puede jugar. Cada uno suma los puntos que "
               "le quedan en la mano; tras la última ronda gana el total más bajo.",
               "Opciones: quien tiene el doble de la ronda abre jugándolo; dobles encadenados (un doble y luego otro "
               "en otro tren); no hace falta cubrir los dobles; sin pozo; sin tren mexicano."],
    },
    "chicken-foot": {
        "en": ["Chicken Foot: double-9 (or double-12), 2 to 8 players, hands by the formula. The round's double is set "
               "in the middle and the next 6 plays must go on it, 3 on each side, diagonally: the first chicken foot.",
               "A double played later lies crosswise and the next 3 plays must go on it (a new foot); then play is "
               "free again on any open end.",
               "Cannot play: draw ONE tile; play it if it fits, otherwise pass.",
               "The round ends on going out or blocked. Everyone adds the pips left in their own hand (the 0-0 counts "
               "50). Each round starts from the next lower double, down to 0-0; the lowest total wins."],
        "es": ["Pata de pollo: doble 9 (o doble 12), de 2 a 8 jugadores, fichas según la fórmula. El doble de la "
               "ronda va en el centro y las 6 jugadas siguientes deben ir en él, 3 por cada lado, en diagonal: la "
               "primera pata de pollo.",
               "Un doble jugado después va cruzado y las 3 jugadas siguientes deben ir en él (una pata nueva); luego "
               "se vuelve a jugar libre en cualquier punta.",
               "Si no puedes jugar, robas UNA ficha; si cabe la juegas, si no, pasas.",
               "La ronda termina al dominar o con tranque. Cada uno suma los puntos que le quedan (el 0-0 cuenta 50). "
               "Cada ronda empieza por el doble siguiente hacia abajo, hasta el 0-0; gana el total más bajo."],
    },
    "frijolito": {
        "en": ["Frijolito: double-6, 2 to 4 players dealt 14, 9 or 7 tiles, face down in a row that nobody may look "
               "at, not even its owner (with 3 players one tile is set aside unseen).",
               "On your turn, \"Turn over the leftmost tile\". If it fits, play it and turn over the next one. If it "
               "does not fit, it goes face down to the right end of your row and your turn ends.",
               "A tile that fits both ends: you may first turn over the next tile to decide where to play it. An "
               "unplayable double may be put face up at the end of the row.",
               "The hand ends on going out or blocked; everyone adds the pips left in their own row (bad points) and "
               "the lowest scorer opens the next hand. The match ends when someone passes 100 (or 50): the lowest "
               "total wins. Options: elimination, face-up doubles playable from anywhere, unplayable tiles face up."],
        "es": ["Frijolito: doble 6, de 2 a 4 jugadores con 14, 9 o 7 fichas boca abajo en una fila que nadie puede "
               "mirar, ni siquiera su dueño (con 3 jugadores se aparta una ficha sin verla).",
               "En tu turno, \"Voltear la ficha de la izquierda\". Si cabe, la juegas y volteas la siguiente. Si no "
               "cabe, vuelve boca abajo al final (derecha) de tu fila y se acaba tu turno.",
               "Si una ficha cabe en las dos puntas, puedes voltear antes la siguiente para decidir dónde ponerla. Un "
               "doble que no cabe puede ponerse boca arriba al final de la fila.",
               "La mano termina al dominar o con tranque; cada uno suma los puntos que le quedan en su fila (puntos "
               "malos) y quien menos sumó abre la siguiente. La partida termina cuando alguien pasa de 100 (o 50): "
               "gana el total más bajo. Opciones: eliminación, dobles boca arriba jugables desde cualquier sitio, "
               "fichas que no caben boca arriba."],
    },
}


def help_for(game: str, lang: str) -> list[str]:
    lang = lang if lang in ("es", "en") else "en"
    own = GAMES.get(game, {}).get(lang, [])
    join = [] if _joins(game) == "matador" else [JOIN_SAME[lang]]
    return own + join + COMMON[lang] + [FAIR[lang]]


def _joins(game: str) -> str:
    """How the game's tiles join ("match" or "matador"); locked per game."""
    from domino.engine.rules import PRESETS, make_rules
    if game not in PRESETS:
        return "match"
    return make_rules(game).joins
