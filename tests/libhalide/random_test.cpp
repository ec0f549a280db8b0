// random_float, random_int, random_uint: values in range, spread evenly
// (a chi-square test of 16 bins, each bit of the integers set half the
// time), independent between calls (correlation near 0), the same at the
// same point whatever the schedule or the run, and distinct per seed. The
// statistics are computed here in plain C++ from the realized values; the
// bounds are loose enough (p < 1e-6 under the uniform hypothesis) not to
// fail by chance. Upstream's values are another hash: not compared.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

constexpr int W = 256, H = 256;

TEST(Random, FloatsAreUniformInZeroOne) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = random_float();
    Buffer<float> b = f.realize({W, H});
    std::vector<int> bins(16, 0);
    double sum = 0;
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) {
            float v = b(i, j);
            ASSERT_GE(v, 0.0f);
            ASSERT_LT(v, 1.0f);
            sum += v;
            bins[(int)(v * 16)]++;
        }
    }
    double n = W * H, mean = sum / n;
    EXPECT_NEAR(mean, 0.5, 5 * 0.2887 / std::sqrt(n));
    double expected = n / 16, chi2 = 0;
    for (int c : bins) {
        chi2 += (c - expected) * (c - expected) / expected;
    }
    EXPECT_LT(chi2, 50.0); // 15 degrees of freedom: P(chi2 > 50) < 1e-5
}

TEST(Random, IntegerBitsAreEachSetHalfTheTime) {
    Var x("x"), y("y");
    Func f("f"), g("g");
    f(x, y) = random_uint();
    g(x, y) = random_int();
    EXPECT_EQ(f.type(), UInt(32));
    EXPECT_EQ(g.type(), Int(32));
    Buffer<uint32_t> bu = f.realize({W, H});
    Buffer<int32_t> bi = g.realize({W, H});
    double n = W * H;
    for (int bit = 0; bit < 32; bit++) {
        int64_t ones_u = 0, ones_i = 0;
        for (int j = 0; j < H; j++) {
            for (int i = 0; i < W; i++) {
                ones_u += (bu(i, j) >> bit) & 1;
                ones_i += ((uint32_t)bi(i, j) >> bit) & 1;
            }
        }
        EXPECT_NEAR(ones_u / n, 0.5, 5 * 0.5 / std::sqrt(n)) << "bit " << bit;
        EXPECT_NEAR(ones_i / n, 0.5, 5 * 0.5 / std::sqrt(n)) << "bit " << bit;
    }
}

double correlation(const Buffer<float> &a, const Buffer<float> &b) {
    double sa = 0, sb = 0, sab = 0, saa = 0, sbb = 0, n = a.number_of_elements();
    a.for_each_element([&](int i, int j) {
        double u = a(i, j), v = b(i, j);
        sa += u, sb += v, sab += u * v, saa += u * u, sbb += v * v;
    });
    double cov = sab / n - (sa / n) * (sb / n);
    return cov / std::sqrt((saa / n - (sa / n) * (sa / n)) * (sbb / n - (sb / n) * (sb / n)));
}

TEST(Random, DistinctCallsAreIndependentAndOneCallIsOneValue) {
    Var x("x"), y("y");
    Expr r = random_float();
    Func f("f");
    f(x, y) = {random_float(), random_float(), r - r, random_float(0), random_float(0)};
    Realization got = f.realize({W, H});
    Buffer<float> a = got[0], b = got[1], zero = got[2], s1 = got[3], s2 = got[4];
    double bound = 5 / std::sqrt((double)W * H);
    EXPECT_LT(std::abs(correlation(a, b)), bound);
    EXPECT_LT(std::abs(correlation(s1, s2)), bound); // the same seed, two calls
    zero.for_each_element([&](int i, int j) { ASSERT_EQ(zero(i, j), 0.0f); });
    // Neighbouring points are independent too.
    Buffer<float> left(W - 1, H), right(W - 1, H);
    left.for_each_element([&](int i, int j) {
        left(i, j) = a(i, j);
        right(i, j) = a(i + 1, j);
    });
    EXPECT_LT(std::abs(correlation(left, right)), bound);
}

