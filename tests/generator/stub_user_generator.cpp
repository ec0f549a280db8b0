// Generator B of the C++ stub tests: it includes generator A's stub
// (stub_scale.stub.h, written by the driver with -e cpp_stub) and builds A
// twice inside its own generate(), as upstream documents stubs:
//
//   output   = A(input, bias, gain, terms {1, 2}; offset 5, factor 0.25,
//              mode mul, work_type uint8, flip, label "xy", level root).output + 1
//   doubled  = the same A's Output<Buffer> doubled, assigned to B's Output
//   embedded = A(a 4x4 Buffer compiled in, bias, 2.0f, terms {7}; the
//              stub's default GeneratorParams).doubled
//
// with bias(x, y) = x - y. stub_aot_test.cpp runs the kernel the driver
// builds from it and compares with a plain C++ computation.
#include "Halide.h"
#include "stub_scale.stub.h"

using namespace Halide;

namespace {

class StubUser : public Generator<StubUser> {
public:
    Input<Buffer<uint8_t, 2>> input{"input"};
    Input<float> gain{"gain"};
    Output<Buffer<int32_t, 2>> output{"output"};
    Output<Buffer<int32_t, 2>> doubled{"doubled"};
    Output<Buffer<int32_t, 2>> embedded{"embedded"};

    void generate() {
        Func bias{"bias"};
        bias(x, y) = x - y;

        // The fields by name, as upstream's stub user test does.
        stubtest::ScaleStub::Inputs inputs;
        inputs.input = input;
        inputs.bias = bias;
        inputs.scale = gain;
        inputs.terms = {Expr(1), Expr(2)};
        stubtest::ScaleStub::GeneratorParams params;
        params.offset = 5;
        params.factor = 0.25f;
        params.mode = stubtest::Enum_mode::mul;
        params.work_type = UInt(8);
        params.flip = true;
        params.label = "xy";
        params.level = LoopLevel::root();
        stubtest::ScaleStub::Outputs a = stubtest::ScaleStub::generate(context(), inputs, params);
        output(x, y) = a.output(x, y) + 1;
        doubled = a.doubled;

        // Aggregate initialization, a Buffer compiled in, default GeneratorParams.
        Buffer<uint8_t, 2> table(4, 4);
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 4; i++) {
                table(i, j) = (uint8_t)(i * 10 + j);
            }
        }
        embedded = stubtest::ScaleStub::generate(this, {table, bias, Expr(2.0f), {Expr(7)}}).doubled;
    }

    void schedule() { output.vectorize(x, 4); }

private:
    Var x{"x"}, y{"y"};
};

} // namespace

HALIDE_REGISTER_GENERATOR(StubUser, stub_user)
