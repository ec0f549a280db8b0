// Stencil benchmarks (issue 14), one source compiled unchanged against three
// compilers: ours (libhalide), upstream Halide 21 and Debian's Halide 14.
// Only API present in all three is used. benchmarks/stencils/bench_stencils.py
// builds the three binaries, runs them and writes the report.
//
//   stencils --list
//   stencils --pipeline NAME [--runs N] [--budget SECONDS] [--vec N] [--out FILE]
//            [--stmt FILE] [--asm FILE]
//
// Runs one pipeline per process (a compiler that fails or crashes on one
// pipeline does not take the others with it): JIT-compiles it for the host,
// realizes it once (warm-up), then times up to N realizations into a
// preallocated output and prints one JSON line with the best time (wall
// clock `run_s`, and this process's CPU time `cpu_s`, which at one thread
// leaves out the time a loaded machine kept it waiting). The
// thread count comes from HL_NUM_THREADS. --out writes the output's elements
// (x fastest, then y, then c) for the bit-for-bit comparison. --stmt and
// --asm write the lowered statement and the assembly of the pipeline (for
// HL_TARGET, the host by default) before timing it, to read the three
// compilers' code side by side.
//
// Every image is 1920x1080. Each pipeline that reads its input through a
// boundary condition has a twin (suffix _padded) reading a pre-padded input
// instead, whose border holds what the condition would have produced, so the
// two outputs are identical and the time difference is the cost of the
// condition.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

constexpr int W = 1920, H = 1080;
constexpr int PAD = 8; // border of the pre-padded inputs, more than any stencil reads

// This process's CPU time (all threads): at 1 thread on a loaded machine,
// the time the realization ran, without the time it waited for a core.
double cpu_now_s() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

double now_s() {
    using clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Input values: an integer hash of (x, y), `bits` bits.
uint16_t pattern(int x, int y, int bits) {
    uint32_t v = uint32_t(x) * 1103515245u ^ (uint32_t(y) * 40503u + 12345u);
    v = v ^ (v >> 15);
    v = v * 2654435761u;
    v = v ^ (v >> 13);
    return uint16_t(v & ((1u << bits) - 1));
}

int clamp_coord(int v, int n) {
    return std::min(std::max(v, 0), n - 1);
}

int mirror_interior_coord(int v, int n) {
    // Reflection about the edge points: ..., 2, 1 | 0, 1, ..., n-1 | n-2, ...
    int period = 2 * (n - 1);
    int m = ((v % period) + period) % period;
    return m < n ? m : period - m;
}

enum class Edge { None, RepeatEdge, MirrorInterior, ClampLikely };

// The input image (W x H), or with Edge::RepeatEdge/MirrorInterior the same
// image with a PAD-wide border filled as that condition would read it.
Runtime::Buffer<uint16_t> make_input(int bits, Edge pad) {
    if (pad == Edge::None) {
        Runtime::Buffer<uint16_t> in(W, H);
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++)
                in(x, y) = pattern(x, y, bits);
        }
        return in;
    }
    Runtime::Buffer<uint16_t> in(W + 2 * PAD, H + 2 * PAD);
    in.set_min(-PAD, -PAD);
    for (int y = -PAD; y < H + PAD; y++) {
        for (int x = -PAD; x < W + PAD; x++) {
            int sx = pad == Edge::MirrorInterior ? mirror_interior_coord(x, W) : clamp_coord(x, W);
            int sy = pad == Edge::MirrorInterior ? mirror_interior_coord(y, H) : clamp_coord(y, H);
            in(x, y) = pattern(sx, sy, bits);
        }
    }
    return in;
}

// The Func the algorithm reads: the input through its boundary condition,
// or the pre-padded input as is.
Func source(const ImageParam &in, Edge edge, bool padded) {
    Var x("x"), y("y");
    Func f("source");
    if (padded || edge == Edge::None) {
        f(x, y) = in(x, y);
    } else if (edge == Edge::RepeatEdge) {
        f = BoundaryConditions::repeat_edge(in);
    } else if (edge == Edge::MirrorInterior) {
        f = BoundaryConditions::mirror_interior(in);
    } else {
        f(x, y) = in(clamp(likely(x), 0, W - 1), clamp(likely(y), 0, H - 1));
    }
    return f;
}

