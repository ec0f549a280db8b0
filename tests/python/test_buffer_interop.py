"""halide.Buffer <-> halide.runtime.Buffer through halide_buffer_t capsules:
zero-copy both ways, mins and types kept, sources kept alive by views."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402
import halide.runtime as hlr  # noqa: E402


def shape_of(b):
    return [(b.dim(i).min(), b.dim(i).extent(), b.dim(i).stride()) for i in range(b.dimensions())]


def test_runtime_to_compiler_is_zero_copy():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    r = hlr.Buffer(a)
    r.translate([10, 20])
    c = hl.Buffer(r)
    assert shape_of(c) == shape_of(r) == [(10, 4, 1), (20, 3, 4)]
    assert c.type() == hl.Int(16)
    assert c[11, 22] == a[2, 1]
    c[13, 20] = -7
    assert a[0, 3] == -7 and r[13, 20] == -7


def test_compiler_to_runtime_is_zero_copy():
    c = hl.Buffer(hl.UInt(16), [5, 4])
    c.set_min([-2, 3])
    r = hlr.Buffer(c)
    assert shape_of(r) == shape_of(c)
    assert r.type() == "uint16"
    r[-2, 6] = 500
    assert c[-2, 6] == 500
    np.testing.assert_array_equal(np.asarray(r), np.asarray(c))
    assert np.shares_memory(np.asarray(r), np.asarray(c))


def test_types_numpy_lacks_cross_over():
    c = hl.Buffer(hl.BFloat(16), [3])
    r = hlr.Buffer(c)
    assert r.type() == hlr.Type(4, 16)
    back = hl.Buffer(r)
    assert back.type() == hl.BFloat(16)


def test_compiler_buffer_source_outlives_its_python_object():
    c = hl.Buffer(hl.Int(32), [4])
    c.fill(9)
    r = hlr.Buffer(c)
    del c
    gc.collect()
    assert [r[i] for i in range(4)] == [9] * 4


def test_runtime_buffer_source_outlives_its_python_object():
    a = np.arange(6, dtype=np.float64)
    ref = weakref.ref(a)
    c = hl.Buffer(hlr.Buffer(a))
    del a
    gc.collect()
    assert ref() is not None and c[5] == 5.0
    del c
    gc.collect()
    assert ref() is None


def test_views_keep_the_numpy_source_alive():
    a = np.arange(20, dtype=np.uint8).reshape(4, 5)
    ref = weakref.ref(a)
    view = hl.Buffer(a).cropped(0, 1, 3)
    del a
    gc.collect()
    assert ref() is not None
    assert [view[x, 2] for x in range(1, 4)] == [11, 12, 13]
    del view
    gc.collect()
    assert ref() is None


def test_exports_survive_reallocation():
    c = hl.Buffer(hl.Int(32), [3])
    c.fill(4)
    arr = np.asarray(c)
    view = c.numpy_view()
    c.deallocate()
    c.allocate()
    gc.collect()
    np.testing.assert_array_equal(arr, [4, 4, 4])
    np.testing.assert_array_equal(view, [4, 4, 4])


def test_compiler_buffer_feeds_a_runtime_kernel(load):
    # An AOT kernel called through halide.runtime takes halide.Buffer inputs
    # and outputs (through their capsules), compared with NumPy's answer.
    kernel = load("brighten")
    a = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    src = hl.Buffer(a)
    dst = hl.Buffer(hl.UInt(8), [4, 3])
    kernel(src, 40, dst)
    np.testing.assert_array_equal(np.asarray(dst), np.clip(a.astype(np.int32) + 40, 0, 255).astype(np.uint8))
