// Generator A of the C++ stub tests: registered with a stub name, so the
// driver writes stub_scale.stub.h (-e cpp_stub) declaring
// stubtest::ScaleStub. stub_user_generator.cpp calls that stub inside its
// own generate(); stub_jit_test.cpp calls it from plain C++ (JIT). Every
// GeneratorParam changes the output, so passing each one is checked:
//
//   v(x, y)       = input(x, y), or input(y, x) when flip
//   combined      = cast(work_type, (mode add: v + bias; mul: v * bias) + offset + sum(terms))
//   output(x, y)  = int32(float(int32(combined) + len(label)) * scale * factor)
//   doubled(x, y) = output(x, y) * 2
#include "Halide.h"

using namespace Halide;

namespace {

enum class Mode { Add, Mul };

class StubScale : public Generator<StubScale> {
public:
    GeneratorParam<int> offset{"offset", 3};
    GeneratorParam<float> factor{"factor", 0.5f};
    GeneratorParam<Mode> mode{"mode", Mode::Add, {{"add", Mode::Add}, {"mul", Mode::Mul}}};
    GeneratorParam<Type> work_type{"work_type", Int(32)};
    GeneratorParam<bool> flip{"flip", false};
    GeneratorParam<std::string> label{"label", "a \"quoted\" label"};
    GeneratorParam<LoopLevel> level{"level", LoopLevel::inlined()};

    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<Func> bias{"bias", Int(32), 2};
    Input<float> scale{"scale", 1.0f};
    Input<int32_t[]> terms{"terms"};

    Output<Func> output{"output", Int(32), 2};
    Output<Buffer<int32_t, 2>> doubled{"doubled"};

    void generate() {
        Expr v = cast<int32_t>(flip ? input(y, x) : input(x, y));
        Expr sum = offset.value();
        for (const Expr &t : terms) {
            sum = sum + t;
        }
        Expr mixed = mode == Mode::Add ? v + bias(x, y) : v * bias(x, y);
        combined(x, y) = cast(work_type, mixed + sum);
        Expr extra = (int)label.value().size();
        output(x, y) = cast<int32_t>(cast<float>(cast<int32_t>(combined(x, y)) + extra) * scale * factor.value());
        doubled(x, y) = output(x, y) * 2;
    }

    void schedule() { combined.compute_at(level); }

private:
    Var x{"x"}, y{"y"};
    Func combined{"combined"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(StubScale, stub_scale, stubtest::ScaleStub)
