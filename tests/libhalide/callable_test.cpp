// Callable (compile_to_callable), Param<void>, ImageParam::get/reset,
// infer_input_bounds and infer_arguments, checked against plain C++; a
// Callable with handle arguments and with set_jit_externs().
#include <gtest/gtest.h>

#include <cmath>

#include "Halide.h"

using namespace Halide;

TEST(Callable, RunsWithArgumentsInTheGivenOrder) {
    ImageParam in(UInt(8), 2, "in");
    Param<int32_t> offset("offset");
    Param<> scale(Float(32), "scale");
    Var x, y;
    Func f("f");
    f(x, y) = cast<float>(in(x, y)) * scale + offset;
    Callable c = f.compile_to_callable({scale, in, offset});
    ASSERT_EQ(c.arguments().size(), 4u);
    EXPECT_EQ(c.arguments()[0].name, "scale");
    EXPECT_EQ(c.arguments()[3].kind, Argument::OutputBuffer);

    Buffer<uint8_t> input(std::vector<int>{5, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 5; i++) {
            input(i, j) = (uint8_t)(i * 7 + j);
        }
    }
    Buffer<float> out(std::vector<int>{5, 3});
    EXPECT_EQ(c(2.5f, input, 4, out), 0);
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 5; i++) {
            EXPECT_FLOAT_EQ(out(i, j), (float)(i * 7 + j) * 2.5f + 4.0f);
        }
    }
}

TEST(Callable, ErrorsAreExceptions) {
    Param<int32_t> p("p");
    Var x;
    Func f("f");
    f(x) = x + p;
    Callable c = f.compile_to_callable({p});
    Buffer<int32_t> out(std::vector<int>{4});
    EXPECT_THROW(c(1.5f, out), CompileError); // wrong scalar type
    EXPECT_THROW(c(out, out), CompileError);  // a buffer for a scalar
    Buffer<float> wrong(std::vector<int>{4});
    EXPECT_THROW(c(3, wrong), RuntimeError);               // the pipeline's own type check
    EXPECT_THROW(f.compile_to_callable({}), CompileError); // p not listed
    EXPECT_THROW(Callable()(1), CompileError);
}

TEST(Param, VoidParamConvertsExactly) {
    Param<> p(UInt(8), "p8");
    p.set(200);
    EXPECT_THROW(p.set(300), CompileError);
    EXPECT_THROW(p.set(-1), CompileError);
    EXPECT_THROW(p.set(2.5), CompileError);
    Param<> q(Float(32), "q", 0.5);
    EXPECT_THROW(q.set(0.1), CompileError); // not exact in float32
    q.set(3);
    Var x;
    Func f("f");
    f(x) = cast<float>(x) * q + cast<float>(p);
    Buffer<float> out = f.realize({3});
    EXPECT_FLOAT_EQ(out(2), 2.0f * 3.0f + 200.0f);
    EXPECT_EQ(p.type(), UInt(8));
    EXPECT_EQ(p.name(), "p8");
}

TEST(Param, VoidParamRangeIsChecked) {
    Param<> p(Int(16), "r");
    p.set_range(0, 10);
    ASSERT_TRUE(p.min_value().defined());
    EXPECT_EQ(p.min_value().type(), Int(16));
    Var x;
    Func f("f");
    f(x) = cast<int32_t>(p) + x;
    p.set(11);
    EXPECT_THROW(f.realize({2}), RuntimeError);
    p.set(10);
    Buffer<int32_t> out = f.realize({2});
    EXPECT_EQ(out(1), 11);
}

TEST(ImageParam, GetResetAndShorthands) {
    ImageParam im(Int(32), 3, "im3");
    EXPECT_FALSE(im.get().defined());
    Buffer<int32_t> b(std::vector<int>{4, 3, 2});
    im.set(b);
    EXPECT_TRUE(im.get().defined());
    EXPECT_EQ((const void *)im.get().data(), (const void *)b.data()); // same memory
    Var x, y;
    Func f("f");
    f(x, y) = im.width() * 100 + im.height() * 10 + im.channels() + im(x, y, 0) * 0;
    Buffer<int32_t> out = f.realize({2, 2});
    EXPECT_EQ(out(1, 1), 432);
    im.reset();
    EXPECT_FALSE(im.get().defined());
    EXPECT_THROW(f.realize({2, 2}), CompileError);
    OutputImageParam undefined;
    EXPECT_FALSE(undefined.defined());
    EXPECT_THROW(undefined.name(), CompileError);
}

