"""Tutorial, basics: a Func over Vars, realized into a Buffer (upstream's lesson 1, written for this project).

A pipeline is a Func defined at every point of an infinite integer grid by an
Expr of its Vars; realize() evaluates it over a finite rectangle and returns
a Buffer whose NumPy view puts dimension 0 (x) last.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

W, H = 800, 600


def test_gradient_realized_over_a_rectangle() -> None:
    gradient = hl.Func("gradient")
    x, y = hl.Var("x"), hl.Var("y")
    e = x + y
    assert isinstance(e, hl.Expr)
    assert e.type() == hl.Int(32)
    gradient[x, y] = e
    assert gradient.defined() and gradient.dimensions() == 2
    assert [a.name() for a in gradient.args()] == ["x", "y"]

    output = gradient.realize([W, H])
    assert isinstance(output, hl.Buffer)
    assert (output.width(), output.height(), output.dimensions()) == (W, H, 2)
    assert output.type() == hl.Int(32)

    ys, xs = np.mgrid[0:H, 0:W]
    expected = (xs + ys).astype(np.int32)
    view = np.asarray(output)
    assert view.shape == (H, W) and view.dtype == np.int32
    np.testing.assert_array_equal(view, expected)
    # Element access takes (x, y), in Halide's order.
    for px, py in [(0, 0), (W - 1, 0), (0, H - 1), (123, 456)]:
        assert output[px, py] == px + py


def test_expressions_of_several_types() -> None:
    x, y = hl.Var("x"), hl.Var("y")
    brightness = hl.Func("brightness")
    # A float expression of the coordinates, cast back to 8 bits with saturation.
    brightness[x, y] = hl.u8_sat(hl.f32(x) * 0.75 + hl.f32(y) * 2.5 - 10)
    assert brightness.type() == hl.UInt(8)
    out = np.asarray(brightness.realize([64, 48]))
    ys, xs = np.mgrid[0:48, 0:64].astype(np.float32)
    expected = np.clip(xs * np.float32(0.75) + ys * np.float32(2.5) - np.float32(10), 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(out, expected)


def test_one_and_three_dimensions() -> None:
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    line = hl.Func("line")
    line[x] = x * x - 3
    np.testing.assert_array_equal(np.asarray(line.realize([10])), np.arange(10) ** 2 - 3)

    rgb = hl.Func("rgb")
    rgb[x, y, c] = hl.select(c == 0, x, c == 1, y, x * y)
    out = np.asarray(rgb.realize([5, 4, 3]))
    assert out.shape == (3, 4, 5)  # (c, y, x): dimension 0 is NumPy's last axis
    ys, xs = np.mgrid[0:4, 0:5]
    np.testing.assert_array_equal(out, np.stack([xs, ys, xs * ys]))


def test_realize_into_an_existing_numpy_array() -> None:
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x - 2 * y
    target = np.full((6, 7), -1, dtype=np.int32)
    f.realize(hl.Buffer(target))  # writes through to the array, no copy
    ys, xs = np.mgrid[0:6, 0:7]
    np.testing.assert_array_equal(target, xs - 2 * ys)


def test_a_definition_uses_the_right_type() -> None:
    x = hl.Var("x")
    f = hl.Func("f")
    with pytest.raises(hl.HalideError):
        f.realize([4])  # not defined yet
    f[x] = hl.f64(x) / 3
    out = f.realize([4])
    assert out.type() == hl.Float(64)
    np.testing.assert_allclose(np.asarray(out), np.arange(4) / 3.0)
