// What the image-pipeline benchmarks (benchmarks/bilateral_grid,
// benchmarks/local_laplacian) do once their pipeline is built: write the
// lowered statement, assembly or a static library on request, JIT-compile,
// realize once (warm-up), time up to --runs realizations into a
// preallocated output, write the output and print the JSON line
// benchmarks/common/harness.py reads. Uses only API present in ours,
// Halide 14 and Halide 21.

#pragma once

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "Halide.h"
#include "bench_timing.h"

namespace bench {

// --stmt FILE, --asm FILE, --library PREFIX, --runs N, --budget SECONDS and
// --out FILE of `o` applied to `out`, a pipeline of `args` whose output is
// `out_rt` (width x height x ...); 0, or 1 when the output cannot be written.
template <typename T>
int time_pipeline(Halide::Func out, const std::vector<Halide::Argument> &args, Halide::Runtime::Buffer<T> &out_rt,
                  const Options &o, const std::string &name) {
    if (!o.str("stmt").empty()) {
        out.compile_to_lowered_stmt(o.str("stmt"), args);
    }
    if (!o.str("asm").empty()) {
        out.compile_to_assembly(o.str("asm"), args, name);
    }
    if (!o.str("library").empty()) {
        out.compile_to_static_library(o.str("library"), args, name);
    }
    double t0 = now_s();
    out.compile_jit();
    double compile_s = now_s() - t0;
    Halide::Buffer<T> dst{Halide::Runtime::Buffer<T>(out_rt)};
    out.realize(dst); // warm-up
    Best best = time_runs([&] { out.realize(dst); }, o.integer("runs", 10), o.real("budget", 10.0));
    if (!o.str("out").empty() && !write_file(o.str("out"), out_rt.data(), out_rt.size_in_bytes())) {
        return 1;
    }
    Halide::Target target = Halide::get_jit_target_from_environment();
    std::printf("{\"width\": %d, \"height\": %d, \"compile_s\": %.6f, \"run_s\": %.9f, \"cpu_s\": %.9f, \"runs\": %d, "
                "\"threads\": \"%s\", \"target\": \"%s\"}\n",
                out_rt.dim(0).extent(), out_rt.dim(1).extent(), compile_s, best.wall_s, best.cpu_s, best.runs,
                threads_env(), target.to_string().c_str());
    return 0;
}

// main() of a benchmark: parses the `known` options and runs `body` on
// them; exit status 2 on bad options, 1 (and the message) on an exception.
template <typename F>
int guarded_main(int argc, char **argv, const std::vector<std::string> &known, const char *name, F body) {
    Options o;
    if (!o.parse(argc, argv, known)) {
        return 2;
    }
    try {
        return body(o);
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", name, e.what());
        return 1;
    }
}

} // namespace bench
