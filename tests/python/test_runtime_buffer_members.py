"""Every member of halide.runtime.Buffer, as upstream Halide's runtime Buffer
has it, checked against NumPy: values, shapes, strides, aliasing and errors.

Conventions (upstream's): an array of NumPy shape (H, W) is a buffer of
width W (dimension 0 is NumPy's last axis) unless reverse_axes=False; strides
are in elements; views share memory and identity with their source.
"""

from __future__ import annotations

import ctypes
import gc
import re

import numpy as np
import pytest

# The members of upstream Halide's halide.runtime.Buffer (its runtime Python
# module, Halide main), besides the buffer protocol.
UPSTREAM_MEMBERS = {
    "__init__", "__getitem__", "__setitem__", "__repr__",
    "_from_borrowed", "_get_halide_buffer_t_capsule", "_get_halide_runtime_buffer_capsule",
    "make_bounds_query", "make_scalar", "make_interleaved", "make_with_shape_of",
    "numpy_view", "set_name", "name", "defined", "same_as", "type", "channels", "dimensions",
    "width", "height", "top", "bottom", "left", "right", "number_of_elements", "size_in_bytes",
    "has_device_allocation", "host_dirty", "device_dirty", "set_host_dirty", "set_device_dirty",
    "copy", "copy_from", "reverse_axes", "add_dimension", "allocate", "deallocate",
    "device_deallocate", "crop", "cropped", "embed", "embedded", "slice", "sliced", "translate",
    "translated", "transpose", "transposed", "dim", "for_each_element", "fill", "all_equal",
    "copy_to_host", "device_detach_native", "device_free", "device_sync", "set_min", "contains",
}  # fmt: skip

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64]  # fmt: skip


def dims(buf):
    return [(buf.dim(i).min(), buf.dim(i).extent(), buf.dim(i).stride()) for i in range(buf.dimensions())]


