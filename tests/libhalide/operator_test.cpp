// The front end's operators and the simplifier's constant folding, for every
// operator and type, against scalar references computed here from the
// language's definition: wrap-around integers, Euclidean division and
// modulus, x / 0 == 0 and x % 0 == 0, IEEE floats in the operand's width.
// Also the type coercion rules and the user errors for misuse.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IREquality.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr int kCases = 300; // per operator and type

// ---------------------------------------------------------------------------
// Seeding: HALIDE_TEST_SEED overrides; the seed is printed once.

uint64_t base_seed() {
    static const uint64_t seed = [] {
        uint64_t s = 0;
        if (const char *env = std::getenv("HALIDE_TEST_SEED")) {
            s = std::strtoull(env, nullptr, 0);
        } else {
            std::random_device rd;
            s = ((uint64_t)rd() << 32) ^ rd();
        }
        std::printf("operator_test: RNG seed %llu (set HALIDE_TEST_SEED to reproduce)\n", (unsigned long long)s);
        return s;
    }();
    return seed;
}

std::mt19937_64 make_rng(uint64_t salt) {
    return std::mt19937_64(base_seed() ^ (salt * 0x9E3779B97F4A7C15ull));
}

// ---------------------------------------------------------------------------
// Types

template <typename T> struct Tag { using type = T; };

template <typename F> void for_each_type(F f) {
    f(Tag<int8_t>{});
    f(Tag<int16_t>{});
    f(Tag<int32_t>{});
    f(Tag<int64_t>{});
    f(Tag<uint8_t>{});
    f(Tag<uint16_t>{});
    f(Tag<uint32_t>{});
    f(Tag<uint64_t>{});
    f(Tag<float>{});
    f(Tag<double>{});
    f(Tag<bool>{});
}

template <typename F> void for_each_integer_type(F f) {
    f(Tag<int8_t>{});
    f(Tag<int16_t>{});
    f(Tag<int32_t>{});
    f(Tag<int64_t>{});
    f(Tag<uint8_t>{});
    f(Tag<uint16_t>{});
    f(Tag<uint32_t>{});
    f(Tag<uint64_t>{});
}

template <typename T> constexpr bool is_bool_v = std::is_same_v<T, bool>;
template <typename T> constexpr bool is_int_v = std::is_integral_v<T> &&std::is_signed_v<T>;
template <typename T> constexpr bool is_uint_v = std::is_integral_v<T> &&std::is_unsigned_v<T> && !is_bool_v<T>;

template <typename T> std::string name_of() {
    return type_to_string(type_of<T>());
}

// An immediate of T's Halide type.
template <typename T> Expr imm(T v) {
    if constexpr (is_bool_v<T>) {
        return UIntImm::make(Bool(), v ? 1 : 0);
    } else if constexpr (std::is_floating_point_v<T>) {
        return FloatImm::make(type_of<T>(), (double)v);
    } else if constexpr (std::is_signed_v<T>) {
        return IntImm::make(type_of<T>(), (int64_t)v);
    } else {
        return UIntImm::make(type_of<T>(), (uint64_t)v);
    }
}

template <typename T> std::string show(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.17g", (double)v);
        return buf;
    } else if constexpr (is_int_v<T>) {
        return std::to_string((long long)v);
    } else {
        return std::to_string((unsigned long long)v);
    }
}

// Is e the immediate `expected` of type T? Floats compare bit-exactly,
// except that any NaN matches any NaN.
template <typename T>::testing::AssertionResult is_imm_value(const Expr &e, T expected) {
    if (!e.defined()) {
        return ::testing::AssertionFailure() << "undefined result";
    }
    if (e.type() != type_of<T>()) {
        return ::testing::AssertionFailure()
               << "type " << type_to_string(e.type()) << ", expected " << name_of<T>() << " (" << e << ")";
    }
    T got{};
    if constexpr (std::is_floating_point_v<T>) {
        const FloatImm *f = e.as<FloatImm>();
        if (!f) {
            return ::testing::AssertionFailure() << "not folded: " << e;
        }
        got = (T)f->value;
        if (std::isnan(expected) && std::isnan(got)) {
            return ::testing::AssertionSuccess();
        }
        if (std::memcmp(&got, &expected, sizeof(T)) == 0) {
            return ::testing::AssertionSuccess();
        }
    } else if constexpr (is_int_v<T>) {
        const IntImm *i = e.as<IntImm>();
        if (!i) {
            return ::testing::AssertionFailure() << "not folded: " << e;
        }
        got = (T)i->value;
        if ((int64_t)got != i->value) {
            return ::testing::AssertionFailure() << "IntImm " << i->value << " outside " << name_of<T>();
        }
        if (got == expected) {
            return ::testing::AssertionSuccess();
        }
    } else {
        const UIntImm *u = e.as<UIntImm>();
        if (!u) {
            return ::testing::AssertionFailure() << "not folded: " << e;
        }
        if (u->value != (uint64_t)(T)u->value) {
            return ::testing::AssertionFailure() << "UIntImm " << u->value << " outside " << name_of<T>();
        }
        got = (T)u->value;
        if (got == expected) {
            return ::testing::AssertionSuccess();
        }
    }
    return ::testing::AssertionFailure() << "got " << show(got) << ", expected " << show(expected);
}

// ---------------------------------------------------------------------------
// Random operands: edge values, small values and random bit patterns.

