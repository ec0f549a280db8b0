// Loop partitioning's budget (lower/PartitionLoops.cpp): a loop whose body
// holds more loops than a partitioned tile row's is not partitioned, so
// that specializations, unrolled copies and deep nests do not multiply the
// code (a 2x4 output compiled for 20 s).
#include <gtest/gtest.h>

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

Expr clamped(const std::string &v, int hi) {
    return Max::make(Min::make(likely(Sub::make(var(v), 1)), hi), 0);
}

Stmt loop(const std::string &v, int extent, const Stmt &body) {
    return For::make(v, IntImm::make(Int(32), 0), IntImm::make(Int(32), extent), ForType::Serial, body);
}

// for (o, 0, 8) { side[o] = <clamp of o>; <inner> }
Stmt outer_around(const Stmt &inner) {
    return loop("o", 8, Block::make(Store::make("side", clamped("o", 4), var("o")), inner));
}

} // namespace

TEST(PartitionBudget, ALoopAroundAPartitionedRowIsPartitioned) {
    // The x loop splits in three (and a fast path: 4 loops); o, with its
    // own clamp, splits around it.
    Stmt row = loop("x", 16, Store::make("out", Load::make(Int(32), "in", clamped("x", 9)), var("x")));
    std::string text = printed(simplify(partition_loops(outer_around(row))));
    EXPECT_EQ(count(text, "for (o, "), 3) << text;
}

TEST(PartitionBudget, ALoopAroundAPartitionedNestIsNot) {
    // y and x both clamped: y splits in three, each with the x loop in
    // three (12 loops). o's clamp stays: splitting o would copy them twice.
    Expr index = Add::make(clamped("x", 9), Mul::make(clamped("y", 5), 16));
    Stmt nest = loop("y", 8, loop("x", 16, Store::make("out", Load::make(Int(32), "in", index), var("x"))));
    std::string text = printed(simplify(partition_loops(outer_around(nest))));
    EXPECT_EQ(count(text, "for (o, "), 1) << text;
    EXPECT_EQ(count(text, "for (y, "), 3) << text;
    EXPECT_EQ(count(text, "for (x, "), 9) << text;
    EXPECT_EQ(count(text, "max(min(likely((o + -1)), 4), 0)"), 1) << text;
    // Partition::Always partitions it all the same.
    text = printed(simplify(partition_loops(outer_around(nest), {{"o", Partition::Always}})));
    EXPECT_EQ(count(text, "for (o, "), 3) << text;
}

TEST(PartitionBudget, UnrolledSpecializedStagesStaySmall) {
    // Differential seed 2, pipeline 166: mirror boundary conditions,
    // likely_if_innermost, GuardWithIf and predicated tails, specializations
    // that unroll, on a 2x4 output. Every level of f2's unrolled nests was
    // partitioned: 403 loops after lowering (upstream Halide 21: 129), 20 s
    // to compile.
    Buffer<float> in_f32(448, 448);
    Buffer<int16_t> in_i16(448, 448);
    Buffer<uint16_t> in_u16_0(448, 448), in_u16_1(448, 448);
    Buffer<uint32_t> in_u32(448, 448);
    Var x("x"), y("y");
    Func f0("f0"), f1("f1"), f2("f2"), f3("f3"), f4("f4");
    Func bc_f32 = BoundaryConditions::mirror_image(in_f32, {{195, 2}, {195, 4}});
    Func bc_u16 = BoundaryConditions::mirror_interior(in_u16_1, {{192, 3}, {193, 2}});
    f0(x, y) = Expr((int16_t)-2);
    f1(x, y) = min(min(cast<uint16_t>(in_u16_0(x + 190, y + 192) <= Expr((uint16_t)1)), Expr((uint16_t)16961)),
                   (cast<uint16_t>(f0(x + 1, y + 1)) - Expr((uint16_t)65534)) -
                       mux(in_i16(x + 190, y + 192) % Expr((int16_t)5),
                           {Expr((uint16_t)17), in_u16_0(x + 194, y + 194), bc_u16(x + 192, y + 193)})) *
               cast<uint16_t>(bc_f32(x + 192, y + 190) < cast<float>(x) + -2);
    f2(x, y) =
        clamp(select(in_i16(x + 192, y + 194) > Expr((int16_t)-1), cast<float>(f0(x - 1, y)), bc_f32(x + 192, y + 192)),
              min(cast<float>(x), Expr(1.0f)), cast<float>(cast<uint32_t>(f1(x - 2, y + 2))));
    f3(x, y) = clamp(likely_if_innermost(cast<uint32_t>(clamp(f2(x, y), 0.0f, 1.07374182e+09f)) - Expr((uint8_t)100)),
                     Expr(3U), Expr(4294967294U)) %
               Expr(7U);
    f4(x, y) = ((Expr((uint8_t)7) >> cast<uint8_t>(f3(x - 1, y))) - ConciseCasts::u8(Expr((uint16_t)8985))) ^ 127;

    Var o1("o1"), i2("i2"), o3("o3"), i4("i4"), xi3("xi3"), yi3("yi3"), xo3("xo3"), yo3("yo3");
    Var xi2("xi2"), yi2("yi2"), xo2("xo2"), yo2("yo2"), xi0("xi0"), yi0("yi0");
    f4.split(x, o1, i2, 8, TailStrategy::GuardWithIf);
    f4.split(y, o3, i4, 3, TailStrategy::ShiftInwardsAndBlend);
    f4.vectorize(i4);
    f3.tile(x, y, xo3, yo3, xi3, yi3, 8, 2, TailStrategy::Auto);
    f3.reorder(yi3, xi3, yo3, xo3);
    f3.compute_at(f4, o3);
    f2.tile(x, y, xo2, yo2, xi2, yi2, 2, 3, TailStrategy::ShiftInwards);
    f2.unroll(yo2, 3, TailStrategy::PredicateStores);
    f2.compute_root();
    f1.vectorize(y, 3, TailStrategy::GuardWithIf);
    f1.compute_at(f2, xi2);
    f0.tile(x, y, xi0, yi0, 2, 3, TailStrategy::GuardWithIf);
    f0.reorder(xi0, x, y, yi0);
    f0.compute_root();
    f0.specialize(f4.output_buffer().height() >= 3).unroll(xi0, 2, TailStrategy::GuardWithIf);
    f2.specialize(f4.output_buffer().width() >= 1).unroll(yo2, 2, TailStrategy::ShiftInwards);
    f3.specialize(f4.output_buffer().width() >= 1).unroll(yi3, 2, TailStrategy::Auto);
    f4.specialize(f4.output_buffer().height() >= 1).unroll(o3, 3, TailStrategy::GuardWithIf);

    std::string text = lowered(f4, {}, "partition_budget_k166");
    EXPECT_LE(count(text, "for ("), 240) << "loops after lowering";
}
