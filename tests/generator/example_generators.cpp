// Generators written as for upstream Halide, compiled into a generator
// executable with libhalide_gengen (tests/generator/meson.build runs it).
#include "Halide.h"

using namespace Halide;

namespace {

enum class Rounding { Floor, Nearest };

class Brighten : public Halide::Generator<Brighten> {
public:
    GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};
    GeneratorParam<bool> parallel{"parallel", true};
    GeneratorParam<float> gain{"gain", 1.0f};
    GeneratorParam<Type> output_type{"output_type", UInt(8)};
    GeneratorParam<Rounding> rounding{
        "rounding", Rounding::Floor, {{"floor", Rounding::Floor}, {"nearest", Rounding::Nearest}}};

    Input<Buffer<uint8_t>> input{"input", 2};
    Input<float> scale{"scale", 1.5f, 0.0f, 10.0f};
    Input<int32_t> offset{"offset", 0};
    Output<Buffer<>> output{"output", 2};

    void generate() {
        Expr value = cast<float>(input(x, y)) * scale * gain + cast<float>(offset);
        if (rounding == Rounding::Nearest) {
            value = round(value);
        }
        output(x, y) = saturating_cast(output_type, value);
    }

    void schedule() {
        output.vectorize(x, vector_width);
        if (parallel) {
            output.parallel(y);
        }
    }

private:
    Var x{"x"}, y{"y"};
};

// Element types and dimensions left open: set by a.type, a.dim, b.type, b.dim.
class AddBuffers : public Halide::Generator<AddBuffers> {
public:
    Input<Buffer<>> a{"a"};
    Input<Buffer<>> b{"b"};
    Output<Buffer<>> sum{"sum"};

    void generate() {
        std::vector<Var> vars(a.dimensions());
        std::vector<Expr> at(vars.begin(), vars.end());
        sum(vars) = a(at) + b(at);
    }
};

} // namespace

HALIDE_REGISTER_GENERATOR(Brighten, brighten)
HALIDE_REGISTER_GENERATOR_ALIAS(brighten_float, brighten, {{"output_type", "float32"}, {"parallel", "false"}})
HALIDE_REGISTER_GENERATOR(AddBuffers, add_buffers)
