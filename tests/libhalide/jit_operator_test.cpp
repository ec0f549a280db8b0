// Every arithmetic and comparison operator, for every type, JIT-compiled
// and compared element by element with a scalar reference written here
// from the language's definition (wrap-around, Euclidean division and
// modulo, x / 0 == 0, x % 0 == 0).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>

#include "Halide.h"

using namespace Halide;

namespace {

constexpr int N = 512;

template <typename T> using Unsigned = std::make_unsigned_t<T>;

template <typename T> T wrap_add(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a + b;
    } else {
        return (T)(Unsigned<T>)((Unsigned<T>)a + (Unsigned<T>)b);
    }
}

template <typename T> T wrap_sub(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a - b;
    } else {
        return (T)(Unsigned<T>)((Unsigned<T>)a - (Unsigned<T>)b);
    }
}

template <typename T> T wrap_mul(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a * b;
    } else {
        // Promote to avoid int promotion surprises for narrow types.
        using U = std::conditional_t<(sizeof(T) < 4), uint32_t, Unsigned<T>>;
        return (T)(Unsigned<T>)((U)(Unsigned<T>)a * (U)(Unsigned<T>)b);
    }
}

// Euclidean division: the quotient that leaves a non-negative remainder
// (rounding down for a positive divisor, up for a negative one).
template <typename T> T euclid_div(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        return a / b;
    } else {
        if (b == 0) {
            return 0;
        }
        if constexpr (std::is_signed_v<T>) {
            if (a == std::numeric_limits<T>::min() && b == -1) {
                return a; // wraps
            }
            T q = a / b, r = a % b;
            if (r < 0) {
                q = b > 0 ? q - 1 : q + 1;
            }
            return q;
        } else {
            return a / b;
        }
    }
}

template <typename T> T euclid_mod(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
        // One rounding: the multiply-subtract is fused where the CPU has FMA,
        // as in upstream 21's code (796.3996f % -366.75345f is -303.86075f
        // there, -303.86078f with two roundings).
        return std::fma(-b, std::floor(a / b), a);
    } else {
        if (b == 0) {
            return 0;
        }
        if constexpr (std::is_signed_v<T>) {
            if (b == -1) {
                return 0;
            }
            T r = a % b;
            if (r < 0) {
                r = (b < 0) ? r - b : r + b;
            }
            return r;
        } else {
            return a % b;
        }
    }
}

template <typename T> Runtime::Buffer<T> random_values(std::mt19937_64 &rng, bool avoid_zero) {
    Runtime::Buffer<T> buf(N);
    const T specials[] = {T(0), T(1), std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest(), T(2), T(7)};
    for (int i = 0; i < N; i++) {
        T v;
        if (i < 24) {
            v = specials[i % 6];
            if constexpr (std::is_signed_v<T> && !std::is_floating_point_v<T>) {
                if (i % 5 == 0) {
                    v = T(-1);
                }
            }
        } else if constexpr (std::is_floating_point_v<T>) {
            v = (T)std::uniform_real_distribution<double>(-1000, 1000)(rng);
        } else {
            v = (T)rng();
            if (i % 3 == 0) {
                v = (T)(v % 17);
            }
        }
        if (avoid_zero && v == T(0)) {
            v = T(3);
        }
        buf(i) = v;
    }
    return buf;
}