int g_vec = 16; // vector width of every schedule, the same for the three compilers

// --- The algorithms and their schedules (in: 12-bit, or 10-bit Bayer) ----

Func copy_pipeline(Func in) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func out("out");
    out(x, y) = in(x, y);
    out.split(y, yo, yi, 32).parallel(yo).vectorize(x, g_vec);
    return out;
}

Func box3(Func in) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func blur_x("blur_x"), out("out");
    blur_x(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3;
    out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    out.tile(x, y, xi, yi, 256, 32).vectorize(xi, g_vec).parallel(y);
    blur_x.compute_at(out, x).vectorize(x, g_vec);
    return out;
}

Func gauss5(Func in) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func gx("gx"), out("out");
    // 1 4 6 4 1 in both directions; the row pass fits uint16 (16 * 4095).
    gx(x, y) = in(x - 2, y) + in(x - 1, y) * 4 + in(x, y) * 6 + in(x + 1, y) * 4 + in(x + 2, y);
    Expr sum = cast<uint32_t>(gx(x, y - 2)) + cast<uint32_t>(gx(x, y - 1)) * 4 + cast<uint32_t>(gx(x, y)) * 6 +
               cast<uint32_t>(gx(x, y + 1)) * 4 + cast<uint32_t>(gx(x, y + 2));
    out(x, y) = cast<uint16_t>((sum + 128) >> 8);
    out.tile(x, y, xi, yi, 256, 32).vectorize(xi, g_vec).parallel(y);
    gx.compute_at(out, x).vectorize(x, g_vec);
    return out;
}

Func sobel(Func in) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func s("s"), out("out");
    s(x, y) = cast<int16_t>(in(x, y));
    Expr gx =
        (s(x + 1, y - 1) + 2 * s(x + 1, y) + s(x + 1, y + 1)) - (s(x - 1, y - 1) + 2 * s(x - 1, y) + s(x - 1, y + 1));
    Expr gy =
        (s(x - 1, y + 1) + 2 * s(x, y + 1) + s(x + 1, y + 1)) - (s(x - 1, y - 1) + 2 * s(x, y - 1) + s(x + 1, y - 1));
    out(x, y) = cast<uint16_t>(abs(gx)) + cast<uint16_t>(abs(gy));
    out.split(y, yo, yi, 32).parallel(yo).vectorize(x, g_vec);
    return out;
}

// Line-buffered 3x3 box blur: the row pass stored for the whole image and
// computed per output row (serial in y, so that the rows can slide).
Func linebuf(Func in) {
    Var x("x"), y("y");
    Func blur_x("blur_x"), out("out");
    blur_x(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3;
    out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    out.vectorize(x, g_vec);
    blur_x.store_root().compute_at(out, y).vectorize(x, g_vec);
    return out;
}

// The same, in parallel strips of 64 rows, each with its own line buffer.
Func linebuf_strips(Func in) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func blur_x("blur_x"), out("out");
    blur_x(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3;
    out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    out.split(y, yo, yi, 64).parallel(yo).vectorize(x, g_vec);
    blur_x.store_at(out, yo).compute_at(out, yi).vectorize(x, g_vec);
    return out;
}

// Unsharp mask: input + 1.5 (input - 5x5 Gaussian), clamped to 12 bits.
Func unsharp(Func in) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func gx("gx"), gy("gy"), out("out");
    gx(x, y) = in(x - 2, y) + in(x - 1, y) * 4 + in(x, y) * 6 + in(x + 1, y) * 4 + in(x + 2, y);
    Expr sum = cast<uint32_t>(gx(x, y - 2)) + cast<uint32_t>(gx(x, y - 1)) * 4 + cast<uint32_t>(gx(x, y)) * 6 +
               cast<uint32_t>(gx(x, y + 1)) * 4 + cast<uint32_t>(gx(x, y + 2));
    gy(x, y) = cast<int32_t>((sum + 128) >> 8);
    Expr v = cast<int32_t>(in(x, y));
    Expr sharp = v + ((v - gy(x, y)) * 3) / 2;
    out(x, y) = cast<uint16_t>(clamp(sharp, 0, 4095));
    out.split(y, yo, yi, 32).parallel(yo).vectorize(x, g_vec);
    gx.compute_at(out, yo).vectorize(x, g_vec);
    return out;
}

