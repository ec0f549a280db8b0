"""Local Laplacian filtering (detail enhancement / tone mapping) of an RGB
uint16 image, with the shape of upstream Halide's local_laplacian app.

1. ``remap(i)``: a lookup table of ``alpha * t * exp(-t * t / 2)``,
   ``t = i / 256``, the detail curve applied around each intensity level;
2. ``gray``: the luminance of the input, whose edges repeat past the border;
3. ``g_pyramid[0](x, y, k)``: for each of ``levels`` intensity levels ``k``,
   the gray image remapped around that level (``beta`` scales the rest), then
   a Gaussian pyramid of it by ``downsample`` (``[1 3 3 1] / 8`` then
   decimation by 2, in x then y) and its Laplacian pyramid (each level minus
   the ``upsample`` of the next);
4. a Gaussian pyramid of the gray image picks, at each pixel and level, the
   two intensity levels around its own and interpolates the Laplacian levels
   between them; the resulting Laplacian pyramid is collapsed by upsampling
   and adding, level by level;
5. the colour channels are scaled by the new luminance over the old one.

No level is clamped: each Func is defined everywhere, and bounds inference
computes every level over the region the next one reads.
``local_laplacian(input, levels, alpha, beta, j_levels)`` builds the
pipeline; ``filter(array, ...)`` runs it on a NumPy array of shape
``(height, width, 3)``. Runs unchanged under upstream Halide's Python
bindings.
"""

from __future__ import annotations

import halide as hl
import numpy as np

x, y, c, k = hl.Var("x"), hl.Var("y"), hl.Var("c"), hl.Var("k")


def downsample(f: hl.Func, name: str, *rest: hl.Var) -> hl.Func:
    """``[1 3 3 1] / 8`` along x then y, keeping every other sample."""
    dx, dy = hl.Func(name + "_dx"), hl.Func(name)
    dx[(x, y, *rest)] = (
        f[(2 * x - 1, y, *rest)] + 3.0 * (f[(2 * x, y, *rest)] + f[(2 * x + 1, y, *rest)]) + f[(2 * x + 2, y, *rest)]
    ) / 8.0
    dy[(x, y, *rest)] = (
        dx[(x, 2 * y - 1, *rest)]
        + 3.0 * (dx[(x, 2 * y, *rest)] + dx[(x, 2 * y + 1, *rest)])
        + dx[(x, 2 * y + 2, *rest)]
    ) / 8.0
    return dy