template <typename T> void check_type() {
    std::mt19937_64 rng(12345 + sizeof(T) * 7 + std::is_signed_v<T> * 3 + std::is_floating_point_v<T>);
    Runtime::Buffer<T> av = random_values<T>(rng, false);
    Runtime::Buffer<T> bv = random_values<T>(rng, std::is_floating_point_v<T>);
    ImageParam a(type_of<T>(), 1), b(type_of<T>(), 1);
    a.set(Buffer<T>(av));
    b.set(Buffer<T>(bv));
    Var x;

    auto check_output = [&](const char *what, const Buffer<> &out, auto reference) {
        for (int i = 0; i < out.width(); i++) {
            auto expected = reference(av(i), bv(i));
            using R = decltype(expected);
            R got = Buffer<R>(out)(i);
            if constexpr (std::is_floating_point_v<R>) {
                if (std::isnan(expected)) {
                    EXPECT_TRUE(std::isnan(got)) << what << " " << av(i) << ", " << bv(i);
                    continue;
                }
            }
            ASSERT_EQ(got, expected) << what << " of " << +av(i) << " and " << +bv(i) << " (type "
                                     << type_to_string(type_of<T>()) << ")";
        }
    };
    // Each operator runs as scalar code and as vector code (8 and 16 lanes;
    // N - 3 is no multiple of either, so the last vector is shifted inwards).
    auto run = [&](const char *what, Expr e, auto reference) {
        for (int lanes : {1, 8, 16}) {
            SCOPED_TRACE(std::string(what) + " with " + std::to_string(lanes) + " lanes");
            Func f;
            f(x) = e;
            if (lanes > 1) {
                f.vectorize(x, lanes);
                ASSERT_NE(f.lowered_stmt().find("ramp("), std::string::npos) << "not vectorized";
            }
            check_output(what, f.realize({N - 3}), reference);
        }
    };

    run("+", a(x) + b(x), [](T p, T q) { return wrap_add(p, q); });
    run("-", a(x) - b(x), [](T p, T q) { return wrap_sub(p, q); });
    run("*", a(x) * b(x), [](T p, T q) { return wrap_mul(p, q); });
    run("/", a(x) / b(x), [](T p, T q) { return euclid_div(p, q); });
    run("%", a(x) % b(x), [](T p, T q) { return euclid_mod(p, q); });
    run("min", min(a(x), b(x)), [](T p, T q) { return std::min(p, q); });
    run("max", max(a(x), b(x)), [](T p, T q) { return std::max(p, q); });
    run("<", select(a(x) < b(x), 1, 0), [](T p, T q) { return (int32_t)(p < q); });
    run("<=", select(a(x) <= b(x), 1, 0), [](T p, T q) { return (int32_t)(p <= q); });
    run("==", select(a(x) == b(x), 1, 0), [](T p, T q) { return (int32_t)(p == q); });
    run("!=", select(a(x) != b(x), 1, 0), [](T p, T q) { return (int32_t)(p != q); });
    run(">", select(a(x) > b(x), 1, 0), [](T p, T q) { return (int32_t)(p > q); });
    run(">=", select(a(x) >= b(x), 1, 0), [](T p, T q) { return (int32_t)(p >= q); });
    run("select", select(a(x) < b(x), a(x), b(x)), [](T p, T q) { return p < q ? p : q; });
}

} // namespace

TEST(JITOperators, Int8) {
    check_type<int8_t>();
}
TEST(JITOperators, Int16) {
    check_type<int16_t>();
}
TEST(JITOperators, Int32) {
    check_type<int32_t>();
}
TEST(JITOperators, Int64) {
    check_type<int64_t>();
}
TEST(JITOperators, UInt8) {
    check_type<uint8_t>();
}
TEST(JITOperators, UInt16) {
    check_type<uint16_t>();
}
TEST(JITOperators, UInt32) {
    check_type<uint32_t>();
}
TEST(JITOperators, UInt64) {
    check_type<uint64_t>();
}
TEST(JITOperators, Float32) {
    check_type<float>();
}
TEST(JITOperators, Float64) {
    check_type<double>();
}

TEST(JITOperators, MathFunctions) {
    ImageParam in(Float(32), 1);
    Runtime::Buffer<float> v(64);
    for (int i = 0; i < 64; i++) {
        v(i) = 0.125f + (float)i * 0.37f;
    }
    in.set(Buffer<float>(v));
    Var x;
    for (int lanes : {1, 8}) {
        SCOPED_TRACE(std::to_string(lanes) + " lanes");
        Func f;
        f(x) = sqrt(in(x)) + sin(in(x)) * cos(in(x)) + exp(in(x)*0.01f) + log(in(x)) + floor(in(x)) + pow(in(x), 0.5f) +
               ceil(in(x)*3.0f) + round(in(x)*2.0f) + trunc(-in(x)) + atan2(in(x), 3.0f);
        if (lanes > 1) {
            f.vectorize(x, lanes);
            ASSERT_NE(f.lowered_stmt().find("ramp("), std::string::npos) << "not vectorized";
        }
        Buffer<float> out = f.realize({64});
        for (int i = 0; i < 64; i++) {
            float p = v(i);
            float expected = std::sqrt(p) + std::sin(p) * std::cos(p) + std::exp(p * 0.01f) + std::log(p) +
                             std::floor(p) + std::pow(p, 0.5f) + std::ceil(p * 3.0f) + std::nearbyint(p * 2.0f) +
                             std::trunc(-p) + std::atan2(p, 3.0f);
            EXPECT_NEAR(out(i), expected, 1e-4f * std::max(1.0f, std::fabs(expected))) << i;
        }
    }
}
