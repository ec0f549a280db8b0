// Local Laplacian benchmark (issue 12), one source compiled unchanged
// against three compilers: ours (libhalide), upstream Halide 21 and Debian's
// Halide 14. Only API present in all three is used.
// benchmarks/local_laplacian/bench_local_laplacian.py builds the binaries
// (benchmarks/common/harness.py), runs them and writes the report.
//
//   local_laplacian [--width W] [--height H] [--levels K] [--pyramid J]
//                   [--alpha A] [--beta B] [--runs N] [--budget SECONDS]
//                   [--out FILE] [--stmt FILE] [--asm FILE] [--library PREFIX]
//
// The algorithm is examples/local_laplacian.py's (detail enhancement of an
// RGB uint16 image): a lookup table of the detail curve alpha t exp(-t^2/2);
// the luminance of the input (edges repeated); for each of K intensity
// levels the luminance remapped around that level, its Gaussian pyramid
// ([1 3 3 1] / 8 then decimation by 2, in x then y) and Laplacian pyramid
// (each level minus the linear upsampling of the next), J levels deep; the
// luminance's own Gaussian pyramid picks, at each pixel and level, the two
// intensity levels around it and blends their Laplacian levels; the blended
// pyramid is collapsed and the colour channels scaled by the new luminance
// over the old one.
// The schedule is the shape of upstream's local_laplacian app on a CPU:
// the table at the root; the output in strips of 64 rows in parallel,
// vectorized by 8; the luminance and the first 4 levels of every pyramid at
// the root, rows in parallel (strips of 32 rows, 8 for the remapped
// pyramid, whose storage and loops put the K levels inside each row),
// vectorized by 8; the deeper, smaller levels at the root, the remapped
// pyramid's in parallel over the K levels, the others serial.
//
// The input (W x H x 3, default 1536 x 2560) is a colour gradient with a
// textured disc, made here. JIT-compiled for the host, realized once
// (warm-up), then the best of up to --runs realizations into a preallocated
// output, in wall time and in process CPU time (all threads); the thread
// count comes from HL_NUM_THREADS. One JSON line on stdout; --out writes
// the output (uint16, planar: channel after channel, row after row).
// --library PREFIX writes PREFIX.a and PREFIX.h: the pipeline compiled ahead
// of time for the host, to profile it with perf outside the JIT.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "Halide.h"
#include "bench_pipeline.h"

using namespace Halide;

