"""Ahead-of-time kernels with reductions and Tuple outputs (issue 12):
Python generators compiled to shared libraries by hl.main (as a build system
runs them), loaded with halide.runtime and compared with NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, xi, yi = hl.Var("x"), hl.Var("y"), hl.Var("xi"), hl.Var("yi")


@hl.generator(name="red_kernels_histogram")
class Histogram:
    """A 256-bin histogram of an 8-bit image (an update at computed
    coordinates over RDom(input)) and its cumulative sum (a scan)."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    hist = hl.OutputBuffer(hl.Int(32), 1)
    cdf = hl.OutputBuffer(hl.Int(32), 1)

    def generate(g):
        r = hl.RDom(g.input)
        h = hl.Func("h")
        h[x] = 0
        h[hl.i32(g.input[r.x, r.y])] += 1
        h.compute_root()
        g.hist[x] = h[x]
        s = hl.RDom([(1, 255)], "s")
        g.cdf[x] = h[x]
        g.cdf[s.x] = g.cdf[s.x] + g.cdf[s.x - 1]
        g.hist.bound(x, 0, 256)
        g.cdf.bound(x, 0, 256)


@hl.generator(name="red_kernels_row_stats")
class RowStats:
    """Per row: (argmax, max, min) as a Tuple output from one Tuple update,
    and the row sums through an inline sum, rows in parallel."""

    input = hl.InputBuffer(hl.Float(32), 2)
    stats = hl.OutputBuffer([hl.Int(32), hl.Float(32), hl.Float(32)], 1)
    total = hl.OutputBuffer(hl.Float(32), 1)

    def generate(g):
        w = g.input.width()
        r = hl.RDom([(0, w)], "r")
        st = g.stats
        st[y] = (hl.i32(-1), hl.f32(-np.inf), hl.f32(np.inf))
        v = g.input[r.x, y]
        better = v > st[y][1]
        st[y] = (hl.select(better, r.x, st[y][0]), hl.max(st[y][1], v), hl.min(st[y][2], v))
        g.total[y] = hl.sum(g.input[r.x, y])
        st.parallel(y)
        st.update(0).parallel(y)
        g.total.parallel(y)


@hl.generator(name="red_kernels_matmul")
class MatMul:
    """C(x, y) = sum_k A(k, y) * B(x, k), tiled and vectorized, the
    accumulator per tile with its update vectorized and unrolled."""

    a = hl.InputBuffer(hl.Float(32), 2)
    b = hl.InputBuffer(hl.Float(32), 2)
    c = hl.OutputBuffer(hl.Float(32), 2)

    def generate(g):
        k = hl.RDom([(0, g.a.width())], "k")
        prod = hl.Func("prod")
        prod[x, y] = 0.0
        prod[x, y] += g.a[k.x, y] * g.b[x, k.x]
        g.c[x, y] = prod[x, y]
        vec = g.natural_vector_size(hl.Float(32))
        g.c.tile(x, y, xi, yi, 2 * vec, 4).vectorize(xi, vec).unroll(yi).parallel(y)
        prod.compute_at(g.c, x).vectorize(x, vec).unroll(y)
        prod.update(0).reorder(x, y, k.x).vectorize(x, vec).unroll(x).unroll(y)


def _compile(tmp_path: Path, name: str):
    hlr = pytest.importorskip("halide.runtime")
    hl.main(["gens.py", "-g", name, "-o", str(tmp_path), "-e", "c_header,shared_library", "target=host"])
    return hlr.load(str(tmp_path / f"{name}.so"), name)


def test_histogram_and_cdf(tmp_path):
    k = _compile(tmp_path, "red_kernels_histogram")
    assert list(k.argument_names) == ["input", "hist", "cdf"]
    img = ((np.arange(37 * 53).reshape(37, 53) * 97) % 251).astype(np.uint8)
    hist, cdf = np.empty(256, np.int32), np.empty(256, np.int32)
    k(img, hist, cdf)
    ref = np.bincount(img.ravel(), minlength=256)
    np.testing.assert_array_equal(hist, ref)
    np.testing.assert_array_equal(cdf, np.cumsum(ref))


def test_tuple_output_of_a_tuple_update(tmp_path):
    k = _compile(tmp_path, "red_kernels_row_stats")
    assert list(k.argument_names) == ["input", "stats.0", "stats.1", "stats.2", "total"]
    rng = np.random.default_rng(12)
    data = rng.integers(-50, 50, size=(9, 31)).astype(np.float32)  # integers: exact sums
    data[3, 5] = data[3, 20] = 99  # a tie: the first index wins
    idx, mx, mn, total = (np.empty(9, t) for t in (np.int32, np.float32, np.float32, np.float32))
    k(data, idx, mx, mn, total)
    np.testing.assert_array_equal(idx, np.argmax(data, axis=1))
    np.testing.assert_array_equal(mx, data.max(axis=1))
    np.testing.assert_array_equal(mn, data.min(axis=1))
    np.testing.assert_array_equal(total, data.sum(axis=1))


def test_matrix_multiply_kernel(tmp_path):
    k = _compile(tmp_path, "red_kernels_matmul")
    n = 64
    i = np.arange(n)
    a = ((i[None, :] * 7 + i[:, None] * 3) % 17 - 8).astype(np.float32) / 8  # multiples of 1/8: exact sums
    b = ((i[None, :] * 5 + i[:, None] * 11) % 13 - 6).astype(np.float32) / 8
    c = np.empty((n, n), np.float32)
    k(a, b, c)
    np.testing.assert_array_equal(c, (a.astype(np.float64) @ b).astype(np.float32))
