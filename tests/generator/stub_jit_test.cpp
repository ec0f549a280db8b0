// Generator A's C++ stub (stub_scale.stub.h, written by the driver with -e
// cpp_stub) included on its own: its shape is upstream's (the structs
// Inputs, GeneratorParams and Outputs, the enum of an enum GeneratorParam,
// three generate() overloads), its GeneratorParams default to the values
// stub_generators.cpp declares, and generate() with a Target builds A from
// plain C++: the outputs realized by the JIT are compared with the formula
// of stub_generators.cpp computed in C++. Then the errors of binding.
#include <gtest/gtest.h>

#include <type_traits>

#include "../libhalide/error_message.h"
#include "Halide.h"
#include "stub_scale.stub.h"

using namespace Halide;
using stubtest::ScaleStub;

namespace {

// The members upstream's stub declares for A's Inputs and Outputs.
static_assert(std::is_same<decltype(ScaleStub::Inputs::input), Internal::StubInputBuffer<uint8_t>>::value);
static_assert(std::is_same<decltype(ScaleStub::Inputs::bias), Func>::value);
static_assert(std::is_same<decltype(ScaleStub::Inputs::scale), Expr>::value);
static_assert(std::is_same<decltype(ScaleStub::Inputs::terms), std::vector<Expr>>::value);
static_assert(std::is_same<decltype(ScaleStub::Outputs::output), Func>::value);
static_assert(std::is_same<decltype(ScaleStub::Outputs::doubled), Internal::StubOutputBuffer<int32_t>>::value);
static_assert(std::is_same<decltype(ScaleStub::Outputs::target), Target>::value);
static_assert(std::is_same<decltype(ScaleStub::GeneratorParams::offset), int32_t>::value);
static_assert(std::is_same<decltype(ScaleStub::GeneratorParams::mode), stubtest::Enum_mode>::value);
static_assert(!std::is_default_constructible<ScaleStub>::value);

TEST(Stub, GeneratorParamsDefaultToTheDeclaredValues) {
    ScaleStub::GeneratorParams p;
    EXPECT_EQ(p.offset, 3);
    EXPECT_EQ(p.factor, 0.5f);
    EXPECT_EQ(p.mode, stubtest::Enum_mode::add);
    EXPECT_EQ(stubtest::Enum_mode_map().at(stubtest::Enum_mode::mul), "mul");
    EXPECT_EQ(p.work_type, Int(32));
    EXPECT_FALSE(p.flip);
    EXPECT_EQ(p.label, "a \"quoted\" label");
    p.level.lock();
    EXPECT_TRUE(p.level.is_inlined());
    // The positional constructor, in declaration order.
    ScaleStub::GeneratorParams q(7, 2.0f, stubtest::Enum_mode::mul, UInt(8), true, "q", LoopLevel::root());
    EXPECT_EQ(q.offset, 7);
    EXPECT_EQ(q.label, "q");
}

TEST(Stub, GenerateFromCodeWithATarget) {
    const int w = 9, h = 7;
    Buffer<uint8_t, 2> in(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            in(x, y) = (uint8_t)(x * 7 + y * 3);
        }
    }
    Var x, y;
    Func bias;
    bias(x, y) = 2 * x + y;
    ScaleStub::GeneratorParams params;
    params.offset = -4;
    params.label = "abc";
    ScaleStub::Outputs out =
        ScaleStub::generate(get_host_target(), {in, bias, Expr(1.5f), {Expr(10), Expr(-1)}}, params);
    EXPECT_EQ(out.target, get_host_target());
    Buffer<int32_t, 2> f = out.output.realize({w, h}, out.target);
    Buffer<int32_t, 2> d = out.doubled.realize({w, h});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int32_t combined = (x * 7 + y * 3) + (2 * x + y) - 4 + 10 - 1;
            int32_t want = (int32_t)((float)(combined + 3) * 1.5f * 0.5f);
            ASSERT_EQ(f(x, y), want) << "at " << x << ", " << y;
            ASSERT_EQ(d(x, y), want * 2) << "at " << x << ", " << y;
        }
    }
}

TEST(Stub, BindingErrors) {
    Buffer<uint8_t, 2> in(4, 4);
    in.fill(1);
    Var x, y;
    Func bias;
    bias(x, y) = x;
    // Upstream's words for a scalar of another type.
    EXPECT_EQ(message_of([&] {
                  ScaleStub::generate(get_host_target(), {in, bias, Expr(2), {Expr(1)}});
              }),
              "Type mismatch for scale: expected float32 saw int32");
    Func bias3;
    bias3(x, y, Var()) = x;
    std::string m = message_of([&] { ScaleStub::generate(get_host_target(), {in, bias3, Expr(2.0f), {Expr(1)}}); });
    EXPECT_EQ(m, "Dimensions mismatch for bias: expected 2 saw 3"); // upstream's words
    Func unset;
    m = message_of([&] { ScaleStub::generate(get_host_target(), {in, unset, Expr(2.0f), {Expr(1)}}); });
    EXPECT_NE(m.find("Input 'bias' was bound to Func"), std::string::npos) << m;
    Buffer<uint16_t, 2> wide(4, 4);
    m = message_of([&] { Internal::StubInputBuffer<uint8_t> b(wide); });
    EXPECT_EQ(m, "A stub's buffer input of type uint8 was given a Buffer of type uint16");
    // By name, on the generator itself.
    auto g = Internal::GeneratorRegistry::create("stub_scale", GeneratorContext(get_host_target()));
    g->bind_input("input", Internal::StubInputBuffer<>::to_parameter_vector(Internal::StubInputBuffer<>(wide)));
    g->bind_input("bias", std::vector<Func>{bias});
    g->bind_input("scale", std::vector<Expr>{Expr(1.0f)});
    g->bind_input("terms", std::vector<Expr>{Expr(1)});
    m = message_of([&] { g->build_pipeline(); });
    EXPECT_EQ(m, "Type mismatch for input: expected uint8 saw uint16");
    g.reset(); // its Outputs' names are free again
    g = Internal::GeneratorRegistry::create("stub_scale", GeneratorContext(get_host_target()));
    m = message_of([&] { g->bind_input("nope", std::vector<Expr>{Expr(1)}); });
    EXPECT_NE(m.find("has no Input named 'nope'; its Inputs are: input, bias, scale, terms"), std::string::npos) << m;
    m = message_of([&] { g->bind_input("scale", std::vector<Func>{bias}); });
    EXPECT_NE(m.find("Input 'scale' can't be bound to a Func"), std::string::npos) << m;
}

} // namespace
