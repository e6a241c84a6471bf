"""Play with friends from their own phones: the protocol and the two tables.

One device, the host, holds the :class:`~domino.engine.match.Match`; each
guest device holds one seat and gets only what that seat may know.  This
package is pure Python (no ``js``, no ``pyscript``; the WebRTC data channel
that carries the texts lives elsewhere).  Import the modules themselves
(this file imports nothing, so importing one module never pulls the others):

- :mod:`domino.net.protocol`: the JSON messages (``domino-net/1``), their caps and checks;
- :mod:`domino.net.host`: ``HostTable``: the lobby, seats, invitations, the
  validation of every guest message, the views sent to each guest;
- :mod:`domino.net.guest`: ``GuestTable``: one guest's side;
- :mod:`domino.net.mirror`: ``MirrorMatch``: the read-only stand-in for a
  Match that lets the table screens draw a guest's table from its seat view;
- :mod:`domino.net.nostr`: Nostr's keys, BIP-340 signatures, events and
  NIP-44 v2 encryption, in pure Python;
- :mod:`domino.net.mailbox`: ``MailHost`` and ``MailGuest``: a match kept
  on Nostr relays for days, as two state machines (events in, events out).

Layers: ``protocol`` and ``mirror`` import only the engine; ``host`` also
the app's settings (new-game settings, names); nothing here imports the
browser.  docs/NET.md describes the protocol and the rules of the table.
"""
