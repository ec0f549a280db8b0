// Func::tile and Stage::tile over any number of loops (upstream's vector
// forms), and Func's loop directives taking VarOrRVar and Expr factors as
// upstream's do. Loop orders are read with dump_argument_list; values are
// checked against plain C++.
#include <gtest/gtest.h>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

int value_at(int x, int y, int z) {
    return x + 10 * y + 100 * z;
}

void expect_values(const Buffer<int> &b) {
    for (int z = 0; z < b.channels(); z++) {
        for (int y = 0; y < b.height(); y++) {
            for (int x = 0; x < b.width(); x++) {
                ASSERT_EQ(b(x, y, z), value_at(x, y, z)) << "at " << x << ", " << y << ", " << z;
            }
        }
    }
}

} // namespace

TEST(TileN, SplitsEveryLoopAndPutsTheInnerLoopsInnermost) {
    Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), zo("zo"), xi("xi"), yi("yi"), zi("zi");
    Func f("f");
    f(x, y, z) = x + 10 * y + 100 * z;
    f.tile({x, y, z}, {xo, yo, zo}, {xi, yi, zi}, {4, 3, 2});
    EXPECT_EQ(Stage(f).dump_argument_list(), "Vars: xi yi zi xo yo zo __outermost\n");
    expect_values(f.realize({9, 7, 5}));
}

TEST(TileN, WithoutOutersKeepsThePreviousNamesOutside) {
    Var x("x"), y("y"), z("z"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y, z) = x + 10 * y + 100 * z;
    f.tile({x, y}, {xi, yi}, {8, 2}, TailStrategy::GuardWithIf);
    EXPECT_EQ(Stage(f).dump_argument_list(), "Vars: xi yi x y z __outermost\n");
    expect_values(f.realize({13, 5, 2}));
}

TEST(TileN, TakesATailStrategyPerLoop) {
    Var x("x"), y("y"), z("z"), xo("xo"), yo("yo"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y, z) = x + 10 * y + 100 * z;
    f.tile({x, y}, {xo, yo}, {xi, yi}, {4, 4}, {TailStrategy::GuardWithIf, TailStrategy::ShiftInwards});
    expect_values(f.realize({10, 11, 1}));
}

TEST(TileN, OfAnUpdateTilesItsReductionLoops) {
    Var x("x"), y("y");
    RVar rxo("rxo"), ryo("ryo"), rxi("rxi"), ryi("ryi");
    RDom r(0, 12, 0, 10);
    Func f("f");
    f(x, y) = 0;
    f(r.x, r.y) += r.x + 10 * r.y;
    f.update(0).tile({r.x, r.y}, {rxo, ryo}, {rxi, ryi}, {4, 5});
    EXPECT_EQ(f.update(0).dump_argument_list(), "Vars: rxi ryi rxo ryo __outermost\n");
    Buffer<int> out = f.realize({12, 10});
    for (int y = 0; y < 10; y++) {
        for (int x = 0; x < 12; x++) {
            ASSERT_EQ(out(x, y), x + 10 * y);
        }
    }
}

TEST(TileN, VectorsOfDifferentLengthsAreAnError) {
    Var x("x"), y("y"), xi("xi"), yi("yi");
    Func f("f");
    f(x, y) = x + y;
    EXPECT_EQ(message_of([&] {
                  f.tile({x, y}, {xi}, {4, 4});
              }),
              "Vectors passed to Stage::tile must all be the same length.");
}

TEST(FuncLoops, TakeExprFactorsAndVarOrRVars) {
    Var x("x"), y("y"), z("z"), yo("yo"), yi("yi");
    Func f("f");
    f(x, y, z) = x + 10 * y + 100 * z;
    Expr eight = 8;
    f.split(VarOrRVar(y), yo, yi, Expr(2)).vectorize(x, eight).unroll(yi, Expr(2)).serial(z);
    // vectorize and unroll by a factor split off the inner loops they run.
    EXPECT_EQ(Stage(f).dump_argument_list(), "Vars: x_vec x yi_unroll yi yo z __outermost\n");
    expect_values(f.realize({16, 6, 3}));
}
