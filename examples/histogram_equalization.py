"""Histogram equalization of an 8-bit grayscale image.

Three reductions in a row:

1. ``hist``: a histogram, one update definition at computed coordinates
   (``hist[input[r.x, r.y]] += 1`` over every pixel), split into strips of
   rows that ``rfactor`` turns into independent partial histograms computed
   in parallel;
2. ``cdf``: its running sum, a scan (``cdf[s] = cdf[s - 1] + cdf[s]``);
3. ``lut``: the remapping table, ``(cdf[v] - cdf_min) * 255 / (n - cdf_min)``
   rounded, where ``cdf_min`` (the count of the darkest pixel value present)
   is an inline ``minimum`` over the 256 bins; the output looks every pixel up
   in it. A constant image (``n == cdf_min``) is returned unchanged.

``histogram_equalization(input)`` builds the pipeline; ``equalize(array)``
compiles and runs it on a NumPy array. Runs unchanged under upstream
Halide's Python bindings.
"""

from __future__ import annotations

import halide as hl
import numpy as np

STRIP = 32  # rows per partial histogram


def histogram_equalization(input: hl.ImageParam, parallel: bool = True) -> hl.Func:
    """The equalized image of ``input`` (uint8, 2-D): a Func of (x, y)."""
    x, y, v, u = hl.Var("x"), hl.Var("y"), hl.Var("v"), hl.Var("u")
    width, height = input.width(), input.height()
    r = hl.RDom([hl.Range(0, width), hl.Range(0, height)], "r")

    hist = hl.Func("hist")
    hist[v] = 0
    hist[hl.i32(input[r.x, r.y])] += 1

    s = hl.RDom([hl.Range(1, 255)], "s")
    cdf = hl.Func("cdf")
    cdf[v] = hist[v]
    cdf[s.x] = cdf[s.x - 1] + cdf[s.x]

    n = width * height
    b = hl.RDom([hl.Range(0, 256)], "b")
    cdf_min = hl.Func("cdf_min")
    cdf_min[()] = hl.minimum(hl.select(hist[b.x] > 0, cdf[b.x], n))

    span = n - cdf_min[()]
    lut = hl.Func("lut")
    above = hl.max(cdf[v] - cdf_min[()], 0)
    lut[v] = hl.select(span > 0, hl.u8((hl.i64(above) * 255 + span / 2) / span), hl.u8(v))

    out = hl.Func("equalized")
    out[x, y] = lut[hl.i32(input[x, y])]

    # Schedule. Partial histograms of STRIP rows each, in parallel, then
    # merged bin by bin (vectorized); the scan and the table are 256 points.
    ryo, ryi = hl.RVar("ryo"), hl.RVar("ryi")
    hist.compute_root()
    hist.update(0).split(r.y, ryo, ryi, STRIP)
    partial = hist.update(0).rfactor(ryo, u)
    partial.compute_root().vectorize(v, 8)
    if parallel:
        partial.update(0).parallel(u)
    hist.vectorize(v, 8)
    hist.update(0).vectorize(v, 8)
    cdf.compute_root()
    cdf_min.compute_root()
    lut.compute_root().vectorize(v, 8)
    out.vectorize(x, 16, hl.TailStrategy.GuardWithIf)
    if parallel:
        yo, yi = hl.Var("yo"), hl.Var("yi")
        out.split(y, yo, yi, 16, hl.TailStrategy.GuardWithIf).parallel(yo)
    return out


def equalize(image: np.ndarray) -> np.ndarray:
    """Equalize a uint8 array of shape (height, width)."""
    input = hl.ImageParam(hl.UInt(8), 2, "input")
    input.set(hl.Buffer(np.ascontiguousarray(image, dtype=np.uint8)))
    out = histogram_equalization(input)
    return np.asarray(out.realize([image.shape[1], image.shape[0]])).copy()


def test_image(width: int = 320, height: int = 240) -> np.ndarray:
    """A low-contrast image (values 80 to 159): a gradient plus a ring."""
    yy, xx = np.mgrid[0:height, 0:width]
    ring = np.sin(np.hypot(xx - width / 2, yy - height / 2) / 6.0)
    return (80 + (xx * 50) // width + 14 * ring + 14).astype(np.uint8)


if __name__ == "__main__":
    img = test_image()
    eq = equalize(img)
    print(f"input  {img.shape} values {img.min()}..{img.max()}, {len(np.unique(img))} levels")
    print(f"output {eq.shape} values {eq.min()}..{eq.max()}, {len(np.unique(eq))} levels")
