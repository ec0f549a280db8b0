// Tail strategies (TailStrategy, Func.h), the predication of vectorized
// tails (VectorizeLoops.cpp), the partitioning of GuardWithIf tails and
// likely_if_innermost (PartitionLoops.cpp): before/after IR of the passes,
// results against plain C++ at widths that are and are not multiples of
// the vector width, upstream's errors, and the masked instructions in the
// assembly of a predicated tail.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// for (xo, 0, (n + 7) / 8) for (xi, 0, 8, <inner>) if (likely(xo * 8 + xi < n)) out[xo * 8 + xi] = in[...] * 2
Stmt guarded_tail(ForType inner) {
    Expr x = Add::make(Mul::make(var("xo"), i32(8)), var("xi"));
    Stmt store = Store::make("out", Mul::make(Load::make(Int(32), "in", x), i32(2)), x);
    Stmt guarded = IfThenElse::make(likely(LT::make(x, var("n"))), store);
    Stmt inner_loop = For::make("xi", i32(0), i32(8), inner, guarded);
    return For::make("xo", i32(0), Div::make(Add::make(var("n"), i32(7)), i32(8)), ForType::Serial, inner_loop);
}

std::string file_text(const std::string &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

const std::vector<TailStrategy> all_tails = {TailStrategy::RoundUp,
                                             TailStrategy::GuardWithIf,
                                             TailStrategy::Predicate,
                                             TailStrategy::PredicateLoads,
                                             TailStrategy::PredicateStores,
                                             TailStrategy::ShiftInwards,
                                             TailStrategy::ShiftInwardsAndBlend,
                                             TailStrategy::RoundUpAndBlend,
                                             TailStrategy::Auto};

const char *tail_name(TailStrategy t) {
    const char *names[] = {"RoundUp",
                           "GuardWithIf",
                           "Predicate",
                           "PredicateLoads",
                           "PredicateStores",
                           "ShiftInwards",
                           "ShiftInwardsAndBlend",
                           "RoundUpAndBlend",
                           "Auto"};
    return names[(int)t];
}

} // namespace

// --- IR before/after ---------------------------------------------------

TEST(TailStrategies, GuardWithIfTailIsPartitionedOff) {
    Stmt before = guarded_tail(ForType::Vectorized);
    std::string text = printed(simplify(partition_loops(before, {})));
    // Steady state (the guard holds for every xi) runs without the if; the
    // prologue is empty and the epilogue keeps the guard.
    EXPECT_EQ(count(text, "for (xo, "), 3) << text;
    EXPECT_EQ(count(text, "if ("), 2) << text; // prologue and epilogue only
    EXPECT_NE(text.find("xo.steady"), std::string::npos) << text;
}

TEST(TailStrategies, VectorGuardBecomesMaskedLoadsAndStores) {
    Stmt before = For::make("xi", i32(0), i32(8), ForType::Vectorized,
                            IfThenElse::make(likely(LT::make(var("xi"), var("n"))),
                                             Store::make("out", Load::make(Int(32), "in", var("xi")), var("xi"))));
    std::string text = printed(vectorize_loops(before));
    // if (all lanes pass) the plain vector, else the same masked.
    EXPECT_EQ(count(text, "masked_load("), 1) << text;
    EXPECT_EQ(count(text, "masked_store("), 1) << text;
    EXPECT_EQ(count(text, "for ("), 0) << text; // no lane-by-lane loop
    EXPECT_NE(text.find("out[ramp(xi, 1, 8)] = in[ramp(xi, 1, 8)]"), std::string::npos) << text;
}

