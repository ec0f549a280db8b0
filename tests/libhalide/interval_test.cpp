// Interval analysis (analysis/Interval.cpp) of float expressions: a float
// Param is a symbol, so an integer cast of a bounded value times a Param is
// bounded by [min(0, p), max(0, p)]-style ends, as upstream's bounds are.
// Each end is checked by evaluating it for concrete Param values against
// the range worked out here by hand. Also integer division by a symbol and
// by constants that arrive unsimplified; lets of one variable plus
// constants keeping their difference in a region; a right shift by an
// amount in a constant range (2 >> (v & 7)); division by a range of one
// sign.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

const Expr v = Variable::make(Float(32), "v"); // unbounded (in `unbounded` below)
const Expr p = Variable::make(Float(32), "p"); // a symbol, like a Param
const Scope unbounded = {{"v", Interval::everything()}};

// An interval end with p replaced by `p_value`, folded to an integer.
std::optional<int64_t> end_at(const Expr &end, float p_value) {
    if (!end.defined()) {
        return std::nullopt;
    }
    Expr e = simplify(substitute({{"p", FloatImm::make(Float(32), p_value)}}, end));
    if (const IntImm *i = e.as<IntImm>()) {
        return i->value;
    }
    ADD_FAILURE() << "end " << end << " does not fold to an integer: " << e;
    return std::nullopt;
}

void expect_range(const Expr &e, float p_value, int64_t lo, int64_t hi) {
    Interval i = bounds_of_expr(e, unbounded);
    ASSERT_TRUE(i.is_bounded()) << e;
    EXPECT_EQ(end_at(i.min, p_value), lo) << e << " with p = " << p_value << ": min " << i.min;
    EXPECT_EQ(end_at(i.max, p_value), hi) << e << " with p = " << p_value << ": max " << i.max;
}

TEST(FloatInterval, BoundedValueTimesAFloatSymbol) {
    Expr e = cast<int>(clamp(v, 0.0f, 1.0f) * p);
    expect_range(e, 10.0f, 0, 10);
    expect_range(e, -3.0f, -3, 0);
    // Multiplying by the symbol on the left, and by a bounded interval.
    expect_range(cast<int>(p * clamp(v, -2.0f, 1.0f)), 4.0f, -8, 4);
    expect_range(cast<int>(clamp(v, -2.0f, 1.0f) * clamp(v, 3.0f, 5.0f)), 0.0f, -10, 5);
}

TEST(FloatInterval, DivisionByASymbolAndConstants) {
    // The bilateral grid's bin: value / r_sigma, rounded.
    Expr bin = cast<int>(clamp(v, 0.0f, 1.0f) * (1.0f / p) + 0.5f);
    expect_range(bin, 0.125f, 0, 8);
    expect_range(cast<int>(clamp(v, 0.0f, 1.0f) / p), 0.25f, 0, 4);
    expect_range(cast<int>(clamp(v, 0.0f, 6.0f) / -2.0f), 0.0f, -3, 0);
    // A divisor that is an interval may be zero: unbounded.
    EXPECT_FALSE(bounds_of_expr(cast<int>(1.0f / clamp(v, -1.0f, 1.0f)), unbounded).is_bounded());
}

TEST(FloatInterval, RoundingFunctionsAndCasts) {
    expect_range(cast<int>(floor(clamp(v, -2.5f, 3.5f))), 0.0f, -3, 3);
    expect_range(cast<int>(ceil(clamp(v, -2.5f, 3.5f))), 0.0f, -2, 4);
    expect_range(cast<int>(cast<double>(clamp(v, 1.0f, 2.0f)) * FloatImm::make(Float(64), 3.0)), 0.0f, 3, 6);
    // Narrow integer types: the ends when they fit, else the type's range.
    expect_range(cast<uint8_t>(clamp(v, 0.0f, 200.0f)), 0.0f, 0, 200);
    expect_range(cast<uint8_t>(clamp(v, 0.0f, 300.0f)), 0.0f, 0, 255);
    // An integer made float and back keeps its range.
    Expr i = Variable::make(Int(32), "i");
    Interval r =
        bounds_of_expr(cast<int>(cast<float>(i) * 2.0f), {{"i", {IntImm::make(Int(32), 3), IntImm::make(Int(32), 7)}}});
    EXPECT_EQ(end_at(r.min, 0.0f), 6);
    EXPECT_EQ(end_at(r.max, 0.0f), 14);
}

