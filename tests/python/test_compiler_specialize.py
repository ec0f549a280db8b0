"""Func.specialize / Stage.specialize / specialize_fail from Python: every
branch computes what the unspecialized Func does (NumPy references), and a
failing specialization raises hl.HalideError with its message."""

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def test_specializations_on_params_match_numpy() -> None:
    p = hl.Param(hl.Int(32), "p")
    b = hl.Param(hl.Bool(), "b")
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x * 10 + y + p * hl.select(b, x, y)
    f.specialize(p == 0).vectorize(x, 4)
    s = f.specialize(b)
    assert isinstance(s, hl.Stage)
    s.specialize(p > 5).parallel(y)
    f.specialize(b).vectorize(x, 8)  # the same specialization again
    xs, ys = np.meshgrid(np.arange(13), np.arange(4))
    for pv in (0, 3, 9):
        for bv in (False, True):
            p.set(pv)
            b.set(bv)
            got = np.asarray(f.realize([13, 4]))
            want = xs * 10 + ys + pv * (xs if bv else ys)
            np.testing.assert_array_equal(got, want)


def test_update_stage_specialization() -> None:
    k = hl.Param(hl.Int(32), "k")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x
    f[x] += k
    f.update(0).specialize(k == 2).vectorize(x, 4)
    for kv in (2, -7):
        k.set(kv)
        np.testing.assert_array_equal(np.asarray(f.realize([11])), np.arange(11) + kv)


def test_specialize_fail_raises_with_its_message() -> None:
    p = hl.Param(hl.Int(32), "p")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = 2 * x
    f.specialize(p > 3).vectorize(x, 4)
    f.specialize_fail("Unhandled p")
    p.set(1)
    with pytest.raises(hl.HalideError, match="specialize_fail.*Unhandled p"):
        f.realize([8])
    p.set(4)
    np.testing.assert_array_equal(np.asarray(f.realize([8])), 2 * np.arange(8))


def test_specialize_errors() -> None:
    p = hl.Param(hl.Int(32), "p")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = x
    with pytest.raises(hl.HalideError, match="depends on Var or RVar x"):
        f.specialize(x > 0)
    with pytest.raises(hl.HalideError, match="must be of type bool"):
        f.specialize(p + 1)
    f.specialize_fail("done")
    with pytest.raises(hl.HalideError, match="after specialize_fail"):
        f.specialize(p > 1)


def test_input_bounds_follow_the_branch_that_runs() -> None:
    # Upstream 21 infers min 10 with p true and -10 with p false: the
    # specialization's reads, not the union of both branches'.
    im = hl.ImageParam(hl.Float(32), 1, "im")
    p = hl.Param(hl.Bool(), "p")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.select(p, im[x + 10], im[x - 10])
    f.specialize(p)
    for pv, lo in ((True, 10), (False, -10)):
        p.set(pv)
        im.reset()
        f.infer_input_bounds([100])
        buf = im.get()
        assert (buf.dim(0).min(), buf.dim(0).extent()) == (lo, 100)
        data = np.arange(100, dtype=np.float32) * 0.5
        np.asarray(buf)[...] = data  # buf(lo + i) = data[i], read at f(i)
        np.testing.assert_array_equal(np.asarray(f.realize([100])), data)


def test_an_input_only_the_other_branch_reads_may_be_small() -> None:
    im = hl.ImageParam(hl.Float(32), 1, "im")
    p = hl.Param(hl.Bool(), "p")
    x = hl.Var("x")
    f = hl.Func("f")
    f[x] = hl.select(p, im[x], 0.0)
    f.specialize(p)
    im.set(hl.Buffer(np.full(10, 3.0, dtype=np.float32)))
    p.set(False)
    np.testing.assert_array_equal(np.asarray(f.realize([100])), np.zeros(100, dtype=np.float32))
    p.set(True)
    with pytest.raises(hl.HalideError, match="accessed at 99, which is beyond the max"):
        f.realize([100])
