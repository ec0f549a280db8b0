"""hl.scatter / hl.gather: one update storing several values at several
places, every value read before the first store. Expected values from NumPy
(the same results upstream Halide 21 gives)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_swap():
    f = hl.Func("sg_swap")
    f[x] = x
    f[hl.scatter([3, 5])] = f[hl.gather([5, 3])]
    expected = np.arange(8)
    expected[[3, 5]] = expected[[5, 3]]
    np.testing.assert_array_equal(np.asarray(f.realize([8])), expected)


def test_rotate_rows_with_an_rdom():
    # Rotate the three values of each row: rows are (x, 0..2).
    f = hl.Func("sg_rotate")
    f[x, y] = x * 10 + y
    r = hl.RDom([(0, 4)], "sg_r")
    f[r.x, hl.scatter(0, 1, 2)] = f[r.x, hl.gather(1, 2, 0)] * 2
    ref = np.add.outer(np.arange(3), np.arange(4) * 10)  # [y, x]
    ref = np.roll(ref, -1, axis=0) * 2
    np.testing.assert_array_equal(np.asarray(f.realize([4, 3])), ref)


def test_operations_distribute_and_vectorize():
    f = hl.Func("sg_vec")
    f[x, y] = 0
    f[x, hl.scatter([0, 1])] = 2 * hl.gather([x, x + 10]) + hl.gather([1, 2])
    f.update().vectorize(x, 4)
    out = np.asarray(f.realize([8, 2]))
    np.testing.assert_array_equal(out, [2 * np.arange(8) + 1, 2 * (np.arange(8) + 10) + 2])


def test_errors():
    f = hl.Func("sg_mismatch")
    f[x] = 0
    with pytest.raises(hl.HalideError, match="Expression tuples of mismatched sizes used in definition of"):
        f[hl.scatter([1, 2])] = hl.gather([1, 2, 3])
    with pytest.raises(hl.HalideError, match="Can't nest an expression tuple inside another"):
        f[hl.scatter([1, 2])] = hl.gather([hl.scatter([3, 4]), 7])
    with pytest.raises(hl.HalideError, match="different types"):
        hl.gather([x, 1.5])
