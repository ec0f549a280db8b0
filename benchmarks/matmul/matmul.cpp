// Matrix multiply benchmark (issue 12), one source compiled unchanged against
// three compilers: ours (libhalide), upstream Halide 21 and Debian's Halide 14.
// Only API present in all three is used. benchmarks/matmul/bench_matmul.py
// builds the binaries (with benchmarks/stencils/bench_stencils.py's
// machinery), runs them and writes the report.
//
//   matmul --peak
//   matmul [--size N] [--runs N] [--budget SECONDS] [--out FILE] [--stmt FILE] [--asm FILE]
//
// --peak measures this core's FMA rate without Halide: a loop of
// independent vector FMAs (12 accumulators, AVX-512 and AVX2 forms, each
// where the CPU has it: the best is the peak) and a chain of dependent
// scalar FMAs (its time per FMA is the FMA latency, from which the clock is
// estimated for an assumed latency of 4 cycles), timed in process CPU time
// (the machine may be shared). One JSON line.
//
// Otherwise: C(x, y) = sum over k of A(k, y) * B(x, k) on float32 N x N
// matrices (x the column, fastest in memory), JIT-compiled for the host,
// realized once (warm-up), then the best of up to --runs realizations into a
// preallocated output, in wall time and in process CPU time (all threads);
// the thread count comes from HL_NUM_THREADS. Inputs are
// multiples of 1/8 in [-1, 1], so every partial sum is a multiple of 1/64
// below 2^10 in magnitude and exact in float32: all compilers, schedules and
// summation orders give bit-identical outputs, equal to NumPy's.
//
// The schedule (upstream's matrix-multiplication performance test, with the
// vector width of the target): the output in tiles of 2 vectors x 8 rows
// (6 rows without AVX-512: 12 accumulators, 2 vectors of B and a broadcast
// fit its 16 vector registers, where 16 accumulators spilled), rows of
// tiles in parallel; the accumulator computed per tile, its pure and update
// loops vectorized and fully unrolled inside the loop over k, so the vector
// accumulators stay in registers and each k costs 2 vector loads of B, one
// broadcast of A and 2 FMAs per row. `panels` walks the tiles down each
// column panel of B; `packed` also copies that panel into a contiguous block.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <immintrin.h>

#include "Halide.h"
#include "bench_timing.h"

using namespace Halide;

