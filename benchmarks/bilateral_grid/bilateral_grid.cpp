// Bilateral grid benchmark (issue 12), one source compiled unchanged against
// three compilers: ours (libhalide), upstream Halide 21 and Debian's Halide
// 14. Only API present in all three is used.
// benchmarks/bilateral_grid/bench_bilateral_grid.py builds the binaries
// (benchmarks/common/harness.py), runs them and writes the report.
//
//   bilateral_grid [--width W] [--height H] [--s S] [--r-sigma R] [--runs N]
//                  [--budget SECONDS] [--out FILE] [--stmt FILE] [--asm FILE] [--library PREFIX]
//
// The algorithm is examples/bilateral_grid.py's (a bilateral filter of a
// float32 grayscale image through a grid of s x s cells by intensity bins of
// r_sigma): the input clamped to [0, 1] with its edges repeated; the grid's
// sums and counts per cell and bin, an update over the cell's pixels at a
// computed bin; [1 4 6 4 1] blurs along z, x and y; each pixel the
// trilinear interpolation of the blurred sums over that of the counts.
// The schedule is the shape of upstream's bilateral_grid app on a CPU: the
// z blur at the root, rows of cells in parallel, vectorized across cells,
// the channel unrolled, with the grid computed per row of it (its update
// in cell, then pixel order, the channel unrolled); the x and y blurs at
// the root, in parallel over bins and vectorized across cells; the output
// rows in parallel, vectorized.
//
// The input (W x H, default 1536 x 2560) is a smooth pattern plus
// deterministic noise, made here. JIT-compiled for the host, realized once
// (warm-up), then the best of up to --runs realizations into a preallocated
// output, in wall time and in process CPU time (all threads); the thread
// count comes from HL_NUM_THREADS. One JSON line on stdout; --out writes
// the output (float32, row after row).
// --library PREFIX writes PREFIX.a and PREFIX.h: the pipeline compiled ahead
// of time for the host, to profile it with perf outside the JIT.

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "Halide.h"
#include "bench_pipeline.h"

using namespace Halide;

namespace {

// 0.5 + 0.3 sin(x / 40) cos(y / 55) plus noise in [-0.1, 0.1], a little of
// it outside [0, 1] (the pipeline clamps).
float input_value(int x, int y) {
    uint32_t h = uint32_t(x) * 0x9E3779B1u ^ uint32_t(y) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    float noise = float(h & 0xFFFF) / 65535.0f * 0.2f - 0.1f;
    return 0.5f + 0.3f * std::sin(float(x) / 40.0f) * std::cos(float(y) / 55.0f) + noise;
}

Func bilateral_grid(ImageParam input, Param<float> r_sigma, int s) {
    Var x("x"), y("y"), z("z"), c("c");
    Expr width = input.width(), height = input.height();
    Func clamped("clamped");
    clamped(x, y) = clamp(input(clamp(x, 0, width - 1), clamp(y, 0, height - 1)), 0.0f, 1.0f);
    Expr inv_sigma = 1.0f / r_sigma;

    // The grid: sums (c = 0) and counts (c = 1) per cell and intensity bin.
    RDom r(0, s, 0, s, "r");
    Expr value = clamped(x * s + r.x - s / 2, y * s + r.y - s / 2);
    Expr bin = cast<int>(value * inv_sigma + 0.5f);
    Func grid("grid");
    grid(x, y, z, c) = 0.0f;
    grid(x, y, bin, c) += select(c == 0, value, 1.0f);

    // [1 4 6 4 1] along z, then x, then y.
    Func blur_z("blur_z"), blur_x("blur_x"), blur_y("blur_y");
    blur_z(x, y, z, c) = grid(x, y, z - 2, c) + 4 * grid(x, y, z - 1, c) + 6 * grid(x, y, z, c) +
                         4 * grid(x, y, z + 1, c) + grid(x, y, z + 2, c);
    blur_x(x, y, z, c) = blur_z(x - 2, y, z, c) + 4 * blur_z(x - 1, y, z, c) + 6 * blur_z(x, y, z, c) +
                         4 * blur_z(x + 1, y, z, c) + blur_z(x + 2, y, z, c);
    blur_y(x, y, z, c) = blur_x(x, y - 2, z, c) + 4 * blur_x(x, y - 1, z, c) + 6 * blur_x(x, y, z, c) +
                         4 * blur_x(x, y + 1, z, c) + blur_x(x, y + 2, z, c);

    // Trilinear interpolation of the blurred grid at each pixel.
    Expr zv = clamped(x, y) * inv_sigma;
    Expr zi = cast<int>(zv);
    Expr zf = zv - zi;
    Expr xi = x / s, yi = y / s;
    Expr xf = cast<float>(x % s) / s, yf = cast<float>(y % s) / s;
    auto interpolated = [&](int ch) {
        auto at = [&](int dx, int dy) {
            return lerp(blur_y(xi + dx, yi + dy, zi, ch), blur_y(xi + dx, yi + dy, zi + 1, ch), zf);
        };
        return lerp(lerp(at(0, 0), at(1, 0), xf), lerp(at(0, 1), at(1, 1), xf), yf);
    };
    Func out("bilateral_grid");
    out(x, y) = interpolated(0) / interpolated(1);

    // The schedule (see the top of this file).
    blur_z.compute_root().reorder(c, z, x, y).parallel(y).vectorize(x, 8).unroll(c);
    grid.compute_at(blur_z, y);
    grid.update(0).reorder(c, r.x, r.y, x, y).unroll(c);
    blur_x.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
    blur_y.compute_root().reorder(c, x, y, z).parallel(z).vectorize(x, 8).unroll(c);
    out.compute_root().parallel(y).vectorize(x, 8);
    return out;
}

int run(const bench::Options &o) {
    const int width = o.integer("width", 1536), height = o.integer("height", 2560), s = o.integer("s", 8);
    Runtime::Buffer<float> in_rt(width, height), out_rt(width, height);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            in_rt(x, y) = input_value(x, y);
        }
    }
    ImageParam input(Float(32), 2, "input");
    input.set(Buffer<float>{Runtime::Buffer<float>(in_rt)});
    Param<float> r_sigma("r_sigma");
    r_sigma.set(float(o.real("r-sigma", 0.1)));
    Func out = bilateral_grid(input, r_sigma, s);

    return bench::time_pipeline(out, {input, r_sigma}, out_rt, o, "bilateral_grid");
}

} // namespace

int main(int argc, char **argv) {
    return bench::guarded_main(argc, argv,
                               {"width", "height", "s", "r-sigma", "runs", "budget", "out", "stmt", "asm", "library"},
                               "bilateral_grid", run);
}
