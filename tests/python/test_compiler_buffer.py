"""halide.Buffer: buffer protocol both ways (zero-copy), axes, element access."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_numpy_in_is_zero_copy_with_reversed_axes():
    arr = np.arange(12, dtype=np.uint8).reshape(3, 4)
    b = hl.Buffer(arr)
    assert (b.width(), b.height(), b.dimensions()) == (4, 3, 2)
    assert b.type() == hl.UInt(8)
    assert b[1, 2] == arr[2, 1]
    view = np.asarray(b)
    assert view.shape == (3, 4)
    assert np.shares_memory(view, arr)
    b[0, 0] = 99
    assert arr[0, 0] == 99


def test_reverse_axes_false_keeps_the_order():
    arr = np.arange(12, dtype=np.int16).reshape(3, 4)
    b = hl.Buffer(arr, reverse_axes=False)
    assert (b.width(), b.height()) == (3, 4)
    assert b[2, 1] == arr[2, 1]
    assert np.asarray(b).shape == (4, 3)  # exported with dimension 0 last


def test_strided_and_transposed_views():
    arr = np.arange(30, dtype=np.float32).reshape(5, 6)
    b = hl.Buffer(arr[::2, 1::2])
    assert (b.width(), b.height()) == (3, 3)
    assert b[2, 1] == arr[2, 5]
    t = hl.Buffer(arr.T)
    assert (t.width(), t.height()) == (5, 6)
    np.testing.assert_array_equal(np.asarray(t), arr.T)
    assert np.shares_memory(np.asarray(t), arr)


def test_buffer_out_is_zero_copy():
    b = hl.Buffer(hl.Int(32), [4, 3], "named")
    assert b.name() == "named" and b.dim(0).extent() == 4 and b.dim(1).stride() == 4
    a = np.asarray(b)
    assert a.shape == (3, 4) and a.dtype == np.int32
    a[2, 3] = 7
    assert b[3, 2] == 7
    assert np.shares_memory(np.asarray(b), a)


def test_copy_does_not_share():
    arr = np.ones((2, 2), dtype=np.float64)
    c = hl.Buffer(arr).copy()
    assert not np.shares_memory(np.asarray(c), arr)
    c[0, 0] = 5.0
    assert arr[0, 0] == 1.0 and c[0, 0] == 5.0


@pytest.mark.parametrize(
    "dtype",
    [
        np.bool_,
        np.int8,
        np.uint8,
        np.int16,
        np.uint16,
        np.int32,
        np.uint32,
        np.int64,
        np.uint64,
        np.float32,
        np.float64,
    ],
)
def test_dtype_round_trip(dtype):
    arr = (np.arange(6) % 2 if dtype is np.bool_ else np.arange(6)).astype(dtype).reshape(2, 3)
    b = hl.Buffer(arr)
    back = np.asarray(b)
    assert back.dtype == arr.dtype
    np.testing.assert_array_equal(back, arr)


def test_buffer_as_pipeline_input():
    arr = np.arange(12, dtype=np.uint8).reshape(3, 4)
    inp = hl.Buffer(arr)
    f = hl.Func("double_it")
    f[x, y] = hl.u16(inp[x, y]) * 2 + hl.u16(inp[hl.min(x + 1, 3), y])
    got = np.asarray(f.realize([4, 3]))
    want = arr.astype(np.uint16) * 2 + arr[:, [1, 2, 3, 3]].astype(np.uint16)
    np.testing.assert_array_equal(got, want)


def test_bad_access():
    b = hl.Buffer(np.zeros((2, 3), dtype=np.int32))
    with pytest.raises(IndexError, match="out of bounds"):
        b[10, 0]
    with pytest.raises(ValueError, match="Incorrect number of dimensions"):  # upstream's class and words
        b[0]
    with pytest.raises(IndexError):
        b.dim(5)
    with pytest.raises(ValueError):
        hl.Buffer(np.zeros(3, dtype=np.complex64))
    with pytest.raises(ValueError, match="undefined"):
        hl.Buffer().width()
    with pytest.raises(ValueError, match="non-negative"):
        hl.Buffer(hl.UInt(8), [-1])
