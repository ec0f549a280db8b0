"""The imaging plugin's Python Generators: 8-bit grayscale image kernels,
each with a hand schedule. Borders are handled by clamping coordinates to the
image (the edge pixels repeat), so an output may be as large as the input.

Run by the build (meson.build, halide.runtime.plugin_build) once per kernel
and CPU level; `hl.main()` takes the generator command line.
"""

import halide as hl

x, y = hl.Var("x"), hl.Var("y")
GUARD = hl.TailStrategy.GuardWithIf


def clamped(image):
    """image with its edge pixels repeated outward forever."""
    f = hl.Func("clamped")
    f[x, y] = image[hl.clamp(x, 0, image.width() - 1), hl.clamp(y, 0, image.height() - 1)]
    return f


def gaussian5x5(g, source, name):
    """Separable [1 4 6 4 1]/16 blur of a uint8 Func, rounded back to uint8:
    the row pass and the column pass (schedule_rows computes the row pass
    first)."""
    w = (1, 4, 6, 4, 1)
    rows, cols = hl.Func(name + "_x"), hl.Func(name)
    rows[x, y] = sum(hl.u16(source[x + k - 2, y]) * w[k] for k in range(5))
    cols[x, y] = hl.u8((sum(rows[x, y + k - 2] * w[k] for k in range(5)) + 128) >> 8)
    return rows, cols


