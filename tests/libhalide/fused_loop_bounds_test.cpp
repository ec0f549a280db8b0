// A Func computed at a fused loop (fuse() of two split halves, of RVars or
// pure Vars) is computed, at each iteration of that loop, over exactly the
// points that iteration reads: the fused loop's coordinate divided and taken
// modulo the inner extent is one value there, not the whole range of the
// halves (analysis/Interval.cpp). An impure extern call counts the points
// computed; the counts and values are worked out here in plain C++.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <vector>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "analysis/Interval.h"
#include "ir/Substitute.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {
int calls = 0;
} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int fused_loop_bounds_count(int x) {
    (void)x;
    return calls++;
}
HalideExtern_1(int, fused_loop_bounds_count, int);

// Counts its calls too, and returns its argument.
extern "C" HALIDE_EXPORT_SYMBOL int fused_loop_bounds_id(int x) {
    calls++;
    return x;
}
HalideExtern_1(int, fused_loop_bounds_id, int);

namespace {

std::optional<int64_t> folded(const Expr &e, int64_t x_value) {
    Expr s = simplify(substitute({{"x", IntImm::make(Int(32), x_value)}}, e));
    const IntImm *i = s.as<IntImm>();
    return i ? std::optional<int64_t>(i->value) : std::nullopt;
}

TEST(FusedLoopBounds, DivAndModOfOnePointAreOnePoint) {
    Expr x = Variable::make(Int(32), "x");                  // a symbol: one value
    Expr inner_extent = (IntImm::make(Int(32), 4) + 1) / 2; // 2, not folded yet
    for (const Expr &e : {x % inner_extent, x / inner_extent}) {
        Interval i = bounds_of_expr(e, {});
        ASSERT_TRUE(i.is_bounded()) << e;
        for (int64_t v : {-3, 0, 7, 10}) {
            int64_t want = e.as<Mod>() ? ((v % 2) + 2) % 2 : (v >= 0 ? v / 2 : -((-v + 1) / 2));
            EXPECT_EQ(folded(i.min, v), want) << e << " at x = " << v;
            EXPECT_EQ(folded(i.max, v), want) << e << " at x = " << v;
        }
    }
    // Over a symbolic divisor (a fused loop of pure Vars), one value too.
    for (const Expr &e : {x % Variable::make(Int(32), "n"), x / Variable::make(Int(32), "n")}) {
        Interval sym = bounds_of_expr(e, {});
        ASSERT_TRUE(sym.is_bounded()) << e;
        EXPECT_TRUE(sym.min.same_as(sym.max)) << e;
    }
    // A range of values still covers [0, divisor - 1].
    Interval ranged = bounds_of_expr(x % inner_extent, {{"x", {IntImm::make(Int(32), 0), IntImm::make(Int(32), 9)}}});
    EXPECT_EQ(folded(ranged.min, 0), 0);
    EXPECT_EQ(folded(ranged.max, 0), 1);
}

// Upstream's compute_at_split_rvar cases: g(r) = f(r) over an RDom with f
// computed at a loop made from r; f must run once per point.
TEST(FusedLoopBounds, ComputeAtSplitRVarLoops) {
    struct Case {
        const char *name;
        int size;
        std::function<void(Func &, Func &, RDom &)> schedule;
        bool reordered;
    };
    std::vector<Case> cases = {
        {"inner", 10,
         [](Func &f, Func &g, RDom &r) {
             RVar ro, ri;
             g.update().split(r, ro, ri, 2);
             f.compute_at(g, ri);
         },
         false},
        {"outer unrolled", 10,
         [](Func &f, Func &g, RDom &r) {
             RVar ro, ri;
             g.update().split(r, ro, ri, 2);
             f.compute_at(g, ro).unroll(f.args()[0]);
         },
         false},
        {"reordered", 10,
         [](Func &f, Func &g, RDom &r) {
             RVar ro, ri;
             g.update().split(r, ro, ri, 2).reorder(ro, ri);
             f.compute_at(g, ro);
         },
         true},
        {"split twice and fused", 20,
         [](Func &f, Func &g, RDom &r) {
             RVar ro, ri, rio, rii, fused;
             g.update().split(r, ro, ri, 4).split(ri, rio, rii, 2).fuse(rio, ro, fused);
             f.compute_at(g, fused);
         },
         false},
        {"non-factor split", 10,
         [](Func &f, Func &g, RDom &r) {
             RVar ro, ri;
             g.update().split(r, ro, ri, 3);
             f.compute_at(g, ro);
         },
         false},
    };
    for (const Case &c : cases) {
        Func f("f"), g("g");
        Var x("x");
        RDom r(0, c.size);
        f(x) = fused_loop_bounds_count(x);
        g(x) = 0;
        g(r) = f(r);
        c.schedule(f, g, r);
        calls = 0;
        Buffer<int32_t> out = g.realize({c.size});
        EXPECT_EQ(calls, c.size) << c.name;
        for (int i = 0; i < c.size; i++) {
            // Reordered, the even points come first: f's n-th call is point
            // 2n, then 2n + 1 after the first half.
            int want = c.reordered ? i / 2 + (i % 2 ? c.size / 2 : 0) : i;
            EXPECT_EQ(out(i), want) << c.name << " at " << i;
        }
    }
}

// Fused pure Vars: the inner extent is the output's (symbolic) extent.
TEST(FusedLoopBounds, ComputeAtFusedPureVars) {
    Var x("x"), y("y"), xo("xo"), xi("xi"), t("t");
    {
        Func f("f"), g("g");
        f(x, y) = fused_loop_bounds_id(x) + 10 * y;
        g(x, y) = f(x, y) + f(x + 1, y);
        g.split(x, xo, xi, 3).fuse(xo, y, t);
        f.compute_at(g, t);
        calls = 0;
        Buffer<int32_t> out = g.realize({9, 4});
        EXPECT_EQ(calls, 3 * 4 * 4); // each of 3 x 4 iterations: 3 points and one more
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 9; i++) {
                EXPECT_EQ(out(i, j), 2 * i + 1 + 20 * j) << i << ", " << j;
            }
        }
    }
    {
        Func f("f"), g("g");
        f(x, y) = fused_loop_bounds_id(x) - y;
        g(x, y) = f(x, y) * f(x, y + 1);
        g.fuse(x, y, t);
        f.compute_at(g, t);
        calls = 0;
        Buffer<int32_t> out = g.realize({5, 4});
        EXPECT_EQ(calls, 5 * 4 * 2); // one point, two rows, per iteration
        for (int j = 0; j < 4; j++) {
            for (int i = 0; i < 5; i++) {
                EXPECT_EQ(out(i, j), (i - j) * (i - j - 1)) << i << ", " << j;
            }
        }
    }
}

} // namespace