template <typename T> T random_value(std::mt19937_64 &rng) {
    uint64_t r = rng();
    if constexpr (is_bool_v<T>) {
        return (r & 1) != 0;
    } else if constexpr (std::is_integral_v<T>) {
        switch (r % 8) {
        case 0: {
            const T edges[] = {0,
                               1,
                               (T)-1,
                               std::numeric_limits<T>::min(),
                               std::numeric_limits<T>::max(),
                               (T)(std::numeric_limits<T>::min() + 1),
                               (T)(std::numeric_limits<T>::max() - 1),
                               2,
                               (T)-2};
            return edges[(r >> 8) % (sizeof(edges) / sizeof(edges[0]))];
        }
        case 1:
        case 2: return (T)((int64_t)((r >> 8) % 33) - 16);
        default: {
            T v;
            uint64_t bits = rng();
            std::memcpy(&v, &bits, sizeof(T));
            return v;
        }
        }
    } else {
        switch (r % 8) {
        case 0: {
            const T specials[] = {(T)0.0,
                                  (T)-0.0,
                                  std::numeric_limits<T>::infinity(),
                                  -std::numeric_limits<T>::infinity(),
                                  std::numeric_limits<T>::quiet_NaN(),
                                  (T)1,
                                  (T)-1,
                                  std::numeric_limits<T>::denorm_min(),
                                  std::numeric_limits<T>::max(),
                                  std::numeric_limits<T>::lowest(),
                                  (T)0.5,
                                  (T)-2.5,
                                  (T)3.5};
            return specials[(r >> 8) % (sizeof(specials) / sizeof(specials[0]))];
        }
        case 1: return (T)((int64_t)((r >> 8) % 41) - 20);
        case 2: return (T)((int64_t)((r >> 8) % 41) - 20) / (T)4;
        case 3:
        case 4: {
            std::uniform_real_distribution<double> d(-1e6, 1e6);
            return (T)d(rng);
        }
        default: {
            // Any bit pattern: all magnitudes, NaNs, denormals.
            T v;
            uint64_t bits = rng();
            std::memcpy(&v, &bits, sizeof(T));
            return v;
        }
        }
    }
}

// ---------------------------------------------------------------------------
// Scalar references, written from the definition.

template <typename T> T wrap(i128 v) {
    // Reduce modulo 2^bits, then reinterpret as T.
    using U = std::make_unsigned_t<T>;
    return (T)(U)(u128)v;
}

template <typename T> T ref_add(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a + b;
    } else {
        return wrap<T>((i128)a + (i128)b);
    }
}

template <typename T> T ref_sub(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a - b;
    } else {
        return wrap<T>((i128)a - (i128)b);
    }
}

template <typename T> T ref_mul(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a * b;
    } else {
        // The low bits of the exact product (computed on magnitudes, so the
        // 128-bit product cannot overflow).
        u128 ua = (u128)(i128)a, ub = (u128)(i128)b;
        return wrap<T>((i128)(ua * ub));
    }
}

// Euclidean: remainder in [0, |b|), quotient exact.
template <typename T> T ref_div(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a / b;
    } else {
        if (b == 0) {
            return 0;
        }
        i128 A = a, B = b;
        i128 absb = B < 0 ? -B : B;
        i128 r = A % B;
        if (r < 0) {
            r += absb;
        }
        return wrap<T>((A - r) / B);
    }
}

template <typename T> T ref_mod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        T q = a / b;
        T f = std::floor(q);
        T p = b * f;
        return a - p;
    } else {
        if (b == 0) {
            return 0;
        }
        i128 A = a, B = b;
        i128 absb = B < 0 ? -B : B;
        i128 r = A % B;
        if (r < 0) {
            r += absb;
        }
        return wrap<T>(r);
    }
}

// Float min/max: the second operand unless the first is strictly smaller
// (larger); integers: the usual.
template <typename T> T ref_min(T a, T b) {
    return a < b ? a : b;
}
template <typename T> T ref_max(T a, T b) {
    return a > b ? a : b;
}

template <typename T> T ref_shift(T a, T b, bool left) {
    constexpr int bits = sizeof(T) * 8;
    using U = std::make_unsigned_t<T>;
    U amount = (U)b;
    if constexpr (is_int_v<T>) {
        // A negative signed amount shifts the other way (upstream's rule).
        if (b < 0) {
            left = !left;
            amount = (U)(U(0) - amount);
        }
    }
    if (amount >= (U)bits) {
        if (!left && is_int_v<T> && a < 0) {
            return (T)-1;
        }
        return 0;
    }
    i128 v = a;
    if (left) {
        return wrap<T>(v * ((i128)1 << amount));
    }
    // Floor division by a power of two is an arithmetic shift.
    i128 d = (i128)1 << amount;
    i128 q = v / d;
    if (v % d < 0) {
        q -= 1;
    }
    return wrap<T>(q);
}

template <typename T> double ref_round(T v) {
    // Nearest, ties to even.
    double x = (double)v;
    if (std::isnan(x) || std::isinf(x)) {
        return x;
    }
    double f = std::floor(x);
    double diff = x - f;
    double r;
    if (diff > 0.5) {
        r = f + 1;
    } else if (diff < 0.5) {
        r = f;
    } else {
        r = std::fmod(f, 2.0) == 0 ? f : f + 1;
    }
    if (r == 0) {
        r = std::copysign(0.0, x);
    }
    return r;
}

// Every value of From that To can hold after C conversion rules, and the
// result; false if the conversion is undefined (float out of range / NaN).
template <typename From, typename To> bool ref_cast(From v, To *out) {
    if constexpr (is_bool_v<To>) {
        // Upstream's rule: a cast to bool keeps the lowest bit, of the value
        // truncated toward zero for floats (2 -> false, 3.5 -> true).
        if constexpr (std::is_floating_point_v<From>) {
            double t = std::trunc((double)v);
            if (!(t > -9.2e18 && t < 9.2e18)) {
                return false;
            }
            *out = ((int64_t)t & 1) != 0;
        } else {
            *out = ((uint64_t)(i128)v & 1) != 0;
        }
        return true;
    } else if constexpr (std::is_floating_point_v<To>) {
        *out = (To)v;
        return true;
    } else if constexpr (std::is_floating_point_v<From>) {
        if (std::isnan(v)) {
            return false;
        }
        double t = std::trunc((double)v);
        double lo = is_int_v<To> ? -std::ldexp(1.0, sizeof(To) * 8 - 1) : 0.0;
        double hi = is_int_v<To> ? std::ldexp(1.0, sizeof(To) * 8 - 1) : std::ldexp(1.0, sizeof(To) * 8);
        if (!(t >= lo && t < hi)) {
            return false;
        }
        *out = (To)t;
        return true;
    } else {
        // Integer to integer: keep the low bits (sign- or zero-extending
        // first according to the source).
        *out = wrap<To>((i128)v);
        return true;
    }
}

