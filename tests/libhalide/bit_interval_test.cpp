// Interval analysis (analysis/Interval.cpp) of the operations on bits:
// shifts by an amount in a constant range (left or right, by an amount that
// may be negative, of every width), &, |, ~, the bit counts and absd, as
// upstream 21's bounds give them (exact where upstream's are too tight:
// [-4, 3] << [0, 3] reaches -32, where upstream's lower bound is -4).
// Each expected interval is worked out by hand, and every value of the
// expression over its variables' ranges, computed in plain C++, is checked
// to lie inside; the same over random ranges of every operation and integer
// type (a lower bound of x << s taken at s's low end alone fails it at once).
// Then one pipeline per operation reads an input at x plus
// such an expression of a byte: the input holds just the hand-worked
// region, so the pipeline runs (it was refused as reading beyond the
// input's max, or an unbounded region), and its values are checked against
// plain C++. Also the halving operations, built from these.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <random>
#include <string>

#include "Halide.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

const Expr i = Variable::make(Int(32), "i");
const Expr j = Variable::make(Int(32), "j");

// The value an interval end folds to, if any.
std::optional<int64_t> end_value(const Expr &end) {
    if (!end.defined()) {
        return std::nullopt;
    }
    Expr e = simplify(end);
    if (const IntImm *c = e.as<IntImm>()) {
        return c->value;
    }
    ADD_FAILURE() << "end " << end << " does not fold to an integer: " << e;
    return std::nullopt;
}

// Halide's x << k for any sign of k (a negative amount shifts right,
// rounding down), in 64 bits; the caller wraps it to the type.
int64_t shl(int64_t x, int64_t k) {
    return k >= 0 ? x * (int64_t(1) << k) : (x >> -k);
}

int clz(uint64_t v, int bits) {
    int n = 0;
    for (int b = bits - 1; b >= 0 && !((v >> b) & 1); b--) {
        n++;
    }
    return n;
}

int ctz(uint64_t v, int bits) {
    int n = 0;
    while (n < bits && !((v >> n) & 1)) {
        n++;
    }
    return n;
}

int ones(uint64_t v) {
    int n = 0;
    for (; v; v >>= 1) {
        n += v & 1;
    }
    return n;
}

// Checks bounds_of_expr(e) with i in [i0, i1] and j in [j0, j1] against the
// hand-worked [lo, hi] (nullopt: no bound that side), and that every value
// ref(i, j) lies inside.
void expect_bounds(const Expr &e, int i0, int i1, int j0, int j1, std::optional<int64_t> lo, std::optional<int64_t> hi,
                   const std::function<int64_t(int64_t, int64_t)> &ref) {
    const Scope scope = {{"i", Interval{Expr(i0), Expr(i1)}}, {"j", Interval{Expr(j0), Expr(j1)}}};
    Interval r = bounds_of_expr(e, scope);
    SCOPED_TRACE(::testing::Message() << e << " with i in [" << i0 << ", " << i1 << "], j in [" << j0 << ", " << j1
                                      << "]: " << r.min << " .. " << r.max);
    EXPECT_EQ(r.min.defined(), lo.has_value());
    EXPECT_EQ(r.max.defined(), hi.has_value());
    std::optional<int64_t> rmin = end_value(r.min), rmax = end_value(r.max);
    EXPECT_EQ(rmin, lo);
    EXPECT_EQ(rmax, hi);
    for (int64_t a = i0; a <= i1; a++) {
        for (int64_t b = j0; b <= j1; b++) {
            int64_t v = ref(a, b);
            if (rmin) {
                EXPECT_LE(*rmin, v) << "at i = " << a << ", j = " << b;
            }
            if (rmax) {
                EXPECT_GE(*rmax, v) << "at i = " << a << ", j = " << b;
            }
        }
    }
}

