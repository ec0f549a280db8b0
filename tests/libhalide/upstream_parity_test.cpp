// Cases where our results once differed from upstream Halide's (issue 16).
// Each expected value is computed here in plain C++ from the documented
// rule, never taken from our compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
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

// ---------------------------------------------------------------------------
// lerp with upstream's rounding: the weight is scaled to the values' bit
// size first, then the N-bit lerp rounds to nearest.

namespace {

// The documented rule, in plain C++ (see docs/language.md).
uint64_t ref_scaled_weight(int n, bool weight_is_float, double wf, int wbits, uint64_t wu) {
    uint64_t top = n == 64 ? ~0ull : (1ull << n) - 1;
    if (weight_is_float) {
        if (n == 32) {
            return (uint64_t)(4294967295.0 * wf);
        }
        // The product is rounded to the weight's own float type.
        double scaled = wbits == 32 ? (double)((float)top * (float)wf) : (double)top * wf;
        return (uint64_t)scaled;
    }
    if (wbits == n) {
        return wu;
    }
    int wide = std::max(wbits, n), narrow = std::min(wbits, n);
    uint64_t factor = 0; // (2^wide - 1) / (2^narrow - 1)
    for (int shift = 0; shift < wide; shift += narrow) {
        factor |= 1ull << shift;
    }
    return wbits > n ? wu / factor : (wu * factor) & top;
}

template <typename T> T ref_integer_lerp(T a, T b, uint64_t w) {
    constexpr int n = sizeof(T) * 8;
    using U = std::make_unsigned_t<T>;
    const uint64_t flip = std::is_signed_v<T> ? (1ull << (n - 1)) : 0;
    uint64_t ua = (uint64_t)(U)a ^ flip, ub = (uint64_t)(U)b ^ flip;
    uint64_t top = (uint64_t)(U)~U(0);
    // 2N-bit arithmetic; N <= 32 so it fits in 64 bits.
    uint64_t p = ua * (top - w) + ub * w + (1ull << (n - 1));
    uint64_t r = (((p >> n) + p) >> n) ^ flip;
    return (T)(U)r;
}

template <typename T> Expr imm(T v) {
    return Expr(v);
}

} // namespace

TEST(UpstreamParity, IntegerLerpScalesTheWeightFirst) {
    // Values from upstream Halide 21, as quoted in issue 16.
    Var x("x");
    auto one = [&](Expr e) {
        Func f("f");
        f(x) = e;
        Buffer<uint8_t> out = f.realize({1});
        return (int)out(0);
    };
    EXPECT_EQ(one(lerp(imm<uint8_t>(7), imm<uint8_t>(100), imm<uint16_t>(32768))), 53);
    EXPECT_EQ(one(lerp(imm<uint8_t>(250), imm<uint8_t>(5), imm<uint16_t>(999))), 247);
    EXPECT_EQ(one(lerp(imm<uint8_t>(0), imm<uint8_t>(255), 0.5f)), 127);
    EXPECT_EQ(one(lerp(imm<uint8_t>(200), imm<uint8_t>(10), 0.999f)), 11);
}