TEST(FloatInterval, UnboundedFloatsStayUnbounded) {
    EXPECT_FALSE(bounds_of_expr(cast<int>(v), unbounded).is_bounded());
    EXPECT_FALSE(bounds_of_expr(cast<int>(v * p), unbounded).is_bounded());
    EXPECT_FALSE(bounds_of_expr(cast<int64_t>(clamp(v, 0.0f, 1.0f)), unbounded).is_bounded());
}

// End to end: a lookup table indexed by an integer cast of (a clamped input
// times a float Param) is realized over the region that the Param's value
// needs, for either sign.
TEST(FloatInterval, LookupIndexedByAFloatParamProduct) {
    Var x("x"), i("i");
    ImageParam in(Float(32), 1, "in");
    Param<float> scale("scale");
    Func lut("lut"), out("out");
    lut(i) = i * 2;
    lut.compute_root();
    out(x) = lut(cast<int>(clamp(in(x), 0.0f, 1.0f) * scale));
    Buffer<float> input(4);
    const float values[4] = {0.0f, 0.5f, 1.0f, 7.0f};
    for (int k = 0; k < 4; k++) {
        input(k) = values[k];
    }
    in.set(input);
    for (float s : {10.0f, -6.0f}) {
        scale.set(s);
        Buffer<int32_t> r = out.realize({4});
        for (int k = 0; k < 4; k++) {
            EXPECT_EQ(r(k), 2 * (int)(std::min(std::max(values[k], 0.0f), 1.0f) * s)) << "scale " << s << " at " << k;
        }
    }
}

// x >> s with s in a constant range (a byte masked by & 7): x shifted by
// either end of the range gives the ends, as upstream's constant bounds do.
TEST(ShiftInterval, ShiftRightByAMaskedAmount) {
    const Expr u = Variable::make(UInt(8), "u"); // any byte
    const Expr i = Variable::make(Int(32), "i");
    const Expr j = Variable::make(Int(32), "j");
    const Scope scope = {{"i", {IntImm::make(Int(32), -20), IntImm::make(Int(32), 12)}},
                         {"j", {IntImm::make(Int(32), 1), IntImm::make(Int(32), 3)}}};
    auto range = [&](const Expr &e, int64_t lo, int64_t hi) {
        Interval r = bounds_of_expr(e, scope);
        ASSERT_TRUE(r.is_bounded()) << e;
        EXPECT_EQ(end_at(r.min, 0.0f), lo) << e << ": min " << r.min;
        EXPECT_EQ(end_at(r.max, 0.0f), hi) << e << ": max " << r.max;
    };
    // 2 >> [0, 7]: 2, 1 or 0.
    range(cast<int>(Expr((uint8_t)2) >> (u & Expr((uint8_t)7))), 0, 2);
    range(cast<int>(Expr((uint8_t)200) >> (u & Expr((uint8_t)3))), 25, 200);
    // A signed value rounds down: [-20, 12] >> [1, 3] is [-10, 6].
    range(i >> j, -10, 6);
    range(i >> clamp(j, 2, 2), -5, 3);
    // A shift that may reach the type's width is not narrowed (no bound).
    EXPECT_FALSE(bounds_of_expr(i >> cast<int>(u & Expr((uint8_t)63)), scope).is_bounded());
}

// End to end: a histogram-like update whose index is 2 >> (a byte & 7)
// touches f(0..2) only, so the pipeline reads its input over the output's
// region and no further (it once asked for in(0..255)).
TEST(ShiftInterval, UpdateIndexedByAShiftOfAMaskedByte) {
    Buffer<int32_t> in(8);
    for (int k = 0; k < 8; k++) {
        in(k) = 10 * k;
    }
    Buffer<uint8_t> idx(3);
    for (int k = 0; k < 3; k++) {
        idx(k) = (uint8_t)(k * 37); // & 7: 0, 5, 2
    }
    Var x("x");
    RDom r(0, 3);
    Func f("f"), g("g");
    f(x) = in(x);
    f(cast<int>(Expr((uint8_t)2) >> (idx(r) & Expr((uint8_t)7)))) += 1;
    g(x) = f(x);
    Buffer<int32_t> out = g.realize({4});
    // The reference: f = in, then f[2 >> (idx[k] & 7)] += 1 for each k.
    int32_t expected[4];
    for (int k = 0; k < 4; k++) {
        expected[k] = 10 * k;
    }
    for (int k = 0; k < 3; k++) {
        int at = 2 >> ((uint8_t)(k * 37) & 7);
        if (at < 4) {
            expected[at] += 1;
        }
    }
    for (int k = 0; k < 4; k++) {
        EXPECT_EQ(out(k), expected[k]) << "at " << k;
    }
}

} // namespace

