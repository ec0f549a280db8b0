"""A first-order recursive (IIR) blur of a float32 image: scans.

Down each column, ``f[y] = (1 - alpha) * in[y] + alpha * f[y - 1]`` (the
first row is copied), then back up the result,
``g[y] = (1 - alpha) * f[y] + alpha * g[y + 1]`` (the last row is copied):
each is an update definition over an RDom of rows that reads the Func's own
previous row, a scan. Columns are independent, so the scans are vectorized
across x and strips of columns run in parallel. Rows are blurred the same
way by transposing, blurring columns and transposing back, so that every
scan runs along y with contiguous vectors in x.

``iir_blur(input, alpha)`` builds the pipeline; ``blur(array, alpha)`` runs
it on a NumPy array. Runs unchanged under upstream Halide's Python bindings.
"""

from __future__ import annotations

import halide as hl
import numpy as np

LANES = 8
STRIP = 32  # columns per parallel task
TAIL = hl.TailStrategy.GuardWithIf


def blur_columns(src: hl.Func, height: hl.Expr, alpha: hl.Expr, name: str) -> hl.Func:
    """The causal then anti-causal scan down the columns of src (x, y)."""
    x, y = hl.Var("x"), hl.Var("y")
    r = hl.RDom([hl.Range(1, height - 1)], name + "_r")

    down = hl.Func(name + "_down")
    down[x, y] = src[x, y]
    down[x, r.x] = (1 - alpha) * src[x, r.x] + alpha * down[x, r.x - 1]

    up = hl.Func(name + "_up")
    up[x, y] = down[x, y]
    last = height - 1 - r.x  # rows height-2 .. 0
    up[x, last] = (1 - alpha) * down[x, last] + alpha * up[x, last + 1]

    # Schedule: both scans over the whole image, in strips of STRIP columns
    # in parallel, each strip row after row on vectors of LANES columns.
    xo, xi = hl.Var("xo"), hl.Var("xi")
    for f in (down, up):
        f.compute_root().vectorize(x, LANES, TAIL).parallel(y)
        f.update(0).split(x, xo, xi, STRIP, TAIL).vectorize(xi, LANES, TAIL).parallel(xo)
    return up


def iir_blur(input: hl.ImageParam, alpha: hl.Expr) -> hl.Func:
    """input (float32, x, y) blurred down and up the columns, then along
    the rows both ways."""
    x, y = hl.Var("x"), hl.Var("y")
    width, height = input.width(), input.height()
    src = hl.Func("src")
    src[x, y] = input[x, y]
    cols = blur_columns(src, height, alpha, "cols")

    transposed = hl.Func("transposed")
    transposed[x, y] = cols[y, x]
    rows = blur_columns(transposed, width, alpha, "rows")

    out = hl.Func("iir_blurred")
    out[x, y] = rows[y, x]

    transposed.compute_root().vectorize(x, LANES, TAIL).parallel(y)
    out.vectorize(x, LANES, TAIL).parallel(y)
    return out


def blur(image: np.ndarray, alpha: float) -> np.ndarray:
    """The IIR blur of a float32 array of shape (height, width)."""
    input = hl.ImageParam(hl.Float(32), 2, "input")
    input.set(hl.Buffer(np.ascontiguousarray(image, dtype=np.float32)))
    a = hl.Param(hl.Float(32), "alpha", alpha)
    out = iir_blur(input, a)
    return np.asarray(out.realize([image.shape[1], image.shape[0]])).copy()


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    img = np.zeros((96, 128), dtype=np.float32)
    img[48, 64] = 1.0  # an impulse: the output is the filter's response
    img += rng.random(img.shape, dtype=np.float32) * 0.01
    out = blur(img, 0.8)
    print(f"in  sum {img.sum():.4f} max {img.max():.4f}")
    print(f"out sum {out.sum():.4f} max {out.max():.4f} at {np.unravel_index(out.argmax(), out.shape)}")
