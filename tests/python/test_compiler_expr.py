"""halide.Type, Expr operators and IROperator functions, checked against NumPy.

Each expression is realized over a small domain and compared with the same
computation done by NumPy on the coordinates (never with values computed by
our own code).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

W, H = 7, 5
x, y = hl.Var("x"), hl.Var("y")
# NumPy's view of the same coordinates: arrays of shape (H, W).
NY, NX = np.mgrid[0:H, 0:W].astype(np.int32)


def realize(e) -> np.ndarray:
    f = hl.Func("f")
    f[x, y] = e
    return np.asarray(f.realize([W, H]))


def test_type_constructors_and_methods():
    assert repr(hl.Int(32)) == "<halide.Type int32>"
    assert repr(hl.UInt(8)) == "<halide.Type uint8>"
    assert repr(hl.Float(32)) == "<halide.Type float32>"
    assert repr(hl.Bool()) == "<halide.Type bool>"
    assert repr(hl.Handle()) == "<halide.Type handle64>"
    t = hl.Int(16, 4)
    assert (t.bits(), t.lanes(), t.bytes()) == (16, 4, 2)
    assert t.code() == hl.TypeCode.Int
    assert t.is_int() and t.is_vector() and not t.is_uint() and not t.is_float()
    assert hl.Bool() == hl.UInt(1) and hl.Bool().is_bool()
    assert hl.Int(32).with_bits(8) == hl.Int(8)
    assert hl.Int(32).with_code(hl.TypeCode.UInt) == hl.UInt(32)
    assert hl.Int(32).with_lanes(4).element_of() == hl.Int(32)
    assert hl.Int(32) != hl.UInt(32)
    assert hl.Int(32).is_max(2**31 - 1) and hl.Int(32).is_min(-(2**31))
    assert hl.UInt(64).is_max(2**64 - 1)
    assert hl.UInt(8).can_represent(hl.UInt(4)) and not hl.UInt(8).can_represent(hl.Int(8))
    assert str(hl.Float(64)) == "float64"


@pytest.mark.parametrize(
    ("t", "dtype"),
    [(hl.Int(8), np.int8), (hl.UInt(16), np.uint16), (hl.Int(32), np.int32), (hl.UInt(32), np.uint32)],
)
def test_type_max_min(t, dtype):
    assert realize(t.max() + hl.cast(t, x * 0))[0, 0] == np.iinfo(dtype).max
    assert realize(t.min() + hl.cast(t, x * 0))[0, 0] == np.iinfo(dtype).min


def sym(v):
    return v


# (halide expression, numpy reference) over x in [0, W), y in [0, H).
ARITH = [
    (lambda: x + y, lambda: NX + NY),
    (lambda: x - 2 * y, lambda: NX - 2 * NY),
    (lambda: 3 - x, lambda: 3 - NX),
    (lambda: x * y + 1, lambda: NX * NY + 1),
    (lambda: (x - 3) / 2, lambda: np.floor_divide(NX - 3, 2)),  # Halide division floors
    (lambda: (x - 3) // 2, lambda: np.floor_divide(NX - 3, 2)),
    (lambda: 7 / (y + 1), lambda: np.floor_divide(7, NY + 1)),
    (lambda: 7 // (y + 1), lambda: np.floor_divide(7, NY + 1)),
    (lambda: (x - 3) % 4, lambda: np.mod(NX - 3, 4)),  # non-negative modulo
    (lambda: 10 % (y + 1), lambda: np.mod(10, NY + 1)),
    (lambda: -x, lambda: -NX),
    (lambda: ~x, lambda: ~NX),
    (lambda: x & 3, lambda: NX & 3),
    (lambda: 6 | x, lambda: 6 | NX),
    (lambda: x ^ y, lambda: NX ^ NY),
    (lambda: x << 2, lambda: NX << 2),
    (lambda: 64 >> y, lambda: 64 >> NY),
    (lambda: x**3, lambda: NX**3),
    (lambda: 2**y, lambda: (2.0**NY).astype(np.float32)),
    (lambda: x / 2.0, lambda: (NX / np.float32(2)).astype(np.float32)),
    (lambda: hl.f32(x) // 2, lambda: np.floor(NX / np.float32(2)).astype(np.float32)),
    (lambda: x + 1.5, lambda: (NX + np.float32(1.5)).astype(np.float32)),
    (lambda: hl.select(x < 3, x, y), lambda: np.where(NX < 3, NX, NY)),
    (lambda: hl.select(x < 2, 1, x < 4, 2, 3), lambda: np.select([NX < 2, NX < 4], [1, 2], 3).astype(np.int32)),
    (lambda: hl.select((x < 2) | (y > 3), 1, 0), lambda: ((NX < 2) | (NY > 3)).astype(np.int32)),
    (lambda: hl.select((x >= 2) & (y <= 3), 1, 0), lambda: ((NX >= 2) & (NY <= 3)).astype(np.int32)),
    (lambda: hl.select(hl.logical_not(x == y), 1, 0), lambda: (NX != NY).astype(np.int32)),
    (lambda: hl.select(x != 2, 1, 0), lambda: (NX != 2).astype(np.int32)),
    (lambda: hl.select(2 > x, 1, 0), lambda: (NX < 2).astype(np.int32)),
    (lambda: hl.min(x, y), lambda: np.minimum(NX, NY)),
    (lambda: hl.max(x, y, 3), lambda: np.maximum(np.maximum(NX, NY), 3)),
    (lambda: hl.clamp(x - 2, 0, 3), lambda: np.clip(NX - 2, 0, 3)),
    (lambda: hl.abs(x - 4), lambda: np.abs(NX - 4).astype(np.uint32)),
    (lambda: hl.absd(x, y), lambda: np.abs(NX - NY).astype(np.uint32)),
    (lambda: hl.u8(x * 50), lambda: (NX * 50).astype(np.uint8)),
    (lambda: hl.u8_sat(x * 50 - 60), lambda: np.clip(NX * 50 - 60, 0, 255).astype(np.uint8)),
    (lambda: hl.i8_sat(x * 40 - 120), lambda: np.clip(NX * 40 - 120, -128, 127).astype(np.int8)),
    (lambda: hl.u16(x) * 1000, lambda: NX.astype(np.uint16) * np.uint16(1000)),
    (lambda: hl.cast(hl.Int(16), x) - 5, lambda: NX.astype(np.int16) - np.int16(5)),
    (lambda: hl.i64(x) + 2**40, lambda: NX.astype(np.int64) + 2**40),
    (lambda: x + 2**40, lambda: NX.astype(np.int64) + 2**40),
]


@pytest.mark.parametrize("case", range(len(ARITH)))
def test_operator_matches_numpy(case):
    e, ref = ARITH[case]
    got = realize(e())
    want = ref()
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


MATH = [
    (hl.sqrt, np.sqrt),
    (hl.exp, np.exp),
    (hl.log, np.log),
    (hl.sin, np.sin),
    (hl.cos, np.cos),
    (hl.tan, np.tan),
    (hl.atan, np.arctan),
    (hl.tanh, np.tanh),
    (hl.floor, np.floor),
    (hl.ceil, np.ceil),
    (hl.round, np.round),
    (hl.trunc, np.trunc),
]


@pytest.mark.parametrize(("hfn", "nfn"), MATH, ids=[m[0].__name__ for m in MATH])
def test_math_matches_numpy(hfn, nfn):
    got = realize(hfn(hl.f32(x) * 0.375 + 0.25 + hl.f32(y)))
    v = NX.astype(np.float32) * np.float32(0.375) + np.float32(0.25) + NY.astype(np.float32)
    np.testing.assert_allclose(got, nfn(v), rtol=2e-6, atol=1e-6)
    assert got.dtype == np.float32


def test_lerp_pow_hypot_atan2():
    a = hl.f32(x)
    na = NX.astype(np.float32)
    nb = NY.astype(np.float32)
    np.testing.assert_allclose(realize(hl.lerp(a, hl.f32(y), 0.25)), na + (nb - na) * 0.25, rtol=1e-6)
    np.testing.assert_allclose(realize(hl.pow(a, 1.5)), na**1.5, rtol=1e-5)
    np.testing.assert_allclose(realize(hl.hypot(a, hl.f32(y))), np.hypot(na, nb), rtol=1e-6)
    np.testing.assert_allclose(realize(hl.atan2(a, hl.f32(y) + 1)), np.arctan2(na, nb + 1), rtol=1e-6)
    # Integer lerp: rounds to nearest as upstream.
    got = realize(hl.lerp(hl.u8(0), hl.u8(255), hl.u8(x * 30)))
    want = np.round(255 * (NX * 30).astype(np.float64) / 255).astype(np.uint8)
    np.testing.assert_array_equal(got, want)


def test_python_int_coercion():
    u = hl.u8(x)
    assert (u + 255).type() == hl.UInt(8)
    assert (u + 2**40).type() == hl.Int(64)
    assert (u + 1.5).type() == hl.Float(32)
    assert hl.Expr(7).type() == hl.Int(32)
    assert hl.Expr(2**40).type() == hl.Int(64)
    assert hl.Expr(True).type() == hl.Bool()
    assert hl.Expr(np.uint8(3)).type() == hl.Int(32)
    assert (x + np.int16(3)).type() == hl.Int(32)


@pytest.mark.parametrize("bad", [256, -1, 1000])
def test_lossy_int_constant_is_an_error(bad):
    with pytest.raises(hl.HalideError, match=f"Integer constant {bad} will be implicitly coerced to type uint8"):
        _ = hl.u8(x) + bad
    with pytest.raises(hl.HalideError, match="implicitly coerced"):
        _ = bad * hl.u8(x)


def test_lossy_float_constant_warns():
    with pytest.warns(RuntimeWarning, match="interpreted as a float32"):
        hl.Expr(0.1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        hl.Expr(0.5)  # exactly representable: no warning


def test_float_casts_of_python_floats_keep_double_precision():
    # As upstream: hl.f64(0.1) is the double 0.1, hl.f32(0.1) the float nearest it, and the
    # explicit cast (what the lossy-constant warning advises) warns no more.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d, f = hl.f64(0.1), hl.f32(0.1)
    assert d.type() == hl.Float(64) and f.type() == hl.Float(32)
    assert hl.evaluate(d) == 0.1
    assert hl.evaluate(f) == float(np.float32(0.1))
    assert hl.evaluate(hl.f64(1e300)) == 1e300


def test_bool_of_expr_raises():
    with pytest.raises(ValueError, match="cannot be converted to a bool.*'&'/'\\|'"):
        bool(x < 1)
    with pytest.raises(ValueError):
        _ = (x < 1) and (x > 2)


def test_comparisons_return_exprs_and_none():
    assert isinstance(x == 1, hl.Expr)
    assert (x < y).type() == hl.Bool()
    assert (x == None) is False  # noqa: E711 - falls back to identity, as upstream


def test_bad_operand_types():
    with pytest.raises(TypeError):
        _ = x + "a"
    with pytest.raises(TypeError):
        hl.sqrt([1, 2])
    with pytest.raises(TypeError, match="select"):
        hl.select(x < 1, 2)


def test_compiler_error_is_halide_error():
    with pytest.raises(hl.HalideError, match="select"):
        hl.select(x < 1, 1.5, x)
    assert issubclass(hl.HalideError, Exception)
