"""NumPy references for the imaging plugin's Python Generators
(plugins/imaging/generators/imaging.py), written from the kernels'
definitions: edges repeat (np.pad mode="edge"), the same rounding."""

from __future__ import annotations

import numpy as np


def brighten(img, amount):
    return np.clip(img.astype(np.int64) + amount, 0, 255).astype(np.uint8)


def gauss(img):
    p = np.pad(img.astype(np.int64), 2, mode="edge")
    h, w = img.shape
    wts = (1, 4, 6, 4, 1)
    rows = sum(p[:, k:k + w] * wts[k] for k in range(5))
    cols = sum(rows[k:k + h, :] * wts[k] for k in range(5))
    return ((cols + 128) >> 8).astype(np.uint8)

def sobel(img):
    p = np.pad(img.astype(np.int64), 1, mode="edge")
    h, w = img.shape

    def s(dy, dx):
        return p[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]

    gx = (s(-1, 1) + 2 * s(0, 1) + s(1, 1)) - (s(-1, -1) + 2 * s(0, -1) + s(1, -1))
    gy = (s(1, -1) + 2 * s(1, 0) + s(1, 1)) - (s(-1, -1) + 2 * s(-1, 0) + s(-1, 1))
    return np.minimum(np.sqrt((gx * gx + gy * gy).astype(np.float32)), np.float32(255)).astype(np.uint8)

def gamma(img, g):
    lut = np.clip((np.arange(256, dtype=np.float64) / 255) ** g * 255 + 0.5, 0, 255).astype(np.uint8)
    return lut[img]

def resize(img, out_shape, sx, sy):
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

def unsharp(img, amount):
    v = img.astype(np.float32)
    s = v + np.float32(amount) * (v - gauss(img).astype(np.float32))
    return np.clip(s + 0.5, 0, 255).astype(np.uint8)
