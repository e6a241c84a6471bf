"""Texts of a match played when each can (issue 40): the lobby's choice, Your matches, the table's bar."""

EN = {
    "later.when": "When do you play?",
    "later.choice_now": "Now",
    "later.now_help": "Everybody at the table at the same time; a friend away for a minute is replaced by "
                      "the computer.",
    "later.choice_later": "When you can",
    "later.later_help": "Each plays their turn when they can, over days. Nobody waits for the others to be "
                        "online: your phone keeps the match and checks every move.",
    "later.stored": "The match is kept on this phone and, encrypted so that only the players' links can read "
                    "it, on these public relays: {relays}. They see random-looking labels, encrypted text and "
                    "times: not the game, the names or the tiles. There are no notifications: open Your matches "
                    "to see whose turn it is.",
    "later.title": "Your matches",
    "later.your_turn_now": "Your turn.",
    "later.more": "Links and matches",
    "later.open_list": "Your matches",
    "later.list_help": "Matches with friends played when each can. Opening this list fetches what changed.",
    "later.none": "No match yet. Start one from \"Play with friends\", choosing \"When you can\".",
    "later.with": "with {names}",
    "later.your_turn": "Your turn, since {since}",
    "later.their_turn": "{name}'s turn, since {since}",
    "later.over": "Finished",
    "later.score": "score {score}",
    "later.no_view": "Waiting for the host",
    "later.leave": "Back",
    "later.ago_now": "just now",
    "later.ago_min": "{n} min ago",
    "later.ago_h": "{n} h ago",
    "later.ago_d": "{n} days ago",
    "later.waiting_for": "Waiting for {name}'s move, since {since}.",
    "later.close_hint": "You can close the game: the next move will be here when you open it again (Your "
                        "matches, on the first screen).",
    "later.sent": "Your move was sent; it is sent again until the host's phone applies it.",
    "later.invite_for": "Link for {name}",
    "later.share_title": "Dominoes: your turn when you can",
    "later.first_view": "Waiting for the host's phone to publish the table. You can close the game and open "
                        "this link again later.",
    "later.invited_title": "A match when you can",
    "later.invited": "A friend invites you to seat {n} of a match played when each can.",
    "later.join": "Join the match",
    "later.relay_failed": "A relay refused the match's data ({relays}: {why}).",
    "later.unreadable": "That match cannot be read on this phone.",
    "later.not_kept": "This phone's storage is full: the match's latest state is not kept here (it is on the "
                      "relays). Free some space (Settings of the browser) and open the match again.",
    "later.bad_link": "this is not a link to a match played when you can",
    "later.own_match": "this phone is the host of that match: open it from Your matches (this link is for "
                       "your friend)",
    "later.waiting_on_you": "Waiting for your move: {names}, since {since}.",
    "later.over_idle": "Ended with no winner: no move for 7 days",
    "later.over_absence": "Ended for {name}'s absence",
    "later.absent_help": "{name} has not played for more than 2 days: the match can be ended for absence "
                         "({name} loses, as one who leaves does).",
    "later.end_absence": "End for {name}'s absence",
    "later.claimed": "You asked to end the match for {name}'s absence: it ends when {host}'s phone next opens "
                     "the match.",
    "later.claimed_short": "You asked to end it for {name}'s absence",
    "later.tell": "Tell {name}",
    "later.hand_over": "Hand {n} is over",
    "later.hand_ok": "OK",
    "later.tell_text": "{name}, it's your turn in our dominoes match ({game}).",
    "later.many": "With 3 or 4 players, a friend's move is recorded when the host's phone next opens the "
                  "match (the host's table says who is waiting for it).",
    "later.rules": "A player whose turn lasts more than 2 days can be ended for absence; a table with no move "
                   "for 7 days ends with no winner.",
    "match.absence": "{name} did not play for more than 2 days: the match ended for absence.",
    "match.idle": "No move for 7 days: the match ends with no winner.",
}