// Camera-pipe-like chain on a 10-bit GRBG Bayer mosaic: bilinear demosaic,
// a 3x3 color correction matrix (fixed point, 1/256) and a tone curve
// through a 1024-entry table; planar 8-bit RGB out.
Func camera(Func raw) {
    Var x("x"), y("y"), c("c"), yo("yo"), yi("yi");
    // The four half-resolution planes of the mosaic.
    Func gr("gr"), r("r"), b("b"), gb("gb");
    gr(x, y) = raw(2 * x, 2 * y);
    r(x, y) = raw(2 * x + 1, 2 * y);
    b(x, y) = raw(2 * x, 2 * y + 1);
    gb(x, y) = raw(2 * x + 1, 2 * y + 1);
    auto avg2 = [](Expr a, Expr b2) { return cast<uint16_t>((cast<uint32_t>(a) + b2 + 1) / 2); };
    auto avg4 = [](Expr a, Expr b2, Expr c2, Expr d) {
        return cast<uint16_t>((cast<uint32_t>(a) + b2 + c2 + d + 2) / 4);
    };
    // The missing colors at each of the four positions of a 2x2 quad, over
    // half-resolution coordinates.
    Func gr_r("gr_r"), gr_b("gr_b"), r_g("r_g"), r_b("r_b"), b_g("b_g"), b_r("b_r"), gb_r("gb_r"), gb_b("gb_b");
    gr_r(x, y) = avg2(r(x - 1, y), r(x, y));
    gr_b(x, y) = avg2(b(x, y - 1), b(x, y));
    r_g(x, y) = avg4(gr(x, y), gr(x + 1, y), gb(x, y - 1), gb(x, y));
    r_b(x, y) = avg4(b(x, y - 1), b(x + 1, y - 1), b(x, y), b(x + 1, y));
    b_g(x, y) = avg4(gr(x, y), gr(x, y + 1), gb(x - 1, y), gb(x, y));
    b_r(x, y) = avg4(r(x - 1, y), r(x, y), r(x - 1, y + 1), r(x, y + 1));
    gb_r(x, y) = avg2(r(x, y), r(x, y + 1));
    gb_b(x, y) = avg2(b(x, y), b(x + 1, y));
    // Full resolution: pick by the pixel's position in its quad.
    Expr qx = x / 2, qy = y / 2;
    Expr even_x = x % 2 == 0, even_y = y % 2 == 0;
    Expr red = select(even_y, select(even_x, gr_r(qx, qy), r(qx, qy)), select(even_x, b_r(qx, qy), gb_r(qx, qy)));
    Expr green = select(even_y, select(even_x, gr(qx, qy), r_g(qx, qy)), select(even_x, b_g(qx, qy), gb(qx, qy)));
    Expr blue = select(even_y, select(even_x, gr_b(qx, qy), r_b(qx, qy)), select(even_x, b(qx, qy), gb_b(qx, qy)));
    Func demosaic("demosaic");
    demosaic(x, y, c) = select(c == 0, red, select(c == 1, green, blue));

    Func corrected("corrected");
    Expr R = cast<int32_t>(demosaic(x, y, 0)), G = cast<int32_t>(demosaic(x, y, 1)),
         B = cast<int32_t>(demosaic(x, y, 2));
    Expr cr = 410 * R - 120 * G - 34 * B;
    Expr cg = -52 * R + 360 * G - 52 * B;
    Expr cb = -20 * R - 100 * G + 376 * B;
    corrected(x, y, c) = clamp((select(c == 0, cr, select(c == 1, cg, cb)) + 128) >> 8, 0, 1023);

    Func curve("curve");
    Var i("i");
    curve(i) = cast<uint8_t>((i * (2048 - i)) >> 12);

    Func out("out");
    out(x, y, c) = curve(corrected(x, y, c));
    out.bound(c, 0, 3).reorder(x, c, y).unroll(c).split(y, yo, yi, 32).parallel(yo).vectorize(x, g_vec);
    demosaic.compute_at(out, yi).bound(c, 0, 3).reorder(c, x, y).unroll(c).vectorize(x, g_vec);
    curve.compute_root();
    return out;
}

