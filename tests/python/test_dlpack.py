"""DLPack in and out of halide.runtime.Buffer and halide.Buffer, with NumPy
(np.from_dlpack) and PyTorch (CPU) as the other side."""

from __future__ import annotations

import gc
import importlib.util
import weakref

import numpy as np
import pytest

HAVE_COMPILER = importlib.util.find_spec("halide._compiler") is not None


def buffer_classes():
    import halide.runtime as hlr

    classes = [pytest.param(hlr.Buffer, id="runtime")]
    if HAVE_COMPILER:
        import halide as hl

        classes.append(pytest.param(hl.Buffer, id="compiler"))
    return classes


@pytest.fixture(params=buffer_classes())
def Buffer(request):
    return request.param


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_round_trip_is_zero_copy(Buffer, dtype):
    a = (np.arange(24) % 2 if dtype is np.bool_ else np.arange(24)).astype(dtype).reshape(2, 3, 4)
    b = Buffer.from_dlpack(a)
    # DLPack's last axis is dimension 0, as with the buffer protocol.
    assert [b.dim(i).extent() for i in range(3)] == [4, 3, 2]
    back = np.from_dlpack(b)
    assert back.dtype == a.dtype and back.shape == a.shape
    np.testing.assert_array_equal(back, a)
    assert np.shares_memory(back, a)


def test_strided_views_keep_their_strides(Buffer):
    a = np.arange(60, dtype=np.int32).reshape(6, 10)
    view = a[1::2, ::-3]
    b = Buffer.from_dlpack(view)
    assert (b.width(), b.height()) == (view.shape[1], view.shape[0])
    assert b[1, 2] == view[2, 1]
    np.testing.assert_array_equal(np.from_dlpack(b), view)
    assert np.shares_memory(np.from_dlpack(b), a)


def test_reverse_axes_false(Buffer):
    a = np.arange(12, dtype=np.uint16).reshape(3, 4)
    b = Buffer.from_dlpack(a, reverse_axes=False)
    assert (b.dim(0).extent(), b.dim(1).extent()) == (3, 4)
    assert b[2, 1] == a[2, 1]


def test_writes_are_seen_both_ways(Buffer):
    a = np.zeros((2, 3), np.float32)
    b = Buffer.from_dlpack(a)
    b[2, 1] = 1.5
    assert a[1, 2] == 1.5
    out = np.from_dlpack(b)
    out[0, 0] = -2.0
    assert b[0, 0] == -2.0 and a[0, 0] == -2.0


def test_lifetime_of_imported_memory(Buffer):
    a = np.arange(6, dtype=np.int64)
    ref = weakref.ref(a)
    b = Buffer.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None  # the buffer keeps the producer's tensor alive
    assert b[5] == 5
    del b
    gc.collect()
    assert ref() is None  # and releases it with the last view


def test_lifetime_of_exported_memory(Buffer):
    b = Buffer(np.arange(8, dtype=np.uint8))
    out = np.from_dlpack(b)
    del b
    gc.collect()
    np.testing.assert_array_equal(out, np.arange(8, dtype=np.uint8))


def test_capsule_is_consumed_once(Buffer):
    a = np.ones(3, np.uint8)
    capsule = a.__dlpack__()
    b = Buffer.from_dlpack(capsule)
    assert b[2] == 1
    with pytest.raises(ValueError, match="already consumed"):
        Buffer.from_dlpack(capsule)


def test_unconsumed_capsules_are_released(Buffer):
    b = Buffer(np.arange(4, dtype=np.float64))
    for kwargs in ({}, {"max_version": (1, 0)}):
        capsule = b.__dlpack__(**kwargs)
        del capsule  # the deleter runs; nothing leaks or crashes
    gc.collect()
    assert b[3] == 3.0


def test_versioned_and_legacy_capsules(Buffer):
    b = Buffer(np.arange(4, dtype=np.int16))
    legacy = b.__dlpack__()
    versioned = b.__dlpack__(max_version=(1, 2))
    assert "dltensor" in repr(legacy) and "dltensor_versioned" not in repr(legacy)
    assert "dltensor_versioned" in repr(versioned)
    np.testing.assert_array_equal(np.from_dlpack(Buffer.from_dlpack(versioned)), np.arange(4, dtype=np.int16))


def test_copy_request(Buffer):
    a = np.arange(6, dtype=np.int32)
    b = Buffer(a)
    copied = np.from_dlpack(b, copy=True)
    np.testing.assert_array_equal(copied, a)
    assert not np.shares_memory(copied, a)
    assert np.shares_memory(np.from_dlpack(b, copy=False), a)


def test_device_and_bad_requests(Buffer):
    b = Buffer(np.zeros(2, np.uint8))
    assert b.__dlpack_device__() == (1, 0)
    with pytest.raises(BufferError, match="CPU"):
        b.__dlpack__(dl_device=(2, 0))
    with pytest.raises(ValueError, match="stream"):
        b.__dlpack__(stream=1)
    with pytest.raises(TypeError, match="max_version"):
        b.__dlpack__(max_version="1.0")


def test_bad_producers(Buffer):
    with pytest.raises(TypeError, match="__dlpack__"):
        Buffer.from_dlpack([1, 2, 3])
    with pytest.raises(BufferError, match="Invalid data type"):
        Buffer.from_dlpack(np.zeros(3, np.complex64))

    class OnGpu:
        def __dlpack_device__(self):
            return (2, 0)

        def __dlpack__(self, **kwargs):
            raise AssertionError("must not be asked for a capsule")

    with pytest.raises(BufferError, match="only CPU"):
        Buffer.from_dlpack(OnGpu())


def test_legacy_producer_without_max_version(Buffer):
    class Legacy:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, stream=None):
            return self.a.__dlpack__()

    a = np.arange(5, dtype=np.uint32)
    b = Buffer.from_dlpack(Legacy(a))
    assert b[4] == 4 and b.number_of_elements() == 5


def test_read_only_flag_round_trips():
    import halide.runtime as hlr

    a = np.arange(4, dtype=np.uint8)
    a.flags.writeable = False
    b = hlr.Buffer.from_dlpack(a)
    with pytest.raises(ValueError, match="read-only"):
        b[0] = 1
    assert not np.from_dlpack(b).flags.writeable


# --- PyTorch (skipped, and then not counted as coverage, without it) --------


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed")


@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "int64", "float16", "float32", "float64", "bool"])
def test_torch_to_buffer_and_back(Buffer, torch, dtype):
    dtype = getattr(torch, dtype)
    t = (torch.arange(24) % 2 if dtype is torch.bool else torch.arange(24)).to(dtype).reshape(2, 3, 4)
    b = Buffer.from_dlpack(t)
    assert [b.dim(i).extent() for i in range(3)] == [4, 3, 2]
    back = torch.from_dlpack(b)
    assert back.dtype == dtype
    assert torch.equal(back, t)
    assert back.data_ptr() == t.data_ptr()


def test_torch_strided_and_writes(Buffer, torch):
    t = torch.arange(40, dtype=torch.int32).reshape(4, 10)[:, 1::3]
    b = Buffer.from_dlpack(t)
    assert (b.width(), b.height()) == (3, 4)
    assert b[2, 3] == int(t[3, 2])
    b[0, 0] = -1
    assert int(t[0, 0]) == -1
    np.testing.assert_array_equal(np.from_dlpack(b), t.numpy())


def test_torch_lifetime(Buffer, torch):
    b = Buffer(np.arange(6, dtype=np.float32))
    t = torch.from_dlpack(b)
    del b
    gc.collect()
    assert torch.equal(t, torch.arange(6, dtype=torch.float32))
