"""Buffer arguments with any innermost stride: Dimension.set_stride/set_min/
set_extent/set_bounds on ImageParams and Func.output_buffer(), checked
against NumPy. As upstream, only the innermost stride is constrained by
default (to 1); set_stride(hl.Expr()) lifts it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
A = np.arange(6 * 40, dtype=np.uint8).reshape(6, 40)


def plus_one(im: hl.ImageParam, vectorize: bool = False) -> hl.Func:
    f = hl.Func("plus_one")
    f[x, y] = im[x, y] + 1
    if vectorize:
        f.vectorize(x, 8)
    return f


def test_default_requires_a_dense_innermost_dimension() -> None:
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    f = plus_one(im)
    im.set(hl.Buffer(A[:, ::2]))
    with pytest.raises(hl.HalideError, match=r"im\.stride\.0 \(2\) == 1"):
        f.realize([20, 6])
    # the output too
    im.set(hl.Buffer(A[:, :20].copy()))
    out = np.zeros((6, 40), np.uint8)
    with pytest.raises(hl.HalideError, match=r"plus_one\.stride\.0 \(2\) == 1"):
        f.realize(hl.Buffer(out[:, ::2]))


@pytest.mark.parametrize("vectorize", [False, True])
def test_unconstrained_input_stride(vectorize: bool) -> None:
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    assert im.dim(0).set_stride(hl.Expr()) is not None
    f = plus_one(im, vectorize)
    view = A[:, 1::2]  # every other column: x stride 2
    im.set(hl.Buffer(view))
    np.testing.assert_array_equal(np.asarray(f.realize([20, 6])), view + 1)
    # a dense buffer is still fine
    im.set(hl.Buffer(A[:, :20].copy()))
    np.testing.assert_array_equal(np.asarray(f.realize([20, 6])), A[:, :20] + 1)
    # and through a Callable
    call = f.compile_to_callable([im])
    out = np.zeros((6, 20), np.uint8)
    call(A[:, ::2], out)
    np.testing.assert_array_equal(out, A[:, ::2] + 1)


@pytest.mark.parametrize("vectorize", [False, True])
def test_unconstrained_output_stride(vectorize: bool) -> None:
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    f = plus_one(im, vectorize)
    f.output_buffer().dim(0).set_stride(None)
    call = f.compile_to_callable([im])
    src = A[:, :20].copy()
    big = np.zeros((6, 40), np.uint8)
    call(src, big[:, 1::2])
    np.testing.assert_array_equal(big[:, 1::2], src + 1)
    np.testing.assert_array_equal(big[:, ::2], 0)  # nothing written between


def test_interleaved_rgb_with_a_required_stride_of_three() -> None:
    rgb = np.arange(9 * 13 * 3, dtype=np.uint8).reshape(9, 13, 3)  # H x W x 3, interleaved
    im = hl.ImageParam(hl.UInt(8), 3, "rgb")
    im.dim(0).set_stride(3)
    im.dim(2).set_stride(1).set_bounds(0, 3)
    gray = hl.Func("gray")
    gray[x, y] = hl.u8((hl.u16(im[x, y, 0]) + im[x, y, 1] + im[x, y, 2]) // 3)
    gray.vectorize(x, 8)
    im.set(hl.Buffer(rgb.transpose(2, 0, 1)))  # x stride 3, y stride 39, c stride 1
    expect = (rgb.astype(np.uint16).sum(axis=2) // 3).astype(np.uint8)
    np.testing.assert_array_equal(np.asarray(gray.realize([13, 9])), expect)
    # a planar image breaks the required stride, with the constraint's name
    im.set(hl.Buffer(np.ascontiguousarray(rgb.transpose(2, 0, 1))))
    with pytest.raises(hl.HalideError, match=r"rgb\.stride\.0 \(1\) == 3"):
        gray.realize([13, 9])


def test_concrete_strided_buffer_in_a_definition() -> None:
    view = A[::2, ::3]
    b = hl.Buffer(view)
    f = hl.Func("f")
    f[x, y] = b[x, y] * 2
    f.vectorize(x, 4)
    np.testing.assert_array_equal(np.asarray(f.realize([view.shape[1], view.shape[0]])), view * 2)


def test_min_extent_and_outer_stride_constraints() -> None:
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    im.dim(0).set_bounds(0, 20)
    im.dim(1).set_stride(40)
    f = plus_one(im)
    im.set(hl.Buffer(A[:, :20]))  # a crop of A: row stride 40
    np.testing.assert_array_equal(np.asarray(f.realize([20, 6])), A[:, :20] + 1)
    im.set(hl.Buffer(A[:, :20].copy()))
    with pytest.raises(hl.HalideError, match=r"im\.stride\.1 \(20\) == 40"):
        f.realize([20, 6])
    im.dim(1).set_stride(hl.Expr())
    im.set(hl.Buffer(A[:, :21].copy()))
    with pytest.raises(hl.HalideError, match=r"im\.extent\.0 \(21\) == 20"):
        f.realize([20, 6])


def test_symbolic_constraint() -> None:
    im = hl.ImageParam(hl.Int(32), 2, "im")
    im.dim(1).set_stride(im.dim(0).extent())  # dense rows
    f = hl.Func("f")
    f[x, y] = im[x, y] * 3
    a = np.arange(35, dtype=np.int32).reshape(5, 7)
    im.set(hl.Buffer(a))
    np.testing.assert_array_equal(np.asarray(f.realize([7, 5])), a * 3)
    im.set(hl.Buffer(np.arange(40, dtype=np.int32).reshape(5, 8)[:, :7]))
    with pytest.raises(hl.HalideError, match=r"im\.stride\.1 \(8\) == im\.extent\.0"):
        f.realize([7, 5])


def test_errors() -> None:
    im = hl.ImageParam(hl.UInt(8), 2, "im")
    with pytest.raises(hl.HalideError, match="no dim\\(2\\)"):
        im.dim(0).dim(2)
    with pytest.raises(hl.HalideError, match="stride must be an integer"):
        im.dim(0).set_stride(hl.f32(1.5))
    with pytest.raises(hl.HalideError, match="before it is defined"):
        hl.Func("undefined").output_buffer()
    t = hl.Func("t")
    t[x] = hl.Tuple([x, x + 1])
    with pytest.raises(hl.HalideError, match="output_buffers"):
        t.output_buffer()
    assert [b.dimensions() for b in t.output_buffers()] == [1, 1]
