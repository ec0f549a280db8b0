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
        scale.set_estimate(2.0f);
        Expr value = cast<float>(input(x, y)) * scale * gain + cast<float>(offset);
        if (rounding == Rounding::Nearest) {
            value = round(value);
        }
        output(x, y) = saturating_cast(output_type, value);
        add_requirement(offset > -256, "offset must be above -256, got", offset);
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

// Its values say which target it was built for (3: avx512_skylake, 2: avx2,
// 1: otherwise), so a multitarget build shows which variant ran.
class WhichTarget : public Halide::Generator<WhichTarget> {
public:
    Input<Buffer<int32_t>> input{"input", 1};
    Output<Buffer<int32_t>> output{"output", 1};

    void generate() {
        Target t = get_target();
        int level = t.has_feature(Target::AVX512_Skylake) ? 3 : (t.has_feature(Target::AVX2) ? 2 : 1);
        output(x) = input(x) * 10 + level;
        output.vectorize(x, natural_vector_size<int32_t>());
    }

private:
    Var x{"x"};
};

// A Tuple output: one buffer per value, named negative.0 and negative.1.
class Negative : public Halide::Generator<Negative> {
public:
    Input<Buffer<uint8_t>> input{"input", 2};
    Output<Buffer<>> negative{"negative", {UInt(8), Float(32)}, 2};

    void generate() {
        negative(x, y) = Tuple(cast<uint8_t>(255 - input(x, y)), cast<float>(input(x, y)) / 255.0f);
        negative.vectorize(x, 8, TailStrategy::GuardWithIf);
    }

private:
    Var x{"x"}, y{"y"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(Brighten, brighten)
HALIDE_REGISTER_GENERATOR(Negative, negative)
HALIDE_REGISTER_GENERATOR(WhichTarget, which_target)
HALIDE_REGISTER_GENERATOR_ALIAS(brighten_float, brighten, {{"output_type", "float32"}, {"parallel", "false"}})
HALIDE_REGISTER_GENERATOR(AddBuffers, add_buffers)