TEST(Pipeline, InferInputBoundsAllocatesTheRegionRead) {
    ImageParam in(Float(32), 2, "src");
    Var x, y;
    Func f("f");
    f(x, y) = in(x - 1, y) + in(x + 2, y * 2);
    f.infer_input_bounds({10, 4});
    Buffer<> b = in.get();
    ASSERT_TRUE(b.defined());
    EXPECT_EQ(b.dim(0).min(), -1);
    EXPECT_EQ(b.dim(0).extent(), 13);
    EXPECT_EQ(b.dim(1).min(), 0);
    EXPECT_EQ(b.dim(1).extent(), 7);
    Buffer<float> out = f.realize({10, 4});
    EXPECT_EQ(out(3, 2), 0.0f); // zero-filled
}

// Constraints naming other buffers' fields: the output's extent grows by 3
// while under 20, and the update's vectorized x (Auto tail: RoundUp, as
// upstream) rounds the region written up to a multiple of 8. By hand:
// 5 -> written 8 -> constrained 11 -> 16 -> 19 -> 24 -> 24, settled. The
// input is read at x-2..x+3 over x in [0, 23] and y..y+1 over y in [0, 5]:
// [-2, 26] x [0, 6]; its extent in x is constrained to 4 * 7 + 24 = 52.
struct GrowingConstraints {
    ImageParam in{Int(16), 2, "grow_in"};
    Var x, y;
    Func f{"grow_f"};
    GrowingConstraints() {
        f(x, y) = in(x - 2, y) + in(x + 3, y + 1);
        f(x, y) += cast<int16_t>(1);
        f.update().vectorize(x, 8);
        OutputImageParam o = f.output_buffer();
        o.dim(0).set_bounds(0, select(o.dim(0).extent() < 20, o.dim(0).extent() + 3, o.dim(0).extent()));
        in.dim(0).set_extent(in.dim(1).extent() * 4 + o.dim(0).extent());
    }
};

TEST(Pipeline, InferInputBoundsRepeatsTheQueryUntilConstraintsHold) {
    GrowingConstraints p;
    p.f.infer_input_bounds({5, 6});
    Buffer<> b = p.in.get();
    ASSERT_TRUE(b.defined());
    EXPECT_EQ(b.dim(0).min(), -2);
    EXPECT_EQ(b.dim(0).extent(), 52);
    EXPECT_EQ(b.dim(1).min(), 0);
    EXPECT_EQ(b.dim(1).extent(), 7);
}

TEST(Pipeline, InferInputBoundsWritesTheConstrainedRegionToQueryBuffers) {
    GrowingConstraints p;
    Buffer<> query(Runtime::Buffer<>(Int(16), nullptr, std::vector<int>{5, 6}));
    query.set_min({3, 4});
    p.f.infer_input_bounds(query);
    EXPECT_EQ(query.dim(0).min(), 0);
    EXPECT_EQ(query.dim(0).extent(), 24);
    EXPECT_EQ(query.dim(1).min(), 4);
    EXPECT_EQ(query.dim(1).extent(), 6);
    Buffer<> b = p.in.get();
    EXPECT_EQ(b.dim(0).min(), -2);
    EXPECT_EQ(b.dim(0).extent(), 52);
    EXPECT_EQ(b.dim(1).min(), 4);
    EXPECT_EQ(b.dim(1).extent(), 7);
}

TEST(Pipeline, InferInputBoundsRefusesConstraintsThatNeverSettle) {
    ImageParam in(Int(16), 1, "unsettled_in");
    Var x;
    Func g("unsettled_g");
    g(x) = in(x);
    OutputImageParam o = g.output_buffer();
    o.dim(0).set_extent(o.dim(0).extent() + 1);
    EXPECT_THROW(g.infer_input_bounds({4}), CompileError);
}

TEST(Pipeline, InferInputBoundsRefusesConstraintsSmallerThanTheRegionRead) {
    ImageParam in(Int(16), 1, "small_in");
    Var x;
    Func h("small_h");
    h(x) = in(x) + in(x + 5);
    in.dim(0).set_extent(3);
    EXPECT_THROW(h.infer_input_bounds({4}), RuntimeError);
}