def upsample(f: hl.Func, name: str, *rest: hl.Var) -> hl.Func:
    """Linear interpolation to twice the size, along x then y."""
    ux, uy = hl.Func(name + "_ux"), hl.Func(name)
    ux[(x, y, *rest)] = 0.25 * f[((x // 2) - 1 + 2 * (x % 2), y, *rest)] + 0.75 * f[(x // 2, y, *rest)]
    uy[(x, y, *rest)] = 0.25 * ux[(x, (y // 2) - 1 + 2 * (y % 2), *rest)] + 0.75 * ux[(x, y // 2, *rest)]
    return uy


def local_laplacian(
    input: hl.ImageParam, levels: hl.Param, alpha: hl.Param, beta: hl.Param, j_levels: int = 4, schedule: bool = True
) -> hl.Func:
    """The filtered image of ``input`` (uint16, (x, y, c) with 3 channels)."""
    # 1. The detail curve.
    remap = hl.Func("remap")
    t = hl.f32(x) / 256.0
    remap[x] = alpha * t * hl.exp(-t * t / 2.0)

    # 2. Luminance of the input in [0, 1].
    clamped = hl.BoundaryConditions.repeat_edge(input)
    floating = hl.Func("floating")
    floating[x, y, c] = hl.f32(clamped[x, y, c]) / 65535.0
    gray = hl.Func("gray")
    gray[x, y] = (
        hl.f32(0.299) * floating[x, y, 0] + hl.f32(0.587) * floating[x, y, 1] + hl.f32(0.114) * floating[x, y, 2]
    )

    # 3. The remapped images, their Gaussian and Laplacian pyramids.
    g_pyramid = [hl.Func(f"g_pyramid_{j}") for j in range(j_levels)]
    level = hl.f32(k) * (1.0 / hl.f32(levels - 1))
    idx = hl.clamp(hl.i32(gray[x, y] * hl.f32(levels - 1) * 256.0), 0, (levels - 1) * 256)
    g_pyramid[0][x, y, k] = beta * (gray[x, y] - level) + level + remap[idx - 256 * k]
    for j in range(1, j_levels):
        g_pyramid[j][x, y, k] = downsample(g_pyramid[j - 1], f"down_g_{j}", k)[x, y, k]
    l_pyramid = [hl.Func(f"l_pyramid_{j}") for j in range(j_levels)]
    l_pyramid[j_levels - 1][x, y, k] = g_pyramid[j_levels - 1][x, y, k]
    for j in range(j_levels - 2, -1, -1):
        l_pyramid[j][x, y, k] = g_pyramid[j][x, y, k] - upsample(g_pyramid[j + 1], f"up_g_{j}", k)[x, y, k]

    # 4. The input's Gaussian pyramid picks and blends two intensity levels.
    in_g_pyramid = [hl.Func(f"in_g_pyramid_{j}") for j in range(j_levels)]
    in_g_pyramid[0][x, y] = gray[x, y]
    for j in range(1, j_levels):
        in_g_pyramid[j][x, y] = downsample(in_g_pyramid[j - 1], f"down_in_{j}")[x, y]
    out_l_pyramid = [hl.Func(f"out_l_pyramid_{j}") for j in range(j_levels)]
    for j in range(j_levels):
        lv = in_g_pyramid[j][x, y] * hl.f32(levels - 1)
        li = hl.clamp(hl.i32(lv), 0, levels - 2)
        lf = lv - hl.f32(li)
        out_l_pyramid[j][x, y] = (1.0 - lf) * l_pyramid[j][x, y, li] + lf * l_pyramid[j][x, y, li + 1]
    out_g_pyramid = [hl.Func(f"out_g_pyramid_{j}") for j in range(j_levels)]
    out_g_pyramid[j_levels - 1][x, y] = out_l_pyramid[j_levels - 1][x, y]
    for j in range(j_levels - 2, -1, -1):
        up = upsample(out_g_pyramid[j + 1], f"up_out_{j}")
        out_g_pyramid[j][x, y] = up[x, y] + out_l_pyramid[j][x, y]

    # 5. Colour back.
    eps = hl.f32(0.01)
    color = hl.Func("color")
    color[x, y, c] = out_g_pyramid[0][x, y] * (floating[x, y, c] + eps) / (gray[x, y] + eps)
    output = hl.Func("local_laplacian")
    output[x, y, c] = hl.u16(hl.clamp(color[x, y, c], 0.0, 1.0) * 65535.0)

    if schedule:
        # Upstream's CPU schedule: every level at the root, the large ones
        # parallel over rows and vectorized, the output in strips of rows.
        yo, yi = hl.Var("yo"), hl.Var("yi")
        remap.compute_root()
        output.reorder(c, x, y).split(y, yo, yi, 16).parallel(yo).vectorize(x, 8)
        gray.compute_root().parallel(y, 16).vectorize(x, 8)
        for j in range(j_levels):
            if j > 0:
                in_g_pyramid[j].compute_root().parallel(y, 16).vectorize(x, 8)
            g_pyramid[j].compute_root().reorder_storage(x, k, y).reorder(k, y).parallel(y, 8).vectorize(x, 8)
            out_g_pyramid[j].compute_root().parallel(y, 16).vectorize(x, 8)
    return output


def test_image(width: int, height: int) -> np.ndarray:
    """A smooth colour gradient with a textured disc: (height, width, 3) uint16."""
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float64)
    base = np.stack([xx / width, yy / height, (xx + yy) / (width + height)], axis=-1)
    disc = ((xx - width / 2) ** 2 + (yy - height / 2) ** 2) < (min(width, height) / 3) ** 2
    texture = 0.1 * np.sin(xx * 1.7) * np.cos(yy * 1.3)
    img = np.clip(0.2 + 0.6 * base + (disc * texture)[..., None], 0.0, 1.0)
    return (img * 65535).astype(np.uint16)


_CACHE: dict[int, tuple[hl.ImageParam, hl.Param, hl.Param, hl.Param, hl.Func]] = {}


def filter(array: np.ndarray, levels: int = 8, alpha: float = 1.0, beta: float = 1.0, j_levels: int = 4) -> np.ndarray:
    """Runs the pipeline on a ``(height, width, 3)`` uint16 array."""
    if j_levels not in _CACHE:
        p = hl.ImageParam(hl.UInt(16), 3, "input")
        lv, a, b = (
            hl.Param(hl.Int(32), "levels", 8),
            hl.Param(hl.Float(32), "alpha", 1.0),
            hl.Param(hl.Float(32), "beta", 1.0),
        )
        _CACHE[j_levels] = (p, lv, a, b, local_laplacian(p, lv, a, b, j_levels))
    p, lv, a, b, out = _CACHE[j_levels]
    # Halide's (x, y, c) is NumPy's [y, x, c] reversed: hand it a (c, y, x) array.
    planar = np.ascontiguousarray(np.moveaxis(array, -1, 0))
    p.set(hl.Buffer(planar))
    lv.set(levels)
    a.set(alpha)
    b.set(beta)
    height, width = array.shape[:2]
    result = np.asarray(out.realize([width, height, 3]))
    return np.ascontiguousarray(np.moveaxis(result, 0, -1))


if __name__ == "__main__":
    img = test_image(256, 192)
    res = filter(img, levels=8, alpha=1.0, beta=1.0)
    detail = [float(np.abs(np.diff(a[..., 1].astype(np.float64), axis=1)).mean()) for a in (img, res)]
    print(f"mean horizontal detail of the green channel: {detail[0]:.0f} -> {detail[1]:.0f}")
