// Loop partitioning (lower/PartitionLoops.cpp): the pass on hand-built
// statements, then pipelines with likely branches at edges computed against
// plain C++ references over sizes where the steady state is long, short or
// empty.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "ir/ShareSubexpressions.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// for (x, 0, 100) { out[x] = in[<index>] }
Stmt loop_reading(const Expr &index) {
    Expr load = Load::make(Int(32), "in", index);
    return For::make("x", IntImm::make(Int(32), 0), IntImm::make(Int(32), 100), ForType::Serial,
                     Store::make("out", load, var("x")));
}

} // namespace

TEST(PartitionLoops, ClampedIndexHasASteadyStateWithoutTheClamp) {
    // in[max(min(likely(x - 1), 49), 0)]: steady for x - 1 in [0, 49].
    Expr index = Max::make(Min::make(likely(Sub::make(var("x"), 1)), 49), 0);
    Stmt before = loop_reading(index);
    Stmt after = simplify(partition_loops(before));
    std::string text = printed(after);
    EXPECT_EQ(count(text, "for (x, "), 3) << text;
    // The steady loop reads in[x - 1] directly; prologue and epilogue keep the clamp.
    EXPECT_EQ(count(text, "max(min("), 2) << text;
    EXPECT_NE(text.find("out[x] = in[likely((x + -1))]"), std::string::npos) << text;
}

