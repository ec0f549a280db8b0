"""hl.Param, hl.ImageParam, hl.OutputImageParam, hl.Argument: values, ranges,
buffers from hl.Buffer and NumPy, shape Exprs, errors; NumPy references."""

from __future__ import annotations

import gc

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")


def test_param_in_expressions_with_every_operator():
    p = hl.Param(hl.Int(32), "p_ops", 7)
    f = hl.Func("f_ops")
    vals = [x + p, p + x, x - p, p - x, x * p, p * x, x / p, x // p, x % p, p % (x + 1)]
    vals += [x & p, p | x, x ^ p, x << (p - 5), p >> 1, -p, ~p, p**2, hl.select(p > x, 1, 0)]
    vals += [hl.select(p >= x, 1, 0), hl.select(p < x, 1, 0), hl.select(p <= x, 1, 0)]
    vals += [hl.select(p == x, 1, 0), hl.select(p != x, 1, 0), hl.max(p, x), hl.min(x, p)]
    f[x] = tuple(hl.i32(v) for v in vals)
    got = [np.asarray(b) for b in f.realize([12])]
    n = np.arange(12, dtype=np.int32)
    P = np.int32(7)
    ref = [n + P, P + n, n - P, P - n, n * P, P * n, n // P, n // P, n % P, P % (n + 1)]
    ref += [n & P, P | n, n ^ P, n << (P - 5), np.full(12, P >> 1), np.full(12, -P), np.full(12, ~P), np.full(12, 49)]
    ref += [(P > n).astype(np.int32), (P >= n).astype(np.int32), (P < n).astype(np.int32)]
    ref += [(P <= n).astype(np.int32), (P == n).astype(np.int32), (P != n).astype(np.int32)]
    ref += [np.maximum(P, n), np.minimum(n, P)]
    assert len(got) == len(ref)
    for i, (g, r) in enumerate(zip(got, ref, strict=True)):
        np.testing.assert_array_equal(g, r, err_msg=f"value {i}")
    p.set(-3)
    np.testing.assert_array_equal(np.asarray(f.realize([12])[0]), n - 3)


@pytest.mark.parametrize(
    ("t", "value", "dtype"),
    [(hl.UInt(8), 250, np.uint8), (hl.Int(16), -300, np.int16), (hl.Float(32), 0.5, np.float32),
     (hl.Float(64), 0.1, np.float64), (hl.UInt(64), 2**63 + 5, np.uint64), (hl.Int(64), -(2**40), np.int64),
     (hl.Bool(), True, np.bool_)],
)
def test_param_types_and_values(t, value, dtype):
    p = hl.Param(t, "typed", value)
    assert p.type() == t
    assert p.name() == "typed"
    f = hl.Func("typed_f")
    f[x] = p
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.full(3, value, dtype=dtype))


def test_param_constructors_and_repr():
    assert hl.Param(hl.Int(32)).type() == hl.Int(32)
    assert hl.Param(hl.Float(32), 2.0).type() == hl.Float(32)
    p = hl.Param(hl.Int(32), "rp", 3)
    assert repr(p) == "<halide.Param 'rp' type int32>"
    p.set(True)
    p.set(np.int16(4))
    p.set_estimate(5)


def test_param_lossy_values_raise_halide_error():
    with pytest.raises(hl.HalideError, match="losslessly"):
        hl.Param(hl.UInt(8), "lossy", 300)
    p = hl.Param(hl.Int(32), "lossy2", 1)
    for bad in [2.5, 2**40, -(2**70)]:
        with pytest.raises(hl.HalideError):
            p.set(bad)
    with pytest.raises(hl.HalideError):
        hl.Param(hl.Float(32), "lossy3").set(2**24 + 1)  # ints stay exact
    with pytest.raises(TypeError):
        p.set("three")
    with pytest.raises(TypeError):
        hl.Param(hl.Int(32), "p", 1, 2, 3, 4)


def test_python_floats_round_to_float32_params():
    # As upstream's bindings: a Python float is rounded to a float32 Param's type.
    f = hl.Func("f32param")
    p = hl.Param(hl.Float(32), "alpha", 0.1)
    q = hl.Param(hl.Float(32), 1e40)
    f[()] = (p, q)
    out = f.realize([])
    assert np.asarray(out[0])[()] == np.float32(0.1)
    assert np.asarray(out[1])[()] == np.inf
    p.set(0.7)
    p.set_estimate(0.3)
    assert np.asarray(f.realize([])[0])[()] == np.float32(0.7)


def test_param_range_is_checked_when_running():
    p = hl.Param(hl.Int(32), "ranged", 3)
    p.set_range(0, 10)
    assert p.min_value().type() == hl.Int(32)
    f = hl.Func("ranged_f")
    f[x] = x + p
    p.set(20)
    with pytest.raises(hl.HalideError, match="ranged"):
        f.realize([3])
    p.set(10)
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.arange(3) + 10)
    p.set_min_value(None)
    p.set_max_value(None)
    p.set(1000)
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.arange(3) + 1000)


