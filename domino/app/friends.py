"""Play with friends on one Wi-Fi: the invitation link's format (``#join=``), read and written.

The link carries the seat, its secret and the host's WebRTC offer in a short code (:mod:`domino.net.sdp`);
the host's side is :mod:`domino.app.link.hosting`, the friend's :mod:`domino.app.link.joining`.
"""
from __future__ import annotations

import re

from domino.app.links import JOIN
from domino.net import protocol
from domino.net import sdp


class JoinError(ValueError):
    """An invitation link that cannot be read (the words say why)."""


class NotLocalJoin(JoinError):
    """A same-Wi-Fi invitation whose offer names an address off the local
    network (``address``): refused, since opening it would reach out there."""

    def __init__(self, address: str, why: str):
        self.address = address
        super().__init__(why)


def parse_join(fragment: str) -> tuple[int, str, str]:
    """``#join=<seat+1>.<secret>.<offer code>`` -> (seat, secret, offer SDP)."""
    frag = (fragment or "").lstrip("#")
    if not frag.startswith(JOIN):
        raise JoinError("not an invitation")
    parts = frag[len(JOIN):].split(".")
    if len(parts) != 3 or not re.fullmatch(r"[1-8]", parts[0]) or not protocol._SECRET.fullmatch(parts[1]):
        raise JoinError("it is incomplete")
    try:
        offer = sdp.expand(parts[2], "offer", local_only=True)
    except sdp.NotLocalError as e:
        raise NotLocalJoin(e.address, str(e)) from None
    except sdp.SdpCodeError as e:
        raise JoinError(str(e)) from None
    return int(parts[0]) - 1, parts[1], offer


def invite_link(base: str, seat: int, secret: str, code: str) -> str:
    return f"{base}#{JOIN}{seat + 1}.{secret}.{code}"