TEST(PartitionLoops, LikelyBranchesInADroppedSidePartitionTheEdgesAgain) {
    // in[select(x < 10 || x >= 60, select(likely(x >= 0 - 40 && x <= 110), x - 1000, x % 7), likely(x))]
    // over x in [-80, 150): a boundary condition's form: inside [10, 59]
    // the likely x; outside, a cheap form near the image (likely there)
    // and a general one farther out. The steady state is [10, 59]; each
    // edge is split again on the nested likely: [-80, -41] and [111, 149]
    // keep both forms, [-40, 9] and [60, 110] read in[x - 1000] (before:
    // three loops, the edges with the whole select).
    Expr x = var("x");
    Expr outside = Or::make(LT::make(x, 10), GE::make(x, 60));
    Expr near = likely(And::make(GE::make(x, Sub::make(0, 40)), LE::make(x, 110)));
    Expr index = Select::make(outside, Select::make(near, Sub::make(x, 1000), Mod::make(x, 7)), likely(x));
    // Around vector code (a loop over v, vectorized later): scalar loops'
    // edges are not split again.
    Stmt store = Store::make("out", Load::make(Int(32), "in", index), Add::make(Mul::make(x, 4), var("v")));
    Stmt vec = For::make("v", IntImm::make(Int(32), 0), IntImm::make(Int(32), 4), ForType::Vectorized, store);
    Stmt before = For::make("x", IntImm::make(Int(32), -80), IntImm::make(Int(32), 230), ForType::Serial, vec);
    Stmt after = simplify(partition_loops(before));
    std::string text = printed(after);
    // With constant bounds the simplifier drops the empty parts: five loops.
    EXPECT_EQ(count(text, "for (x, "), 5) << text;
    EXPECT_EQ(count(text, "(x % 7)"), 2) << text; // the far loops only
    EXPECT_NE(text.find("for (x, -80, 40) {"), std::string::npos) << text;
    EXPECT_NE(text.find("for (x, -40, 50) {\n  vectorized for (v, 0, 4) {\n    out[((x * 4) + v)] = in[(x + -1000)]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("for (x, 10, 50) {\n  vectorized for (v, 0, 4) {\n    out[((x * 4) + v)] = in[likely(x)]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("for (x, 60, 51) {\n  vectorized for (v, 0, 4) {\n    out[((x * 4) + v)] = in[(x + -1000)]\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("for (x, 111, 39) {"), std::string::npos) << text;
}

TEST(PartitionLoops, ALikelyClampOfAnUnboundedInvariantValueIsLeftAlone) {
    // in[max(min(likely(idx[0]), 49), 0) + x]: the clamped value does not
    // depend on x and has no bounds (a load), so nothing can be solved; this
    // was an internal error (a comparison with an undefined bound).
    Expr unbounded = Load::make(Int(32), "idx", IntImm::make(Int(32), 0));
    Expr index = Add::make(Max::make(Min::make(likely(unbounded), 49), 0), var("x"));
    Stmt after = simplify(partition_loops(loop_reading(index)));
    std::string text = printed(after);
    EXPECT_EQ(count(text, "for (x, "), 1) << text;
    EXPECT_EQ(count(text, "max(min("), 1) << text;
}

TEST(PartitionLoops, LoopsWithoutLikelyAreLeftAlone) {
    Stmt before = loop_reading(Max::make(Min::make(Sub::make(var("x"), 1), 49), 0));
    Stmt after = partition_loops(before);
    EXPECT_TRUE(after.same_as(before)) << printed(after);
}

TEST(PartitionLoops, ConditionsOnAnOuterLoopAreNotSolvedInTheInnerOne) {
    // The clamp is on y: the x loop has nothing to partition, the y loop does.
    Expr index = Max::make(Min::make(likely(var("y")), 9), 0);
    Stmt inner = loop_reading(index);
    Stmt outer = For::make("y", IntImm::make(Int(32), -5), IntImm::make(Int(32), 20), ForType::Serial, inner);
    std::string text = printed(simplify(partition_loops(outer)));
    EXPECT_EQ(count(text, "for (y, "), 3) << text;
    EXPECT_EQ(count(text, "for (x, "), 3) << text; // one copy per y loop, none split
}

TEST(PartitionLoops, InnerLoopsArePartitionedOnlyInTheOuterSteadyState) {
    // Clamps on x, y and z. The y loop splits in three, and so does each of
    // its copies of the innermost x loop (3 x 3 x loops): the rows above
    // and below the image load densely but for their first and last vector.
    // The z loop, when partitioned, keeps the y loop as it came in its
    // prologue and epilogue (one y loop, one x loop each): every level of a
    // deeper nest would otherwise triple the code below it.
    Expr ix = Max::make(Min::make(likely(Sub::make(var("x"), 1)), 49), 0);
    Expr iy = Max::make(Min::make(likely(Sub::make(var("y"), 1)), 9), 0);
    Stmt inner = loop_reading(Add::make(ix, Mul::make(iy, 100)));
    Stmt outer = For::make("y", IntImm::make(Int(32), 0), IntImm::make(Int(32), 20), ForType::Serial, inner);
    std::string was = printed(outer), text = printed(simplify(partition_loops(outer)));
    EXPECT_EQ(count(was, "for (x, "), 1) << was;
    EXPECT_EQ(count(text, "for (y, "), 3) << text;
    EXPECT_EQ(count(text, "for (x, "), 9) << text;
    // Clamped x reads are left only in the x loops' prologues and epilogues,
    // clamped y reads only in the y loop's.
    EXPECT_EQ(count(text, "max(min(likely((x + -1)), 49), 0)"), 6) << text;
    EXPECT_EQ(count(text, "max(min(likely((y + -1)), 9), 0)"), 6) << text;

    Expr iz = Max::make(Min::make(likely(Sub::make(var("z"), 1)), 4), 0);
    Stmt in_z = loop_reading(Add::make(Add::make(ix, Mul::make(iy, 100)), Mul::make(iz, 1000)));
    in_z = For::make("y", IntImm::make(Int(32), 0), IntImm::make(Int(32), 20), ForType::Serial, in_z);
    in_z = For::make("z", IntImm::make(Int(32), 0), IntImm::make(Int(32), 8), ForType::Serial, in_z);
    text = printed(simplify(partition_loops(in_z)));
    // The z loop's body has 12 loops now (3 y, 9 x): past the budget
    // (partition_budget_test), z stays one loop.
    EXPECT_EQ(count(text, "for (z, "), 1) << text;
    EXPECT_EQ(count(text, "for (y, "), 3) << text;
    EXPECT_EQ(count(text, "for (x, "), 9) << text;
    // Partitioned all the same (Partition::Always), its prologue and
    // epilogue keep the y loop as it came.
    text = printed(simplify(partition_loops(in_z, {{"z", Partition::Always}})));
    EXPECT_EQ(count(text, "for (z, "), 3) << text;
    EXPECT_EQ(count(text, "for (y, "), 1 + 3 + 1) << text;
    EXPECT_EQ(count(text, "for (x, "), 1 + 9 + 1) << text;

    // Eight nested loops, each with its own clamp: linear growth, not 3^8.
    Stmt s = Store::make("out", Load::make(Int(32), "in", var("l0")), var("l0"));
    for (int level = 7; level >= 0; level--) {
        std::string name = "l" + std::to_string(level);
        Expr clamp = Max::make(Min::make(likely(Sub::make(var(name), 1)), 5), 0);
        s = For::make(name, IntImm::make(Int(32), 0), IntImm::make(Int(32), 10), ForType::Serial,
                      Block::make(Store::make("side", clamp, var(name)), s));
    }
    text = printed(partition_loops(s));
    EXPECT_LE(count(text, "for ("), 3 * 8 * 8) << "loops after partitioning a nest of eight";
}

TEST(PartitionLoops, OuterLoopsAreNotPartitionedForBranchesTheInnerLoopsSplitOff) {
    // Tiles of 8: the clamp on xo * 8 + xi - 1 splits the xi loop. Split
    // again at xo, the first and last tile would run the raw body (their xi
    // loops unpartitioned): xo stays one loop around the partitioned xi loop.
    Expr x = Add::make(Mul::make(var("xo"), 8), var("xi"));
    Expr index = Max::make(Min::make(likely(Sub::make(x, 1)), 49), 0);
    Stmt inner = For::make("xi", IntImm::make(Int(32), 0), IntImm::make(Int(32), 8), ForType::Serial,
                           Store::make("out", Load::make(Int(32), "in", index), x));
    Stmt outer = For::make("xo", IntImm::make(Int(32), 0), IntImm::make(Int(32), 7), ForType::Serial, inner);
    std::string text = printed(simplify(partition_loops(outer)));
    EXPECT_EQ(count(text, "for (xo, "), 1) << text;
    EXPECT_EQ(count(text, "for (xi, "), 4) << text; // the three, and the whole-range fast path
    EXPECT_EQ(count(text, "max(min("), 2) << text;  // in the xi prologue and epilogue only

    // A clamp on xo in the xi loop's main line: xo is partitioned for it.
    Expr side = Max::make(Min::make(likely(var("xo")), 5), 1);
    Stmt both = For::make("xo", IntImm::make(Int(32), 0), IntImm::make(Int(32), 7), ForType::Serial,
                          Block::make(Store::make("side", side, var("xo")), inner));
    text = printed(simplify(partition_loops(both)));
    EXPECT_EQ(count(text, "for (xo, "), 3) << text;
}

TEST(PartitionLoops, SmallConstantLoopsKeepAFastPathOverTheirWholeRange) {
    // A tile's row of 16: for (xi, 0, 16) out[xi] = in[clamp(likely(o + xi - 1), 0, 49)].
    Expr x = Add::make(var("o"), var("xi"));
    Expr index = Max::make(Min::make(likely(Sub::make(x, 1)), 49), 0);
    Stmt loop = For::make("xi", IntImm::make(Int(32), 0), IntImm::make(Int(32), 16), ForType::Serial,
                          Store::make("out", Load::make(Int(32), "in", index), var("xi")));
    std::string was = printed(loop), text = printed(simplify(partition_loops(loop)));
    EXPECT_EQ(count(was, "for (xi, "), 1) << was;
    // After: where the steady range covers [0, 15], the loop of constant
    // extent 16 runs the steady body (no clamp); else the three loops.
    EXPECT_EQ(count(text, "for (xi, "), 4) << text;
    EXPECT_EQ(count(text, "for (xi, 0, 16) {\n    out[xi] = in[likely(((o + xi) + -1))]"), 1) << text;
    EXPECT_NE(text.find("if (((xi.steady_min <= 0) && (15 <= xi.steady_max)))"), std::string::npos) << text;
    EXPECT_EQ(count(text, "max(min("), 2) << text; // prologue and epilogue only
    // A loop of variable extent, or one with a loop inside, has no such path.
    Stmt long_loop = For::make("xi", IntImm::make(Int(32), 0), var("n"), ForType::Serial,
                               Store::make("out", Load::make(Int(32), "in", index), var("xi")));
    text = printed(simplify(partition_loops(long_loop)));
    EXPECT_EQ(count(text, "for (xi, "), 3) << text;
    EXPECT_EQ(text.find("if ("), std::string::npos) << text;
}

TEST(PartitionLoops, SolvedThroughDivisionByAConstant) {
    // A Bayer mosaic's quad: in[clamp(likely((x / 2) * 2 + 1), 0, 49)], steady
    // while (x / 2) * 2 + 1 <= 49, i.e. x <= 49 (and x >= -2 for the max).
    Expr quad = Add::make(Mul::make(Div::make(var("x"), 2), 2), 1);
    Expr index = Max::make(Min::make(likely(quad), 49), 0);
    std::string text = printed(simplify(partition_loops(loop_reading(index))));
    // (The prologue is empty: simplified away.)
    EXPECT_NE(text.find("for (x, 0, 50) {\n  out[x] = in[likely((((x / 2) * 2) + 1))]"), std::string::npos) << text;
    EXPECT_EQ(count(text, "max(min("), 1) << text; // the epilogue's
    // A divisor that is not a positive constant is not solved.
    Expr by_var = Max::make(Min::make(likely(Div::make(var("x"), var("k"))), 49), 0);
    text = printed(simplify(partition_loops(loop_reading(by_var))));
    EXPECT_EQ(count(text, "for (x, "), 1) << text;
}

TEST(PartitionLoops, UnsolvableConditionsKeepTheirBranch) {
    // x * x is not solved: no partition, the clamp stays.
    Expr index = Max::make(Min::make(likely(Mul::make(var("x"), var("x"))), 49), 0);
    std::string text = printed(simplify(partition_loops(loop_reading(index))));
    EXPECT_EQ(count(text, "for (x, "), 1) << text;
    EXPECT_EQ(count(text, "max(min("), 1) << text;
}

// ----- pipelines against plain C++ -----

namespace {

// Realizes `f` over w x h and compares with `ref` at every point.
void expect_matches(Func f, int w, int h, const std::function<int32_t(int, int)> &ref) {
    Buffer<int32_t> out = f.realize({w, h});
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            ASSERT_EQ(out(x, y), ref(x, y)) << "at (" << x << ", " << y << ") of " << w << "x" << h;
        }
    }
}

} // namespace

TEST(PartitionLoops, RepeatEdgeBlurVectorizedAndParallel) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y"), yi("yi");
    Func c = BoundaryConditions::repeat_edge(im);
    Func bx("bx"), by("by");
    bx(x, y) = c(x - 1, y) + 2 * c(x, y) + c(x + 1, y);
    by(x, y) = bx(x, y - 1) + bx(x, y) * 3 + bx(x, y + 1);
    by.split(y, y, yi, 4, TailStrategy::GuardWithIf).parallel(y).vectorize(x, 8, TailStrategy::GuardWithIf);
    bx.compute_at(by, y).vectorize(x, 8);
    EXPECT_NE(lowered(by, {im}, "repeat_edge").find("steady"), std::string::npos);
    // One compilation, inputs from one pixel (no steady state) to long rows.
    for (auto [w, h] : {std::pair{67, 23}, std::pair{16, 3}, std::pair{5, 2}, std::pair{1, 1}, std::pair{200, 40}}) {
        Buffer<int32_t> in = ramp_input(w, h);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), clampi(j, 0, h - 1)); };
        auto rbx = [&](int i, int j) { return at(i - 1, j) + 2 * at(i, j) + at(i + 1, j); };
        expect_matches(by, w, h, [&](int i, int j) { return rbx(i, j - 1) + rbx(i, j) * 3 + rbx(i, j + 1); });
        // A region larger than the input: every output row past its edges is a prologue or epilogue one.
        Buffer<int32_t> out(w + 20, h + 6);
        out->set_min(-10, -3);
        by.realize(out);
        for (int j = -3; j < h + 3; j++) {
            for (int i = -10; i < w + 10; i++) {
                ASSERT_EQ(out(i, j), rbx(i, j - 1) + rbx(i, j) * 3 + rbx(i, j + 1)) << i << ", " << j;
            }
        }
    }
}