template <typename From, typename To> To ref_saturating_cast(From v) {
    if constexpr (std::is_same_v<From, To>) {
        return v;
    } else if constexpr (is_bool_v<To>) {
        return v > 0;
    } else if constexpr (std::is_floating_point_v<To>) {
        return (To)v;
    } else if constexpr (std::is_floating_point_v<From>) {
        constexpr int bits = sizeof(To) * 8;
        if (std::isnan(v)) {
            return std::numeric_limits<To>::min();
        }
        double hi = std::ldexp(1.0, is_int_v<To> ? bits - 1 : bits);
        double lo = is_int_v<To> ? -hi : 0.0;
        if ((double)v >= hi) {
            return std::numeric_limits<To>::max();
        }
        if ((double)v <= lo) {
            return std::numeric_limits<To>::min();
        }
        return (To)std::trunc((double)v);
    } else {
        i128 x = (i128)v;
        i128 lo = (i128)std::numeric_limits<To>::min(), hi = (i128)std::numeric_limits<To>::max();
        return (To)(x < lo ? lo : x > hi ? hi : x);
    }
}

// ---------------------------------------------------------------------------
// Binary operators

enum class Op { Add, Sub, Mul, Div, Mod, Min, Max, EQ, NE, LT, LE, GT, GE, And, Or, Xor, Shl, Shr, LogAnd, LogOr };

const char *op_name(Op op) {
    switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Mod: return "%";
    case Op::Min: return "min";
    case Op::Max: return "max";
    case Op::EQ: return "==";
    case Op::NE: return "!=";
    case Op::LT: return "<";
    case Op::LE: return "<=";
    case Op::GT: return ">";
    case Op::GE: return ">=";
    case Op::And: return "&";
    case Op::Or: return "|";
    case Op::Xor: return "^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::LogAnd: return "&&";
    case Op::LogOr: return "||";
    }
    return "?";
}

Expr apply(Op op, const Expr &a, const Expr &b) {
    switch (op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return a * b;
    case Op::Div: return a / b;
    case Op::Mod: return a % b;
    case Op::Min: return Halide::min(a, b);
    case Op::Max: return Halide::max(a, b);
    case Op::EQ: return a == b;
    case Op::NE: return a != b;
    case Op::LT: return a < b;
    case Op::LE: return a <= b;
    case Op::GT: return a > b;
    case Op::GE: return a >= b;
    case Op::And: return a & b;
    case Op::Or: return a | b;
    case Op::Xor: return a ^ b;
    case Op::Shl: return a << b;
    case Op::Shr: return a >> b;
    case Op::LogAnd: return a && b;
    case Op::LogOr: return a || b;
    }
    return Expr();
}

template <typename T> void check_arith(Op op, uint64_t salt) {
    std::mt19937_64 rng = make_rng(salt);
    for (int i = 0; i < kCases; i++) {
        T a = random_value<T>(rng), b = random_value<T>(rng);
        Expr e = apply(op, imm(a), imm(b));
        ASSERT_EQ(e.type(), type_of<T>()) << name_of<T>() << " " << op_name(op);
        Expr r = simplify(e);
        T expected{};
        switch (op) {
        case Op::Add: expected = ref_add(a, b); break;
        case Op::Sub: expected = ref_sub(a, b); break;
        case Op::Mul: expected = ref_mul(a, b); break;
        case Op::Div: expected = ref_div(a, b); break;
        case Op::Mod: expected = ref_mod(a, b); break;
        case Op::Min: expected = ref_min(a, b); break;
        case Op::Max: expected = ref_max(a, b); break;
        default: FAIL() << "not arithmetic";
        }
        ASSERT_TRUE(is_imm_value<T>(r, expected))
            << show(a) << " " << op_name(op) << " " << show(b) << " in " << name_of<T>() << ": " << e;
        // The folding core gives the same answer on the node itself.
        ASSERT_TRUE(is_imm_value<T>(constant_fold(e), expected)) << "constant_fold of " << e;
    }
}

template <typename T> void check_compare(Op op, uint64_t salt) {
    std::mt19937_64 rng = make_rng(salt);
    for (int i = 0; i < kCases; i++) {
        T a = random_value<T>(rng), b = random_value<T>(rng);
        if (i % 5 == 0) {
            b = a;
        }
        Expr e = apply(op, imm(a), imm(b));
        ASSERT_EQ(e.type(), Bool());
        bool expected = false;
        switch (op) {
        case Op::EQ: expected = a == b; break;
        case Op::NE: expected = a != b; break;
        case Op::LT: expected = a < b; break;
        case Op::LE: expected = a <= b; break;
        case Op::GT: expected = a > b; break;
        case Op::GE: expected = a >= b; break;
        default: FAIL() << "not a comparison";
        }
        ASSERT_TRUE(is_imm_value<bool>(simplify(e), expected))
            << show(a) << " " << op_name(op) << " " << show(b) << " in " << name_of<T>();
    }
}

template <typename T> void check_bitwise(Op op, uint64_t salt) {
    std::mt19937_64 rng = make_rng(salt);
    for (int i = 0; i < kCases; i++) {
        T a = random_value<T>(rng), b = random_value<T>(rng);
        if constexpr (!is_bool_v<T>) {
            if ((op == Op::Shl || op == Op::Shr) && i % 2 == 0) {
                // Mostly in-range shift amounts, some just outside.
                b = (T)((int64_t)(rng() % (sizeof(T) * 8 + 4)) - 2);
            }
        }
        Expr e = apply(op, imm(a), imm(b));
        ASSERT_EQ(e.type(), type_of<T>());
        T expected{};
        switch (op) {
        case Op::And: expected = (T)(a & b); break;
        case Op::Or: expected = (T)(a | b); break;
        case Op::Xor: expected = (T)(a ^ b); break;
        case Op::Shl:
            if constexpr (!is_bool_v<T>) {
                expected = ref_shift(a, b, true);
            }
            break;
        case Op::Shr:
            if constexpr (!is_bool_v<T>) {
                expected = ref_shift(a, b, false);
            }
            break;
        default: FAIL() << "not bitwise";
        }
        ASSERT_TRUE(is_imm_value<T>(simplify(e), expected))
            << show(a) << " " << op_name(op) << " " << show(b) << " in " << name_of<T>() << ": " << e;
    }
}

