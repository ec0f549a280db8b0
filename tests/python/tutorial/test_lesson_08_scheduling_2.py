"""Tutorial, scheduling a producer for its consumer (upstream's lesson 8,
written for this project).

A producer sampled by a consumer can be inlined (recomputed at every use),
computed once for the whole image (compute_root), or computed per row,
per pixel or per tile of the consumer (compute_at), with its storage
hoisted further out (store_root). Each schedule gives the same values
(checked against NumPy); the producer prints each point it computes, so
the amount of work each schedule does is checked too.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")
xo, yo, xi, yi = hl.Var("x_outer"), hl.Var("y_outer"), hl.Var("x_inner"), hl.Var("y_inner")
W, H = 8, 6


def reference() -> np.ndarray:
    ny, nx = np.mgrid[0 : H + 1, 0 : W + 1]
    p = (nx * ny + nx).astype(np.float32) / 2
    return (p[:-1, :-1] + p[1:, :-1] + p[:-1, 1:] + p[1:, 1:]) / 4


def pipeline(traced: bool) -> tuple[hl.Func, hl.Func]:
    producer = hl.Func("producer")
    value = hl.f32(x * y + x) / 2
    producer[x, y] = hl.print(value, "<- producer") if traced else value
    consumer = hl.Func("consumer")
    consumer[x, y] = (producer[x, y] + producer[x, y + 1] + producer[x + 1, y] + producer[x + 1, y + 1]) / 4
    return producer, consumer


def inline(p: hl.Func, c: hl.Func) -> None:
    pass


def root(p: hl.Func, c: hl.Func) -> None:
    p.compute_root()


def per_row(p: hl.Func, c: hl.Func) -> None:
    p.compute_at(c, y)


def per_pixel(p: hl.Func, c: hl.Func) -> None:
    p.compute_at(c, x)


def stored_root_per_row(p: hl.Func, c: hl.Func) -> None:
    p.store_root().compute_at(c, y)


def stored_root_per_pixel(p: hl.Func, c: hl.Func) -> None:
    p.store_root().compute_at(c, x)


def per_tile(p: hl.Func, c: hl.Func) -> None:
    c.tile(x, y, xo, yo, xi, yi, 4, 2)
    p.compute_at(c, xo)


def mixed(p: hl.Func, c: hl.Func) -> None:
    c.tile(x, y, xo, yo, xi, yi, 4, 2).fuse(xo, yo, hl.Var("tile")).parallel(hl.Var("tile"))
    c.vectorize(xi, 4)
    p.compute_at(c, hl.Var("tile")).vectorize(x, 4)


# How many points the producer computes: exact where no storage is reused
# across iterations; a range where the compiler may reuse what it computed.
WORK: dict[str, tuple[Callable[[hl.Func, hl.Func], None], int, int]] = {
    "inline": (inline, 4 * W * H, 4 * W * H),
    "root": (root, (W + 1) * (H + 1), (W + 1) * (H + 1)),
    "per_row": (per_row, 2 * (W + 1) * H, 2 * (W + 1) * H),
    "per_pixel": (per_pixel, 4 * W * H, 4 * W * H),
    "stored_root_per_row": (stored_root_per_row, (W + 1) * (H + 1), 2 * (W + 1) * H),
    "stored_root_per_pixel": (stored_root_per_pixel, (W + 1) * (H + 1), 4 * W * H),
    "per_tile": (per_tile, (W // 4) * (H // 2) * 5 * 3, (W // 4) * (H // 2) * 5 * 3),
}


@pytest.mark.parametrize("name", sorted(WORK))
def test_schedule_values_and_work(name: str, capfd: pytest.CaptureFixture[str]) -> None:
    schedule, least, most = WORK[name]
    producer, consumer = pipeline(traced=True)
    schedule(producer, consumer)
    capfd.readouterr()
    out = np.asarray(consumer.realize([W, H]))
    lines = [line for line in capfd.readouterr().out.splitlines() if line.endswith("<- producer")]
    np.testing.assert_allclose(out, reference(), rtol=1e-6)
    assert least <= len(lines) <= most, (name, len(lines))


def test_mixed_parallel_vectorized_schedule() -> None:
    producer, consumer = pipeline(traced=False)
    mixed(producer, consumer)
    np.testing.assert_allclose(np.asarray(consumer.realize([W, H])), reference(), rtol=1e-6)
    # larger than one tile in each direction, not a multiple of the tile
    big = np.asarray(consumer.realize([W * 3 + 2, H * 2 + 3]))
    ny, nx = np.mgrid[0 : H * 2 + 4, 0 : W * 3 + 3]
    p = (nx * ny + nx).astype(np.float32) / 2
    np.testing.assert_allclose(big, (p[:-1, :-1] + p[1:, :-1] + p[:-1, 1:] + p[1:, 1:]) / 4, rtol=1e-6)