ES = {
    "later.when": "¿Cuándo jugáis?",
    "later.choice_now": "Ahora",
    "later.now_help": "Todos en la mesa a la vez; si un amigo se ausenta un minuto, juega el ordenador por él.",
    "later.choice_later": "Cuando puedas",
    "later.later_help": "Cada uno juega su turno cuando puede, durante días. Nadie espera a que los demás estén "
                        "conectados: tu teléfono guarda la partida y comprueba cada jugada.",
    "later.stored": "La partida se guarda en este teléfono y, cifrada para que solo los enlaces de los "
                    "jugadores puedan leerla, en estos relés públicos: {relays}. Ven etiquetas que parecen "
                    "aleatorias, texto cifrado y horas: no el juego, los nombres ni las fichas. No hay avisos: "
                    "abre Tus partidas para ver a quién le toca.",
    "later.title": "Tus partidas",
    "later.your_turn_now": "Te toca.",
    "later.more": "Enlaces y partidas",
    "later.open_list": "Tus partidas",
    "later.list_help": "Partidas con amigos jugadas cuando cada uno puede. Al abrir esta lista se trae lo que "
                       "ha cambiado.",
    "later.none": "Aún no hay partidas. Empieza una desde «Jugar con amigos», eligiendo «Cuando puedas».",
    "later.with": "con {names}",
    "later.your_turn": "Te toca, desde {since}",
    "later.their_turn": "Le toca a {name}, desde {since}",
    "later.over": "Terminada",
    "later.score": "marcador {score}",
    "later.no_view": "Esperando al anfitrión",
    "later.leave": "Volver",
    "later.ago_now": "ahora mismo",
    "later.ago_min": "hace {n} min",
    "later.ago_h": "hace {n} h",
    "later.ago_d": "hace {n} días",
    "later.waiting_for": "Esperando la jugada de {name}, desde {since}.",
    "later.close_hint": "Puedes cerrar el juego: la próxima jugada estará aquí cuando lo vuelvas a abrir (Tus "
                        "partidas, en la primera pantalla).",
    "later.sent": "Tu jugada se ha enviado; se vuelve a enviar hasta que el teléfono del anfitrión la aplique.",
    "later.invite_for": "Enlace para {name}",
    "later.share_title": "Dominó: te toca cuando puedas",
    "later.first_view": "Esperando a que el teléfono del anfitrión publique la mesa. Puedes cerrar el juego y "
                        "abrir este enlace más tarde.",
    "later.invited_title": "Una partida cuando puedas",
    "later.invited": "Un amigo te invita al puesto {n} de una partida que se juega cuando cada uno puede.",
    "later.join": "Unirme a la partida",
    "later.relay_failed": "Un relé rechazó los datos de la partida ({relays}: {why}).",
    "later.unreadable": "Esa partida no se puede leer en este teléfono.",
    "later.not_kept": "El almacenamiento de este teléfono está lleno: el último estado de la partida no se "
                      "guarda aquí (está en los relés). Libera espacio (ajustes del navegador) y vuelve a abrir "
                      "la partida.",
    "later.bad_link": "este no es un enlace a una partida cuando puedas",
    "later.own_match": "este teléfono es el anfitrión de esa partida: ábrela desde Tus partidas (este enlace "
                       "es para tu amigo)",
    "later.waiting_on_you": "Esperan tu jugada: {names}, desde {since}.",
    "later.over_idle": "Terminada sin ganador: 7 días sin jugadas",
    "later.over_absence": "Terminada por ausencia de {name}",
    "later.absent_help": "{name} lleva más de 2 días sin jugar: la partida se puede dar por terminada por "
                         "ausencia ({name} pierde, como quien abandona).",
    "later.end_absence": "Terminar por ausencia de {name}",
    "later.claimed": "Has pedido terminar la partida por ausencia de {name}: termina cuando el teléfono de "
                     "{host} vuelva a abrir la partida.",
    "later.claimed_short": "Has pedido terminarla por ausencia de {name}",
    "later.tell": "Avisar a {name}",
    "later.hand_over": "Mano {n} terminada",
    "later.hand_ok": "Vale",
    "later.tell_text": "{name}, te toca en nuestra partida de dominó ({game}).",
    "later.many": "Con 3 o 4 jugadores, la jugada de un amigo se registra cuando el teléfono del anfitrión "
                  "vuelve a abrir la partida (la mesa del anfitrión dice quién la espera).",
    "later.rules": "Si a alguien le toca y lleva más de 2 días sin jugar, la partida se puede terminar por "
                   "ausencia; una mesa sin jugadas durante 7 días termina sin ganador.",
    "match.absence": "{name} lleva más de 2 días sin jugar: la partida terminó por ausencia.",
    "match.idle": "7 días sin jugadas: la partida termina sin ganador.",
}
