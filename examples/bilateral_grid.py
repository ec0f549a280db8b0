"""A bilateral filter of a float32 grayscale image through a bilateral grid.

1. ``grid(x, y, z, c)``: each ``s x s`` cell of the image (cell (x, y)
   covers pixels ``x * s - s / 2`` to ``x * s + s / 2 - 1``) is split by
   intensity into bins ``z = int(value / r_sigma + 0.5)``; channel 0 sums the
   values falling in a bin and channel 1 counts them. An update definition
   over an ``RDom`` of the cell, at a computed z: its bounds come from the
   value's range [0, 1] times the ``Param`` ``1 / r_sigma``;
2. the grid is blurred by ``[1 4 6 4 1]`` along z, then x, then y;
3. each output pixel reads the blurred grid at (x / s, y / s, value /
   r_sigma), interpolating trilinearly between the 8 grid points around it,
   and divides the interpolated sum by the interpolated count.

The input is clamped to [0, 1] and its edges repeat past the border.
``bilateral_grid(input, r_sigma, s)`` builds the pipeline; ``bilateral(array,
r_sigma, s)`` runs it on a NumPy array. Runs unchanged under upstream
Halide's Python bindings.
"""

from __future__ import annotations

import halide as hl
import numpy as np


def bilateral_grid(input: hl.ImageParam, r_sigma: hl.Param, s: int = 8, schedule: bool = True) -> hl.Func:
    """The filtered image of ``input`` (float32, 2-D): a Func of (x, y)."""
    x, y, z, c = hl.Var("x"), hl.Var("y"), hl.Var("z"), hl.Var("c")
    width, height = input.width(), input.height()
    clamped = hl.Func("clamped")
    clamped[x, y] = hl.clamp(input[hl.clamp(x, 0, width - 1), hl.clamp(y, 0, height - 1)], 0.0, 1.0)
    inv_sigma = 1.0 / r_sigma

    # 1. The grid: sums and counts per cell and intensity bin.
    r = hl.RDom([hl.Range(0, s), hl.Range(0, s)], "r")
    value = clamped[x * s + r.x - s // 2, y * s + r.y - s // 2]
    bin = hl.i32(value * inv_sigma + 0.5)
    grid = hl.Func("grid")
    grid[x, y, z, c] = hl.f32(0)
    grid[x, y, bin, c] += hl.select(c == 0, value, hl.f32(1))

    # 2. Blurs along z, x and y.
    def blur(f: hl.Func, name: str, at) -> hl.Func:
        g = hl.Func(name)
        g[x, y, z, c] = at(f, -2) + 4 * at(f, -1) + 6 * at(f, 0) + 4 * at(f, 1) + at(f, 2)
        return g

    blur_z = blur(grid, "blur_z", lambda f, d: f[x, y, z + d, c])
    blur_x = blur(blur_z, "blur_x", lambda f, d: f[x + d, y, z, c])
    blur_y = blur(blur_x, "blur_y", lambda f, d: f[x, y + d, z, c])

    # 3. Trilinear interpolation of the blurred grid at each pixel.
    zv = clamped[x, y] * inv_sigma
    zi = hl.i32(zv)
    zf = zv - zi
    xi, yi = x // s, y // s
    xf, yf = hl.f32(x % s) / s, hl.f32(y % s) / s

    def interpolated(ch: int) -> hl.Expr:
        def at(dx: int, dy: int) -> hl.Expr:
            return hl.lerp(blur_y[xi + dx, yi + dy, zi, ch], blur_y[xi + dx, yi + dy, zi + 1, ch], zf)

        return hl.lerp(hl.lerp(at(0, 0), at(1, 0), xf), hl.lerp(at(0, 1), at(1, 1), xf), yf)

    out = hl.Func("bilateral_grid")
    out[x, y] = interpolated(0) / interpolated(1)

    if schedule:
        # The grid and its blurs computed whole, rows of cells in parallel
        # (the blurs vectorized across cells); the output vectorized and in
        # parallel over strips of rows.
        grid.compute_root().reorder(c, z, x, y).parallel(y)
        grid.update(0).reorder(c, r.x, r.y, x, y).parallel(y)
        for f in (blur_z, blur_x, blur_y):
            f.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, 8).unroll(c)
        out.compute_root().parallel(y, 8).vectorize(x, 8)
    return out


def bilateral(image: np.ndarray, r_sigma: float = 0.1, s: int = 8) -> np.ndarray:
    """Filter a float32 array of shape (height, width), values in [0, 1]."""
    input = hl.ImageParam(hl.Float(32), 2, "input")
    input.set(hl.Buffer(np.ascontiguousarray(image, dtype=np.float32)))
    sigma = hl.Param(hl.Float(32), "r_sigma", r_sigma)
    out = bilateral_grid(input, sigma, s)
    return np.asarray(out.realize([image.shape[1], image.shape[0]])).copy()


def test_image(width: int = 160, height: int = 120, noise: float = 0.05) -> np.ndarray:
    """A step edge (0.2 left, 0.8 right) plus Gaussian noise, clipped to [0, 1]."""
    rng = np.random.default_rng(0)
    clean = np.where(np.arange(width) < width // 2, 0.2, 0.8)[None, :].repeat(height, axis=0)
    return np.clip(clean + rng.normal(0, noise, clean.shape), 0, 1).astype(np.float32)


if __name__ == "__main__":
    img = test_image()
    out = bilateral(img)
    w = img.shape[1]
    left, right = out[:, : w // 2 - 8], out[:, w // 2 + 8 :]
    print(f"noise std: input {img[:, : w // 2 - 8].std():.4f}, output {left.std():.4f}")
    print(f"edge kept: left mean {left.mean():.3f}, right mean {right.mean():.3f}")
