"""Stage.rfactor and Stage.atomic from Python, checked against NumPy; the
error messages of non-associative updates (upstream's words)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

RNG = np.random.default_rng(12)
x, u, v = hl.Var("x"), hl.Var("u"), hl.Var("v")


def test_rfactor_sum_over_two_rvars():
    data = RNG.integers(-50, 50, size=(6, 10), dtype=np.int32)  # rows y, columns x
    img = hl.Buffer(data)
    r = hl.RDom([(0, 10), (0, 6)], "r")
    f = hl.Func("f")
    f[x] = x
    f[x] += img[r.x, r.y] * (x + 1)
    intm = f.update(0).rfactor(r.y, u)
    assert isinstance(intm, hl.Func) and intm.dimensions() == 2
    assert [a.name() for a in intm.args()] == ["x", "u"]
    intm.compute_root()
    intm.update(0).vectorize(u, 4)
    f.update(0).parallel(x)
    out = np.asarray(f.realize([3]))
    expected = np.arange(3) + data.sum() * (np.arange(3) + 1)
    np.testing.assert_array_equal(out, expected)


def test_rfactor_dot_product_of_a_split_rvar():
    n = 45
    a = RNG.standard_normal(n).astype(np.float32)
    b = RNG.standard_normal(n).astype(np.float32)
    ab, bb = hl.Buffer(a), hl.Buffer(b)
    r = hl.RDom([(0, n)], "r")
    rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
    dot = hl.Func("dot")
    dot[()] = hl.f32(0)
    dot[()] += ab[r.x] * bb[r.x]
    dot.update(0).split(r.x, rxo, rxi, 8)
    intm = dot.update(0).rfactor([(rxi, u)])
    intm.compute_root().vectorize(u, 8)
    intm.update(0).vectorize(u, 8)
    out = float(np.asarray(dot.realize([]))[()])
    assert out == pytest.approx(float(np.dot(a.astype(np.float64), b.astype(np.float64))), rel=1e-5, abs=1e-5)


def test_rfactor_max_tuple_and_histogram():
    data = RNG.integers(0, 16, size=(5, 9), dtype=np.uint8)
    img = hl.Buffer(data)
    r = hl.RDom([(0, 9), (0, 5)], "r")
    m = hl.Func("m")
    m[x] = hl.f32(-1)
    m[x] = hl.max(m[x], hl.f32(img[r.x, r.y]) * hl.f32(x + 1))
    mi = m.update(0).rfactor([(r.x, u), (r.y, v)])
    assert mi.dimensions() == 3
    t = hl.Func("t")
    t[x] = (hl.i32(0), hl.i32(1000))
    t[x] = (t[x][0] + hl.i32(img[r.x, r.y]), hl.min(t[x][1], hl.i32(img[r.x, r.y]) + x))
    t.update(0).rfactor(r.x, u).compute_root()
    h = hl.Func("h")
    h[x] = 0
    h[hl.i32(img[r.x, r.y])] += 1
    h.update(0).rfactor(r.y, u).compute_root()
    np.testing.assert_array_equal(np.asarray(m.realize([2])), data.max() * np.array([1, 2], dtype=np.float32))
    t0, t1 = t.realize([2])
    np.testing.assert_array_equal(np.asarray(t0), [int(data.sum())] * 2)
    np.testing.assert_array_equal(np.asarray(t1), [int(data.min()), int(data.min()) + 1])
    np.testing.assert_array_equal(np.asarray(h.realize([16])), np.bincount(data.ravel(), minlength=16))


@pytest.mark.parametrize(
    "define",
    [
        lambda f, r: f.__setitem__(x, f[x] - r.x),
        lambda f, r: f.__setitem__(x, f[x] * 2 + r.x),
        lambda f, r: f.__setitem__(x, f[x] / (r.x + 1)),
    ],
    ids=["subtract", "affine", "divide"],
)
def test_rfactor_and_atomic_refuse_non_associative_updates(define):
    r = hl.RDom([(0, 10), (0, 4)], "r")
    f = hl.Func("f")
    f[x] = 1
    define(f, r)
    with pytest.raises(hl.HalideError, match="can't prove associativity of the operator"):
        f.update(0).rfactor(r.y, u)
    with pytest.raises(hl.HalideError, match=r"Failed to call atomic\(\) on .*associativity or commutativity"):
        f.update(0).atomic()
    f.update(0).atomic(True)  # the override skips the check


def test_rfactor_errors_name_the_problem():
    r = hl.RDom([(0, 10), (0, 4)], "r")
    s = hl.RDom([(0, 3)], "s")
    f = hl.Func("f")
    f[x] = 0
    f[x] += r.x
    with pytest.raises(hl.HalideError, match="not in the reduction domain"):
        f.update(0).rfactor(s.x, u)
    with pytest.raises(hl.HalideError, match="the name x is already used"):
        f.update(0).rfactor(r.y, x)
    with pytest.raises(hl.HalideError, match=r"rfactor\(\) must be called on an update definition"):
        hl.Stage(f).rfactor(r.y, u)
    with pytest.raises(TypeError):
        f.update(0).rfactor(x, u)


def test_atomic_race_free_and_racy_parallel_loops():
    r = hl.RDom([(0, 10)], "r")
    g = hl.Func("g")
    g[x] = 0
    g[r.x] += r.x * 3
    assert isinstance(g.update(0).atomic(), hl.Stage)
    g.update(0).parallel(r.x)
    np.testing.assert_array_equal(np.asarray(g.realize([10])), np.arange(10) * 3)
    h = hl.Func("h")
    h[x] = 0
    h[r.x % 3] += 1
    h.update(0).atomic().parallel(r.x)  # racy: atomic updates (test_compiler_atomic.py)
    np.testing.assert_array_equal(np.asarray(h.realize([3])), [4, 3, 3])
