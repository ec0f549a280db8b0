// End-to-end tests of the front end, lowering and the JIT: pipelines are
// realized and compared with values computed here in plain C++.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "Halide.h"

using namespace Halide;

TEST(Pipeline, PureDefinitionOverTwoDimensions) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x + y * 3;
    Buffer<int32_t> out = f.realize({7, 5});
    ASSERT_EQ(out.width(), 7);
    ASSERT_EQ(out.height(), 5);
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 7; i++) {
            EXPECT_EQ(out(i, j), i + j * 3) << i << "," << j;
        }
    }
}

TEST(Pipeline, RealizeIntoABufferWithNonZeroMin) {
    Func f;
    Var x, y;
    f(x, y) = x * 100 + y;
    Runtime::Buffer<int32_t> storage(4, 3);
    storage.set_min(10, -2);
    Buffer<int32_t> out(storage);
    f.realize(out);
    for (int j = -2; j < 1; j++) {
        for (int i = 10; i < 14; i++) {
            EXPECT_EQ(storage(i, j), i * 100 + j);
        }
    }
}

TEST(Pipeline, InlinedCallsAndComputeRoot) {
    Func a("a"), b("b"), c("c");
    Var x("x"), y("y");
    a(x, y) = x - y;
    b(x, y) = a(x + 1, y) * 2 + a(x, y - 1);
    c(x, y) = b(x, y) + b(x - 2, y + 1);
    Buffer<int32_t> inlined = c.realize({9, 6});
    a.compute_root();
    b.compute_root();
    Buffer<int32_t> rooted = c.realize({9, 6});
    auto ra = [](int i, int j) { return i - j; };
    auto rb = [&](int i, int j) { return ra(i + 1, j) * 2 + ra(i, j - 1); };
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 9; i++) {
            int expected = rb(i, j) + rb(i - 2, j + 1);
            EXPECT_EQ(inlined(i, j), expected);
            EXPECT_EQ(rooted(i, j), expected);
        }
    }
    // The compute_root Funcs are realized over the region c needs.
    std::string stmt = c.lowered_stmt();
    EXPECT_NE(stmt.find("a.s0.x"), std::string::npos) << stmt;
    EXPECT_NE(stmt.find("b.s0.x"), std::string::npos) << stmt;
}

TEST(Pipeline, BoxBlurFromAnImageParam) {
    ImageParam input(UInt(16), 2, "input");
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_x.compute_root();

    Runtime::Buffer<uint16_t> in(34, 22);
    in.set_min(-1, -1);
    std::mt19937 rng(7);
    in.for_each_value([&](uint16_t &v) { v = (uint16_t)(rng() % 20000); });
    input.set(Buffer<uint16_t>(in));
    Buffer<uint16_t> out = blur_y.realize({32, 20});
    for (int j = 0; j < 20; j++) {
        for (int i = 0; i < 32; i++) {
            auto bx = [&](int u, int v) { return (uint16_t)((in(u - 1, v) + in(u, v) + in(u + 1, v)) / 3); };
            uint16_t expected = (uint16_t)((bx(i, j - 1) + bx(i, j) + bx(i, j + 1)) / 3);
            ASSERT_EQ(out(i, j), expected) << i << "," << j;
        }
    }
}

TEST(Pipeline, ParamsAndRangeChecks) {
    Param<float> scale("scale", 2.0f, 0.0f, 10.0f);
    Func f;
    Var x;
    f(x) = cast<float>(x) * scale;
    Buffer<float> out = f.realize({5});
    EXPECT_FLOAT_EQ(out(4), 8.0f);
    scale.set(0.5f);
    out = f.realize({5});
    EXPECT_FLOAT_EQ(out(4), 2.0f);
    scale.set(11.0f);
    try {
        f.realize({5});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_EQ(e.code, -10);
        EXPECT_NE(std::string(e.what()).find("scale"), std::string::npos) << e.what();
    }
}

TEST(Pipeline, InputTooSmallIsARuntimeError) {
    ImageParam input(Int(32), 1, "small_input");
    Func f;
    Var x;
    f(x) = input(x + 1);
    input.set(Buffer<int32_t>(4));
    try {
        f.realize({4});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_EQ(e.code, -4);
        EXPECT_NE(std::string(e.what()).find("small_input"), std::string::npos) << e.what();
    }
}

TEST(Pipeline, WrongBufferTypeIsAnError) {
    ImageParam input(Float(32), 1, "typed_input");
    Func f;
    Var x;
    f(x) = input(x);
    EXPECT_THROW(input.set(Buffer<int32_t>(4)), CompileError);
}

TEST(Errors, CallingAnUndefinedFunc) {
    Func f("undefined_f"), g;
    Var x;
    try {
        g(x) = f(x) + 1;
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("undefined_f"), std::string::npos);
    }
}

TEST(Errors, VarUsedTwiceInADefinition) {
    Func f;
    Var x("x");
    EXPECT_THROW(f(x, x) = x, CompileError);
}

TEST(Errors, UndefinedVariableInADefinition) {
    Func f;
    Var x("x"), y("y_free");
    try {
        f(x) = x + y;
        FAIL();
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("y_free"), std::string::npos);
    }
}

TEST(Errors, WrongNumberOfSizes) {
    Func f;
    Var x, y;
    f(x, y) = 0;
    EXPECT_THROW(f.realize({3}), CompileError);
}

TEST(Errors, UnboundedRegionOfAComputeRootFunc) {
    Param<float> scale("index_scale");
    Func lut("lut"), f;
    Var x("x");
    lut(x) = x * 2;
    lut.compute_root();
    // A float-derived coordinate could be anything: bounds inference cannot size lut.
    f(x) = lut(cast<int>(scale * cast<float>(x)));
    EXPECT_THROW(f.compile_jit(), CompileError);
}

TEST(Dumps, LoweredStmtIrAndAssembly) {
    Func f("dumped");
    Var x("x");
    f(x) = x * 2;
    EXPECT_NE(f.lowered_stmt().find("for"), std::string::npos);
    EXPECT_NE(f.llvm_ir().find("define"), std::string::npos);
    EXPECT_FALSE(f.assembly().empty());
}