uint64_t salt_of(Op op, const std::string &type) {
    uint64_t h = (uint64_t)op * 1000003u;
    for (char c : type) {
        h = h * 131 + (uint64_t)c;
    }
    return h;
}

TEST(OperatorFold, Arithmetic) {
    for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Mod, Op::Min, Op::Max}) {
        for_each_type([&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (!is_bool_v<T>) {
                check_arith<T>(op, salt_of(op, name_of<T>()));
            }
        });
    }
}

TEST(OperatorFold, Comparisons) {
    for (Op op : {Op::EQ, Op::NE, Op::LT, Op::LE, Op::GT, Op::GE}) {
        for_each_type([&](auto tag) {
            using T = typename decltype(tag)::type;
            check_compare<T>(op, salt_of(op, name_of<T>()));
        });
    }
}

TEST(OperatorFold, Bitwise) {
    for (Op op : {Op::And, Op::Or, Op::Xor, Op::Shl, Op::Shr}) {
        for_each_integer_type([&](auto tag) {
            using T = typename decltype(tag)::type;
            check_bitwise<T>(op, salt_of(op, name_of<T>()));
        });
        if (op != Op::Shl && op != Op::Shr) {
            check_bitwise<bool>(op, salt_of(op, "bool"));
        }
    }
}

TEST(OperatorFold, BitwiseNot) {
    for_each_integer_type([&](auto tag) {
        using T = typename decltype(tag)::type;
        std::mt19937_64 rng = make_rng(salt_of(Op::Xor, "not" + name_of<T>()));
        for (int i = 0; i < kCases; i++) {
            T a = random_value<T>(rng);
            Expr e = ~imm(a);
            ASSERT_TRUE(is_imm_value<T>(simplify(e), (T)~a)) << "~" << show(a) << " in " << name_of<T>();
        }
    });
}

TEST(OperatorFold, Negate) {
    for_each_type([&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!is_bool_v<T>) {
            std::mt19937_64 rng = make_rng(salt_of(Op::Sub, "neg" + name_of<T>()));
            for (int i = 0; i < kCases; i++) {
                T a = random_value<T>(rng);
                Expr e = -imm(a);
                ASSERT_EQ(e.type(), type_of<T>());
                T expected;
                if constexpr (std::is_floating_point_v<T>) {
                    expected = (T)0 - a; // 0 - x: note 0 - 0 == +0
                } else {
                    expected = wrap<T>(-(i128)a);
                }
                ASSERT_TRUE(is_imm_value<T>(simplify(e), expected)) << "-" << show(a) << " in " << name_of<T>();
            }
        }
    });
}

TEST(OperatorFold, Logical) {
    for (int a = 0; a < 2; a++) {
        for (int b = 0; b < 2; b++) {
            Expr ea = imm<bool>(a), eb = imm<bool>(b);
            EXPECT_TRUE(is_imm_value<bool>(simplify(ea && eb), a && b));
            EXPECT_TRUE(is_imm_value<bool>(simplify(ea || eb), a || b));
            EXPECT_TRUE(is_imm_value<bool>(simplify(ea == eb), a == b));
            EXPECT_TRUE(is_imm_value<bool>(simplify(ea != eb), a != b));
            EXPECT_TRUE(is_imm_value<bool>(simplify(ea && (b != 0)), a && b));
            EXPECT_TRUE(is_imm_value<bool>(simplify((a != 0) || eb), a || b));
            for (int c = 0; c < 2; c++) {
                Expr ec = imm<bool>(c);
                EXPECT_TRUE(is_imm_value<bool>(simplify(select(ea, eb, ec)), a ? b : c));
            }
        }
        EXPECT_TRUE(is_imm_value<bool>(simplify(!imm<bool>(a)), !a));
    }
}

TEST(OperatorFold, Select) {
    for_each_type([&](auto tag) {
        using T = typename decltype(tag)::type;
        std::mt19937_64 rng = make_rng(salt_of(Op::Min, "select" + name_of<T>()));
        for (int i = 0; i < kCases; i++) {
            bool c = rng() & 1;
            T a = random_value<T>(rng), b = random_value<T>(rng);
            Expr e = select(imm(c), imm(a), imm(b));
            ASSERT_TRUE(is_imm_value<T>(simplify(e), c ? a : b));
        }
    });
}

// ---------------------------------------------------------------------------
// Casts

template <typename From, typename To> void check_casts(uint64_t salt) {
    std::mt19937_64 rng = make_rng(salt);
    for (int i = 0; i < kCases / 3; i++) {
        From v = random_value<From>(rng);
        To expected{};
        bool defined = ref_cast<From, To>(v, &expected);
        // Both the eager folding in cast() and the simplifier's, on a Cast
        // node built directly.
        Expr via_cast = cast(type_of<To>(), imm(v));
        Expr direct = std::is_same_v<From, To> ? imm(v) : Cast::make(type_of<To>(), imm(v));
        Expr folded = simplify(direct);
        ASSERT_EQ(via_cast.type(), type_of<To>());
        if (defined) {
            ASSERT_TRUE(is_imm_value<To>(via_cast, expected))
                << "cast<" << name_of<To>() << ">(" << name_of<From>() << " " << show(v) << ")";
            ASSERT_TRUE(is_imm_value<To>(folded, expected))
                << "simplify(Cast " << name_of<To>() << " of " << name_of<From>() << " " << show(v) << ")";
        } else {
            // Out of range float to int: left for the target.
            ASSERT_FALSE(is_const(folded))
                << "folded an undefined cast of " << show(v) << " to " << name_of<To>() << ": " << folded;
        }

        To sat = ref_saturating_cast<From, To>(v);
        Expr s = saturating_cast(type_of<To>(), imm(v));
        ASSERT_EQ(s.type(), type_of<To>());
        ASSERT_TRUE(is_imm_value<To>(simplify(s), sat))
            << "saturating_cast<" << name_of<To>() << ">(" << name_of<From>() << " " << show(v) << "): " << s;
    }
}