namespace {

// Every value type against every weight type, scalar and vectorized, over
// inputs that include each type's extremes.
template <typename T, typename W> void check_lerp_pair() {
    const int n = 67;
    Buffer<T> a(n), b(n);
    Buffer<W> w(n);
    for (int i = 0; i < n; i++) {
        uint64_t h = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        a(i) = (T)(h >> 13);
        b(i) = (T)(h >> 29);
        if constexpr (std::is_floating_point_v<W>) {
            w(i) = (W)((h >> 40) % 1001) / (W)1000; // [0, 1]
        } else {
            w(i) = (W)(h >> 7);
        }
    }
    a(0) = std::numeric_limits<T>::min();
    b(0) = std::numeric_limits<T>::max();
    a(1) = std::numeric_limits<T>::max();
    b(1) = std::numeric_limits<T>::min();
    w(0) = std::is_floating_point_v<W> ? (W)1 : std::numeric_limits<W>::max();
    w(1) = (W)0;
    Var x("x");
    for (int vec = 0; vec < 2; vec++) {
        Func f("f");
        f(x) = lerp(a(x), b(x), w(x));
        if (vec) {
            f.vectorize(x, 8, TailStrategy::GuardWithIf);
        }
        Buffer<T> out = f.realize({n});
        for (int i = 0; i < n; i++) {
            uint64_t sw;
            if constexpr (std::is_floating_point_v<W>) {
                sw = ref_scaled_weight(sizeof(T) * 8, true, (double)w(i), sizeof(W) * 8, 0);
            } else {
                sw = ref_scaled_weight(sizeof(T) * 8, false, 0, sizeof(W) * 8, (uint64_t)w(i));
            }
            T e = ref_integer_lerp<T>(a(i), b(i), sw);
            ASSERT_EQ(out(i), e) << "lerp(" << +a(i) << ", " << +b(i) << ", " << +w(i) << ") of "
                                 << type_to_string(type_of<T>()) << " by " << type_to_string(type_of<W>())
                                 << (vec ? " vectorized" : " scalar");
        }
    }
}

template <typename T> void check_lerp_value_type() {
    check_lerp_pair<T, uint8_t>();
    check_lerp_pair<T, uint16_t>();
    check_lerp_pair<T, uint32_t>();
    check_lerp_pair<T, uint64_t>();
    check_lerp_pair<T, float>();
    check_lerp_pair<T, double>();
}

} // namespace

TEST(UpstreamParity, IntegerLerpEveryValueAndWeightType) {
    check_lerp_value_type<uint8_t>();
    check_lerp_value_type<int8_t>();
    check_lerp_value_type<uint16_t>();
    check_lerp_value_type<int16_t>();
    check_lerp_value_type<uint32_t>();
    check_lerp_value_type<int32_t>();
}

TEST(UpstreamParity, BoolAndFloatLerp) {
    Var x("x");
    Buffer<float> wf(3);
    wf(0) = 0.25f;
    wf(1) = 0.5f;
    wf(2) = 0.75f;
    Buffer<uint8_t> wu(3);
    wu(0) = 127;
    wu(1) = 128;
    wu(2) = 255;
    // Bool values: the second value only strictly above half the weight's range.
    Func bf("bf"), bu("bu");
    bf(x) = lerp(Expr(false), Expr(true), wf(x));
    bu(x) = lerp(Expr(false), Expr(true), wu(x));
    Buffer<bool> obf = bf.realize({3}), obu = bu.realize({3});
    EXPECT_EQ(obf(0), false);
    EXPECT_EQ(obf(1), false);
    EXPECT_EQ(obf(2), true);
    EXPECT_EQ(obu(0), false);
    EXPECT_EQ(obu(1), true);
    EXPECT_EQ(obu(2), true);
    // Float values with an unsigned weight: w / 255 (to rounding).
    Func ff("ff");
    ff(x) = lerp(Expr(2.0), Expr(10.0), wu(x));
    Buffer<double> off = ff.realize({3});
    for (int i = 0; i < 3; i++) {
        double w = wu(i) / 255.0;
        EXPECT_NEAR(off(i), 2.0 * (1.0 - w) + 10.0 * w, 1e-12) << i;
    }
}

// ---------------------------------------------------------------------------
// Schedule legality: a Func stored outside a parallel or vectorized loop but
// computed inside it is a race, refused with upstream's words.

namespace {

// Each instance's Funcs get names of their own (f0, f1, f2 with a prefix):
// the names appear in the messages checked.
struct ThreeStages {
    Var x{"x"}, y{"y"}, xo{"xo"}, xi{"xi"};
    Func f0, f1, f2;
    explicit ThreeStages(const std::string &p) : f0(p + "f0"), f1(p + "f1"), f2(p + "f2") {
        f0(x, y) = x + y;
        f1(x, y) = f0(x, y) + f0(x + 1, y);
        f2(x, y) = f1(x, y) * 2;
    }
    // Empty when it compiles and computes the right values, else the error.
    std::string realize() {
        try {
            Buffer<int32_t> out = f2.realize({8, 8});
            for (int j = 0; j < 8; j++) {
                for (int i = 0; i < 8; i++) {
                    if (out(i, j) != 2 * (2 * (i + j) + 1)) {
                        return "wrong value";
                    }
                }
            }
            return "";
        } catch (const CompileError &e) {
            return e.what();
        }
    }
};

const char *kRace = "is stored outside the parallel/vectorized/gpu_block loop over ";

} // namespace

