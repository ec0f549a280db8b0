// Bounds inference under the conditions a region is used in, as upstream 21
// infers them (every expected region and count below was observed running the
// same program against upstream 21; values are checked against plain C++):
// - a specialization's reads count only when its condition holds, so the
//   input checks and infer_input_bounds take the branch that runs, not the
//   union of every branch's;
// - select(x < 100, f(x), g(x)) computes f only where x < 100 and g only
//   where it is not (the condition, linear in a loop variable, trims each
//   branch's region), while their storage covers everything loaded;
// - a Func computed wider than needed (vectorized past its region's end)
//   has its producers computed only where the needed points read them.
// This file builds against upstream 21's Halide.h too (no internal header).
#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <utility>

#include "Halide.h"

using namespace Halide;

namespace {

int calls[2];

} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int conditional_bounds_count(int slot, int v) {
    calls[slot]++;
    return v;
}
HalideExtern_2(int, conditional_bounds_count, int, int);

namespace {

std::string runtime_error_of(const std::function<void()> &fn) {
    try {
        fn();
    } catch (const RuntimeError &e) {
        return e.what();
    }
    return "";
}

// The width and height of im that f's infer_input_bounds({10}) allocates
// with p set to `value`.
std::pair<int, int> input_region(Func f, ImageParam im, Param<int> p, int value) {
    im.reset();
    p.set(value);
    f.infer_input_bounds({10});
    return {im.get().width(), im.get().height()};
}

} // namespace

TEST(SpecializeBounds, InferInputBoundsTakesTheBranchThatRuns) {
    ImageParam im(Float(32), 1, "im");
    Param<bool> p("p");
    Func f("f");
    Var x("x");
    f(x) = select(p, im(x + 10), im(x - 10));
    f.specialize(p);
    p.set(true);
    f.infer_input_bounds({100});
    EXPECT_EQ(im.get().min(0), 10);
    EXPECT_EQ(im.get().extent(0), 100);
    p.set(false);
    im.reset();
    f.infer_input_bounds({100});
    EXPECT_EQ(im.get().min(0), -10);
    EXPECT_EQ(im.get().extent(0), 100);
}

TEST(SpecializeBounds, AnInputOnlyOneBranchReadsIsUncheckedInTheOther) {
    ImageParam im(Float(32), 1, "im");
    Param<bool> p("p");
    Func f("f");
    Var x("x");
    f(x) = select(p, im(x), 0.0f);
    f.specialize(p);
    Buffer<float> small(10);
    small.fill(3.0f);
    im.set(small);
    p.set(false);
    Buffer<float> out = f.realize({100});
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(out(i), 0.0f) << i;
    }
    // The branch that reads it still needs all of it.
    p.set(true);
    std::string message = runtime_error_of([&] { f.realize({100}); });
    EXPECT_NE(message.find("Input buffer im is accessed at 99, which is beyond the max (9) in dimension 0"),
              std::string::npos)
        << message;
    Buffer<float> big(100);
    for (int i = 0; i < 100; i++) {
        big(i) = (float)i;
    }
    im.set(big);
    out = f.realize({100});
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(out(i), (float)i) << i;
    }
}

TEST(SpecializeBounds, AConditionThatDecidesASelectTrimsItsOtherSide) {
    ImageParam im(Int(32), 2, "im");
    Param<int> p("p");
    // Decided by the condition itself where it holds.
    Expr test = (p > 73) || (p * p + p + 1 == 0);
    Func f("f");
    Var x("x");
    f(x) = select(test, im(x, 0), im(0, x));
    f.specialize(test);
    EXPECT_EQ(input_region(f, im, p, 100), std::make_pair(10, 1));
    EXPECT_EQ(input_region(f, im, p, -100), std::make_pair(1, 10));
}

TEST(SpecializeBounds, AComparisonImpliedByTheConditionIsDecided) {
    ImageParam im(Int(32), 2, "im");
    Param<int> p("p");
    Func f("f");
    Var x("x");
    f(x) = select(p > 50, im(x, 0), im(0, x));
    f.specialize(p > 73); // p > 73 implies p > 50; p <= 73 decides nothing
    EXPECT_EQ(input_region(f, im, p, 100), std::make_pair(10, 1));
    EXPECT_EQ(input_region(f, im, p, -100), std::make_pair(10, 10));
}

