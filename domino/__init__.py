"""Dominoes: a rules engine for the line family of games, with computer
players and game records.  Plain Python; only :mod:`domino.browser` touches the
browser."""

__version__ = "0.1.0"
