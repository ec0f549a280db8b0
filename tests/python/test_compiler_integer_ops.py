"""hl's integer helpers (saturating, halving, widening and rounding arithmetic,
mul_shift_right, bit counts, bit fields, division rounding toward zero),
strict_float and unsafe_promise_clamped, JIT-compiled over edge values and
compared with the same arithmetic done by NumPy (in Python integers where
64 bits could overflow).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")
TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32]
WIDE = {
    np.int8: np.int16,
    np.uint8: np.uint16,
    np.int16: np.int32,
    np.uint16: np.uint32,
    np.int32: np.int64,
    np.uint32: np.uint64,
}


def edge_values(dt) -> np.ndarray:
    info = np.iinfo(dt)
    vals = {info.min, info.min + 1, info.min // 2, 0, 1, 2, info.max // 2, info.max - 1, info.max}
    if info.min < 0:
        vals |= {-1, -2}
    rng = np.random.default_rng(info.bits * 7 + (info.min < 0))
    vals |= {int(v) for v in rng.integers(info.min, info.max, size=6, endpoint=True, dtype=dt)}
    return np.array(sorted(vals), dtype=dt)


def pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pa, pb = np.meshgrid(a, b, indexing="ij")
    return pa.ravel(), pb.ravel()


def realize(fn, *arrays: np.ndarray, lanes: int = 8) -> np.ndarray:
    bufs = [hl.Buffer(np.ascontiguousarray(a)) for a in arrays]
    f = hl.Func("f")
    f[x] = fn(*[b[x] for b in bufs])
    f.vectorize(x, lanes)
    return np.asarray(f.realize([len(arrays[0])]))


def big(a: np.ndarray) -> np.ndarray:
    """The values as Python integers (no overflow in the reference)."""
    return a.astype(object)


def as_type(v: np.ndarray, dt) -> np.ndarray:
    """Python integers to dt, wrapping modulo 2^bits as a C cast does."""
    info = np.iinfo(dt)
    return ((v - info.min) % (1 << info.bits) + info.min).astype(dt)


def saturate(v: np.ndarray, dt) -> np.ndarray:
    info = np.iinfo(dt)
    return np.clip(v, info.min, info.max).astype(dt)


def check(got: np.ndarray, expected: np.ndarray):
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dt", TYPES, ids=lambda t: t.__name__)
def test_saturating_and_halving(dt):
    a, b = pairs(edge_values(dt), edge_values(dt))
    A, B = big(a), big(b)
    check(realize(hl.saturating_add, a, b), saturate(A + B, dt))
    check(realize(hl.saturating_sub, a, b), saturate(A - B, dt))
    check(realize(hl.halving_add, a, b), as_type((A + B) >> 1, dt))
    check(realize(hl.rounding_halving_add, a, b), as_type((A + B + 1) >> 1, dt))
    check(realize(hl.halving_sub, a, b), as_type((A - B) >> 1, dt))


@pytest.mark.parametrize("dt", TYPES, ids=lambda t: t.__name__)
def test_widening(dt):
    a, b = pairs(edge_values(dt), edge_values(dt))
    A, B = big(a), big(b)
    wide = WIDE[dt]
    signed_wide = np.dtype(wide).type if np.iinfo(wide).min < 0 else np.dtype(f"int{np.iinfo(wide).bits}").type
    check(realize(hl.widening_add, a, b), (A + B).astype(wide))
    check(realize(hl.widening_sub, a, b), (A - B).astype(signed_wide))
    check(realize(hl.widening_mul, a, b), (A * B).astype(wide))
    wa, nb = pairs(edge_values(wide), edge_values(dt))
    check(realize(hl.widen_right_add, wa, nb), as_type(big(wa) + big(nb), wide))
    check(realize(hl.widen_right_sub, wa, nb), as_type(big(wa) - big(nb), wide))
    check(realize(hl.widen_right_mul, wa, nb), as_type(big(wa) * big(nb), wide))


def shift_ref(v: np.ndarray, s: np.ndarray, dt) -> np.ndarray:
    """Halide's v << s on Python integers: a negative s shifts right."""
    out = np.array([p << q if q >= 0 else p >> -q for p, q in zip(v, s, strict=True)], dtype=object)
    return as_type(out, dt)


def rounding_shift_right_ref(v: np.ndarray, s: np.ndarray, dt) -> np.ndarray:
    out = [((p + (1 << (q - 1))) >> q) if q > 0 else None for p, q in zip(v, s, strict=True)]
    left = shift_ref(v, -s, dt)
    return np.array([left[i] if o is None else o for i, o in enumerate(out)], dtype=object).astype(dt)


@pytest.mark.parametrize("dt", TYPES, ids=lambda t: t.__name__)
def test_shifts(dt):
    bits = np.iinfo(dt).bits
    sdt = np.dtype(f"int{bits}").type
    a, s = pairs(edge_values(dt), np.arange(-(bits - 1), bits, dtype=sdt))
    A, S = big(a), big(s)
    wide = WIDE[dt]
    check(realize(hl.widening_shift_left, a, s), shift_ref(A, S, wide))
    check(realize(hl.widening_shift_right, a, s), shift_ref(A, -S, wide))
    check(realize(hl.rounding_shift_right, a, s), rounding_shift_right_ref(A, S, dt))
    check(realize(hl.rounding_shift_left, a, s), rounding_shift_right_ref(A, -S, dt))
    # A Python int amount is a constant of the operand's width.
    e = edge_values(dt)
    three = np.full(len(e), 3, dtype=object)
    check(realize(lambda v: hl.rounding_shift_right(v, 3), e), rounding_shift_right_ref(big(e), three, dt))
    check(realize(lambda v: hl.widening_shift_left(v, 3), e), shift_ref(big(e), three, wide))