def halide_dims_of(a: np.ndarray, reverse=True):
    """What a Buffer over `a` must report: (min, extent, stride in elements)."""
    d = [(0, n, s // a.itemsize) for n, s in zip(a.shape, a.strides, strict=True)]
    return d[::-1] if reverse else d


def values(buf):
    """Halide-order values of `buf` as a NumPy array (axis i = dimension i)."""
    return np.asarray(buf.numpy_view(reverse_axes=False))


PyBUF_SIMPLE, PyBUF_WRITABLE, PyBUF_ND, PyBUF_STRIDES = 0, 0x1, 0x8, 0x18
PyBUF_C_CONTIGUOUS, PyBUF_F_CONTIGUOUS, PyBUF_ANY_CONTIGUOUS = 0x38, 0x58, 0x98


def request_buffer(obj, flags):
    """PyObject_GetBuffer(obj, flags) then PyBuffer_Release; raises what the export raises."""
    api = ctypes.pythonapi
    api.PyObject_GetBuffer.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
    api.PyBuffer_Release.argtypes = [ctypes.c_void_p]
    view = ctypes.create_string_buffer(256)  # room for a Py_buffer
    result = api.PyObject_GetBuffer(obj, view, flags)
    api.PyBuffer_Release(view)
    return result


# ---------------------------------------------------------------------------
# The member list
# ---------------------------------------------------------------------------


def test_every_upstream_member_exists(hlr):
    missing = sorted(m for m in UPSTREAM_MEMBERS if not hasattr(hlr.Buffer, m))
    assert not missing, f"missing upstream Buffer members: {missing}"
    assert len(UPSTREAM_MEMBERS) == 59
    assert memoryview(hlr.Buffer(np.zeros(2, np.uint8))).nbytes == 2  # the buffer protocol


def test_keyword_spellings_match_upstream(hlr):
    b = hlr.Buffer(buffer=np.zeros((2, 3), np.uint8), name="kw", reverse_axes=True)
    assert b.name() == "kw" and b.width() == 3
    c = hlr.Buffer(type=hlr.Type(1, 8), sizes=[3, 2], name="t")
    assert dims(c) == [(0, 3, 1), (0, 2, 3)]
    d = hlr.Buffer(type="uint8", sizes=[3, 2], storage_order=[1, 0])
    assert dims(d) == [(0, 3, 2), (0, 2, 1)]
    assert dims(hlr.Buffer.make_bounds_query(type="int16", sizes=[2, 2], name="q")) == [(0, 2, 1), (0, 2, 2)]
    assert hlr.Buffer.make_scalar(type="float32", name="s").dimensions() == 0
    assert dims(hlr.Buffer.make_interleaved(type="uint8", width=4, height=2, channels=3, name="i")) == [
        (0, 4, 3), (0, 2, 12), (0, 3, 1)]  # fmt: skip
    assert dims(hlr.Buffer.make_with_shape_of(src=c, name="w")) == dims(c)
    c.crop(dimension=0, min=1, extent=2)
    c.crop(rect=[(1, 1)])
    assert c.cropped(dimension=1, min=1, extent=1).dim(1).min() == 1
    assert c.cropped(rect=[(1, 1), (0, 1)]).number_of_elements() == 1
    c.translate(dimension=0, dx=1)
    c.translate(delta=[0, 1])
    assert dims(c.translated(dimension=0, dx=-2)) == [(0, 1, 1), (1, 2, 3)]
    assert dims(c.translated(delta=[1])) == [(3, 1, 1), (1, 2, 3)]
    assert c.transposed(d1=0, d2=1).dim(0).extent() == 2
    assert c.transposed(order=[1, 0]).dim(0).extent() == 2
    assert c.sliced(dimension=1, pos=2).dimensions() == 1
    assert c.sliced(dimension=1).dimensions() == 1
    assert c.embedded(dimension=0, pos=3).dim(0).min() == 3
    assert c.embedded(dimension=2).dimensions() == 3
    assert c.contains(coords=[2, 1]) and not c.contains(coords=[0])
    c.set_min(mins=[0, 0])
    c.set_host_dirty(dirty=False)
    c.set_device_dirty(dirty=False)
    c.fill(value=3)
    assert c.all_equal(value=3)
    assert c.same_as(other=c)
    assert c.dim(dimension=0).extent() == 1
    seen = []
    c.for_each_element(f=seen.append)
    assert seen == [[0, 0], [0, 1]]
    assert c.numpy_view(reverse_axes=False).shape == (1, 2)
    c.set_name(name="renamed")
    assert c.name() == "renamed"
    c.copy_from(src=c.copy())


# ---------------------------------------------------------------------------
# Construction
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_wrap_reverses_axes_and_aliases(hlr, dtype):
    a = np.zeros((3, 4, 5), dtype)
    b = hlr.Buffer(a)
    assert b.defined()
    assert str(b.type()) == np.dtype(dtype).name
    assert dims(b) == halide_dims_of(a)
    assert (b.width(), b.height(), b.channels()) == (5, 4, 3)
    assert b.number_of_elements() == 60
    assert b.size_in_bytes() == a.nbytes
    assert b.host_dirty() and not b.device_dirty()
    assert re.fullmatch(r"b\d+", b.name())
    view = b.numpy_view()
    assert view.shape == a.shape and view.strides == a.strides and np.shares_memory(view, a)
    np.testing.assert_array_equal(np.asarray(b), a)


def test_wrap_keeps_numpy_order_without_reverse(hlr):
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    b = hlr.Buffer(a, "kept", False)
    assert b.name() == "kept"
    assert dims(b) == [(0, 3, 4), (0, 4, 1)]
    assert b[2, 1] == a[2, 1]
    # The buffer protocol and numpy_view() use upstream's convention whatever
    # the buffer was made with; numpy() keeps the order it was made with.
    np.testing.assert_array_equal(np.asarray(b), a.T)
    np.testing.assert_array_equal(b.numpy_view(), a.T)
    np.testing.assert_array_equal(b.numpy_view(reverse_axes=False), a)
    np.testing.assert_array_equal(b.numpy(), a)
    assert np.shares_memory(b.numpy(), a)


def test_wrap_any_strides(hlr, rng):
    a = rng.integers(0, 100, size=(6, 8, 3)).astype(np.int32)
    for view in (a[::-1, ::2, 1:], a.transpose(2, 0, 1), a[:, 3, ::-2], np.asfortranarray(a)):
        b = hlr.Buffer(view)
        assert dims(b) == halide_dims_of(view)
        np.testing.assert_array_equal(values(b), view.transpose(*range(view.ndim)[::-1]))
        assert np.shares_memory(b.numpy_view(), view)


def test_wrap_other_exporters(hlr):
    raw = bytearray(range(6))
    b = hlr.Buffer(memoryview(raw).cast("B", (2, 3)))
    assert dims(b) == [(0, 3, 1), (0, 2, 3)] and b[2, 1] == 5
    b[0, 0] = 9
    assert raw[0] == 9
    ro = hlr.Buffer(b"\x01\x02")
    assert ro[1] == 2
    with pytest.raises(ValueError, match="read-only"):
        ro[0] = 3
    assert np.asarray(ro).flags.writeable is False
    scalar = hlr.Buffer(np.float32(2.5))
    assert scalar.dimensions() == 0 and scalar[()] == 2.5


def test_wrap_errors_use_upstream_words(hlr):
    with pytest.raises(ValueError, match="stride"):
        hlr.Buffer(np.ndarray((2,), dtype=np.int32, buffer=bytearray(8), strides=(1,)))
    with pytest.raises(ValueError, match="[Bb]yte order"):
        hlr.Buffer(np.zeros(1, dtype=">i4"))
    with pytest.raises(ValueError):
        hlr.Buffer(np.zeros(2, np.complex64))
    with pytest.raises(TypeError, match="buffer protocol"):
        hlr.Buffer([1, 2, 3])
    with pytest.raises(TypeError, match="buffer protocol"):
        hlr.Buffer(object())
    with pytest.raises(TypeError, match="name must be a str"):
        hlr.Buffer(np.zeros(2), 5)
    with pytest.raises(TypeError, match="reverse_axes must be a bool"):
        hlr.Buffer(np.zeros(2), "x", "yes")
    with pytest.raises(TypeError, match="unexpected keyword argument 'nmae'"):
        hlr.Buffer(np.zeros(2), nmae="x")
    with pytest.raises(TypeError, match="multiple values for argument 'name'"):
        hlr.Buffer(np.zeros(2), "a", name="b")
    with pytest.raises(TypeError, match="cannot be combined"):
        hlr.Buffer(buffer=np.zeros(2), sizes=[2])
    with pytest.raises(TypeError, match="at most 3 positional"):
        hlr.Buffer(np.zeros(2), "a", True, 4)


def test_undefined_buffer(hlr):
    u = hlr.Buffer()
    assert not u.defined()
    assert repr(u) == "<undefined halide.runtime.Buffer>"
    assert u.dimensions() == 0 and u.name() == "" and u.number_of_elements() == 1
    for call in (
        lambda: u[()],
        lambda: u.fill(0),
        lambda: u.all_equal(0),
        lambda: u.copy(),
        lambda: memoryview(u),
        lambda: u.numpy_view(),
        lambda: u._get_halide_buffer_t_capsule(),
        lambda: u.copy_from(u),
    ):
        with pytest.raises(ValueError, match="Undefined buffer"):
            call()
    with pytest.raises(IndexError):
        u.dim(0)
    assert not u.same_as(hlr.Buffer())


def test_copy_constructor_shares_memory_identity_and_name(hlr):
    a = np.arange(6, dtype=np.uint8).reshape(2, 3)
    b = hlr.Buffer(a, "orig")
    c = hlr.Buffer(b)
    assert c.same_as(b) and c.name() == "orig"
    c.crop(0, 1, 2)  # in place on the copy only
    assert dims(b) == [(0, 3, 1), (0, 2, 3)]
    c[1, 1] = 77
    assert a[1, 1] == 77


@pytest.mark.parametrize(
    "spelling",
    [
        lambda hlr: hlr.Type(0, 16),
        lambda hlr: "int16",
        lambda hlr: np.int16,
        lambda hlr: np.dtype("int16"),
        lambda hlr: "i2",
    ],
)
def test_type_and_sizes_allocate_zeroed_memory(hlr, spelling):
    b = hlr.Buffer(spelling(hlr), [4, 3])
    assert b.type() == hlr.Type(0, 16) and b.type() == "int16"
    assert dims(b) == [(0, 4, 1), (0, 3, 4)]
    assert not b.host_dirty()
    np.testing.assert_array_equal(b.numpy_view(), np.zeros((3, 4), np.int16))
    b[3, 2] = -7
    assert b.numpy_view()[2, 3] == -7


def test_type_forms_with_storage_order_and_name(hlr):
    b = hlr.Buffer("uint8", [4, 3, 2], [2, 0, 1], "planar")
    assert b.name() == "planar"
    assert dims(b) == [(0, 4, 2), (0, 3, 8), (0, 2, 1)]  # channels innermost
    assert dims(hlr.Buffer("uint8", [4, 3], "named")) == [(0, 4, 1), (0, 3, 4)]
    assert hlr.Buffer("uint8", [4, 3], "named").name() == "named"
    assert hlr.Buffer("float64", []).dimensions() == 0
    assert hlr.Buffer("float64", (0, 5)).number_of_elements() == 0
    assert np.asarray(hlr.Buffer("float64", (0, 5))).shape == (5, 0)


def test_type_and_sizes_errors(hlr):
    with pytest.raises(TypeError, match="missing required argument 'sizes'"):
        hlr.Buffer("uint8")
    with pytest.raises(TypeError, match="expected a halide.runtime.Type"):
        hlr.Buffer("no_such_type", [2])
    with pytest.raises(TypeError, match="has no Halide equivalent"):
        hlr.Buffer(np.complex64, [2])
    with pytest.raises(TypeError, match="sequence of integers"):
        hlr.Buffer("uint8", 3)
    with pytest.raises(TypeError, match=r"sizes\[1\] must be an integer"):
        hlr.Buffer("uint8", [3, 2.0])
    with pytest.raises(ValueError, match="negative"):
        hlr.Buffer("uint8", [3, -1])
    with pytest.raises(ValueError, match="does not fit in 32 bits"):
        hlr.Buffer("uint8", [2**31])
    with pytest.raises(ValueError, match="too large"):
        hlr.Buffer("uint8", [2**16, 2**16, 2])
    with pytest.raises(ValueError, match="each of the 2 dimension indices exactly once"):
        hlr.Buffer("uint8", [2, 2], [0, 0])
    with pytest.raises(ValueError, match="expected 2 dimension indices"):
        hlr.Buffer("uint8", [2, 2], [0])
    with pytest.raises(ValueError, match="cannot hold elements of type"):
        hlr.Buffer(hlr.Type(0, 7), [2])


def test_type_class(hlr):
    t = hlr.Type(2, 32)
    assert (t.code(), t.bits()) == (2, 32)
    assert str(t) == repr(t) == "float32"
    assert t == hlr.Type(2, 32) and t != hlr.Type(2, 64) and t == "float32" and t != 3
    assert hash(t) == hash(hlr.Type(2, 32))
    assert str(hlr.Type(1, 1)) == "bool" and str(hlr.Type(4, 16)) == "bfloat16"
    with pytest.raises(ValueError, match="type code 9"):
        hlr.Type(9, 8)
    with pytest.raises(ValueError, match="bits must be in"):
        hlr.Type(0, 0)


def test_wrap_capsule_providers(hlr):
    a = np.arange(6, dtype=np.uint16).reshape(2, 3)
    src = hlr.Buffer(a).translated(0, 5)

    class Provider:  # no buffer protocol, only the capsule
        def _get_halide_buffer_t_capsule(self):
            return src._get_halide_buffer_t_capsule()

    b = hlr.Buffer(Provider())
    assert dims(b) == dims(src)  # Halide order and mins kept
    assert b[6, 1] == a[1, 1]

    class Broken:
        def _get_halide_buffer_t_capsule(self):
            raise ZeroDivisionError("no capsule today")

    with pytest.raises(ZeroDivisionError, match="no capsule today"):
        hlr.Buffer(Broken())


# ---------------------------------------------------------------------------
# Static constructors
# ---------------------------------------------------------------------------


def test_make_scalar(hlr):
    s = hlr.Buffer.make_scalar(hlr.Type(2, 64), "s")
    assert s.dimensions() == 0 and s.name() == "s" and s.number_of_elements() == 1
    assert s[()] == 0.0
    s[()] = 2.25
    assert s[[]] == 2.25 and s.numpy_view().shape == () and float(s.numpy_view()) == 2.25
    assert (s.width(), s.height(), s.channels()) == (1, 1, 1)
    for edge in (s.left, s.right, s.top, s.bottom):
        with pytest.raises(IndexError, match="needs a buffer with at least"):
            edge()


def test_make_interleaved(hlr):
    b = hlr.Buffer.make_interleaved("uint8", 5, 4, 3)
    assert dims(b) == [(0, 5, 3), (0, 4, 15), (0, 3, 1)]
    assert (b.width(), b.height(), b.channels()) == (5, 4, 3)
    # As NumPy (H, W, C) after moving the channel axis last: C-contiguous.
    hwc = np.moveaxis(b.numpy_view(), 0, -1)
    assert hwc.shape == (4, 5, 3) and hwc.flags.c_contiguous
    with pytest.raises(ValueError, match="negative"):
        hlr.Buffer.make_interleaved("uint8", -1, 2, 3)


def test_make_with_shape_of(hlr):
    a = np.zeros((4, 6, 3), np.float32)
    src = hlr.Buffer(a[:, ::2, :]).translated([1, 2, 3]).transposed(0, 2)
    b = hlr.Buffer.make_with_shape_of(src, "shaped")
    assert b.name() == "shaped" and b.type() == "float32"
    # Same mins and extents, dense, dimensions nested in memory as in src.
    assert [(m, e) for m, e, _ in dims(b)] == [(m, e) for m, e, _ in dims(src)]
    order = sorted(range(3), key=lambda i: abs(src.dim(i).stride()))
    stride = 1
    for i in order:
        assert b.dim(i).stride() == stride
        stride *= b.dim(i).extent()
    assert b.all_equal(0) and not b.same_as(src)
    assert hlr.Buffer.make_with_shape_of(a).type() == "float32"  # any buffer-protocol object


def test_make_bounds_query(hlr):
    q = hlr.Buffer.make_bounds_query(hlr.Type(1, 16), [3, 4], "bq")
    assert q.defined() and dims(q) == [(0, 3, 1), (0, 4, 3)] and q._host_address() == 0
    assert q.number_of_elements() == 12 and q.size_in_bytes() == 24
    with pytest.raises(ValueError, match="no host memory"):
        q[0, 0]
    with pytest.raises(ValueError, match="null host ptr"):
        q.numpy_view()
    with pytest.raises(ValueError, match="null host ptr"):
        memoryview(q)
    q.allocate()
    np.testing.assert_array_equal(q.numpy_view(), np.zeros((4, 3), np.uint16))


# ---------------------------------------------------------------------------
# Elements
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
def test_element_get_set_every_type(hlr, rng, dtype):
    a = (rng.integers(0, 2, size=(3, 4)) if dtype == np.bool_ else rng.integers(0, 100, size=(3, 4))).astype(dtype)
    b = hlr.Buffer(a)
    for y in range(3):
        for x in range(4):
            got = b[x, y]
            assert got == a[y, x] and type(got) is type(a[y, x].item())
    b[3, 2] = True if dtype == np.bool_ else 42
    assert a[2, 3] == (True if dtype == np.bool_ else 42)
    assert b.__setitem__((0, 0), 1) == 1  # upstream returns the stored value


def test_element_index_forms_and_errors(hlr):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    b = hlr.Buffer(a).translated([10, 20, 30])
    assert b[11, 22, 31] == b[(11, 22, 31)] == b[[11, 22, 31]] == b[np.int64(11), 22, np.int32(31)] == a[1, 2, 1]
    assert hlr.Buffer(np.arange(4, dtype=np.uint8))[np.uint8(3)] == 3
    with pytest.raises(ValueError, match="Incorrect number of dimensions"):
        b[11, 22]
    with pytest.raises(IndexError, match="index 9 is out of bounds for axis 0 with min=10, extent=4"):
        b[9, 20, 30]
    with pytest.raises(IndexError, match="out of bounds for axis 2"):
        b[10, 20, 32]
    with pytest.raises(IndexError):
        b[10, 20, 2**40]
    with pytest.raises(TypeError, match="must be an integer"):
        b[10.0, 20, 30]
    with pytest.raises(TypeError, match="indices must be"):
        b["x"]
    with pytest.raises(TypeError):
        b[10, 20, 30] = 1.5
    with pytest.raises(ValueError, match="not representable as int32"):
        b[10, 20, 30] = 2**40
    u8 = hlr.Buffer(np.zeros(2, np.uint8))
    with pytest.raises(ValueError):
        u8[0] = 256
    with pytest.raises(ValueError):
        u8[0] = -1
    f16 = hlr.Buffer(np.zeros(2, np.float16))
    f16[0] = 0.1
    assert f16[0] == float(np.float16(0.1))


def test_elements_of_unsupported_types_raise(hlr):
    for t in (hlr.Type(4, 16), hlr.Type(3, 64)):
        b = hlr.Buffer(t, [2])
        assert b.type() == t
        with pytest.raises(ValueError, match="Unsupported Buffer<> type"):
            b[0]
        with pytest.raises(ValueError, match="Unsupported Buffer<> type"):
            b.fill(0)
        with pytest.raises(ValueError, match="Unsupported Buffer<> type"):
            np.asarray(b.numpy_view())


def test_dim_is_live_and_checked(hlr):
    b = hlr.Buffer(np.zeros((3, 4), np.uint8))
    d0, d1 = b.dim(0), b.dim(1)
    assert (d0.min(), d0.extent(), d0.stride(), d0.max()) == (0, 4, 1, 3)
    b.crop(0, 1, 2)
    assert (d0.min(), d0.extent(), d0.max()) == (1, 2, 2)  # reads the buffer, as upstream
    assert repr(d0) == "BufferDimension(min=1, extent=2, stride=1)"
    b.slice(1, 0)
    with pytest.raises(IndexError, match="no longer exists"):
        d1.extent()
    for bad in (-1, 1, 5):
        with pytest.raises(IndexError, match="out of range"):
            b.dim(bad)


# ---------------------------------------------------------------------------
# Views: crop, slice, embed, translate, transpose
# ---------------------------------------------------------------------------


def test_crop_matches_numpy_slicing(hlr, rng):
    a = rng.integers(0, 255, size=(5, 7, 3)).astype(np.uint8)
    b = hlr.Buffer(a)
    c = b.cropped(0, 1, 2).cropped(1, 2, 4)  # x = c in [1, 3), y in [2, 6)
    assert dims(c) == [(1, 2, 1), (2, 4, 3), (0, 5, 21)]
    np.testing.assert_array_equal(c.numpy_view(), a[:, 2:6, 1:3])
    assert np.shares_memory(c.numpy_view(), a)
    assert c.same_as(b) and c.name() != b.name()
    r = b.cropped([(0, 1), (3, 2)])
    np.testing.assert_array_equal(r.numpy_view(), a[:, 3:5, 0:1])
    b.crop([(2, 1)])
    assert dims(b)[0] == (2, 1, 1)
    b.crop(2, 4, 1)
    np.testing.assert_array_equal(b.numpy_view(), a[4:5, :, 2:3])
    empty = hlr.Buffer(a).cropped(1, 3, 0)
    assert empty.number_of_elements() == 0 and np.asarray(empty).shape == (5, 0, 3)


def test_crop_errors(hlr):
    b = hlr.Buffer(np.zeros((4, 4), np.uint8))
    with pytest.raises(ValueError, match=r"crop of dimension 0 to \[3, 5\) lies outside the buffer's \[0, 4\)"):
        b.crop(0, 3, 2)
    with pytest.raises(ValueError, match="lies outside"):
        b.cropped(1, -1, 1)
    with pytest.raises(ValueError, match="lies outside"):
        b.cropped(1, 0, -1)
    with pytest.raises(ValueError, match="lies outside"):
        b.crop([(0, 1), (0, 9)])
    assert dims(b) == [(0, 4, 1), (0, 4, 4)]  # nothing changed by the failed rect crop
    with pytest.raises(ValueError, match="3 .min, extent. pairs"):
        b.crop([(0, 1)] * 3)
    with pytest.raises(IndexError, match="dimension 2 is out of range"):
        b.crop(2, 0, 1)
    with pytest.raises(TypeError):
        b.crop(0, 1)


def test_slice_matches_numpy_indexing(hlr, rng):
    a = rng.integers(0, 1000, size=(4, 5, 6)).astype(np.int64)
    b = hlr.Buffer(a).translated(1, 10)
    s = b.sliced(1, 12)  # y = 12 -> NumPy axis 1 index 2
    assert s.dimensions() == 2 and dims(s) == [(0, 6, 1), (0, 4, 30)]
    np.testing.assert_array_equal(s.numpy_view(), a[:, 2, :])
    assert np.shares_memory(s.numpy_view(), a)
    np.testing.assert_array_equal(b.sliced(1).numpy_view(), a[:, 0, :])  # at the min
    b.slice(2, 3)
    b.slice(0)
    np.testing.assert_array_equal(b.numpy_view(), a[3, :, 0])
    with pytest.raises(IndexError, match=r"slice position 9 is outside dimension 0 \[10, 15\)"):
        b.slice(0, 9)
    with pytest.raises(IndexError):
        b.sliced(1)
    z = hlr.Buffer(np.zeros((0, 3), np.uint8))
    with pytest.raises(IndexError, match="outside dimension 1"):
        z.sliced(1)


def test_embed_and_add_dimension(hlr):
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = hlr.Buffer(a)
    e = b.embedded(1, 5)
    assert dims(e) == [(0, 3, 1), (5, 1, 6), (0, 2, 3)]
    assert e[2, 5, 1] == a[1, 2]
    np.testing.assert_array_equal(e.numpy_view(), a[:, None, :])
    assert dims(b.embedded(2)) == [(0, 3, 1), (0, 2, 3), (0, 1, 6)]
    assert dims(b.embedded(0)) == [(0, 1, 6), (0, 3, 1), (0, 2, 3)]
    b.embed(0, -4)
    assert dims(b)[0] == (-4, 1, 6) and b[-4, 1, 1] == a[1, 1]
    c = hlr.Buffer(a)
    c.add_dimension()
    assert dims(c) == [(0, 3, 1), (0, 2, 3), (0, 1, 6)]
    s = hlr.Buffer.make_scalar("uint8")
    s.add_dimension()
    assert dims(s) == [(0, 1, 1)]
    with pytest.raises(IndexError, match="embed: dimension 4 is out of range"):
        c.embed(4)
    huge = hlr.Buffer(np.zeros(1, np.uint8)).cropped(0, 0, 0)
    huge.embed(1)  # a zero extent gives stride 0: fine
    big = hlr.Buffer(np.lib.stride_tricks.as_strided(np.zeros(1, np.uint8), (70000,), (40000,)))
    with pytest.raises(ValueError, match="does not fit in 32 bits"):
        big.add_dimension()


def test_translate_and_set_min_and_contains(hlr):
    a = np.arange(12, dtype=np.uint8).reshape(3, 4)
    b = hlr.Buffer(a)
    t = b.translated(0, -1)
    assert dims(t) == [(-1, 4, 1), (0, 3, 4)] and t[-1, 0] == a[0, 0]
    assert t._host_address() == b._host_address()  # no memory moves
    t2 = b.translated([5, 6])
    assert (t2.left(), t2.right(), t2.top(), t2.bottom()) == (5, 8, 6, 8)
    b.translate([1])
    b.translate(1, 2)
    assert dims(b) == [(1, 4, 1), (2, 3, 4)]
    b.set_min([-3])
    assert dims(b) == [(-3, 4, 1), (2, 3, 4)]
    b.set_min([0, 0])
    assert b.contains([3, 2]) and not b.contains([4, 0]) and b.contains([3]) and b.contains([])
    with pytest.raises(ValueError, match="Too many arguments"):
        b.contains([0, 0, 0])
    with pytest.raises(ValueError, match="Too many arguments"):
        b.set_min([0, 0, 0])
    with pytest.raises(ValueError, match="translate: got 3 offsets"):
        b.translate([0, 0, 0])
    with pytest.raises(ValueError, match="outside the 32-bit range"):
        b.translated(0, 2**31 - 2)
    with pytest.raises(ValueError, match="outside the 32-bit range"):
        b.set_min([2**31 - 2])
    with pytest.raises(IndexError):
        b.translate(2, 1)


def test_transpose_matches_numpy(hlr, rng):
    a = rng.integers(0, 100, size=(2, 3, 4)).astype(np.uint16)
    b = hlr.Buffer(a)  # dims: x=4, y=3, z=2
    t = b.transposed(0, 2)
    assert dims(t) == [dims(b)[2], dims(b)[1], dims(b)[0]]
    np.testing.assert_array_equal(values(t), values(b).transpose(2, 1, 0))
    # transpose(order): old dimension i becomes dimension order[i] (upstream).
    order = [2, 0, 1]
    p = b.transposed(order)
    for i, new in enumerate(order):
        assert p.dim(new).extent() == b.dim(i).extent() and p.dim(new).stride() == b.dim(i).stride()
    inverse = np.argsort(order)
    np.testing.assert_array_equal(values(p), values(b).transpose(inverse))
    assert np.shares_memory(p.numpy_view(), a)
    b.transpose([1, 2, 0])
    b.transpose(0, 1)
    with pytest.raises(ValueError, match="exactly once"):
        b.transpose([0, 0, 1])
    with pytest.raises(ValueError, match="expected 3 dimension indices"):
        b.transposed([0, 1])
    with pytest.raises(IndexError):
        b.transpose(0, 3)


def test_reverse_axes_view(hlr):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    b = hlr.Buffer(a)
    r = b.reverse_axes()
    assert dims(r) == halide_dims_of(a, reverse=False)
    assert r.same_as(b) and r[1, 2, 3] == a[1, 2, 3]
    np.testing.assert_array_equal(np.asarray(r), a.transpose(2, 1, 0))


# ---------------------------------------------------------------------------
# Whole-buffer operations
# ---------------------------------------------------------------------------


def test_fill_and_all_equal(hlr):
    a = np.zeros((3, 5), np.float32)
    b = hlr.Buffer(a[:, ::2])  # a strided view: only every other column
    b.set_host_dirty(False)
    b.fill(1.5)
    assert b.host_dirty()
    np.testing.assert_array_equal(a[:, ::2], 1.5)
    np.testing.assert_array_equal(a[:, 1::2], 0)
    assert b.all_equal(1.5) and not b.all_equal(1.0)
    b[1, 1] = float("nan")
    assert not b.all_equal(1.5) and not b.all_equal(float("nan"))
    z = hlr.Buffer(np.array([0.0, -0.0], np.float64))
    assert z.all_equal(0.0)
    flags = hlr.Buffer(np.zeros(4, np.bool_))
    flags.fill(True)
    assert flags.all_equal(True) and not flags.all_equal(False)
    h = hlr.Buffer(np.zeros(3, np.float16))
    h.fill(0.5)
    assert h.all_equal(0.5)
    assert hlr.Buffer(np.zeros((0, 3), np.uint8)).all_equal(7)
    s = hlr.Buffer.make_scalar("int64")
    s.fill(-(2**63))
    assert s[()] == -(2**63)
    with pytest.raises(ValueError):
        hlr.Buffer(np.zeros(2, np.uint8)).fill(256)
    with pytest.raises(TypeError):
        hlr.Buffer(np.zeros(2, np.int8)).fill("1")
    ro = np.zeros(2, np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        hlr.Buffer(ro).fill(1)


def test_for_each_element_order(hlr):
    a = np.zeros((2, 3), np.uint8)
    b = hlr.Buffer(a).translated([10, 20])
    seen = []
    b.for_each_element(lambda pos: seen.append(pos))
    expected = [[x, y] for y in range(20, 22) for x in range(10, 13)]  # dimension 0 fastest
    assert seen == expected and all(type(p) is list for p in seen)
    zero_d = []
    hlr.Buffer.make_scalar("uint8").for_each_element(zero_d.append)
    assert zero_d == [[]]
    none = []
    hlr.Buffer(np.zeros((0, 2))).for_each_element(none.append)
    assert none == []

    def boom(pos):
        raise KeyError(tuple(pos))

    with pytest.raises(KeyError):
        b.for_each_element(boom)
    # The callback may change the buffer; the walk uses the shape it started with.
    c = hlr.Buffer(np.zeros((2, 2), np.uint8))
    walked = []

    def shrink(pos):
        walked.append(pos)
        if c.dimensions() == 2:
            c.slice(1, 0)

    c.for_each_element(shrink)
    assert len(walked) == 4
    with pytest.raises(TypeError):
        b.for_each_element(3)


def test_copy_is_dense_and_independent(hlr, rng):
    a = rng.integers(0, 100, size=(4, 6)).astype(np.int32)
    src = hlr.Buffer(a[::-1, ::2]).translated([3, 4])
    c = src.copy()
    assert not c.same_as(src) and c.name() != src.name()
    assert [(m, e) for m, e, _ in dims(c)] == [(3, 3), (4, 4)]
    assert dims(c) == [(3, 3, 1), (4, 4, 3)]
    np.testing.assert_array_equal(c.numpy_view(), a[::-1, ::2])
    assert not np.shares_memory(c.numpy_view(), a)
    c[3, 4] = -12345
    assert src[3, 4] == a[3, 0] != -12345
    # A transposed source keeps its memory nesting.
    t = hlr.Buffer(a).transposed(0, 1).copy()
    assert dims(t) == [(0, 4, 6), (0, 6, 1)]
    with pytest.raises(ValueError, match="no host memory"):
        hlr.Buffer.make_bounds_query("uint8", [2]).copy()


def test_copy_from_copies_the_intersection(hlr, rng):
    a = rng.integers(0, 100, size=(4, 5)).astype(np.int16)
    dst_np = np.full((3, 3), -1, np.int16)
    dst = hlr.Buffer(dst_np).translated([2, 1])  # x in [2, 5), y in [1, 4)
    dst.set_host_dirty(False)
    dst.copy_from(hlr.Buffer(a))  # x in [0, 5), y in [0, 4)
    np.testing.assert_array_equal(dst_np, a[1:4, 2:5])
    assert dst.host_dirty()
    # Partial overlap: only the common region changes.
    dst_np[:] = -1
    part = hlr.Buffer(a[:2, :3]).translated([3, 2])  # x in [3, 6), y in [2, 4)
    dst.copy_from(part)
    expected = np.full((3, 3), -1, np.int16)
    expected[1:3, 1:3] = a[0:2, 0:2]
    np.testing.assert_array_equal(dst_np, expected)
    # Disjoint: nothing, and no error even without memory.
    dst.copy_from(hlr.Buffer.make_bounds_query("int16", [2, 2]).translated([100, 100]))
    # A buffer-protocol object is accepted as the source.
    out = hlr.Buffer("int16", [5, 4])
    out.copy_from(a)
    np.testing.assert_array_equal(out.numpy_view(), a)
    with pytest.raises(TypeError, match="holds int32 elements, this buffer int16"):
        out.copy_from(a.astype(np.int32))
    with pytest.raises(ValueError, match="the source has 1 dimensions, this buffer 2"):
        out.copy_from(np.zeros(3, np.int16))
    ro = np.zeros((4, 5), np.int16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        hlr.Buffer(ro).copy_from(a)
    dirty = hlr.Buffer(a.copy())
    dirty.set_host_dirty(False)
    dirty.set_device_dirty(True)
    with pytest.raises(ValueError, match="device-dirty"):
        out.copy_from(dirty)
    with pytest.raises(ValueError, match="device-dirty"):
        dirty.copy_from(out)


# ---------------------------------------------------------------------------
# NumPy views, the buffer protocol, lifetimes
# ---------------------------------------------------------------------------


def test_numpy_view_aliases_and_reflects_flags(hlr):
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = hlr.Buffer(a).cropped(0, 1, 2)
    v = b.numpy_view()
    np.testing.assert_array_equal(v, a[:, 1:3])
    assert v.strides == a[:, 1:3].strides
    v[0, 0] = -1
    assert a[0, 1] == -1 and b[1, 0] == -1
    w = b.numpy_view(reverse_axes=False)
    assert w.shape == (2, 3) and np.shares_memory(w, a)
    ro = a.copy()
    ro.flags.writeable = False
    assert hlr.Buffer(ro).numpy_view().flags.writeable is False


def test_buffer_protocol_export(hlr):
    a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    b = hlr.Buffer(a)
    m = memoryview(b)
    assert (m.format, m.itemsize, m.shape, m.strides, m.readonly) == ("i", 4, (2, 3, 4), a.strides, False)
    assert m.c_contiguous and m.tobytes() == a.tobytes()
    t = hlr.Buffer(a).transposed(0, 2)
    mt = memoryview(t)
    assert mt.shape == (4, 3, 2) and not mt.c_contiguous and mt.f_contiguous
    np.testing.assert_array_equal(np.asarray(t), a.transpose(2, 1, 0))
    bool_view = memoryview(hlr.Buffer(np.zeros(2, np.bool_)))
    assert bool_view.format == "?"
    assert memoryview(hlr.Buffer(np.zeros(2, np.float16))).format == "e"
    ro = np.zeros(3, np.uint8)
    ro.flags.writeable = False
    assert memoryview(hlr.Buffer(ro)).readonly
    assert bytes(hlr.Buffer(ro)) == b"\0\0\0"  # reading is fine
    with pytest.raises(BufferError, match="read-only"):
        request_buffer(hlr.Buffer(ro), PyBUF_WRITABLE)
    assert request_buffer(hlr.Buffer(np.zeros(3, np.uint8)), PyBUF_WRITABLE) == 0
    # Contiguity requests, as the buffer protocol defines them.
    dense = hlr.Buffer(a)
    fortran = hlr.Buffer(a).transposed(0, 2)
    strided = hlr.Buffer(a[:, :, ::2])
    for flags, ok in [
        (PyBUF_SIMPLE, (dense,)),
        (PyBUF_ND, (dense,)),
        (PyBUF_STRIDES, (dense, fortran, strided)),
        (PyBUF_C_CONTIGUOUS, (dense,)),
        (PyBUF_F_CONTIGUOUS, (fortran,)),
        (PyBUF_ANY_CONTIGUOUS, (dense, fortran)),
    ]:
        for buf in (dense, fortran, strided):
            if any(buf is o for o in ok):
                assert request_buffer(buf, flags) == 0
            else:
                with pytest.raises(BufferError, match="contiguous"):
                    request_buffer(buf, flags)
    assert (ctypes.c_uint8 * 8).from_buffer_copy(hlr.Buffer(a[0, 0, :2]))[4] == 1


def test_views_keep_memory_alive(hlr):
    a = np.arange(60, dtype=np.uint8).reshape(5, 12)
    b = hlr.Buffer(a)
    c = b.cropped(0, 2, 4).cropped(1, 1, 3)
    view = c.numpy_view()
    del a, b
    gc.collect()
    assert c[2, 1] == 14 and view[0, 0] == 14
    # Owned memory outlives deallocate() while a NumPy view or memoryview uses it.
    own = hlr.Buffer("int32", [4])
    own.fill(5)
    v = own.numpy_view()
    m = memoryview(own)
    own.deallocate()
    assert own._host_address() == 0
    with pytest.raises(ValueError, match="no host memory"):
        own[0]
    np.testing.assert_array_equal(v, 5)
    assert m.tolist() == [5, 5, 5, 5]
    own.allocate()
    assert own.all_equal(0) and v[0] == 5
    del own
    gc.collect()
    assert v.sum() == 20


def test_allocate_and_deallocate(hlr):
    a = np.ones(3, np.uint8)
    b = hlr.Buffer(a)
    b.deallocate()  # wraps NumPy memory: nothing to drop
    assert b[0] == 1
    b.allocate()  # fresh memory of the same shape, no longer NumPy's
    assert b.all_equal(0) and a[0] == 1
    b[0] = 9
    assert a[0] == 1
    ro = np.zeros(2, np.uint8)
    ro.flags.writeable = False
    r = hlr.Buffer(ro)
    r.allocate()
    r[0] = 1  # owned memory is writable
    neg = hlr.Buffer(np.zeros((3, 4), np.int16)[::-1, ::-1])
    neg.allocate()  # negative strides: host points inside the block
    neg.fill(3)
    assert neg.all_equal(3) and neg.numpy_view().sum() == 36
    with pytest.raises(ValueError, match="more memory than can be addressed"):
        hlr.Buffer.make_bounds_query("float64", [2**30, 2**30]).allocate()


# ---------------------------------------------------------------------------
# Dirty flags and device calls without a device
# ---------------------------------------------------------------------------


def test_dirty_flags_and_device_calls(hlr):
    b = hlr.Buffer(np.zeros(3, np.uint8))
    assert b.host_dirty() and not b.device_dirty() and not b.has_device_allocation()
    assert b.copy_to_host() == 0 and b.device_sync() == 0 and b.device_free() == 0
    assert b.device_detach_native() == 0 and b.device_deallocate() is None
    with pytest.raises(ValueError, match="Cannot set device dirty when host is already dirty"):
        b.set_device_dirty()
    b.set_host_dirty(False)
    b.set_device_dirty()
    assert b.device_dirty()
    with pytest.raises(ValueError, match="Cannot set host dirty when device is already dirty"):
        b.set_host_dirty(True)
    with pytest.raises(ValueError, match="device-dirty"):
        b[0] = 1
    assert b[0] == 0  # reading is allowed
    with pytest.raises(hlr.HalideError) as info:
        b.copy_to_host()  # device-dirty with no device interface
    assert info.value.code == -19
    b.set_device_dirty(False)
    with pytest.raises(hlr.HalideError) as info:
        b.copy_to_device()
    assert info.value.code == -19


# ---------------------------------------------------------------------------
# Capsules, kernels, naming, repr
# ---------------------------------------------------------------------------


def test_halide_buffer_t_capsule_into_kernels(hlr, load):
    k = load("brighten")
    a = np.arange(24, dtype=np.uint8).reshape(4, 6)
    out = hlr.Buffer("uint8", [6, 4], "out")  # owned memory as the output
    cap = out._get_halide_buffer_t_capsule()
    assert type(cap).__name__ == "PyCapsule"
    k(hlr.Buffer(a), 5, out)
    np.testing.assert_array_equal(out.numpy_view(), a + 5)
    window = hlr.Buffer("uint8", [6, 4]).cropped(0, 1, 3)  # a cropped owned buffer
    k(hlr.Buffer(a).cropped(0, 1, 3), 1, window)
    np.testing.assert_array_equal(window.numpy_view(), a[:, 1:4] + 1)
    blur = load("blur_x")
    src = np.arange(4 * 12, dtype=np.uint16).reshape(4, 12)
    res = blur(hlr.Buffer(src).translated(0, -1), output_shape=(4, 10))
    np.testing.assert_array_equal(res, ((src[:, :-2].astype(np.uint32) + src[:, 1:-1] + src[:, 2:]) // 3))
    with pytest.raises(ValueError):  # the kernel refuses a buffer without memory
        k(hlr.Buffer(a), 1, hlr.Buffer.make_bounds_query("uint8", [6, 4]))


def test_runtime_buffer_capsule_and_from_borrowed(hlr):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    owner = hlr.Buffer(a, "owner")
    cap = owner._get_halide_runtime_buffer_capsule()
    assert type(cap).__name__ == "PyCapsule"
    assert hlr._runtime.RUNTIME_BUFFER_CAPSULE_NAME.startswith("halide.runtime.Buffer.v")
    borrowed = hlr.Buffer._from_borrowed(cap, owner, "borrowed")
    assert borrowed.name() == "borrowed" and dims(borrowed) == dims(owner)
    assert not borrowed.same_as(owner)
    borrowed[2, 1] = 50
    assert a[1, 2] == 50
    borrowed.crop(0, 1, 2)  # operates on the borrowed C++ buffer: owner changes too
    assert dims(owner) == [(1, 2, 1), (0, 2, 3)]
    with pytest.raises(ValueError, match="is named 'halide.halide_buffer_t"):
        hlr.Buffer._from_borrowed(owner._get_halide_buffer_t_capsule(), owner, "x")
    with pytest.raises(TypeError, match="expected a capsule"):
        hlr.Buffer._from_borrowed(3, owner, "x")
    with pytest.raises(ValueError, match="Undefined buffer"):
        hlr.Buffer()._get_halide_runtime_buffer_capsule()


def test_names_identity_and_repr(hlr):
    b = hlr.Buffer(np.zeros((2, 3), np.uint8))
    v = b.cropped(0, 0, 1)
    assert re.fullmatch(r"b\d+", b.name()) and re.fullmatch(r"b\d+", v.name()) and b.name() != v.name()
    assert b.same_as(v) and b.same_as(b.sliced(0)) and not b.same_as(b.copy())
    assert not b.same_as(hlr.Buffer(np.zeros((2, 3), np.uint8)))
    b.set_name("image")
    assert b.name() == "image"
    assert repr(b.translated(1, -1)) == "<halide.runtime.Buffer of type uint8 shape:[[0,3,1],[-1,2,3]]>"
    assert repr(hlr.Buffer.make_scalar("float16")) == "<halide.runtime.Buffer of type float16 shape:[]>"
    with pytest.raises(TypeError):
        b.same_as(np.zeros(2))


def test_random_views_against_numpy(hlr, rng):
    """Chains of views checked element by element against a NumPy model."""
    for _ in range(40):
        shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 4))))
        a = rng.integers(-1000, 1000, size=shape).astype(np.int32)
        buf = hlr.Buffer(a)
        model = a.transpose(*range(a.ndim)[::-1])  # Halide order
        mins = [0] * a.ndim
        for _ in range(int(rng.integers(1, 6))):
            d = int(rng.integers(0, model.ndim)) if model.ndim else 0
            op = int(rng.integers(0, 5))
            if model.ndim == 0:
                break
            if op == 0 and model.shape[d] > 0:
                lo = int(rng.integers(0, model.shape[d]))
                n = int(rng.integers(0, model.shape[d] - lo + 1))
                buf = buf.cropped(d, mins[d] + lo, n)
                model = np.take(model, range(lo, lo + n), axis=d)
                mins[d] += lo
            elif op == 1 and model.shape[d] > 0:
                p = int(rng.integers(0, model.shape[d]))
                buf = buf.sliced(d, mins[d] + p)
                model = np.take(model, p, axis=d)
                del mins[d]
            elif op == 2:
                d2 = int(rng.integers(0, model.ndim))
                buf = buf.transposed(d, d2)
                model = np.swapaxes(model, d, d2)
                mins[d], mins[d2] = mins[d2], mins[d]
            elif op == 3:
                dx = int(rng.integers(-3, 4))
                buf = buf.translated(d, dx)
                mins[d] += dx
            else:
                p = int(rng.integers(-2, 3))
                buf = buf.embedded(d, p)
                model = np.expand_dims(model, d)
                mins.insert(d, p)
        assert [m for m, _, _ in dims(buf)] == mins
        np.testing.assert_array_equal(values(buf), model)
        assert np.shares_memory(values(buf), a) or model.size == 0
        for idx in np.ndindex(*model.shape):
            assert buf[[i + m for i, m in zip(idx, mins, strict=True)]] == model[idx]


def test_type_spellings_and_export(hlr):
    class CompilerStyleType:  # like the compiler's halide.Type: code() and bits()
        def code(self):
            return 2

        def bits(self):
            return 64

    assert hlr.Buffer(CompilerStyleType(), [2]).type() == "float64"
    assert hlr.Buffer.make_scalar(np.dtype("bool")).type() == hlr.Type(1, 1)
    assert "Type" in hlr.__all__ and hlr.Type is hlr._runtime.Type
    with pytest.raises(TypeError, match="expected a halide.runtime.Type"):
        hlr.Buffer.make_scalar(None)
    with pytest.raises(TypeError, match="expected a halide.runtime.Type"):
        hlr.Buffer.make_bounds_query(3.5, [2])


def test_buffer_of_a_buffer_through_the_buffer_protocol(hlr):
    a = np.arange(6, dtype=np.int8).reshape(2, 3)
    b = hlr.Buffer(a).translated(0, 4)
    c = hlr.Buffer(b, "again")  # not the copy constructor: the buffer protocol (mins are not exported)
    assert c.name() == "again" and not c.same_as(b)
    assert dims(c) == [(0, 3, 1), (0, 2, 3)]
    c[0, 1] = 100
    assert a[1, 0] == 100


def test_make_with_shape_of_nests_by_stride(hlr):
    # Strides 6, 2, 1: the copy keeps that nesting (upstream's sort gives 2, 8, 1 here).
    src = hlr.Buffer("uint8", [2, 3, 4]).transposed(0, 2)
    assert [s for _, _, s in dims(src)] == [6, 2, 1]
    assert [s for _, _, s in dims(hlr.Buffer.make_with_shape_of(src))] == [6, 2, 1]


def test_kernel_leaving_an_output_device_dirty(hlr, load):
    k = load("device_output")
    out = hlr.Buffer("int32", [4])
    with pytest.raises(hlr.HalideError):
        k(out)
    assert out.device_dirty() and not out.has_device_allocation()
    with pytest.raises(ValueError, match="device-dirty"):
        out.fill(0)
    with pytest.raises(hlr.HalideError):
        out.copy_to_host()
    out.set_device_dirty(False)
    out.fill(1)
    assert out.all_equal(1)


def test_coordinates_at_the_top_of_the_32_bit_range(hlr):
    top = 2**31 - 1
    b = hlr.Buffer(np.arange(2, dtype=np.uint8)).translated(0, top - 1)
    seen = []
    b.for_each_element(seen.append)
    assert seen == [[top - 1], [top]]
    assert b[top] == 1 and b.contains([top]) and b.right() == top and b.dim(0).max() == top
    assert b.sliced(0, top).dimensions() == 0
    with pytest.raises(IndexError):
        b[-(2**31)]


@pytest.mark.nosanitize  # AddressSanitizer aborts on the huge allocation instead of failing it
def test_failed_allocation_is_a_memory_error(hlr):
    with pytest.raises(MemoryError):
        hlr.Buffer("uint8", [2**30, 2**28])
    b = hlr.Buffer.make_bounds_query("uint8", [2**30, 2**28])
    with pytest.raises(MemoryError):
        b.allocate()
    assert b._host_address() == 0