TEST(PartitionLoops, FastPathOfTiledRepeatEdgeBlurMatchesCpp) {
    // 16-wide tiles (shifted inwards at the end) vectorized by 8: interior
    // tiles take the fast path, edge tiles the three loops; sizes with and
    // without interior tiles.
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func c = BoundaryConditions::repeat_edge(im);
    Func bx("bx"), out("out");
    bx(x, y) = c(x - 1, y) + 2 * c(x, y) + c(x + 2, y);
    out(x, y) = bx(x, y - 1) + bx(x, y) * 3 + bx(x, y + 1);
    out.tile(x, y, xi, yi, 16, 4).vectorize(xi, 8);
    bx.compute_at(out, x).vectorize(x, 8);
    EXPECT_NE(lowered(out, {im}, "fast_path").find("bx.s0.x$o.steady_min <= 0"), std::string::npos);
    for (auto [w, h] : {std::pair{67, 9}, std::pair{16, 4}, std::pair{33, 5}, std::pair{100, 13}}) {
        Buffer<int32_t> in = ramp_input(w, h);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), clampi(j, 0, h - 1)); };
        auto rbx = [&](int i, int j) { return at(i - 1, j) + 2 * at(i, j) + at(i + 2, j); };
        expect_matches(out, w, h, [&](int i, int j) { return rbx(i, j - 1) + rbx(i, j) * 3 + rbx(i, j + 1); });
    }
}