struct Spec {
    const char *name;
    std::function<Func(Func)> algorithm;
    Edge edge;
    bool padded;
    int bits;     // input bits
    int channels; // output channels
    bool u8_out;  // uint8 output (else uint16)
};

std::vector<Spec> specs() {
    return {
        {"copy", copy_pipeline, Edge::None, false, 12, 1, false},
        {"box3_repeat_edge", box3, Edge::RepeatEdge, false, 12, 1, false},
        {"box3_padded", box3, Edge::RepeatEdge, true, 12, 1, false},
        {"gauss5_mirror_interior", gauss5, Edge::MirrorInterior, false, 12, 1, false},
        {"gauss5_padded", gauss5, Edge::MirrorInterior, true, 12, 1, false},
        {"sobel_clamp_likely", sobel, Edge::ClampLikely, false, 12, 1, false},
        {"sobel_padded", sobel, Edge::ClampLikely, true, 12, 1, false},
        {"linebuf_repeat_edge", linebuf, Edge::RepeatEdge, false, 12, 1, false},
        {"linebuf_padded", linebuf, Edge::RepeatEdge, true, 12, 1, false},
        {"linebuf_strips_repeat_edge", linebuf_strips, Edge::RepeatEdge, false, 12, 1, false},
        {"linebuf_strips_padded", linebuf_strips, Edge::RepeatEdge, true, 12, 1, false},
        {"unsharp_repeat_edge", unsharp, Edge::RepeatEdge, false, 12, 1, false},
        {"unsharp_padded", unsharp, Edge::RepeatEdge, true, 12, 1, false},
        {"camera_repeat_edge", camera, Edge::RepeatEdge, false, 10, 3, true},
        {"camera_padded", camera, Edge::RepeatEdge, true, 10, 3, true},
    };
}

struct Timing {
    double compile_s = 0, run_s = 1e30, cpu_s = 1e30;
    int runs = 0;
};

template <typename T> Timing time_it(Func &out, Runtime::Buffer<T> &dst_rt, int runs, double budget_s) {
    Timing t;
    double t0 = now_s();
    out.compile_jit();
    t.compile_s = now_s() - t0;
    Buffer<T> dst{Runtime::Buffer<T>(dst_rt)}; // shares dst_rt's elements
    out.realize(dst);                          // warm-up: thread pool start, first touch of memory
    double start = now_s();
    while (t.runs < runs && !(t.runs >= 3 && now_s() - start > budget_s)) {
        double s = now_s(), c = cpu_now_s();
        out.realize(dst);
        t.cpu_s = std::min(t.cpu_s, cpu_now_s() - c);
        t.run_s = std::min(t.run_s, now_s() - s);
        t.runs++;
    }
    return t;
}

template <typename T> void write_raw(const Runtime::Buffer<T> &b, const std::string &path) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        std::exit(1);
    }
    for (int c = 0; c < b.channels(); c++) {
        for (int y = 0; y < b.height(); y++) {
            for (int x = 0; x < b.width(); x++)
                std::fwrite(&b(x, y, c), sizeof(T), 1, f);
        }
    }
    std::fclose(f);
}

// std::memcpy of the input's bytes into another buffer: the copy-bandwidth
// reference (one thread).
Timing time_memcpy(int runs, double budget_s) {
    std::vector<uint16_t> a(size_t(W) * H, 1), b(size_t(W) * H, 0);
    std::memcpy(b.data(), a.data(), a.size() * sizeof(uint16_t));
    Timing t;
    double start = now_s();
    while (t.runs < runs && !(t.runs >= 3 && now_s() - start > budget_s)) {
        double s = now_s(), c = cpu_now_s();
        std::memcpy(b.data(), a.data(), a.size() * sizeof(uint16_t));
        t.cpu_s = std::min(t.cpu_s, cpu_now_s() - c);
        t.run_s = std::min(t.run_s, now_s() - s);
        t.runs++;
    }
    if (b[12345] != 1)
        std::exit(3);
    return t;
}