TEST(TailStrategies, PerLaneConditionWithElseIsMaskedBothWays) {
    Expr x = var("x");
    Stmt body = IfThenElse::make(EQ::make(Mod::make(x, i32(2)), i32(0)), Store::make("out", i32(1), x),
                                 Store::make("out", Load::make(Int(32), "in", x), x));
    std::string text = printed(vectorize_loops(For::make("x", i32(0), i32(8), ForType::Vectorized, body)));
    EXPECT_EQ(count(text, "masked_store("), 2) << text;
    EXPECT_EQ(count(text, "masked_load("), 1) << text;
    EXPECT_EQ(count(text, "for ("), 0) << text;
}

TEST(TailStrategies, LikelyIfInnermostPartitionsOnlyTheInnermostLoop) {
    // in[max(min(likely_if_innermost(x - 1), 49), 0) + y] in x (inner) and y.
    auto nest = [](const Expr &index) {
        Stmt store = Store::make("out", Load::make(Int(32), "in", index), var("x"));
        Stmt inner = For::make("x", i32(0), i32(100), ForType::Serial, store);
        return For::make("y", i32(0), i32(100), ForType::Serial, inner);
    };
    Expr on_x = Max::make(Min::make(likely_if_innermost(Sub::make(var("x"), 1)), 49), 0);
    std::string text = printed(simplify(partition_loops(nest(on_x), {})));
    EXPECT_EQ(count(text, "for (x, "), 3) << text;
    EXPECT_EQ(count(text, "for (y, "), 1) << text;
    // A clamp on y marked likely_if_innermost: y is not innermost, nothing splits.
    Expr on_y = Max::make(Min::make(likely_if_innermost(var("y")), 49), 0);
    text = printed(simplify(partition_loops(nest(on_y), {})));
    EXPECT_EQ(count(text, "for (y, "), 1) << text;
    EXPECT_EQ(count(text, "for (x, "), 1) << text;
    // The same with likely: y is partitioned.
    Expr on_y_likely = Max::make(Min::make(likely(var("y")), 49), 0);
    text = printed(simplify(partition_loops(nest(on_y_likely), {})));
    EXPECT_EQ(count(text, "for (y, "), 2) << text; // steady [0, 49] and epilogue (no prologue)
}

TEST(TailStrategies, ShiftInwardsTailIsPartitionedOffTheInnermostLoop) {
    // out(x, y) = in(x, y) * 2 + 1, x split by 16 (ShiftInwards) and
    // vectorized. The split's base, min(likely_if_innermost(xo * 16 + min),
    // max - 15), as upstream marks it: before partitioning every vector
    // stores through that min; after it, the steady state of the innermost
    // loop xo stores at xo * 16 + min and only the epilogue (the shifted
    // last vector) keeps the min. The y loop around it is not split.
    ImageParam in(Int(32), 2, "in");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    auto pipeline = [&](bool partition) {
        Func out("out");
        out(x, y) = in(x, y) * 2 + 1;
        out.split(x, xo, xi, 16, TailStrategy::ShiftInwards).vectorize(xi);
        if (!partition) {
            out.partition(xo, Partition::Never);
        }
        return out;
    };
    std::string before = lowered(pipeline(false), {in}, "shift_inwards_before");
    std::string after = lowered(pipeline(true), {in}, "shift_inwards_after");
    EXPECT_EQ(count(before, "for (out.s0.xo, "), 1) << before;
    EXPECT_EQ(count(before, "min(likely_if_innermost("), 2) << before; // the store's index and the load's
    EXPECT_EQ(count(after, "for (out.s0.xo, "), 2) << after;           // steady and epilogue (no prologue)
    EXPECT_EQ(count(after, "min(likely_if_innermost("), 2) << after;   // the epilogue's
    EXPECT_EQ(count(after, "for (out.s0.y, "), 1) << after;
    size_t steady = after.find("for (out.s0.xo, 0, (out.s0.xo.steady_max + 1))");
    ASSERT_NE(steady, std::string::npos) << after;
    size_t epilogue = after.find("for (out.s0.xo, ", steady + 1);
    ASSERT_NE(epilogue, std::string::npos) << after;
    EXPECT_EQ(after.substr(steady, epilogue - steady).find("min("), std::string::npos) << after;
    EXPECT_EQ(count(after.substr(epilogue), "min(likely_if_innermost("), 2) << after;

    // Values against C++ at widths from one vector to several with tails.
    for (int width : {16, 17, 31, 32, 45, 64}) {
        Buffer<int32_t> input = ramp_input(width, 3);
        in.set(input);
        Buffer<int32_t> result = pipeline(true).realize({width, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < width; i++) {
                ASSERT_EQ(result(i, j), input(i, j) * 2 + 1) << "width " << width << " at " << i << ", " << j;
            }
        }
    }
}

