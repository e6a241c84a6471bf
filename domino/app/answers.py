"""Which method answers which input, written where the method is.

The session and its link (:mod:`domino.app.link`) answer inputs by name: a tap's
``data-action`` (``"tile"``, ``"next-hand"``) or an event (``"net-open"``).  A
method says which inputs it answers with :func:`answers`; the table of a class
(``ANSWERS``) is made once, when the class is, so a reader finds an input's
method by searching for its name, and a test can list every name answered.
"""
from __future__ import annotations

from typing import Callable


def answers(*names: str) -> Callable:
    """Mark a method as the one that answers these inputs."""
    def mark(fn: Callable) -> Callable:
        fn.answers = names
        return fn
    return mark


class Answering:
    """A class whose methods marked with :func:`answers` form its table ``ANSWERS`` (input -> method name)."""

    ANSWERS: dict[str, str] = {}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        table: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                for name in getattr(fn, "answers", ()):
                    table[name] = attr
        cls.ANSWERS = table

    def answer(self, name: str) -> Callable | None:
        """The bound method answering the input ``name``, if this object answers it."""
        attr = self.ANSWERS.get(name)
        return getattr(self, attr) if attr is not None else None