TEST(PartitionLoops, ConstantExteriorSelects) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::constant_exterior(im, -7);
    Func f("f");
    f(x, y) = c(x - 2, y) * 3 + c(x + 3, y - 1);
    f.vectorize(x, 4, TailStrategy::GuardWithIf);
    EXPECT_NE(lowered(f, {im}, "constant_exterior").find("steady"), std::string::npos);
    for (int w : {1, 7, 33, 100}) {
        Buffer<int32_t> in = ramp_input(w, 5);
        im.set(in);
        auto at = [&](int i, int j) { return (i < 0 || i >= w || j < 0 || j >= 5) ? -7 : in(i, j); };
        expect_matches(f, w, 5, [&](int i, int j) { return at(i - 2, j) * 3 + at(i + 3, j - 1); });
    }
}
TEST(PartitionLoops, MirrorInteriorFiveTap) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::mirror_interior(im);
    Func f("f");
    f(x, y) = c(x - 2, y) + c(x - 1, y) * 2 + c(x, y) * 4 + c(x + 1, y) * 2 + c(x + 2, y);
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    // mirror_interior: -1 -> 1, w -> w - 2 (upstream's mapping).
    auto mirror = [](int i, int n) {
        if (n == 1) {
            return 0;
        }
        int period = 2 * (n - 1);
        int m = ((i % period) + period) % period;
        return m < n ? m : period - m;
    };
    for (int w : {2, 9, 64}) {
        Buffer<int32_t> in = ramp_input(w, 4);
        im.set(in);
        auto at = [&](int i, int j) { return in(mirror(i, w), j); };
        expect_matches(f, w, 4, [&](int i, int j) {
            return at(i - 2, j) + at(i - 1, j) * 2 + at(i, j) * 4 + at(i + 1, j) * 2 + at(i + 2, j);
        });
    }
}
TEST(PartitionLoops, SolvedThroughScalesAndNegation) {
    // Decreasing and scaled indices: clamp(likely(40 - 2x), 0, 30), clamp(likely(3x + 1), 0, w - 1).
    int w = 50;
    ImageParam im(Int(32), 2, "im");
    Buffer<int32_t> in = ramp_input(w, 1);
    im.set(in);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = im(clamp(likely(40 - 2 * x), 0, 30), y) + im(clamp(likely(3 * x + 1), 0, w - 1), y);
    expect_matches(f, 40, 1,
                   [&](int i, int j) { return in(clampi(40 - 2 * i, 0, 30), j) + in(clampi(3 * i + 1, 0, w - 1), j); });
    EXPECT_NE(lowered(f, {im}, "scaled").find("steady"), std::string::npos);
}

