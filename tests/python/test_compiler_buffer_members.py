"""halide.Buffer's members, name for name with upstream's Python Buffer,
checked against NumPy, and their error paths."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

# Upstream Halide 21's public members of halide.Buffer (dir(hl.Buffer)).
UPSTREAM_MEMBERS = """
add_dimension all_equal allocate bottom channels contains copy copy_from copy_to_device copy_to_host crop
cropped deallocate defined device_deallocate device_detach_native device_dirty device_free device_malloc
device_sync dim dimensions embed embedded fill for_each_element has_device_allocation height host_dirty left
make_bounds_query make_interleaved make_scalar make_with_shape_of name number_of_elements reverse_axes right
same_as set_device_dirty set_host_dirty set_min set_name size_in_bytes slice sliced top translate translated
transpose transposed type width _get_raw_halide_buffer_t
""".split()


def test_every_upstream_member_exists():
    missing = [m for m in UPSTREAM_MEMBERS if not hasattr(hl.Buffer, m)]
    assert not missing


def shape_of(b):
    return [(b.dim(i).min(), b.dim(i).extent(), b.dim(i).stride()) for i in range(b.dimensions())]


def grid(shape=(3, 4), dtype=np.int32):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


def test_constructor_forms():
    assert not hl.Buffer().defined()
    b = hl.Buffer(hl.Float(32), [4, 3], "f")
    assert (b.name(), b.type(), shape_of(b)) == ("f", hl.Float(32), [(0, 4, 1), (0, 3, 4)])
    s = hl.Buffer(hl.UInt(8), [4, 3], [1, 0], "s")  # storage order: y innermost
    assert shape_of(s) == [(0, 4, 3), (0, 3, 1)] and s.name() == "s"
    same = hl.Buffer(b)
    assert same.same_as(b) and not b.copy().same_as(b)
    with pytest.raises(TypeError, match="buffer protocol"):
        hl.Buffer(object())


def test_static_constructors():
    q = hl.Buffer.make_scalar(hl.Int(16), "q")
    assert q.dimensions() == 0 and q.type() == hl.Int(16)
    q[()] = -3
    assert q[()] == -3
    i = hl.Buffer.make_interleaved(hl.UInt(8), 5, 4, 3)
    assert shape_of(i) == [(0, 5, 3), (0, 4, 15), (0, 3, 1)]
    bq = hl.Buffer.make_bounds_query(hl.UInt(8), [6, 2])
    assert shape_of(bq) == [(0, 6, 1), (0, 2, 6)]
    with pytest.raises(ValueError, match="null host ptr"):
        memoryview(bq)
    with pytest.raises(ValueError, match="null host ptr"):
        bq.numpy_view()
    src = hl.Buffer(hl.Int(32), [3, 2], [1, 0])
    src.set_min([4, 5])
    w = hl.Buffer.make_with_shape_of(src)
    assert shape_of(w) == shape_of(src)


def test_element_access_with_tuples_lists_and_mins():
    a = grid()
    b = hl.Buffer(a)
    assert b[(2, 1)] == a[1, 2] and b[[3, 2]] == a[2, 3]
    b.set_min([10, 20])
    assert b[12, 21] == a[1, 2]
    assert (b.left(), b.right(), b.top(), b.bottom()) == (10, 13, 20, 22)
    assert (b.__setitem__((13, 22), 77)) == 77
    assert a[2, 3] == 77


def test_element_errors():
    b = hl.Buffer(np.zeros((2, 3), np.uint8))
    with pytest.raises(ValueError, match="not representable as uint8"):
        b[0, 0] = 256
    with pytest.raises(ValueError, match="not representable"):
        b[0, 0] = -1
    with pytest.raises(TypeError, match="integer"):
        b[0, 0] = 1.5
    with pytest.raises(ValueError, match="Incorrect number of dimensions"):
        b[0]
    with pytest.raises(IndexError, match="out of bounds"):
        b[3, 0]
    with pytest.raises(TypeError, match="integer coordinates"):
        b[hl.Var("x"), 0] = 1
    f = hl.Buffer(np.zeros(2, np.float32))
    f[1] = 2  # ints are fine for floats
    assert f[1] == 2.0
    with pytest.raises(TypeError, match="float16"):
        hl.Buffer(np.zeros(2, np.float16))[0]


def test_fill_all_equal_for_each_element():
    b = hl.Buffer(hl.Int(16), [3, 2])
    b.fill(-4)
    np.testing.assert_array_equal(np.asarray(b), np.full((2, 3), -4, np.int16))
    assert b.all_equal(-4) and not b.all_equal(4)
    b[1, 1] = 0
    assert not b.all_equal(-4)
    seen = []
    b.translate([5, 0])
    b.for_each_element(lambda pos: seen.append(tuple(pos)))
    assert seen == [(5, 0), (6, 0), (7, 0), (5, 1), (6, 1), (7, 1)]
    with pytest.raises(ValueError, match="not representable"):
        b.fill(1 << 20)


def test_for_each_value():
    a = grid((2, 3), np.float32)
    b, other = hl.Buffer(a.copy()), hl.Buffer(a * 10)
    values = []
    b.for_each_value(lambda v: values.append(v))
    assert values == list(a.ravel())  # dimension 0 (NumPy's last axis) fastest
    b.for_each_value(lambda v, w: v + w, other)
    np.testing.assert_array_equal(np.asarray(b), a + a * 10)
    with pytest.raises(ValueError, match="same mins and extents"):
        b.for_each_value(lambda v, w: None, hl.Buffer(hl.Float(32), [2, 2]))
    with pytest.raises(TypeError, match="halide.Buffer"):
        b.for_each_value(lambda v, w: None, a)


def test_crop_and_cropped_match_numpy_slicing():
    a = grid((5, 6))
    b = hl.Buffer(a)
    c = b.cropped(0, 2, 3)
    assert shape_of(c)[0] == (2, 3, 1)
    np.testing.assert_array_equal(np.asarray(c), a[:, 2:5])
    c2 = b.cropped([(1, 2), (3, 2)])
    np.testing.assert_array_equal(np.asarray(c2), a[3:5, 1:3])
    b.crop(1, 1, 3)
    np.testing.assert_array_equal(np.asarray(b), a[1:4, :])
    with pytest.raises(ValueError, match="outside"):
        b.crop(0, 4, 5)
    with pytest.raises(IndexError):
        b.crop(3, 0, 1)


def test_slice_embed_add_dimension():
    a = grid((3, 4, 5))  # dims (x=5, y=4, c=3)
    b = hl.Buffer(a)
    np.testing.assert_array_equal(np.asarray(b.sliced(2, 1)), a[1])
    np.testing.assert_array_equal(np.asarray(b.sliced(0)), a[:, :, 0])
    e = b.sliced(2, 1).embedded(2, 7)
    assert e.dimensions() == 3 and e.dim(2).min() == 7
    assert e[3, 2, 7] == a[1, 2, 3]
    b.slice(2, 2)
    assert b.dimensions() == 2
    np.testing.assert_array_equal(np.asarray(b), a[2])
    # Still usable in a pipeline with its new number of dimensions.
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = b[x, y] * 2
    np.testing.assert_array_equal(np.asarray(f.realize([5, 4])), a[2] * 2)
    b.add_dimension()
    assert b.dimensions() == 3 and b.dim(2).extent() == 1
    b.embed(0)
    assert b.dimensions() == 4 and b.dim(0).extent() == 1
    with pytest.raises(IndexError, match="slice position"):
        hl.Buffer(a).slice(0, 9)


def test_translate_set_min_contains():
    b = hl.Buffer(grid())
    b.translate(0, 3)
    assert b.dim(0).min() == 3
    t = b.translated([1, 2])
    assert (t.dim(0).min(), t.dim(1).min()) == (4, 2) and b.dim(0).min() == 3
    assert b.contains([3, 0]) and not b.contains([2, 0])
    b.set_min([-1, -1])
    assert b.contains([-1, -1]) and b[-1, -1] == 0
    with pytest.raises(ValueError, match="set_min"):
        b.set_min([1, 2, 3])


def test_transpose_and_reverse_axes():
    a = grid((3, 4, 5))
    b = hl.Buffer(a)
    np.testing.assert_array_equal(np.asarray(b.transposed(0, 1)), np.swapaxes(a, 1, 2))
    np.testing.assert_array_equal(np.asarray(b.reverse_axes()), a.transpose())
    p = b.transposed([2, 0, 1])  # old dimension i becomes dimension order[i]
    assert [p.dim(i).extent() for i in range(3)] == [4, 3, 5]  # as upstream 21
    b.transpose(0, 2)
    np.testing.assert_array_equal(np.asarray(b), a.transpose(2, 1, 0))
    with pytest.raises(ValueError, match="exactly once"):
        b.transpose([0, 0, 1])


def test_copy_and_copy_from():
    a = grid((4, 4))
    b = hl.Buffer(a)
    c = b.copy()
    assert not np.shares_memory(np.asarray(c), a)
    np.testing.assert_array_equal(np.asarray(c), a)
    small = hl.Buffer(np.full((2, 2), -1, np.int32))
    small.set_min([1, 1])
    b.copy_from(small)  # copies where both are defined
    want = a.copy()
    want[1:3, 1:3] = -1
    np.testing.assert_array_equal(a, want)
    with pytest.raises(TypeError, match="elements"):
        b.copy_from(hl.Buffer(np.zeros((2, 2), np.uint8)))


def test_numpy_view():
    a = grid((2, 3))
    b = hl.Buffer(a)
    v = b.numpy_view()
    assert np.shares_memory(v, a) and v.shape == (2, 3)
    np.testing.assert_array_equal(b.numpy_view(reverse_axes=False), a.T)


def test_sizes_names_and_raw_pointer():
    b = hl.Buffer(hl.Float(64), [3, 2], "orig")
    assert b.number_of_elements() == 6 and b.size_in_bytes() == 48
    b.set_name("renamed")
    assert b.name() == "renamed"
    assert b.raw_buffer() == b._get_raw_halide_buffer_t() != 0
    assert (b.width(), b.height(), b.channels()) == (3, 2, 1)


def test_dirty_bits_and_device_calls_on_the_host():
    b = hl.Buffer(hl.UInt(8), [2])
    assert not b.device_dirty() and not b.has_device_allocation()
    b.set_host_dirty()
    assert b.host_dirty()
    with pytest.raises(ValueError, match="host is already dirty"):
        b.set_device_dirty()
    b.set_host_dirty(False)
    assert b.copy_to_host() == 0 and b.device_sync() == 0 and b.device_free() == 0
    assert b.device_detach_native() == 0
    b.device_deallocate()
    with pytest.raises(hl.HalideError, match="device"):
        b.copy_to_device()
    with pytest.raises(hl.HalideError, match="device"):
        b.device_malloc()


def test_dim_is_live():
    b = hl.Buffer(hl.UInt(8), [4, 3])
    d = b.dim(0)
    b.crop(0, 1, 2)
    assert (d.min(), d.extent(), d.max()) == (1, 2, 2)
    with pytest.raises(IndexError):
        b.dim(2)


def test_undefined_buffer_raises():
    u = hl.Buffer()
    for call in (u.width, u.copy, u.type, u.numpy_view, u.host_dirty, lambda: u.crop(0, 0, 1)):
        with pytest.raises(ValueError, match="undefined"):
            call()
