// Benchmark (not a test): our JIT on two image pipelines, for comparison with
// upstream Halide 14 (tests/bench/upstream_bench.py runs the same algorithms,
// schedules, sizes and inputs). Prints one JSON object: the first
// compile_jit() time and the best-of-N run time per pipeline. With
// --out-dir DIR it also writes each output's elements (x fastest) to
// DIR/<pipeline>.raw so tests/bench/compiler_report.py can compare them.
//
// The thread count comes from HL_NUM_THREADS, as upstream's does; run once
// per thread count.
//
//   compiler_bench [--runs N] [--budget SECONDS] [--out-dir DIR]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

constexpr int W = 1536, H = 2560;

double now_s() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// The input pattern, shared with upstream_bench.py: an integer hash of the
// buffer-relative coordinates (i, j) = (x - min_x, y - min_y), 14 bits.
uint32_t pattern(int32_t i, int32_t j) {
    uint32_t v = uint32_t(i) * 1103515245u ^ (uint32_t(j) * 40503u + 12345u);
    v = v ^ (v >> 15);
    return v & 16383u;
}

struct Result {
    double compile_s = 0, run_s = 0;
    double checksum = 0;
    int runs = 0;
};

template <typename T> double checksum_of(const Runtime::Buffer<T> &b) {
    double sum = 0;
    for (int y = 0; y < b.height(); y++) {
        for (int x = 0; x < b.width(); x++)
            sum += double(b(x, y));
    }
    return sum;
}

template <typename T> void write_raw(const Runtime::Buffer<T> &b, const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
    for (int y = 0; y < b.height(); y++)
        std::fwrite(&b(0, y), sizeof(T), b.width(), f);
    std::fclose(f);
}

// Best of `runs` realizations, stopping early (after at least 3) once
// `budget_s` seconds have been spent, so a slow pipeline does not take minutes.
double g_budget_s = 20.0;

template <typename T> Result time_pipeline(Func &out_func, Runtime::Buffer<T> &out, int runs) {
    Result r;
    double t0 = now_s();
    out_func.compile_jit();
    r.compile_s = now_s() - t0;
    Buffer<T> dst(out);
    out_func.realize(dst); // warm-up (thread pool start, first touch of memory)
    r.run_s = 1e30;
    double start = now_s();
    int done = 0;
    while (done < runs && !(done >= 3 && now_s() - start > g_budget_s)) {
        double t = now_s();
        out_func.realize(dst);
        r.run_s = std::min(r.run_s, now_s() - t);
        done++;
    }
    r.runs = done;
    r.checksum = checksum_of(out);
    return r;
}

Result bench_blur(int runs, const std::string &out_dir) {
    Runtime::Buffer<uint16_t> in(W + 2, H + 2);
    in.set_min(-1, -1);
    for (int y = -1; y <= H; y++) {
        for (int x = -1; x <= W; x++)
            in(x, y) = uint16_t(pattern(x + 1, y + 1));
    }
    ImageParam input(UInt(16), 2, "input");
    input.set(Buffer<uint16_t>(in));
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_y.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y);
    blur_x.compute_at(blur_y, x).vectorize(x, 8);

    Runtime::Buffer<uint16_t> out(W, H);
    Result r = time_pipeline(blur_y, out, runs);
    if (!out_dir.empty())
        write_raw(out, out_dir + "/blur_u16.raw");
    return r;
}

Result bench_gauss(int runs, const std::string &out_dir) {
    Runtime::Buffer<float> in(W, H);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++)
            in(x, y) = float(pattern(x, y)) * 0.015625f;
    }
    ImageParam input(Float(32), 2, "input");
    input.set(Buffer<float>(in));
    Func clamped("clamped"), gx("gx"), gy("gy");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    clamped(x, y) = input(clamp(x, 0, W - 1), clamp(y, 0, H - 1));
    gx(x, y) = (clamped(x - 2, y) + clamped(x - 1, y) * 4.0f + clamped(x, y) * 6.0f + clamped(x + 1, y) * 4.0f +
                clamped(x + 2, y)) /
               16.0f;
    gy(x, y) = (gx(x, y - 2) + gx(x, y - 1) * 4.0f + gx(x, y) * 6.0f + gx(x, y + 1) * 4.0f + gx(x, y + 2)) / 16.0f;
    gy.tile(x, y, xi, yi, 256, 32).vectorize(xi, 8).parallel(y);
    gx.compute_at(gy, x).vectorize(x, 8);

    Runtime::Buffer<float> out(W, H);
    Result r = time_pipeline(gy, out, runs);
    if (!out_dir.empty())
        write_raw(out, out_dir + "/gauss_f32.raw");
    return r;
}

void print_result(const char *name, const Result &r, bool last) {
    std::printf("    \"%s\": {\"compile_s\": %.6f, \"run_s\": %.6f, \"runs\": %d, \"checksum\": %.6f}%s\n", name,
                r.compile_s, r.run_s, r.runs, r.checksum, last ? "" : ",");
}

} // namespace

int main(int argc, char **argv) {
    int runs = 20;
    std::string out_dir;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--budget") && i + 1 < argc) {
            g_budget_s = std::atof(argv[++i]);
        } else if (!std::strcmp(argv[i], "--out-dir") && i + 1 < argc) {
            out_dir = argv[++i];
        } else {
            std::fprintf(stderr, "usage: %s [--runs N] [--budget SECONDS] [--out-dir DIR]\n", argv[0]);
            return 2;
        }
    }
    const char *threads = std::getenv("HL_NUM_THREADS");
    try {
        Result blur = bench_blur(runs, out_dir);
        Result gauss = bench_gauss(runs, out_dir);
        std::printf("{\n  \"side\": \"ours\",\n  \"threads\": \"%s\",\n  \"runs\": %d,\n  \"width\": %d,\n"
                    "  \"height\": %d,\n  \"pipelines\": {\n",
                    threads ? threads : "default", runs, W, H);
        print_result("blur_u16", blur, false);
        print_result("gauss_f32", gauss, true);
        std::printf("  }\n}\n");
    } catch (const std::exception &e) {
        std::fprintf(stderr, "compiler_bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
