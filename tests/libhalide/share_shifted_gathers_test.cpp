// Gathers at the same lane-wise function of ramps shifted by constants as
// slices of one wider gather (lower/ShareShiftedGathers.cpp): the pass on
// hand-built statements (what is shared, what is left alone); the values of
// mirrored stencils through it are checked against plain C++ in
// span_load_test.cpp (whose taps x - 3, x, x + 4 share one gather) and in
// boundary_conditions_test.cpp (five taps through every condition).
#include <gtest/gtest.h>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/ShareShiftedGathers.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr x8(const Expr &e) {
    return Broadcast::make(e, 8);
}

// f[select(r < 0, 0 - r, r) + x8(row)] with r = ramp(b + c, stride, 8): a coordinate
// mirrored at 0 in a row (b alone when c is 0).
Expr mirrored(const std::string &f, int c, int stride = 1) {
    Expr r = Ramp::make(c == 0 ? var("b") : Add::make(var("b"), i32(c)), i32(stride), 8);
    Expr m = Select::make(LT::make(r, x8(i32(0))), Sub::make(x8(i32(0)), r), r);
    return Load::make(UInt(16, 8), f, Add::make(m, x8(var("row"))));
}

Stmt store(const Expr &value) {
    return Store::make("out", value, Ramp::make(var("x"), i32(1), 8));
}

} // namespace

TEST(ShareShiftedGathers, MirroredTapsShareOneWiderGather) {
    Stmt before = store(Add::make(Add::make(mirrored("f", -2), mirrored("f", 0)), mirrored("f", 1)));
    std::string text = printed(share_shifted_gathers(before));
    // One gather of the 8 + 3 lanes from b - 2, around the store, as 16
    // lanes (a power of two) whose last five repeat lane 10 (b + 8); the taps
    // are its lanes from 0, 2 and 3.
    EXPECT_EQ(count(text, "f["), 1) << text;
    EXPECT_EQ(count(text, "let out.shifted$0 = f[(select((min(ramp((b + -2), 1, 16), x16((b + 8))) < x16(0))"), 1)
        << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 0, 1, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 2, 1, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 3, 1, 8)"), 1) << text;
    EXPECT_NE(text.find("out[ramp(x, 1, 8)]"), std::string::npos) << text;
}

// f[clamp(min(max(d, 0 - d), 14 - max(d, 0 - d)), 0, 7) + x8(row)] with
// d = ramp(b + c - m, 1, 8) and 0 - d written as ramp(0 - (b + c - m), -1, 8),
// as the simplifier leaves mirror_interior's coordinate in an edge vector:
// two ramps of opposite strides, both shifted by c lanes.
Expr mirrored_interior(int c) {
    Expr shifted = c == 0 ? var("b") : Add::make(var("b"), i32(c));
    Expr d = Ramp::make(Sub::make(shifted, var("m")), i32(1), 8);
    Expr neg = Ramp::make(Sub::make(i32(0), Sub::make(shifted, var("m"))), i32(-1), 8);
    Expr t = Max::make(d, neg);
    Expr folded = Min::make(t, Sub::make(x8(i32(14)), t));
    Expr inside = Ramp::make(shifted, i32(1), 8);
    Expr outside = Or::make(LT::make(inside, x8(var("m"))), GT::make(inside, x8(Add::make(var("m"), i32(7)))));
    Expr m = Select::make(outside, Max::make(Min::make(folded, x8(i32(7))), x8(i32(0))), inside);
    return Load::make(UInt(16, 8), "f", Add::make(m, x8(var("row"))));
}

TEST(ShareShiftedGathers, RampsOfOppositeStridesShiftTogether) {
    Stmt before = store(Add::make(Add::make(mirrored_interior(-2), mirrored_interior(0)), mirrored_interior(2)));
    std::string text = printed(share_shifted_gathers(before));
    // One gather of 8 + 4 lanes (16, the last four repeating lane 11): the
    // stride -1 ramp (in the index twice) starts 2 lanes earlier too, at
    // 0 - (b - m) + 2, and is held from lane 11 on by a max.
    EXPECT_EQ(count(text, "f["), 1) << text;
    EXPECT_EQ(count(text, "min(ramp(((b - m) + -2), 1, 16), x16(((b - m) + 9)))"), 2) << text;
    EXPECT_EQ(count(text, "max(ramp((2 - (b - m)), -1, 16), x16((-9 - (b - m))))"), 2) << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 0, 1, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 2, 1, 8)"), 1) << text;
    EXPECT_EQ(count(text, "slice_vector(out.shifted$0, 4, 1, 8)"), 1) << text;
    // Two ramps in one index a lane apart (b + c and b + c + 1): shifted
    // together, the second keeps its 1; two loads whose ramps are 1 and 2
    // lanes apart are not shifts of one index.
    auto two_ramps = [&](int c, int apart, int stride) {
        Expr a = Ramp::make(Add::make(var("b"), i32(c * stride)), i32(stride), 8);
        Expr b = Ramp::make(Add::make(var("b"), i32((c + apart) * stride)), i32(stride), 8);
        return Load::make(UInt(16, 8), "f", Select::make(LT::make(a, x8(i32(0))), x8(i32(0)), b));
    };
    for (int stride : {1, -1, 2}) {
        Stmt shifted = store(Add::make(two_ramps(0, 1, stride), two_ramps(1, 1, stride)));
        EXPECT_EQ(count(printed(share_shifted_gathers(shifted)), "f["), 1) << printed(share_shifted_gathers(shifted));
        Stmt apart = store(Add::make(two_ramps(0, 1, stride), two_ramps(1, 2, stride)));
        EXPECT_TRUE(share_shifted_gathers(apart).same_as(apart)) << printed(share_shifted_gathers(apart));
    }
}

TEST(ShareShiftedGathers, LoadsThatCannotShareAreLeftAlone) {
    // One load; offsets more than a vector apart (lanes between them would
    // be read that no load reads); other buffers; ramps of stride 2; dense
    // ramps (codegen loads those densely).
    Expr dense0 = Load::make(UInt(16, 8), "f", Ramp::make(var("b"), i32(1), 8));
    Expr dense1 = Load::make(UInt(16, 8), "f", Ramp::make(Add::make(var("b"), i32(1)), i32(1), 8));
    for (Stmt s : {store(mirrored("f", 0)), store(Add::make(mirrored("f", 0), mirrored("f", 9))),
                   store(Add::make(mirrored("f", 0), mirrored("g", 1))),
                   store(Add::make(mirrored("f", 0, 2), mirrored("f", 1, 2))), store(Add::make(dense0, dense1))}) {
        EXPECT_TRUE(share_shifted_gathers(s).same_as(s)) << printed(share_shifted_gathers(s));
    }
    // Inside an Atomic block.
    Stmt atomic = Atomic::make("out", store(Add::make(mirrored("f", 0), mirrored("f", 1))));
    EXPECT_TRUE(share_shifted_gathers(atomic).same_as(atomic)) << printed(share_shifted_gathers(atomic));
    // An index that reads memory (a table lookup).
    Expr lut0 = Load::make(UInt(16, 8), "f",
                           Select::make(LT::make(Cast::make(Int(32, 8), mirrored("g", 0)), x8(i32(4))), x8(i32(0)),
                                        Ramp::make(var("b"), i32(1), 8)));
    Stmt lut = store(Add::make(lut0, lut0));
    EXPECT_TRUE(share_shifted_gathers(lut).same_as(lut)) << printed(share_shifted_gathers(lut));
}
