"""Func.memoize and hl.EvictionKey: a memoized Func is computed again only
when the Params it reads or the region it covers change. Each point the
Func computes prints a line (hl.print), so the lines captured count its
computations; results against NumPy; upstream 21's error for a memoized
output."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

TAG = "memoize_py_point"


def chain():
    x, y = hl.Var("x"), hl.Var("y")
    p, q = hl.Param(hl.Int(32), "p", 0), hl.Param(hl.Int(32), "q", 0)
    f, g = hl.Func("f"), hl.Func("g")
    f[x, y] = hl.print(x + 10 * y + p, TAG)
    g[x, y] = 2 * f[x, y] + q
    f.compute_root().memoize()
    return p, q, g


def reference(w: int, h: int, p: int, q: int) -> np.ndarray:
    yy, xx = np.mgrid[0:h, 0:w].astype(np.int32)
    return 2 * (xx + 10 * yy + p) + q


def computed(capfd) -> int:
    return sum(TAG in line for line in capfd.readouterr().out.splitlines())


def run(g, w, h, p_value, q_value) -> None:
    out = np.asarray(g.realize([w, h]))
    np.testing.assert_array_equal(out, reference(w, h, p_value, q_value))


def test_computed_once_for_the_same_params(capfd):
    p, q, g = chain()
    p.set(1)
    for _ in range(3):
        run(g, 8, 4, 1, 0)
    assert computed(capfd) == 32


def test_new_param_values_and_regions_compute_again(capfd):
    p, q, g = chain()
    p.set(1)
    run(g, 8, 4, 1, 0)
    p.set(2)
    run(g, 8, 4, 2, 0)
    assert computed(capfd) == 64
    p.set(1)
    run(g, 8, 4, 1, 0)
    assert computed(capfd) == 0
    run(g, 4, 4, 1, 0)
    assert computed(capfd) == 16


def test_a_param_only_the_consumer_reads_is_not_in_the_key(capfd):
    _, q, g = chain()
    q.set(1)
    run(g, 8, 4, 0, 1)
    q.set(7)
    run(g, 8, 4, 0, 7)
    assert computed(capfd) == 32


def test_eviction_key_and_memoize_return_the_func():
    x = hl.Var("x")
    k = hl.Param(hl.UInt(64), "k", 3)
    f, g = hl.Func("f"), hl.Func("g")
    f[x] = x * 2
    g[x] = f[x] + 1
    assert f.compute_root().memoize(hl.EvictionKey(k)) is f
    np.testing.assert_array_equal(np.asarray(g.realize([5])), np.arange(5, dtype=np.int32) * 2 + 1)
    assert f.memoize() is f


def test_memoized_output_is_upstreams_error():
    x = hl.Var("x")
    h = hl.Func("h")
    h[x] = x
    h.memoize()
    with pytest.raises(
        hl.HalideError,
        match="Can't compile Pipeline with memoized output Func: h. Memoization is "
        "valid only on intermediate Funcs because it takes control of buffer allocation.",
    ):
        h.realize([4])


def test_float_eviction_key_is_upstreams_error():
    x = hl.Var("x")
    fp = hl.Param(hl.Float(32), "fp", 1.0)
    f, g = hl.Func("f"), hl.Func("g")
    f[x] = x
    g[x] = f[x]
    f.compute_root().memoize(hl.EvictionKey(fp))
    with pytest.raises(hl.HalideError, match="Can't use floating-point types as a memoization eviction key"):
        g.realize([4])


def test_memoize_tag_keys_on_the_quantized_value(capfd):
    x = hl.Var("x")
    scale = hl.Param(hl.Float(32), "mt_scale", 1.0)
    f, g = hl.Func("mt_f"), hl.Func("mt_g")
    f[x] = hl.print(x + hl.memoize_tag(hl.i32(scale * 2)), TAG)
    g[x] = f[x]
    f.compute_root().memoize()
    for value, new_points in [(1.0, 6), (1.2, 0), (1.5, 6), (1.0, 0)]:
        scale.set(value)
        np.testing.assert_array_equal(np.asarray(g.realize([6])), np.arange(6) + int(value * 2))
        assert computed(capfd) == new_points, value


def test_memoize_tag_with_keys_allows_an_input_buffer(capfd):
    x = hl.Var("x")
    im = hl.ImageParam(hl.Int(32), 1, "mt_im")
    version = hl.Param(hl.Int(32), "mt_version", 0)
    f, g = hl.Func("mt_f2"), hl.Func("mt_g2")
    f[x] = hl.print(hl.memoize_tag(im[x] * 2, version), TAG)
    g[x] = f[x]
    f.compute_root().memoize()
    data = np.arange(8, dtype=np.int32) ** 2
    im.set(hl.Buffer(data))
    for _ in range(2):
        np.testing.assert_array_equal(np.asarray(g.realize([8])), data * 2)
    assert computed(capfd) == 8
    data[:] = 1
    version.set(1)
    np.testing.assert_array_equal(np.asarray(g.realize([8])), np.full(8, 2))
    assert computed(capfd) == 8
