// f(x) += Tuple(...) and the other update operators with Tuples, as
// upstream's: value by value, an undefined Func first defined as 0s (+=,
// -=) or 1s (*=, /=). Expected values are worked out by hand.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"

using namespace Halide;

TEST(TupleUpdate, OperatorsValueByValue) {
    Func f;
    Var x;
    f(x) += Tuple(x, cast<float>(x) * 0.5f); // defined first as (0, 0.0f)
    f(x) *= Tuple(2, 3.0f);
    f(x) -= Tuple(1, 0.5f);
    f(x) /= Tuple(1, 2.0f);
    Realization r = f.realize({5});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(a(i), 2 * i - 1);
        EXPECT_EQ(b(i), (i * 0.5f * 3.0f - 0.5f) / 2.0f);
    }
}

TEST(TupleUpdate, UndefinedFuncStartsFromOnesForProducts) {
    Func f;
    Var x;
    f(x) *= Tuple(x + 1, cast<uint8_t>(3));
    Realization r = f.realize({3});
    Buffer<int> a = r[0];
    Buffer<uint8_t> b = r[1];
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(a(i), i + 1);
        EXPECT_EQ(b(i), 3);
    }
}

TEST(TupleUpdate, WithAnRDom) {
    Func f;
    Var x;
    RDom r(0, 4);
    f(x) = Tuple(0, 0.0f);
    f(x) += Tuple(r * x, cast<float>(r));
    Realization out = f.realize({3});
    Buffer<int> a = out[0];
    Buffer<float> b = out[1];
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(a(i), 6 * i);
        EXPECT_EQ(b(i), 6.0f);
    }
}

TEST(TupleUpdate, SizeMismatchIsAnError) {
    Func f("tup");
    Var x;
    f(x) = Tuple(x, x);
    try {
        f(x) += Tuple(1, 2, 3);
        FAIL() << "expected an error";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Tuple"), std::string::npos) << e.what();
    }
}
