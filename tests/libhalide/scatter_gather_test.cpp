// scatter() and gather(): an update storing several values at several
// places at once. Expected values are written out here from the
// definitions (the results match what upstream Halide 21 computes; this
// file also builds and passes against upstream's Halide.h, except the last
// test, which checks an error of ours).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

std::vector<int> values_of(const Buffer<int> &b) {
    std::vector<int> v;
    for (int i = 0; i < b.width(); i++) {
        v.push_back(b(i));
    }
    return v;
}

std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "(no error)";
}

TEST(ScatterGather, SwapReadsBothBeforeStoring) {
    Func f("swap");
    Var x("x");
    f(x) = x;
    f(scatter(3, 5)) = f(gather(5, 3));
    EXPECT_EQ(values_of(f.realize({8})), (std::vector<int>{0, 1, 2, 5, 4, 3, 6, 7}));
}

TEST(ScatterGather, ConstantsAndRepeatedPlaces) {
    Func f("constants");
    Var x("x");
    f(x) = x;
    f(scatter(3, 5)) = gather(100, 200);
    EXPECT_EQ(values_of(f.realize({8})), (std::vector<int>{0, 1, 2, 100, 4, 200, 6, 7}));
    // A value without gather is stored at every place; the last store to
    // a place wins.
    Func g("broadcast_value");
    g(x) = 0;
    g(scatter(1, 2)) = 7;
    g(scatter(3, 3)) = gather(8, 9);
    EXPECT_EQ(values_of(g.realize({5})), (std::vector<int>{0, 7, 7, 9, 0}));
}

TEST(ScatterGather, SelectBetweenPackets) {
    // Swap 3 and 5 when p, else rotate 1, 2, 3 (upstream's example).
    for (bool p_value : {false, true}) {
        Func f("rotate_or_swap");
        Var x("x");
        Param<bool> p("p_rotate");
        p.set(p_value);
        f(x) = x;
        f(select(p, scatter(3, 5, 5), scatter(1, 2, 3))) = f(select(p, gather(5, 3, 3), gather(2, 3, 1)));
        std::vector<int> expected =
            p_value ? std::vector<int>{0, 1, 2, 5, 4, 3, 6, 7} : std::vector<int>{0, 2, 3, 1, 4, 5, 6, 7};
        EXPECT_EQ(values_of(f.realize({8})), expected) << "p = " << p_value;
    }
}

TEST(ScatterGather, OperationsDistributeOverValues) {
    Func f("over_rdom");
    Var x("x");
    RDom r(0, 3);
    f(x) = 0;
    f(r * 2 + scatter(0, 1)) = gather(r, -r) * 2 + gather(0, 0);
    EXPECT_EQ(values_of(f.realize({8})), (std::vector<int>{0, 0, 2, -2, 4, -4, 0, 0}));
}

TEST(ScatterGather, VectorizedAndTuples) {
    Func f("vectorized");
    Var x("x"), y("y");
    f(x, y) = 0;
    f(x, scatter(0, 1)) = gather(x, 10 + x);
    f.update().vectorize(x, 4);
    Buffer<int> b = f.realize({8, 2});
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(b(i, 0), i);
        EXPECT_EQ(b(i, 1), 10 + i);
    }
    Func t("tuple");
    t(x) = {0, 0};
    t(scatter(1, 2)) = {gather(1, 2), gather(3, 4)};
    Realization rr = t.realize({4});
    EXPECT_EQ(values_of(rr[0]), (std::vector<int>{0, 1, 2, 0}));
    EXPECT_EQ(values_of(rr[1]), (std::vector<int>{0, 3, 4, 0}));
}

TEST(ScatterGather, UpstreamErrors) {
    Var x("x");
    Func f("mismatched");
    f(x) = 0;
    // Upstream reports them when the Func is lowered, ours when it is defined.
    EXPECT_NE(error_of([&]() {
                  f(scatter(1, 2)) = gather(1, 2, 3);
                  f.realize({4});
              }).find("Expression tuples of mismatched sizes used in definition of "),
              std::string::npos);
    Func g("nested");
    g(x) = 0;
    EXPECT_NE(error_of([&]() {
                  g(scatter(1, 2)) = gather(scatter(3, 4), 7);
                  g.realize({4});
              }).find("Can't nest an expression tuple inside another in definition of "),
              std::string::npos);
}

#ifndef TEST_AGAINST_UPSTREAM // defined when this file is built against upstream
TEST(ScatterGather, ValuesOfOneType) {
    // Ours: a clear error (upstream accepts mixed types here).
    Var x("x");
    EXPECT_NE(error_of([&]() { (void)gather(x, 1.5f); }).find("of values of different types (int32 and float32)"),
              std::string::npos);
    EXPECT_NE(error_of([&]() { (void)scatter(std::vector<Expr>{}); }).find("needs at least one value"),
              std::string::npos);
}
#endif

} // namespace