// --- Results against C++ -----------------------------------------------

// out(x) = in(x) * 3 + 1 vectorized by 8 with each tail, widths 16 and 19.
TEST(TailStrategies, PureOutputEveryStrategyMatchesCpp) {
    for (int width : {16, 19, 24, 27}) {
        Buffer<int32_t> in(32);
        for (int i = 0; i < 32; i++) {
            in(i) = i * 7 - 40;
        }
        for (TailStrategy t : all_tails) {
            Var x("x");
            Func f("f");
            f(x) = in(x)*3 + 1;
            f.vectorize(x, 8, t);
            bool multiple = width % 8 == 0;
            bool rounds_up =
                t == TailStrategy::RoundUp || t == TailStrategy::RoundUpAndBlend || t == TailStrategy::PredicateLoads;
            Buffer<int32_t> out(width);
            if (rounds_up && !multiple) {
                // The output must be a multiple of the factor wide (as upstream, an error at run time).
                EXPECT_THROW(f.realize(out), RuntimeError) << tail_name(t);
                continue;
            }
            f.realize(out);
            for (int i = 0; i < width; i++) {
                ASSERT_EQ(out(i), in(i)*3 + 1) << tail_name(t) << " width " << width << " x " << i;
            }
        }
    }
}

// A producer vectorized with each tail, consumed by a stencil.
TEST(TailStrategies, ProducerEveryStrategyMatchesCpp) {
    for (int width : {16, 21}) {
        Buffer<int32_t> in = ramp_input(width + 2, 3);
        for (TailStrategy t : all_tails) {
            Var x("x"), y("y");
            Func g("g"), f("f");
            g(x, y) = in(x, y) * 2;
            f(x, y) = g(x, y) + g(x + 2, y);
            g.compute_root().vectorize(x, 8, t);
            f.vectorize(x, 4, TailStrategy::GuardWithIf);
            Buffer<int32_t> out = f.realize({width, 3});
            for (int j = 0; j < 3; j++) {
                for (int i = 0; i < width; i++) {
                    ASSERT_EQ(out(i, j), in(i, j) * 2 + in(i + 2, j) * 2) << tail_name(t) << " width " << width;
                }
            }
        }
    }
}

// An update vectorized with the strategies legal there.
TEST(TailStrategies, UpdateStrategiesMatchCpp) {
    for (int width : {16, 13}) {
        for (TailStrategy t : {TailStrategy::GuardWithIf, TailStrategy::Predicate, TailStrategy::PredicateStores,
                               TailStrategy::PredicateLoads, TailStrategy::ShiftInwardsAndBlend,
                               TailStrategy::RoundUpAndBlend, TailStrategy::Auto}) {
            Var x("x");
            Func f("f");
            f(x) = x * 5;
            f(x) += 1; // adding twice would show
            f.update(0).vectorize(x, 8, t);
            Buffer<int32_t> out = f.realize({width});
            for (int i = 0; i < width; i++) {
                ASSERT_EQ(out(i), i * 5 + 1) << tail_name(t) << " width " << width;
            }
        }
    }
}