TEST(PartitionLoops, HalfResolutionReadsOfAMosaic) {
    // The camera pipe's planes: repeat_edge(im)(2 * (x / 2) + 1, ...) and
    // the like, read at full resolution, vectorized; the loop over vectors
    // is partitioned through x / 2, and every size still matches.
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(im);
    Func f("f");
    Expr qx = x / 2, qy = y / 2;
    f(x, y) = c(2 * qx - 1, 2 * qy) + c(2 * qx + 1, 2 * qy) * 3 + c(2 * (qx + 1), 2 * qy + 1) * 5;
    f.vectorize(x, 8, TailStrategy::GuardWithIf);
    std::string text = lowered(f, {im}, "mosaic");
    EXPECT_NE(text.find("f.s0.x$o.steady_min"), std::string::npos) << text;
    for (int w : {1, 2, 7, 16, 33, 64}) {
        Buffer<int32_t> in = ramp_input(w, 4);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), clampi(j, 0, 3)); };
        auto fl = [](int a) { return a >= 0 ? a / 2 : -((1 - a) / 2); };
        expect_matches(f, w, 4, [&](int i, int j) {
            int a = fl(i), b = fl(j);
            return at(2 * a - 1, 2 * b) + at(2 * a + 1, 2 * b) * 3 + at(2 * (a + 1), 2 * b + 1) * 5;
        });
    }
}

TEST(PartitionLoops, ShiftedInwardsTailsStayCorrect) {
    // The output's vectorized loop shifts its last vector inwards (a min in
    // the index): the steady state must still cover exactly the right rows.
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    Func c = BoundaryConditions::repeat_edge(im);
    Func g("g"), f("f");
    g(x, y) = c(x + 1, y) - c(x - 3, y);
    f(x, y) = g(x, y) + g(x + 2, y);
    f.vectorize(x, 8);
    g.compute_at(f, y).split(x, xo, xi, 4).vectorize(xi);
    for (int w : {8, 13, 31, 64}) {
        Buffer<int32_t> in = ramp_input(w, 3);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), j); };
        auto rg = [&](int i, int j) { return at(i + 1, j) - at(i - 3, j); };
        expect_matches(f, w, 3, [&](int i, int j) { return rg(i, j) + rg(i + 2, j); });
    }
}

TEST(PartitionLoops, PartitionNeverKeepsOneLoop) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(im);
    Func f("f");
    f(x, y) = c(x - 1, y) + c(x + 1, y);
    f.partition(x, Partition::Never);
    std::string text = lowered(f, {im}, "never");
    EXPECT_EQ(text.find("f.s0.x.steady"), std::string::npos) << text;
    EXPECT_NE(text.find("f.s0.y.steady"), std::string::npos) << text; // y still partitions (Auto)
    f.never_partition_all();
    EXPECT_EQ(lowered(f, {im}, "never_all").find("steady"), std::string::npos);
    Buffer<int32_t> in = ramp_input(9, 2);
    im.set(in);
    expect_matches(f, 9, 2, [&](int i, int j) { return in(clampi(i - 1, 0, 8), j) + in(clampi(i + 1, 0, 8), j); });
}

TEST(PartitionLoops, PartitionAlwaysWithoutLikelyIsAnError) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = im(x, y) * 2;
    f.always_partition(x);
    try {
        lowered(f, {im}, "always");
        FAIL() << "expected an error";
    } catch (const CompileError &e) {
        std::string message = e.what();
        EXPECT_NE(message.find("f.s0.x"), std::string::npos) << message;
        EXPECT_NE(message.find("Partition::Always"), std::string::npos) << message;
    }
    Func g("g");
    g(x, y) = BoundaryConditions::repeat_edge(im)(x + 1, y);
    g.always_partition_all();
    EXPECT_NE(lowered(g, {im}, "always_ok").find("g.s0.x.steady"), std::string::npos);
}