namespace {

Var x("x"), y("y"), c("c"), k("k");

// examples/local_laplacian.py's test image: a smooth gradient per channel
// and a disc of texture in the middle.
uint16_t input_value(int px, int py, int ch, int width, int height) {
    double fx = px, fy = py;
    double base[3] = {fx / width, fy / height, (fx + fy) / (width + height)};
    double dx = fx - width / 2.0, dy = fy - height / 2.0, radius = std::min(width, height) / 3.0;
    double texture = dx * dx + dy * dy < radius * radius ? 0.1 * std::sin(fx * 1.7) * std::cos(fy * 1.3) : 0.0;
    double v = std::clamp(0.2 + 0.6 * base[ch] + texture, 0.0, 1.0);
    return uint16_t(v * 65535);
}

// f(px, py), or f(px, py, k) when `f` has a third dimension (the intensity level).
Expr at(Func f, Expr px, Expr py) {
    return f.dimensions() == 3 ? f(px, py, k) : f(px, py);
}

// The left-hand side of a definition with the dimensions of `f`.
std::vector<Var> like(Func f) {
    return f.dimensions() == 3 ? std::vector<Var>{x, y, k} : std::vector<Var>{x, y};
}

// [1 3 3 1] / 8 along x then y, keeping every other sample.
Func downsample(Func f, const std::string &name) {
    Func dx(name + "_dx"), dy(name);
    dx(like(f)) = (at(f, 2 * x - 1, y) + 3.0f * (at(f, 2 * x, y) + at(f, 2 * x + 1, y)) + at(f, 2 * x + 2, y)) / 8.0f;
    dy(like(f)) =
        (at(dx, x, 2 * y - 1) + 3.0f * (at(dx, x, 2 * y) + at(dx, x, 2 * y + 1)) + at(dx, x, 2 * y + 2)) / 8.0f;
    return dy;
}

// Linear interpolation to twice the size, along x then y.
Func upsample(Func f, const std::string &name) {
    Func ux(name + "_ux"), uy(name);
    ux(like(f)) = 0.25f * at(f, (x / 2) - 1 + 2 * (x % 2), y) + 0.75f * at(f, x / 2, y);
    uy(like(f)) = 0.25f * at(ux, x, (y / 2) - 1 + 2 * (y % 2)) + 0.75f * at(ux, x, y / 2);
    return uy;
}

Func local_laplacian(ImageParam input, Param<int> levels, Param<float> alpha, Param<float> beta, int j_levels) {
    // The detail curve.
    Func remap("remap");
    Expr t = cast<float>(x) / 256.0f;
    remap(x) = alpha * t * exp(-t * t / 2.0f);

    // The luminance of the input in [0, 1].
    Func clamped = BoundaryConditions::repeat_edge(input);
    Func floating("floating"), gray("gray");
    floating(x, y, c) = cast<float>(clamped(x, y, c)) / 65535.0f;
    gray(x, y) = 0.299f * floating(x, y, 0) + 0.587f * floating(x, y, 1) + 0.114f * floating(x, y, 2);

    // The remapped images, their Gaussian and Laplacian pyramids.
    std::vector<Func> g_pyramid(j_levels), l_pyramid(j_levels), in_g_pyramid(j_levels), out_l_pyramid(j_levels),
        out_g_pyramid(j_levels);
    Expr level = cast<float>(k) * (1.0f / cast<float>(levels - 1));
    Expr idx = clamp(cast<int>(gray(x, y) * cast<float>(levels - 1) * 256.0f), 0, (levels - 1) * 256);
    g_pyramid[0] = Func("g_pyramid_0");
    g_pyramid[0](x, y, k) = beta * (gray(x, y) - level) + level + remap(idx - 256 * k);
    for (int j = 1; j < j_levels; j++) {
        g_pyramid[j] = Func("g_pyramid_" + std::to_string(j));
        g_pyramid[j](x, y, k) = downsample(g_pyramid[j - 1], "down_g_" + std::to_string(j))(x, y, k);
    }
    l_pyramid[j_levels - 1] = Func("l_pyramid_" + std::to_string(j_levels - 1));
    l_pyramid[j_levels - 1](x, y, k) = g_pyramid[j_levels - 1](x, y, k);
    for (int j = j_levels - 2; j >= 0; j--) {
        l_pyramid[j] = Func("l_pyramid_" + std::to_string(j));
        l_pyramid[j](x, y, k) =
            g_pyramid[j](x, y, k) - upsample(g_pyramid[j + 1], "up_g_" + std::to_string(j))(x, y, k);
    }

    // The luminance's own Gaussian pyramid picks and blends two intensity levels.
    in_g_pyramid[0] = Func("in_g_pyramid_0");
    in_g_pyramid[0](x, y) = gray(x, y);
    for (int j = 1; j < j_levels; j++) {
        in_g_pyramid[j] = Func("in_g_pyramid_" + std::to_string(j));
        in_g_pyramid[j](x, y) = downsample(in_g_pyramid[j - 1], "down_in_" + std::to_string(j))(x, y);
    }
    for (int j = 0; j < j_levels; j++) {
        out_l_pyramid[j] = Func("out_l_pyramid_" + std::to_string(j));
        Expr lv = in_g_pyramid[j](x, y) * cast<float>(levels - 1);
        Expr li = clamp(cast<int>(lv), 0, levels - 2);
        Expr lf = lv - cast<float>(li);
        out_l_pyramid[j](x, y) = (1.0f - lf) * l_pyramid[j](x, y, li) + lf * l_pyramid[j](x, y, li + 1);
    }
    out_g_pyramid[j_levels - 1] = Func("out_g_pyramid_" + std::to_string(j_levels - 1));
    out_g_pyramid[j_levels - 1](x, y) = out_l_pyramid[j_levels - 1](x, y);
    for (int j = j_levels - 2; j >= 0; j--) {
        out_g_pyramid[j] = Func("out_g_pyramid_" + std::to_string(j));
        Func up = upsample(out_g_pyramid[j + 1], "up_out_" + std::to_string(j));
        out_g_pyramid[j](x, y) = up(x, y) + out_l_pyramid[j](x, y);
    }

    // Colour back.
    Func color("color"), output("local_laplacian");
    color(x, y, c) = out_g_pyramid[0](x, y) * (floating(x, y, c) + 0.01f) / (gray(x, y) + 0.01f);
    output(x, y, c) = cast<uint16_t>(clamp(color(x, y, c), 0.0f, 1.0f) * 65535.0f);

    // The schedule (see the top of this file).
    Var yo("yo"), yi("yi");
    remap.compute_root();
    output.reorder(c, x, y).split(y, yo, yi, 64).parallel(yo).vectorize(x, 8);
    gray.compute_root().parallel(y, 32).vectorize(x, 8);
    for (int j = 0; j < j_levels; j++) {
        if (j < 4) {
            if (j > 0) {
                in_g_pyramid[j].compute_root().parallel(y, 32).vectorize(x, 8);
            }
            g_pyramid[j].compute_root().reorder_storage(x, k, y).reorder(k, y).parallel(y, 8).vectorize(x, 8);
            out_g_pyramid[j].compute_root().parallel(y, 32).vectorize(x, 8);
        } else {
            in_g_pyramid[j].compute_root();
            g_pyramid[j].compute_root().parallel(k);
            out_g_pyramid[j].compute_root();
        }
    }
    return output;
}

int run(const bench::Options &o) {
    const int width = o.integer("width", 1536), height = o.integer("height", 2560);
    Runtime::Buffer<uint16_t> in_rt(width, height, 3), out_rt(width, height, 3);
    for (int ch = 0; ch < 3; ch++) {
        for (int py = 0; py < height; py++) {
            for (int px = 0; px < width; px++) {
                in_rt(px, py, ch) = input_value(px, py, ch, width, height);
            }
        }
    }
    ImageParam input(UInt(16), 3, "input");
    input.set(Buffer<uint16_t>{Runtime::Buffer<uint16_t>(in_rt)});
    Param<int> levels("levels");
    Param<float> alpha("alpha"), beta("beta");
    levels.set(o.integer("levels", 8));
    alpha.set(float(o.real("alpha", 1.0)));
    beta.set(float(o.real("beta", 1.0)));
    Func out = local_laplacian(input, levels, alpha, beta, o.integer("pyramid", 8));

    return bench::time_pipeline(out, {input, levels, alpha, beta}, out_rt, o, "local_laplacian");
}

} // namespace

int main(int argc, char **argv) {
    return bench::guarded_main(
        argc, argv,
        {"width", "height", "levels", "pyramid", "alpha", "beta", "runs", "budget", "out", "stmt", "asm", "library"},
        "local_laplacian", run);
}