void print_json(const char *name, const Timing &t, int in_bytes, int out_bytes) {
    const char *threads = std::getenv("HL_NUM_THREADS");
    std::printf("{\"pipeline\": \"%s\", \"compile_s\": %.6f, \"run_s\": %.9f, \"cpu_s\": %.9f, \"runs\": %d, "
                "\"vec\": %d, \"threads\": \"%s\", \"in_bytes\": %d, \"out_bytes\": %d, \"target\": \"%s\"}\n",
                name, t.compile_s, t.run_s, t.cpu_s, t.runs, g_vec, threads ? threads : "default", in_bytes, out_bytes,
                get_jit_target_from_environment().to_string().c_str());
}

struct Dumps {
    std::string stmt, assembly;
};

int run_pipeline(const Spec &s, int runs, double budget_s, const std::string &out_path, const Dumps &dumps) {
    Runtime::Buffer<uint16_t> in_rt = make_input(s.bits, s.padded ? s.edge : Edge::None);
    ImageParam input(UInt(16), 2, "input");
    input.set(Buffer<uint16_t>{Runtime::Buffer<uint16_t>(in_rt)}); // shares in_rt's elements
    Func out = s.algorithm(source(input, s.edge, s.padded));
    if (!dumps.stmt.empty())
        out.compile_to_lowered_stmt(dumps.stmt, {input});
    if (!dumps.assembly.empty())
        out.compile_to_assembly(dumps.assembly, {input}, s.name);
    int in_bytes = W * H * 2;
    Timing t;
    if (s.u8_out) {
        Runtime::Buffer<uint8_t> dst(W, H, s.channels);
        t = time_it(out, dst, runs, budget_s);
        if (!out_path.empty())
            write_raw(dst, out_path);
        print_json(s.name, t, in_bytes, W * H * s.channels);
    } else {
        Runtime::Buffer<uint16_t> dst(W, H);
        t = time_it(out, dst, runs, budget_s);
        if (!out_path.empty())
            write_raw(dst, out_path);
        print_json(s.name, t, in_bytes, W * H * 2);
    }
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    int runs = 30;
    double budget_s = 5.0;
    std::string name, out_path;
    Dumps dumps;
    bool list = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--list")) {
            list = true;
        } else if (!std::strcmp(argv[i], "--pipeline") && i + 1 < argc) {
            name = argv[++i];
        } else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--budget") && i + 1 < argc) {
            budget_s = std::atof(argv[++i]);
        } else if (!std::strcmp(argv[i], "--vec") && i + 1 < argc) {
            g_vec = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--out") && i + 1 < argc) {
            out_path = argv[++i];
        } else if (!std::strcmp(argv[i], "--stmt") && i + 1 < argc) {
            dumps.stmt = argv[++i];
        } else if (!std::strcmp(argv[i], "--asm") && i + 1 < argc) {
            dumps.assembly = argv[++i];
        } else {
            std::fprintf(stderr,
                         "usage: %s --list | --pipeline NAME [--runs N] [--budget SECONDS] [--vec N] [--out FILE] "
                         "[--stmt FILE] [--asm FILE]\n",
                         argv[0]);
            return 2;
        }
    }
    if (list) {
        std::printf("memcpy\n");
        for (const Spec &s : specs())
            std::printf("%s\n", s.name);
        return 0;
    }
    if (name == "memcpy") {
        print_json("memcpy", time_memcpy(runs, budget_s), W * H * 2, W * H * 2);
        return 0;
    }
    for (const Spec &s : specs()) {
        if (name == s.name) {
            try {
                return run_pipeline(s, runs, budget_s, out_path, dumps);
            } catch (const std::exception &e) {
                std::fprintf(stderr, "%s: %s\n", s.name, e.what());
                return 1;
            }
        }
    }
    std::fprintf(stderr, "unknown pipeline '%s' (--list lists them)\n", name.c_str());
    return 2;
}
