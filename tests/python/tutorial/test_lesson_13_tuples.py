"""Tutorial, Tuples (upstream's lesson 13, written for this project).

A Func can compute several values per point: define it with a Python
tuple (or hl.Tuple); realize returns one buffer per value, f[x, y][i]
reads value i, and an update may change all values at once (argmax), so a
small Python class can make complex numbers of Tuples. Checked against
NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_a_func_with_two_values() -> None:
    multi = hl.Func("multi_valued")
    multi[x, y] = (x + y, hl.sin(hl.f32(x * y)))
    assert multi.outputs() == 2
    assert multi.types() == [hl.Int(32), hl.Float(32)]
    ints, floats = multi.realize([8, 6])
    ny, nx = np.mgrid[0:6, 0:8]
    np.testing.assert_array_equal(np.asarray(ints), nx + ny)
    np.testing.assert_allclose(np.asarray(floats), np.sin((nx * ny).astype(np.float32)), atol=1e-6)


def test_hl_tuple_and_realizing_into_given_buffers() -> None:
    f = hl.Func("pair")
    f[x] = hl.Tuple([x * x, hl.f64(x) / 4])
    a = hl.Buffer(hl.Int(32), [10])
    b = hl.Buffer(hl.Float(64), [10])
    f.realize([a, b])
    xs = np.arange(10)
    np.testing.assert_array_equal(np.asarray(a), xs * xs)
    np.testing.assert_array_equal(np.asarray(b), xs / 4)


def test_reading_one_value_of_a_tuple() -> None:
    f = hl.Func("pair_source")
    f[x, y] = (x * 10, y * 100)
    g = hl.Func("sum_of_values")
    g[x, y] = f[x, y][0] + f[x, y][1]
    ny, nx = np.mgrid[0:4, 0:5]
    np.testing.assert_array_equal(np.asarray(g.realize([5, 4])), nx * 10 + ny * 100)


def test_argmax_with_a_tuple_update() -> None:
    rng = np.random.default_rng(13)
    data = rng.integers(-1000, 1000, size=100).astype(np.int32)
    values = hl.Buffer(data)
    arg_max = hl.Func("arg_max")
    arg_max[()] = (0, values[0])
    r = hl.RDom([(1, 99)])
    best_index = arg_max[()][0]
    best_value = arg_max[()][1]
    better = values[r.x] > best_value
    arg_max[()] = (hl.select(better, r.x, best_index), hl.max(best_value, values[r.x]))
    index, value = arg_max.realize([])
    assert int(np.asarray(index)[()]) == int(np.argmax(data))
    assert int(np.asarray(value)[()]) == int(data.max())
    # hl.argmax does the same in one expression
    inline = hl.Func("inline_argmax")
    everything = hl.RDom([(0, 100)])
    inline[()] = hl.argmax(values[everything.x])
    i2, v2 = inline.realize([])
    assert int(np.asarray(i2)[()]) == int(np.argmax(data))
    assert int(np.asarray(v2)[()]) == int(data.max())


class Complex:
    """A complex number of two float32 Exprs, as a Tuple when stored in a Func."""

    def __init__(self, real: hl.Expr, imag: hl.Expr) -> None:
        self.real, self.imag = real, imag

    @staticmethod
    def of(ref: hl.FuncRef) -> Complex:
        return Complex(ref[0], ref[1])

    def as_tuple(self) -> tuple[hl.Expr, hl.Expr]:
        return (self.real, self.imag)

    def __add__(self, other: Complex) -> Complex:
        return Complex(self.real + other.real, self.imag + other.imag)

    def __mul__(self, other: Complex) -> Complex:
        return Complex(
            self.real * other.real - self.imag * other.imag, self.real * other.imag + self.imag * other.real
        )

    def magnitude_squared(self) -> hl.Expr:
        return self.real * self.real + self.imag * self.imag


def test_mandelbrot_with_complex_tuples() -> None:
    width, height, steps = 24, 16, 12
    t = hl.Var("t")
    c = Complex(hl.f32(x) / 8 - 2, hl.f32(y) / 8 - 1)
    z = hl.Func("z")
    z[x, y, t] = Complex(hl.f32(0), hl.f32(0)).as_tuple()
    r = hl.RDom([(1, steps - 1)])
    previous = Complex.of(z[x, y, r - 1])
    step = previous * previous + c
    # Once outside the circle a point stays put (no overflow to inf/NaN,
    # whose comparisons upstream's fast-math code does not keep).
    escaped = previous.magnitude_squared() >= 4
    z[x, y, r] = (hl.select(escaped, previous.real, step.real), hl.select(escaped, previous.imag, step.imag))
    # How many steps stay inside the radius-2 circle.
    inside = hl.Func("inside")
    s = hl.RDom([(0, steps)])
    inside[x, y] = hl.sum(hl.select(Complex.of(z[x, y, s]).magnitude_squared() < 4, 1, 0))
    z.compute_root()
    got = np.asarray(inside.realize([width, height]))

    ny, nx = np.mgrid[0:height, 0:width]
    cre = (nx.astype(np.float32) / np.float32(8) - np.float32(2)).astype(np.float32)
    cim = (ny.astype(np.float32) / np.float32(8) - np.float32(1)).astype(np.float32)
    zr = np.zeros_like(cre)
    zi = np.zeros_like(cim)
    count = np.zeros(cre.shape, np.int32)
    for _ in range(steps):
        inside_now = zr * zr + zi * zi < 4
        count += inside_now.astype(np.int32)
        next_r, next_i = (zr * zr - zi * zi) + cre, (zr * zi + zi * zr) + cim
        zr, zi = np.where(inside_now, next_r, zr), np.where(inside_now, next_i, zi)
    np.testing.assert_array_equal(got, count)