TEST(PartitionLoops, RequireInADroppedClampSideIsCheckedBeforeTheLoop) {
    // in[max(min(likely(x), require(p == q, p) - 1), 0)]: the steady state
    // reads in[x] and no longer evaluates the require(), so its check is
    // made once before the loops, with require()'s message (its value); the
    // epilogue keeps it.
    Expr p = var("p"), q = var("q");
    Expr required = Call::make(Int(32), "require", {EQ::make(p, q), p}, Call::Intrinsic);
    Stmt before = loop_reading(Max::make(Min::make(likely(var("x")), Sub::make(required, 1)), 0));
    std::string text = printed(simplify(partition_loops(before)));
    EXPECT_EQ(count(text, "for (x, "), 2) << text; // x >= 0 from the start: no prologue
    EXPECT_EQ(count(text, "halide_error_requirement_failed(__user_context, \"false\", stringify(p))"), 1) << text;
    EXPECT_LT(text.find("assert((p == q)"), text.find("for (x, ")) << text;
    EXPECT_NE(text.find("out[x] = in[likely(x)]"), std::string::npos) << text;
    EXPECT_EQ(count(text, "require((p == q), p)"), 1) << text;
    // A require() whose condition varies in the loop can't be checked
    // before it: that side is not dropped.
    Expr varying = Call::make(Int(32), "require", {LT::make(var("x"), q), p}, Call::Intrinsic);
    Stmt kept = loop_reading(Max::make(Min::make(likely(var("x")), Sub::make(varying, 1)), 0));
    std::string kept_text = printed(simplify(partition_loops(kept)));
    EXPECT_EQ(count(kept_text, "halide_error_requirement_failed"), 0) << kept_text;
    EXPECT_EQ(count(kept_text, "require("), count(printed(simplify(kept)), "require(")) << kept_text;
}

namespace {

// Sobel over uint16 rows (as benchmarks/stencils): reads `in` at (x +- 1,
// y +- 1), vectorized by 16, rows split by 32.
Func sobel_of(Func in) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func s("s"), out("out");
    s(x, y) = cast<int16_t>(in(x, y));
    Expr gx =
        (s(x + 1, y - 1) + 2 * s(x + 1, y) + s(x + 1, y + 1)) - (s(x - 1, y - 1) + 2 * s(x - 1, y) + s(x - 1, y + 1));
    Expr gy =
        (s(x - 1, y + 1) + 2 * s(x, y + 1) + s(x + 1, y + 1)) - (s(x - 1, y - 1) + 2 * s(x, y - 1) + s(x + 1, y - 1));
    out(x, y) = cast<uint16_t>(abs(gx)) + cast<uint16_t>(abs(gy));
    out.split(y, yo, yi, 32).vectorize(x, 16);
    return out;
}

// Sobel of a w x h uint16 input through clamp(likely()) on both coordinates,
// and the same pipeline reading the input as if it were pre-padded.
struct SobelPair {
    ImageParam im;
    Func with_clamp, on_padding;
};
SobelPair sobel_pair(int w, int h) {
    ImageParam im(UInt(16), 2, "im");
    Var x("x"), y("y");
    Func clamped("clamped"), padded("padded");
    clamped(x, y) = im(clamp(likely(x), 0, w - 1), clamp(likely(y), 0, h - 1));
    padded(x, y) = im(x, y);
    return {im, sobel_of(clamped), sobel_of(padded)};
}

// The fewest instructions of an innermost loop over 256-bit vectors in the
// AVX2 assembly of `f`: the steady state of its vector loop. With `having`,
// only loops with that instruction count.
size_t shortest_vector_loop(Func f, ImageParam in, const std::string &name, const std::string &having = "") {
    std::string path = ::testing::TempDir() + name + ".s";
    f.compile_to_assembly(path, {in}, name, Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) {
        lines.push_back(line);
    }
    size_t best = 0;
    for (size_t j = 0; j < lines.size(); j++) {
        size_t label_at = lines[j].find(".LBB");
        if (lines[j].find("\tj") == std::string::npos || label_at == std::string::npos) {
            continue;
        }
        std::string label = lines[j].substr(label_at) + ":";
        size_t i = j;
        while (i-- > 0 && lines[i].rfind(".LBB", 0) != 0) {
        }
        if (i >= j || lines[i].rfind(label, 0) != 0) {
            continue; // not a backward branch to the nearest label: not an innermost loop
        }
        size_t instructions = 0, vectors = 0;
        bool has = having.empty();
        for (size_t k = i + 1; k <= j; k++) {
            const std::string &l = lines[k];
            size_t first = l.find_first_not_of(" \t");
            if (first == std::string::npos || l[first] == '#' || l[first] == '.') {
                continue;
            }
            instructions++;
            vectors += l.find("%ymm") != std::string::npos;
            has = has || l.compare(first, having.size(), having) == 0;
        }
        if (vectors > 0 && has && (best == 0 || instructions < best)) {
            best = instructions;
        }
    }
    return best;
}

