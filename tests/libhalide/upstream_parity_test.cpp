// Cases where our results once differed from upstream Halide's (issue 16).
// Each expected value is computed here in plain C++ from the documented
// rule, never taken from our compiler.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

// Realizes `f` over `n` points unscheduled, then under each schedule.
template <typename T>
void expect_all_schedules(const std::function<Func()> &make, const std::vector<std::function<void(Func &)>> &schedules,
                          int n, const std::function<T(int)> &expected) {
    for (size_t s = 0; s <= schedules.size(); s++) {
        Func f = make();
        if (s > 0) {
            schedules[s - 1](f);
        }
        Buffer<T> out = f.realize({n});
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(out(i), expected(i)) << "schedule " << s << " at " << i;
        }
    }
}

} // namespace

// A negative int8 widened to uint16 sign-extends under every schedule (LLVM
// 19's SLP vectorizer once turned sext-then-uitofp into a zero extension).
TEST(UpstreamParity, NegativeNarrowValueWidenedToUnsignedUnderSplit) {
    Buffer<int8_t> in(8);
    const int8_t vals[] = {3, -7, 100, -128, 5, 0, 127, -1};
    for (int i = 0; i < 8; i++) {
        in(i) = vals[i];
    }
    Var x("x"), xo("xo"), xi("xi");
    auto make = [&] {
        Func f("f");
        f(x) = lerp(cast<uint16_t>(5), cast<uint16_t>(2), cast<uint16_t>(cast<int8_t>(absd(in(x), in(x + 1)))));
        return f;
    };
    auto expected = [&](int i) {
        int d = std::abs(vals[i] - vals[i + 1]);
        uint16_t w = (uint16_t)(int8_t)(uint8_t)d; // wraps negative, then sign-extends
        // 16-bit lerp: ((p >> 16) + p) >> 16 with p = 5 * (65535 - w) + 2 * w + 2^15.
        uint32_t p = 5u * (65535u - w) + 2u * w + 32768u;
        return (uint16_t)(((p >> 16) + p) >> 16);
    };
    expect_all_schedules<uint16_t>(make, {[&](Func &f) { f.split(x, xo, xi, 2); }}, 7, expected);
}

TEST(UpstreamParity, Int8ProducerWidenedToUint16InsideSplitLoop) {
    Buffer<int32_t> in(8);
    for (int i = 0; i < 8; i++) {
        in(i) = -3 - 100 * i;
    }
    Var x("x"), xo("xo"), xi("xi");
    Func f0("f0");
    auto make = [&] {
        f0 = Func("f0");
        f0(x) = cast<int8_t>(in(x));
        Func f3("f3");
        f3(x) = cast<uint16_t>(f0(x)) - 3.0f;
        return f3;
    };
    auto expected = [&](int i) { return (float)(uint16_t)(int8_t)(-3 - 100 * i) - 3.0f; };
    expect_all_schedules<float>(make,
                                {[&](Func &f3) {
                                     f3.split(x, xo, xi, 4);
                                     f0.compute_at(f3, xo);
                                 },
                                 [&](Func &f3) {
                                     f3.vectorize(x, 4);
                                     f0.compute_root();
                                 }},
                                8, expected);
}

// Every signed width widened to every wider unsigned width, and narrowed
// back, through a producer computed inside a split loop.
TEST(UpstreamParity, SignedWideningAndNarrowingThroughProducers) {
    const int n = 37;
    Buffer<int32_t> in(n);
    for (int i = 0; i < n; i++) {
        in(i) = (i * 2654435761u) >> 7; // both signs, every byte pattern
    }
    Var x("x"), xo("xo"), xi("xi");
    Func p("p");
    auto make = [&] {
        p = Func("p");
        p(x) = Tuple(cast<int8_t>(in(x)), cast<int16_t>(in(x)));
        Func c("c");
        c(x) = cast<double>(cast<uint16_t>(p(x)[0])) + cast<double>(cast<uint32_t>(p(x)[0])) +
               cast<double>(cast<uint64_t>(p(x)[1]) % 1000003) + cast<double>(cast<uint32_t>(p(x)[1])) +
               cast<double>(cast<uint8_t>(cast<int16_t>(p(x)[0]) * 3));
        return c;
    };
    auto expected = [&](int i) {
        int8_t a = (int8_t)in(i);
        int16_t b = (int16_t)in(i);
        return (double)(uint16_t)a + (double)(uint32_t)a + (double)((uint64_t)(int64_t)b % 1000003) +
               (double)(uint32_t)b + (double)(uint8_t)(int16_t)(a * 3);
    };
    expect_all_schedules<double>(make,
                                 {[&](Func &c) {
                                      c.split(x, xo, xi, 4);
                                      p.compute_at(c, xo);
                                  },
                                  [&](Func &c) {
                                      c.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
                                      p.compute_at(c, xi);
                                  },
                                  [&](Func &c) {
                                      c.vectorize(x, 8, TailStrategy::GuardWithIf);
                                      p.compute_root().vectorize(x, 16, TailStrategy::GuardWithIf);
                                  }},
                                 n, expected);
}

// A negative signed amount shifts the other way: a << -k == a >> k.
TEST(UpstreamParity, ShiftByNegativeAmountReversesDirection) {
    Buffer<int16_t> a(1), k(1);
    a(0) = -32768;
    k(0) = -3;
    Func l("l"), r("r");
    Var x("x");
    l(x) = a(Expr(0)) << k(Expr(0));
    r(x) = a(Expr(0)) >> k(Expr(0));
    Buffer<int16_t> lo = l.realize({1}), ro = r.realize({1});
    EXPECT_EQ(lo(0), -4096);
    EXPECT_EQ(ro(0), 0);
    // Constant-folded the same way.
    Func lc("lc"), rc("rc");
    lc(x) = Expr((int16_t)-32768) << Expr((int16_t)-3);
    rc(x) = Expr((int16_t)-32768) >> Expr((int16_t)-3);
    Buffer<int16_t> lco = lc.realize({1}), rco = rc.realize({1});
    EXPECT_EQ(lco(0), -4096);
    EXPECT_EQ(rco(0), 0);
}
