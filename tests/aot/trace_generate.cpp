// Ahead-of-time compiles the traced test kernel into the directory given on
// the command line: f(x, y) = x + y (float, computed at root), traced(x, y) =
// 2 f(x, y) + 1, built for the host with the trace_all feature (every Func's
// loads, stores and realizations call halide_trace). aot_trace_test.c runs it.
#include <cstdio>
#include <string>

#include "Halide.h"

using namespace Halide;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    try {
        Var x("x"), y("y");
        Func f("f"), g("g");
        f(x, y) = cast<float>(x + y);
        g(x, y) = f(x, y) * 2 + 1;
        f.compute_root();
        Target t = get_host_target()
                       .with_feature(Target::TraceLoads)
                       .with_feature(Target::TraceStores)
                       .with_feature(Target::TraceRealizations);
        g.compile_to_static_library(std::string(argv[1]) + "/traced", {}, "traced", t);
    } catch (const Error &e) {
        std::fprintf(stderr, "trace_generate: %s\n", e.what());
        return 1;
    }
    return 0;
}
