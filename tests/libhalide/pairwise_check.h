// Shared by the tests of IROperator.h's integer helpers: edge values of a
// type, and a check that JIT-compiles an expression of two inputs (scalar
// and vectorized) over every pair of given values and compares each result
// with a plain C++ reference.
#ifndef HALIDE_TESTS_PAIRWISE_CHECK_H
#define HALIDE_TESTS_PAIRWISE_CHECK_H

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "Halide.h"

// min, max, zero, one, minus one, their neighbours, halves, and a few random
// values (fixed seed).
template <typename T> std::vector<T> edge_values() {
    using L = std::numeric_limits<T>;
    std::vector<T> v = {L::min(),          (T)(L::min() + 1),     (T)(L::min() / 2), 0,       1, 2,
                        (T)(L::max() / 2), (T)(L::max() / 2 + 1), (T)(L::max() - 1), L::max()};
    if constexpr (std::is_signed_v<T>) {
        v.push_back((T)-1);
        v.push_back((T)-2);
    }
    std::mt19937_64 rng(sizeof(T) * 31 + std::is_signed_v<T>);
    for (int i = 0; i < 6; i++) {
        v.push_back((T)rng());
    }
    return v;
}

// Every integer in [lo, hi] as a T.
template <typename T> std::vector<T> value_range(int lo, int hi) {
    std::vector<T> v;
    for (int i = lo; i <= hi; i++) {
        v.push_back((T)i);
    }
    return v;
}

// f(x) = build(a(x), b(x)) for every (a, b) in as x bs, with 1, 8 and 16
// lanes, against ref(a, b); ref's return type is the expected result type.
template <typename A, typename B, typename Build, typename Ref>
void check_pairs(const std::string &what, const std::vector<A> &as, const std::vector<B> &bs, Build build, Ref ref) {
    using namespace Halide;
    using R = decltype(ref(as[0], bs[0]));
    int n = (int)(as.size() * bs.size());
    Buffer<A> av(n);
    Buffer<B> bv(n);
    for (size_t i = 0; i < as.size(); i++) {
        for (size_t j = 0; j < bs.size(); j++) {
            av((int)(i * bs.size() + j)) = as[i];
            bv((int)(i * bs.size() + j)) = bs[j];
        }
    }
    ImageParam a(type_of<A>(), 1), b(type_of<B>(), 1);
    a.set(av);
    b.set(bv);
    Var x;
    Expr e = build(Expr(a(x)), Expr(b(x)));
    ASSERT_EQ(e.type(), type_of<R>()) << what << ": " << e;
    for (int lanes : {1, 8, 16}) {
        SCOPED_TRACE(what + " with " + std::to_string(lanes) + " lanes");
        Func f;
        f(x) = e;
        if (lanes > 1) {
            f.vectorize(x, lanes);
            ASSERT_NE(f.lowered_stmt().find("ramp("), std::string::npos) << what << ": not vectorized";
        }
        Buffer<R> out = f.realize({n});
        for (int i = 0; i < n; i++) {
            R expected = ref(av(i), bv(i));
            ASSERT_EQ(+out(i), +expected) << what << " of " << +av(i) << " and " << +bv(i);
        }
    }
}

// The same for one input.
template <typename A, typename Build, typename Ref>
void check_values(const std::string &what, const std::vector<A> &as, Build build, Ref ref) {
    check_pairs(
        what, as, std::vector<uint8_t>{0}, [&](const Halide::Expr &p, const Halide::Expr &) { return build(p); },
        [&](A p, uint8_t) { return ref(p); });
}

#endif
