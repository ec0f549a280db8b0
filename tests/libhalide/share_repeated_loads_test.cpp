// One load for a vector value a store reads several times
// (lower/ShareRepeatedLoads.cpp): the pass on hand-built statements (what
// is shared, what is left alone), then a vectorized pipeline that reads an
// inlined clamped input value many times, against a plain C++ reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// in[max(min(ramp(x, 1, 8), x8(w)), x8(0))]: a clamped read of the input.
Expr clamped_read(Type t = Float(32, 8)) {
    Expr index = Max::make(Min::make(lanes_of("x", 8), Broadcast::make(var("w"), 8)), bcast(0, 8));
    return Load::make(t, "in", index);
}

} // namespace

TEST(ShareRepeatedLoads, RepeatedVectorLoadIsReadOnceBeforeTheStore) {
    // out[ramp(x, 1, 8)] = in[clamped] * in[clamped] + in[clamped]
    Expr a = clamped_read();
    Stmt before = Store::make("out", Add::make(Mul::make(a, a), a), lanes_of("x", 8));
    std::string was = printed(before), text = printed(share_repeated_loads(before));
    EXPECT_EQ(count(was, "in["), 3) << was;
    // After: one load, bound by a LetStmt around the store; the store's
    // index is unchanged.
    EXPECT_EQ(count(text, "in["), 1) << text;
    EXPECT_EQ(count(text, "let out.loaded$0 = in["), 1) << text;
    EXPECT_EQ(count(text, "out.loaded$0"), 4) << text;
    EXPECT_NE(text.find("out[ramp(x, 1, 8)]"), std::string::npos) << text;
}

TEST(ShareRepeatedLoads, GathersAtARepeatedIndexShareItsLoadToo) {
    // out[...] = g[int32(in[clamped])] + g[int32(in[clamped]) + x8(1)] + g[int32(in[clamped])]
    Expr in = clamped_read();
    Expr bin = Cast::make(Int(32, 8), in);
    Expr g0 = Load::make(Float(32, 8), "g", bin), g1 = Load::make(Float(32, 8), "g", Add::make(bin, bcast(1, 8)));
    Stmt before = Store::make("out", Add::make(Add::make(g0, g1), g0), lanes_of("x", 8));
    std::string text = printed(share_repeated_loads(before));
    // The input once (inner, bound outermost), the repeated gather once,
    // the other gather at the shared input's bin.
    EXPECT_EQ(count(text, "in["), 1) << text;
    EXPECT_EQ(count(text, "g["), 2) << text;
    size_t inner = text.find("let out.loaded$0 = in["), outer = text.find("let out.loaded$1 = g[");
    ASSERT_NE(inner, std::string::npos) << text;
    ASSERT_NE(outer, std::string::npos) << text;
    EXPECT_LT(inner, outer) << text;
    EXPECT_NE(text.find("g[(int32x8(out.loaded$0) + x8(1))]"), std::string::npos) << text;
}

TEST(ShareRepeatedLoads, SingleScalarMaskedLetBoundAndAtomicLoadsAreLeftAlone) {
    Expr x8 = lanes_of("x", 8);
    // Read once.
    Stmt single = Store::make("out", clamped_read(), x8);
    EXPECT_TRUE(share_repeated_loads(single).same_as(single)) << printed(share_repeated_loads(single));
    // Scalar loads: LLVM merges those itself.
    Expr s = Load::make(Float(32), "in", var("x"));
    Stmt scalar = Store::make("out", Add::make(s, s), var("x"));
    EXPECT_TRUE(share_repeated_loads(scalar).same_as(scalar)) << printed(share_repeated_loads(scalar));
    // Loads under masked_load: the masked lanes may be out of bounds.
    Expr m = Call::make(Float(32, 8), "masked_load", {clamped_read(), LT::make(x8, bcast(5, 8))}, Call::Intrinsic);
    Stmt masked = Store::make("out", Add::make(m, m), x8);
    EXPECT_TRUE(share_repeated_loads(masked).same_as(masked)) << printed(share_repeated_loads(masked));
    // A load at a variable bound inside the value stays inside its Let.
    Expr at_v = Load::make(Float(32, 8), "in", Variable::make(Int(32, 8), "v"));
    Stmt let = Store::make("out", Let::make("v", x8 + bcast(1, 8), Add::make(at_v, at_v)), x8);
    EXPECT_TRUE(share_repeated_loads(let).same_as(let)) << printed(share_repeated_loads(let));
    // An atomic store is codegen's to read as written.
    Expr a = clamped_read();
    Stmt atomic = Atomic::make("out", Store::make("out", Add::make(a, a), x8));
    EXPECT_TRUE(share_repeated_loads(atomic).same_as(atomic)) << printed(share_repeated_loads(atomic));
}

TEST(ShareRepeatedLoads, InlinedClampedValueReadManyTimesMatchesPlainCpp) {
    // The bilateral grid's shape: an inlined clamped input read at every
    // pixel, its bin indexing a table, used 6 times in one expression.
    const int w = 70, h = 9;
    Buffer<float> input(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            input(x, y) = (float)((x * 37 + y * 11) % 23) / 11.0f - 0.5f;
        }
    }
    ImageParam in(Float(32), 2, "in");
    in.set(input);
    Var x("x"), y("y"), i("i");
    Func clamped("clamped"), table("table"), out("out");
    clamped(x, y) = clamp(in(clamp(x, 0, in.width() - 1), clamp(y, 0, in.height() - 1)), 0.0f, 1.0f);
    table(i) = cast<float>(i * i) * 0.25f;
    Expr v = clamped(x, y) * 4.0f, bin = cast<int32_t>(v), frac = v - cast<float>(bin);
    out(x, y) = lerp(table(bin), table(bin + 1), frac) + clamped(x, y) * clamped(x, y);
    table.compute_root().bound(i, 0, 6);
    out.vectorize(x, 8);
    std::string text = lowered(out, {in}, "share_repeated_loads_pipeline");
    EXPECT_NE(text.find("out.loaded$"), std::string::npos) << text;
    Buffer<float> result = out.realize({w, h});
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            float c = std::min(std::max(input(xx, yy), 0.0f), 1.0f);
            float vv = c * 4.0f;
            int b = (int)vv;
            float f = vv - (float)b;
            float t0 = (float)(b * b) * 0.25f, t1 = (float)((b + 1) * (b + 1)) * 0.25f;
            float want = t0 + (t1 - t0) * f + c * c;
            EXPECT_NEAR(result(xx, yy), want, 1e-5f) << xx << ", " << yy;
        }
    }
}
