"""Tutorial, update definitions and reductions (upstream's lesson 9, written
for this project).

A Func may be defined more than once: the first definition gives every
point a value, each later one (an update) changes some points, in order.
An RDom makes an update run over a domain; the inline reductions
(hl.sum, hl.maximum...) are the same thing in one expression. Every
result is checked against the same computation written in NumPy.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")


def test_updates_at_single_points_rows_and_columns() -> None:
    f = hl.Func("f")
    f[x, y] = x + y  # pure definition: every point
    f[3, y] = f[0, y] * f[1, y]  # column 3
    f[x, 2] = f[x, 0] - f[x, 5]  # row 2, after the column update
    out = np.asarray(f.realize([6, 7]))
    ref = np.add.outer(np.arange(7), np.arange(6)).astype(np.int32)  # [y, x]
    ref[:, 3] = ref[:, 0] * ref[:, 1]
    ref[2, :] = ref[0, :] - ref[5, :]
    np.testing.assert_array_equal(out, ref)
    assert f.num_update_definitions() == 2


def test_update_over_a_reduction_domain() -> None:
    f = hl.Func("squares")
    f[x, y] = hl.f32(x + y) / 10
    r = hl.RDom([(2, 5), (1, 3)])  # x in [2, 7), y in [1, 4)
    f[r.x, r.y] = f[r.x, r.y] * f[r.x, r.y]
    out = np.asarray(f.realize([10, 8]))
    ref = np.add.outer(np.arange(8), np.arange(10)).astype(np.float32) / 10
    ref[1:4, 2:7] = ref[1:4, 2:7] ** 2
    np.testing.assert_allclose(out, ref, rtol=1e-6)


def test_histogram() -> None:
    rng = np.random.default_rng(9)
    img = rng.integers(0, 256, size=(30, 40), dtype=np.uint8)
    image = hl.Buffer(img)
    hist = hl.Func("histogram")
    i = hl.Var("i")
    hist[i] = 0
    r = hl.RDom([(0, image.width()), (0, image.height())])
    hist[hl.i32(image[r.x, r.y])] += 1
    out = np.asarray(hist.realize([256]))
    np.testing.assert_array_equal(out, np.bincount(img.ravel(), minlength=256))


def test_scheduling_each_update_step() -> None:
    f = hl.Func("scheduled_updates")
    f[x, y] = x * y
    f[x, 0] = f[x, 8]  # update 0: over x
    f[0, y] = f[8, y] + 2  # update 1: over y
    yo, yi = hl.Var("yo"), hl.Var("yi")
    f.vectorize(x, 4).parallel(y)
    f.update(0).vectorize(x, 4)
    f.update(1).split(y, yo, yi, 4).parallel(yo)
    out = np.asarray(f.realize([16, 16]))
    ref = np.multiply.outer(np.arange(16), np.arange(16)).astype(np.int32)
    ref[0, :] = ref[8, :]
    ref[:, 0] = ref[:, 8] + 2
    np.testing.assert_array_equal(out, ref)


def test_producer_computed_at_the_pure_step_or_the_update() -> None:
    r = hl.RDom([(0, 5)])
    ref = np.array([(i * 2) + sum(k + (i + k) * 3 for k in range(5)) for i in range(10)], np.int32)
    for where in ("pure", "update"):
        producer = hl.Func("producer_" + where)
        producer[x] = x * 3
        consumer = hl.Func("consumer_" + where)
        consumer[x] = x * 2
        consumer[x] += r.x + producer[x + r.x]
        if where == "pure":
            producer.compute_at(consumer, x)  # the update is the only user: at its loop
        else:
            producer.compute_at(consumer, r.x)  # inside the update's reduction loop
        np.testing.assert_array_equal(np.asarray(consumer.realize([10])), ref)


def test_update_of_a_producer_used_by_a_consumer() -> None:
    producer = hl.Func("accumulated")
    producer[x] = x
    producer[x] += 10
    consumer = hl.Func("twice")
    consumer[x] = producer[x] + producer[x + 1]
    producer.compute_at(consumer, x)
    xs = np.arange(8)
    np.testing.assert_array_equal(np.asarray(consumer.realize([8])), (xs + 10) + (xs + 11))


def test_inline_reductions() -> None:
    rng = np.random.default_rng(1)
    img = rng.integers(0, 100, size=(12, 15)).astype(np.int32)
    image = hl.Buffer(img)
    clamped = hl.BoundaryConditions.repeat_edge(image)
    r = hl.RDom([(-1, 3), (-1, 3)])
    box = hl.Func("box_sum")
    box[x, y] = hl.sum(clamped[x + r.x, y + r.y])
    peak = hl.Func("peak")
    peak[x, y] = hl.maximum(clamped[x + r.x, y + r.y])
    low = hl.Func("low")
    low[x, y] = hl.minimum(clamped[x + r.x, y + r.y])
    padded = np.pad(img, 1, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3))
    np.testing.assert_array_equal(np.asarray(box.realize([15, 12])), windows.sum(axis=(2, 3)))
    np.testing.assert_array_equal(np.asarray(peak.realize([15, 12])), windows.max(axis=(2, 3)))
    np.testing.assert_array_equal(np.asarray(low.realize([15, 12])), windows.min(axis=(2, 3)))


def test_a_complex_update_with_a_conditional_domain() -> None:
    # Only the points of the domain inside a circle are updated (RDom.where).
    f = hl.Func("circle")
    f[x, y] = 0
    r = hl.RDom([(0, 9), (0, 9)])
    r.where((r.x - 4) * (r.x - 4) + (r.y - 4) * (r.y - 4) <= 9)
    f[r.x, r.y] = 1
    out = np.asarray(f.realize([9, 9]))
    ny, nx = np.mgrid[0:9, 0:9]
    np.testing.assert_array_equal(out, ((nx - 4) ** 2 + (ny - 4) ** 2 <= 9).astype(np.int32))
