"""halide.runtime.Buffer: zero-copy views over the buffer protocol."""

from __future__ import annotations

import gc

import numpy as np
import pytest


def test_axes_are_reversed_by_default(hlr):
    a = np.zeros((3, 4, 5), np.float32)
    b = hlr.Buffer(a)
    assert b.dimensions() == 3
    assert b.type() == "float32"
    assert [(b.dim(i).min(), b.dim(i).extent(), b.dim(i).stride()) for i in range(3)] == [
        (0, 5, 1), (0, 4, 5), (0, 3, 20)]
    assert (b.width(), b.height(), b.channels()) == (5, 4, 3)
    assert b.number_of_elements() == 60
    assert b.size_in_bytes() == 240


def test_keep_numpy_order(hlr):
    a = np.zeros((3, 4), np.int16)
    b = hlr.Buffer(a, reverse_axes=False)
    assert [b.dim(i).extent() for i in range(2)] == [3, 4]
    assert [b.dim(i).stride() for i in range(2)] == [4, 1]
    np.testing.assert_array_equal(b.numpy(), a)


def test_element_access_is_zero_copy(hlr):
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = hlr.Buffer(a)
    assert b[1, 2] == a[2, 1]
    b[3, 0] = -5
    assert a[0, 3] == -5
    with pytest.raises(IndexError, match=r"index 4 is out of bounds for axis 0 with min=0, extent=4"):
        b[4, 0]
    with pytest.raises(ValueError, match="Incorrect number of dimensions: the buffer has 2 dimensions, got 1"):
        b[1]
    with pytest.raises(ValueError, match="not representable as int32"):
        b[0, 0] = 2**40


def test_views_share_memory_and_keep_exporter_alive(hlr):
    a = np.arange(60, dtype=np.uint8).reshape(5, 12)
    b = hlr.Buffer(a)
    c = b.cropped(0, 2, 4).cropped(1, 1, 3)  # x in [2, 6), y in [1, 4)
    assert c[2, 1] == a[1, 2] and c[5, 3] == a[3, 5]
    s = b.sliced(1, 4)  # row y = 4
    assert s.dimensions() == 1 and s[7] == a[4, 7]
    t = b.transposed(0, 1)
    assert t[3, 2] == a[3, 2]
    tr = b.translated(0, 10)
    assert tr[10, 0] == a[0, 0]
    with pytest.raises(IndexError):
        tr[0, 0]
    view = c.numpy()
    np.testing.assert_array_equal(view, a[1:4, 2:6])
    del a, b, s, t, tr
    gc.collect()
    # The original array is gone from Python, but the views still hold it.
    assert c[2, 1] == 14
    assert view[0, 0] == 14


def test_in_place_crop_and_errors(hlr):
    b = hlr.Buffer(np.zeros((4, 4), np.uint8))
    b.crop(0, 1, 2)
    assert (b.dim(0).min(), b.dim(0).extent()) == (1, 2)
    with pytest.raises(ValueError, match="lies outside the buffer"):
        b.crop(0, 0, 2)
    with pytest.raises(IndexError, match="dimension 5 is out of range"):
        b.dim(5)


def test_read_only_buffers_refuse_writes(hlr):
    a = np.zeros(3, np.uint8)
    a.flags.writeable = False
    b = hlr.Buffer(a)
    with pytest.raises(ValueError, match="read-only"):
        b[0] = 1
    assert b.numpy().flags.writeable is False


def test_device_operations_are_honest_on_the_cpu(hlr):
    b = hlr.Buffer(np.zeros(3, np.uint8))
    assert not b.has_device_allocation()
    b.copy_to_host()  # nothing on a device: a no-op
    b.device_sync()
    b.device_free()
    with pytest.raises(hlr.HalideError) as info:
        b.copy_to_device()
    assert info.value.code == -19  # no_device_interface
    assert b.host_dirty()  # as upstream: a freshly wrapped array is the newest copy
    b.set_host_dirty(False)
    assert not b.host_dirty()


def test_capsule_round_trip_into_a_kernel(hlr, load):
    k = load("brighten")
    a = np.full((4, 6), 10, np.uint8)
    out = hlr.Buffer(np.zeros((4, 6), np.uint8))
    cap = out._get_halide_buffer_t_capsule()
    assert type(cap).__name__ == "PyCapsule"
    assert hlr._runtime.BUFFER_CAPSULE_NAME == "halide.halide_buffer_t.v0"
    k(hlr.Buffer(a), 5, out)
    np.testing.assert_array_equal(out.numpy(), 15)


def test_all_dtypes_map_to_halide_types(hlr):
    for dtype, name in [(np.bool_, "bool"), (np.int8, "int8"), (np.uint16, "uint16"), (np.int64, "int64"),
                        (np.uint64, "uint64"), (np.float16, "float16"), (np.float64, "float64")]:
        assert hlr.Buffer(np.zeros(2, dtype)).type() == name
