// Small pieces of upstream's C++ API (issue 13): a one-value Tuple, a typed
// Param's get() and bounds, Func::no_profiling, and the placeholder `_` in
// calls of an ImageParam or a Buffer. Expected values are computed here in
// plain C++ or are upstream Halide 21's observed behaviour (this file also
// builds and passes against upstream's Halide.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

TEST(SmallApi, OneValueTuple) {
    Var x("x");
    Tuple t(x * 3);
    EXPECT_EQ(t.size(), 1u);
    EXPECT_TRUE(t[0].type() == Int(32));
    Func f("one_value_tuple");
    f(x) = Tuple(x * 3 + 1);
    EXPECT_EQ(f.outputs(), 1);
    Buffer<int> out = f.realize({4});
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), 3 * i + 1);
    }
    // A Tuple of a Tuple-valued call, and one built from a vector.
    Func g("two_values");
    g(x) = Tuple(x, x * 2);
    EXPECT_EQ(Tuple(g(x)).size(), 2u);
    EXPECT_EQ(Tuple(std::vector<Expr>{x}).size(), 1u);
}

TEST(SmallApi, TypedParamGet) {
    Param<int> p("p_get", 5);
    EXPECT_EQ(p.get(), 5);
    p.set(-7);
    EXPECT_EQ(p.get(), -7);
    Param<float> f("f_get", 2.5f);
    EXPECT_EQ(f.get(), 2.5f);
    Param<uint8_t> u("u_get");
    u.set(200);
    EXPECT_EQ(u.get(), 200);
    Param<bool> b("b_get", true);
    EXPECT_TRUE(b.get());
    Param<double> d("d_get", 0.1);
    EXPECT_EQ(d.get(), 0.1);
}

TEST(SmallApi, TypedParamBounds) {
    Param<int> p("p_bounds");
    EXPECT_FALSE(p.min_value().defined());
    EXPECT_FALSE(p.max_value().defined());
    p.set_min_value(Expr((int16_t)2)); // cast to the Param's type
    p.set_max_value(10);
    EXPECT_TRUE(p.min_value().type() == Int(32));
    EXPECT_TRUE(p.max_value().type() == Int(32));
    Func f("reads_p_bounds");
    Var x("x");
    f(x) = p + x;
    p.set(3);
    Buffer<int> out = f.realize({2});
    EXPECT_EQ(out(1), 4);
    p.set(11); // above the maximum: the pipeline refuses it
    EXPECT_THROW(f.realize({2}), RuntimeError);
    p.set(1); // below the minimum
    EXPECT_THROW(f.realize({2}), RuntimeError);
    p.set_min_value(Expr());
    p.set_max_value(Expr()); // no bounds (in a pipeline compiled after this:
                             // upstream keeps an already compiled one's checks)
    p.set(100);
    Func g("reads_p_unbounded");
    g(x) = p + x;
    Buffer<int> unbounded = g.realize({2});
    EXPECT_EQ(unbounded(0), 100);
    // set_range sets both, cast to the type.
    Param<uint8_t> u("u_bounds");
    u.set_range(1, 5);
    EXPECT_TRUE(u.min_value().type() == UInt(8));
    EXPECT_TRUE(u.max_value().type() == UInt(8));
}

TEST(SmallApi, NoProfilingIsAccepted) {
    Func f("not_profiled");
    Var x("x");
    f(x) = x * x;
    Func &same = f.no_profiling();
    EXPECT_EQ(&same, &f);
    Buffer<int> out = f.realize({3});
    EXPECT_EQ(out(2), 4);
}

TEST(SmallApi, PlaceholderInImageParamCalls) {
    ImageParam im(Int(32), 3, "im_placeholder");
    Var x("x");
    Func all("all_dims"), rest("rest_dims");
    all(_) = im(_) * 2;
    EXPECT_EQ(all.dimensions(), 3);
    rest(x, _) = im(_, x) + 1; // rest(x, a, b) = im(a, b, x)
    EXPECT_EQ(rest.dimensions(), 3);
    Buffer<int> b(2, 3, 4);
    for (int k = 0; k < 4; k++) {
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 2; i++) {
                b(i, j, k) = 100 * k + 10 * j + i;
            }
        }
    }
    im.set(b);
    Buffer<int> a = all.realize({2, 3, 4});
    EXPECT_EQ(a(1, 2, 3), 2 * 321);
    Buffer<int> r = rest.realize({4, 2, 3});
    for (int k = 0; k < 4; k++) {
        EXPECT_EQ(r(k, 1, 2), 100 * k + 21 + 1);
    }
}

TEST(SmallApi, PlaceholderInBufferCalls) {
    Buffer<int> b(3, 2);
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            b(i, j) = 10 * j + i;
        }
    }
    Var x("x");
    Func t("transposed");
    t(x, _) = b(_, x); // t(x, a) = b(a, x)
    EXPECT_EQ(t.dimensions(), 2);
    Buffer<int> out = t.realize({2, 3});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 2; i++) {
            EXPECT_EQ(out(i, j), 10 * i + j);
        }
    }
    Func same("same_buffer");
    same(_) = b(_) + 1;
    Buffer<int> plus_one = same.realize({3, 2});
    EXPECT_EQ(plus_one(2, 1), 13);
}

TEST(SmallApi, PlaceholderErrors) {
    // Upstream refuses two placeholders when the Func is defined (ours: at the call).
    ImageParam im(Int(32), 2, "im_two_placeholders");
    Func g("two_placeholders");
    EXPECT_THROW(g(_) = im(_, _), CompileError);
    Buffer<int> b(2, 2);
    Var x("x"), y("y"), z("z");
    EXPECT_THROW((void)b(x, y, z, _), CompileError); // more coordinates than dimensions
}

} // namespace
