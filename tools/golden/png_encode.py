"""A minimal PNG encoder (8-bit grey or RGB, every row unfiltered): the reference interpreter
has no Pillow, so the golden generators write their PNG sources with it, and the tests build
records with the same bytes (``tests/io/_records.py``). Needs only NumPy."""
from __future__ import annotations

import struct
import zlib

import numpy as np


def png_bytes(img, level=-1):
    """PNG bytes of a uint8 (H, W) grey or (H, W, 3) RGB array, its pixel data deflated at
    zlib ``level``."""
    img = np.ascontiguousarray(np.asarray(img, np.uint8))
    h, w = img.shape[:2]
    colour = 2 if img.ndim == 3 else 0
    raw = b"".join(b"\x00" + img[r].tobytes() for r in range(h))

    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body
                + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, level)) + chunk(b"IEND", b""))
