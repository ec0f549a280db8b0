// Func::specialize / Stage::specialize / specialize_fail: each branch of the
// generated if/else chain computes what the unspecialized Func does (plain
// C++ references), the branches are in the order made and simplified under
// their conditions, and the errors are upstream's.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"
#include "error_message.h"
#include "ir_text.h"

using namespace Halide;

namespace {

// Every value of a 1-D int32 buffer against ref(x).
template <typename F> void expect_values(const Buffer<int32_t> &out, F ref) {
    for (int x = 0; x < out.width(); x++) {
        ASSERT_EQ(out(x), ref(x)) << "at x = " << x;
    }
}

} // namespace

TEST(Specialize, BoolParamBranchesAreSimplifiedAndMatch) {
    Param<bool> b("b");
    Var x("x");
    Func f("f");
    f(x) = x * 3 + select(b, 0, 7);
    f.specialize(b).vectorize(x, 4);
    std::string text = f.lowered_stmt();
    // One branch per case, each with the select folded away.
    EXPECT_EQ(count(text, "if (b)"), 1) << text;
    EXPECT_EQ(count(text, "select("), 0) << text;
    for (bool v : {true, false}) {
        b.set(v);
        Buffer<int32_t> out = f.realize({19});
        expect_values(out, [&](int i) { return i * 3 + (v ? 0 : 7); });
    }
}

TEST(Specialize, FirstMatchingOfSeveralRunsAndAllMatchTheReference) {
    Param<int> p("p");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func f("f");
    f(x, y) = x * 100 + y + p * (x - y);
    f.specialize(p == 0).unroll(x, 2);
    f.specialize(p > 10).vectorize(x, 8);
    f.specialize(p > 5).split(x, xo, xi, 4, TailStrategy::GuardWithIf).parallel(y);
    std::string text = f.lowered_stmt();
    size_t first = text.find("if ((p == 0))"), second = text.find("if ((p > 10))"), third = text.find("if ((p > 5))");
    ASSERT_NE(first, std::string::npos) << text;
    ASSERT_NE(second, std::string::npos) << text;
    ASSERT_NE(third, std::string::npos) << text;
    EXPECT_LT(first, second) << text;
    EXPECT_LT(second, third) << text;
    for (int v : {0, 3, 7, 20}) {
        p.set(v);
        Buffer<int32_t> out = f.realize({21, 5});
        for (int j = 0; j < 5; j++) {
            for (int i = 0; i < 21; i++) {
                ASSERT_EQ(out(i, j), i * 100 + j + v * (i - j)) << "p = " << v << " at " << i << ", " << j;
            }
        }
    }
}

TEST(Specialize, NestedSpecializationsGiveFourCases) {
    Param<bool> a("a"), b("b");
    Var x("x");
    Func f("f");
    f(x) = x + select(a, 10, 20) - select(b, 1, 2);
    f.specialize(a).specialize(b).vectorize(x, 4);
    f.specialize(b);
    std::string text = f.lowered_stmt();
    EXPECT_EQ(count(text, "select("), 0) << text;
    for (bool va : {false, true}) {
        for (bool vb : {false, true}) {
            a.set(va);
            b.set(vb);
            Buffer<int32_t> out = f.realize({9});
            expect_values(out, [&](int i) { return i + (va ? 10 : 20) - (vb ? 1 : 2); });
        }
    }
}

TEST(Specialize, EqualityWithAConstantSubstitutesIt) {
    Param<int> k("k");
    Var x("x");
    Func f("f");
    f(x) = x * k;
    f.specialize(k == 4);
    std::string text = f.lowered_stmt();
    EXPECT_NE(text.find("= (f.s0.x * 4)"), std::string::npos) << text;
    EXPECT_NE(text.find("= (f.s0.x * k)"), std::string::npos) << text;
    for (int v : {4, -3}) {
        k.set(v);
        Buffer<int32_t> out = f.realize({10});
        expect_values(out, [&](int i) { return i * v; });
    }
}

