"""Concurrency: many Python threads calling kernels, error isolation between
threads, and one thread pool per process however many kernels are loaded."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import BUILD, fixture_path, run_python


def test_eight_threads_ten_thousand_calls(load, hlr):
    brighten, fail = load("brighten"), load("fail")
    calls_per_thread = 10_000 // 8
    problems: list[str] = []

    def worker(tid: int) -> None:
        rng = np.random.default_rng(tid)
        out = np.empty((9, 16), np.uint8)
        for i in range(calls_per_thread):
            if tid % 2 == 1 and i % 7 == 0:
                # Odd threads also fail now and then; the error must be theirs.
                code = -(1000 + tid * 10_000 + i)
                try:
                    fail(code, i % 2, np.zeros(64, np.int32))
                    problems.append(f"thread {tid}: failing call did not raise")
                except hlr.HalideError as e:
                    if e.code != code or f"failure {code} " not in str(e):
                        problems.append(f"thread {tid}: got someone else's error: {e}")
                continue
            a = rng.integers(0, 256, size=(9, 16), dtype=np.uint8)
            offset = int(rng.integers(-255, 256))
            try:
                brighten(a, offset, out)
            except hlr.HalideError as e:
                problems.append(f"thread {tid}: unexpected failure {e}")
                continue
            expected = np.clip(a.astype(np.int32) + offset, 0, 255).astype(np.uint8)
            if not np.array_equal(out, expected):
                problems.append(f"thread {tid} call {i}: wrong result")

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []


def test_eight_threads_ten_thousand_parallel_calls_each(load, hlr):
    """8 Python threads x 10,000 calls each of three kernels whose parallel
    loops share the runtime's one thread pool (with 4 threads, so tasks of
    different calls interleave on the workers), some calls failing on
    purpose. `./run tsan` runs this under ThreadSanitizer, where any race
    between callers, tasks and workers aborts the test."""
    brighten, blur_x, fail = load("brighten"), load("blur_x"), load("fail")
    calls_per_thread = 10_000
    problems: list[str] = []
    old_threads = hlr.set_num_threads(4)

    def worker(tid: int) -> None:
        rng = np.random.default_rng(tid)
        image = rng.integers(0, 256, size=(6, 20), dtype=np.uint8)
        bright_out, bright_want = np.empty_like(image), np.clip(image.astype(np.int32) + tid, 0, 255)
        wide = rng.integers(0, 1000, size=(4, 34), dtype=np.uint16)
        blur_in = hlr.Buffer(wide).translated(0, -1)
        blur_out = np.empty((4, 32), np.uint16)
        blur_want = ((wide[:, :-2].astype(np.uint32) + wide[:, 1:-1] + wide[:, 2:]) // 3).astype(np.uint16)
        fail_out, fail_want = np.empty(100, np.int32), 2 * np.arange(100, dtype=np.int32)
        for i in range(calls_per_thread):
            kind = i % 4
            try:
                if kind == 0:
                    bright_out.fill(0)
                    brighten(image, tid, bright_out)
                    ok = np.array_equal(bright_out, bright_want)
                elif kind == 1:
                    blur_out.fill(0)
                    blur_x(blur_in, blur_out)
                    ok = np.array_equal(blur_out, blur_want)
                elif kind == 2:
                    fail_out.fill(0)
                    fail(0, 0, fail_out)
                    ok = np.array_equal(fail_out, fail_want)
                else:
                    code = -(1000 + tid * 100_000 + i)
                    try:
                        fail(code, 1, fail_out)  # a task in the pool fails
                        ok = False
                    except hlr.HalideError as e:
                        ok = e.code == code and f"failure {code} " in str(e)
            except hlr.HalideError as e:
                problems.append(f"thread {tid} call {i}: unexpected failure {e}")
                return
            if not ok:
                problems.append(f"thread {tid} call {i} (kernel {kind}): wrong result or someone else's error")
                return

    try:
        threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        hlr.set_num_threads(old_threads)
    assert problems == []


def test_parallel_loops_use_more_than_one_thread(load):
    """fail() writes 2*x in chunks through halide_do_par_for; with 4 threads
    configured the pool must run chunks on several threads (observed via
    /proc: worker threads exist after the call)."""
    code = f"""
import os, numpy as np, halide.runtime as hlr
hlr.set_num_threads(4)
before = len(os.listdir('/proc/self/task'))
k = hlr.load({str(fixture_path('fail'))!r})
out = np.zeros(4096, np.int32)
k(0, 0, out)
assert (out == 2 * np.arange(4096)).all()
print(len(os.listdir('/proc/self/task')) - before)
"""
    added = int(run_python(code).stdout.strip())
    assert added == 3  # 4 threads: the caller plus 3 workers


@pytest.mark.nosanitize
def test_one_thread_pool_for_many_kernels(upstream_kernels):
    """Kernels that each embed a runtime (our fixtures, a kernel our compiler
    linked itself and an upstream Halide 14 kernel) all run on the one pool
    that halide.runtime loaded."""
    libs = [str(fixture_path(n)) for n in ("brighten", "blur_x", "fail")]
    up = upstream_kernels["up_brighten"]["library"]
    ours = str(BUILD / "tests" / "aot" / "libbrighter_aot.so")
    code = f"""
import os, numpy as np, halide.runtime as hlr
def threads(): return len(os.listdir('/proc/self/task'))
hlr.set_num_threads(3)
base = threads()
b, bx, f = (hlr.load(p) for p in {libs!r})
u = hlr.load({up!r})
o = hlr.load({ours!r})
img = np.zeros((64, 64), np.uint8)
for _ in range(3):
    b(img, 1, output_shape=img.shape)
    bx(hlr.Buffer(np.zeros((64, 66), np.uint16)).translated(0, -1), output_shape=(64, 64))
    f(0, 0, np.zeros(1024, np.int32))
    u(img, 2, output_shape=img.shape)
    o(img, 1.5, 2, output_shape=img.shape)
print(threads() - base)
"""
    proc = run_python(code, env={"HL_NUM_THREADS": "3"})
    assert int(proc.stdout.strip()) == 2  # one pool of 3: the caller and 2 workers


def test_num_threads_setting(hlr):
    old = hlr.set_num_threads(2)
    try:
        assert hlr.get_num_threads() == 2
        assert hlr.set_num_threads(5) == 2
        assert hlr.get_num_threads() == 5
        with pytest.raises(ValueError, match="n must be >= 0"):
            hlr.set_num_threads(-1)
        assert hlr.get_num_threads() == 5
    finally:
        hlr.set_num_threads(old)


def test_hl_num_threads_is_honoured():
    proc = run_python("import halide.runtime as hlr; print(hlr.get_num_threads())", env={"HL_NUM_THREADS": "7"})
    assert proc.stdout.strip() == "7"
