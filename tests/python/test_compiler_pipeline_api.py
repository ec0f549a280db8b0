"""Pipeline.get_func in realization order (as upstream), Func.realize with
a Target and without sizes for a 0-D Func."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402


def test_get_func_is_realization_order():
    x = hl.Var("x")
    a, b, c = hl.Func("order_a"), hl.Func("order_b"), hl.Func("order_c")
    a[x] = x
    b[x] = a[x] + 1
    c[x] = b[x] * a[x]
    p = hl.Pipeline(c)
    assert [p.get_func(i).name() for i in range(3)] == ["order_a", "order_b", "order_c"]
    with pytest.raises(hl.HalideError):
        p.get_func(3)


def test_realize_with_a_target():
    x = hl.Var("x")
    f = hl.Func("with_target")
    f[x] = x * 5
    out = np.asarray(f.realize([4], hl.get_host_target()))
    np.testing.assert_array_equal(out, np.arange(4) * 5)
    z = hl.Func("zero_d")
    z[()] = 42
    assert np.asarray(z.realize())[()] == 42
