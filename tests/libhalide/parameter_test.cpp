// Halide::Parameter: the argument behind Param<T>, Param<> and ImageParam
// (their parameter()), and Parameters made directly.
#include <gtest/gtest.h>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

TEST(Parameter, OfAnImageParamIsItsBufferArgument) {
    ImageParam im(UInt(8), 2, "im");
    Parameter p = im.parameter();
    ASSERT_TRUE(p.defined());
    EXPECT_TRUE(p.is_buffer());
    EXPECT_EQ(p.name(), "im");
    EXPECT_EQ(p.type(), UInt(8));
    EXPECT_EQ(p.dimensions(), 2);
    EXPECT_EQ(p.host_alignment(), 1);
    EXPECT_TRUE(p.same_as(im.parameter()));
    EXPECT_FALSE(p.same_as(ImageParam(UInt(8), 2, "im").parameter()));
    // As upstream: the innermost stride is required to be 1, nothing else.
    ASSERT_TRUE(p.stride_constraint(0).defined());
    EXPECT_TRUE(Internal::is_const_one(p.stride_constraint(0)));
    EXPECT_FALSE(p.min_constraint(0).defined());
    EXPECT_FALSE(p.extent_constraint(1).defined());
    EXPECT_NE(message_of([&] { p.min_value(); }), "");
    EXPECT_NE(message_of([&] { p.min_constraint(2); }), "");
}

TEST(Parameter, ConstraintsSetThroughItHoldForTheImageParam) {
    ImageParam im(Int(32), 1, "im");
    Parameter p = im.parameter();
    p.set_min_constraint(0, 0);
    p.set_extent_constraint(0, 4);
    p.set_host_alignment(16);
    EXPECT_EQ(im.host_alignment(), 16);
    Var x("x");
    Func f("f");
    f(x) = im(x) * 2;
    Buffer<int> good(4), bad(5);
    for (int i = 0; i < 4; i++) {
        good(i) = i;
    }
    im.set(good);
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), i * 2);
    }
    im.set(bad);
    EXPECT_NE(message_of([&] { f.realize({4}); }), "");
}

TEST(Parameter, OfAParamIsItsScalarArgument) {
    Param<int> k("k", 3);
    Parameter p = k.parameter();
    EXPECT_FALSE(p.is_buffer());
    EXPECT_EQ(p.name(), "k");
    EXPECT_EQ(p.type(), Int(32));
    EXPECT_EQ(p.dimensions(), 0);
    const Internal::IntImm *v = p.scalar_expr().as<Internal::IntImm>();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->value, 3);
    EXPECT_FALSE(p.min_value().defined());
    p.set_min_value(1);
    p.set_max_value(9);
    Param<> q(Float(32), "q");
    EXPECT_EQ(q.parameter().type(), Float(32));
    EXPECT_NE(message_of([&] { p.min_constraint(0); }), "");
    // The range set through the Parameter is checked when the pipeline runs.
    Func f("f");
    Var x("x");
    f(x) = x + k;
    k.set(12);
    EXPECT_NE(message_of([&] { f.realize({2}); }), "");
    k.set(5);
    EXPECT_EQ(Buffer<int>(f.realize({2}))(1), 6);
}

TEST(Parameter, MadeDirectly) {
    Parameter undefined;
    EXPECT_FALSE(undefined.defined());
    EXPECT_NE(message_of([&] { undefined.name(); }), "");
    Parameter s(Float(32), false, 0, "nn");
    EXPECT_EQ(s.name(), "nn");
    EXPECT_FALSE(s.is_buffer());
    Parameter b(Int(16), true, 3, "bb");
    EXPECT_TRUE(b.is_buffer());
    EXPECT_EQ(b.dimensions(), 3);
    EXPECT_EQ(b.type(), Int(16));
    EXPECT_NE(message_of([&] { Parameter(Int(32), false, 2, "bad"); }), "");
}

