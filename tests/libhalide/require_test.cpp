// require(condition, value, error args...): the value where the condition
// holds (compared with plain C++), and upstream 21's run-time error where
// it fails (the texts quoted are upstream's, observed with the same
// pipelines), also from a vectorized loop (checked lane by lane) and a
// parallel one; and upstream's compile-time errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

TEST(Require, ValueWhereTheConditionHolds) {
    Var x("x");
    Param<int> p("p", 100);
    Func f("f");
    f(x) = require(x < p, x * 2, "x is", x);
    EXPECT_EQ(f.type(), Int(32));
    Buffer<int> b = f.realize({50});
    for (int i = 0; i < 50; i++) {
        EXPECT_EQ(b(i), 2 * i);
    }
}

std::string run_error(Func f, int width) {
    try {
        f.realize({width});
    } catch (const RuntimeError &e) {
        return e.what();
    }
    return "";
}

TEST(Require, FailureIsUpstreamsRuntimeError) {
    Var x("x");
    Param<int> p("p", 3);
    Func f("f"), g("g"), h("h"), k("k");
    f(x) = require(x < p, x * 2, x, p);
    // Upstream 21: "Error: Requirement Failed: (false) 6 3 3"
    EXPECT_NE(run_error(f, 5).find("Requirement Failed: (false) 6 3 3"), std::string::npos) << run_error(f, 5);
    g(x) = require(x < p, x * 2);
    EXPECT_NE(run_error(g, 5).find("Requirement Failed: (false) 6"), std::string::npos) << run_error(g, 5);
    // Vectorized: the first failing lane, as upstream's "(false) 12".
    h(x) = require(x < 6, x * 2);
    h.vectorize(x, 4);
    EXPECT_NE(run_error(h, 8).find("Requirement Failed: (false) 12"), std::string::npos) << run_error(h, 8);
    EXPECT_EQ(run_error(h, 6), "");
    k(x) = require(x != 1000, x, "bad x");
    k.parallel(x, 64);
    EXPECT_NE(run_error(k, 2000).find("Requirement Failed: (false) 1000 bad x"), std::string::npos);
    EXPECT_EQ(run_error(k, 1000), "");
}

// A require() in a boundary condition's extent (upstream's require.cpp):
// the clamp it bounds is dropped where the loop is partitioned, yet the
// check is made, with upstream's message; where it holds, the values are
// the repeated edge.
TEST(Require, InABoundaryConditionsExtent) {
    Param<int> p1("p1"), p2("p2");
    ImageParam input(Int(32), 2, "input");
    Func clamped = BoundaryConditions::repeat_edge(input, {{0, 64}, {0, require(p1 == p2, p1)}});
    Buffer<int> in(64, 64);
    in.for_each_element([&](int x, int y) { in(x, y) = x + 100 * y; });
    input.set(in);
    p1.set(16);
    p2.set(15);
    for (int rows : {3, 40}) {
        std::string message;
        try {
            clamped.realize({64, rows});
        } catch (const RuntimeError &e) {
            message = e.what();
        }
        // Upstream 21: "Requirement Failed: (false) 16"
        EXPECT_NE(message.find("Requirement Failed: (false) 16"), std::string::npos) << rows << ": " << message;
    }
    p2.set(16);
    Buffer<int> out = clamped.realize({70, 20});
    for (int y = 0; y < 20; y++) {
        for (int x = 0; x < 70; x++) {
            EXPECT_EQ(out(x, y), std::min(x, 63) + 100 * std::min(y, 15)) << x << ", " << y;
        }
    }
}

TEST(Require, CompileErrorsAreUpstreams) {
    Var x("x");
    EXPECT_EQ(message_of([&] { require(x, x); }), "Require condition must be a boolean type.");
    EXPECT_EQ(message_of([&] { require(x < 1, Expr()); }), "Require of undefined value.");
}

} // namespace
