// Ahead-of-time compiles the test kernels (every emit kind) into the
// directory given on the command line; meson runs it at build time and the
// C and C++ programs of tests/aot link what it writes.
#include <cstdio>
#include <string>

#include "Halide.h"

using namespace Halide;
using namespace Halide::ConciseCasts;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    // The target upstream_generate.py uses too, for the side-by-side kernels.
    const Target compare_target("x86-64-linux-sse41-no_runtime");
    const std::string dir = std::string(argv[1]) + "/";
    try {
        Target host = get_host_target();
        Var x("x"), y("y"), xi("xi"), yi("yi");

        // brighter: scalar params (one with a range), vectorized and parallel.
        ImageParam input(UInt(8), 2, "input");
        Param<float> scale("scale");
        Param<int32_t> offset("offset");
        scale.set_range(0.0f, 10.0f);
        Func brighter("brighter");
        brighter(x, y) = u8_sat(cast<float>(input(x, y)) * scale + offset);
        brighter.vectorize(x, 16).parallel(y);
        input.set_estimates({{0, 1024}, {0, 768}});
        brighter.set_estimates({{0, 1024}, {0, 768}});
        brighter.compile_to({{OutputFileType::static_library, dir + "brighter.a"},
                             {OutputFileType::c_header, dir + "brighter.h"},
                             {OutputFileType::object, dir + "brighter.o"},
                             {OutputFileType::assembly, dir + "brighter.s"},
                             {OutputFileType::llvm_assembly, dir + "brighter.ll"},
                             {OutputFileType::bitcode, dir + "brighter.bc"},
                             {OutputFileType::stmt, dir + "brighter.stmt"},
                             {OutputFileType::python_extension, dir + "brighter.py.cpp"}},
                            {input, scale, offset}, "brighter", host);
        brighter.compile_to_static_library(dir + "brighter_ours", {input, scale, offset}, "brighter_ours",
                                           compare_target);
        // The same pipeline for AArch64 (only the object's header is checked).
        brighter.compile_to_object(dir + "brighter_arm64.o", {input, scale, offset}, "brighter",
                                   Target("arm-64-linux-no_runtime"));
        // Shared libraries linked by the compiler itself: one with the
        // runtime embedded, one without (it needs a runtime loaded first).
        brighter.compile_to({{OutputFileType::shared_library, dir + "libbrighter_aot.so"}}, {input, scale, offset},
                            "brighter", host);
        brighter.compile_to({{OutputFileType::shared_library, dir + "libbrighter_aot_nort.so"}}, {input, scale, offset},
                            "brighter", host.with_feature(Target::NoRuntime));
        // A no_runtime kernel and the runtime on its own.
        brighter.compile_to_static_library(dir + "brighter_nort", {input, scale, offset}, "brighter_nort",
                                           host.with_feature(Target::NoRuntime));
        compile_standalone_runtime(dir + "standalone_runtime.a", host);
        // Explicit x86 feature sets: the instructions follow the target string.
        brighter.compile_to_assembly(dir + "brighter_sse41.s", {input, scale, offset}, "brighter",
                                     Target("x86-64-linux-sse41-no_runtime"));
        brighter.compile_to_assembly(dir + "brighter_avx2.s", {input, scale, offset}, "brighter",
                                     Target("x86-64-linux-avx2-fma-no_runtime"));
        brighter.compile_to_assembly(dir + "brighter_avx512.s", {input, scale, offset}, "brighter",
                                     Target("x86-64-linux-avx512_skylake-no_runtime"));
        // no_bounds_query (a buffer without memory is an error) and debug.
        brighter.compile_to_static_library(dir + "brighter_nbq", {input, scale, offset}, "brighter_nbq",
                                           host.with_feature(Target::NoBoundsQuery));
        brighter.compile_to_static_library(dir + "brighter_dbg", {input, scale, offset}, "brighter_dbg",
                                           host.with_feature(Target::Debug));
        // No checks at all with no_asserts.
        brighter.compile_to_lowered_stmt(dir + "brighter_no_asserts.stmt", {input, scale, offset},
                                         host.with_feature(Target::NoAsserts));

        // blur: a tiled two-stage stencil, its producer computed per tile.
        ImageParam image(UInt(16), 2, "image");
        Func blur_x("blur_x"), blur_y("blur_y");
        blur_x(x, y) = (image(x - 1, y) + image(x, y) + image(x + 1, y)) / 3;
        blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
        blur_y.tile(x, y, xi, yi, 32, 8).vectorize(xi, 8).parallel(y);
        blur_x.compute_at(blur_y, x).vectorize(x, 8);
        blur_y.compile_to_static_library(dir + "blur", {image}, "blur", host);
        blur_y.compile_to_static_library(dir + "blur_ours", {image}, "blur_ours", compare_target);

        // offset_uc: user_context is the first argument.
        ImageParam values(Int(32), 1, "values");
        Param<int32_t> delta("delta");
        Func shifted("shifted");
        shifted(x) = values(x) + delta;
        shifted.compile_to_static_library(dir + "offset_uc", {values, delta}, "offset_uc",
                                          host.with_feature(Target::UserContext));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "aot_generate: %s\n", e.what());
        return 1;
    }
    return 0;
}