TEST(UpstreamParity, StoredOutsideParallelLoopButComputedInsideIsRefused) {
    {
        ThreeStages p("t1_");
        p.f2.parallel(p.y);
        p.f1.compute_at(p.f2, p.x);
        p.f0.compute_at(p.f1, p.x).store_root();
        std::string err = p.realize();
        EXPECT_NE(err.find(std::string("Func \"t1_f0\" ") + kRace +
                           "t1_f2.y but computed within it. This is a potential race condition."),
                  std::string::npos)
            << err;
        EXPECT_NE(err.find("t1_f0.store_root().compute_at(t1_f1, x);"), std::string::npos) << err;
    }
    {
        // The compute level is the parallel loop itself.
        ThreeStages p("t2_");
        p.f2.parallel(p.y);
        p.f0.store_root().compute_at(p.f2, p.y);
        EXPECT_NE(p.realize().find(kRace), std::string::npos);
    }
    {
        ThreeStages p("t3_");
        p.f2.split(p.y, p.xo, p.xi, 2).parallel(p.xo);
        p.f0.compute_at(p.f2, p.xi).store_root();
        EXPECT_NE(p.realize().find(std::string(kRace) + "t3_f2.xo"), std::string::npos);
    }
    {
        ThreeStages p("t4_");
        p.f2.split(p.x, p.xo, p.xi, 4).vectorize(p.xi);
        p.f0.compute_at(p.f2, p.xi).store_root();
        EXPECT_NE(p.realize().find(std::string(kRace) + "t4_f2.xi"), std::string::npos);
    }
}

// A split of a parallel loop gives two parallel loops, as upstream: storage
// between them and a computation inside the inner one is a race.
TEST(UpstreamParity, BothHalvesOfASplitParallelLoopAreParallel) {
    ThreeStages p("t8_");
    p.f2.parallel(p.y);
    p.f2.split(p.y, p.xo, p.xi, 2);
    p.f0.compute_at(p.f2, p.xi).store_at(p.f2, p.xo);
    EXPECT_NE(p.realize().find(std::string(kRace) + "t8_f2.xi"), std::string::npos);
    ThreeStages q("t9_");
    q.f2.parallel(q.y);
    q.f2.split(q.y, q.xo, q.xi, 2);
    q.f0.compute_at(q.f2, q.xi);
    EXPECT_EQ(q.realize(), "");
}

TEST(UpstreamParity, StorageInsideTheParallelLoopIsAccepted) {
    auto ok = [](const std::function<void(ThreeStages &)> &schedule) {
        ThreeStages p("t5_");
        schedule(p);
        return p.realize();
    };
    EXPECT_EQ(ok([](ThreeStages &p) {
                  p.f2.parallel(p.y);
                  p.f0.compute_at(p.f2, p.x).store_at(p.f2, p.y);
              }),
              "");
    EXPECT_EQ(ok([](ThreeStages &p) {
                  p.f2.parallel(p.y);
                  p.f0.compute_at(p.f2, p.x);
              }),
              "");
    EXPECT_EQ(ok([](ThreeStages &p) {
                  p.f2.parallel(p.y);
                  p.f0.compute_at(p.f2, p.y).parallel(p.x);
              }),
              "");
    EXPECT_EQ(ok([](ThreeStages &p) {
                  p.f2.unroll(p.x, 2);
                  p.f0.compute_at(p.f2, p.x).store_root();
              }),
              "");
}

TEST(UpstreamParity, InvalidPlacementsUseUpstreamsWords) {
    ThreeStages a("t6_");
    a.f0.compute_at(a.f2, a.y).store_at(a.f2, a.x);
    EXPECT_NE(a.realize().find("Func \"t6_f0\" is computed at the following invalid location:\n"
                               "  t6_f0.store_at(t6_f2, x).compute_at(t6_f2, y);"),
              std::string::npos);
    ThreeStages b("t7_");
    b.f0.compute_at(b.f1, b.x); // f1 is inlined
    EXPECT_NE(b.realize().find("Func \"t7_f0\" is computed at the following invalid location:\n"
                               "  t7_f0.compute_at(t7_f1, x);"),
              std::string::npos);
}