TEST(Pipeline, InferArgumentsSortsBuffersThenScalars) {
    ImageParam b(UInt(8), 1, "zz_in");
    ImageParam a(UInt(8), 1, "aa_in");
    Param<int32_t> s("s_param");
    Var x;
    Func f("f");
    f(x) = cast<int32_t>(b(x)) + a(x) + s;
    std::vector<Argument> args = Pipeline(f).infer_arguments();
    ASSERT_EQ(args.size(), 3u);
    EXPECT_EQ(args[0].name, "aa_in");
    EXPECT_EQ(args[1].name, "zz_in");
    EXPECT_EQ(args[2].name, "s_param");
    EXPECT_TRUE(args[2].is_scalar());
}

TEST(Pipeline, JITRefusesForeignTargets) {
    Var x;
    Func f("f");
    f(x) = x;
    Pipeline p(f);
    EXPECT_THROW(p.compile_jit(Target("arm-32-android")), CompileError);
    EXPECT_NO_THROW(p.compile_jit(get_host_target()));
    EXPECT_FALSE(Pipeline().defined());
}

extern "C" HALIDE_EXPORT_SYMBOL int callable_test_deref_plus(const int *p, int x) {
    return *p + x;
}
HalideExtern_2(int, callable_test_deref_plus, const int *, int);

// A handle argument (Param<const int *>) takes a pointer, with or without a
// JITUserContext * first (upstream's test callable passes &struct values).
TEST(Callable, APointerForAHandleArgument) {
    Param<const int *> ptr("callable_ptr");
    Var x("x");
    Func f("callable_deref");
    f(x) = callable_test_deref_plus(ptr, x);
    Callable c = f.compile_to_callable({ptr});
    int base = 40;
    Buffer<int32_t> out(5);
    ASSERT_EQ(c(&base, out), 0);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(out(i), 40 + i);
    }
    JITUserContext context;
    base = 7;
    ASSERT_EQ(c(&context, &base, out), 0);
    EXPECT_EQ(out(4), 11);
}

// set_jit_externs() with a Func also serves compile_to_callable (it used to
// reach the JIT as a missing symbol).
TEST(Callable, JITExternsOfFuncsAndPipelines) {
    Var x("x"), y("y");
    Func monitor("callable_extern_impl");
    monitor(x, y) = cast<float>(x * y) + 0.5f;
    Func f("callable_extern_user");
    f.define_extern("callable_extern_sym", {user_context_value()}, Float(32),
                    2); // its entry point takes the context first
    Pipeline p(f);
    p.set_jit_externs({{"callable_extern_sym", JITExtern{monitor}}});
    Callable c = p.compile_to_callable({});
    Buffer<float> out(4, 3);
    ASSERT_EQ(c(out), 0);
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(out(i, j), i * j + 0.5f);
        }
    }
}

// A Func's jit_handlers() serve the Callable compiled from it, as they serve
// realize(); handlers set after compile_to_callable do not (upstream 21: one
// custom malloc and one custom free per call).
namespace {
int callable_test_mallocs = 0;
int callable_test_frees = 0;

void *callable_test_malloc(JITUserContext *, size_t size) {
    callable_test_mallocs++;
    return malloc(size);
}

void callable_test_free(JITUserContext *, void *ptr) {
    callable_test_frees++;
    free(ptr);
}

void *callable_test_refusing_malloc(JITUserContext *, size_t) {
    ADD_FAILURE() << "a handler set after compile_to_callable was called";
    return nullptr;
}
} // namespace

TEST(Callable, UsesTheJITHandlersOfItsFunc) {
    Var x("x");
    Func f("callable_handlers_f"), g("callable_handlers_g");
    f(x) = x * 3;
    g(x) = f(x) + 1;
    f.compute_root();
    g.jit_handlers().custom_malloc = callable_test_malloc;
    g.jit_handlers().custom_free = callable_test_free;
    Callable c = g.compile_to_callable({});
    g.jit_handlers().custom_malloc = callable_test_refusing_malloc;
    callable_test_mallocs = callable_test_frees = 0;
    Buffer<int32_t> out(1000);
    ASSERT_EQ(c(out), 0);
    EXPECT_EQ(callable_test_mallocs, 1);
    EXPECT_EQ(callable_test_frees, 1);
    for (int i = 0; i < 1000; i++) {
        ASSERT_EQ(out(i), i * 3 + 1);
    }
}