TEST(Parameter, ScalarValuesGoThroughTheJIT) {
    Param<float> scale("scale");
    Parameter p = scale.parameter();
    EXPECT_FALSE(p.has_scalar_value()); // never set: as upstream, no value
    p.set_scalar<float>(2.5f);
    EXPECT_TRUE(p.has_scalar_value());
    EXPECT_EQ(p.scalar<float>(), 2.5f);
    EXPECT_EQ(scale.get(), 2.5f);
    Var x("x");
    Func f("f");
    f(x) = cast<float>(x) * scale;
    Buffer<float> out = f.realize({3});
    EXPECT_EQ(out(2), 5.0f);
    // The type is checked, in both directions.
    EXPECT_NE(message_of([&] { p.set_scalar<int32_t>(3); }).find("float32"), std::string::npos);
    EXPECT_NE(message_of([&] { (void)p.scalar<double>(); }).find("float32"), std::string::npos);
    halide_scalar_value_t v{};
    v.u.f32 = -1.0f;
    p.set_scalar(Float(32), v);
    EXPECT_EQ(scale.get(), -1.0f);
    EXPECT_FALSE(ImageParam(UInt(8), 1).parameter().has_scalar_value());
}

TEST(Parameter, BufferBindsWhatTheImageParamReads) {
    ImageParam im(Int(32), 1, "im");
    Parameter p = im.parameter();
    EXPECT_FALSE(p.buffer().defined());
    Buffer<int> in(4);
    for (int i = 0; i < 4; i++) {
        in(i) = 10 * i;
    }
    p.set_buffer(in);
    ASSERT_TRUE(p.buffer().defined());
    EXPECT_EQ(p.buffer().raw_buffer()->host, in.raw_buffer()->host);
    EXPECT_EQ(im.get().raw_buffer()->host, in.raw_buffer()->host);
    Var x("x");
    Func f("f");
    f(x) = im(x) + 1;
    Buffer<int> out = f.realize({4});
    EXPECT_EQ(out(3), 31);
    // Wrong type or dimensions are refused with the ImageParam's message.
    EXPECT_NE(message_of([&] { p.set_buffer(Buffer<float>(4)); }).find("type"), std::string::npos);
    EXPECT_NE(message_of([&] { p.set_buffer(Buffer<int>(4, 4)); }).find("dimensions"), std::string::npos);
    p.set_buffer(Buffer<>());
    EXPECT_FALSE(im.get().defined());
}

TEST(Parameter, EstimatesAndConstraintsPerDimension) {
    ImageParam im(UInt(16), 2, "im");
    Parameter p = im.parameter();
    EXPECT_FALSE(p.min_constraint_estimate(1).defined());
    p.set_min_constraint_estimate(1, 0);
    p.set_extent_constraint_estimate(1, 480);
    p.set_extent_constraint(0, 640);
    std::vector<BufferConstraint> c = p.buffer_constraints();
    ASSERT_EQ(c.size(), 2u);
    EXPECT_TRUE(Internal::is_const_one(c[0].stride));
    EXPECT_EQ(*Internal::as_const_int(c[0].extent), 640);
    EXPECT_FALSE(c[0].min_estimate.defined());
    EXPECT_EQ(*Internal::as_const_int(c[1].min_estimate), 0);
    EXPECT_EQ(*Internal::as_const_int(c[1].extent_estimate), 480);
    ArgumentEstimates e = p.get_argument_estimates();
    ASSERT_EQ(e.buffer_estimates.size(), 2u);
    EXPECT_EQ(*Internal::as_const_int(e.buffer_estimates[1].extent), 480);
    EXPECT_FALSE(e.buffer_estimates[0].min.defined());
    // What set_estimates on the ImageParam records is what the Parameter reports.
    im.set_estimates({{0, 8}, {1, 9}});
    EXPECT_EQ(*Internal::as_const_int(p.extent_constraint_estimate(0)), 8);
    EXPECT_EQ(*Internal::as_const_int(p.min_constraint_estimate(1)), 1);
    EXPECT_NE(message_of([&] { p.set_min_constraint_estimate(2, 0); }).find("dimension"), std::string::npos);

    Param<int> k("k", 3, 0, 10);
    k.set_estimate(5);
    ArgumentEstimates s = k.parameter().get_argument_estimates();
    EXPECT_EQ(*Internal::as_const_int(s.scalar_min), 0);
    EXPECT_EQ(*Internal::as_const_int(s.scalar_max), 10);
    EXPECT_EQ(*Internal::as_const_int(s.scalar_estimate), 5);
}

