// Histogram equalization benchmark (issue 12), one source compiled unchanged
// against three compilers: ours (libhalide), upstream Halide 21 and Debian's
// Halide 14. Only API present in all three is used.
// benchmarks/histeq/bench_histeq.py builds the binaries (with
// benchmarks/stencils/bench_stencils.py's machinery), runs them next to
// OpenCV's equalizeHist and writes the report.
//
//   histeq --input FILE --width W --height H [--runs N] [--budget SECONDS]
//          [--out FILE] [--stmt FILE] [--asm FILE]
//
// The input is W x H uint8 pixels, row after row (x fastest). The algorithm
// and schedule are the imaging plugin's `equalize` kernel
// (plugins/imaging/generators/imaging.py): four partial histograms per strip
// of 32 rows, one per x % 4 (rfactor over the strips, in parallel, the four
// lanes unrolled), merged bin by bin, the running sum (a scan), the count of
// the darkest value present (an inline minimum), the remapping table
// round((cdf(v) - cdf_min) * 255 / (n - cdf_min)), and the lookup of every
// pixel in it, rows in parallel and vectorized with a guarded tail.
// JIT-compiled for the host, realized once (warm-up), then the best of up to
// --runs realizations into a preallocated output, in wall time and in process
// CPU time (all threads); the thread count comes from HL_NUM_THREADS. One
// JSON line on stdout.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "Halide.h"
#include "bench_timing.h"

using namespace Halide;

namespace {

using bench::cpu_s;
using bench::now_s;

struct Options {
    int width = 1920, height = 1080, runs = 30;
    double budget_s = 5.0;
    std::string input, out, stmt, assembly;
};

bool read_file(const std::string &path, std::vector<uint8_t> &data) {
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        return false;
    }
    size_t got = std::fread(data.data(), 1, data.size(), f);
    std::fclose(f);
    return got == data.size();
}

int run(const Options &o) {
    std::vector<uint8_t> pixels((size_t)o.width * (size_t)o.height);
    if (!read_file(o.input, pixels)) {
        std::fprintf(stderr, "cannot read %d x %d bytes from %s\n", o.width, o.height, o.input.c_str());
        return 1;
    }
    Runtime::Buffer<uint8_t> in_rt(o.width, o.height), out_rt(o.width, o.height);
    for (int y = 0; y < o.height; y++) {
        std::copy_n(pixels.data() + (size_t)y * o.width, o.width, &in_rt(0, y));
    }
    ImageParam input(UInt(8), 2, "input");
    input.set(Buffer<uint8_t>{Runtime::Buffer<uint8_t>(in_rt)});

    // The algorithm.
    Var x("x"), y("y"), v("v"), u("u"), lane("lane");
    Expr width = input.width(), height = input.height();
    Expr quads = width / 4;
    RDom r(0, 4, 0, quads, 0, height, "r");
    RDom t(quads * 4, width - quads * 4, 0, height, "t");
    Func hist4("hist4"), hist("hist"), cdf("cdf"), cdf_min("cdf_min"), lut("lut"), out("equalized");
    hist4(v, lane) = 0;
    hist4(cast<int32_t>(input(r.y * 4 + r.x, r.z)), r.x) += 1;
    hist4(cast<int32_t>(input(t.x, t.y)), 0) += 1;
    hist(v) = hist4(v, 0) + hist4(v, 1) + hist4(v, 2) + hist4(v, 3);
    RDom s(1, 255, "s");
    cdf(v) = hist(v);
    cdf(s.x) = cdf(s.x - 1) + cdf(s.x);
    Expr n = width * height;
    RDom b(0, 256, "b");
    cdf_min() = minimum(select(hist(b.x) > 0, cdf(b.x), n));
    Expr span = n - cdf_min();
    Expr above = max(cdf(v) - cdf_min(), 0);
    lut(v) = select(span > 0, cast<uint8_t>((cast<int64_t>(above) * 255 + span / 2) / span), cast<uint8_t>(v));
    out(x, y) = lut(cast<int32_t>(input(x, y)));

    // The schedule.
    Target target = get_jit_target_from_environment();
    const int lanes = target.natural_vector_size<int32_t>();
    RVar rzo("rzo"), rzi("rzi");
    hist4.compute_root().vectorize(v, lanes);
    hist4.update(0).split(r.z, rzo, rzi, 32);
    Func partial = hist4.update(0).rfactor(rzo, u);
    partial.compute_root().vectorize(v, lanes).parallel(u);
    partial.update(0).unroll(r.x).parallel(u);
    hist4.update(0).vectorize(v, lanes);
    hist.compute_root().vectorize(v, lanes);
    cdf.compute_root();
    cdf_min.compute_root();
    lut.compute_root().vectorize(v, lanes);
    out.parallel(y).vectorize(x, target.natural_vector_size<uint8_t>(), TailStrategy::GuardWithIf);

    if (!o.stmt.empty()) {
        out.compile_to_lowered_stmt(o.stmt, {input});
    }
    if (!o.assembly.empty()) {
        out.compile_to_assembly(o.assembly, {input}, "equalize");
    }
    double t0 = now_s();
    out.compile_jit();
    double compile_s = now_s() - t0;
    Buffer<uint8_t> dst{Runtime::Buffer<uint8_t>(out_rt)};
    out.realize(dst); // warm-up
    bench::Best timing = bench::time_runs([&] { out.realize(dst); }, o.runs, o.budget_s);
    double best = timing.wall_s, best_cpu = timing.cpu_s;
    int runs = timing.runs;
    if (!o.out.empty()) {
        FILE *f = std::fopen(o.out.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", o.out.c_str());
            return 1;
        }
        for (int y = 0; y < o.height; y++) {
            std::fwrite(&out_rt(0, y), 1, (size_t)o.width, f);
        }
        std::fclose(f);
    }
    const char *threads = std::getenv("HL_NUM_THREADS");
    std::printf("{\"width\": %d, \"height\": %d, \"compile_s\": %.6f, \"run_s\": %.9f, \"cpu_s\": %.9f, \"runs\": %d, "
                "\"threads\": \"%s\", \"target\": \"%s\"}\n",
                o.width, o.height, compile_s, best, best_cpu, runs, threads ? threads : "default",
                target.to_string().c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        bool more = i + 1 < argc;
        if (arg == "--input" && more) {
            o.input = argv[++i];
        } else if (arg == "--width" && more) {
            o.width = std::atoi(argv[++i]);
        } else if (arg == "--height" && more) {
            o.height = std::atoi(argv[++i]);
        } else if (arg == "--runs" && more) {
            o.runs = std::atoi(argv[++i]);
        } else if (arg == "--budget" && more) {
            o.budget_s = std::atof(argv[++i]);
        } else if (arg == "--out" && more) {
            o.out = argv[++i];
        } else if (arg == "--stmt" && more) {
            o.stmt = argv[++i];
        } else if (arg == "--asm" && more) {
            o.assembly = argv[++i];
        } else {
            std::fprintf(stderr,
                         "usage: %s --input FILE [--width W] [--height H] [--runs N] [--budget SECONDS] [--out FILE] "
                         "[--stmt FILE] [--asm FILE]\n",
                         argv[0]);
            return 2;
        }
    }
    if (o.input.empty() || o.width < 4 || o.height < 1) {
        std::fprintf(stderr, "histeq: --input FILE is required, and the image at least 4 x 1\n");
        return 2;
    }
    try {
        return run(o);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "histeq: %s\n", e.what());
        return 1;
    }
}
