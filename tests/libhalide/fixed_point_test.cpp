// The fixed-point helpers of IROperator.h (widening, saturating, halving,
// rounding shifts, mul_shift_right), JIT-compiled for 8- to 64-bit integer
// types over edge values, each against a plain C++ reference computed in
// 128-bit integers from the definitions in upstream's documentation.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <type_traits>

#include "Halide.h"
#include "error_message.h"
#include "pairwise_check.h"

using namespace Halide;

namespace {

// GCC and Clang 128-bit integers (__extension__: not ISO C++).
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

template <typename T> struct Wide;
template <> struct Wide<int8_t> { using type = int16_t; };
template <> struct Wide<uint8_t> { using type = uint16_t; };
template <> struct Wide<int16_t> { using type = int32_t; };
template <> struct Wide<uint16_t> { using type = uint32_t; };
template <> struct Wide<int32_t> { using type = int64_t; };
template <> struct Wide<uint32_t> { using type = uint64_t; };
template <typename T> using W = typename Wide<T>::type;
template <typename T> using SW = std::make_signed_t<W<T>>;

// v clamped to T's range.
template <typename T> T saturate(i128 v) {
    using L = std::numeric_limits<T>;
    return v < (i128)L::min() ? L::min() : v > (i128)L::max() ? L::max() : (T)v;
}

// v's low bits as a T (two's complement wrap-around).
template <typename T> T wrap(i128 v) {
    return (T)(std::make_unsigned_t<T>)(u128)v;
}

// floor(v / 2^s) for s >= 0.
i128 shr(i128 v, int s) {
    return v >> s;
}

// Halide's shift semantics on a T: a negative amount shifts the other way.
template <typename T> T shift_left(T a, int s) {
    return s >= 0 ? wrap<T>((i128)a << s) : (T)shr(a, -s);
}

template <typename T> T rounding_shift_right_ref(T a, int s) {
    if (s <= 0) {
        return shift_left<T>(a, -s);
    }
    return saturate<T>(shr((i128)a + ((i128)1 << (s - 1)), s));
}

// Shift amounts that keep every operation defined: |s| < the bit width.
template <typename T, typename S> std::vector<S> shift_amounts() {
    int bits = 8 * sizeof(T);
    return value_range<S>(std::is_signed_v<S> ? -(bits - 1) : 0, bits - 1);
}

template <typename T> void check_widening() {
    std::vector<T> e = edge_values<T>();
    auto lift = [](auto fn) { return [fn](const Expr &a, const Expr &b) { return fn(a, b); }; };
    check_pairs("widening_add", e, e, lift([](Expr a, Expr b) { return widening_add(a, b); }),
                [](T a, T b) { return (W<T>)((i128)a + b); });
    check_pairs("widening_sub", e, e, lift([](Expr a, Expr b) { return widening_sub(a, b); }),
                [](T a, T b) { return (SW<T>)((i128)a - b); });
    check_pairs("widening_mul", e, e, lift([](Expr a, Expr b) { return widening_mul(a, b); }),
                [](T a, T b) { return (W<T>)((i128)a * b); });
    std::vector<W<T>> we = edge_values<W<T>>();
    check_pairs("widen_right_add", we, e, lift([](Expr a, Expr b) { return widen_right_add(a, b); }),
                [](W<T> a, T b) { return wrap<W<T>>((i128)a + b); });
    check_pairs("widen_right_sub", we, e, lift([](Expr a, Expr b) { return widen_right_sub(a, b); }),
                [](W<T> a, T b) { return wrap<W<T>>((i128)a - b); });
    check_pairs("widen_right_mul", we, e, lift([](Expr a, Expr b) { return widen_right_mul(a, b); }),
                [](W<T> a, T b) { return wrap<W<T>>((i128)a * b); });
    using S = std::make_signed_t<T>;
    check_pairs("widening_shift_left", e, shift_amounts<T, S>(),
                lift([](Expr a, Expr b) { return widening_shift_left(a, b); }),
                [](T a, S s) { return shift_left<W<T>>((W<T>)a, s); });
    check_pairs("widening_shift_right", e, shift_amounts<T, S>(),
                lift([](Expr a, Expr b) { return widening_shift_right(a, b); }),
                [](T a, S s) { return shift_left<W<T>>((W<T>)a, -s); });
}

template <typename T> void check_saturating_and_halving() {
    std::vector<T> e = edge_values<T>();
    auto lift = [](auto fn) { return [fn](const Expr &a, const Expr &b) { return fn(a, b); }; };
    check_pairs("saturating_add", e, e, lift([](Expr a, Expr b) { return saturating_add(a, b); }),
                [](T a, T b) { return saturate<T>((i128)a + b); });
    check_pairs("saturating_sub", e, e, lift([](Expr a, Expr b) { return saturating_sub(a, b); }),
                [](T a, T b) { return saturate<T>((i128)a - b); });
    check_pairs("halving_add", e, e, lift([](Expr a, Expr b) { return halving_add(a, b); }),
                [](T a, T b) { return (T)shr((i128)a + b, 1); });
    check_pairs("rounding_halving_add", e, e, lift([](Expr a, Expr b) { return rounding_halving_add(a, b); }),
                [](T a, T b) { return (T)shr((i128)a + b + 1, 1); });
    check_pairs("halving_sub", e, e, lift([](Expr a, Expr b) { return halving_sub(a, b); }),
                [](T a, T b) { return wrap<T>(shr((i128)a - b, 1)); });
}

template <typename T> void check_rounding_shifts() {
    std::vector<T> e = edge_values<T>();
    using S = std::make_signed_t<T>;
    using U = std::make_unsigned_t<T>;
    auto lift = [](auto fn) { return [fn](const Expr &a, const Expr &b) { return fn(a, b); }; };
    check_pairs("rounding_shift_right", e, shift_amounts<T, S>(),
                lift([](Expr a, Expr b) { return rounding_shift_right(a, b); }),
                [](T a, S s) { return rounding_shift_right_ref<T>(a, s); });
    check_pairs("rounding_shift_right (unsigned amount)", e, shift_amounts<T, U>(),
                lift([](Expr a, Expr b) { return rounding_shift_right(a, b); }),
                [](T a, U s) { return rounding_shift_right_ref<T>(a, s); });
    check_pairs("rounding_shift_left", e, shift_amounts<T, S>(),
                lift([](Expr a, Expr b) { return rounding_shift_left(a, b); }),
                [](T a, S s) { return rounding_shift_right_ref<T>(a, -s); });
    check_pairs("rounding_shift_left (unsigned amount)", e, shift_amounts<T, U>(),
                lift([](Expr a, Expr b) { return rounding_shift_left(a, b); }),
                [](T a, U s) { return shift_left<T>(a, s); });
    // The int overloads.
    check_values(
        "rounding_shift_right(a, 3)", e, [](const Expr &a) { return rounding_shift_right(a, 3); },
        [](T a) { return rounding_shift_right_ref<T>(a, 3); });
    check_values(
        "rounding_shift_left(a, -2)", e, [](const Expr &a) { return rounding_shift_left(a, -2); },
        [](T a) { return rounding_shift_right_ref<T>(a, 2); });
}

template <typename T> void check_mul_shift_right() {
    std::vector<T> e = edge_values<T>();
    int bits = 8 * sizeof(T);
    for (int q : {0, 1, bits - 1, bits, 2 * bits - 1}) {
        std::string suffix = " by " + std::to_string(q);
        check_pairs(
            "mul_shift_right" + suffix, e, e, [q](const Expr &a, const Expr &b) { return mul_shift_right(a, b, q); },
            [q](T a, T b) { return saturate<T>(shr((i128)a * b, q)); });
        check_pairs(
            "rounding_mul_shift_right" + suffix, e, e,
            [q](const Expr &a, const Expr &b) { return rounding_mul_shift_right(a, b, q); },
            [q](T a, T b) {
                i128 round = q > 0 ? (i128)1 << (q - 1) : 0;
                return saturate<T>(shr((i128)a * b + round, q));
            });
    }
}

template <typename T> class FixedPoint : public ::testing::Test {};
using NarrowTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t>;
TYPED_TEST_SUITE(FixedPoint, NarrowTypes);

TYPED_TEST(FixedPoint, Widening) {
    check_widening<TypeParam>();
}
TYPED_TEST(FixedPoint, SaturatingAndHalving) {
    check_saturating_and_halving<TypeParam>();
}
TYPED_TEST(FixedPoint, RoundingShifts) {
    check_rounding_shifts<TypeParam>();
}
TYPED_TEST(FixedPoint, MulShiftRight) {
    check_mul_shift_right<TypeParam>();
}

// 64-bit operands have no wider type: saturating, halving and rounding
// shifts are computed without one.
template <typename T> class FixedPoint64 : public ::testing::Test {};
using WideTypes = ::testing::Types<int64_t, uint64_t>;
TYPED_TEST_SUITE(FixedPoint64, WideTypes);

TYPED_TEST(FixedPoint64, SaturatingAndHalving) {
    check_saturating_and_halving<TypeParam>();
}
TYPED_TEST(FixedPoint64, RoundingShifts) {
    check_rounding_shifts<TypeParam>();
}

// widening_mul keeps each operand's signedness; the other helpers coerce
// their operands as a + b does (uint8 200 reads as int8 -56).
TEST(FixedPointMixed, Signedness) {
    std::vector<uint8_t> u = edge_values<uint8_t>();
    std::vector<int8_t> s = edge_values<int8_t>();
    check_pairs(
        "widening_mul(uint8, int8)", u, s, [](const Expr &a, const Expr &b) { return widening_mul(a, b); },
        [](uint8_t a, int8_t b) { return (int16_t)(a * b); });
    check_pairs(
        "saturating_add(uint8, int8)", u, s, [](const Expr &a, const Expr &b) { return saturating_add(a, b); },
        [](uint8_t a, int8_t b) { return saturate<int8_t>((int8_t)a + b); });
    check_pairs(
        "widening_add(uint16, int16)", value_range<uint16_t>(65530, 65535), edge_values<int16_t>(),
        [](const Expr &a, const Expr &b) { return widening_add(a, b); },
        [](uint16_t a, int16_t b) { return (int32_t)((int16_t)a + b); });
}

TEST(FixedPointMixed, Floats) {
    Expr a = cast<float>(Var("x")), b = cast<float>(Var("y"));
    EXPECT_EQ(widening_add(a, b).type(), Float(64));
    EXPECT_EQ(widening_mul(a, b).type(), Float(64));
    EXPECT_EQ(widening_sub(a, b).type(), Float(64));
}

TEST(FixedPointErrors, WrongTypes) {
    Var x;
    Expr f = cast<float>(x), u8 = cast<uint8_t>(x), u16 = cast<uint16_t>(x), i64 = cast<int64_t>(x);
    for (auto fn : {saturating_add, saturating_sub, halving_add, rounding_halving_add, halving_sub}) {
        EXPECT_NE(message_of([&] { fn(f, f); }).find("integer"), std::string::npos);
    }
    EXPECT_NE(message_of([&] { widen_right_add(u8, u8); }).find("widen_right_add"), std::string::npos);
    EXPECT_NE(message_of([&] { widen_right_mul(u8, u16); }).find("widen_right_mul"), std::string::npos);
    EXPECT_EQ(message_of([&] { widen_right_sub(u16, u8); }), "");
    EXPECT_NE(message_of([&] { widening_add(i64, i64); }).find("128"), std::string::npos);
    EXPECT_NE(message_of([&] { mul_shift_right(u8, u8, -1); }), "");
    EXPECT_NE(message_of([&] { mul_shift_right(u8, u8, cast<int8_t>(x)); }).find("unsigned"), std::string::npos);
    EXPECT_NE(message_of([&] { rounding_shift_right(f, 1); }), "");
    EXPECT_NE(message_of([&] { widening_shift_left(u8, f); }), "");
    EXPECT_EQ(saturating_add(u8, Expr(3)).type(), Int(32));
    EXPECT_EQ(widening_shift_left(u8, 3).type(), UInt(16));
}

} // namespace
