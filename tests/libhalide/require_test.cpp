// require(condition, value, error args...): the value where the condition
// holds (compared with plain C++), and upstream 21's run-time error where
// it fails (the texts quoted are upstream's, observed with the same
// pipelines), also from a vectorized loop (checked lane by lane) and a
// parallel one; and upstream's compile-time errors.
#include <gtest/gtest.h>

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

TEST(Require, CompileErrorsAreUpstreams) {
    Var x("x");
    EXPECT_EQ(message_of([&] { require(x, x); }), "Require condition must be a boolean type.");
    EXPECT_EQ(message_of([&] { require(x < 1, Expr()); }), "Require of undefined value.");
}

} // namespace