TEST(BitInterval, ShiftsByARangeOfAmounts) {
    // [-4, 3] << [0, 3]: a negative value falls furthest at the largest
    // amount (-4 << 3 = -32); the largest is 3 << 3.
    expect_bounds(i << j, -4, 3, 0, 3, -32, 24, [](int64_t a, int64_t b) { return shl(a, b); });
    // An amount that may be negative shifts the other way: [0, 7] << [-2, 1].
    expect_bounds(i << (j - 2), 0, 7, 0, 3, 0, 14, [](int64_t a, int64_t b) { return shl(a, b - 2); });
    // [0, 127] >> [-2, 1] is [0, 127] << [-1, 2]: up to 508.
    expect_bounds(i >> (j - 2), 0, 127, 0, 3, 0, 508, [](int64_t a, int64_t b) { return shl(a, 2 - b); });
    expect_bounds(i >> j, -40, 23, 0, 3, -40, 23, [](int64_t a, int64_t b) { return a >> b; });
    // In int8, 127 << 2 wraps: any int8.
    expect_bounds(cast<int8_t>(i) >> (cast<int8_t>(j) - 2), 0, 127, 0, 3, -128, 127,
                  [](int64_t a, int64_t b) { return (int64_t)(int8_t)shl(a, 2 - b); });
    // A byte shifted by a constant: exact while nothing wraps.
    expect_bounds(cast<uint8_t>(i) << 2, 0, 7, 0, 0, 0, 28, [](int64_t a, int64_t) { return a << 2; });
    expect_bounds(cast<uint8_t>(i) << 2, 0, 127, 0, 0, 0, 255,
                  [](int64_t a, int64_t) { return (int64_t)(uint8_t)(a << 2); });
    // 64-bit and unsigned 32-bit values.
    expect_bounds(cast<int64_t>(i) << cast<int64_t>(j), -7, 7, 0, 3, -56, 56,
                  [](int64_t a, int64_t b) { return shl(a, b); });
    expect_bounds(cast<uint32_t>(i) >> cast<uint32_t>(j), 64, 127, 0, 3, 8, 127,
                  [](int64_t a, int64_t b) { return a >> b; });
    expect_bounds(cast<uint64_t>(i) >> cast<uint64_t>(j), 5, 9, 0, 40, 0, 9,
                  [](int64_t a, int64_t b) { return a >> b; });
    // Beyond int32 index math: no upper bound (7 << 40 is not an int32).
    expect_bounds(cast<int64_t>(i) << cast<int64_t>(j), 0, 7, 40, 40, 0, std::nullopt,
                  [](int64_t a, int64_t b) { return shl(a, b); });
    // An amount that may reach the width means nothing: no bound.
    expect_bounds(i << j, 0, 7, 0, 32, std::nullopt, std::nullopt, [](int64_t, int64_t) { return 0; });
}

TEST(BitInterval, AndOrNot) {
    // Neither known non-negative: at most the larger max, no lower bound
    // (-9 & -3 = -11).
    expect_bounds(i & j, -9, 6, -3, 12, std::nullopt, 12, [](int64_t a, int64_t b) { return a & b; });
    expect_bounds(cast<int8_t>(i) & cast<int8_t>(j), -9, 6, -3, 12, -128, 12,
                  [](int64_t a, int64_t b) { return a & b; });
    // One non-negative side: between 0 and it.
    expect_bounds(i & j, -9, 6, 0, 12, 0, 12, [](int64_t a, int64_t b) { return a & b; });
    expect_bounds(i & j, 0, 15, 0, 255, 0, 15, [](int64_t a, int64_t b) { return a & b; });
    expect_bounds(cast<uint32_t>(i) & cast<uint32_t>(j), 1, 16, 2, 33, 0, 16,
                  [](int64_t a, int64_t b) { return a & b; });
    // An all-ones uint32 mask is no int32 -1: still [0, 16].
    expect_bounds(cast<uint32_t>(i) & Expr(0xffffffffu), 1, 16, 0, 0, 0, 16,
                  [](int64_t a, int64_t) { return a & 0xffffffff; });
    // Or: signed, at least the smaller min; unsigned, at least the larger
    // (a constant beyond int32 index math: at least INT32_MAX).
    expect_bounds(cast<uint32_t>(i) | Expr(0x80000000u), 1, 16, 0, 0, INT32_MAX, std::nullopt,
                  [](int64_t a, int64_t) { return a | 0x80000000; });
    expect_bounds(cast<int8_t>(i) | cast<int8_t>(j), -9, 6, 0, 15, -9, 127, [](int64_t a, int64_t b) { return a | b; });
    expect_bounds(cast<uint8_t>(i) | cast<uint8_t>(j), 3, 18, 2, 33, 3, 255,
                  [](int64_t a, int64_t b) { return a | b; });
    expect_bounds(i | j, 3, 18, 2, 33, 2, std::nullopt, [](int64_t a, int64_t b) { return a | b; });
    // Not reverses the order: -1 - x, or 65535 - x in 16 bits.
    expect_bounds(~i, -9, 6, 0, 0, -7, 8, [](int64_t a, int64_t) { return ~a; });
    expect_bounds(~cast<uint16_t>(i), 0, 15, 0, 0, 65520, 65535, [](int64_t a, int64_t) { return 65535 - a; });
    expect_bounds(~cast<int8_t>(i), -9, 6, 0, 0, -7, 8, [](int64_t a, int64_t) { return ~a; });
}

