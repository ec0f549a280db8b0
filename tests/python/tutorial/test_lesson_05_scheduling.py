"""Tutorial, scheduling: loop order, split, fuse, tile, vectorize, unroll, parallel (upstream's lesson 5,
written for this project).

A schedule changes the order in which points are computed, never the
values. Each Func here prints the coordinates of every point it computes
(hl.print), so the order the schedule makes is checked point by point
against the order computed in Python; the values against NumPy.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

x, y = hl.Var("x"), hl.Var("y")
xo, yo, xi, yi = hl.Var("x_outer"), hl.Var("y_outer"), hl.Var("x_inner"), hl.Var("y_inner")
fused, tile_index = hl.Var("fused"), hl.Var("tile_index")


def traced_gradient(name: str) -> hl.Func:
    f = hl.Func(name)
    f[x, y] = hl.print(x + y, "at", x, y)
    return f


def run(f: hl.Func, width: int, height: int, capfd: pytest.CaptureFixture[str]) -> list[tuple[int, int]]:
    """Realizes f, checks its values, returns the points in the order computed."""
    capfd.readouterr()
    out = np.asarray(f.realize([width, height]))
    ys, xs = np.mgrid[0:height, 0:width]
    np.testing.assert_array_equal(out, xs + ys)
    points = []
    for line in capfd.readouterr().out.splitlines():
        value, at, px, py = line.split()
        assert at == "at" and int(value) == int(px) + int(py)
        points.append((int(px), int(py)))
    return points


def row_major(width: int, height: int) -> list[tuple[int, int]]:
    return [(px, py) for py in range(height) for px in range(width)]


def test_default_order_is_row_major(capfd: pytest.CaptureFixture[str]) -> None:
    assert run(traced_gradient("gradient"), 4, 4, capfd) == row_major(4, 4)


def test_reorder_makes_x_the_outer_loop(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_col_major")
    f.reorder(y, x)
    assert run(f, 4, 4, capfd) == [(px, py) for px in range(4) for py in range(4)]


def test_split_keeps_the_order(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_split")
    f.split(x, xo, xi, 2)
    assert run(f, 4, 4, capfd) == row_major(4, 4)


def test_fuse_keeps_the_order(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_fused")
    f.fuse(x, y, fused)
    assert run(f, 4, 4, capfd) == row_major(4, 4)


def test_tile_walks_tile_by_tile(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_tiled")
    f.split(x, xo, xi, 4).split(y, yo, yi, 4).reorder(xi, yi, xo, yo)
    expected = [
        (tx * 4 + ix, ty * 4 + iy)
        for ty, tx, iy, ix in itertools.product(range(2), range(2), range(4), range(4))
    ]
    assert run(f, 8, 8, capfd) == expected
    # tile() is the same schedule in one call.
    g = traced_gradient("gradient_tile_call")
    g.tile(x, y, xo, yo, xi, yi, 4, 4)
    assert run(g, 8, 8, capfd) == expected


def test_unroll_keeps_the_order(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_unroll")
    f.split(x, xo, xi, 2).unroll(xi)
    assert run(f, 4, 4, capfd) == row_major(4, 4)


def test_split_by_a_factor_that_does_not_divide_shifts_the_last_piece_inwards(
    capfd: pytest.CaptureFixture[str],
) -> None:
    # Width 7 split by 3: the last piece starts at 4 instead of 6, recomputing 4 and 5.
    f = traced_gradient("gradient_split_7x2")
    f.split(x, xo, xi, 3)
    xs = [0, 1, 2, 3, 4, 5, 4, 5, 6]
    assert run(f, 7, 2, capfd) == [(px, py) for py in range(2) for px in xs]


def test_guard_with_if_computes_each_point_once(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_split_guarded")
    f.split(x, xo, xi, 3, hl.TailStrategy.GuardWithIf)
    assert run(f, 7, 2, capfd) == row_major(7, 2)


def test_fused_tiles_in_parallel_cover_every_point_once(capfd: pytest.CaptureFixture[str]) -> None:
    f = traced_gradient("gradient_parallel_tiles")
    f.tile(x, y, xo, yo, xi, yi, 4, 4).fuse(xo, yo, tile_index).parallel(tile_index)
    points = run(f, 8, 8, capfd)
    assert sorted(points) == sorted(row_major(8, 8))
    # Within one tile the order is still row by row.
    for tile in range(4):
        tx, ty = tile % 2, tile // 2
        inside = [p for p in points if p[0] // 4 == tx and p[1] // 4 == ty]
        assert inside == [(tx * 4 + ix, ty * 4 + iy) for iy in range(4) for ix in range(4)]


def test_vectorize_and_everything_at_once() -> None:
    # Values only: a vectorized hl.print prints lanes in its own format.
    f = hl.Func("gradient_fast")
    f[x, y] = x * 3 + y * 5
    f.tile(x, y, xo, yo, xi, yi, 64, 64).fuse(xo, yo, tile_index).parallel(tile_index)
    xio, xii, yii = hl.Var("x_inner_outer"), hl.Var("x_vectors"), hl.Var("y_pairs")
    f.split(xi, xio, xii, 4).vectorize(xii).split(yi, yi, yii, 2).unroll(yii)
    out = np.asarray(f.realize([350, 250]))
    ys, xs = np.mgrid[0:250, 0:350]
    np.testing.assert_array_equal(out, xs * 3 + ys * 5)
