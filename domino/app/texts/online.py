"""Texts of play over the internet: the opt-in, what leaves the device, the relays' status, the settings."""

EN = {
    "online.switch": "Play over the internet",
    "online.switch_help": "For friends who are not on your Wi-Fi. Off until you turn it on.",
    "online.notice": "Over the internet, this phone sends the table's connection details, encrypted with a "
                     "password that only the invitation link carries, to these public relays: {relays}. {stun} "
                     "Then the game goes directly "
                     "between the phones: no relay sees a tile, a name or a move.",
    "online.stun": "It asks a STUN server for this phone's public address ({ice}).",
    "online.no_stun": "No STUN server is set: only phones on one network can meet.",
    "online.notice_link": "The invitation link carries the table's password: send it only to the friend "
                          "of that seat.",
    "online.join": "Join over the internet",
    "online.joined_before": "You joined this table before: rejoining it through the relays.",
    "online.status.connecting": "Contacting the relays…",
    "online.status.connected": "Reached the relays through {up}.",
    "online.status.down": "No answer from {down}.",
    "online.status.failed": "No relay answered ({down}). Try again later, put other relays in the internet "
                            "settings, or play on one Wi-Fi (turn \"Play over the internet\" off).",
    "online.status.paused": "Everyone is at the table: the relays are no longer contacted.",
    "online.waiting_host": "Looking for the host through the relays…",
    "online.lost": "The connection to the host was lost: looking for it again through the relays…",
    "online.slow": "The host has not been reached yet. Check that the host's table is still open. If you "
                   "are on different networks, one of you may need a TURN server (in the internet "
                   "settings), or play on one Wi-Fi.",
    "online.wrong": "The relays refused this table's password: {why}. Ask the host for a new invitation.",
    "online.friend_slow": "{name} has not connected yet. If it does not happen, their network may need a "
                          "TURN server (internet settings), or play on one Wi-Fi.",
    "online.settings": "Internet settings",
    "online.relays": "Relays (one per line, wss://; ws:// only on this phone or a home network)",
    "online.ice": "STUN and TURN servers (one per line: stun:host:port, or turn:host:port user password)",
    "online.save": "Save the internet settings",
    "online.saved": "Internet settings saved.",
    "online.bad": "Not saved: {why}",
    "online.reset": "Default relays and servers",
    "online.invite_help": "Your friend scans this code or opens the link: their phone finds yours through "
                          "the relays, no reply code needed.",
    "relay.not_url": "{url} is not a relay address (wss://, then the relay's host name)",
    "relay.too_long": "{url}… is too long for a relay address",
    "relay.scheme": "{url} is not a relay address: it must start with wss:// (or ws:// on a home network)",
    "relay.bad_host": "{url} does not name a valid host",
    "relay.bad_port": "{url} has a port outside 1 to 65535",
    "relay.plain_public": "{url} is not encrypted (ws://) and is not on this phone or a home network: "
                          "use wss://",
    "relay.none": "at least one relay is needed",
    "online.rooms_renewed": "Each friend now has a room of their own on the relays: the invitation links "
                            "sent before no longer work, send each friend their new link.",
}

ES = {
    "online.switch": "Jugar por internet",
    "online.switch_help": "Para amigos que no están en tu wifi. Apagado hasta que lo enciendas.",
    "online.notice": "Por internet, este teléfono envía los datos de conexión de la mesa, cifrados con una "
                     "contraseña que solo lleva el enlace de invitación, a estos relés públicos: {relays}. "
                     "{stun} Después la partida "
                     "va directamente entre los teléfonos: ningún relé ve una ficha, un nombre ni una jugada.",
    "online.stun": "Pregunta a un servidor STUN la dirección pública del teléfono ({ice}).",
    "online.no_stun": "No hay servidor STUN: solo se encuentran teléfonos de una misma red.",
    "online.notice_link": "El enlace de invitación lleva la contraseña de la mesa: envíalo solo al amigo de "
                          "ese puesto.",
    "online.join": "Unirse por internet",
    "online.joined_before": "Ya te uniste a esta mesa: volviendo a ella por los relés.",
    "online.status.connecting": "Contactando con los relés…",
    "online.status.connected": "Relés alcanzados: {up}.",
    "online.status.down": "Sin respuesta de {down}.",
    "online.status.failed": "Ningún relé respondió ({down}). Prueba más tarde, pon otros relés en los ajustes "
                            "de internet o juega en una misma wifi (apaga \"Jugar por internet\").",
    "online.status.paused": "Todos están en la mesa: ya no se contacta con los relés.",
    "online.waiting_host": "Buscando al anfitrión por los relés…",
    "online.lost": "Se perdió la conexión con el anfitrión: buscándolo otra vez por los relés…",
    "online.slow": "Todavía no se encontró al anfitrión. Comprueba que su mesa sigue abierta. Si están en "
                   "redes distintas, puede hacer falta un servidor TURN (en los ajustes de internet), o "
                   "jueguen en una misma wifi.",
    "online.wrong": "Los relés rechazaron la contraseña de esta mesa: {why}. Pide al anfitrión una invitación "
                    "nueva.",
    "online.friend_slow": "{name} todavía no se conectó. Si no ocurre, su red puede necesitar un servidor TURN "
                          "(ajustes de internet), o jueguen en una misma wifi.",
    "online.settings": "Ajustes de internet",
    "online.relays": "Relés (uno por línea, wss://; ws:// solo en este teléfono o en una red de casa)",
    "online.ice": "Servidores STUN y TURN (uno por línea: stun:host:puerto, o turn:host:puerto usuario "
                  "contraseña)",
    "online.save": "Guardar los ajustes de internet",
    "online.saved": "Ajustes de internet guardados.",
    "online.bad": "No se guardó: {why}",
    "online.reset": "Relés y servidores predeterminados",
    "online.invite_help": "Tu amigo escanea este código o abre el enlace: su teléfono encuentra el tuyo por "
                          "los relés, sin código de respuesta.",
    "relay.not_url": "{url} no es una dirección de relé (wss:// y después el nombre del relé)",
    "relay.too_long": "{url}… es demasiado larga para una dirección de relé",
    "relay.scheme": "{url} no es una dirección de relé: debe empezar por wss:// (o ws:// en una red de casa)",
    "relay.bad_host": "{url} no nombra un servidor válido",
    "relay.bad_port": "{url} tiene un puerto fuera de 1 a 65535",
    "relay.plain_public": "{url} no está cifrada (ws://) y no está en este teléfono ni en una red de casa: "
                          "usa wss://",
    "relay.none": "hace falta al menos un relé",
    "online.rooms_renewed": "Cada amigo tiene ahora su propia sala en los relés: los enlaces de invitación "
                            "enviados antes ya no sirven, envía a cada amigo su enlace nuevo.",
}