TEST(Parameter, MemoryTypeAndLoadTracing) {
    ImageParam im(UInt(8), 1, "im");
    Parameter p = im.parameter();
    EXPECT_EQ(p.memory_type(), MemoryType::Auto);
    p.store_in(MemoryType::Heap);
    EXPECT_EQ(p.memory_type(), MemoryType::Heap);
    EXPECT_FALSE(p.is_tracing_loads());
    p.trace_loads();
    p.add_trace_tag("tag one");
    EXPECT_TRUE(p.is_tracing_loads());
    EXPECT_EQ(p.get_trace_tags(), std::vector<std::string>{"tag one"});
    Param<int> k("k");
    EXPECT_NE(message_of([&] { k.parameter().store_in(MemoryType::Heap); }).find("buffer"), std::string::npos);
}

TEST(Parameter, ZeroDimensionalBufferHasNoConstraintsToList) {
    ImageParam im(Float(32), 0, "scalar_image");
    EXPECT_TRUE(im.parameter().buffer_constraints().empty());
    EXPECT_EQ(im.parameter().host_alignment(), 4);
}

// As upstream 21 (observed): a Param never given a value has no scalar
// value, and realizing, reading or evaluating it is a CompileError
// "Parameter p does not have a valid scalar value." (compiling is not).
TEST(Parameter, AParamNeverSetIsAnErrorWhenRun) {
    const std::string words = "Parameter unset_p does not have a valid scalar value.";
    Param<int> p("unset_p");
    EXPECT_FALSE(p.parameter().has_scalar_value());
    EXPECT_EQ(message_of([&] { p.get(); }), words);
    EXPECT_EQ(message_of([&] { p.parameter().scalar_expr(); }), words);
    EXPECT_EQ(message_of([&] { p.parameter().scalar<int>(); }), words);
    Var x("x");
    Func f("unset_f");
    f(x) = x + p;
    EXPECT_EQ(message_of([&] { f.compile_jit(); }), "");
    EXPECT_EQ(message_of([&] { f.realize({4}); }), words);
    EXPECT_EQ(message_of([&] { Pipeline(f).realize({4}); }), words);
    EXPECT_THROW(f.realize({4}), CompileError);
    ImageParam im(Int(32), 1, "unset_im");
    Func g("unset_g");
    g(x) = im(x) + p;
    EXPECT_EQ(message_of([&] { g.infer_input_bounds({4}); }), words);
    // A Callable takes the value as an argument.
    Callable c = f.compile_to_callable({p});
    Buffer<int> out(4);
    EXPECT_EQ(c(5, out), 0);
    EXPECT_EQ(out(3), 8);
    // Once set, and for a Param made with a value, it runs.
    p.set(3);
    EXPECT_TRUE(p.parameter().has_scalar_value());
    Buffer<int> got = f.realize({4});
    EXPECT_EQ(got(1), 4);
    Param<float> q("valued_q", 1.5f);
    EXPECT_TRUE(q.parameter().has_scalar_value());
    Param<> r(Int(16), "unset_r");
    EXPECT_FALSE(r.parameter().has_scalar_value());
    Func h("unset_h");
    h(x) = r;
    EXPECT_EQ(message_of([&] { h.realize({2}); }), "Parameter unset_r does not have a valid scalar value.");
    r.set(7);
    Buffer<int16_t> hr = h.realize({2});
    EXPECT_EQ(hr(1), 7);
}