TEST(OperatorFold, CastsAndSaturatingCasts) {
    for_each_type([&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        for_each_type([&](auto to_tag) {
            using To = typename decltype(to_tag)::type;
            check_casts<From, To>(salt_of(Op::Add, name_of<From>() + "->" + name_of<To>()));
        });
    });
}

TEST(OperatorFold, ConciseSaturatingCasts) {
    using namespace Halide::ConciseCasts;
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(u8_sat(Expr(300))), 255));
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(u8_sat(Expr(-5))), 0));
    EXPECT_TRUE(is_imm_value<int8_t>(simplify(i8_sat(Expr(-300))), -128));
    EXPECT_TRUE(is_imm_value<int8_t>(simplify(i8_sat(Expr(uint8_t(200)))), 127));
    EXPECT_TRUE(is_imm_value<uint16_t>(simplify(u16_sat(Expr(70000.5f))), 65535));
    EXPECT_TRUE(is_imm_value<int16_t>(simplify(i16_sat(Expr(-1e9))), -32768));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(i32_sat(Expr(3e9f))), 2147483647));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(i32_sat(Expr(2147483520.0f))), 2147483520));
    EXPECT_TRUE(is_imm_value<uint32_t>(simplify(u32_sat(Expr(int64_t(-1)))), 0u));
    EXPECT_TRUE(is_imm_value<uint32_t>(simplify(u32_sat(Expr(int64_t(1) << 40))), 0xFFFFFFFFu));
    EXPECT_TRUE(is_imm_value<int64_t>(simplify(i64_sat(Expr(1e300))), std::numeric_limits<int64_t>::max()));
    EXPECT_TRUE(is_imm_value<int64_t>(simplify(i64_sat(Expr(uint64_t(-1)))), std::numeric_limits<int64_t>::max()));
    EXPECT_TRUE(is_imm_value<uint64_t>(simplify(u64_sat(Expr(int64_t(-7)))), 0u));
    EXPECT_TRUE(is_imm_value<uint64_t>(simplify(u64_sat(Expr(1e30f))), std::numeric_limits<uint64_t>::max()));
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(u8_sat(Expr(std::nanf("")))), 0));
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(u8(Expr(300))), 44));
    EXPECT_TRUE(is_imm_value<int8_t>(simplify(i8(Expr(200))), -56));
    EXPECT_TRUE(is_imm_value<float>(simplify(f32(Expr(16777217))), 16777216.0f));
    EXPECT_TRUE(is_imm_value<double>(simplify(f64(Expr(0.1f))), (double)0.1f));
    EXPECT_TRUE(is_imm_value<uint16_t>(simplify(u16(Expr(-1))), 65535));
    EXPECT_TRUE(is_imm_value<uint32_t>(simplify(u32(Expr(-1))), 0xFFFFFFFFu));
    EXPECT_TRUE(is_imm_value<uint64_t>(simplify(u64(Expr(int8_t(-1)))), ~0ull));
    EXPECT_TRUE(is_imm_value<int16_t>(simplify(i16(Expr(uint8_t(255)))), 255));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(i32(Expr(-2.9f))), -2));
    EXPECT_TRUE(is_imm_value<int64_t>(simplify(i64(Expr(uint32_t(0xFFFFFFFFu)))), 0xFFFFFFFFll));
    EXPECT_TRUE(is_imm_value<float>(simplify(f32(Expr(uint64_t(-1)))), 18446744073709551616.0f));
}

// ---------------------------------------------------------------------------
// abs, absd, clamp and the exactly rounded math functions

// The result type of abs / absd: unsigned for integers.
template <typename T, bool = std::is_floating_point_v<T>> struct AbsType { using type = T; };
template <typename T> struct AbsType<T, false> { using type = std::make_unsigned_t<T>; };

TEST(OperatorFold, AbsAbsdClamp) {
    for_each_type([&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (!is_bool_v<T>) {
            using R = typename AbsType<T>::type;
            std::mt19937_64 rng = make_rng(salt_of(Op::Max, "abs" + name_of<T>()));
            for (int i = 0; i < kCases; i++) {
                T a = random_value<T>(rng), b = random_value<T>(rng);
                R abs_expected, absd_expected;
                if constexpr (std::is_floating_point_v<T>) {
                    abs_expected = std::fabs(a);
                    absd_expected = a < b ? b - a : a - b;
                } else {
                    i128 d = (i128)a - (i128)b;
                    abs_expected = (R)(a < 0 ? -(i128)a : (i128)a);
                    absd_expected = (R)(d < 0 ? -d : d);
                }
                Expr e = abs(imm(a));
                ASSERT_EQ(e.type(), type_of<R>());
                ASSERT_TRUE(is_imm_value<R>(simplify(e), abs_expected)) << "abs(" << show(a) << ")";
                Expr d = absd(imm(a), imm(b));
                ASSERT_EQ(d.type(), type_of<R>());
                ASSERT_TRUE(is_imm_value<R>(simplify(d), absd_expected))
                    << "absd(" << show(a) << ", " << show(b) << ")";

                T lo = random_value<T>(rng), hi = random_value<T>(rng);
                Expr c = clamp(imm(a), imm(lo), imm(hi));
                T clamped = ref_max(ref_min(a, hi), lo);
                ASSERT_TRUE(is_imm_value<T>(simplify(c), clamped))
                    << "clamp(" << show(a) << ", " << show(lo) << ", " << show(hi) << ")";
            }
        }
    });
}

