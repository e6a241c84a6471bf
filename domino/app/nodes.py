"""Screen trees: nodes ``(tag, attrs, children)`` built in plain Python; the browser module turns them into DOM (an ``svg`` node starts the SVG namespace)."""
from __future__ import annotations

from typing import Any

Node = tuple


def h(tag: str, attrs: dict | None = None, *children: Any) -> Node:
    out: list = []
    for c in children:
        if c is None or c is False:
            continue
        if isinstance(c, list):
            out.extend(x for x in c if x is not None and x is not False)
        else:
            out.append(c)
    return (tag, {k: str(v) for k, v in (attrs or {}).items() if v is not None}, out)


def walk(node):
    """Every node of a tree (depth first)."""
    if isinstance(node, str):
        return
    yield node
    for c in node[2]:
        yield from walk(c)


def find(node, **attrs) -> list:
    want = {k.replace("_", "-"): v for k, v in attrs.items()}
    return [n for n in walk(node) if all(n[1].get(k) == v for k, v in want.items())]


def text_of(node) -> str:
    if isinstance(node, str):
        return node
    return "".join(text_of(c) for c in node[2])