// An RVar vectorized with Predicate: a histogram-free sum over r, masked.
TEST(TailStrategies, PredicatedRVarMatchesCpp) {
    Buffer<int32_t> in(30);
    for (int i = 0; i < 30; i++) {
        in(i) = i * i - 7;
    }
    Var x("x");
    RDom r(0, 19);
    Func f("f");
    f(x) = 0;
    f(r) = in(r)*2;
    f.update(0).vectorize(r, 8, TailStrategy::Predicate);
    Buffer<int32_t> out = f.realize({24});
    for (int i = 0; i < 24; i++) {
        ASSERT_EQ(out(i), i < 19 ? in(i)*2 : 0) << i;
    }
}

// Per-lane conditions (RDom::where) in a vectorized loop become masks, and
// the results stay right.
TEST(TailStrategies, WhereConditionInVectorizedUpdateMatchesCpp) {
    Var x("x");
    RDom r(0, 20);
    r.where(r.x % 3 != 1);
    Func f("f");
    f(x) = -1;
    f(r) = r * 10;
    f.update(0).vectorize(r, 8, TailStrategy::GuardWithIf);
    Buffer<int32_t> out = f.realize({24});
    for (int i = 0; i < 24; i++) {
        ASSERT_EQ(out(i), i < 20 && i % 3 != 1 ? i * 10 : -1) << i;
    }
}

// A per-lane where condition inside a GuardWithIf tail: the loads under
// both conditions carry one mask, the two conditions and-ed (a Call node
// taken for an Expr once made the inner mask a second, nested masked_load).
TEST(TailStrategies, WhereInsideGuardedVectorTailMatchesCpp) {
    Var x("x");
    RDom r(-2, 4);
    r.where(r.x != x % 3);
    Func g("g"), f("f");
    g(x) = cast<int8_t>(x * 7 - 20);
    f(x) = cast<uint8_t>(x + 100);
    f(x) = min(f(x), cast<uint8_t>(clamp(cast<double>(g(x + r.x)), 0.0, 128.0)));
    f.update(0).vectorize(x, 8, TailStrategy::GuardWithIf);
    g.compute_root();
    const int n = 21;
    Buffer<uint8_t> out = f.realize({n});
    for (int i = 0; i < n; i++) {
        int v = i + 100;
        for (int k = -2; k < 2; k++) {
            if (k != i % 3) {
                v = std::min(v, std::max(0, std::min(128, (int)(int8_t)((i + k) * 7 - 20))));
            }
        }
        ASSERT_EQ(out(i), v) << i;
    }
}

// Narrow types (no native masked move for bytes on AVX2) stay correct.
TEST(TailStrategies, PredicatedBytesMatchCpp) {
    Buffer<uint8_t> in(50);
    for (int i = 0; i < 50; i++) {
        in(i) = (uint8_t)(i * 13);
    }
    Var x("x");
    Func f("f");
    f(x) = in(x) + (uint8_t)3;
    f.vectorize(x, 32, TailStrategy::Predicate);
    Buffer<uint8_t> out = f.realize({45});
    for (int i = 0; i < 45; i++) {
        ASSERT_EQ(out(i), (uint8_t)(in(i) + 3)) << i;
    }
}

TEST(TailStrategies, LikelyIfInnermostClampMatchesCpp) {
    Buffer<int32_t> in = ramp_input(20, 4);
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = in(clamp(likely_if_innermost(x - 1), 0, 19), y) + in(clamp(likely_if_innermost(x + 1), 0, 19), y);
    f.vectorize(x, 4, TailStrategy::GuardWithIf);
    Buffer<int32_t> out = f.realize({20, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 20; i++) {
            ASSERT_EQ(out(i, j), in(clampi(i - 1, 0, 19), j) + in(clampi(i + 1, 0, 19), j)) << i << "," << j;
        }
    }
    std::string text = lowered(f, {}, "likely_if_innermost");
    EXPECT_NE(text.find("f.s0.x$o.steady"), std::string::npos) << text;
    EXPECT_EQ(text.find("f.s0.y.steady"), std::string::npos) << text;
}

