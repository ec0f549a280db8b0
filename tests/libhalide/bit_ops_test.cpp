// popcount, count_leading_zeros, count_trailing_zeros, extract_bits,
// concat_bits, div_round_to_zero, mod_round_to_zero, strict_float,
// unsafe_promise_clamped, fast_sin, fast_cos and erf: JIT-compiled over edge
// values, scalar and vectorized, against plain C++ references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "Halide.h"
#include "error_message.h"
#include "pairwise_check.h"

using namespace Halide;

namespace {

template <typename T> uint64_t bits_of(T v) {
    return (uint64_t)(std::make_unsigned_t<T>)v;
}

template <typename T> T ref_popcount(T v) {
    return (T)__builtin_popcountll(bits_of(v));
}

template <typename T> T ref_clz(T v) {
    int bits = 8 * sizeof(T);
    uint64_t u = bits_of(v);
    return (T)(u == 0 ? bits : __builtin_clzll(u) - (64 - bits));
}

template <typename T> T ref_ctz(T v) {
    uint64_t u = bits_of(v);
    return (T)(u == 0 ? 8 * sizeof(T) : __builtin_ctzll(u));
}

template <typename T> class BitOps : public ::testing::Test {};
using IntTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t>;
TYPED_TEST_SUITE(BitOps, IntTypes);

TYPED_TEST(BitOps, Counts) {
    using T = TypeParam;
    std::vector<T> e = edge_values<T>();
    check_values(
        "popcount", e, [](const Expr &a) { return popcount(a); }, ref_popcount<T>);
    check_values(
        "count_leading_zeros", e, [](const Expr &a) { return count_leading_zeros(a); }, ref_clz<T>);
    check_values(
        "count_trailing_zeros", e, [](const Expr &a) { return count_trailing_zeros(a); }, ref_ctz<T>);
}

// C's / and %, which round toward zero; x / 0 and x % 0 are 0 here.
TYPED_TEST(BitOps, RoundToZeroDivision) {
    using T = TypeParam;
    std::vector<T> e = edge_values<T>();
    std::vector<T> d = e;
    for (T &v : d) {
        if (std::is_signed_v<T> && v == (T)-1) {
            v = 3; // min / -1 overflows
        }
    }
    check_pairs(
        "div_round_to_zero", e, d, [](const Expr &a, const Expr &b) { return div_round_to_zero(a, b); },
        [](T a, T b) { return b == 0 ? (T)0 : (T)(a / b); });
    check_pairs(
        "mod_round_to_zero", e, d, [](const Expr &a, const Expr &b) { return mod_round_to_zero(a, b); },
        [](T a, T b) { return b == 0 ? (T)0 : (T)(a % b); });
}

// extract_bits<uint8_t> and <int16_t> of every type at every bit offset
// (and beyond the width, which reads zeros).
TYPED_TEST(BitOps, ExtractBits) {
    using T = TypeParam;
    int bits = 8 * sizeof(T);
    std::vector<T> e = edge_values<T>();
    std::vector<int32_t> offsets = value_range<int32_t>(0, bits + 2);
    check_pairs(
        "extract_bits<uint8_t>", e, offsets,
        [](const Expr &a, const Expr &lsb) { return extract_bits<uint8_t>(a, lsb); },
        [bits](T a, int32_t lsb) { return (uint8_t)(lsb >= bits ? 0 : bits_of(a) >> lsb); });
    check_pairs(
        "extract_bits<int16_t>", e, offsets,
        [](const Expr &a, const Expr &lsb) { return extract_bits<int16_t>(a, lsb); },
        [bits](T a, int32_t lsb) { return (int16_t)(uint16_t)(lsb >= bits ? 0 : bits_of(a) >> lsb); });
}

TEST(BitOpsMore, ConcatBits) {
    std::vector<uint8_t> u = edge_values<uint8_t>();
    std::vector<int8_t> s = edge_values<int8_t>();
    check_pairs(
        "concat_bits(uint8, uint8)", u, u,
        [](const Expr &a, const Expr &b) {
            return concat_bits({a, b});
        },
        [](uint8_t a, uint8_t b) { return (uint16_t)(a | (b << 8)); });
    check_pairs(
        "concat_bits(int8 x 4)", s, s,
        [](const Expr &a, const Expr &b) {
            return concat_bits({a, b, b, a});
        },
        [](int8_t a, int8_t b) {
            uint32_t ua = (uint8_t)a, ub = (uint8_t)b;
            return (int32_t)(ua | ub << 8 | ub << 16 | ua << 24);
        });
    std::vector<uint32_t> w = edge_values<uint32_t>();
    check_pairs(
        "concat_bits(uint32, uint32)", w, w,
        [](const Expr &a, const Expr &b) {
            return concat_bits({a, b});
        },
        [](uint32_t a, uint32_t b) { return (uint64_t)a | (uint64_t)b << 32; });
    // A float's bits.
    std::vector<float> floats;
    for (int i = 0; i < 16; i++) {
        floats.push_back(-2.5f + 0.75f * i);
    }
    check_values(
        "extract_bits<uint32_t>(float)", floats, [](const Expr &a) { return extract_bits<uint32_t>(a, 0); },
        [](float a) {
            uint32_t u;
            std::memcpy(&u, &a, 4);
            return u;
        });
}

TEST(BitOpsMore, Errors) {
    Var x;
    Expr f = cast<float>(x), u8 = cast<uint8_t>(x), i8 = cast<int8_t>(x);
    EXPECT_NE(message_of([&] { popcount(f); }).find("must be an integer"), std::string::npos);
    EXPECT_NE(message_of([&] { count_leading_zeros(f); }).find("must be an integer"), std::string::npos);
    EXPECT_NE(message_of([&] { count_trailing_zeros(f); }).find("must be an integer"), std::string::npos);
    EXPECT_NE(message_of([&] { concat_bits({u8, u8, u8}); }).find("not a power of two"), std::string::npos);
    EXPECT_NE(message_of([&] { concat_bits({u8, i8}); }).find("same type"), std::string::npos);
    EXPECT_NE(message_of([&] { div_round_to_zero(f, f); }).find("not an integer"), std::string::npos);
    EXPECT_NE(message_of([&] { mod_round_to_zero(u8, f); }).find("not an integer"), std::string::npos);
    EXPECT_NE(message_of([&] { fast_sin(cast<double>(x)); }), "");
    EXPECT_EQ(div_round_to_zero(i8, u8).type(), Int(8));
}

// a * a - c with a = 1 + 2^-12, c = 1 + 2^-11: the exact product is
// c + 2^-24, which rounds to c in float (a tie, to even), so computed as
// written the result is 0; a fused multiply-add would give 2^-24.
TEST(BitOpsMore, StrictFloat) {
    const float a = 1.0f + std::ldexp(1.0f, -12), c = 1.0f + std::ldexp(1.0f, -11);
    check_values(
        "strict_float", std::vector<float>(32, a), [c](const Expr &v) { return strict_float(v * v - Expr(c)); },
        [](float) { return 0.0f; });
    EXPECT_EQ(strict_float(Var("x")).type(), Int(32));
}

// With the promise, bounds inference needs only [0, 9] of the input;
// without it, the index could be any int32.
TEST(BitOpsMore, UnsafePromiseClamped) {
    Buffer<int32_t> in(10), idx(64);
    for (int i = 0; i < 10; i++) {
        in(i) = 100 + i;
    }
    for (int i = 0; i < 64; i++) {
        idx(i) = (i * 7) % 10;
    }
    Var x;
    Func f;
    f(x) = in(unsafe_promise_clamped(idx(x), 0, 9));
    Buffer<int32_t> out = f.realize({64});
    for (int i = 0; i < 64; i++) {
        ASSERT_EQ(out(i), 100 + (i * 7) % 10);
    }
    Func g;
    g(x) = unsafe_promise_clamped(idx(x), Expr(), 9) + unsafe_promise_clamped(idx(x), 0, Expr());
    g.vectorize(x, 8);
    Buffer<int32_t> out2 = g.realize({64});
    for (int i = 0; i < 64; i++) {
        ASSERT_EQ(out2(i), 2 * idx(i));
    }
}

TEST(BitOpsMore, TranscendentalFloat32) {
    std::vector<float> v;
    for (int i = 0; i < 24; i++) {
        v.push_back(-3.0f + 0.375f * i);
    }
    check_values(
        "erf", v, [](const Expr &a) { return erf(a); }, [](float a) { return std::erf(a); });
    Buffer<float> in(16);
    for (int i = 0; i < 16; i++) {
        in(i) = -4.0f + 0.5f * i;
    }
    Var x;
    Func f;
    f(x) = Tuple(fast_sin(in(x)), fast_cos(in(x)));
    f.vectorize(x, 8);
    Realization r = f.realize({16});
    Buffer<float> s = r[0], c = r[1];
    for (int i = 0; i < 16; i++) {
        EXPECT_NEAR(s(i), std::sin(in(i)), 1e-6f);
        EXPECT_NEAR(c(i), std::cos(in(i)), 1e-6f);
    }
}

} // namespace