// A Func computed where it can't be: upstream 21's message (observed with
// the same programs) lists the levels it could be computed at, outermost
// first, and where it is used.
namespace {
std::string placement_error(Func out) {
    try {
        out.realize({4, 4});
    } catch (const CompileError &e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(UpstreamParity, InvalidPlacementsListTheLegalLocations) {
    Var x("x"), y("y"), z("z"), xo("xo"), xi("xi");
    {
        Func g("la_g"), f("la_f");
        g(x, y) = x + y;
        f(x, y) = g(x, y) + 1;
        g.compute_at(f, z); // no loop of f
        EXPECT_EQ(placement_error(f), "Error: Func \"la_g\" is computed at the following invalid location:\n"
                                      "  la_g.compute_at(la_f, z);\n"
                                      "Legal locations for this function are:\n"
                                      "  la_g.compute_root();\n"
                                      "  la_g.compute_at(la_f, Var::outermost());\n"
                                      "  la_g.compute_at(la_f, y);\n"
                                      "  la_g.compute_at(la_f, x);\n"
                                      "\"la_g\" is used in the following places:\n"
                                      " for la_f.s0.y:\n"
                                      "  for la_f.s0.x:\n"
                                      "   la_f uses la_g\n"
                                      " ...\n");
    }
    auto legal = [](const std::string &message) {
        size_t from = message.find("Legal locations for this function are:\n");
        size_t to = message.find("\" is used in the following places:\n");
        if (from == std::string::npos || to == std::string::npos) {
            return "not upstream's form: " + message;
        }
        return message.substr(from, message.rfind('\n', to) + 1 - from);
    };
    {
        Func g("lb_g"), f("lb_f"), h("lb_h"), o("lb_o");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        h(x, y) = g(x, y) * 2;
        o(x, y) = f(x, y) + h(x, y);
        f.compute_root();
        h.compute_root();
        g.compute_at(f, x); // h uses it too
        std::string m = placement_error(o);
        EXPECT_EQ(m.find("Error: Func \"lb_g\" is computed at the following invalid location:\n"
                         "  lb_g.compute_at(lb_f, x);\n"),
                  0u)
            << m;
        EXPECT_EQ(legal(m), "Legal locations for this function are:\n"
                            "  lb_g.compute_root();\n");
        EXPECT_NE(m.find("lb_f uses lb_g\n"), std::string::npos) << m;
        EXPECT_NE(m.find("lb_h uses lb_g\n"), std::string::npos) << m;
    }
    {
        Func g("lc_g"), f("lc_f"), h("lc_h");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        h(x, y) = f(x, y) + 1;
        f.compute_at(h, y);
        g.compute_at(f, z);
        EXPECT_EQ(legal(placement_error(h)), "Legal locations for this function are:\n"
                                             "  lc_g.compute_root();\n"
                                             "  lc_g.compute_at(lc_h, Var::outermost());\n"
                                             "  lc_g.compute_at(lc_h, y);\n"
                                             "  lc_g.compute_at(lc_f, Var::outermost());\n"
                                             "  lc_g.compute_at(lc_f, y);\n"
                                             "  lc_g.compute_at(lc_f, x);\n");
    }
    {
        Func g("ld_g"), f("ld_f");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        f(x, y) += g(x, y);
        g.compute_at(f, z);
        std::string m = placement_error(f);
        EXPECT_EQ(legal(m), "Legal locations for this function are:\n"
                            "  ld_g.compute_root();\n"
                            "  ld_g.compute_at(ld_f, Var::outermost());\n"
                            "  ld_g.compute_at(ld_f, y);\n"
                            "  ld_g.compute_at(ld_f, x);\n");
        EXPECT_NE(m.find("\"ld_g\" is used in the following places:\n"
                         " for ld_f.s0.y:\n"
                         "  for ld_f.s0.x:\n"
                         "   ld_f uses ld_g\n"
                         " for ld_f.s1.y:\n"
                         "  for ld_f.s1.x:\n"
                         "   ld_f uses ld_g\n"
                         " ...\n"),
                  std::string::npos)
            << m;
    }
    {
        Func g("le_g"), f("le_f"), h("le_h");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        h(x, y) = f(x, y) + 1;
        g.compute_at(f, x); // f is inlined
        EXPECT_EQ(legal(placement_error(h)), "Legal locations for this function are:\n"
                                             "  le_g.compute_root();\n"
                                             "  le_g.compute_at(le_h, Var::outermost());\n"
                                             "  le_g.compute_at(le_h, y);\n"
                                             "  le_g.compute_at(le_h, x);\n");
    }
    {
        Func g("lf_g"), f("lf_f");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        g.compute_at(f, y).store_at(f, x); // stored inside its computation
        std::string m = placement_error(f);
        EXPECT_EQ(m.find("Error: Func \"lf_g\" is computed at the following invalid location:\n"
                         "  lf_g.store_at(lf_f, x).compute_at(lf_f, y);\n"
                         "Legal locations for this function are:\n"
                         "  lf_g.compute_root();\n"
                         "  lf_g.compute_at(lf_f, Var::outermost());\n"
                         "  lf_g.compute_at(lf_f, y);\n"
                         "  lf_g.compute_at(lf_f, x);\n"),
                  0u)
            << m;
    }
    {
        Func g("lg_g"), f("lg_f"), h("lg_h");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        h(x, y) = f(x, y) + 1;
        f.compute_root();
        g.compute_at(h, x); // h does not call g
        EXPECT_EQ(legal(placement_error(h)), "Legal locations for this function are:\n"
                                             "  lg_g.compute_root();\n"
                                             "  lg_g.compute_at(lg_f, Var::outermost());\n"
                                             "  lg_g.compute_at(lg_f, y);\n"
                                             "  lg_g.compute_at(lg_f, x);\n");
    }
    {
        Func g("lh_g"), f("lh_f");
        g(x, y) = x + y;
        f(x, y) = g(x, y);
        f.split(x, xo, xi, 2);
        g.compute_at(f, x); // split away
        EXPECT_EQ(legal(placement_error(f)), "Legal locations for this function are:\n"
                                             "  lh_g.compute_root();\n"
                                             "  lh_g.compute_at(lh_f, Var::outermost());\n"
                                             "  lh_g.compute_at(lh_f, y);\n"
                                             "  lh_g.compute_at(lh_f, xo);\n"
                                             "  lh_g.compute_at(lh_f, xi);\n");
    }
}

// ---------------------------------------------------------------------------
// Found by the differential test against upstream (tests/differential).

// A cast to bool keeps the lowest bit, as any narrowing integer cast does
// upstream (and as upstream folds constants).
TEST(UpstreamParity, CastToBoolKeepsTheLowBit) {
    Var x("x");
    Func f("f"), g("g");
    f(x) = cast<bool>(x);
    g(x) = cast<bool>(cast<float>(x) * 0.5f);
    Buffer<bool> fo = f.realize({6}), go = g.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(fo(i), (i & 1) != 0) << i;
        EXPECT_EQ(go(i), (((int)(i * 0.5f)) & 1) != 0) << i;
    }
    EXPECT_TRUE(is_const(cast<bool>(Expr(2)), 0));
}

// Two vectorized dimensions: the inner one is vectorized, the outer stays
// a loop (it used to fail an internal lanes check).
TEST(UpstreamParity, VectorizingTwoDimensions) {
    Var x("x"), y("y");
    Func f1("f1"), f2("f2");
    f1(x, y) = x * 10 + y;
    f2(x, y) = cast<int64_t>(f1(x, y));
    f2.vectorize(x, 5, TailStrategy::GuardWithIf);
    f2.vectorize(y, 2, TailStrategy::ShiftInwards);
    f1.compute_root();
    Buffer<int64_t> out = f2.realize({3, 2});
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(out(i, j), i * 10 + j);
        }
    }
}