TEST(BitInterval, BitCountsAndAbsoluteDifferences) {
    // [1, 16] as bytes: 16 has 3 leading zeros, 1 has 7.
    expect_bounds(count_leading_zeros(cast<uint8_t>(i)), 1, 16, 0, 0, 3, 7,
                  [](int64_t a, int64_t) { return clz((uint64_t)a, 8); });
    expect_bounds(count_leading_zeros(i), 1, 16, 0, 0, 27, 31, [](int64_t a, int64_t) { return clz((uint64_t)a, 32); });
    // A value that may be negative: anything from 0 to the width.
    expect_bounds(count_leading_zeros(i), -9, 6, 0, 0, 0, 32, [](int64_t a, int64_t) { return clz((uint32_t)a, 32); });
    expect_bounds(count_trailing_zeros(i), -9, 6, 0, 0, 0, 32, [](int64_t a, int64_t) { return ctz((uint32_t)a, 32); });
    expect_bounds(popcount(cast<int16_t>(i)), -9, 6, 0, 0, 0, 16, [](int64_t a, int64_t) { return ones((uint16_t)a); });
    expect_bounds(popcount(cast<uint64_t>(i)), 0, 255, 0, 0, 0, 64, [](int64_t a, int64_t) { return ones(a); });
    // absd: at most the furthest ends apart, max(6 - -3, 12 - -9).
    expect_bounds(absd(i, j), -9, 6, -3, 12, 0, 21, [](int64_t a, int64_t b) { return a > b ? a - b : b - a; });
    expect_bounds(absd(cast<uint8_t>(i), cast<uint8_t>(j)), 0, 15, 0, 3, 0, 15,
                  [](int64_t a, int64_t b) { return a > b ? a - b : b - a; });
    expect_bounds(absd(cast<int16_t>(i), cast<int16_t>(j)), -9, 6, 20, 30, 0, 39,
                  [](int64_t a, int64_t b) { return a > b ? a - b : b - a; });
}

