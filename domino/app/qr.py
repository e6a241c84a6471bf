"""QR codes (ISO/IEC 18004 Model 2) for invite links, drawn as SVG node trees.

A small self-contained encoder (no dependency: this module is shipped to the
browser in domino.zip).  It covers what an invite link needs: byte mode (a
``str`` is encoded as UTF-8, without an ECI header), the error-correction
levels L/M/Q/H, versions 1..40 (the smallest that fits is chosen),
Reed–Solomon codes over GF(256), block interleaving, the eight data masks
(the one with the lowest penalty score wins) and format/version information.

:func:`encode` gives the module matrix (``True`` = dark, no quiet zone),
:func:`make` the same with the version and mask chosen, and :func:`svg` an
``<svg>`` node (see :mod:`domino.app.nodes`) with a 4-module quiet zone.

The mask penalty follows ISO/IEC 18004:2015 §7.8.3: each mask is scored on
the masked symbol *before* the format and version information are written
(those areas, and the dark module, count as light), N1 = 3 + (run − 5) per
run of five or more same-coloured modules in a row/column, N2 = 3 per 2×2
same-coloured block, N3 = 40 per dark:light:dark:light:dark 1:1:3:1:1
pattern with four light modules before or after it (outside the symbol
counts as light), N4 = 10 per full 5 % that dark modules deviate from 50 %.
Encoders differ in such details (some score with the format bits drawn; segno
counts two overlapping N3 patterns once), so another encoder may pick another
mask for the same data; every mask is valid and scans alike.
"""
from __future__ import annotations

import re
from typing import Callable, NamedTuple

from .nodes import Node, h

ECC_LEVELS = ("L", "M", "Q", "H")
QUIET_ZONE = 4  # modules of light margin around the symbol in svg()

# Error-correction codewords per block, and number of blocks, indexed by
# level then version (index 0 unused).  ISO/IEC 18004:2015 Table 9.
_ECC_PER_BLOCK: dict[str, tuple[int, ...]] = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
          28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
          26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
          28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
          30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}
_NUM_BLOCKS: dict[str, tuple[int, ...]] = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
          8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
          17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
          23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
          25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}
_FORMAT_ECC = {"L": 1, "M": 0, "Q": 3, "H": 2}  # the 2 level bits of the format information

# The eight data masks (row, column) -> flip?  ISO/IEC 18004:2015 Table 10.
_MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda r, c: (r + c) % 2 == 0,
    lambda r, c: r % 2 == 0,
    lambda r, c: c % 3 == 0,
    lambda r, c: (r + c) % 3 == 0,
    lambda r, c: (r // 2 + c // 3) % 2 == 0,
    lambda r, c: (r * c) % 2 + (r * c) % 3 == 0,
    lambda r, c: ((r * c) % 2 + (r * c) % 3) % 2 == 0,
    lambda r, c: ((r + c) % 2 + (r * c) % 3) % 2 == 0,
)

# GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1; _EXP is doubled so
# that _EXP[log a + log b] needs no modulo.
_EXP = [0] * 510
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _EXP[_i + 255] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
del _x, _i


class QRCode(NamedTuple):
    """An encoded symbol: ``modules[row][col]`` is ``True`` for dark."""

    version: int
    ecc: str
    mask: int
    modules: list[list[bool]]


def size_of(version: int) -> int:
    """Modules per side of a symbol of ``version`` (21 for version 1)."""
    return 4 * version + 17


def _raw_data_modules(version: int) -> int:
    """Modules left for codewords (and remainder bits) once function patterns are drawn."""
    n = (16 * version + 128) * version + 64
    if version >= 2:
        align = version // 7 + 2
        n -= (25 * align - 10) * align - 55
        if version >= 7:
            n -= 36
    return n


def data_capacity(version: int, ecc: str) -> int:
    """Data codewords (bytes) of a symbol, error-correction codewords excluded."""
    return _raw_data_modules(version) // 8 - _ECC_PER_BLOCK[ecc][version] * _NUM_BLOCKS[ecc][version]


def _fits(n_bytes: int, version: int, ecc: str) -> bool:
    """Whether ``n_bytes`` in one byte-mode segment fit the symbol."""
    return 4 + (8 if version < 10 else 16) + 8 * n_bytes <= 8 * data_capacity(version, ecc)


