// Values sibling loops share, computed once (lower/ShareLoopInvariants.cpp):
// the pass on hand-built statements (what is lifted, what is left alone),
// then a stencil whose rows are partitioned into three x loops, lowered
// (the row offsets bound once per row) and run against a plain C++
// reference.
#include <gtest/gtest.h>

#include <algorithm>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// (y - in.min.1) * in.stride.1 - in.min.0: the offset of row y of `in`.
Expr row_offset(const std::string &y, int dy = 0) {
    Expr row = Sub::make(Add::make(var(y), i32(dy)), var("in.min.1"));
    return Sub::make(Mul::make(row, var("in.stride.1")), var("in.min.0"));
}

// out[x] = in[row + x + dx] in a loop over x in [lo, lo + n).
Stmt x_loop(const Expr &lo, const Expr &n, const Expr &row, int dx = 0) {
    Expr value = Load::make(Int(32), "in", Add::make(row, Add::make(var("x"), i32(dx))));
    return For::make("x", lo, n, ForType::Serial, Store::make("out", value, var("x")));
}

} // namespace

TEST(ShareLoopInvariants, RowOffsetOfThreeSiblingLoopsIsBoundOnceAtTheRow) {
    // for y { for x in [0, a) ...; for x in [a, b) ...; for x in [b, c) ... },
    // each x loop reading in[row_offset(y) + x]: a partitioned row.
    Expr row = row_offset("y");
    Stmt body = Block::make(
        {x_loop(i32(0), var("a"), row), x_loop(var("a"), var("b"), row, 1), x_loop(var("b"), var("c"), row, -1)});
    Stmt before = For::make("y", i32(0), var("h"), ForType::Serial, body);
    std::string was = printed(before), text = printed(share_loop_invariants(before));
    EXPECT_EQ(count(was, "in.stride.1"), 3) << was;
    // After: computed once, in a let at the top of the row, before the loops.
    EXPECT_EQ(count(text, "in.stride.1"), 1) << text;
    size_t let = text.find("let y.shared$"), loop = text.find("for (x");
    ASSERT_NE(let, std::string::npos) << text;
    EXPECT_LT(let, loop) << text;
    EXPECT_GT(let, text.find("for (y")) << text;
    EXPECT_EQ(count(text, "in[(y.shared$"), 3) << text;
}

TEST(ShareLoopInvariants, OneLoopsValuesLoadsInnerNamesAndCheapTermsAreLeftAlone) {
    Expr row = row_offset("y");
    // Only one loop computes the row offset: LLVM hoists it from that loop.
    Stmt one = For::make("y", i32(0), var("h"), ForType::Serial,
                         Block::make({x_loop(i32(0), var("a"), row), x_loop(var("a"), var("b"), var("r"))}));
    EXPECT_TRUE(share_loop_invariants(one).same_as(one)) << printed(share_loop_invariants(one));
    // An offset read from memory: a load may not move before the loops.
    Expr loaded = Add::make(Load::make(Int(32), "offsets", var("y")), Mul::make(var("y"), var("w")));
    Stmt load = For::make("y", i32(0), var("h"), ForType::Serial,
                          Block::make({x_loop(i32(0), var("a"), loaded), x_loop(var("a"), var("b"), loaded)}));
    std::string load_text = printed(share_loop_invariants(load));
    EXPECT_EQ(count(load_text, "offsets["), 2) << load_text;
    // A value of a name bound between the row's top and the loops.
    Expr at_k = Mul::make(Add::make(var("k"), i32(1)), var("w"));
    Stmt inner =
        For::make("y", i32(0), var("h"), ForType::Serial,
                  LetStmt::make("k", Mul::make(var("y"), i32(3)),
                                Block::make({x_loop(i32(0), var("a"), at_k), x_loop(var("a"), var("b"), at_k)})));
    EXPECT_TRUE(share_loop_invariants(inner).same_as(inner)) << printed(share_loop_invariants(inner));
    // y + 1: one operation, folded into the addressing where it is used.
    Expr cheap = Add::make(var("y"), i32(1));
    Stmt small = For::make("y", i32(0), var("h"), ForType::Serial,
                           Block::make({x_loop(i32(0), var("a"), cheap), x_loop(var("a"), var("b"), cheap)}));
    EXPECT_TRUE(share_loop_invariants(small).same_as(small)) << printed(share_loop_invariants(small));
}

TEST(ShareLoopInvariants, ConstantLetsInsideTheLoopsAreSubstituted) {
    // A vectorized loop's `let x_vec = 0` inside each x loop: the row offset
    // plus x_vec is the same value in both loops.
    Expr with_vec = Add::make(row_offset("y"), var("x_vec"));
    auto loop = [&](const Expr &lo, const Expr &n) {
        Stmt store = Store::make("out", Load::make(Int(32), "in", Add::make(with_vec, var("x"))), var("x"));
        return For::make("x", lo, n, ForType::Serial, LetStmt::make("x_vec", i32(0), store));
    };
    Stmt before = For::make("y", i32(0), var("h"), ForType::Serial,
                            Block::make({loop(i32(0), var("a")), loop(var("a"), var("b"))}));
    std::string text = printed(share_loop_invariants(before));
    EXPECT_EQ(count(text, "in.stride.1"), 1) << text;
    EXPECT_EQ(count(text, "x_vec) + x)"), 0) << text;
}

TEST(ShareLoopInvariants, ClampLikelyStencilBindsItsRowOffsetsOncePerRowAndMatchesPlainCpp) {
    // Sobel's shape: clamp(likely()) in x and y, vectorized, so each row is
    // a prologue, a steady state and an epilogue over x.
    const int w = 67, h = 9;
    Buffer<uint16_t> input(w, h);
    input.for_each_element([&](int x, int y) { input(x, y) = (uint16_t)((x * 37 + y * 101) % 4096); });
    ImageParam in(UInt(16), 2, "in");
    in.set(input);
    Var x("x"), y("y");
    Func c("c"), out("out");
    c(x, y) = cast<int32_t>(in(clamp(likely(x), 0, w - 1), clamp(likely(y), 0, h - 1)));
    out(x, y) = c(x - 1, y - 1) + 2 * c(x + 1, y) - c(x, y + 1);
    out.vectorize(x, 16);
    std::string text = lowered(out, {in}, "share_loop_invariants_pipeline");
    EXPECT_NE(text.find("out.s0.y.shared$"), std::string::npos) << text;
    EXPECT_NE(text.find("x16(out.s0.y.shared$"), std::string::npos) << text;
    Buffer<int32_t> result = out.realize({w, h});
    auto at = [&](int xx, int yy) {
        return (int)input(std::min(std::max(xx, 0), w - 1), std::min(std::max(yy, 0), h - 1));
    };
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            EXPECT_EQ(result(xx, yy), at(xx - 1, yy - 1) + 2 * at(xx + 1, yy) - at(xx, yy + 1)) << xx << ", " << yy;
        }
    }
}