def schedule_rows(g, out, *producers):
    """Rows in parallel, each vectorized along x (a narrower tail guarded);
    `producers` (a separable filter's row pass) computed first, the same way.

    Rows rather than strips of rows: a split of y needs a guarded tail for
    heights that are not a multiple of the strip (ShiftInwards refuses
    images lower than one strip), and a guard on y lands inside the
    vectorized loop (about 15x slower): loop partitioning does not split
    GuardWithIf tails yet.
    """
    vec = g.natural_vector_size(hl.UInt(8))
    out.parallel(y).vectorize(x, vec, GUARD)
    for f in producers:
        f.compute_root().parallel(y).vectorize(x, vec // 2, GUARD)


@hl.generator(name="brighten")
class Brighten:
    input = hl.InputBuffer(hl.UInt(8), 2)
    amount = hl.InputScalar(hl.Int(32))
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        g.output[x, y] = hl.u8(hl.clamp(hl.i32(g.input[x, y]) + g.amount, 0, 255))
        schedule_rows(g, g.output)


@hl.generator(name="gaussian5x5")
class Gaussian5x5:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        rows, blurred = gaussian5x5(g, clamped(g.input), "blur")
        g.output[x, y] = blurred[x, y]
        schedule_rows(g, g.output, rows)


@hl.generator(name="sobel")
class Sobel:
    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        p = hl.Func("p")
        p[x, y] = hl.i32(clamped(g.input)[x, y])
        right = p[x + 1, y - 1] + 2 * p[x + 1, y] + p[x + 1, y + 1]
        left = p[x - 1, y - 1] + 2 * p[x - 1, y] + p[x - 1, y + 1]
        below = p[x - 1, y + 1] + 2 * p[x, y + 1] + p[x + 1, y + 1]
        above = p[x - 1, y - 1] + 2 * p[x, y - 1] + p[x + 1, y - 1]
        gx, gy = right - left, below - above
        g.output[x, y] = hl.u8(hl.min(hl.sqrt(hl.f32(gx * gx + gy * gy)), 255.0))
        schedule_rows(g, g.output)


@hl.generator(name="gamma")
class Gamma:
    input = hl.InputBuffer(hl.UInt(8), 2)
    gamma = hl.InputScalar(hl.Float(32))
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        i = hl.Var("i")
        lut = hl.Func("lut")  # 256 entries, computed once per call
        lut[i] = hl.u8(hl.clamp(hl.pow(hl.f32(i) / 255.0, g.gamma) * 255.0 + 0.5, 0.0, 255.0))
        g.output[x, y] = lut[hl.i32(g.input[x, y])]
        lut.compute_root().bound(i, 0, 256)
        schedule_rows(g, g.output)


@hl.generator(name="resize_bilinear")
class ResizeBilinear:
    """output(x, y) samples the input at ((x + 0.5) * scale_x - 0.5,
    (y + 0.5) * scale_y - 0.5): scale is input pixels per output pixel."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    scale_x = hl.InputScalar(hl.Float(32))
    scale_y = hl.InputScalar(hl.Float(32))
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        src = clamped(g.input)
        sx = (hl.f32(x) + 0.5) * g.scale_x - 0.5
        sy = (hl.f32(y) + 0.5) * g.scale_y - 0.5
        column = hl.Func("column")  # per output column: its left input column and weight
        column[x] = hl.Tuple([hl.i32(hl.floor(sx)), sx - hl.floor(sx)])
        x0, fx = column[x][0], column[x][1]
        y0, fy = hl.i32(hl.floor(sy)), sy - hl.floor(sy)
        top = hl.f32(src[x0, y0]) * (1.0 - fx) + hl.f32(src[x0 + 1, y0]) * fx
        bottom = hl.f32(src[x0, y0 + 1]) * (1.0 - fx) + hl.f32(src[x0 + 1, y0 + 1]) * fx
        value = top * (1.0 - fy) + bottom * fy
        g.output[x, y] = hl.u8(hl.clamp(value + 0.5, 0.0, 255.0))
        # The columns' coordinates and weights once per call, not per row;
        # rows in parallel, as many lanes as a vector of bytes (the four
        # reads at computed columns are gathers, cheaper per lane when wide).
        vec = g.natural_vector_size(hl.UInt(8))
        column.compute_root().vectorize(x, vec, GUARD)
        g.output.parallel(y).vectorize(x, vec, GUARD)


@hl.generator(name="unsharp")
class Unsharp:
    """output = input + amount * (input - gaussian5x5(input)), rounded and clamped."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    amount = hl.InputScalar(hl.Float(32))
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        src = clamped(g.input)
        rows, blurred = gaussian5x5(g, src, "blur")
        v = hl.f32(src[x, y])
        sharp = v + g.amount * (v - hl.f32(blurred[x, y]))
        g.output[x, y] = hl.u8(hl.clamp(sharp + 0.5, 0.0, 255.0))
        schedule_rows(g, g.output, rows)


@hl.generator(name="equalize")
class Equalize:
    """Histogram equalization: each pixel value v becomes
    round((cdf(v) - cdf_min) * 255 / (n - cdf_min)), cdf being the running
    count of pixels up to v over the whole input, cdf_min the count of the
    darkest value present and n the number of pixels; a constant image comes
    back unchanged."""

    input = hl.InputBuffer(hl.UInt(8), 2)
    output = hl.OutputBuffer(hl.UInt(8), 2)

    def generate(g):
        v, u, lane = hl.Var("v"), hl.Var("u"), hl.Var("lane")
        width, height = g.input.width(), g.input.height()
        # Four partial histograms, one per x % 4, over the columns up to the
        # last multiple of 4 (r.x is the lane), then the remaining columns.
        quads = width / 4
        r = hl.RDom([hl.Range(0, 4), hl.Range(0, quads), hl.Range(0, height)], "r")
        t = hl.RDom([hl.Range(quads * 4, width - quads * 4), hl.Range(0, height)], "t")
        hist4 = hl.Func("hist4")
        hist4[v, lane] = 0
        hist4[hl.i32(g.input[r.y * 4 + r.x, r.z]), r.x] += 1
        hist4[hl.i32(g.input[t.x, t.y]), 0] += 1
        hist = hl.Func("hist")
        hist[v] = hist4[v, 0] + hist4[v, 1] + hist4[v, 2] + hist4[v, 3]
        s = hl.RDom([hl.Range(1, 255)], "s")
        cdf = hl.Func("cdf")  # a scan: the running sum of the histogram
        cdf[v] = hist[v]
        cdf[s.x] = cdf[s.x - 1] + cdf[s.x]
        n = width * height
        b = hl.RDom([hl.Range(0, 256)], "b")
        cdf_min = hl.Func("cdf_min")
        cdf_min[()] = hl.minimum(hl.select(hist[b.x] > 0, cdf[b.x], n))
        span = n - cdf_min[()]
        lut = hl.Func("lut")
        above = hl.max(cdf[v] - cdf_min[()], 0)
        lut[v] = hl.select(span > 0, hl.u8((hl.i64(above) * 255 + span / 2) / span), hl.u8(v))
        g.output[x, y] = lut[hl.i32(g.input[x, y])]

        # The four histograms of each strip of 32 rows in parallel (rfactor),
        # the lanes unrolled: consecutive pixels increment different tables,
        # so a run of equal values does not wait on its own last increment.
        # Merged bin by bin; the scan and the table are 256 points; the
        # lookup runs on rows in parallel.
        rzo, rzi = hl.RVar("rzo"), hl.RVar("rzi")
        lanes = g.natural_vector_size(hl.Int(32))
        hist4.compute_root().vectorize(v, lanes)
        hist4.update(0).split(r.z, rzo, rzi, 32)
        partial = hist4.update(0).rfactor(rzo, u)
        partial.compute_root().vectorize(v, lanes).parallel(u)
        partial.update(0).unroll(r.x).parallel(u)
        hist4.update(0).vectorize(v, lanes)
        hist.compute_root().vectorize(v, lanes)
        cdf.compute_root()
        cdf_min.compute_root()
        lut.compute_root().vectorize(v, lanes)
        schedule_rows(g, g.output)


if __name__ == "__main__":
    hl.main()
