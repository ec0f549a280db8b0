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