TEST(Random, SamePointSameValueWhateverTheScheduleOrRun) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = random_float() + cast<float>(random_uint() % 7);
    Buffer<float> first = f.realize({W, H});
    Buffer<float> again = f.realize({W, H});
    f.tile(x, y, xi, yi, 16, 8).vectorize(xi, 8).parallel(y);
    Buffer<float> scheduled = f.realize({W, H});
    first.for_each_element([&](int i, int j) {
        ASSERT_EQ(first(i, j), again(i, j));
        ASSERT_EQ(first(i, j), scheduled(i, j));
    });
    // An inlined Func gives its value at the point it is called at.
    Func g("g"), h("h");
    g(x, y) = f(x + 1, y) - f(x + 1, y) * 2 + f(x + 1, y);
    h(x, y) = f(x + 1, y);
    Buffer<float> zero = g.realize({W - 1, H}), moved = h.realize({W - 1, H});
    moved.for_each_element([&](int i, int j) {
        ASSERT_EQ(zero(i, j), 0.0f);
        ASSERT_EQ(moved(i, j), first(i + 1, j));
    });
}

TEST(Random, SeedsGiveDifferentStreams) {
    Var x("x");
    Param<int> seed("seed");
    Func f("f");
    f(x) = random_float(seed);
    seed.set(1);
    Buffer<float> a = f.realize({1000});
    seed.set(2);
    Buffer<float> b = f.realize({1000});
    seed.set(1);
    Buffer<float> c = f.realize({1000});
    int same = 0;
    for (int i = 0; i < 1000; i++) {
        EXPECT_EQ(a(i), c(i));
        same += a(i) == b(i);
    }
    EXPECT_LT(same, 3);
}

TEST(Random, UpdatesHashTheirRVars) {
    Var x("x");
    RDom r(0, 64);
    Func g("g");
    g(x) = 0.0f;
    g(x) += select(r >= 0, random_float(), 0.0f); // 64 independent uniforms per x: mean 32, variance 64/12
    Buffer<float> s = g.realize({2000});
    double m = 0, m2 = 0;
    for (int i = 0; i < 2000; i++) {
        m += s(i);
        m2 += s(i) * s(i);
    }
    m /= 2000;
    EXPECT_NEAR(m, 32.0, 5 * std::sqrt(64.0 / 12 / 2000));
    EXPECT_NEAR(m2 / 2000 - m * m, 64.0 / 12, 1.5); // equal values per RVar would give a variance of 64 * 64 / 12
}

TEST(Random, SeedTypeErrorsAreUpstreams) {
    EXPECT_EQ(message_of([] { random_float(cast<uint8_t>(3)); }),
              "The seed passed to random_float must have type Int(32), but instead is (uint8)3 of type uint8");
    EXPECT_EQ(
        message_of([] { random_int(cast<uint8_t>(3)); }),
        "The seed passed to random_int must have type Int(32) or UInt(32), but instead is (uint8)3 of type uint8");
    EXPECT_EQ(
        message_of([] { random_uint(cast<uint8_t>(3)); }),
        "The seed passed to random_int must have type Int(32) or UInt(32), but instead is (uint8)3 of type uint8");
    EXPECT_EQ(random_float().type(), Float(32));
}

} // namespace

namespace {

// Each step of the hash reads its input twice; without a Let per step the
// IR doubles at each of its 16 steps (a 3.4 MB statement for this Func, and
// seconds of compiling). With them it grows linearly with the steps.
TEST(Random, TheHashIsLinearInSizeNotExponential) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = random_float() + random_float(x);
    std::string stmt = f.lowered_stmt();
    EXPECT_LT(stmt.size(), 20000u) << stmt.substr(0, 2000);
}

} // namespace
