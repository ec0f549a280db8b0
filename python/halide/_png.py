"""PNG bytes for a Halide buffer, so Jupyter shows buffers as images.

``halide.Buffer._repr_png_`` and ``halide.runtime.Buffer._repr_png_`` call
:func:`repr_png`. The encoder is the standard library's zlib: the PNG
format is small and fixed, and halide-runtime needs no imaging library.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import numpy as np

_COLOR_TYPES = {1: 0, 2: 4, 3: 2, 4: 6}  # channels -> gray, gray+alpha, RGB, RGBA


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(pixels: np.ndarray) -> bytes:
    """PNG bytes of an (H, W) or (H, W, C) uint8 or uint16 array, C in 1..4."""
    if pixels.dtype not in (np.uint8, np.uint16):
        raise TypeError(f"encode_png: expected uint8 or uint16 pixels, got {pixels.dtype}")
    if pixels.ndim == 2:
        pixels = pixels[:, :, np.newaxis]
    if pixels.ndim != 3 or pixels.shape[2] not in _COLOR_TYPES:
        raise ValueError(f"encode_png: expected shape (H, W) or (H, W, 1..4), got {pixels.shape}")
    height, width, channels = pixels.shape
    if height == 0 or width == 0:
        raise ValueError("encode_png: an image needs at least one pixel")
    depth = pixels.dtype.itemsize * 8
    header = struct.pack(">IIBBBBB", width, height, depth, _COLOR_TYPES[channels], 0, 0, 0)
    rows = np.ascontiguousarray(pixels, dtype=pixels.dtype.newbyteorder(">")).reshape(height, -1).view(np.uint8)
    # Filter type 0 (none) before every row.
    raw = np.concatenate([np.zeros((height, 1), np.uint8), rows], axis=1).tobytes()
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 6))
        + _chunk(b"IEND", b"")
    )


def display_pixels(buffer: Any) -> np.ndarray | None:
    """The (H, W) or (H, W, C) uint8/uint16 pixels Jupyter should show for a
    buffer with dimensions (x, y) or (x, y, c), or None when it is not an
    image: another rank or type, more than 4 channels, no elements."""
    try:
        array = np.asarray(buffer)  # NumPy order: (y, x) or (c, y, x)
    except Exception:  # a display hook must not raise (undefined buffer, ...)
        return None
    if array.dtype == object:
        return None
    if array.size == 0:
        return None
    if array.ndim == 3:
        if array.shape[0] not in _COLOR_TYPES:
            return None
        array = np.moveaxis(array, 0, -1)
    elif array.ndim != 2:
        return None
    if array.dtype in (np.uint8, np.uint16):
        return array
    if array.dtype == np.bool_:
        return array.astype(np.uint8) * 255
    if array.dtype.kind == "f":
        scaled = np.nan_to_num(np.clip(array.astype(np.float64), 0.0, 1.0)) * 255.0
        return np.round(scaled).astype(np.uint8)
    return None


def repr_png(buffer: Any) -> bytes | None:
    """PNG bytes of `buffer` (floats are taken as 0..1), or None."""
    pixels = display_pixels(buffer)
    return None if pixels is None else encode_png(pixels)
