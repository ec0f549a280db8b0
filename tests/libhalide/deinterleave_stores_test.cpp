// Interleaved slices of vector stores (lower/DeinterleaveStores.cpp): the
// pass on hand-built vector statements, then vectorized pipelines that
// pick by x % m and read at x / m, against plain C++ references (odd and
// even output origins, widths that leave a tail, strides 2 and 3).
#include <gtest/gtest.h>

#include <functional>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {} // namespace

TEST(DeinterleaveStores, SelectOnParityBecomesTwoSlicesWithScalarConditions) {
    // out[ramp(x, 1, 8)] = select(ramp(x, 1, 8) % 2 == 0, a[ramp(x, 1, 8) / 2], b[(ramp(x, 1, 8) / 2) * 2 + 1])
    Expr x8 = lanes_of("x", 8);
    Expr half = Div::make(x8, bcast(2, 8));
    Expr even = EQ::make(Mod::make(x8, bcast(2, 8)), bcast(0, 8));
    Expr value =
        Select::make(even, Load::make(Int(32).with_lanes(8), "a", half),
                     Load::make(Int(32).with_lanes(8), "b", Add::make(Mul::make(half, bcast(2, 8)), bcast(1, 8))));
    Stmt before = Store::make("out", value, x8);
    std::string text = printed(deinterleave_stores(before));
    // Before: per-lane selects and gathers at ramp / 2. After: one interleave
    // of two 4-lane slices; each selects on a scalar and reads a dense
    // (a) or stride-2 (b) ramp.
    EXPECT_EQ(count(text, "interleave_vectors("), 1) << text;
    EXPECT_EQ(count(text, "x8("), 0) << text;
    EXPECT_EQ(count(text, "%"), 2) << text; // (x % 2) and ((x + 1) % 2), both scalar
    EXPECT_NE(text.find("a[ramp((x / 2), 1, 4)]"), std::string::npos) << text;
    EXPECT_NE(text.find("a[ramp(((x + 1) / 2), 1, 4)]"), std::string::npos) << text;
    EXPECT_NE(text.find("b[ramp((((x / 2) * 2) + 1), 2, 4)]"), std::string::npos) << text;
}

TEST(DeinterleaveStores, StoresWithoutDivisionsOfLanesAreLeftAlone) {
    Expr x8 = lanes_of("x", 8);
    Stmt plain = Store::make("out", Add::make(Load::make(Int(32).with_lanes(8), "a", x8), bcast(3, 8)), x8);
    EXPECT_TRUE(deinterleave_stores(plain).same_as(plain)) << printed(deinterleave_stores(plain));
    // A division of a broadcast is the same in every lane: nothing to gain.
    Expr y8 = Broadcast::make(var("y"), 8);
    Stmt uniform = Store::make("out", Load::make(Int(32).with_lanes(8), "a", x8 + Div::make(y8, bcast(2, 8))), x8);
    EXPECT_TRUE(deinterleave_stores(uniform).same_as(uniform)) << printed(deinterleave_stores(uniform));
}

TEST(DeinterleaveStores, UnmodelledPartsLeaveTheStoreAlone) {
    Expr x8 = lanes_of("x", 8);
    Expr half = Div::make(x8, bcast(2, 8));
    // A vector bound by an enclosing LetStmt: its slices are not known here.
    Expr v = Variable::make(Int(32).with_lanes(8), "v");
    Stmt s =
        LetStmt::make("v", x8 * bcast(3, 8), Store::make("out", Load::make(Int(32).with_lanes(8), "a", half) + v, x8));
    EXPECT_TRUE(deinterleave_stores(s).same_as(s)) << printed(deinterleave_stores(s));
    // A masked load (a predicated tail).
    Expr masked =
        Call::make(Int(32).with_lanes(8), "masked_load",
                   {Load::make(Int(32).with_lanes(8), "a", half), LT::make(x8, bcast(5, 8))}, Call::Intrinsic);
    Stmt m = Store::make("out", masked, x8);
    EXPECT_TRUE(deinterleave_stores(m).same_as(m)) << printed(deinterleave_stores(m));
}

