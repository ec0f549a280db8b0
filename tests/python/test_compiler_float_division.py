"""A float divided by a constant is multiplied by the constant's reciprocal
(1 / c in double, rounded once to the type), as upstream Halide's simplifier
does: results are NumPy's x * float32(1 / c), bit for bit, and may differ in
the last bit from x / c; inside strict_float() or for a strict_float target
(realize's target=) the division stays."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def _divided(divisor: float, n: int, strict: bool = False, target: hl.Target | None = None) -> np.ndarray:
    x = hl.Var("x")
    f = hl.Func("fdiv")
    quotient = hl.cast(hl.Float(32), x) / hl.f32(divisor)
    f[x] = hl.strict_float(quotient) if strict else quotient
    return np.asarray(f.realize([n]) if target is None else f.realize([n], target=target))


def test_float32_division_by_a_constant_is_a_multiplication():
    n = 2000
    xs = np.arange(n, dtype=np.float32)
    recip = np.float32(1.0 / np.float64(np.float32(2.4)))
    got = _divided(2.4, n)
    np.testing.assert_array_equal(got, xs * recip)
    assert np.any(got != xs / np.float32(2.4))  # the last bit does change somewhere


def test_strict_float_keeps_the_division():
    n = 2000
    xs = np.arange(n, dtype=np.float32)
    np.testing.assert_array_equal(_divided(2.4, n, strict=True), xs / np.float32(2.4))


def test_strict_float_target_keeps_the_division():
    n = 2000
    xs = np.arange(n, dtype=np.float32)
    strict = hl.get_jit_target_from_environment().with_feature(hl.TargetFeature.StrictFloat)
    np.testing.assert_array_equal(_divided(2.4, n, target=strict), xs / np.float32(2.4))
    # Without the feature, in the same process: multiplied.
    recip = np.float32(1.0 / np.float64(np.float32(2.4)))
    np.testing.assert_array_equal(_divided(2.4, n), xs * recip)


def test_float64_division_by_a_constant():
    x = hl.Var("x")
    f = hl.Func("fdiv64")
    f[x] = hl.cast(hl.Float(64), x) / 3.0
    got = np.asarray(f.realize([500]))
    np.testing.assert_array_equal(got, np.arange(500, dtype=np.float64) * (1.0 / 3.0))


def test_compile_jit_takes_its_target():
    # Func.compile_jit(target=) compiles for that target (C++:
    # pipeline_test FuncCompileJitUsesItsTarget shows that realizing for the
    # same target then compiles nothing more).
    n = 2000
    xs = np.arange(n, dtype=np.float32)
    strict = hl.get_jit_target_from_environment().with_feature(hl.TargetFeature.StrictFloat)
    x = hl.Var("x")
    f = hl.Func("fdiv_cj")
    f[x] = hl.cast(hl.Float(32), x) / hl.f32(2.4)
    f.compile_jit(target=strict)
    np.testing.assert_array_equal(np.asarray(f.realize([n], target=strict)), xs / np.float32(2.4))
    with pytest.raises(hl.HalideError, match="compile_jit"):
        f.compile_jit(target=hl.Target("arm-64-linux"))