def test_image_param_from_numpy_and_buffer(rng):
    arr = rng.integers(0, 256, size=(5, 7, 3), dtype=np.uint8)
    im = hl.ImageParam(hl.UInt(8), 3, "img")
    assert (im.name(), im.type(), im.dimensions()) == ("img", hl.UInt(8), 3)
    assert repr(im) == "<halide.ImageParam 'img', dims: 3, type: uint8>"
    f = hl.Func("brighten")
    f[x, y, c] = hl.u8_sat(hl.u16(im[x, y, c]) * 3 // 2)
    expected = np.minimum(arr.astype(np.uint16) * 3 // 2, 255).astype(np.uint8)
    # A NumPy array (kept alive by the binding even when the caller drops it).
    im.set(arr.copy())
    gc.collect()
    np.testing.assert_array_equal(np.asarray(f.realize([3, 7, 5])), expected)
    # An hl.Buffer (dimension 0 must have stride 1, as upstream requires by default).
    im.set(hl.Buffer(arr))
    np.testing.assert_array_equal(np.asarray(f.realize([3, 7, 5])), expected)
    with pytest.raises(hl.HalideError, match="stride"):
        im.set(hl.Buffer(np.ascontiguousarray(arr.transpose(2, 1, 0)), reverse_axes=False))
        f.realize([3, 7, 5])
    assert im.get().dimensions() == 3
    im.reset()
    assert not im.get().defined()


def test_image_param_shape_expressions():
    im = hl.ImageParam(hl.Float(32), 3, "shaped")
    f = hl.Func("shape_f")
    f[x] = hl.select(x == 0, im.width(), x == 1, im.height(), x == 2, im.channels(), x == 3, im.left(),
                     x == 4, im.right(), x == 5, im.top(), x == 6, im.bottom(), x == 7, im.dim(2).stride(),
                     x == 8, im.dim(1).min(), im.dim(0).extent() + im.dim(1).max()) + hl.i32(im[0, 0, 0]) * 0
    im.set(np.zeros((4, 6, 2), np.float32))  # Halide: width 2, height 6, channels 4
    got = np.asarray(f.realize([10]))
    np.testing.assert_array_equal(got, [2, 6, 4, 0, 1, 0, 5, 12, 0, 2 + 5])


def test_image_param_clamped_blur_against_numpy(rng):
    arr = rng.random((9, 13), dtype=np.float32)
    im = hl.ImageParam(hl.Float(32), 2, "blur_in")
    clamped = hl.Func("clamped")
    clamped[x, y] = im[hl.clamp(x, 0, im.width() - 1), hl.clamp(y, 0, im.height() - 1)]
    blur = hl.Func("blur")
    blur[x, y] = (clamped[x - 1, y] + clamped[x, y] + clamped[x + 1, y]) / 3
    im.set(arr)
    padded = np.pad(arr, ((0, 0), (1, 1)), mode="edge")
    ref = (padded[:, :-2] + padded[:, 1:-1] + padded[:, 2:]) / 3
    np.testing.assert_allclose(np.asarray(blur.realize([13, 9])), ref, rtol=1e-6)


def test_image_param_errors():
    im = hl.ImageParam(hl.UInt(8), 2, "unbound")
    f = hl.Func("reads_unbound")
    f[x, y] = im[x, y]
    with pytest.raises(hl.HalideError, match="unbound"):
        f.realize([2, 2])
    with pytest.raises(hl.HalideError, match="type"):
        im.set(np.zeros((2, 2), np.float32))
    with pytest.raises(hl.HalideError, match="dimensions"):
        im.set(np.zeros((2, 2, 2), np.uint8))
    with pytest.raises(TypeError):
        im.set("not an image")
    with pytest.raises(hl.HalideError):
        im.dim(5)
    with pytest.raises(hl.HalideError):
        hl.ImageParam().name()
    with pytest.raises(hl.HalideError):
        hl.OutputImageParam().width()
    with pytest.raises(hl.HalideError):
        im[x]  # one coordinate for two dimensions
    im.set(np.full((3, 4), 9, np.uint8))
    with pytest.raises(hl.HalideError):
        f.realize([5, 5])  # reads beyond the 4x3 image


def test_argument_from_params_and_buffers():
    p = hl.Param(hl.Float(64), "arg_p")
    im = hl.ImageParam(hl.Int(16), 3, "arg_im")
    b = hl.Buffer(hl.UInt(8), [4, 4], "arg_b")
    a = hl.Argument(p)
    assert (a.name, a.kind, a.type, a.dimensions) == ("arg_p", hl.ArgumentKind.InputScalar, hl.Float(64), 0)
    a = hl.Argument(im)
    assert (a.name, a.kind, a.type, a.dimensions) == ("arg_im", hl.ArgumentKind.InputBuffer, hl.Int(16), 3)
    a = hl.Argument(b)
    assert (a.name, a.kind, a.dimensions) == ("arg_b", hl.ArgumentKind.InputBuffer, 2)
    assert hl.Argument().name == ""
    assert {k.name for k in hl.ArgumentKind.__members__.values()} == {"InputScalar", "InputBuffer", "OutputBuffer"}


def test_image_param_used_only_as_a_temporary():
    # The ImageParam object is dropped once called: the definition keeps the
    # parameter alive, as upstream's does.
    g = hl.Func("g_temp_image")
    g[x] = hl.ImageParam(hl.UInt(8), 1, "p_temp_image")[x] + 1
    gc.collect()
    args = g.infer_arguments()
    assert [a.name for a in args] == ["p_temp_image"]
    with pytest.raises(hl.HalideError) as e:
        g.realize([4])  # the parameter is not bound
    assert "Internal" not in str(e.value)
    out = hl.Buffer(hl.UInt(8), [4])
    g.compile_to_callable(args)(hl.Buffer(np.array([1, 2, 3, 250], dtype=np.uint8)), out)
    np.testing.assert_array_equal(np.asarray(out), [2, 3, 4, 251])


def test_constraint_naming_another_funcs_output_buffer():
    # As upstream: the other Func's output buffer is then an input of the
    # pipeline, which realize() has no buffer for and compile_to_callable()
    # reports missing from the arguments. A user error, never an internal one.
    g, f = hl.Func("g_other_out"), hl.Func("f_other_out")
    g[x] = x
    f[x] = x * 2
    f.output_buffer().dim(0).set_extent(g.output_buffer().dim(0).extent())
    for attempt in (lambda: f.realize([4]), lambda: f.compile_to_callable([])):
        with pytest.raises(hl.HalideError) as e:
            attempt()
        assert "Internal" not in str(e.value)
        assert "g_other_out" in str(e.value)