def _data_codewords(payload: bytes, version: int, ecc: str) -> list[int]:
    """Mode indicator, count, the bytes, terminator and padding, as codewords."""
    capacity = data_capacity(version, ecc)
    count_bits = 8 if version < 10 else 16
    acc = (0b0100 << count_bits | len(payload)) << 8 * len(payload) | int.from_bytes(payload, "big")
    nbits = 4 + count_bits + 8 * len(payload)
    pad = min(4, 8 * capacity - nbits)  # terminator
    pad += -(nbits + pad) % 8           # then up to a byte boundary
    out = list((acc << pad).to_bytes((nbits + pad) // 8, "big"))
    out += [(0xEC, 0x11)[i % 2] for i in range(capacity - len(out))]
    return out


def _rs_generator(degree: int) -> list[int]:
    """Coefficients (leading 1 dropped, highest power first) of prod (x - 2^i), i < degree."""
    gen = [1]
    for i in range(degree):
        nxt = gen + [0]
        for j, coef in enumerate(gen):
            if coef:
                nxt[j + 1] ^= _EXP[_LOG[coef] + i]
        gen = nxt
    return gen[1:]


def _rs_remainder(data: list[int], gen: list[int]) -> list[int]:
    """The Reed–Solomon error-correction codewords of ``data``."""
    rem = [0] * len(gen)
    for byte in data:
        factor = byte ^ rem.pop(0)
        rem.append(0)
        if factor:
            lf = _LOG[factor]
            for i, coef in enumerate(gen):
                rem[i] ^= _EXP[_LOG[coef] + lf]
    return rem


def _final_codewords(data: list[int], version: int, ecc: str) -> list[int]:
    """Split into blocks, add each block's error correction, and interleave."""
    nblocks, ecc_len = _NUM_BLOCKS[ecc][version], _ECC_PER_BLOCK[ecc][version]
    total = _raw_data_modules(version) // 8
    nshort = nblocks - total % nblocks
    short_data = total // nblocks - ecc_len
    gen = _rs_generator(ecc_len)
    blocks: list[list[int]] = []
    errors: list[list[int]] = []
    k = 0
    for i in range(nblocks):
        n = short_data + (1 if i >= nshort else 0)
        blocks.append(data[k:k + n])
        errors.append(_rs_remainder(blocks[-1], gen))
        k += n
    out = [b[i] for i in range(short_data + 1) for b in blocks if i < len(b)]
    return out + [e[i] for i in range(ecc_len) for e in errors]


def _alignment_positions(version: int) -> list[int]:
    """Row/column centres of the alignment patterns."""
    if version == 1:
        return []
    count = version // 7 + 2
    step = (version * 8 + count * 3 + 5) // (count * 4 - 4) * 2
    last = size_of(version) - 7
    return [6] + [last - i * step for i in range(count - 2, -1, -1)]


def _bch(value: int, bits: int, poly: int) -> int:
    """``value`` followed by its BCH remainder for generator ``poly`` of degree ``bits``."""
    rem = value << bits
    for shift in range(rem.bit_length() - bits - 1, -1, -1):
        if rem >> (shift + bits) & 1:
            rem ^= poly << shift
    return value << bits | rem


_RUNS = re.compile(r"0{5,}|1{5,}")


def _penalty_parts(rows: list[int]) -> tuple[int, int, int, int]:
    """The penalty scores (N1, N2, N3, N4) of a masked symbol given as row
    bitmasks (column 0 the most significant bit); see the module doc.

    N3 counts every occurrence of 1011101 with 0000 before or after it, so two
    overlapping ones (``0000 10111011101``) count twice.
    """
    n = len(rows)
    texts = [format(row, f"0{n}b") for row in rows]
    lines = texts + ["".join(col) for col in zip(*texts)]
    n1 = sum(len(run) - 2 for line in lines for run in _RUNS.findall(line))
    inner = (1 << (n - 1)) - 1  # a 2x2 block starts in any column but the last
    n2 = 3 * sum((inner & ~((a ^ a >> 1) | (b ^ b >> 1) | (a ^ b))).bit_count()
                 for a, b in zip(rows, rows[1:]))
    n3 = 0
    for line in lines:
        s = "0000" + line + "0000"
        i = s.find("1011101")
        while i != -1:
            if s[i - 4:i] == "0000" or s[i + 7:i + 11] == "0000":
                n3 += 40
            i = s.find("1011101", i + 1)
    total = n * n
    dark = sum(row.bit_count() for row in rows)
    return n1, n2, n3, 10 * (abs(20 * dark - 10 * total) // total)


def _masked(rows: list[int], data: list[int], mask: int) -> list[int]:
    """``rows`` (bitmasks, column 0 the most significant bit) with data mask
    ``mask`` applied where ``data`` has a bit set."""
    n, flip = len(rows), _MASKS[mask]
    # Every mask repeats every 12 rows (and 6 or 12 columns).
    pattern = [sum(1 << (n - 1 - c) for c in range(n) if flip(r, c)) for r in range(12)]
    return [row ^ (pattern[r % 12] & data[r]) for r, row in enumerate(rows)]


def _best_mask(rows: list[int], data: list[int]) -> int:
    """The mask with the lowest total penalty (the first of equals), each scored on
    the masked symbol before format/version information is written (ISO 7.8.3)."""
    scores = [sum(_penalty_parts(_masked(rows, data, m))) for m in range(8)]
    return scores.index(min(scores))


def _function_patterns(version: int) -> tuple[list[list[int]], list[list[bool]]]:
    """The symbol with finders, separators, timing and alignment patterns drawn
    (1 = dark), and which modules are not data; format and version areas are
    reserved but left light."""
    n = size_of(version)
    grid = [[0] * n for _ in range(n)]
    func = [[False] * n for _ in range(n)]

    def put(r: int, c: int, dark: bool) -> None:
        grid[r][c] = int(dark)
        func[r][c] = True

    for i in range(n):  # timing patterns
        put(6, i, i % 2 == 0)
        put(i, 6, i % 2 == 0)
    for cr, cc in ((3, 3), (3, n - 4), (n - 4, 3)):  # finders with their separators
        for r in range(max(cr - 4, 0), min(cr + 5, n)):
            for c in range(max(cc - 4, 0), min(cc + 5, n)):
                put(r, c, max(abs(r - cr), abs(c - cc)) not in (2, 4))
    centres = _alignment_positions(version)
    corners = {(6, 6), (6, centres[-1]), (centres[-1], 6)} if centres else set()
    for cr in centres:
        for cc in centres:
            if (cr, cc) in corners:  # would overlap a finder
                continue
            for r in range(cr - 2, cr + 3):
                for c in range(cc - 2, cc + 3):
                    put(r, c, max(abs(r - cr), abs(c - cc)) != 1)
    for i in range(9):  # format information (and the dark module)
        func[8][i] = func[i][8] = True
    for i in range(8):
        func[8][n - 1 - i] = func[n - 1 - i][8] = True
    if version >= 7:  # version information
        for i in range(6):
            for j in range(n - 11, n - 8):
                func[i][j] = func[j][i] = True
    return grid, func


def _unmasked(version: int, codewords: list[int]) -> tuple[list[int], list[int]]:
    """The symbol with ``codewords`` placed, unmasked, and which modules hold data,
    both as row bitmasks (column 0 the most significant bit).  Codewords run in a
    two-column zigzag from the bottom right; remainder bits stay light."""
    grid, func = _function_patterns(version)
    n = len(grid)
    cells: list[tuple[int, int]] = []
    for right in range(n - 1, 0, -2):
        if right <= 6:
            right -= 1  # the column pairs left of the vertical timing pattern shift by one
        upward = (right + 1) & 2 == 0  # pairs alternate, the first going up
        for vert in range(n):
            r = n - 1 - vert if upward else vert
            for c in (right, right - 1):
                if not func[r][c]:
                    cells.append((r, c))
    data = [0] * n
    for i, (r, c) in enumerate(cells):
        data[r] |= 1 << (n - 1 - c)
        if i < 8 * len(codewords):
            grid[r][c] = codewords[i >> 3] >> (7 - (i & 7)) & 1
    return [int("".join(map(str, row)), 2) for row in grid], data


def _draw_info(grid: list[list[int]], version: int, ecc: str, mask: int) -> None:
    """Write the format information (both copies), the dark module and, from
    version 7, the version information (both copies) into ``grid``."""
    n = len(grid)
    fmt = _bch(_FORMAT_ECC[ecc] << 3 | mask, 10, 0x537) ^ 0x5412
    for i in range(15):
        bit = fmt >> i & 1
        if i < 8:  # down column 8 beside the top-left finder, skipping the timing row
            grid[i if i < 6 else i + 1][8] = bit
            grid[8][n - 1 - i] = bit  # and along row 8 under the top-right finder
        else:  # leftwards along row 8, skipping the timing column; and up column 8 at the bottom
            grid[8][14 - i if i > 8 else 7] = bit
            grid[n - 15 + i][8] = bit
    grid[n - 8][8] = 1  # the dark module
    if version >= 7:
        bits = _bch(version, 12, 0x1F25)
        for i in range(18):
            grid[i // 3][n - 11 + i % 3] = grid[n - 11 + i % 3][i // 3] = bits >> i & 1


def make(data: str | bytes, ecc: str = "M", *, version: int | None = None, mask: int | None = None) -> QRCode:
    """Encode ``data`` (a ``str`` as UTF-8) in byte mode.

    ``version`` defaults to the smallest that fits, ``mask`` to the one with the
    lowest penalty (the first such).  Raises ``ValueError`` for an unknown level,
    a bad version or mask, or data that does not fit.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if ecc not in _FORMAT_ECC:
        raise ValueError(f"unknown error-correction level {ecc!r}")
    if mask is not None and mask not in range(8):
        raise ValueError(f"mask must be 0..7, not {mask!r}")
    if version is None:
        version = next((v for v in range(1, 41) if _fits(len(payload), v, ecc)), 0)
        if not version:
            raise ValueError(f"{len(payload)} bytes do not fit a QR code at level {ecc}")
    elif version not in range(1, 41) or not _fits(len(payload), version, ecc):
        raise ValueError(f"{len(payload)} bytes do not fit version {version} at level {ecc}")
    codewords = _final_codewords(_data_codewords(payload, version, ecc), version, ecc)
    rows, data_bits = _unmasked(version, codewords)
    if mask is None:
        mask = _best_mask(rows, data_bits)
    n = len(rows)
    grid = [[row >> (n - 1 - c) & 1 for c in range(n)] for row in _masked(rows, data_bits, mask)]
    _draw_info(grid, version, ecc, mask)
    return QRCode(version, ecc, mask, [[v == 1 for v in row] for row in grid])


def encode(data: str | bytes, ecc: str = "M") -> list[list[bool]]:
    """The module matrix of ``data`` (``True`` = dark), without a quiet zone."""
    return make(data, ecc).modules


def path_data(modules: list[list[bool]], offset: int = 0) -> str:
    """An SVG path covering the dark modules: one rectangle per horizontal run,
    ``M x y h w v 1 h -w z`` (written compactly), shifted by ``offset`` modules."""
    parts: list[str] = []
    for y, row in enumerate(modules):
        x, n = 0, len(row)
        while x < n:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < n and row[x]:
                x += 1
            parts.append(f"M{start + offset} {y + offset}h{x - start}v1h-{x - start}z")
    return "".join(parts)


def svg(data: str | bytes, ecc: str = "M", size_px: int | None = None,
        label: str = "QR code", **attrs: object) -> Node:
    """An ``<svg>`` node of the QR code of ``data`` with a 4-module quiet zone.

    Dark modules are one ``<path>`` over a white ``<rect>``; the image is
    ``role="img"`` with ``label`` as its ``aria-label``.  Without ``size_px`` the
    svg has only a viewBox (sized by CSS); with it, ``width``/``height`` too.
    Extra ``attrs`` are added to the svg, ``_`` in a name becoming ``-`` and a
    trailing ``_`` dropped (``data_testid="invite-qr"``, ``class_="qr"``).
    """
    modules = encode(data, ecc)
    side = len(modules) + 2 * QUIET_ZONE
    svg_attrs: dict[str, object] = {
        "viewBox": f"0 0 {side} {side}", "role": "img", "aria-label": label,
        "shape-rendering": "crispEdges",
    }
    if size_px is not None:
        svg_attrs["width"] = svg_attrs["height"] = size_px
    svg_attrs.update({k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()})
    return h("svg", svg_attrs,
             h("rect", {"width": side, "height": side, "fill": "#fff"}),
             h("path", {"d": path_data(modules, QUIET_ZONE), "fill": "#000"}))