template <typename T> void check_math() {
    std::mt19937_64 rng = make_rng(salt_of(Op::Div, "math" + name_of<T>()));
    for (int i = 0; i < kCases; i++) {
        T a = random_value<T>(rng);
        ASSERT_TRUE(is_imm_value<T>(simplify(floor(imm(a))), (T)std::floor(a))) << "floor " << show(a);
        ASSERT_TRUE(is_imm_value<T>(simplify(ceil(imm(a))), (T)std::ceil(a))) << "ceil " << show(a);
        ASSERT_TRUE(is_imm_value<T>(simplify(trunc(imm(a))), (T)std::trunc(a))) << "trunc " << show(a);
        ASSERT_TRUE(is_imm_value<T>(simplify(round(imm(a))), (T)ref_round(a))) << "round " << show(a);
        ASSERT_TRUE(is_imm_value<T>(simplify(sqrt(imm(a))), (T)std::sqrt(a))) << "sqrt " << show(a);
        ASSERT_TRUE(is_imm_value<T>(simplify(fract(imm(a))), (T)(a - std::trunc(a)))) << "fract " << show(a);
        ASSERT_TRUE(is_imm_value<bool>(simplify(is_nan(imm(a))), std::isnan(a))) << "is_nan " << show(a);
        ASSERT_TRUE(is_imm_value<bool>(simplify(is_inf(imm(a))), std::isinf(a))) << "is_inf " << show(a);
        ASSERT_TRUE(is_imm_value<bool>(simplify(is_finite(imm(a))), std::isfinite(a))) << "is_finite " << show(a);
    }
}

TEST(OperatorFold, MathFunctions) {
    check_math<float>();
    check_math<double>();
    EXPECT_TRUE(is_imm_value<float>(simplify(round(Expr(2.5f))), 2.0f));
    EXPECT_TRUE(is_imm_value<float>(simplify(round(Expr(3.5f))), 4.0f));
    EXPECT_TRUE(is_imm_value<float>(simplify(round(Expr(-2.5f))), -2.0f));
    EXPECT_TRUE(is_imm_value<double>(simplify(round(Expr(0.5))), 0.0));
    // Integers are computed in Float(32).
    EXPECT_TRUE(is_imm_value<float>(simplify(sqrt(Expr(16))), 4.0f));
    EXPECT_TRUE(is_imm_value<float>(simplify(floor(Expr(uint8_t(7)))), 7.0f));
}

TEST(OperatorFold, MathCallNames) {
    Expr x32 = Variable::make(Float(32), "x"), x64 = Variable::make(Float(64), "y");
    Expr i = Variable::make(Int(32), "i");
    auto name = [](const Expr &e) {
        const Call *c = e.as<Call>();
        return c && c->call_type == Call::Extern ? c->name : std::string("<not an extern call>");
    };
    EXPECT_EQ(name(sqrt(x32)), "sqrtf");
    EXPECT_EQ(name(sqrt(x64)), "sqrt");
    EXPECT_EQ(name(sqrt(i)), "sqrtf");
    EXPECT_EQ(sqrt(i).type(), Float(32));
    EXPECT_EQ(name(floor(x32)), "floorf");
    EXPECT_EQ(name(ceil(x64)), "ceil");
    EXPECT_EQ(name(round(x32)), "nearbyintf");
    EXPECT_EQ(name(round(x64)), "nearbyint");
    EXPECT_EQ(name(trunc(x32)), "truncf");
    EXPECT_EQ(name(sin(x32)), "sinf");
    EXPECT_EQ(name(cos(x64)), "cos");
    EXPECT_EQ(name(tan(x32)), "tanf");
    EXPECT_EQ(name(asin(x32)), "asinf");
    EXPECT_EQ(name(acos(x32)), "acosf");
    EXPECT_EQ(name(atan(x32)), "atanf");
    EXPECT_EQ(name(atan2(x32, x32)), "atan2f");
    EXPECT_EQ(name(sinh(x32)), "sinhf");
    EXPECT_EQ(name(cosh(x32)), "coshf");
    EXPECT_EQ(name(tanh(x64)), "tanh");
    EXPECT_EQ(name(exp(x32)), "expf");
    EXPECT_EQ(name(log(x64)), "log");
    EXPECT_EQ(name(pow(x32, 2)), "powf");
    EXPECT_EQ(pow(x32, 2).type(), Float(32));
    EXPECT_EQ(pow(i, x64).type(), Float(32));
    const Call *l = likely(i).as<Call>();
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(l->name, "likely");
    EXPECT_EQ(l->call_type, Call::Intrinsic);
    EXPECT_EQ(l->type, Int(32));
}

// ---------------------------------------------------------------------------
// Type coercion

Expr var(Type t) {
    return Variable::make(t, "v");
}

