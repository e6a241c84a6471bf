"""How this phone's table is linked to others: one of three links the session holds.

* :class:`~domino.app.link.alone.Alone`: solo and hot-seat play; the match is this phone's.
* :class:`~domino.app.link.hosting.Hosting`: this phone hosts a friends' table (same Wi-Fi or the internet):
  it holds the match, checks every friend's message, and sends the views after each save.
* :class:`~domino.app.link.joining.Joining`: this phone joined a friend's table: it keeps the host's views,
  and a tap becomes a request to the host.

The session (:class:`domino.app.session.Session`) does the same for every link: it turns a tap into a move on
its Controller, saves, draws.  What differs goes through the link's interface
(:class:`~domino.app.link.base.Link`): its role, what it does at start, after a tap, after a save, whether the
computer seats may move, the words for the table, and the inputs only it answers (its ``ANSWERS``, with the
network's events).  The internet's relays (:class:`~domino.app.link.relays.Relays`) belong to the link that
uses them.  boardgame.io's client is the model: one client for local and networked play, the network a
transport passed in.
"""
