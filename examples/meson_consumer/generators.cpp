#include "Halide.h"

using namespace Halide;

class Invert : public Halide::Generator<Invert> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<uint8_t>> output{"output", 2};

    void generate() {
        output(x, y) = cast<uint8_t>(255 - input(x, y));
        output.vectorize(x, 16);
    }

private:
    Var x{"x"}, y{"y"};
};

HALIDE_REGISTER_GENERATOR(Invert, invert)
