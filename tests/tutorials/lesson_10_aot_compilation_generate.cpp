// Lesson 10, part 1: ahead-of-time compilation. Instead of JIT-compiling,
// the pipeline is compiled once into a static library and a C header; a
// separate program (lesson_10_aot_compilation_run.cpp) links the library
// and calls it without needing the compiler. The pipeline's inputs are an
// ImageParam (a buffer given at run time) and a Param (a scalar), and its
// argument order in the generated function is the order given here.
#include <cstdio>
#include <string>

#include "Halide.h"

using namespace Halide;

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s output_prefix\n", argv[0]);
        return 1;
    }
    Func brighter("brighter");
    Var x("x"), y("y");
    Param<uint8_t> offset("offset");
    ImageParam input(type_of<uint8_t>(), 2, "input");

    // Brighten by offset, saturating at 255.
    brighter(x, y) = cast<uint8_t>(min(cast<uint16_t>(input(x, y)) + offset, 255));
    brighter.vectorize(x, 16).parallel(y);

    // Writes <prefix>.a and <prefix>.h with a function named
    // lesson_10_brighter(input, offset, output).
    brighter.compile_to_static_library(argv[1], {input, offset}, "lesson_10_brighter");
    std::printf("compiled %s.a and %s.h\n", argv[1], argv[1]);
    return 0;
}