// How many addresses of 16-bit elements (lea base + 2 * index) the AVX2
// assembly of `f` computes: row pointers, in a stencil over uint16 rows.
int row_address_leas(Func f, ImageParam in, const std::string &name) {
    std::string path = ::testing::TempDir() + name + ".s";
    f.compile_to_assembly(path, {in}, name, Target("x86-64-linux-avx-avx2-f16c-fma-sse41"));
    std::ifstream file(path);
    int n = 0;
    for (std::string line; std::getline(file, line);) {
        size_t lea = line.find("\tlea");
        n += lea != std::string::npos && line.find(",2)", lea) != std::string::npos;
    }
    return n;
}

} // namespace

TEST(PartitionLoops, ClampLikelySobelEdgeLoopsShareTheRowPointers) {
    // Each row of Sobel with clamp(likely(x)) is three x loops: two one-vector
    // edge loops and the steady state. Their row offsets are bound once per
    // row (lower/ShareLoopInvariants.cpp) and codegen computes each row
    // pointer where that offset is bound, so the edge loops compute none of
    // their own. Before, LLVM hoisted into each edge loop's preheader one
    // pointer per row and constant offset (twelve, spilled): here 61 row
    // addresses in all against the padded pipeline's 4. Now 13: the row
    // pointers of the y loop's prologue, steady state and epilogue (three
    // copies of the padded row) and the steady x loops' own.
    SobelPair p = sobel_pair(70, 37);
    int with_clamp = row_address_leas(p.with_clamp, p.im, "sobel_clamp_likely_rows");
    int reference = row_address_leas(p.on_padding, p.im, "sobel_padded_rows");
    ASSERT_GT(reference, 0);
    EXPECT_LE(with_clamp, 4 * reference) << with_clamp << " against " << reference;
}

TEST(PartitionLoops, ClampLikelySobelSteadyStateIsThePaddedOnes) {
    // With clamp(likely(x)) the row loop splits into edge vectors and a
    // steady state whose loads are those of the same pipeline on a
    // pre-padded input; its machine loop must be no longer than that one.
    // LLVM's loop strength reduction gave up its search on the steady
    // state (nine loads and a store, a variable start) and stepped four
    // pointers and a counter, 32-33 instructions against the padded 29.
    const int w = 70, h = 37;
    SobelPair p = sobel_pair(w, h);
    ImageParam im = p.im;
    Func with_clamp = p.with_clamp, on_padding = p.on_padding;
    size_t steady = shortest_vector_loop(with_clamp, im, "sobel_clamp_likely");
    size_t reference = shortest_vector_loop(on_padding, im, "sobel_padded");
    ASSERT_GT(reference, 0u);
    EXPECT_LE(steady, reference);

    Buffer<uint16_t> in(w, h);
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            in(i, j) = (uint16_t)((i * 2654435761u ^ (j * 40503u + 12345u)) & 4095);
        }
    }
    im.set(in);
    Buffer<uint16_t> out = with_clamp.realize({w, h});
    auto s = [&](int i, int j) { return (int16_t)in(clampi(i, 0, w - 1), clampi(j, 0, h - 1)); };
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            int16_t gx = (int16_t)((s(i + 1, j - 1) + 2 * s(i + 1, j) + s(i + 1, j + 1)) -
                                   (s(i - 1, j - 1) + 2 * s(i - 1, j) + s(i - 1, j + 1)));
            int16_t gy = (int16_t)((s(i - 1, j + 1) + 2 * s(i, j + 1) + s(i + 1, j + 1)) -
                                   (s(i - 1, j - 1) + 2 * s(i, j - 1) + s(i + 1, j - 1)));
            uint16_t want = (uint16_t)((uint16_t)std::abs((int)gx) + (uint16_t)std::abs((int)gy));
            ASSERT_EQ(out(i, j), want) << i << ", " << j;
        }
    }
}

namespace {

// The 5x5 Gaussian of benchmarks/stencils over uint16 rows of `in`: rows in
// gx computed per 256 x 32 tile of the output, both vectorized by 16.
Func gauss5_of(Func in) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func gx("gx"), out("out");
    gx(x, y) = in(x - 2, y) + in(x - 1, y) * 4 + in(x, y) * 6 + in(x + 1, y) * 4 + in(x + 2, y);
    Expr sum = cast<uint32_t>(gx(x, y - 2)) + cast<uint32_t>(gx(x, y - 1)) * 4 + cast<uint32_t>(gx(x, y)) * 6 +
               cast<uint32_t>(gx(x, y + 1)) * 4 + cast<uint32_t>(gx(x, y + 2));
    out(x, y) = cast<uint16_t>((sum + 128) >> 8);
    out.tile(x, y, xi, yi, 256, 32).vectorize(xi, 16).parallel(y);
    gx.compute_at(out, x).vectorize(x, 16);
    return out;
}

} // namespace