// Integer division by a symbol (r / in.width() in upstream's test
// dynamic_reduction_bounds): each end checked against the true range of
// a / w over a in [0, 8w - 1] and [-9, 20], for divisors of both signs and 0
// (x / 0 is 0), with Halide's rounding (towards negative infinity for w > 0).
TEST(IntInterval, DivisionByASymbolOfUnknownSign) {
    const Expr i = Variable::make(Int(32), "i"), w = Variable::make(Int(32), "w");
    const Scope scope = {{"i", Interval{Expr(-9), Expr(20)}}};
    Interval by_w = bounds_of_expr(Div::make(i, w), scope);
    ASSERT_TRUE(by_w.is_bounded());
    for (int wv : {-7, -1, 0, 1, 3, 40}) {
        int lo = 1 << 30, hi = -(1 << 30);
        for (int iv = -9; iv <= 20; iv++) {
            int q = evaluate<int>(Div::make(Expr(iv), Expr(wv)));
            lo = std::min(lo, q);
            hi = std::max(hi, q);
        }
        Expr mn = simplify(substitute({{"w", Expr(wv)}}, by_w.min));
        Expr mx = simplify(substitute({{"w", Expr(wv)}}, by_w.max));
        ASSERT_NE(mn.as<IntImm>(), nullptr) << mn;
        ASSERT_NE(mx.as<IntImm>(), nullptr) << mx;
        EXPECT_LE(mn.as<IntImm>()->value, lo) << "w = " << wv;
        EXPECT_GE(mx.as<IntImm>()->value, hi) << "w = " << wv;
        EXPECT_EQ(mn.as<IntImm>()->value, lo) << "w = " << wv << ": a single divisor gives the exact range";
        EXPECT_EQ(mx.as<IntImm>()->value, hi) << "w = " << wv;
    }
    // A divisor that is a range: |a / b| <= |a|.
    const Scope ranged = {{"i", Interval{Expr(-9), Expr(20)}}, {"w", Interval{Expr(-3), Expr(5)}}};
    Interval by_range = bounds_of_expr(Div::make(i, w), ranged);
    ASSERT_TRUE(by_range.is_bounded());
    EXPECT_EQ(simplify(by_range.min).as<IntImm>()->value, -20);
    EXPECT_EQ(simplify(by_range.max).as<IntImm>()->value, 20);
}

// A divisor in a constant range of one sign: the ends are quotients of the
// ends (Halide's division rounds so the remainder is never negative), as
// upstream's bounds, not [-|a|, |a|]. Checked against every quotient.
TEST(IntInterval, DivisionByARangeOfOneSign) {
    const Expr i = Variable::make(Int(32), "i"), j = Variable::make(Int(32), "j");
    auto euclid = [](int a, int b) {
        int q = a / b, r = a % b;
        return r < 0 ? (b > 0 ? q - 1 : q + 1) : q;
    };
    struct Case {
        int i0, i1, j0, j1, lo, hi;
    };
    for (Case c : {Case{0, 255, 1, 8, 0, 255}, Case{-9, 20, 1, 4, -9, 20}, Case{-9, 20, -4, -1, -20, 9},
                   Case{7, 20, 2, 5, 1, 10}}) {
        Interval r = bounds_of_expr(Div::make(i, j),
                                    {{"i", Interval{Expr(c.i0), Expr(c.i1)}}, {"j", Interval{Expr(c.j0), Expr(c.j1)}}});
        ASSERT_TRUE(r.is_bounded()) << c.i0 << " " << c.j0;
        EXPECT_EQ(evaluate<int>(r.min), c.lo) << r.min;
        EXPECT_EQ(evaluate<int>(r.max), c.hi) << r.max;
        for (int a = c.i0; a <= c.i1; a++) {
            for (int b = c.j0; b <= c.j1; b++) {
                EXPECT_LE(c.lo, euclid(a, b));
                EXPECT_GE(c.hi, euclid(a, b));
            }
        }
    }
    // End to end: in(x + v / ((w & 7) + 1)) reads in over [x, x + 255] only.
    Buffer<int32_t> in(8 + 255);
    for (int k = 0; k < 8 + 255; k++) {
        in(k) = 3 * k + 1;
    }
    Buffer<uint8_t> v(8);
    for (int k = 0; k < 8; k++) {
        v(k) = (uint8_t)(k * 101 + 7);
    }
    Var x("x");
    Func f("div_range_f");
    f(x) = in(x + cast<int>(v(x)) / (cast<int>(v(x) & Expr((uint8_t)7)) + 1));
    Buffer<int32_t> out;
    try {
        out = f.realize({8});
    } catch (const std::exception &err) {
        FAIL() << "refused: " << err.what();
    }
    for (int k = 0; k < 8; k++) {
        int at = k + v(k) / ((v(k) & 7) + 1);
        EXPECT_EQ(out(k), 3 * at + 1) << k;
    }
}

