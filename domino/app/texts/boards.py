"""Option labels and rule errors of Mexican Train, Chicken Foot and Frijolito."""

EN = {
    "opt.start_double": "Rounds",
    "opt.start_double.top": "from the top double down to 0-0",
    "opt.start_double.9": "from 9-9 down to 0-0",
    "opt.start_double.6": "from 6-6 down to 0-0",
    "opt.start_double.3": "from 3-3 down to 0-0",
    "opt.holder_starts": "The holder of the round's double starts with it",
    "opt.double_chains": "Double chains (a double after a double)",
    "opt.close_doubles": "Open doubles must be closed",
    "opt.mexican_train": "Mexican train",
    "opt.elimination": "Elimination (past the target you leave)",
    "opt.doubles_anywhere": "Face-up doubles play from anywhere in the row",
    "opt.face_up": "Unplayable tiles go face up",
    "rules.set-players": "double-{set} is for up to {max} players",
}

ES = {
    "opt.start_double": "Rondas",
    "opt.start_double.top": "del doble más alto al 0-0",
    "opt.start_double.9": "del 9-9 al 0-0",
    "opt.start_double.6": "del 6-6 al 0-0",
    "opt.start_double.3": "del 3-3 al 0-0",
    "opt.holder_starts": "Sale quien tiene el doble de la ronda",
    "opt.double_chains": "Dobles encadenados (un doble tras otro)",
    "opt.close_doubles": "Hay que cerrar los dobles abiertos",
    "opt.mexican_train": "Tren mexicano",
    "opt.elimination": "Por eliminación (quien pasa la meta sale)",
    "opt.doubles_anywhere": "Los dobles boca arriba se juegan desde cualquier sitio",
    "opt.face_up": "Las fichas que no se pueden jugar quedan boca arriba",
    "rules.set-players": "el doble {set} es para {max} jugadores como mucho",
}