TEST(OperatorTypes, Coercion) {
    // With C++ int literals: the Expr's type.
    EXPECT_EQ((var(UInt(8)) + 1).type(), UInt(8));
    EXPECT_EQ((1 + var(UInt(8))).type(), UInt(8));
    EXPECT_EQ((var(Int(16)) * 300).type(), Int(16));
    EXPECT_EQ((var(Float(64)) - 1).type(), Float(64));
    EXPECT_EQ((var(UInt(16)) < 5).type(), Bool());
    EXPECT_EQ(Halide::min(var(UInt(8)), 3).type(), UInt(8));
    // With C++ float literals: Float(32), then the usual rules.
    EXPECT_EQ((var(Int(32)) + 1.5f).type(), Float(32));
    EXPECT_EQ((var(Float(64)) * 0.5f).type(), Float(64));
    EXPECT_EQ((2.0f / var(UInt(8))).type(), Float(32));
    // Two Exprs.
    EXPECT_EQ((var(Int(32)) + var(Float(32))).type(), Float(32));
    EXPECT_EQ((var(Int(64)) + var(Float(32))).type(), Float(32));
    EXPECT_EQ((var(Float(32)) + var(Float(64))).type(), Float(64));
    EXPECT_EQ((var(UInt(8)) + var(UInt(16))).type(), UInt(16));
    EXPECT_EQ((var(Int(8)) + var(Int(32))).type(), Int(32));
    EXPECT_EQ((var(UInt(8)) + var(Int(8))).type(), Int(8));
    EXPECT_EQ((var(Int(8)) + var(UInt(16))).type(), Int(16));
    EXPECT_EQ((var(UInt(32)) + var(Int(16))).type(), Int(32));
    EXPECT_EQ((var(Bool()) + var(Int(32))).type(), Int(32));
    EXPECT_EQ((var(Bool()) + var(UInt(8))).type(), UInt(8));
    EXPECT_EQ((Expr(uint8_t(1)) + Expr(2)).type(), Int(32)); // an Expr(int) is not a literal
    // Compound assignment keeps the left type.
    Expr e = var(Int(32));
    e += 1.5f;
    EXPECT_EQ(e.type(), Int(32));
    Expr u = var(UInt(8));
    u *= var(Int(32));
    EXPECT_EQ(u.type(), UInt(8));
    // select: an int literal takes the other side's type.
    Expr c = var(Bool());
    EXPECT_EQ(select(c, var(UInt(8)), 0).type(), UInt(8));
    EXPECT_EQ(select(c, 1, var(Float(32))).type(), Float(32));
    EXPECT_EQ(select(c, 1, c, 2, var(Int(8))).type(), Int(8));
    // abs / absd are unsigned for integers.
    EXPECT_EQ(abs(var(Int(8))).type(), UInt(8));
    EXPECT_EQ(abs(var(UInt(16))).type(), UInt(16));
    EXPECT_EQ(abs(var(Float(32))).type(), Float(32));
    EXPECT_EQ(absd(var(Int(16)), var(Int(16))).type(), UInt(16));
    // Bitwise: the wider type; shifts keep the (widened) left type.
    EXPECT_EQ((var(UInt(8)) & var(UInt(16))).type(), UInt(16));
    EXPECT_EQ((var(Int(32)) | 7).type(), Int(32));
    EXPECT_EQ((var(UInt(8)) << 1).type(), UInt(8));
    EXPECT_EQ((var(Int(16)) >> var(UInt(16))).type(), Int(16));
    EXPECT_EQ((~var(UInt(32))).type(), UInt(32));
    // Casts to bool mean nonzero.
    EXPECT_EQ(cast<bool>(var(Int(32))).type(), Bool());
    EXPECT_TRUE(is_imm_value<bool>(cast<bool>(Expr(2)), false)); // the low bit, as upstream
    EXPECT_TRUE(is_imm_value<bool>(cast<bool>(Expr(3)), true));
    EXPECT_TRUE(is_imm_value<bool>(cast<bool>(Expr(0.0f)), false));
    // clamp casts its bounds.
    EXPECT_EQ(clamp(var(UInt(8)), 0, 255).type(), UInt(8));
    EXPECT_EQ(clamp(var(Float(32)), 0, 1).type(), Float(32));
    // lerp: integer results are rounded; unsigned weights are fractions of
    // their type's maximum; a float weight is first truncated to 8 bits
    // (255 * 0.5 -> 127), as upstream does.
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(lerp(Expr(uint8_t(0)), Expr(uint8_t(255)), 0.5f)), 127));
    EXPECT_TRUE(is_imm_value<uint8_t>(simplify(lerp(Expr(uint8_t(10)), Expr(uint8_t(20)), Expr(uint8_t(255)))), 20));
    EXPECT_TRUE(is_imm_value<float>(simplify(lerp(Expr(1.0f), Expr(3.0f), 0.25f)), 1.5f));
    EXPECT_EQ(lerp(var(Int(16)), var(Int(16)), var(Float(32))).type(), Int(16));
    // mux is a select chain.
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(mux(Expr(1), {10, 20, 30})), 20));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(mux(Expr(7), {10, 20, 30})), 30));
}

TEST(OperatorTypes, UserErrors) {
    Expr i = var(Int(32)), f = var(Float(32)), u8v = var(UInt(8)), b = var(Bool());
    EXPECT_THROW(u8v + 256, CompileError);
    EXPECT_THROW(u8v - (-1), CompileError);
    EXPECT_THROW(300 * u8v, CompileError);
    EXPECT_THROW(f + 16777217, CompileError);
    EXPECT_THROW(var(Int(8)) > 128, CompileError);
    EXPECT_THROW(i && b, CompileError);
    EXPECT_THROW(b || f, CompileError);
    EXPECT_THROW(!i, CompileError);
    EXPECT_THROW(i && true, CompileError);
    EXPECT_THROW(f & i, CompileError);
    EXPECT_THROW(f | 1, CompileError);
    EXPECT_THROW(~f, CompileError);
    EXPECT_THROW(f << 1, CompileError);
    EXPECT_THROW(i ^ var(UInt(32)), CompileError);
    EXPECT_THROW(select(i, i, i), CompileError);
    EXPECT_THROW(select(b, i, f), CompileError);
    EXPECT_THROW(is_nan(i), CompileError);
    EXPECT_THROW(clamp(u8v, -1, 10), CompileError);
    EXPECT_THROW(i + Expr(), CompileError);
    EXPECT_THROW(cast(Int(32), Variable::make(Handle(), "h")), CompileError);
    EXPECT_THROW(Variable::make(Handle(), "h") + 1, CompileError);
    try {
        (void)(i && b);
        FAIL() << "no error";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("boolean"), std::string::npos) << e.what();
    }
    try {
        (void)(!i);
        FAIL() << "no error";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("The argument to operator! must be a boolean"), std::string::npos)
            << e.what();
    }
    // Fine: fits the type exactly.
    EXPECT_NO_THROW(u8v + 255);
    EXPECT_NO_THROW(var(Int(8)) >= -128);
    EXPECT_NO_THROW(f + 16777216);
    EXPECT_NO_THROW(b && true);
}

