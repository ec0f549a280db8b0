"""Func.in_ (wrapper Funcs) and Func.async_, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")
W, H = 23, 11
NY, NX = np.mgrid[0:H, 0:W].astype(np.int32)
F = NX * 3 + NY


def make():
    f = hl.Func("f")
    f[x, y] = x * 3 + y
    g = hl.Func("g")
    g[x, y] = f[x, y] + f[x + 1, y]
    h = hl.Func("h")
    h[x, y] = f[x, y] * 2
    out = hl.Func("out")
    out[x, y] = g[x, y] + h[x, y]
    return f, g, h, out


def expected() -> np.ndarray:
    f_next = (NX + 1) * 3 + NY
    return (F + f_next) + F * 2


def test_wrapper_for_one_consumer() -> None:
    f, g, h, out = make()
    w = f.in_(g)
    assert w.name().startswith("f_in_g")
    assert f.in_(g).name() == w.name()  # asked again: the same wrapper
    assert w.args()[0].name() == "x" and w.dimensions() == 2
    f.compute_root()
    w.compute_at(g, y).vectorize(x, 4)
    g.compute_root()
    np.testing.assert_array_equal(np.asarray(out.realize([W, H])), expected())
    text = out.lowered_stmt()
    assert w.name() + "[" in text and f.name() + "[" in text  # both have storage of their own


def test_wrapper_for_several_consumers_and_global() -> None:
    f, g, h, out = make()
    w = f.in_([g, h])
    assert f.in_(h).name() == w.name()
    w.compute_root()
    np.testing.assert_array_equal(np.asarray(out.realize([W, H])), expected())
    assert w.name() + "[" in out.lowered_stmt()

    f2, g2, h2, out2 = make()
    gw = f2.in_()
    assert "global_wrapper" in gw.name()
    assert f2.in_().name() == gw.name()
    gw.compute_root().vectorize(x, 8)
    only_g = f2.in_(g2)  # a specific wrapper wins over the global one for g2
    only_g.compute_at(g2, y)
    g2.compute_root()
    np.testing.assert_array_equal(np.asarray(out2.realize([W, H])), expected())
    text = out2.lowered_stmt()
    assert gw.name() + "[" in text and only_g.name() + "[" in text


def test_wrapper_of_a_tuple_and_of_a_reduction() -> None:
    t = hl.Func("t")
    t[x] = hl.Tuple([x * 2, hl.f32(x) / 2])
    r = hl.RDom([(0, 5)])
    s = hl.Func("s")
    s[x] = 0
    s[x] += t[x + r.x][0]
    u = hl.Func("u")
    u[x] = hl.f32(s[x]) + t[x][1]
    t.in_(s).compute_root()
    t.in_(u).compute_at(u, x)
    got = np.asarray(u.realize([10]))
    xs = np.arange(10)
    ref = np.array([sum((i + k) * 2 for k in range(5)) for i in xs], np.float32) + xs.astype(np.float32) / 2
    np.testing.assert_allclose(got, ref)


def test_jit_recompiles_after_wrapping() -> None:
    f, g, h, out = make()
    first = np.asarray(out.realize([W, H])).copy()
    assert "_in_g" not in out.lowered_stmt()
    w = f.in_(g).compute_root()
    second = np.asarray(out.realize([W, H]))
    np.testing.assert_array_equal(first, expected())
    np.testing.assert_array_equal(second, expected())
    assert w.name() + "[" in out.lowered_stmt()


def test_async_is_accepted_and_correct() -> None:
    f, g, h, out = make()
    assert f.compute_root().async_() is not None
    g.compute_at(out, y).async_()
    np.testing.assert_array_equal(np.asarray(out.realize([W, H])), expected())


def test_wrapper_errors() -> None:
    f, g, h, out = make()
    with pytest.raises(hl.HalideError, match="itself"):
        f.in_(f)
    with pytest.raises(hl.HalideError, match="empty"):
        f.in_([])
    with pytest.raises(hl.HalideError, match="before it is defined"):
        hl.Func("nothing").in_(g)
    f.in_(g)
    f.in_(h)
    with pytest.raises(hl.HalideError, match="different wrappers"):
        f.in_([g, h])
