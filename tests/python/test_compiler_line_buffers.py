"""Line buffers from Python: store_root/store_at outside compute_at (sliding
window, storage folding) and Func.fold_storage, with results checked against
NumPy (edges by np.pad)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

pytest.importorskip("halide._compiler", reason="the compiler module is not built (runtime-only build)")
import halide as hl  # noqa: E402

Schedule = Callable[..., None]


def blur_2d(schedule: Schedule) -> tuple[hl.ImageParam, hl.Func]:
    """A separable blur over a repeat_edge input; `schedule(out, bx, x, y)`."""
    im = hl.ImageParam(hl.Int(32), 2, "im")
    x, y = hl.Var("x"), hl.Var("y")
    c = hl.BoundaryConditions.repeat_edge(im)
    bx, out = hl.Func("bx"), hl.Func("out")
    bx[x, y] = c[x - 1, y] + 2 * c[x, y] + c[x + 1, y]
    out[x, y] = bx[x, y - 1] + 3 * bx[x, y] + bx[x, y + 1]
    schedule(out, bx, x, y)
    return im, out


def blur_2d_reference(a: np.ndarray) -> np.ndarray:
    h, w = a.shape
    p = np.pad(a, 2, mode="edge").astype(np.int64)
    bx = p[:, 1 : w + 1] + 2 * p[:, 2 : w + 2] + p[:, 3 : w + 3]  # rows -2 .. h + 1
    return bx[1 : h + 1] + 3 * bx[2 : h + 2] + bx[3 : h + 3]


def split_rows(out: hl.Func, bx: hl.Func, x: hl.Var, y: hl.Var) -> None:
    yo, yi = hl.Var("yo"), hl.Var("yi")
    out.split(y, yo, yi, 8).vectorize(x, 8, hl.TailStrategy.GuardWithIf)
    bx.store_at(out, yo).compute_at(out, yi).vectorize(x, 8)


def split_rows_root(out: hl.Func, bx: hl.Func, x: hl.Var, y: hl.Var) -> None:
    yo, yi = hl.Var("yo"), hl.Var("yi")
    out.split(y, yo, yi, 4)
    bx.store_root().compute_at(out, yi)


def vectorized_rows(out: hl.Func, bx: hl.Func, x: hl.Var, y: hl.Var) -> None:
    yo, yi = hl.Var("yo"), hl.Var("yi")
    out.split(y, yo, yi, 4).vectorize(yi)  # the rows of a block at once: slides along yo
    bx.store_root().compute_at(out, yo)


SCHEDULES_2D: dict[str, Schedule] = {
    "store_root_compute_at_y": lambda out, bx, x, y: bx.store_root().compute_at(out, y),
    "vectorized_consumer": lambda out, bx, x, y: (
        out.vectorize(x, 8, hl.TailStrategy.GuardWithIf),
        bx.store_root().compute_at(out, y).vectorize(x, 8),
    ),
    "store_at_split": split_rows,
    "store_root_split": split_rows_root,
    "vectorized_rows": vectorized_rows,
    "compute_at_x": lambda out, bx, x, y: bx.store_root().compute_at(out, x),
    "fold_by_hand": lambda out, bx, x, y: bx.store_root().compute_at(out, y).fold_storage(y, 3),
    "fold_larger_than_needed": lambda out, bx, x, y: bx.store_root().compute_at(out, y).fold_storage(y, 16),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES_2D))
def test_line_buffered_blur_matches_numpy(name: str) -> None:
    im, out = blur_2d(SCHEDULES_2D[name])
    rng = np.random.default_rng(7)
    for shape in [(1, 1), (2, 9), (13, 5), (33, 40)]:
        a = rng.integers(-1000, 1000, shape, dtype=np.int32)
        im.set(hl.Buffer(a))
        got = np.asarray(out.realize([shape[1], shape[0]]))
        np.testing.assert_array_equal(got, blur_2d_reference(a), err_msg=f"{name} at {shape}")


def test_line_buffer_storage_is_folded(tmp_path) -> None:
    im, out = blur_2d(SCHEDULES_2D["store_root_compute_at_y"])
    path = tmp_path / "blur.stmt"
    out.compile_to_lowered_stmt(str(path), [im])
    text = path.read_text()
    assert "bitwise_and((out.s0.y + 1), 3)" in text, text  # three rows live, stored in four


@pytest.mark.parametrize("level", ["root", "channel"])
def test_three_dimensional_line_buffer(level: str) -> None:
    """A per-channel vertical 5-tap filter of a horizontal one, line-buffered
    per channel (store_at the channel loop) or for the whole image."""
    im = hl.ImageParam(hl.UInt(16), 3, "im")
    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    e = hl.BoundaryConditions.mirror_interior(im)
    gx, out = hl.Func("gx"), hl.Func("out")
    gx[x, y, c] = hl.cast(hl.Int(32), e[x - 1, y, c]) + e[x + 1, y, c]
    out[x, y, c] = gx[x, y - 2, c] + 2 * gx[x, y, c] - gx[x, y + 2, c] + c
    out.reorder(x, y, c).vectorize(x, 4, hl.TailStrategy.GuardWithIf)
    if level == "root":
        gx.store_root().compute_at(out, y)
    else:
        gx.store_at(out, c).compute_at(out, y)
    rng = np.random.default_rng(3)
    for shape in [(3, 6, 7), (2, 3, 2)]:  # NumPy (c, y, x): planar
        a = rng.integers(0, 60000, shape, dtype=np.uint16)
        im.set(hl.Buffer(a))
        got = np.asarray(out.realize([shape[2], shape[1], shape[0]]))
        p = np.pad(a.astype(np.int64), ((0, 0), (2, 2), (1, 1)), mode="reflect")  # reflect = mirror_interior
        g = p[:, :, 0 : shape[2]] + p[:, :, 2 : shape[2] + 2]  # rows -2 .. h + 1
        h = shape[1]
        ref = g[:, 0:h] + 2 * g[:, 2 : h + 2] - g[:, 4 : h + 4] + np.arange(shape[0]).reshape(-1, 1, 1)
        np.testing.assert_array_equal(got, ref, err_msg=f"{level} at {shape}")


def test_chain_and_downsample() -> None:
    """Two line buffers in a chain, the second read at twice the rows (a
    2x vertical downsample, so the rows slide by two)."""
    im = hl.ImageParam(hl.Int(32), 2, "im")
    x, y = hl.Var("x"), hl.Var("y")
    c = hl.BoundaryConditions.repeat_edge(im)
    a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
    a[x, y] = c[x, y] * 2 - c[x + 1, y]
    b[x, y] = a[x, y - 1] + a[x, y + 1]
    out[x, y] = b[x, 2 * y] + b[x, 2 * y + 1] - b[x, 2 * y - 1]
    a.store_root().compute_at(out, y)
    b.store_root().compute_at(out, y)
    rng = np.random.default_rng(11)
    for shape in [(20, 9), (1, 3), (7, 1)]:
        arr = rng.integers(-500, 500, shape, dtype=np.int32)
        im.set(hl.Buffer(arr))
        h, w = shape[0] // 2 + 1, shape[1]
        got = np.asarray(out.realize([w, h]))
        p = np.pad(arr.astype(np.int64), ((2, 2 * h + 2), (0, 1)), mode="edge")  # row r at index r + 2
        ra = p[:, 0:w] * 2 - p[:, 1 : w + 1]

        def rb(r: int, ra: np.ndarray = ra) -> np.ndarray:
            return ra[r - 1 + 2] + ra[r + 1 + 2]

        ref = np.stack([rb(2 * j) + rb(2 * j + 1) - rb(2 * j - 1) for j in range(h)])
        np.testing.assert_array_equal(got, ref, err_msg=f"at {shape}")


def test_fold_storage_too_small_is_an_error() -> None:
    im, out = blur_2d(lambda out, bx, x, y: bx.store_root().compute_at(out, y).fold_storage(y, 2))
    im.set(hl.Buffer(np.zeros((4, 4), dtype=np.int32)))
    with pytest.raises(hl.HalideError, match=r"fold factor \(2\)"):
        out.realize([4, 4])


def test_fold_storage_wrong_direction_is_an_error() -> None:
    im, out = blur_2d(lambda out, bx, x, y: bx.store_root().compute_at(out, y).fold_storage(y, 4, False))
    im.set(hl.Buffer(np.zeros((4, 4), dtype=np.int32)))
    with pytest.raises(hl.HalideError, match="fold_forward=true"):
        out.realize([4, 4])


def test_fold_storage_returns_the_func() -> None:
    x, y = hl.Var("x"), hl.Var("y")
    f = hl.Func("f")
    f[x, y] = x + y
    assert f.fold_storage(y, 4) is f
    assert f.fold_storage(dim=x, extent=8, fold_forward=False) is f
    with pytest.raises(hl.HalideError, match="positive integer constant"):
        f.fold_storage(y, 0)