// A producer split with an explicit ShiftInwards tail is computed over at
// least one factor, like the Auto tail, when its consumer needs less.
TEST(UpstreamParity, ExplicitShiftInwardsOnAProducerNeedingLessThanAFactor) {
    Var x("x"), y("y"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f1("f1"), f2("f2");
    f1(x, y) = x + 100 * y;
    f2(x, y) = f1(x, y - 1);
    f1.tile(x, y, xo, yo, xi, yi, 8, 4, TailStrategy::ShiftInwards);
    f1.compute_at(f2, y);
    Buffer<int32_t> out = f2.realize({1, 6});
    for (int j = 0; j < 6; j++) {
        EXPECT_EQ(out(0, j), 100 * (j - 1));
    }
}

// vectorize(x, n) twice on one Var splits it twice (the inner loops get
// names of their own).
TEST(UpstreamParity, VectorizingOneVarTwice) {
    Var x("x"), y("y");
    Func f1("f1"), f2("f2");
    f1(x) = x * 3;
    f2(x, y) = f1(x - 2) + y;
    f1.vectorize(x, 2, TailStrategy::ShiftInwards);
    f1.vectorize(x, 3, TailStrategy::RoundUp);
    f1.compute_at(f2, y);
    Buffer<int32_t> out = f2.realize({5, 2});
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 5; i++) {
            EXPECT_EQ(out(i, j), (i - 2) * 3 + j);
        }
    }
}

