"""Matrix multiply and dot product, float32.

``matrix_multiply(a, b)``: ``c = a @ b`` as an update definition over an
RDom spanning the shared dimension, scheduled in tiles: each tile of the
output (``TILE_X`` columns by ``TILE_Y`` rows) is accumulated in registers
(``prod``, computed per tile, the columns vectorized and the rows unrolled,
the reduction loop outside both), tiles in parallel over rows of tiles.

``dot(a, b)``: ``sum(a[i] * b[i])`` with ``rfactor``: the reduction is split
into chunks of ``LANES`` elements and ``rfactor`` makes the position inside
a chunk a pure dimension of an intermediate Func, so ``LANES`` partial sums
are computed side by side in one vector, then added together.

Layout: a NumPy array of shape (rows, cols) is a Halide buffer of width
cols, so ``a[k, i]`` is ``A[i, k]`` in NumPy's terms. ``multiply(A, B)`` and
``dot_product(a, b)`` run the pipelines on NumPy arrays. Runs unchanged
under upstream Halide's Python bindings.
"""

from __future__ import annotations

import halide as hl
import numpy as np

TILE_X = 16  # output columns per tile: two vectors of 8 floats
TILE_Y = 4  # output rows per tile
LANES = 8


def matrix_multiply(a: hl.ImageParam, b: hl.ImageParam) -> hl.Func:
    """c(j, i) = sum over k of a(k, i) * b(j, k): NumPy's ``A @ B``. The
    output must be at least one tile (TILE_X x TILE_Y) large."""
    x, y = hl.Var("x"), hl.Var("y")
    k = hl.RDom([hl.Range(0, a.width())], "k")

    prod = hl.Func("prod")
    prod[x, y] = hl.f32(0)
    prod[x, y] += a[k.x, y] * b[x, k.x]
    c = hl.Func("c")
    c[x, y] = prod[x, y]

    # Schedule: tiles of the output; the tile's accumulators live in prod,
    # computed per tile, the k loop outermost inside it.
    xo, yo, xi, yi = hl.Var("xo"), hl.Var("yo"), hl.Var("xi"), hl.Var("yi")
    c.tile(x, y, xo, yo, xi, yi, TILE_X, TILE_Y).vectorize(xi, LANES).unroll(yi).parallel(yo)
    prod.compute_at(c, xo).vectorize(x, LANES).unroll(y)
    prod.update(0).reorder(x, y, k.x).vectorize(x, LANES).unroll(y)
    return c


def dot(a: hl.ImageParam, b: hl.ImageParam) -> hl.Func:
    """A zero-dimensional Func: the sum of a(i) * b(i) over a's extent."""
    u = hl.Var("u")
    r = hl.RDom([hl.Range(0, a.width())], "r")
    d = hl.Func("dot")
    d[()] = hl.f32(0)
    d[()] += a[r.x] * b[r.x]

    ro, ri = hl.RVar("ro"), hl.RVar("ri")
    d.update(0).split(r.x, ro, ri, LANES)
    partial = d.update(0).rfactor(ri, u)  # partial(u) = sum over ro of a(ro * LANES + u) * ...
    partial.compute_root().vectorize(u, LANES)
    partial.update(0).vectorize(u, LANES)
    return d


def _input(array: np.ndarray, dims: int, name: str) -> hl.ImageParam:
    p = hl.ImageParam(hl.Float(32), dims, name)
    p.set(hl.Buffer(np.ascontiguousarray(array, dtype=np.float32)))
    return p


def multiply(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b for float32 arrays of shapes (m, k) and (k, n)."""
    assert a.shape[1] == b.shape[0], (a.shape, b.shape)
    c = matrix_multiply(_input(a, 2, "a"), _input(b, 2, "b"))
    return np.asarray(c.realize([b.shape[1], a.shape[0]])).copy()


def dot_product(a: np.ndarray, b: np.ndarray) -> float:
    """The dot product of two float32 vectors of the same length."""
    assert a.shape == b.shape and a.ndim == 1, (a.shape, b.shape)
    d = dot(_input(a, 1, "a"), _input(b, 1, "b"))
    return float(np.asarray(d.realize([]))[()])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    a = rng.standard_normal((96, 80)).astype(np.float32)
    b = rng.standard_normal((80, 112)).astype(np.float32)
    c = multiply(a, b)
    print(f"a @ b: {c.shape}, max |error| vs NumPy {np.abs(c - a @ b).max():.2e}")
    v, w = a[0], b[:, 0]
    print(f"dot: {dot_product(v, w):.6f} (NumPy {float(np.dot(v, w)):.6f})")
