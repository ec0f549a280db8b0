"""Tutorial, Halide types (upstream's lesson 14, written for this project).

Every Expr has a Type; mixing types follows fixed rules (floats win, the
wider integer wins, signed and unsigned of a width give signed, a Python
number takes the other operand's type). Results are computed by realizing
the Exprs and compared with the same arithmetic done by NumPy on the
promoted types.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")
N = 256


def realize(e: hl.Expr) -> np.ndarray:
    f = hl.Func("f")
    f[x] = e
    return np.asarray(f.realize([N]))


def test_type_constructors_and_properties() -> None:
    assert hl.UInt(8).bits() == 8 and hl.UInt(8).is_uint() and not hl.UInt(8).is_int()
    assert hl.Int(16).bytes() == 2 and hl.Int(16).is_int()
    assert hl.Float(32).is_float() and hl.Float(64).bits() == 64
    assert hl.Bool().is_bool() and hl.Bool().bits() == 1
    assert hl.Handle().is_handle()
    assert hl.Int(32).with_bits(8) == hl.Int(8)
    assert hl.UInt(8).with_code(hl.TypeCode.Int) == hl.Int(8)
    assert hl.UInt(8).with_lanes(4).lanes() == 4 and hl.UInt(8).with_lanes(4).is_vector()
    assert hl.UInt(8).can_represent(hl.UInt(4)) and not hl.UInt(8).can_represent(hl.Int(8))
    # max() and min() are Exprs of the type; realized, they are NumPy's limits.
    for t, name in [(hl.UInt(8), "uint8"), (hl.Int(16), "int16"), (hl.Int(32), "int32"), (hl.UInt(16), "uint16")]:
        assert realize(t.max())[0] == np.iinfo(name).max
        assert realize(t.min())[0] == np.iinfo(name).min


def test_var_and_cast_types() -> None:
    assert hl.Expr(x).type() == hl.Int(32)
    assert hl.u8(x).type() == hl.UInt(8)
    assert hl.cast(hl.Float(64), x).type() == hl.Float(64)
    assert hl.f32(x).type() == hl.Float(32)
    assert hl.cast(hl.Int(16), x).type() == hl.Int(16)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("u8", "u8", hl.UInt(8)),
        ("u8", "f32", hl.Float(32)),
        ("i32", "f64", hl.Float(64)),
        ("f32", "f64", hl.Float(64)),
        ("u8", "u16", hl.UInt(16)),
        ("i8", "i32", hl.Int(32)),
        ("u8", "i8", hl.Int(8)),
        ("u8", "i32", hl.Int(32)),
        ("u32", "i8", hl.Int(32)),
    ],
)
def test_promotion_rules(a: str, b: str, expected: hl.Type) -> None:
    ea, eb = getattr(hl, a)(x), getattr(hl, b)(x * 7 - 300)
    result = ea + eb
    assert result.type() == expected and (eb + ea).type() == expected
    # (hl.Type is not hashable, as upstream's: a list, not a dict)
    dtypes = [(hl.UInt(8), np.uint8), (hl.UInt(16), np.uint16), (hl.Int(8), np.int8), (hl.Int(32), np.int32),
              (hl.Float(32), np.float32), (hl.Float(64), np.float64)]
    dtype = next(d for t, d in dtypes if t == expected)
    # NumPy: the same casts of the same values, then the sum in the promoted type (wrapping for integers).
    np_types = {"u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "i8": np.int8, "i32": np.int32,
                "f32": np.float32, "f64": np.float64}
    xs = np.arange(N)
    va = xs.astype(np_types[a]).astype(dtype)
    vb = (xs * 7 - 300).astype(np_types[b]).astype(dtype)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(realize(result), va + vb)


def test_python_numbers_take_the_other_operands_type() -> None:
    assert (hl.u8(x) + 3).type() == hl.UInt(8)
    assert (hl.i16(x) * 2).type() == hl.Int(16)
    assert (hl.f64(x) + 0.5).type() == hl.Float(64)
    assert (x + 0.5).type() == hl.Float(32)  # an int Expr and a float: Float(32)
    np.testing.assert_array_equal(realize(hl.u8(x) + 250), (np.arange(N) + 250).astype(np.uint8))
    with pytest.raises(hl.HalideError):
        hl.u8(x) + 256  # does not fit uint8


def test_overflow_wraps_and_saturating_casts_clamp() -> None:
    xs = np.arange(N)
    np.testing.assert_array_equal(realize(hl.u8(x) * hl.u8(3)), (xs * 3).astype(np.uint8))
    np.testing.assert_array_equal(realize(hl.i8(x) - hl.i8(100)), (xs.astype(np.int8).astype(np.int64) - 100)
                                  .astype(np.int8))
    np.testing.assert_array_equal(realize(hl.u8_sat(x * 2 - 100)), np.clip(xs * 2 - 100, 0, 255).astype(np.uint8))
    np.testing.assert_array_equal(realize(hl.i8_sat(x - 128)), np.clip(xs - 128, -128, 127).astype(np.int8))
    np.testing.assert_array_equal(realize(hl.saturating_cast(hl.UInt(16), (x - 100) * 300)),
                                  np.clip((xs - 100) * 300, 0, 65535).astype(np.uint16))


def test_integer_division_rounds_down_and_modulo_is_positive() -> None:
    xs = np.arange(N) - 128
    e = x - 128
    np.testing.assert_array_equal(realize(e / 7), np.floor_divide(xs, 7))
    np.testing.assert_array_equal(realize(e // 7), np.floor_divide(xs, 7))
    np.testing.assert_array_equal(realize(e % 7), np.mod(xs, 7))
    np.testing.assert_array_equal(realize(e / -7), np.floor_divide(xs, -7) + (np.mod(xs, 7) != 0))


def test_float_to_int_casts_truncate() -> None:
    xs = (np.arange(N) - 128).astype(np.float32) * np.float32(0.375)
    e = (hl.f32(x) - 128) * 0.375
    np.testing.assert_array_equal(realize(e), xs)
    np.testing.assert_array_equal(realize(hl.i32(e)), xs.astype(np.int32))
    np.testing.assert_array_equal(realize(hl.i32(hl.floor(e))), np.floor(xs).astype(np.int32))
    np.testing.assert_array_equal(realize(hl.i32(hl.round(e))), np.round(xs).astype(np.int32))


def test_reinterpret_keeps_the_bits() -> None:
    f = hl.Func("f")
    f[x] = hl.reinterpret(hl.UInt(32), hl.f32(x) * 1.5)
    bits = np.asarray(f.realize([N]))
    np.testing.assert_array_equal(bits, (np.arange(N, dtype=np.float32) * np.float32(1.5)).view(np.uint32))
