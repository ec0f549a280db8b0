"""hl.select on Tuples, as upstream 21's Python: every value a Tuple (a
Python tuple or list, an hl.Tuple, or the call of a Func with several
values), the conditions all Exprs or all Tuples of the same size; the result
is a Python tuple of Exprs, selected element by element."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

W, H = 23, 17
x, y = hl.Var("x"), hl.Var("y")
NY, NX = np.mgrid[0:H, 0:W]


def realize_pair(value):
    f = hl.Func("tuple_select")
    f[x, y] = value
    a, b = f.realize([W, H])
    return np.asarray(a), np.asarray(b)


def test_expr_conditions_select_whole_tuples():
    a, b = realize_pair(hl.select(x + y < 15, (x, y), x + y < 25, [x * 2, y * 3], (x - 100, y - 200)))
    near, mid = NX + NY < 15, NX + NY < 25
    np.testing.assert_array_equal(a, np.where(near, NX, np.where(mid, NX * 2, NX - 100)))
    np.testing.assert_array_equal(b, np.where(near, NY, np.where(mid, NY * 3, NY - 200)))


def test_tuple_conditions_select_each_element_on_its_own():
    a, b = realize_pair(hl.select((x < 5, y < 9), (x, y), (x < 12, y < 13), (x * 2, y * 3), (-x, -y)))
    np.testing.assert_array_equal(a, np.where(NX < 5, NX, np.where(NX < 12, NX * 2, -NX)))
    np.testing.assert_array_equal(b, np.where(NY < 9, NY, np.where(NY < 13, NY * 3, -NY)))


def test_tuples_of_a_func_and_hl_tuples_are_values_too():
    g = hl.Func("pair")
    g[x, y] = (x + 1, y + 1)
    a, b = realize_pair(hl.select(x < y, g[x, y], hl.Tuple([x * 0, y * 0])))
    np.testing.assert_array_equal(a, np.where(NX < NY, NX + 1, 0))
    np.testing.assert_array_equal(b, np.where(NX < NY, NY + 1, 0))


def test_the_result_is_a_python_tuple_of_exprs():
    r = hl.select(x < 3, (x, 1.5), (y, 2.5))
    assert isinstance(r, tuple) and len(r) == 2
    assert [e.type() for e in r] == [hl.Int(32), hl.Float(32)]


def test_a_plain_select_is_still_an_expr():
    assert isinstance(hl.select(x < 3, x, y), hl.Expr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (lambda: ((x < 3, y < 3), (x, y), x < 5, (x, y), (x, y)), "may not mix Expr and Tuple for the condition"),
        (lambda: ((x < 3, y < 3), (x, y, 0), (1, 2, 3, 4)), "requires all Tuples to have identical sizes"),
        (lambda: (x < 3, (x, y), (x,)), "requires all Tuples to have identical sizes"),
        (lambda: (x < 3, (x, y), x), "requires every value to be a Tuple"),
    ],
)
def test_malformed_tuple_selects_raise(args, message):
    with pytest.raises(hl.HalideError, match=message):
        hl.select(*args())
