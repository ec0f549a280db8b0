"""Func.async_(): producers run as tasks next to their consumers, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y, yo, yi = hl.Var("x"), hl.Var("y"), hl.Var("yo"), hl.Var("yi")
W, H = 31, 27
NY, NX = np.mgrid[0:H, 0:W].astype(np.int32)


def stencil():
    p, q, c = hl.Func("p"), hl.Func("q"), hl.Func("c")
    p[x, y] = x * 3 + y * 5
    q[x, y] = x - y
    c[x, y] = p[x, y - 1] + p[x, y + 1] + q[x, y]
    return p, q, c


def expected() -> np.ndarray:
    return (NX * 3 + (NY - 1) * 5) + (NX * 3 + (NY + 1) * 5) + (NX - NY)


def sched_root(p, q, c):
    p.compute_root().async_()


def sched_line_buffer(p, q, c):
    c.split(y, yo, yi, 8)
    p.compute_at(c, yi).store_at(c, yo).async_()


def sched_store_root_rows(p, q, c):
    p.store_root().compute_at(c, y).async_()


def sched_parallel_consumer(p, q, c):
    p.compute_root().async_()
    c.parallel(y)


def sched_two_producers(p, q, c):
    p.compute_root().async_()
    q.compute_root().async_()


def sched_two_line_buffers(p, q, c):
    c.split(y, yo, yi, 4)
    p.compute_at(c, yi).store_at(c, yo).async_()
    q.compute_at(c, yi).store_at(c, yo).async_()


def sched_fold_storage(p, q, c):
    p.store_root().compute_at(c, y).fold_storage(y, 4).async_()


def sched_ring_buffer(p, q, c):
    p.compute_at(c, y).hoist_storage_root().ring_buffer(2).async_()


def sched_ring_buffer_split(p, q, c):
    c.split(y, yo, yi, 4)
    p.compute_at(c, yi).hoist_storage(c, yo).ring_buffer(3).async_()
    q.compute_at(c, yi).async_()


@pytest.mark.parametrize(
    "schedule",
    [
        sched_root,
        sched_line_buffer,
        sched_store_root_rows,
        sched_parallel_consumer,
        sched_two_producers,
        sched_two_line_buffers,
        sched_fold_storage,
        sched_ring_buffer,
        sched_ring_buffer_split,
    ],
)
def test_async_schedules_match_numpy(schedule) -> None:
    p, q, c = stencil()
    schedule(p, q, c)
    np.testing.assert_array_equal(np.asarray(c.realize([W, H])), expected())


def test_async_producers_become_tasks() -> None:
    p, q, c = stencil()
    sched_line_buffer(p, q, c)
    text = c.lowered_stmt()
    assert "async_fork(2)" in text
    assert "halide_semaphore_release" in text
    p, q, c = stencil()
    sched_ring_buffer(p, q, c)
    assert "make_semaphore(2)" in c.lowered_stmt()  # the producer may run a copy ahead


def test_computed_in_between_is_upstreams_error() -> None:
    p1, p2, c = hl.Func("p1"), hl.Func("p2"), hl.Func("c")
    p1[x, y] = x + y
    p2[x, y] = p1[x, y]
    c[x, y] = p1[x, y - 1] + p2[x, y + 1]
    p1.compute_at(c, y).async_()
    p2.store_root().compute_at(c, y).async_()
    with pytest.raises(hl.HalideError, match="is consumed by async Func p2 and has a compute_at location in between"):
        c.realize([8, 8])
    # Legal when p1 is async and stored outside p2's storage.
    p1.store_root().compute_at(c, y).async_()
    got = np.asarray(c.realize([8, 8]))
    yy, xx = np.mgrid[0:8, 0:8].astype(np.int32)
    np.testing.assert_array_equal(got, (xx + yy - 1) + (xx + yy + 1))