TEST(IntInterval, UnsimplifiedConstantDivisors) {
    // A fused loop's halves, fused / e and fused % e with e a split's
    // extent as lowering builds it ((4 + (2 - 1)) / 2 is 2): at one value of
    // fused, each is one value, not a range.
    const Expr fused = Variable::make(Int(32), "fused");
    const Expr e = Div::make(Add::make(Expr(4), Sub::make(Expr(2), Expr(1))), Expr(2));
    Interval m = bounds_of_expr(Mod::make(fused, e), {});
    Interval q = bounds_of_expr(Div::make(fused, e), {});
    for (int fv : {0, 1, 2, 7, 9}) {
        auto at = [&](const Expr &end) { return evaluate<int>(substitute({{"fused", Expr(fv)}}, end)); };
        EXPECT_EQ(at(m.min), fv % 2);
        EXPECT_EQ(at(m.max), fv % 2);
        EXPECT_EQ(at(q.min), fv / 2);
        EXPECT_EQ(at(q.max), fv / 2);
    }
    // A divisor folding through a division of negatives: (-1) / (-2) is 1
    // (Euclidean: the remainder -1 - (-2) * 1 = 1 is not negative), so
    // i / ((-1) / (-2)) is i itself, not the zero a division by 0 gives.
    const Expr i = Variable::make(Int(32), "i");
    Interval by_one =
        bounds_of_expr(Div::make(i, Div::make(Expr(-1), Expr(-2))), {{"i", Interval{Expr(-9), Expr(20)}}});
    ASSERT_TRUE(by_one.is_bounded());
    EXPECT_EQ(evaluate<int>(by_one.min), -9);
    EXPECT_EQ(evaluate<int>(by_one.max), 20);
}

// An update at r / w of an output (upstream's dynamic_reduction_bounds):
// its points are bounded, so it is accepted and computed as in plain C++.
TEST(IntInterval, AnUpdateAtRDomOverAParam) {
    ImageParam input(Float(32), 2, "drb_input");
    Var x("x"), y("y"), z("z");
    RDom dom(0, input.width() * 8, "drb_dom");
    Func f("drb_f");
    f(x, y, z) = 1;
    f(x, y, dom / input.width()) += 1;
    input.set(Buffer<float>(32, 32));
    Buffer<int> out = f.realize({4, 3, 16});
    for (int c = 0; c < 16; c++) {
        int want = 1 + (c < 8 ? 32 : 0); // dom / 32 lands on 0..7, 32 times each
        EXPECT_EQ(out(2, 1, c), want) << c;
    }
}

// A region computed per x (`f.min.0 = x + 1`, `f.max.0 = x + 1`) is one
// wide: a loop over its extent covers one point, not 2 - n to n as two
// independent intervals of x would give (a fused loop over such a region
// then read rows far outside the image).
TEST(IntInterval, TwoLetsOfOneVariablePlusConstantsKeepTheirDifference) {
    Expr x = Variable::make(Int(32), "x");
    Expr fmin = Variable::make(Int(32), "f.min.0"), fmax = Variable::make(Int(32), "f.max.0");
    Expr i = Variable::make(Int(32), "i");
    Stmt read = Evaluate::make(Call::make(Int(32), "g", {i}, Call::Halide));
    Stmt inner = For::make("i", 0, (fmax - fmin) + 1, ForType::Serial, read);
    Stmt lets = LetStmt::make("f.min.0", x + 1, LetStmt::make("f.max.0", x + 3, inner));
    Stmt loop = For::make("x", 0, 34, ForType::Serial, lets);
    std::map<std::string, Box> boxes = boxes_required(loop);
    ASSERT_EQ(boxes.count("g"), 1u);
    ASSERT_EQ(boxes["g"].size(), 1u);
    EXPECT_TRUE(can_prove(boxes["g"][0].min == 0)) << boxes["g"][0].min;
    EXPECT_TRUE(can_prove(boxes["g"][0].max == 2)) << boxes["g"][0].max; // was 35
}