TEST(OperatorTypes, LiteralsOnEitherSide) {
    // The literal is converted to the Expr's type, on either side.
    std::mt19937_64 rng = make_rng(77);
    for (int k = 0; k < kCases; k++) {
        int lit = (int)(rng() % 201) - 100;
        int32_t a = (int32_t)rng();
        int16_t a16 = (int16_t)rng();
        EXPECT_TRUE(is_imm_value<int32_t>(simplify(imm(a) - lit), ref_sub<int32_t>(a, lit)));
        EXPECT_TRUE(is_imm_value<int32_t>(simplify(lit - imm(a)), ref_sub<int32_t>(lit, a)));
        EXPECT_TRUE(is_imm_value<int16_t>(simplify(imm(a16) * lit), ref_mul<int16_t>(a16, (int16_t)lit)));
        EXPECT_TRUE(is_imm_value<int16_t>(simplify(lit / imm(a16)), ref_div<int16_t>((int16_t)lit, a16)));
        EXPECT_TRUE(is_imm_value<int16_t>(simplify(imm(a16) % lit), ref_mod<int16_t>(a16, (int16_t)lit)));
        EXPECT_TRUE(is_imm_value<bool>(simplify(lit <= imm(a16)), lit <= a16));
        float fa = (float)(int16_t)rng() / 8.0f;
        EXPECT_TRUE(is_imm_value<float>(simplify(imm(fa) + lit), fa + (float)lit));
        EXPECT_TRUE(is_imm_value<float>(simplify(lit * imm(fa)), (float)lit * fa));
        EXPECT_TRUE(is_imm_value<float>(simplify(imm(fa) + 0.25f), fa + 0.25f));
        EXPECT_TRUE(is_imm_value<float>(simplify(Expr(a16) + 0.5f), (float)a16 + 0.5f));
    }
}

// ---------------------------------------------------------------------------
// Simplifier rules

TEST(Simplify, Algebra) {
    Expr x = Variable::make(Int(32), "x"), y = Variable::make(Int(32), "y");
    Expr fx = Variable::make(Float(32), "fx");
    auto same = [](const Expr &a, const Expr &b) { return equal(a, b); };
    EXPECT_TRUE(same(simplify(x + 0), x));
    EXPECT_TRUE(same(simplify(0 + x), x));
    EXPECT_TRUE(same(simplify(x * 1), x));
    EXPECT_TRUE(same(simplify(fx * 1.0f), fx));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(x * 0), 0));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(x - x), 0));
    EXPECT_FALSE(is_const(simplify(fx - fx))); // NaN - NaN is not 0
    EXPECT_FALSE(is_const(simplify(fx * 0.0f)));
    EXPECT_FALSE(is_const(simplify(fx != fx))); // is_nan
    EXPECT_TRUE(same(simplify((x + 3) + 4), x + 7));
    EXPECT_TRUE(same(simplify((x + 3) - 4), x + (-1)));
    EXPECT_TRUE(same(simplify(3 + x), x + 3));
    EXPECT_TRUE(same(simplify((x + y) - x), y));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify((x + 5) - (x + 2)), 3));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify((x + 2147483647) + 1 - x), -2147483647 - 1)); // wraps
    EXPECT_TRUE(same(simplify(Halide::min(x, x)), x));
    EXPECT_TRUE(same(simplify(Halide::max(x, 7) + 0), Halide::max(x, 7)));
    EXPECT_TRUE(same(simplify(Halide::min(Halide::min(x, 5), 3)), Halide::min(x, 3)));
    EXPECT_TRUE(same(simplify(select(Expr(1) < 2, x, y)), x));
    EXPECT_TRUE(same(simplify(select(Expr(1) > 2, x, y)), y));
    EXPECT_TRUE(same(simplify(x / 1), x));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(x / 0), 0));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(x % 0), 0));
    EXPECT_TRUE(is_imm_value<int32_t>(simplify(x % 1), 0));
    EXPECT_TRUE(is_imm_value<bool>(simplify(x == x), true));
    EXPECT_TRUE(is_imm_value<bool>(simplify(x < x), false));
    // Lets of constants and variables are substituted.
    Expr let = Let::make("a", Expr(4), Let::make("b", x, Variable::make(Int(32), "a") + Variable::make(Int(32), "b")));
    EXPECT_TRUE(same(simplify(let), x + 4));
    // A variable is not substituted where an inner binding of its name would
    // capture it.
    Expr inner = Let::make("x", y * y, Variable::make(Int(32), "b") + Variable::make(Int(32), "x"));
    Expr outer = Let::make("b", x, inner);
    EXPECT_TRUE(same(simplify(outer), outer));
    Expr shadow = Let::make("b", Expr(1), Let::make("b", x * 2, Variable::make(Int(32), "b") + 0));
    EXPECT_TRUE(same(simplify(shadow), Let::make("b", x * 2, Variable::make(Int(32), "b"))));
    EXPECT_TRUE(can_prove(Expr(3) < 4));
    EXPECT_TRUE(can_prove(x + 1 > x + 0 || Expr(true)));
    EXPECT_FALSE(can_prove(x < 4));
}

TEST(Simplify, Statements) {
    Expr x = Variable::make(Int(32), "x");
    Stmt body = Evaluate::make(x);
    Stmt empty_loop = For::make("i", 0, Expr(5) - 5, ForType::Serial, body);
    EXPECT_TRUE(is_no_op(simplify(empty_loop)));
    Stmt negative = For::make("i", 0, -3, ForType::Serial, body);
    EXPECT_TRUE(is_no_op(simplify(negative)));
    Stmt loop = For::make("i", 0, Expr(2) + 3, ForType::Serial, body);
    const For *f = simplify(loop).as<For>();
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(is_imm_value<int32_t>(f->extent, 5));
    Stmt branch = IfThenElse::make(Expr(1) == 1, Evaluate::make(x + 0), Evaluate::make(x * 2));
    const Evaluate *ev = simplify(branch).as<Evaluate>();
    ASSERT_NE(ev, nullptr);
    EXPECT_TRUE(equal(ev->value, x));
    Stmt let = LetStmt::make("t", Expr(6), Evaluate::make(Variable::make(Int(32), "t") * 7));
    const Evaluate *ev2 = simplify(let).as<Evaluate>();
    ASSERT_NE(ev2, nullptr);
    EXPECT_TRUE(is_imm_value<int32_t>(ev2->value, 42));
}

} // namespace
