"""compute_at(f, v) where several stages of f have loop v: as upstream, the
producer is computed in each of those loops, for that stage's uses (both the
pure definition and an update of f read it here). Checked against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, xo, xi = hl.Var("x"), hl.Var("y"), hl.Var("xo"), hl.Var("xi")


def pipeline(data: np.ndarray) -> tuple[hl.Func, hl.Func, hl.Func]:
    inp = hl.Buffer(data)
    r = hl.RDom([hl.Range(1, data.shape[0] - 1)], "r")
    g = hl.Func("g")
    # Clamped: g's region in a loop over xo is over-estimated (it may read
    # past the input's columns; values there are not used).
    g[x, y] = inp[hl.clamp(x, 0, data.shape[1] - 1), y]
    g[x, r.x] = g[x, r.x] + g[x, r.x - 1]  # cumulative sum down each column
    f = hl.Func("f")
    f[x, y] = g[x, y]  # the pure definition reads g...
    f[x, 0] = f[x, 0] + g[x, data.shape[0] - 1] * 100  # ...and so does the update
    out = hl.Func("out")
    out[x, y] = f[x, y]
    return g, f, out


def reference(data: np.ndarray) -> np.ndarray:
    ref = np.cumsum(data, axis=0)
    ref[0] += ref[-1] * 100
    return ref


def test_producer_computed_in_the_pure_and_the_update_loop():
    data = np.arange(32, dtype=np.int32).reshape(4, 8)
    g, f, out = pipeline(data)
    f.compute_root().split(x, xo, xi, 4)
    f.update(0).split(x, xo, xi, 4)
    g.compute_at(f, xo)
    np.testing.assert_array_equal(np.asarray(out.realize([8, 4])), reference(data))


def test_stored_at_root_computed_in_each_stage_loop():
    data = (np.arange(60, dtype=np.int32).reshape(5, 12) * 7) % 23
    g, f, out = pipeline(data)
    f.compute_root().split(x, xo, xi, 4)
    f.update(0).split(x, xo, xi, 4)
    g.store_root().compute_at(f, xo)
    np.testing.assert_array_equal(np.asarray(out.realize([12, 5])), reference(data))


def test_level_in_the_pure_stage_only():
    # The update has no loop xo: g is computed in the pure stage's loop and
    # the update reads a g stored outside it, at the root.
    data = np.arange(24, dtype=np.int32).reshape(3, 8)
    inp = hl.Buffer(data)
    g, f = hl.Func("g"), hl.Func("f")
    g[x, y] = inp[x, y] * 2
    f[x, y] = g[x, y]
    f[x, 0] = f[x, 0] + 1
    f.compute_root().split(x, xo, xi, 4)
    g.compute_at(f, xo)
    out = hl.Func("out")
    out[x, y] = f[x, y]
    expected = data * 2
    expected[0] += 1
    np.testing.assert_array_equal(np.asarray(out.realize([8, 3])), expected)


# --- producers inside the loops of an update's RVars ------------------------


def test_producer_at_the_rvar_loop_of_an_update():
    data = ((np.arange(6 * 16, dtype=np.int32).reshape(6, 16) * 7) % 19) - 9
    inp = hl.Buffer(data)
    r = hl.RDom([(0, 16)], "r")
    p, f = hl.Func("p"), hl.Func("f")
    p[x, y] = inp[x, y] * 3 - 1
    f[y] = 0
    f[y] += p[r.x, y]
    p.compute_at(f, r.x)  # one point of p per iteration of the reduction
    np.testing.assert_array_equal(np.asarray(f.realize([6])), (data * 3 - 1).sum(axis=1))


def test_producers_at_the_loops_of_a_split_rvar():
    data = ((np.arange(6 * 16, dtype=np.int32).reshape(6, 16) * 5) % 23) - 11
    inp = hl.Buffer(data)
    r = hl.RDom([(0, 16)], "r")
    ro, ri = hl.RVar("ro"), hl.RVar("ri")
    p, q, f = hl.Func("p"), hl.Func("q"), hl.Func("f")
    p[x, y] = inp[x, y] * 3 - 1
    q[x, y] = inp[x, y] + y
    f[y] = 0
    f[y] += p[r.x, y] * q[r.x, y]
    f.update(0).split(r.x, ro, ri, 4).reorder(ri, ro, y)
    p.compute_at(f, ro)  # four points of p per iteration of ro
    q.store_at(f, y).compute_at(f, ri)
    rows = np.arange(6, dtype=np.int32)[:, None]
    np.testing.assert_array_equal(np.asarray(f.realize([6])), ((data * 3 - 1) * (data + rows)).sum(axis=1))


def test_producer_at_the_pure_var_loop_of_an_update_with_a_tuple():
    # An argmax-style Tuple update per row, its producer computed per row
    # of the update (the update's pure Var y).
    data = ((np.arange(5 * 12, dtype=np.int32).reshape(5, 12) * 11) % 17)
    inp = hl.Buffer(data)
    r = hl.RDom([(0, 12)], "r")
    p, best = hl.Func("p"), hl.Func("best")
    p[x, y] = inp[x, y] * 2
    best[y] = (hl.i32(-1), hl.i32(-1))
    take = p[r.x, y] > best[y][1]
    best[y] = (hl.select(take, r.x, best[y][0]), hl.select(take, p[r.x, y], best[y][1]))
    p.compute_at(best, y)
    idx, val = best.realize([5])
    np.testing.assert_array_equal(np.asarray(idx), np.argmax(data, axis=1))
    np.testing.assert_array_equal(np.asarray(val), data.max(axis=1) * 2)