TEST(DeinterleaveStores, LetsInsideTheValueAreSliced) {
    Expr x8 = lanes_of("x", 8);
    Expr h = Variable::make(Int(32).with_lanes(8), "h");
    Expr value = Let::make("h", Div::make(x8, bcast(2, 8)), Load::make(Int(32).with_lanes(8), "a", h + bcast(1, 8)));
    std::string text = printed(deinterleave_stores(Store::make("out", value, x8)));
    EXPECT_EQ(count(text, "interleave_vectors("), 1) << text;
    EXPECT_EQ(count(text, "h.slice0of2"), 2) << text;
    EXPECT_EQ(count(text, "h.slice1of2"), 2) << text;
}

// ----- pipelines against plain C++ -----

namespace {

Buffer<int32_t> shifted(int w, int h, int x0, int y0) {
    Buffer<int32_t> out(w, h);
    out->set_min(x0, y0);
    return out;
}

} // namespace

TEST(DeinterleaveStores, BayerLikePickAndHalfResolutionReads) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(im);
    Func f("f");
    Expr qx = x / 2, qy = y / 2;
    f(x, y) = select(y % 2 == 0, select(x % 2 == 0, c(2 * qx, 2 * qy), c(2 * qx + 1, 2 * qy) * 3),
                     select(x % 2 == 0, c(qx, qy) - c(qx + 1, qy), c(2 * qx - 1, 2 * qy + 1)));
    f.vectorize(x, 16);
    EXPECT_NE(lowered(f, {im}, "bayer_like").find("interleave_vectors"), std::string::npos);
    Buffer<int32_t> in = ramp_input(90, 40);
    im.set(in);
    auto at = [&](int i, int j) { return in(clampi(i, 0, 89), clampi(j, 0, 39)); };
    auto fl = [](int a) { return a >= 0 ? a / 2 : -((-a + 1) / 2); };
    auto ref = [&](int i, int j) {
        int qi = fl(i), qj = fl(j);
        bool ex = i - 2 * qi == 0, ey = j - 2 * qj == 0;
        return ey ? (ex ? at(2 * qi, 2 * qj) : at(2 * qi + 1, 2 * qj) * 3)
                  : (ex ? at(qi, qj) - at(qi + 1, qj) : at(2 * qi - 1, 2 * qj + 1));
    };
    for (auto [w, x0] : {std::pair{80, 0}, std::pair{80, 1}, std::pair{37, -3}, std::pair{16, 5}, std::pair{99, 2}}) {
        Buffer<int32_t> out = shifted(w, 7, x0, -1);
        f.realize(out);
        for (int j = -1; j < 6; j++) {
            for (int i = x0; i < x0 + w; i++) {
                ASSERT_EQ(out(i, j), ref(i, j)) << i << ", " << j << " (origin " << x0 << ")";
            }
        }
    }
}

TEST(DeinterleaveStores, ModulusThreeAndUpsampling) {
    ImageParam im(UInt(16), 1, "im");
    Var x("x");
    Func f("f"), g("g");
    // Three interleaved channels out of one plane; a 2x nearest upsample.
    f(x) = cast<uint16_t>(select(x % 3 == 0, im(x / 3), select(x % 3 == 1, im(x / 3 + 1) / 2, im(x / 3 + 2) + 7)));
    g(x) = im(x / 2) + im(x / 2 + 1);
    f.vectorize(x, 12);
    g.vectorize(x, 16);
    EXPECT_NE(lowered(f, {im}, "mod3").find("interleave_vectors"), std::string::npos);
    EXPECT_NE(lowered(g, {im}, "upsample").find("interleave_vectors"), std::string::npos);
    Buffer<uint16_t> in(200);
    for (int i = 0; i < 200; i++) {
        in(i) = (uint16_t)(i * 7919 % 65521);
    }
    im.set(in);
    for (int w : {16, 60, 59, 100}) {
        Buffer<uint16_t> out = f.realize({w});
        for (int i = 0; i < w; i++) {
            int q = i / 3;
            uint16_t want = i % 3 == 0 ? in(q) : i % 3 == 1 ? in(q + 1) / 2 : (uint16_t)(in(q + 2) + 7);
            ASSERT_EQ(out(i), want) << i;
        }
        Buffer<uint16_t> up = g.realize({w});
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(up(i), (uint16_t)(in(i / 2) + in(i / 2 + 1))) << i;
        }
    }
}