// --- Upstream's errors ------------------------------------------------------

namespace {
std::string error_of(const std::function<void()> &f) {
    try {
        f();
    } catch (const CompileError &e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(TailStrategies, IllegalUsesAreUpstreamsErrors) {
    Var x("x"), xo("xo"), xi("xi"), xii("xii");
    for (TailStrategy t : {TailStrategy::PredicateLoads, TailStrategy::PredicateStores,
                           TailStrategy::ShiftInwardsAndBlend, TailStrategy::RoundUpAndBlend}) {
        Func f("f");
        RDom r(0, 10);
        f(x) = 0;
        f(r) += r;
        RVar ro("ro"), ri("ri");
        std::string e = error_of([&] {
            f.update(0).split(r.x, ro, ri, 4, t);
            f.realize({12});
        });
        EXPECT_NE(e.find("the tail strategy must be GuardWithIf, Predicate, or Auto"), std::string::npos)
            << tail_name(t) << ": " << e;
    }
    {
        Func f("f");
        f(x) = x;
        std::string e = error_of([&] {
            f.split(x, xo, xi, 8, TailStrategy::PredicateLoads).split(xi, xi, xii, 2);
            f.realize({16});
        });
        EXPECT_NE(e.find("Cannot split a loop variable resulting from a split using PredicateLoads or "
                         "PredicateStores"),
                  std::string::npos)
            << e;
    }
    {
        // The outer half of a split of an inner Var still stems from it.
        Var xio("xio"), xioo("xioo"), xioi("xioi");
        Func f("f");
        f(x) = x;
        std::string e = error_of([&] {
            f.split(x, xo, xi, 8).split(xi, xio, xii, 2).split(xio, xioo, xioi, 2, TailStrategy::PredicateLoads);
            f.realize({16});
        });
        EXPECT_NE(e.find("PredicateLoads may not be used to split a Var stemming from the inner Var of a prior split"),
                  std::string::npos)
            << e;
    }
    {
        // PredicateStores may (upstream's check is of PredicateLoads only).
        Func f("f");
        f(x) = x * 3;
        f.split(x, xo, xi, 8).split(xi, xi, xii, 3, TailStrategy::PredicateStores);
        Buffer<int> out = f.realize({13});
        for (int i = 0; i < 13; i++) {
            EXPECT_EQ(out(i), i * 3) << i;
        }
    }
    {
        Func f("f");
        f(x) = x;
        f(x) += 1;
        std::string e = error_of([&] {
            f.update(0).split(x, xo, xi, 4, TailStrategy::RoundUpAndBlend).parallel(xo);
            f.realize({16});
        });
        EXPECT_NE(e.find("Tail strategy RoundUpAndBlend may not be used to split"), std::string::npos) << e;
        EXPECT_NE(e.find("race condition"), std::string::npos) << e;
    }
}

// --- The assembly of a predicated tail ---------------------------------------

TEST(TailStrategies, PredicatedTailUsesMaskedInstructions) {
    Target host = get_host_target();
    if (!host.has_feature(Target::AVX2)) {
        GTEST_SKIP() << "no AVX2 on this host";
    }
    ImageParam in(Float(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(x)*2.0f + 1.0f;
    f.vectorize(x, 8, TailStrategy::Predicate);
    std::string path = ::testing::TempDir() + "predicated_tail.s";
    f.compile_to_assembly(path, {in}, "predicated_tail", host);
    std::string text = file_text(path);
    if (host.has_feature(Target::AVX512_Skylake) || host.has_feature(Target::AVX512)) {
        // AVX-512: moves under a mask register, e.g. vmovups (...), %ymm0 {%k1} {z}.
        EXPECT_NE(text.find("{%k"), std::string::npos) << text;
    } else {
        EXPECT_NE(text.find("vmaskmovps"), std::string::npos) << text;
    }
}