namespace {

using bench::cpu_s;
using bench::now_s;

float a_value(int k, int y) {
    return float((k * 7 + y * 3) % 17 - 8) / 8.0f;
}

float b_value(int x, int k) {
    return float((x * 5 + k * 11) % 13 - 6) / 8.0f;
}

// --- the core's FMA rate ----------------------------------------------------

constexpr long kPeakIters = 20000000;
// The peak measured next to a timed product: bursts of about 10 ms, so that
// they see the clock the product ran at (it moves by 10% from one minute to
// the next on an otherwise idle machine).
constexpr long kNearPeakIters = 4000000;

// FLOP/s (an FMA is 2) of 12 independent accumulators, more than latency x
// units on current x86 cores. A macro, so each copy is compiled for its
// instruction set (a template calling target-attributed functions would
// not inline them).
#define FMA_THROUGHPUT(V, FMA, SET1, LANES, ITERS, REPS)                                                               \
    V a0 = SET1(1.0f), a1 = SET1(1.1f), a2 = SET1(1.2f), a3 = SET1(1.3f), a4 = SET1(1.4f), a5 = SET1(1.5f);            \
    V a6 = SET1(1.6f), a7 = SET1(1.7f), a8 = SET1(1.8f), a9 = SET1(1.9f), a10 = SET1(2.0f);                            \
    V a11 = SET1(2.1f);                                                                                                \
    const V m = SET1(0.9999999f), c = SET1(1e-7f);                                                                     \
    double best = 1e30;                                                                                                \
    for (int rep = 0; rep < (REPS); rep++) {                                                                           \
        double s = cpu_s();                                                                                            \
        for (long i = 0; i < (ITERS); i++) {                                                                           \
            a0 = FMA(a0, m, c), a1 = FMA(a1, m, c), a2 = FMA(a2, m, c), a3 = FMA(a3, m, c);                            \
            a4 = FMA(a4, m, c), a5 = FMA(a5, m, c), a6 = FMA(a6, m, c), a7 = FMA(a7, m, c);                            \
            a8 = FMA(a8, m, c), a9 = FMA(a9, m, c), a10 = FMA(a10, m, c), a11 = FMA(a11, m, c);                        \
            __asm__ volatile("" : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4), "+x"(a5));                         \
            __asm__ volatile("" : "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9), "+x"(a10), "+x"(a11));                       \
        }                                                                                                              \
        best = std::min(best, cpu_s() - s);                                                                            \
    }                                                                                                                  \
    V sum = FMA(FMA(FMA(a0, a1, a2), FMA(a3, a4, a5), FMA(a6, a7, a8)), FMA(a9, a10, a11), m);                         \
    float lanes[LANES];                                                                                                \
    std::memcpy(lanes, &sum, sizeof(V));                                                                               \
    if (lanes[0] == 12345.0f) {                                                                                        \
        std::printf("?");                                                                                              \
    }                                                                                                                  \
    return 12.0 * (ITERS)*LANES * 2 / best;

__attribute__((target("avx512f"))) double peak512(long iters = kPeakIters, int reps = 5) {
    FMA_THROUGHPUT(__m512, _mm512_fmadd_ps, _mm512_set1_ps, 16, iters, reps)
}

__attribute__((target("avx2,fma"))) double peak256(long iters = kPeakIters, int reps = 5) {
    FMA_THROUGHPUT(__m256, _mm256_fmadd_ps, _mm256_set1_ps, 8, iters, reps)
}

#undef FMA_THROUGHPUT

// Seconds per dependent scalar FMA: the FMA latency.
__attribute__((target("fma"))) double fma_latency_s() {
    double best = 1e30;
    float acc = 1.0f;
    for (int rep = 0; rep < 5; rep++) {
        double s = cpu_s();
        for (long i = 0; i < kPeakIters; i++) {
            __asm__ volatile("vfmadd213ss %1, %1, %0" : "+x"(acc) : "x"(0.9999999f)); // acc = acc * m + m
            __asm__ volatile("vfmadd213ss %1, %1, %0" : "+x"(acc) : "x"(0.9999999f));
            __asm__ volatile("vfmadd213ss %1, %1, %0" : "+x"(acc) : "x"(0.9999999f));
            __asm__ volatile("vfmadd213ss %1, %1, %0" : "+x"(acc) : "x"(0.9999999f));
        }
        best = std::min(best, cpu_s() - s);
    }
    if (acc == 12345.0f) {
        std::printf("?");
    }
    return best / (4.0 * kPeakIters);
}

int peak() {
    __builtin_cpu_init();
    bool avx512 = __builtin_cpu_supports("avx512f"),
         avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    double p512 = avx512 ? peak512() : 0, p256 = avx2 ? peak256() : 0;
    double lat = avx2 ? fma_latency_s() : 0;
    std::printf(
        "{\"avx512\": %s, \"avx2_fma\": %s, \"flops_512\": %.6e, \"flops_256\": %.6e, \"fma_latency_s\": %.6e}\n",
        avx512 ? "true" : "false", avx2 ? "true" : "false", p512, p256, lat);
    return 0;
}

// The best of the two widths this core runs, in short bursts.
double near_peak() {
    __builtin_cpu_init();
    double p = 0;
    if (__builtin_cpu_supports("avx512f")) {
        p = peak512(kNearPeakIters, 3);
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        p = std::max(p, peak256(kNearPeakIters, 3));
    }
    return p;
}

// --- the pipeline -------------------------------------------------------------

struct Options {
    int size = 1024, runs = 10, rows = 0; // rows 0: as many as the target's vector registers allow
    double budget_s = 10.0;
    std::string schedule = "tiles", out, stmt, assembly;
};

int run(const Options &o) {
    const int n = o.size;
    Runtime::Buffer<float> a_rt(n, n), b_rt(n, n), c_rt(n, n);
    for (int y = 0; y < n; y++) {
        for (int k = 0; k < n; k++) {
            a_rt(k, y) = a_value(k, y);
        }
    }
    for (int k = 0; k < n; k++) {
        for (int x = 0; x < n; x++) {
            b_rt(x, k) = b_value(x, k);
        }
    }
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    A.set(Buffer<float>{Runtime::Buffer<float>(a_rt)});
    B.set(Buffer<float>{Runtime::Buffer<float>(b_rt)});

    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, n, "k");
    Func prod("prod"), out("out");
    prod(x, y) = 0.0f;
    prod(x, y) += A(k, y) * B(x, k);
    out(x, y) = prod(x, y);

    Target t = get_jit_target_from_environment();
    const int vec = t.natural_vector_size<float>();
    // 2 x rows accumulators, 2 vectors of B and a broadcast of A must fit the
    // vector registers: 32 with AVX-512 (8 rows), 16 without (6 rows).
    const int rows = o.rows > 0 ? o.rows : (t.has_feature(Target::AVX512) ? 8 : 6);
    out.tile(x, y, xi, yi, 2 * vec, rows).vectorize(xi, vec).unroll(xi).unroll(yi);
    if (o.schedule == "packed") {
        // As panels, with each column panel of B first copied into a
        // contiguous block (2 vectors x all k, 64 KB for 1024 floats of k):
        // the loop over k then reads consecutive cache lines, not a new
        // 4 KB page of B per k.
        out.reorder(xi, yi, y, x).parallel(x);
        prod.compute_at(out, y);
        Func packed_b = B.in();
        packed_b.compute_at(out, x).vectorize(packed_b.args()[0], vec);
    } else if (o.schedule == "panels") {
        // Each column panel of B (2 vectors wide, all k) stays in L2 while
        // the tiles go down it; panels in parallel.
        out.reorder(xi, yi, y, x).parallel(x);
        prod.compute_at(out, y);
    } else {
        out.parallel(y);
        prod.compute_at(out, x);
    }
    prod.vectorize(x, vec).unroll(x).unroll(y);
    prod.update(0).reorder(x, y, k).vectorize(x, vec).unroll(x).unroll(y);
    for (const ImageParam *p : {&A, &B}) {
        p->dim(0).set_min(0).set_extent(n).dim(1).set_min(0).set_extent(n).set_stride(n);
    }
    out.output_buffer().dim(0).set_min(0).set_extent(n).dim(1).set_min(0).set_extent(n).set_stride(n);

    if (!o.stmt.empty()) {
        out.compile_to_lowered_stmt(o.stmt, {A, B});
    }
    if (!o.assembly.empty()) {
        out.compile_to_assembly(o.assembly, {A, B}, "matmul");
    }
    double t0 = now_s();
    out.compile_jit();
    double compile_s = now_s() - t0;
    Buffer<float> dst{Runtime::Buffer<float>(c_rt)};
    out.realize(dst); // warm-up
    const double peak_before = near_peak();
    bench::Best timing = bench::time_runs([&] { out.realize(dst); }, o.runs, o.budget_s);
    const double peak_after = near_peak();
    double best = timing.wall_s, best_cpu = timing.cpu_s;
    int runs = timing.runs;
    if (!o.out.empty()) {
        FILE *f = std::fopen(o.out.c_str(), "wb");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", o.out.c_str());
            return 1;
        }
        for (int y = 0; y < n; y++) {
            std::fwrite(&c_rt(0, y), sizeof(float), (size_t)n, f);
        }
        std::fclose(f);
    }
    const char *threads = std::getenv("HL_NUM_THREADS");
    std::printf("{\"size\": %d, \"schedule\": \"%s\", \"vec\": %d, \"compile_s\": %.6f, \"run_s\": %.9f, \"cpu_s\": "
                "%.9f, \"runs\": %d, \"threads\": \"%s\", "
                "\"target\": \"%s\", \"peak_flops\": %.6e}\n",
                n, o.schedule.c_str(), vec, compile_s, best, best_cpu, runs, threads ? threads : "default",
                t.to_string().c_str(), std::max(peak_before, peak_after));
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    Options o;
    for (int i = 1; i < argc; i++) {
        std::string arg = argv[i];
        bool more = i + 1 < argc;
        if (arg == "--peak") {
            return peak();
        } else if (arg == "--size" && more) {
            o.size = std::atoi(argv[++i]);
        } else if (arg == "--schedule" && more) {
            o.schedule = argv[++i];
        } else if (arg == "--rows" && more) {
            o.rows = std::atoi(argv[++i]);
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
                         "usage: %s --peak | [--size N] [--schedule tiles|panels|packed] [--rows N] [--runs N] "
                         "[--budget SECONDS] [--out "
                         "FILE] [--stmt FILE] "
                         "[--asm FILE]\n",
                         argv[0]);
            return 2;
        }
    }
    if (o.schedule != "tiles" && o.schedule != "panels" && o.schedule != "packed") {
        std::fprintf(stderr, "--schedule is tiles, panels or packed\n");
        return 2;
    }
    if (o.size % 64 != 0) {
        std::fprintf(stderr, "--size must be a multiple of 64\n");
        return 2;
    }
    try {
        return run(o);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "matmul: %s\n", e.what());
        return 1;
    }
}
