#!/usr/bin/env python3
"""Draw the app icons (a domino tile on the table's green) as PNG files.

Pure Python: shapes are signed-distance functions with one pixel of
anti-aliasing, and the PNG is written with zlib + struct. The PNGs are
committed (static/icons/); run this again only to change the drawing:

    python3 scripts/make_icons.py [--out static/icons]

Writes icon-192/512.png (rounded square, transparent corners, purpose "any"),
maskable-192/512.png (full bleed, the tile inside the 80% safe circle) and
apple-touch-icon.png (180x180, opaque: iOS fills transparency with black).
"""
from __future__ import annotations

import argparse
import math
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GREEN = (31, 107, 67)       # #1f6b43, the felt (static/app.css --felt)
GREEN_DARK = (14, 59, 37)   # #0e3b25, --felt-dark (theme colour)
IVORY = (250, 246, 233)
EDGE = (196, 188, 160)
INK = (33, 37, 41)

# Pip positions on a unit half-tile (x, y in 0..1), as on a real domino.
PIPS = {
    0: [], 1: [(.5, .5)], 2: [(.27, .27), (.73, .73)], 3: [(.27, .27), (.5, .5), (.73, .73)],
    4: [(.27, .27), (.73, .27), (.27, .73), (.73, .73)],
    5: [(.27, .27), (.73, .27), (.5, .5), (.27, .73), (.73, .73)],
    6: [(.27, .22), (.73, .22), (.27, .5), (.73, .5), (.27, .78), (.73, .78)],
}


def png(width: int, height: int, rows: list[bytes]) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 per row
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def rounded_box(px: float, py: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance to a rounded rectangle (negative inside)."""
    qx, qy = abs(px - cx) - hw + r, abs(py - cy) - hh + r
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - r


def cover(d: float) -> float:
    return min(1.0, max(0.0, 0.5 - d))


def over(dst: list[float], color: tuple[int, int, int], alpha: float) -> None:
    """Composite color with coverage alpha over dst (premultiplied-free RGBA floats)."""
    if alpha <= 0:
        return
    a0 = dst[3]
    a = alpha + a0 * (1 - alpha)
    for i in range(3):
        dst[i] = (color[i] * alpha + dst[i] * a0 * (1 - alpha)) / a if a else 0.0
    dst[3] = a


def draw(size: int, *, maskable: bool, opaque: bool, top: int = 6, bottom: int = 3) -> bytes:
    s = float(size)
    c = s / 2
    if maskable:  # tile within the safe circle of radius 0.4 * size
        tw = 0.30 * s
    else:
        tw = 0.36 * s
    th = 2 * tw
    tr = 0.12 * tw
    # A slight tilt makes it read as a domino at a glance.
    angle = math.radians(-18)
    ca, sa = math.cos(angle), math.sin(angle)
    pip_r = 0.085 * tw
    pips = [(c - tw / 2 + x * tw, c - th / 2 + y * tw) for x, y in PIPS[top]]
    pips += [(c - tw / 2 + x * tw, c + y * tw) for x, y in PIPS[bottom]]
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            px, py = i + 0.5, j + 0.5
            pix = [0.0, 0.0, 0.0, 0.0]
            if maskable or opaque:
                over(pix, GREEN, 1.0)
            else:
                over(pix, GREEN, cover(rounded_box(px, py, c, c, c, c, 0.2 * s)))
            # Tile coordinates (rotate the pixel into the tile's frame).
            dx, dy = px - c, py - c
            tx, ty = c + dx * ca - dy * sa, c + dx * sa + dy * ca
            shadow = rounded_box(tx - 0.02 * s, ty - 0.03 * s, c, c, tw / 2, th / 2, tr)
            over(pix, GREEN_DARK, 0.6 * cover(shadow))
            body = rounded_box(tx, ty, c, c, tw / 2, th / 2, tr)
            if body < 1.0:
                over(pix, EDGE, cover(body))
                over(pix, IVORY, cover(body + max(1.0, 0.025 * tw)))
                line = max(abs(ty - c) - max(1.0, 0.025 * tw), abs(tx - c) - 0.36 * tw)
                over(pix, INK, cover(line))
                for qx, qy in pips:
                    over(pix, INK, cover(math.hypot(tx - qx, ty - qy) - pip_r))
            row += bytes((round(pix[0]), round(pix[1]), round(pix[2]), round(pix[3] * 255)))
        rows.append(bytes(row))
    return png(size, size, rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "static" / "icons"))
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = {
        "icon-192.png": (192, False, False), "icon-512.png": (512, False, False),
        "maskable-192.png": (192, True, True), "maskable-512.png": (512, True, True),
        "apple-touch-icon.png": (180, False, True),
    }
    for name, (size, maskable, opaque) in jobs.items():
        (out / name).write_bytes(draw(size, maskable=maskable, opaque=opaque))
        print(f"wrote {out / name}")


if __name__ == "__main__":
    main()
