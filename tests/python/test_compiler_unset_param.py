"""A Param never given a value: upstream 21 (observed) raises hl.HalideError
"Parameter p does not have a valid scalar value." when a pipeline reading it
is realized (compile_jit alone, and a Callable, which takes the value as an
argument, are fine); ours computed with 0."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")
WORDS = "Parameter {} does not have a valid scalar value"


def _func(p, name):
    f = hl.Func(name)
    f[x] = x + p
    return f


@pytest.mark.parametrize("t", [hl.Int(32), hl.Float(32), hl.UInt(8)])
def test_realize_raises(t):
    p = hl.Param(t, "unset_p")
    f = _func(p, "unset_f")
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_p")):
        f.realize([4])
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_p")):
        hl.Pipeline(f).realize([4])


def test_compile_jit_then_realize_raises():
    p = hl.Param(hl.Int(32), "unset_jit")
    f = _func(p, "unset_jit_f")
    f.compile_jit()  # compiling needs no value
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_jit")):
        f.realize([4])


def test_bool_param_and_evaluate_raise():
    b = hl.Param(hl.Bool(), "unset_b")
    g = hl.Func("unset_bool")
    g[x] = hl.select(b, 1, 2)
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_b")):
        g.realize([2])
    p = hl.Param(hl.Int(32), "unset_ev")
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_ev")):
        hl.evaluate(p + 1)


def test_range_or_estimate_is_no_value():
    p = hl.Param(hl.Int(32), "unset_range")
    p.set_range(0, 10)
    p.set_estimate(4)
    with pytest.raises(hl.HalideError, match=WORDS.format("unset_range")):
        _func(p, "unset_range_f").realize([2])


def test_callable_takes_the_value_and_set_or_default_runs():
    p = hl.Param(hl.Int(32), "unset_call")
    f = _func(p, "unset_call_f")
    c = f.compile_to_callable([p])
    out = hl.Buffer(hl.Int(32), [4])
    c(5, out)
    np.testing.assert_array_equal(np.asarray(out), np.arange(4) + 5)
    p.set(7)
    np.testing.assert_array_equal(np.asarray(f.realize([3])), np.arange(3) + 7)
    q = hl.Param(hl.Int(32), "valued_q", 3)
    np.testing.assert_array_equal(np.asarray(_func(q, "valued_f").realize([3])), np.arange(3) + 3)
