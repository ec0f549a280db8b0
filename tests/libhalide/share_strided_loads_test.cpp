// Strided loads at neighbouring offsets as slices of one dense load
// (lower/ShareStridedLoads.cpp): the pass on hand-built statements (what is
// clustered, what is left alone), then a vectorized 2x downsample, whose
// four stride-2 reads per row share two dense loads, against plain C++.
#include <gtest/gtest.h>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// f[ramp(b + c, s, 8)] (b alone when c is 0).
Expr strided(const std::string &f, int c, int s = 2, const std::string &b = "b") {
    Expr base = c == 0 ? var(b) : Add::make(var(b), i32(c));
    return Load::make(Float(32, 8), f, Ramp::make(base, i32(s), 8));
}

Expr sum(const std::vector<Expr> &terms) {
    Expr e = terms[0];
    for (size_t i = 1; i < terms.size(); i++) {
        e = Add::make(e, terms[i]);
    }
    return e;
}

Stmt store(const Expr &value) {
    return Store::make("out", value, Ramp::make(var("x"), i32(1), 8));
}

} // namespace

TEST(ShareStridedLoads, DownsampleTapsShareTwoDenseLoads) {
    // out[x..] = f[ramp(b - 1, 2, 8)] + f[ramp(b, 2, 8)] + f[ramp(b + 1, 2, 8)] + f[ramp(b + 2, 2, 8)]
    Stmt before = store(sum({strided("f", -1), strided("f", 0), strided("f", 1), strided("f", 2)}));
    std::string text = printed(share_strided_loads(before));
    // Two dense loads of 16 lanes, from b - 1 and from b + 1, each bound
    // around the store; the four taps are their even and odd lanes.
    EXPECT_EQ(count(text, "f["), 2) << text;
    EXPECT_EQ(count(text, "let out.strided$0 = f[ramp((b + -1), 1, 16)]"), 1) << text;
    EXPECT_EQ(count(text, "let out.strided$1 = f[ramp((b + 1), 1, 16)]"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.strided$0, 0, 2, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.strided$0, 1, 2, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.strided$1, 0, 2, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.strided$1, 1, 2, 8)"), 1) << text;
    EXPECT_NE(text.find("out[ramp(x, 1, 8)]"), std::string::npos) << text;
}

TEST(ShareStridedLoads, StrideThreeNeedsTheWholeSpan) {
    // Offsets 0, 1, 2 of stride 3 read exactly ramp(b, 1, 24) together.
    std::string all =
        printed(share_strided_loads(store(sum({strided("f", 0, 3), strided("f", 1, 3), strided("f", 2, 3)}))));
    EXPECT_EQ(count(all, "f[ramp(b, 1, 24)]"), 1) << all;
    EXPECT_EQ(count(all, "slice_vector(out.strided$0, 2, 3, 8)"), 1) << all;
    // Offsets 0 and 1 only: a dense load would read past what they read.
    Stmt gap = store(Add::make(strided("f", 0, 3), strided("f", 1, 3)));
    EXPECT_TRUE(share_strided_loads(gap).same_as(gap)) << printed(share_strided_loads(gap));
}

TEST(ShareStridedLoads, LoadsThatCannotShareAreLeftAlone) {
    // One load, offsets a stride apart, other buffers, other bases.
    for (Stmt s : {store(strided("f", 0)), store(Add::make(strided("f", 0), strided("f", 2))),
                   store(Add::make(strided("f", 0), strided("g", 1))),
                   store(Add::make(strided("f", 0), strided("f", 1, 2, "c")))}) {
        EXPECT_TRUE(share_strided_loads(s).same_as(s)) << printed(share_strided_loads(s));
    }
    // Under masked_load (the masked lanes may be out of bounds).
    Expr mask = LT::make(Ramp::make(var("x"), i32(1), 8), Broadcast::make(i32(5), 8));
    Expr m0 = Call::make(Float(32, 8), "masked_load", {strided("f", 0), mask}, Call::Intrinsic);
    Expr m1 = Call::make(Float(32, 8), "masked_load", {strided("f", 1), mask}, Call::Intrinsic);
    Stmt masked = store(Add::make(m0, m1));
    EXPECT_TRUE(share_strided_loads(masked).same_as(masked)) << printed(share_strided_loads(masked));
    // Inside an Atomic block.
    Stmt atomic = Atomic::make("out", store(Add::make(strided("f", 0), strided("f", 1))));
    EXPECT_TRUE(share_strided_loads(atomic).same_as(atomic)) << printed(share_strided_loads(atomic));
    // At a base bound by a Let inside the value.
    Expr in_let =
        Let::make("c", Add::make(var("b"), i32(3)), Add::make(strided("f", 0, 2, "c"), strided("f", 1, 2, "c")));
    Stmt let = store(in_let);
    EXPECT_TRUE(share_strided_loads(let).same_as(let)) << printed(share_strided_loads(let));
}

TEST(ShareStridedLoads, VectorizedDownsampleMatchesPlainCpp) {
    // [1 3 3 1] / 8 along x with decimation by 2, vectorized: the taps at
    // 2x - 1, 2x, 2x + 1 and 2x + 2 of an internal and of an input buffer.
    const int w = 67, h = 5;
    Buffer<float> input(2 * w + 4, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < input.width(); x++) {
            input(x, y) = (float)((x * 37 + y * 11) % 29) - 9.0f;
        }
    }
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func shifted("shifted"), down("down"), twice("twice");
    shifted(x, y) = in(x + 1, y) * 2.0f;
    auto taps = [&](Func f) {
        return (f(2 * x - 1, y) + 3.0f * (f(2 * x, y) + f(2 * x + 1, y)) + f(2 * x + 2, y)) / 8.0f;
    };
    down(x, y) = taps(shifted);
    twice(x, y) = down(x, y) + (in(2 * x + 1, y) + in(2 * x + 2, y));
    shifted.compute_root();
    down.compute_root().vectorize(x, 8);
    twice.vectorize(x, 8);
    std::string text = lowered(twice, {in}, "share_strided_loads_pipeline");
    EXPECT_NE(text.find("slice_vector(down.strided$"), std::string::npos) << text;
    EXPECT_NE(text.find("slice_vector(twice.strided$"), std::string::npos) << text;
    Buffer<float> result = twice.realize({w, h});
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            auto sh = [&](int px) { return input(px + 1, yy) * 2.0f; };
            float d = (sh(2 * xx - 1) + 3.0f * (sh(2 * xx) + sh(2 * xx + 1)) + sh(2 * xx + 2)) / 8.0f;
            float want = d + (input(2 * xx + 1, yy) + input(2 * xx + 2, yy));
            EXPECT_EQ(result(xx, yy), want) << xx << ", " << yy;
        }
    }
}
