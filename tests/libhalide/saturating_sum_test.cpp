// saturating_sum: the sum with saturating_add over the RDom, compared with
// the same saturating loop in plain C++; values observed from upstream
// Halide 21 for the same pipelines are quoted where they are surprising.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "Halide.h"

using namespace Halide;

namespace {

template <typename T> T saturating_add_ref(T a, T b) {
    int64_t s = (int64_t)a + (int64_t)b;
    return (T)std::clamp<int64_t>(s, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
}

TEST(SaturatingSum, Uint8StopsAtItsMaximum) {
    Var x("x");
    RDom r(0, 10);
    Func f("f");
    f(x) = saturating_sum(cast<uint8_t>(x * 20 + r));
    Buffer<uint8_t> b = f.realize({4});
    for (int i = 0; i < 4; i++) {
        uint8_t s = 0;
        for (int k = 0; k < 10; k++) {
            s = saturating_add_ref<uint8_t>(s, (uint8_t)(i * 20 + k));
        }
        EXPECT_EQ(b(i), s) << i; // upstream 21: 45 245 255 255
    }
}

TEST(SaturatingSum, Int8BothWaysAndExplicitRDom) {
    Var x("x");
    RDom r(0, 10);
    Func f("f"), g("g");
    f(x) = saturating_sum(cast<int8_t>(x * 7 - 20 - r * 10));
    g(x) = saturating_sum(r, cast<int8_t>(x * 3 + r));
    Buffer<int8_t> bf = f.realize({20}), bg = g.realize({20});
    for (int i = 0; i < 20; i++) {
        int8_t sf = 0, sg = 0;
        for (int k = 0; k < 10; k++) {
            sf = saturating_add_ref<int8_t>(sf, (int8_t)(i * 7 - 20 - k * 10));
            sg = saturating_add_ref<int8_t>(sg, (int8_t)(i * 3 + k));
        }
        EXPECT_EQ(bf(i), sf) << i;
        EXPECT_EQ(bg(i), sg) << i;
    }
}

TEST(SaturatingSum, AnExplicitRDomNotUsedRunsOnce) {
    // Upstream 21: saturating_sum(r, int8(x)) over 10 points is x (3 at 3).
    Var x("x");
    RDom r(0, 10);
    Func h("h");
    h(x) = saturating_sum(r, cast<int8_t>(x));
    Buffer<int8_t> b = h.realize({20});
    EXPECT_EQ(b(3), 3);
    EXPECT_EQ(b(19), 19);
}

} // namespace