TEST(Specialize, SpecializationCopiesTheScheduleSoFarOnly) {
    // Upstream's example: a specialization for width 1, the general case
    // vectorized afterwards (so only it needs 8 points).
    Var x("x");
    Func f("f");
    f(x) = x * x;
    f.specialize(f.output_buffer().width() == 1);
    f.vectorize(x, 8);
    std::string text = f.lowered_stmt();
    // The width-1 branch is a plain loop; the general one is split by 8 (its
    // loop over vectors may be partitioned into a steady state and a tail).
    EXPECT_NE(text.find("if ((f.extent.0 == 1))"), std::string::npos) << text;
    EXPECT_EQ(count(text, "for (f.s0.x, "), 1) << text;
    EXPECT_GE(count(text, "for (f.s0.x$o"), 1) << text;
    for (int w : {1, 8, 13}) {
        Buffer<int32_t> out = f.realize({w});
        expect_values(out, [](int i) { return i * i; });
    }
}

TEST(Specialize, AskingAgainReturnsTheSameSpecialization) {
    Param<int> p("p");
    Var x("x"), xo("xo"), xi("xi");
    Func f("f");
    f(x) = x - p;
    f.specialize(p > 3).split(x, xo, xi, 4);
    // xi exists only in that specialization.
    f.specialize(p > 3).vectorize(xi);
    EXPECT_NE(message_of([&] { f.vectorize(xi); }), "");
    for (int v : {1, 5}) {
        p.set(v);
        Buffer<int32_t> out = f.realize({12});
        expect_values(out, [&](int i) { return i - v; });
    }
}

TEST(Specialize, UpdateStagesAndComputeAtInsideSpecializedLoops) {
    Param<int> p("p");
    Var x("x"), y("y"), xo("xo"), xi("xi"), xii("xii");
    Func g("g"), f("f");
    g(x, y) = x + 2 * y;
    f(x, y) = g(x, y) + g(x + 1, y);
    f(x, y) += p;
    f.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    f.specialize(p == 1).split(xi, xi, xii, 2, TailStrategy::GuardWithIf);
    f.update(0).specialize(p == 1).vectorize(x, 4);
    g.compute_at(f, xo);
    for (int v : {1, 2}) {
        p.set(v);
        Buffer<int32_t> out = f.realize({19, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 19; i++) {
                ASSERT_EQ(out(i, j), (i + 2 * j) + (i + 1 + 2 * j) + v) << "p = " << v << " at " << i << ", " << j;
            }
        }
    }
}

TEST(Specialize, SpecializeFailIsARuntimeErrorWithItsMessage) {
    Param<int> p("p");
    Var x("x");
    Func f("f");
    f(x) = x * 2;
    f.specialize(p > 3).vectorize(x, 4);
    f.specialize(p < -3);
    f.specialize_fail("Unhandled p");
    std::string text = f.lowered_stmt();
    // No default nest: each loop is in a specialization (one plain loop, and
    // the vectorized one, perhaps partitioned).
    EXPECT_EQ(count(text, "for (f.s0.x, "), 1) << text;
    EXPECT_GE(count(text, "for (f.s0.x$o"), 1) << text;
    EXPECT_NE(text.find("halide_error_specialize_fail"), std::string::npos) << text;
    p.set(0);
    try {
        f.realize({8});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("A schedule specialized with specialize_fail() was chosen: Unhandled p"),
                  std::string::npos)
            << e.what();
    }
    for (int v : {5, -5}) {
        p.set(v);
        Buffer<int32_t> out = f.realize({8});
        expect_values(out, [](int i) { return i * 2; });
    }
}

TEST(Specialize, ErrorsAreUpstreams) {
    Param<int> p("p");
    Var x("x");
    Func f("f");
    f(x) = x;
    EXPECT_EQ(message_of([&] { f.specialize(x > 0); }),
              "Specialization condition (x > 0) for f depends on Var or RVar x. Specialization conditions may not "
              "depend on any Vars or RVars.");
    EXPECT_EQ(message_of([&] { f.specialize(p + 1); }), "Argument passed to specialize must be of type bool");
    f.specialize(p > 1);
    f.specialize_fail("a");
    EXPECT_EQ(message_of([&] { f.specialize(p > 2); }), "Cannot add new specializations after specialize_fail().");
    EXPECT_EQ(message_of([&] { f.specialize_fail("b"); }), "Only one specialize_fail() may be defined per Stage.");
    // A specialization made before specialize_fail() can still be scheduled.
    EXPECT_EQ(message_of([&] { f.specialize(p > 1).vectorize(x, 4); }), "");
}
