"""The imaging plugin's kernels in plain NumPy, written from the kernels'
definitions (kernels.json, generators/): edges repeat (np.pad mode="edge")
and values round the same way. The demo times the kernels against these and
checks their results; tests/python/test_imaging_kernels.py uses them as its
references. Needs NumPy only."""

from __future__ import annotations

import numpy as np


def invert(img: np.ndarray) -> np.ndarray:
    return 255 - img


def box_blur(padded: np.ndarray) -> np.ndarray:
    """3x3 average of a float32 image that extends one pixel past the output
    on every side: the output is 2 pixels smaller each way."""
    h, w = padded.shape[0] - 2, padded.shape[1] - 2
    rows = padded[:, 0:w] + padded[:, 1 : w + 1] + padded[:, 2 : w + 2]
    return (rows[0:h] + rows[1 : h + 1] + rows[2 : h + 2]) / np.float32(9)


def gradient(shape: tuple[int, int], ax: float, ay: float) -> np.ndarray:
    ys, xs = np.indices(shape, dtype=np.float32)
    return np.float32(ax) * xs + np.float32(ay) * ys


def brighten(img: np.ndarray, amount: int) -> np.ndarray:
    return np.clip(img.astype(np.int32) + amount, 0, 255).astype(np.uint8)


def gauss(img: np.ndarray) -> np.ndarray:
    p = np.pad(img.astype(np.int32), 2, mode="edge")
    h, w = img.shape
    wts = (1, 4, 6, 4, 1)
    rows = p[:, 0:w] * wts[0]
    for k in range(1, 5):
        rows += p[:, k : k + w] * wts[k]
    cols = rows[0:h] * wts[0]
    for k in range(1, 5):
        cols += rows[k : k + h] * wts[k]
    return ((cols + 128) >> 8).astype(np.uint8)


def sobel(img: np.ndarray) -> np.ndarray:
    p = np.pad(img.astype(np.int32), 1, mode="edge")
    h, w = img.shape

    def s(dy: int, dx: int) -> np.ndarray:
        return p[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]

    gx = (s(-1, 1) + 2 * s(0, 1) + s(1, 1)) - (s(-1, -1) + 2 * s(0, -1) + s(1, -1))
    gy = (s(1, -1) + 2 * s(1, 0) + s(1, 1)) - (s(-1, -1) + 2 * s(-1, 0) + s(-1, 1))
    return np.minimum(np.sqrt((gx * gx + gy * gy).astype(np.float32)), np.float32(255)).astype(np.uint8)


def gamma_table(g: float) -> np.ndarray:
    return np.clip((np.arange(256, dtype=np.float64) / 255) ** g * 255 + 0.5, 0, 255).astype(np.uint8)


def gamma(img: np.ndarray, g: float) -> np.ndarray:
    return gamma_table(g)[img]


def resize(img: np.ndarray, out_shape: tuple[int, int], sx: float, sy: float) -> np.ndarray:
    h, w = img.shape
    oh, ow = out_shape
    fx = (np.arange(ow, dtype=np.float32) + np.float32(0.5)) * np.float32(sx) - np.float32(0.5)
    fy = (np.arange(oh, dtype=np.float32) + np.float32(0.5)) * np.float32(sy) - np.float32(0.5)
    x0, y0 = np.floor(fx).astype(int), np.floor(fy).astype(int)
    ax, ay = fx - np.floor(fx), fy - np.floor(fy)
    src = img.astype(np.float32)
    cx, cy = np.clip(x0, 0, w - 1), np.clip(y0, 0, h - 1)
    cx1, cy1 = np.clip(x0 + 1, 0, w - 1), np.clip(y0 + 1, 0, h - 1)
    top = src[cy][:, cx] * (1 - ax) + src[cy][:, cx1] * ax
    bot = src[cy1][:, cx] * (1 - ax) + src[cy1][:, cx1] * ax
    v = top * (1 - ay[:, None]) + bot * ay[:, None]
    return np.clip(v + 0.5, 0, 255).astype(np.uint8)


def unsharp(img: np.ndarray, amount: float) -> np.ndarray:
    v = img.astype(np.float32)
    s = v + np.float32(amount) * (v - gauss(img).astype(np.float32))
    return np.clip(s + 0.5, 0, 255).astype(np.uint8)


def equalize(img: np.ndarray) -> np.ndarray:
    """Histogram equalization over the whole image: value v becomes
    round((cdf[v] - cdf_min) * 255 / (n - cdf_min)), half up."""
    n = img.size
    cdf = np.cumsum(np.bincount(img.ravel(), minlength=256)).astype(np.int64)
    cdf_min = int(cdf[img.min()])
    if cdf_min == n:
        return img.copy()
    lut = ((cdf - cdf_min).clip(0) * 255 * 2 + (n - cdf_min)) // (2 * (n - cdf_min))
    return lut.astype(np.uint8)[img]


def sample_image(height: int, width: int) -> np.ndarray:
    """A generated 8-bit test image in a low-contrast range (about 50 to
    200), with detail at every scale."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    img = 70 + 60 * xx / width + 30 * yy / height  # a gentle gradient
    # A zone plate: rings whose frequency rises to the pixel grid's limit at
    # its rim (blur, resize and Sobel each show it differently).
    cx, cy, radius = 0.22 * width, 0.5 * height, 0.4 * min(height, width)
    r2 = (xx - cx) ** 2 + (yy - cy) ** 2
    inside = r2 < radius**2
    img[inside] = 125 + 60 * np.cos(np.pi * r2[inside] / (2 * radius))
    # Discs of other grey levels and a checkerboard.
    for fx, fy, fr, level in ((0.55, 0.3, 0.12, 180), (0.68, 0.62, 0.16, 60), (0.83, 0.3, 0.09, 150)):
        img[(xx - fx * width) ** 2 + (yy - fy * height) ** 2 < (fr * min(height, width)) ** 2] = level
    board = (xx > 0.5 * width) & (xx < 0.95 * width) & (yy > 0.8 * height) & (yy < 0.95 * height)
    img[board] = np.where(((xx[board] // 12) + (yy[board] // 12)) % 2 == 0, 85, 165)
    noise = np.random.default_rng(11).normal(0, 4, size=img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)
