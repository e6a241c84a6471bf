"""Facts about the Python the app runs on (plain Python: no js)."""
from __future__ import annotations


def bytecode_state() -> str:
    """"shipped" when every loaded module of the package ran from the bytecode
    in domino.zip (scripts/build_zip.py: unchecked-hash .pyc files of this
    interpreter), "compiled" when any was compiled from its source at boot
    (a stale or foreign .pyc is ignored by the import system, which then
    compiles the source and writes its own, timestamped one)."""
    import importlib.util
    import sys
    for name, mod in list(sys.modules.items()):
        if name != "domino" and not name.startswith("domino."):
            continue
        try:
            with open(mod.__cached__, "rb") as f:
                head = f.read(8)
        except (AttributeError, TypeError, OSError):
            return "compiled"
        if head[:4] != importlib.util.MAGIC_NUMBER or int.from_bytes(head[4:8], "little") != 1:
            return "compiled"
    return "shipped"
