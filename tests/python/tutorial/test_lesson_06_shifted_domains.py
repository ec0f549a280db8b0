"""Tutorial, realizing over shifted domains (upstream's lesson 6, written for this project).

realize() into a Buffer whose mins are not zero computes the Func over that
rectangle: the same coordinates go in, so the values are those of the
shifted points.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def gradient() -> hl.Func:
    f = hl.Func("gradient")
    f[x, y] = x * 100 + y
    return f


def test_realize_over_a_shifted_rectangle() -> None:
    shifted = hl.Buffer(hl.Int(32), [5, 7])
    shifted.set_min([100, 50])
    assert (shifted.left(), shifted.top(), shifted.right(), shifted.bottom()) == (100, 50, 104, 56)
    gradient().realize(shifted)
    for px in range(100, 105):
        for py in range(50, 57):
            assert shifted[px, py] == px * 100 + py
    # The NumPy view starts at the buffer's min.
    ys, xs = np.mgrid[50:57, 100:105]
    np.testing.assert_array_equal(np.asarray(shifted), xs * 100 + ys)


def test_negative_mins_and_a_crop_of_a_larger_buffer() -> None:
    whole = hl.Buffer(hl.Int(32), [20, 10])
    whole.set_min([-10, -5])
    gradient().realize(whole)
    ys, xs = np.mgrid[-5:5, -10:10]
    np.testing.assert_array_equal(np.asarray(whole), xs * 100 + ys)

    # Realizing into a crop writes only that window of the larger buffer.
    target = hl.Buffer(hl.Int(32), [20, 10])
    target.set_min([-10, -5])
    target.fill(-1)
    window = target.cropped([(-2, 4), (0, 3)])
    gradient().realize(window)
    view = np.asarray(target)
    expected = np.full((10, 20), -1, dtype=np.int32)
    expected[5:8, 8:12] = (xs * 100 + ys)[5:8, 8:12]
    np.testing.assert_array_equal(view, expected)


def test_a_shifted_input_is_read_at_its_own_coordinates() -> None:
    data = np.arange(30, dtype=np.uint8).reshape(5, 6)
    input = hl.Buffer(data)
    input.set_min([10, 20])  # data[0, 0] is now input[10, 20]
    f = hl.Func("shifted_read")
    f[x, y] = input[x + 10, y + 20] * 2
    np.testing.assert_array_equal(np.asarray(f.realize([6, 5])), data * 2)
    with pytest.raises(hl.HalideError):
        f.realize([7, 5])  # reads input[16, ...], one column past its right edge