TEST(PartitionLoops, MirrorInteriorGaussianConsumerLoopIsThePaddedOne) {
    // The consumer's vector loop (widening loads of gx: vpmovzxwd) is the
    // same code with mirror_interior as on a pre-padded input. It was two
    // instructions longer: in the same tile loop as gx's partitioned edges,
    // LLVM's machine LICM judged the register pressure high and left the
    // loop's two constant broadcasts in it (codegen/CodeGen_LLVM.cpp,
    // avoid-speculation).
    ImageParam im(UInt(16), 2, "im");
    Var x("x"), y("y");
    Func padded("padded");
    padded(x, y) = im(x, y);
    Func mirrored = gauss5_of(BoundaryConditions::mirror_interior(im));
    Func on_padding = gauss5_of(padded);
    size_t consumer = shortest_vector_loop(mirrored, im, "gauss5_mirror_interior", "vpmovzxwd");
    size_t reference = shortest_vector_loop(on_padding, im, "gauss5_padded", "vpmovzxwd");
    ASSERT_GT(reference, 0u);
    EXPECT_LE(consumer, reference);

    const int w = 300, h = 70;
    Buffer<uint16_t> in(w, h);
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            in(i, j) = (uint16_t)((i * 2654435761u ^ (j * 40503u + 12345u)) & 4095);
        }
    }
    im.set(in);
    Buffer<uint16_t> out = mirrored.realize({w, h});
    auto mirror = [](int v, int n) { return v < 0 ? -v : v >= n ? 2 * (n - 1) - v : v; };
    auto row = [&](int i, int j) {
        int r = mirror(j, h), k[5] = {1, 4, 6, 4, 1}, s = 0;
        for (int t = 0; t < 5; t++) {
            s += k[t] * in(mirror(i + t - 2, w), r);
        }
        return s;
    };
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            int k[5] = {1, 4, 6, 4, 1}, s = 0;
            for (int t = 0; t < 5; t++) {
                s += k[t] * row(i, j + t - 2);
            }
            ASSERT_EQ(out(i, j), (uint16_t)((s + 128) >> 8)) << i << ", " << j;
        }
    }
}

namespace {

// e[0] = y, e[i] = e[i-1] * e[i-1] + y + r: each reuses the last twice, so
// e[24] is a graph of ~100 nodes whose tree has ~10^8.
std::vector<Expr> squaring_chain(int n, const Expr &y, const Expr &r) {
    std::vector<Expr> e = {y};
    for (int i = 1; i < n; i++) {
        e.push_back(e[i - 1] * e[i - 1] + y + r);
    }
    return e;
}

} // namespace

TEST(PartitionLoops, RepeatedSubexpressionsOfADefinitionAreBoundInLets) {
    Var y;
    RDom r(0, 5);
    std::vector<Expr> e = squaring_chain(25, y, r);
    EXPECT_GT(tree_size(e[24]), uint64_t(100000000));
    Expr shared = share_repeated_subexpressions(e[24]);
    EXPECT_NE(shared.as<Let>(), nullptr) << shared;
    EXPECT_LT(tree_size(shared), uint64_t(500));
    // Small trees stay as written, and so do repeated calls.
    EXPECT_TRUE(share_repeated_subexpressions(e[3]).same_as(e[3]));
    Func f;
    f(y) = y;
    Expr call = f(y) * f(y);
    for (int i = 0; i < 14; i++) {
        call = call + call;
    }
    EXPECT_TRUE(share_repeated_subexpressions(call).same_as(call));
}

TEST(PartitionLoops, TwentyFiveNestedLikelyConditionsCompileQuicklyAndComputeTheRightSums) {
    // Upstream's likely test's "nasty" condition: 25 terms x * (i + 1) <
    // e[i], the e[i] squaring chains. Its tree (10^8 nodes) made every
    // pass exponential, and the bounds of the products the partitioner
    // took grew eightfold per term (N=8 took 17 s, N=10 over a minute).
    const int n = 25;
    Func g;
    Var x, y, c;
    RDom r(0, 5);
    std::vector<Expr> e = squaring_chain(n, y, r);
    Expr nasty = cast<bool>(1);
    for (int i = 0; i < n; i++) {
        nasty = nasty && (x * (i + 1) < e[i]);
    }
    g(c, x, y) = sum(select(nasty, likely(10), c + r));
    Buffer<int> out(2, 6, 6);
    out.set_min(0, -2, -2);
    g.realize(out);
    // The reference wraps as the pipeline's 32-bit arithmetic does.
    auto wrap = [](int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; };
    for (int yy = -2; yy < 4; yy++) {
        for (int xx = -2; xx < 4; xx++) {
            for (int cc = 0; cc < 2; cc++) {
                int expected = 0;
                for (int rr = 0; rr < 5; rr++) {
                    int32_t ei = yy;
                    bool all = true;
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            ei = wrap((int64_t)ei * ei + yy + rr);
                        }
                        all = all && (xx * (i + 1) < ei);
                    }
                    expected += all ? 10 : cc + rr;
                }
                ASSERT_EQ(out(cc, xx, yy), expected) << "c=" << cc << " x=" << xx << " y=" << yy;
            }
        }
    }
}
