"""An hl.Buffer over NumPy (or DLPack, or halide.runtime) memory keeps that
memory alive for as long as anything in the compiler uses it: a Func that
reads the Buffer, or an ImageParam set to it, can outlive both Python
objects. (Upstream 21 reads freed memory in these scripts.)"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x = hl.Var("x")


def churn_the_heap() -> None:
    # Reuse whatever memory was freed, so a stale read sees other values.
    junk = [np.full(100_000, -7, dtype=np.int32) for _ in range(8)]
    del junk
    gc.collect()


def test_a_func_keeps_the_array_it_reads_alive():
    array = np.arange(100_000, dtype=np.int32)
    expected = array * 2
    alive = weakref.ref(array)
    f = hl.Func("lifetime_f")
    f[x] = hl.Buffer(array)[x] * 2
    del array
    gc.collect()
    assert alive() is not None, "the array went away while a Func still reads it"
    churn_the_heap()
    np.testing.assert_array_equal(np.asarray(f.realize([100_000])), expected)

    del f
    gc.collect()
    assert alive() is None, "the array outlived every Func and Buffer that used it"


def test_an_exported_array_cannot_be_resized_under_a_func():
    array = np.arange(16, dtype=np.int32)
    f = hl.Func("lifetime_resize")
    f[x] = hl.Buffer(array)[x] + 1
    with pytest.raises(ValueError):
        array.resize(1_000_000)
    np.testing.assert_array_equal(np.asarray(f.realize([16])), np.arange(16, dtype=np.int32) + 1)


def test_an_image_param_keeps_its_value_alive():
    array = np.arange(64, dtype=np.float32).reshape(8, 8)
    expected = array + 0.5
    alive = weakref.ref(array)
    image = hl.ImageParam(hl.Float(32), 2, "lifetime_in")
    image.set(hl.Buffer(array))
    f = hl.Func("lifetime_g")
    f[x, hl._] = image[x, hl._] + 0.5
    del array
    churn_the_heap()
    assert alive() is not None
    np.testing.assert_array_equal(np.asarray(f.realize([8, 8])), expected)


def test_a_dlpack_import_keeps_its_producer_alive():
    array = np.arange(1000, dtype=np.int16)
    expected = array - 3
    alive = weakref.ref(array)
    f = hl.Func("lifetime_dl")
    f[x] = hl.Buffer.from_dlpack(array)[x] - 3
    del array
    churn_the_heap()
    assert alive() is not None
    np.testing.assert_array_equal(np.asarray(f.realize([1000])), expected)
    del f
    gc.collect()
    assert alive() is None


def test_a_runtime_buffer_source_stays_alive():
    hlr = pytest.importorskip("halide.runtime")
    source = hlr.Buffer(np.arange(500, dtype=np.int32))
    f = hl.Func("lifetime_rt")
    f[x] = hl.Buffer(source)[x] * 3
    del source
    churn_the_heap()
    np.testing.assert_array_equal(np.asarray(f.realize([500])), np.arange(500, dtype=np.int32) * 3)


def test_dropping_everything_before_realizing_does_not_crash():
    # The report's script, in a child so that a crash fails this test
    # instead of ending the run.
    script = textwrap.dedent(
        """
        import gc
        import numpy as np
        import halide as hl
        x = hl.Var("x")
        f = hl.Func("f")
        f[x] = hl.Buffer(np.arange(100000, dtype=np.int32))[x] * 2
        gc.collect()
        junk = [np.full(100000, -7, dtype=np.int32) for _ in range(8)]
        out = np.asarray(f.realize([100000]))
        assert (out == np.arange(100000, dtype=np.int32) * 2).all(), out[:8]
        print("ok")
        """
    )
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "ok"
