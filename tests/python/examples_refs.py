"""NumPy references and shared inputs for the pipelines in examples/
(test_examples.py); imported by our Python and by upstream Halide's, so it
needs only NumPy and the examples (on sys.path)."""

from __future__ import annotations

import bilateral_grid
import histogram_equalization
import iir_blur
import local_laplacian
import matrix_multiply
import numpy as np

# ---- NumPy references (written from the algorithms' descriptions) ----


def ref_equalize(img: np.ndarray) -> np.ndarray:
    n = img.size
    hist = np.bincount(img.ravel(), minlength=256).astype(np.int64)
    cdf = np.cumsum(hist)
    cdf_min = int(hist[img.min()])
    span = n - cdf_min
    if span == 0:
        return img.copy()
    lut = (np.maximum(cdf - cdf_min, 0) * 255 + span // 2) // span
    return lut.astype(np.uint8)[img]


def ref_iir_columns(a: np.ndarray, alpha: float) -> np.ndarray:
    alpha32 = np.float32(alpha)
    one = np.float32(1) - alpha32
    down = a.astype(np.float32).copy()
    for y in range(1, a.shape[0]):
        down[y] = one * a[y] + alpha32 * down[y - 1]
    up = down.copy()
    for y in range(a.shape[0] - 2, -1, -1):
        up[y] = one * down[y] + alpha32 * up[y + 1]
    return up


def ref_iir(a: np.ndarray, alpha: float) -> np.ndarray:
    return ref_iir_columns(ref_iir_columns(a, alpha).T.copy(), alpha).T


def ref_bilateral(img: np.ndarray, r_sigma: float, s: int) -> np.ndarray:
    """The bilateral grid filter (examples/bilateral_grid.py's description),
    in float32 where the pipeline's bin choices depend on rounding."""
    f32 = np.float32
    h, w = img.shape
    inv = f32(1) / f32(r_sigma)

    def clamped(ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
        return np.clip(img[np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)], f32(0), f32(1))

    # Cells read by the output (x / s and x / s + 1), two more each side for
    # the blurs; bins 0 to int(inv) and the one above, two more each side.
    cx = np.arange(-2, (w - 1) // s + 4)
    cy = np.arange(-2, (h - 1) // s + 4)
    cz = np.arange(-2, int(inv) + 4)
    px = cx[:, None] * s + np.arange(s)[None, :] - s // 2  # (cells, s) pixel columns
    py = cy[:, None] * s + np.arange(s)[None, :] - s // 2
    vals = clamped(py.reshape(-1, 1), px.reshape(1, -1)).reshape(len(cy), s, len(cx), s)
    bins = (vals * inv + f32(0.5)).astype(np.int32) - cz[0]
    iy, _, ix, _ = np.indices(vals.shape)
    grid = np.zeros((len(cy), len(cx), len(cz), 2))
    np.add.at(grid, (iy, ix, bins, 0), vals.astype(np.float64))
    np.add.at(grid, (iy, ix, bins, 1), 1.0)

    def blur(g: np.ndarray, axis: int) -> np.ndarray:
        n = g.shape[axis] - 4
        t = [np.take(g, np.arange(k, k + n), axis=axis) for k in range(5)]
        return t[0] + 4 * t[1] + 6 * t[2] + 4 * t[3] + t[4]

    b = blur(blur(blur(grid, 2), 1), 0)  # cells y, x from 0, bins from 0
    yy, xx = np.mgrid[0:h, 0:w]
    zv = clamped(yy, xx) * inv
    zi = zv.astype(np.int32)
    zf = (zv - zi).astype(np.float64)
    xi, yi = xx // s, yy // s
    xf, yf = (xx % s) / s, (yy % s) / s

    def lerp(a: np.ndarray, c: np.ndarray, t: np.ndarray) -> np.ndarray:
        return a + (c - a) * t

    def interpolated(ch: int) -> np.ndarray:
        def at(dx: int, dy: int) -> np.ndarray:
            return lerp(b[yi + dy, xi + dx, zi, ch], b[yi + dy, xi + dx, zi + 1, ch], zf)

        return lerp(lerp(at(0, 0), at(1, 0), xf), lerp(at(0, 1), at(1, 1), xf), yf)

    return interpolated(0) / interpolated(1)


# Local Laplacian: every level is an array with the coordinates of its first
# sample, (x0, y0); a level covers what its own inputs allow, starting from a
# gray image computed far enough past the edges (edges repeat) for the
# smallest level to still cover the part the collapse reads.
Level = tuple[np.ndarray, int, int]  # samples [..., y, x], x0, y0


def _down_axis(a: np.ndarray, o: int, axis: int) -> tuple[np.ndarray, int]:
    n = a.shape[axis]
    lo, hi = -((-(o + 1)) // 2), (o + n - 3) // 2  # X with 2X - 1 >= o and 2X + 2 <= o + n - 1
    i = 2 * np.arange(lo, hi + 1) - o
    t = lambda d: np.take(a, i + d, axis=axis)  # noqa: E731
    return (t(-1) + 3 * (t(0) + t(1)) + t(2)) / 8, lo


def _up_axis(a: np.ndarray, o: int, axis: int) -> tuple[np.ndarray, int]:
    n = a.shape[axis]
    xs = np.arange(2 * (o + 1), 2 * (o + n - 2) + 2)
    near = xs // 2 - 1 + 2 * (xs % 2) - o
    return 0.25 * np.take(a, near, axis=axis) + 0.75 * np.take(a, xs // 2 - o, axis=axis), int(xs[0])


def _down(lv: Level) -> Level:
    a, x0 = _down_axis(lv[0], lv[1], -1)
    a, y0 = _down_axis(a, lv[2], -2)
    return a, x0, y0


def _up(lv: Level) -> Level:
    a, x0 = _up_axis(lv[0], lv[1], -1)
    a, y0 = _up_axis(a, lv[2], -2)
    return a, x0, y0


def _combine(f, p: Level, q: Level) -> Level:
    """f of p and q on the coordinates both cover."""
    x0, y0 = max(p[1], q[1]), max(p[2], q[2])
    x1 = min(p[1] + p[0].shape[-1], q[1] + q[0].shape[-1])
    y1 = min(p[2] + p[0].shape[-2], q[2] + q[0].shape[-2])

    def crop(lv: Level) -> np.ndarray:
        return lv[0][..., y0 - lv[2] : y1 - lv[2], x0 - lv[1] : x1 - lv[1]]

    return f(crop(p), crop(q)), x0, y0


def ref_local_laplacian(img: np.ndarray, levels: int, alpha: float, beta: float, j_levels: int) -> np.ndarray:
    """img: (height, width, 3) uint16."""
    height, width = img.shape[:2]
    pad = 3 * 2**j_levels + 8
    ys = np.clip(np.arange(-pad, height + pad), 0, height - 1)
    xs = np.clip(np.arange(-pad, width + pad), 0, width - 1)
    floating = img[np.ix_(ys, xs)].astype(np.float64) / 65535.0
    gray = 0.299 * floating[..., 0] + 0.587 * floating[..., 1] + 0.114 * floating[..., 2]
    ks = np.arange(levels)
    level = (ks * (1.0 / (levels - 1)))[:, None, None]
    idx = np.clip((gray * (levels - 1) * 256.0).astype(np.int64), 0, (levels - 1) * 256)
    t = (idx[None] - 256 * ks[:, None, None]) / 256.0
    g: list[Level] = [(beta * (gray[None] - level) + level + alpha * t * np.exp(-t * t / 2), -pad, -pad)]
    in_g: list[Level] = [(gray, -pad, -pad)]
    for _ in range(1, j_levels):
        g.append(_down(g[-1]))
        in_g.append(_down(in_g[-1]))
    lap = [_combine(np.subtract, g[j], _up(g[j + 1])) for j in range(j_levels - 1)] + [g[-1]]

    def blend(lp: np.ndarray, gi: np.ndarray) -> np.ndarray:
        lv = gi * (levels - 1)
        li = np.clip(lv.astype(np.int64), 0, levels - 2)
        lf = lv - li
        lo = np.take_along_axis(lp, li[None], 0)[0]
        hi = np.take_along_axis(lp, li[None] + 1, 0)[0]
        return (1 - lf) * lo + lf * hi

    out_l = [_combine(blend, lap[j], in_g[j]) for j in range(j_levels)]
    out_g = out_l[-1]
    for j in range(j_levels - 2, -1, -1):
        out_g = _combine(np.add, _up(out_g), out_l[j])
    a, x0, y0 = out_g
    assert x0 <= 0 and y0 <= 0 and a.shape[-1] >= width - x0 and a.shape[-2] >= height - y0, "pad too small"
    out = a[-y0 : height - y0, -x0 : width - x0]
    core = floating[pad : pad + height, pad : pad + width]
    color = out[..., None] * (core + 0.01) / (gray[pad : pad + height, pad : pad + width, None] + 0.01)
    return (np.clip(color, 0.0, 1.0) * 65535.0).astype(np.uint16)


# ---- Inputs, shared with the upstream run ----


def inputs() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(7)
    return {
        "he_image": histogram_equalization.test_image(53, 37),
        "he_random": rng.integers(30, 90, size=(19, 41), dtype=np.uint8),
        "he_constant": np.full((5, 7), 77, dtype=np.uint8),
        "mm_a": rng.standard_normal((37, 29)).astype(np.float32),
        "mm_b": rng.standard_normal((29, 45)).astype(np.float32),
        "dot_a": rng.standard_normal(203).astype(np.float32),
        "dot_b": rng.standard_normal(203).astype(np.float32),
        "iir": rng.random((27, 45), dtype=np.float32),
        "bg": bilateral_grid.test_image(45, 37),
        "ll": local_laplacian.test_image(37, 29),
    }


def run_examples(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Every example on `data`; also run by upstream's Python (UPSTREAM_SCRIPT)."""
    return {
        "he_image": histogram_equalization.equalize(data["he_image"]),
        "he_random": histogram_equalization.equalize(data["he_random"]),
        "he_constant": histogram_equalization.equalize(data["he_constant"]),
        "mm": matrix_multiply.multiply(data["mm_a"], data["mm_b"]),
        "dot": np.array(matrix_multiply.dot_product(data["dot_a"], data["dot_b"])),
        "iir": iir_blur.blur(data["iir"], 0.7),
        "bg": bilateral_grid.bilateral(data["bg"], 0.1, 8),
        "ll": local_laplacian.filter(data["ll"], levels=8, alpha=1.0, beta=1.0, j_levels=4),
    }


def check_against_numpy(data: dict[str, np.ndarray], out: dict[str, np.ndarray]) -> None:
    for name in ("he_image", "he_random", "he_constant"):
        np.testing.assert_array_equal(out[name], ref_equalize(data[name]), err_msg=name)
    np.testing.assert_allclose(out["mm"], data["mm_a"].astype(np.float64) @ data["mm_b"], rtol=1e-4, atol=1e-4)
    exact_dot = float(np.dot(data["dot_a"].astype(np.float64), data["dot_b"]))
    np.testing.assert_allclose(float(out["dot"]), exact_dot, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(out["iir"], ref_iir(data["iir"], 0.7), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["bg"], ref_bilateral(data["bg"], 0.1, 8), rtol=1e-4, atol=1e-5)
    ll = ref_local_laplacian(data["ll"], 8, 1.0, 1.0, 4)
    np.testing.assert_allclose(out["ll"].astype(np.int64), ll.astype(np.int64), rtol=0, atol=2)