TEST(SpecializeBounds, AVectorizedBranchNotTakenDoesNotWidenTheInput) {
    // f and out vectorized only where the output is at least 4 wide: a
    // 3-wide output runs the scalar branches, which read 3 values. g and h,
    // vectorized always, compute 4 values each (one below the region), but
    // only the 3 needed matter, so their producers are computed over 3.
    ImageParam im(Int(32), 1, "im");
    Func f("f"), g("g"), h("h"), out("out");
    Var x("x");
    f(x) = im(x) * 2;
    g(x) = f(x) + 1;
    h(x) = g(x);
    out(x) = h(x);
    Expr w = out.output_buffer().dim(0).extent();
    out.output_buffer().dim(0).set_min(0);
    f.compute_root().specialize(w >= 4).vectorize(x, 4);
    g.compute_root().vectorize(x, 4);
    h.compute_root().vectorize(x, 4);
    out.specialize(w >= 4).vectorize(x, 4);
    Buffer<int> input(3), output(3);
    for (int i = 0; i < 3; i++) {
        input(i) = 5 * i + 1;
    }
    im.set(input);
    out.realize(output);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(output(i), input(i) * 2 + 1) << i;
    }
    Buffer<int> input8(8), output8(8);
    for (int i = 0; i < 8; i++) {
        input8(i) = 3 * i - 4;
    }
    im.set(input8);
    out.realize(output8);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(output8(i), input8(i) * 2 + 1) << i;
    }
}

TEST(SpecializeBounds, UnrollingInheritedBySpecializationStillCounts) {
    ImageParam im(Int(32), 2, "im");
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = im(x, y);
    Expr cond = f.output_buffer().width() >= 4;
    f.reorder(y, x).unroll(y, 2).reorder(x, y);
    f.specialize(cond).vectorize(x, 4);
    f.infer_input_bounds({3, 1});
    EXPECT_EQ(im.get().extent(0), 3);
    EXPECT_EQ(im.get().extent(1), 2);
}

// h(x) = <select> over [min, min + extent) with f and g compute_root: how
// many points of f and g are computed, and h's values.
struct Concat {
    int f_calls, g_calls;
};

Concat run_concat(int mode, int min, int extent) {
    Func f("f"), g("g"), h("h");
    Var x("x");
    f(x) = conditional_bounds_count(0, x) * 3;
    g(x) = conditional_bounds_count(1, x) * 5;
    auto ref = [&](int i) -> int {
        switch (mode) {
        case 0: return i < 100 ? i * 3 : i * 5;
        case 1: return i >= 100 ? (i - 100) * 3 : i * 5;
        case 2: return i + 5 < 100 ? i * 3 : i * 5;
        case 3: return (100 > i ? i * 3 : i * 5) + (i < 150 ? (i + 1) * 3 : 0);
        case 4: return i < 100 ? i * 3 : (i < 150 ? i * 5 : 0);
        default: return 2 * i < 100 ? i * 3 : i * 5;
        }
    };
    switch (mode) {
    case 0: h(x) = select(x < 100, f(x), g(x)); break;
    case 1: h(x) = select(x >= 100, f(x - 100), g(x)); break;
    case 2: h(x) = select(x + 5 < 100, f(x), g(x)); break;
    case 3: h(x) = select(100 > x, f(x), g(x)) + select(x < 150, f(x + 1), 0); break;
    case 4: h(x) = select(x < 100, f(x), select(x < 150, g(x), 0)); break;
    default: h(x) = select(2 * x < 100, f(x), g(x)); break;
    }
    f.compute_root();
    g.compute_root();
    calls[0] = calls[1] = 0;
    Buffer<int> out(extent);
    out.set_min(min);
    h.realize(out);
    for (int i = min; i < min + extent; i++) {
        EXPECT_EQ(out(i), ref(i)) << "mode " << mode << " at " << i;
    }
    return {calls[0], calls[1]};
}