// The halving operations (expanded into & ^ >> | ~ terms, which alone have
// no int32 bound): floor((a + b) / 2), floor((a + b + 1) / 2) and
// floor((a - b) / 2) of the ends.
TEST(BitInterval, HalvingOperations) {
    auto floor_half = [](int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
    expect_bounds(halving_add(i, j), -9, 6, -4, 12, -7, 9, [&](int64_t a, int64_t b) { return floor_half(a + b); });
    expect_bounds(rounding_halving_add(i, j), -9, 6, -4, 12, -6, 9,
                  [&](int64_t a, int64_t b) { return floor_half(a + b + 1); });
    expect_bounds(halving_sub(i, j), -9, 6, -4, 12, -11, 5, [&](int64_t a, int64_t b) { return floor_half(a - b); });
    expect_bounds(halving_add(cast<uint8_t>(i), cast<uint8_t>(j)), 0, 15, 0, 31, 0, 23,
                  [&](int64_t a, int64_t b) { return floor_half(a + b); });
    // Unsigned, a difference below 0 wraps around: any byte.
    expect_bounds(halving_sub(cast<uint8_t>(i), cast<uint8_t>(j)), 0, 15, 0, 31, 0, 255,
                  [&](int64_t a, int64_t b) { return (int64_t)(uint8_t)floor_half(a - b); });
    expect_bounds(halving_sub(cast<uint8_t>(i), cast<uint8_t>(j)), 20, 40, 0, 15, 2, 20,
                  [&](int64_t a, int64_t b) { return floor_half(a - b); });
}

// Soundness on random ranges: for each operation and integer type, every
// value over random ranges of its operands (computed in plain C++ with the
// type's wrap-around) lies within the bounds (int32 overflow is undefined,
// so its ranges stay small).
TEST(BitInterval, EveryValueLiesWithinTheBoundsOnRandomRanges) {
    std::mt19937 rng(91);
    auto pick = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    const Type types[] = {Int(8), UInt(8), Int(16), UInt(16), Int(32)};
    enum Op { Shl, Shr, And, Or, Not, Clz, Absd, HAdd, RHAdd, HSub, Div, Ops };
    for (Type t : types) {
        const int bits = t.bits();
        // v wrapped to t (sign- or zero-extended from its low bits).
        auto wrap = [&](int64_t v) {
            uint64_t u = (uint64_t)v & ((uint64_t(1) << bits) - 1);
            return t.is_int() && (u >> (bits - 1)) ? (int64_t)(u - (uint64_t(1) << bits)) : (int64_t)u;
        };
        const int64_t vlo = t == Int(32) ? -(1 << 20) : (int64_t)t.imin();
        const int64_t vhi = t == Int(32) ? (1 << 20) : (int64_t)t.imax();
        for (int op = 0; op < Ops; op++) {
            for (int trial = 0; trial < 200; trial++) {
                int64_t i0 = pick(vlo, vhi), i1 = std::min(vhi, i0 + pick(0, 40));
                int64_t j0 = pick(vlo, vhi), j1 = std::min(vhi, j0 + pick(0, 40));
                if (op == Shl || op == Shr) {
                    int64_t reach = t == Int(32) ? 10 : bits - 1;
                    j0 = pick(t.is_uint() ? 0 : -reach, reach);
                    j1 = std::min(reach, j0 + pick(0, 4));
                } else if (op == Div && j0 <= 0 && j1 >= 0) {
                    j0 = j1 + 1 <= vhi ? j1 + 1 : j0 - 1; // a range of one sign
                    j1 = j0;
                }
                Expr a = cast(t, i), b = cast(t, j);
                Expr e = op == Shl     ? (a << b)
                         : op == Shr   ? (a >> b)
                         : op == And   ? (a & b)
                         : op == Or    ? (a | b)
                         : op == Not   ? ~a
                         : op == Clz   ? count_leading_zeros(a)
                         : op == Absd  ? absd(a, b)
                         : op == HAdd  ? halving_add(a, b)
                         : op == RHAdd ? rounding_halving_add(a, b)
                         : op == HSub  ? halving_sub(a, b)
                                       : a / b;
                auto floor_half = [](int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); };
                auto value = [&](int64_t x, int64_t y) -> int64_t {
                    switch (op) {
                    case Shl: return wrap(shl(x, y));
                    case Shr: return wrap(shl(x, -y));
                    case And: return wrap(x & y);
                    case Or: return wrap(x | y);
                    case Not: return wrap(~x);
                    case Clz: return clz((uint64_t)x & ((uint64_t(1) << bits) - 1), bits);
                    case Absd: return x > y ? x - y : y - x;
                    case HAdd: return floor_half(x + y);
                    case RHAdd: return floor_half(x + y + 1);
                    case HSub: return wrap(floor_half(x - y));
                    default: {
                        int64_t q = x / y, r = x % y;
                        return wrap(r < 0 ? (y > 0 ? q - 1 : q + 1) : q);
                    }
                    }
                };
                const Scope scope = {{"i", Interval{Expr((int)i0), Expr((int)i1)}},
                                     {"j", Interval{Expr((int)j0), Expr((int)j1)}}};
                Interval r = bounds_of_expr(e, scope);
                std::optional<int64_t> lo = end_value(r.min), hi = end_value(r.max);
                for (int64_t x = i0; x <= i1; x++) {
                    for (int64_t y = j0; y <= j1; y++) {
                        int64_t v = value(x, y);
                        ASSERT_TRUE((!lo || *lo <= v) && (!hi || v <= *hi))
                            << e << " with i in [" << i0 << ", " << i1 << "], j in [" << j0 << ", " << j1 << "]: " << v
                            << " at i = " << x << ", j = " << y << " is outside [" << r.min << ", " << r.max << "]";
                    }
                }
            }
        }
    }
}

// f(x) = in(x + e(idx(x))) over x in [0, 16), with `in` holding exactly
// [lo, 15 + hi] (e's hand-worked bounds) and idx 16 bytes: runs, and gives
// in at the offsets e_ref computes in plain C++.
void expect_reads_within(const std::function<Expr(Expr)> &e, int lo, int hi, const std::function<int(int)> &e_ref) {
    const int w = 16;
    Buffer<int32_t> in(w + hi - lo);
    in.set_min({lo});
    for (int k = lo; k < w + hi; k++) {
        in(k) = 1000 + 7 * k;
    }
    Buffer<uint8_t> idx(w);
    for (int k = 0; k < w; k++) {
        idx(k) = (uint8_t)(k * 37 + 11);
    }
    idx(0) = 0;
    idx(1) = 255;
    idx(2) = 24; // & 7 is 0, >> 3 & 3 is 3
    Var x("x");
    Func f("f");
    f(x) = in(x + cast<int>(e(idx(x))));
    Buffer<int32_t> out;
    try {
        out = f.realize({w});
    } catch (const std::exception &err) {
        ADD_FAILURE() << "refused, reading [" << lo << ", " << w - 1 + hi << "]: " << err.what();
        return;
    }
    for (int k = 0; k < w; k++) {
        int at = k + e_ref(idx(k));
        ASSERT_GE(at, lo) << "the reference reads outside the hand-worked bounds";
        ASSERT_LT(at, w + hi);
        EXPECT_EQ(out(k), 1000 + 7 * at) << "at " << k << " (idx " << (int)idx(k) << ")";
    }
}

