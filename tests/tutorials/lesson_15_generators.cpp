// Lesson 15: Generators. A pipeline written as a class derived from
// Halide::Generator, with its inputs (Input<>), outputs (Output<>) and
// compile-time parameters (GeneratorParam<>) declared as members, is
// compiled by a generator executable (this file linked with
// libhalide_gengen) run from the build: `-g name -o dir -e
// static_library,h target=host param=value...`. tests/tutorials/meson.build
// runs it several times with different GeneratorParams, and
// lesson_15_generators_run.cpp calls each kernel.
#include <algorithm>

#include "Halide.h"

using namespace Halide;

namespace {

// The simplest generator: brighten an 8-bit image by an offset.
class BrightenByOffset : public Generator<BrightenByOffset> {
public:
    Input<uint8_t> offset{"offset"};
    Input<Buffer<uint8_t, 2>> input{"input"};
    Output<Buffer<uint8_t, 2>> brighter{"brighter"};

    void generate() {
        brighter(x, y) = saturating_cast<uint8_t>(cast<uint16_t>(input(x, y)) + offset);
        brighter.vectorize(x, 16).parallel(y);
    }

private:
    Var x{"x"}, y{"y"};
};

enum class Rotation { None, Clockwise, CounterClockwise };

// GeneratorParams change the code generated: whether to use threads, a
// scale factor baked in as a constant, a rotation (an enum with names for
// the command line), and the output's element type.
class ScaleAndRotate : public Generator<ScaleAndRotate> {
public:
    GeneratorParam<bool> parallel{"parallel", true};
    GeneratorParam<float> scale{"scale", 1.0f};
    GeneratorParam<Rotation> rotation{
        "rotation",
        Rotation::None,
        {{"none", Rotation::None}, {"cw", Rotation::Clockwise}, {"ccw", Rotation::CounterClockwise}}};
    GeneratorParam<Type> output_type{"output_type", UInt(8)};

    Input<Buffer<uint8_t, 3>> input{"input"};
    Output<Buffer<void, 3>> output{"output"};

    void generate() {
        Func rotated("rotated");
        switch ((Rotation)rotation) {
        case Rotation::None: rotated(x, y, c) = input(x, y, c); break;
        case Rotation::Clockwise: rotated(x, y, c) = input(y, input.height() - x - 1, c); break;
        case Rotation::CounterClockwise: rotated(x, y, c) = input(input.width() - y - 1, x, c); break;
        }
        Func scaled("scaled");
        scaled(x, y, c) = rotated(x, y, c) * scale;
        output(x, y, c) = saturating_cast(output_type, scaled(x, y, c));

        // The target's natural width (64 bytes of uint8 with AVX-512),
        // but no wider than the 32-wide tiles below.
        const int vector_size = std::min(natural_vector_size(output_type), 32);
        if (rotation == Rotation::None) {
            output.vectorize(x, vector_size);
            if (parallel)
                output.parallel(y);
        } else {
            // Rotating reads the input down its columns: compute the output
            // in tiles so that the reads stay in cache.
            Var xo("xo"), yo("yo"), xi("xi"), yi("yi");
            output.tile(x, y, xo, yo, xi, yi, 32, 32).vectorize(xi, vector_size);
            if (parallel)
                output.parallel(yo);
        }
    }

private:
    Var x{"x"}, y{"y"}, c{"c"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(BrightenByOffset, lesson_15_brighten)
HALIDE_REGISTER_GENERATOR(ScaleAndRotate, lesson_15_scale_rotate)