TEST(SelectBounds, EachBranchIsComputedWhereItsConditionPicksIt) {
    // {mode, min, extent, f calls, g calls}, as upstream 21 counts them.
    const int cases[][5] = {
        {0, 0, 200, 100, 100}, {0, 0, 50, 50, 0},    {0, 150, 50, 0, 50},   {0, 90, 20, 10, 10},  {1, 0, 200, 100, 100},
        {1, 0, 50, 0, 50},     {1, 150, 50, 50, 0},  {1, 90, 20, 10, 10},   {2, 0, 200, 95, 105}, {2, 0, 50, 50, 0},
        {2, 150, 50, 0, 50},   {2, 90, 20, 5, 15},   {3, 0, 200, 151, 100}, {3, 0, 50, 51, 0},    {3, 150, 50, 1, 50},
        {3, 90, 20, 21, 10},   {4, 0, 200, 100, 50}, {4, 0, 50, 50, 0},     {4, 150, 50, 0, 0},   {4, 90, 20, 10, 10},
        {5, 0, 200, 50, 150},  {5, 0, 50, 50, 0},    {5, 150, 50, 0, 50},   {5, 90, 20, 0, 20},
    };
    for (const auto &c : cases) {
        Concat got = run_concat(c[0], c[1], c[2]);
        EXPECT_EQ(got.f_calls, c[3]) << "mode " << c[0] << " over [" << c[1] << ", +" << c[2] << ")";
        EXPECT_EQ(got.g_calls, c[4]) << "mode " << c[0] << " over [" << c[1] << ", +" << c[2] << ")";
    }
}

TEST(SelectBounds, StorageCoversTheLoadsOfAVectorizedSelect) {
    // Vectorized, h loads f and g on both sides of x = 100 in one vector
    // (a select evaluates both): their storage covers that, their
    // computation only what is picked.
    Func f("f"), g("g"), h("h");
    Var x("x");
    f(x) = conditional_bounds_count(0, x) + 1;
    g(x) = conditional_bounds_count(1, x) + 2;
    h(x) = select(x < 98, f(x), g(x));
    f.compute_root();
    g.compute_root();
    h.vectorize(x, 8);
    calls[0] = calls[1] = 0;
    Buffer<int> out = h.realize({200});
    for (int i = 0; i < 200; i++) {
        ASSERT_EQ(out(i), i < 98 ? i + 1 : i + 2) << i;
    }
    EXPECT_EQ(calls[0], 98);
    EXPECT_EQ(calls[1], 102);
}

TEST(SelectBounds, ComputedInsideTheConsumersLoop) {
    // Per row: the select's condition depends on the column only.
    Func f("f"), g("g"), h("h");
    Var x("x"), y("y");
    f(x, y) = conditional_bounds_count(0, x + y);
    g(x, y) = conditional_bounds_count(1, x - y);
    h(x, y) = select(x < 30, f(x, y), g(x, y));
    f.compute_at(h, y);
    g.compute_at(h, y);
    calls[0] = calls[1] = 0;
    Buffer<int> out = h.realize({50, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 50; i++) {
            ASSERT_EQ(out(i, j), i < 30 ? i + j : i - j) << i << ", " << j;
        }
    }
    EXPECT_EQ(calls[0], 30 * 4);
    EXPECT_EQ(calls[1], 20 * 4);
}

TEST(VectorizedBounds, ProducersOfAFuncComputedWiderThanNeededAreComputedWhereNeeded) {
    // g vectorized by 4 computes at least 4 values; h needs n of them. f is
    // computed over the n needed (upstream 21 counts 1, 3, 6), and stored
    // over the 4 that g loads.
    for (int n : {1, 3, 6}) {
        Func f("f"), g("g"), h("h");
        Var x("x");
        f(x) = conditional_bounds_count(0, x);
        f.compute_root();
        g(x) = f(x) + 1;
        g.compute_root().vectorize(x, 4);
        h(x) = g(x) + 2;
        calls[0] = 0;
        Buffer<int> out = h.realize({n});
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(out(i), i + 3) << i;
        }
        EXPECT_EQ(calls[0], n) << "h over " << n;
    }
}