TEST(BitInterval, PipelinesReadOnlyTheBoundedRegion) {
    const Expr b7 = Expr((uint8_t)7), b3 = Expr((uint8_t)3);
    auto i32 = [](const Expr &e) { return cast<int>(e); };
    // (v & 7) << ((v >> 3) & 3): [0, 56].
    expect_reads_within([&](Expr v) { return i32(v & b7) << i32((v >> 3) & b3); }, 0, 56,
                        [](int v) { return (v & 7) << ((v >> 3) & 3); });
    // ((v & 7) - 4) << ((v >> 3) & 3): [-32, 24].
    expect_reads_within([&](Expr v) { return (i32(v & b7) - 4) << i32((v >> 3) & b3); }, -32, 24,
                        [](int v) { return (int)shl((v & 7) - 4, (v >> 3) & 3); });
    // (v & 7) << (((v >> 3) & 3) - 2): a negative amount shifts right, [0, 14].
    expect_reads_within([&](Expr v) { return i32(v & b7) << (i32((v >> 3) & b3) - 2); }, 0, 14,
                        [](int v) { return (int)shl(v & 7, ((v >> 3) & 3) - 2); });
    // (v & 127) >> (((v >> 3) & 3) - 2): [0, 508].
    expect_reads_within([&](Expr v) { return i32(v & Expr((uint8_t)127)) >> (i32((v >> 3) & b3) - 2); }, 0, 508,
                        [](int v) { return (int)shl(v & 127, 2 - ((v >> 3) & 3)); });
    // 64-bit: (v & 127) >> (v >> 6) in int64, [0, 127].
    expect_reads_within([&](Expr v) { return cast<int64_t>(v & Expr((uint8_t)127)) >> cast<int64_t>(v >> 6); }, 0, 127,
                        [](int v) { return (v & 127) >> (v >> 6); });
    // Unsigned 32-bit: (v & 7) << 2, [0, 28].
    expect_reads_within([&](Expr v) { return cast<uint32_t>(v & b7) << 2; }, 0, 28, [](int v) { return (v & 7) << 2; });
    // (v & 15) & (v >> 2) in int32: [0, 15].
    expect_reads_within([&](Expr v) { return i32(v & Expr((uint8_t)15)) & i32(v >> 2); }, 0, 15,
                        [](int v) { return (v & 15) & (v >> 2); });
    // 255 - (((v & 15) + 3) | (v >> 3)) in bytes: the | is at least 3, [0, 252].
    expect_reads_within([&](Expr v) { return 255 - i32(((v & Expr((uint8_t)15)) + b3) | (v >> 3)); }, 0, 252,
                        [](int v) { return 255 - (((v & 15) + 3) | (v >> 3)); });
    // ~(v & 15) in int32: [-16, -1].
    expect_reads_within([&](Expr v) { return ~i32(v & Expr((uint8_t)15)); }, -16, -1, [](int v) { return ~(v & 15); });
    // clz((v & 15) + 1) in int32: [27, 31].
    expect_reads_within([&](Expr v) { return count_leading_zeros(i32(v & Expr((uint8_t)15)) + 1); }, 27, 31,
                        [](int v) { return clz((uint64_t)((v & 15) + 1), 32); });
    // popcount and count_trailing_zeros of a byte: [0, 8].
    expect_reads_within([&](Expr v) { return popcount(v); }, 0, 8, [](int v) { return ones((uint64_t)v); });
    expect_reads_within([&](Expr v) { return count_trailing_zeros(v); }, 0, 8,
                        [](int v) { return ctz((uint64_t)v, 8); });
    // halving_add(v & 15, v >> 3) in int32: [0, 23].
    expect_reads_within([&](Expr v) { return halving_add(i32(v & Expr((uint8_t)15)), i32(v >> 3)); }, 0, 23,
                        [](int v) { return ((v & 15) + (v >> 3)) / 2; });
    // absd(v & 15, v >> 6) in int32 (a uint32): [0, 15].
    expect_reads_within([&](Expr v) { return absd(i32(v & Expr((uint8_t)15)), i32(v >> 6)); }, 0, 15,
                        [](int v) { return std::abs((v & 15) - (v >> 6)); });
}

} // namespace