// Splits of a producer's split or fused loops with any tail strategy, where
// the consumer needs fewer points than a factor.
TEST(UpstreamParity, NestedSplitsOfAProducerNeedingLittle) {
    Var x("x"), y("y"), o("o"), i("i"), i2("i2"), fused("fused");
    {
        Func f0("f0"), f2("f2");
        f0(x, y) = x + 10 * y;
        f2(x, y) = 0 - f0(x - 2, y);
        f0.split(x, o, i, 2, TailStrategy::RoundUp);
        f0.split(o, o, i2, 8, TailStrategy::ShiftInwards);
        f0.compute_root();
        Buffer<int32_t> out = f2.realize({1, 6});
        for (int j = 0; j < 6; j++) {
            EXPECT_EQ(out(0, j), -(-2 + 10 * j));
        }
    }
    {
        Func f2("f2"), f4("f4");
        f2(x, y) = x * 7 + y;
        f4(x, y) = f2(x, y) % 5;
        f2.fuse(x, y, fused);
        f2.unroll(fused, 3, TailStrategy::GuardWithIf);
        f2.split(fused, fused, i, 4, TailStrategy::ShiftInwards);
        f2.compute_at(f4, x);
        Buffer<int32_t> out = f4.realize({1, 7});
        for (int j = 0; j < 7; j++) {
            EXPECT_EQ(out(0, j), j % 5);
        }
    }
}

// A producer region narrower than a shift-inwards split factor grows
// downwards from its max, as upstream's does, so a chain of such producers
// reads the inputs upstream reads (growing upwards once read past the end
// of an input just large enough for upstream). Upstream reads in[10 .. 84];
// the 10 elements of slack below are for our bounds inference, which still
// over-approximates the low end here by a few elements.
TEST(UpstreamParity, ShiftInwardsGrowsNarrowRegionsDownwards) {
    Buffer<uint8_t> in(85);
    for (int i = 0; i < 85; i++) {
        in(i) = (uint8_t)(i * 3);
    }
    Var x("x"), xo("xo"), xi("xi"), xi2("xi2"), x2i("x2i"), x1o("x1o"), x1i("x1i"), x0o("x0o"), x0i("x0i");
    Func f0("f0"), f1("f1"), f2("f2"), f3("f3");
    f0(x) = in(x + 27);
    f1(x) = f0(x);
    f2(x) = f1(x);
    f3(x) = f2(x - 2);
    f3.split(x, xo, xi, 4, TailStrategy::GuardWithIf);
    f3.split(xi, xi, xi2, 8, TailStrategy::GuardWithIf);
    f2.unroll(x, 4, TailStrategy::Auto);
    f2.split(x, x, x2i, 2, TailStrategy::GuardWithIf);
    f2.compute_at(f3, xi2);
    f1.vectorize(x, 3, TailStrategy::Auto);
    f1.split(x, x1o, x1i, 8, TailStrategy::GuardWithIf);
    f1.compute_at(f2, x2i);
    f0.split(x, x0o, x0i, 16, TailStrategy::Auto);
    f0.compute_at(f1, x1o);
    Buffer<uint8_t> out = f3.realize({60});
    for (int i = 0; i < 60; i++) {
        EXPECT_EQ(out(i), (uint8_t)((i + 25) * 3)) << "at " << i;
    }
}
