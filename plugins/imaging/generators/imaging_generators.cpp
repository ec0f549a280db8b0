// The plugin's kernels, as Halide generators. meson.build compiles them
// ahead of time with the Halide compiler into lib<kernel>.so (no_runtime:
// halide.runtime provides the runtime, so every kernel shares its threads).
// Vectors guard their tails (GuardWithIf), so outputs of any size work,
// even narrower than one vector; rows run in parallel, one task each (a
// split of y would need a guarded tail too, and a guard on y lands inside
// the vectorized loop: loop partitioning does not split GuardWithIf tails yet).
#include "Halide.h"

using namespace Halide;

namespace {

// Photographic negative of an 8-bit image.
class Invert : public Halide::Generator<Invert> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};

    void generate() {
        output(x, y) = cast<uint8_t>(255 - input(x, y));
        output.vectorize(x, natural_vector_size<uint8_t>(), TailStrategy::GuardWithIf).parallel(y);
    }

private:
    Var x{"x"}, y{"y"};
};

// 3x3 box average without boundary handling: the input must extend one
// pixel past the output on every side (the bounds query says where).
class BoxBlur : public Halide::Generator<BoxBlur> {
public:
    Input<Buffer<float>> input{"input", 2};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        Func rows("rows");
        rows(x, y) = input(x - 1, y) + input(x, y) + input(x + 1, y);
        output(x, y) = (rows(x, y - 1) + rows(x, y) + rows(x, y + 1)) / 9.0f;
        const int vec = natural_vector_size<float>();
        output.parallel(y).vectorize(x, vec, TailStrategy::GuardWithIf);
        rows.compute_root().parallel(y).vectorize(x, vec, TailStrategy::GuardWithIf);
    }

private:
    Var x{"x"}, y{"y"};
};

// A linear ramp over the output's own coordinates.
class Gradient : public Halide::Generator<Gradient> {
public:
    Input<float> ax{"ax", 1.0f};
    Input<float> ay{"ay", 0.0f, -1000.0f, 1000.0f};
    Output<Buffer<float>> output{"output", 2};

    void generate() {
        output(x, y) = ax * cast<float>(x) + ay * cast<float>(y);
        output.vectorize(x, natural_vector_size<float>(), TailStrategy::GuardWithIf).parallel(y);
    }

private:
    Var x{"x"}, y{"y"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(Invert, invert)
HALIDE_REGISTER_GENERATOR(BoxBlur, box_blur)
HALIDE_REGISTER_GENERATOR(Gradient, gradient)
