"""Data that Python knows and the page's scripts use before Python is up, written into them by the build
(scripts/build_first.py) as one marked line: the invitations' fragments (domino/app/links.py) and the
storage keys (domino/app/storage.py).  A script's line is rewritten from its mark to the end of the line."""
from __future__ import annotations

import re


def with_line(source: str, mark: str, line: str) -> str:
    """``source`` with its one line starting at ``mark`` replaced by ``line`` (which starts with ``mark``).
    ValueError when the script has no such line, or more than one."""
    found = re.compile(re.escape(mark) + r".*$", re.M)
    if len(found.findall(source)) != 1:
        raise ValueError(f"the script has no single line marked {mark}")
    return found.sub(lambda _m: line, source)