@pytest.mark.parametrize("dt", TYPES, ids=lambda t: t.__name__)
def test_mul_shift_right(dt):
    bits = np.iinfo(dt).bits
    a, b = pairs(edge_values(dt), edge_values(dt))
    P = big(a) * big(b)
    for q in (0, 1, bits - 1, 2 * bits - 1):
        check(realize(lambda p, r, q=q: hl.mul_shift_right(p, r, q), a, b), saturate(P >> q, dt))
        rounding = P + ((1 << (q - 1)) if q > 0 else 0)
        check(realize(lambda p, r, q=q: hl.rounding_mul_shift_right(p, r, q), a, b), saturate(rounding >> q, dt))


@pytest.mark.parametrize("dt", [*TYPES, np.int64, np.uint64], ids=lambda t: t.__name__)
def test_bit_counts(dt):
    e = edge_values(dt)
    bits = np.iinfo(dt).bits
    u = e.view(np.dtype(f"uint{bits}"))
    check(realize(hl.popcount, e), np.bitwise_count(u).astype(dt))
    lengths = np.array([int(v).bit_length() for v in u])
    check(realize(hl.count_leading_zeros, e), (bits - lengths).astype(dt))
    trailing = np.array([bits if v == 0 else (int(v) & -int(v)).bit_length() - 1 for v in u])
    check(realize(hl.count_trailing_zeros, e), trailing.astype(dt))


@pytest.mark.parametrize("dt", TYPES, ids=lambda t: t.__name__)
def test_round_to_zero_division(dt):
    e = edge_values(dt)
    a, b = pairs(e, np.where(e == -1, 3, e).astype(dt))  # min / -1 overflows
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    divisor = np.where(b64 == 0, 1, b64)
    rem = np.where(b64 == 0, 0, np.fmod(a64, divisor))  # C's %: the sign of the dividend
    quo = np.where(b64 == 0, 0, (a64 - rem) // divisor)
    check(realize(hl.div_round_to_zero, a, b), quo.astype(dt))
    check(realize(hl.mod_round_to_zero, a, b), rem.astype(dt))


def test_extract_and_concat_bits():
    words = np.array([0x12345678, 0xFFFFFFFF, 0, 0x80000001] * 4, dtype=np.uint32)
    for lsb in (0, 4, 8, 28, 32, 40):
        got = realize(lambda w, lsb=lsb: hl.extract_bits(hl.UInt(8), w, lsb), words)
        check(got, ((words.astype(np.uint64) >> lsb) & 0xFF).astype(np.uint8))
    lo, hi = pairs(edge_values(np.uint8), edge_values(np.uint8))
    check(realize(lambda p, q: hl.concat_bits([p, q]), lo, hi), np.stack([lo, hi], axis=-1).view(np.uint16)[:, 0])
    s = edge_values(np.int8)[:16]
    four = realize(lambda p: hl.concat_bits([p, p + 1, p, p]), s)
    expected = np.stack([s, s + np.int8(1), s, s], axis=-1).view(np.int32)[:, 0]
    check(four, expected)


def test_strict_float_erf_and_trig():
    a = np.full(16, 1 + 2.0**-12, dtype=np.float32)
    c = np.float32(1 + 2.0**-11)
    # NumPy rounds the product before subtracting: 0 here, where a fused
    # multiply-add would give 2^-24.
    check(realize(lambda v: hl.strict_float(v * v - c), a), a * a - c)
    v = np.linspace(-3, 3, 32, dtype=np.float32)
    np.testing.assert_allclose(realize(hl.erf, v), [math.erf(t) for t in v], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(realize(hl.fast_sin, v), np.sin(v), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(realize(hl.fast_cos, v), np.cos(v), rtol=1e-6, atol=1e-6)


def test_unsafe_promise_clamped():
    table = np.arange(100, 110, dtype=np.int32)
    idx = (np.arange(64, dtype=np.int32) * 7) % 10
    t, i = hl.Buffer(table), hl.Buffer(idx)
    f = hl.Func("f")
    f[x] = t[hl.unsafe_promise_clamped(i[x], 0, 9)]
    np.testing.assert_array_equal(np.asarray(f.realize([64])), table[idx])
    g = hl.Func("g")
    g[x] = hl.unsafe_promise_clamped(i[x], None, 9)
    np.testing.assert_array_equal(np.asarray(g.realize([64])), idx)


def test_errors_and_types():
    f32, u8, i8 = hl.f32(x), hl.u8(x), hl.i8(x)
    for fn in (hl.saturating_add, hl.saturating_sub, hl.halving_add, hl.rounding_halving_add, hl.halving_sub):
        with pytest.raises(hl.HalideError):
            fn(f32, f32)
    with pytest.raises(hl.HalideError, match="widen_right_add"):
        hl.widen_right_add(u8, u8)
    with pytest.raises(hl.HalideError, match="must be an integer"):
        hl.popcount(f32)
    with pytest.raises(hl.HalideError, match="not a power of two"):
        hl.concat_bits([u8, u8, u8])
    with pytest.raises(hl.HalideError, match="not an integer"):
        hl.div_round_to_zero(f32, f32)
    with pytest.raises(hl.HalideError, match="unsigned"):
        hl.mul_shift_right(u8, u8, i8)
    assert hl.saturating_add(u8, 3).type() == hl.Int(32)
    assert hl.widening_shift_left(u8, 3).type() == hl.UInt(16)
    assert hl.widening_mul(u8, i8).type() == hl.Int(16)
    assert hl.widening_add(f32, f32).type() == hl.Float(64)
    assert hl.mul_shift_right(u8, i8, 3).type() == hl.Int(8)
