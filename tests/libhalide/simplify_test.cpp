// The simplifier's bounds reasoning: targeted cases, and a differential test
// that simplifies random index expressions inside loops, Lets and asserts
// and checks the result against the original at every point of the domain.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>

#include "Halide.h"
#include "Halide/IREquality.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "ir_build.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The expression stored by the (single) Store in s.
class FindStore : public IRVisitor {
public:
    Expr value;
    using IRVisitor::visit;
    void visit(const Store *op) override { value = op->value; }
};
Expr stored(const Stmt &s) {
    FindStore f;
    f.include(s);
    return f.value;
}

// for (x, 0, x_extent) { out[0] = e }, simplified; returns the new e.
Expr simplify_in_loop(const Expr &e, int x_extent) {
    Stmt s = For::make("x", i32(0), i32(x_extent), ForType::Serial, Store::make("out", e, i32(0)));
    return stored(simplify(s));
}

// Evaluates integer expressions (int32 semantics without overflow, which the
// generator below avoids by keeping values small).
int64_t eval(const Expr &e, std::map<std::string, int64_t> &env) {
    auto bin = [&](const Expr &a, const Expr &b, const std::function<int64_t(int64_t, int64_t)> &f) {
        return f(eval(a, env), eval(b, env));
    };
    if (const IntImm *op = e.as<IntImm>()) {
        return op->value;
    }
    if (const UIntImm *op = e.as<UIntImm>()) {
        return (int64_t)op->value;
    }
    if (const Variable *op = e.as<Variable>()) {
        return env.at(op->name);
    }
    if (const Add *op = e.as<Add>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return a + b; });
    }
    if (const Sub *op = e.as<Sub>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return a - b; });
    }
    if (const Mul *op = e.as<Mul>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return a * b; });
    }
    if (const Div *op = e.as<Div>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) {
            int64_t q = a / b;
            return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
        });
    }
    if (const Min *op = e.as<Min>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return std::min(a, b); });
    }
    if (const Max *op = e.as<Max>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return std::max(a, b); });
    }
    if (const LT *op = e.as<LT>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return int64_t(a < b); });
    }
    if (const LE *op = e.as<LE>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return int64_t(a <= b); });
    }
    if (const GT *op = e.as<GT>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return int64_t(a > b); });
    }
    if (const GE *op = e.as<GE>()) {
        return bin(op->a, op->b, [](int64_t a, int64_t b) { return int64_t(a >= b); });
    }
    if (const Select *op = e.as<Select>()) {
        return eval(op->condition, env) ? eval(op->true_value, env) : eval(op->false_value, env);
    }
    ADD_FAILURE() << "eval: unexpected node " << e;
    return 0;
}

} // namespace

TEST(SimplifyBounds, LoopRangeRemovesARedundantMin) {
    Expr x = var("x");
    EXPECT_TRUE(equal(simplify_in_loop(min(x * 8, 248), 32), x * 8));
    EXPECT_TRUE(equal(simplify_in_loop(max(x * 8, 0), 32), x * 8));
    // One more iteration and the min matters.
    Expr kept = simplify_in_loop(min(x * 8, 248), 33);
    EXPECT_TRUE(kept.as<Min>()) << kept;
}

TEST(SimplifyBounds, ComparisonsDecidedByTheLoopRange) {
    Expr x = var("x");
    EXPECT_TRUE(is_const_one(simplify_in_loop(select(x < 10, 1, 0), 10)));
    EXPECT_TRUE(is_const_zero(simplify_in_loop(select(x >= 10, 1, 0), 10)));
    Expr kept = simplify_in_loop(select(x < 9, 1, 0), 10);
    EXPECT_TRUE(kept.as<Select>()) << kept;
}

// A guard proven to hold (or fail) inside likely() goes, as a plain constant
// condition does; an undecided one keeps its likely() for loop partitioning.
TEST(SimplifyBounds, LikelyGuardsDecidedByTheLoopRangeGo) {
    Expr x = var("x");
    Stmt store = Store::make("out", x, i32(0));
    Stmt other = Store::make("out", i32(-1), i32(0));
    auto in_loop = [&](const Expr &cond, int extent) {
        return simplify(For::make("x", i32(0), i32(extent), ForType::Serial, IfThenElse::make(cond, store, other)));
    };
    Stmt held = in_loop(likely(x < 10), 10);
    EXPECT_TRUE(equal(stored(held), x)) << held;
    EXPECT_FALSE(held.as<For>()->body.as<IfThenElse>()) << held;
    Stmt failed = in_loop(likely_if_innermost(x >= 10), 10);
    EXPECT_TRUE(is_const(stored(failed), -1)) << failed;
    Stmt kept = in_loop(likely(x < 9), 10);
    const IfThenElse *guard = kept.as<For>()->body.as<IfThenElse>();
    ASSERT_TRUE(guard) << kept;
    const Call *hint = guard->condition.as<Call>();
    ASSERT_TRUE(hint) << kept;
    EXPECT_EQ(hint->name, "likely");
}

// An assert's lower bound on a name holds for the statements after it.
TEST(SimplifyBounds, AssertedBoundsHoldAfterTheAssert) {
    Expr e = var("e"), o = var("o");
    Expr value = max(min(o * 256, e - 256), 0) + 1;
    Stmt body = For::make("o", i32(0), (e + 255) / 256, ForType::Serial, Store::make("out", value, i32(0)));
    Stmt checked = Block::make(AssertStmt::make(e >= 256, i32(-1)), body);
    Expr simplified = stored(simplify(checked));
    EXPECT_FALSE(simplified.as<Add>() && simplified.as<Add>()->a.as<Max>()) << simplified;
    // Without the assert the max stays.
    Expr unchecked = stored(simplify(body));
    ASSERT_TRUE(unchecked.as<Add>()) << unchecked;
    EXPECT_TRUE(unchecked.as<Add>()->a.as<Max>()) << unchecked;
}

// Let names are expanded: the extent of a region whose min and max differ
// by a constant folds to that constant.
TEST(SimplifyBounds, ConstantDifferenceThroughLets) {
    Expr a = var("a"), o = var("o");
    Expr lo = a + min(o * 16, 100);
    Stmt s = LetStmt::make(
        "r.min", lo, LetStmt::make("r.max", lo + 15, Store::make("out", (var("r.max") - var("r.min")) + 1, i32(0))));
    Expr e = stored(simplify(s));
    EXPECT_TRUE(equal(e, i32(16))) << e;
}

// Inside a loop the Lets' constant bounds are too loose to order a tile's
// min and its max minus 7 (x * 16 over the loop against x * 16 + 15 - 7):
// their definitions are expanded and cancel, so the min folds (a vectorized
// tile's region, and with it its allocation, becomes constant).
TEST(SimplifyBounds, LetsInsideALoopCancelWhenTheirBoundsDoNot) {
    Expr x = var("x"), lo = var("c.min"), hi = var("c.max");
    Stmt body = Store::make("out", min(lo, hi - 7), i32(0));
    Stmt s = For::make("x", i32(0), i32(64), ForType::Serial,
                       LetStmt::make("c.min", x * 16, LetStmt::make("c.max", x * 16 + 15, body)));
    Expr e = stored(simplify(s));
    EXPECT_TRUE(equal(e, lo)) << e;
    // With max - 17 the other side is the smaller: the min folds to it.
    Stmt other =
        For::make("x", i32(0), i32(64), ForType::Serial,
                  LetStmt::make("c.min", x * 16,
                                LetStmt::make("c.max", x * 16 + 15, Store::make("out", min(lo, hi - 17), i32(0)))));
    Expr f = stored(simplify(other));
    EXPECT_TRUE(!f.as<Min>() && !equal(f, lo)) << f;
}

// Random expressions over two loop variables, a Let and an asserted name;
// the simplified expression must agree with the original everywhere.
TEST(SimplifyBounds, RandomExpressionsKeepTheirValue) {
    uint64_t seed = 20261130;
    if (const char *s = std::getenv("HALIDE_TEST_SEED")) {
        seed = std::strtoull(s, nullptr, 10);
    }
    std::mt19937_64 rng(seed);
    std::printf("simplify_test seed %llu\n", (unsigned long long)seed);
    auto pick = [&](int n) { return (int)(rng() % (uint64_t)n); };
    std::function<Expr(int)> gen = [&](int depth) -> Expr {
        if (depth == 0 || pick(4) == 0) {
            switch (pick(5)) {
            case 0: return var("x");
            case 1: return var("y");
            case 2: return var("t");
            case 3: return var("z");
            default: return i32(pick(41) - 20);
            }
        }
        Expr a = gen(depth - 1), b = gen(depth - 1);
        switch (pick(8)) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * i32(pick(9) - 4);
        case 3: return min(a, b);
        case 4: return max(a, b);
        case 5: return select(a < b, a, b + i32(pick(5)));
        case 6: return a / i32(pick(4) + 1);
        default: return select(a >= b, b - a, a);
        }
    };
    int changed = 0;
    for (int iter = 0; iter < 3000; iter++) {
        int x_min = pick(11) - 5, x_ext = pick(6) + 1, y_ext = pick(5) + 1, z_lo = pick(21) - 10;
        Expr e = gen(4), t_def = gen(2);
        // t = t_def, defined outside the loops (so it uses only z).
        t_def = substitute({{"x", var("z")}, {"y", i32(3)}, {"t", i32(1)}}, t_def);
        Stmt inner = For::make("y", var("x"), i32(y_ext), ForType::Serial, Store::make("out", e, i32(0)));
        Stmt loops = For::make("x", i32(x_min), i32(x_ext), ForType::Serial, inner);
        Stmt s = Block::make(AssertStmt::make(var("z") >= i32(z_lo), i32(-1)), LetStmt::make("t", t_def, loops));
        Expr simplified = stored(simplify(s));
        ASSERT_TRUE(simplified.defined()) << e;
        changed += !equal(simplified, e);
        for (int z = z_lo; z < z_lo + 4; z++) {
            std::map<std::string, int64_t> env{{"z", z}};
            env["t"] = eval(t_def, env);
            for (int x = x_min; x < x_min + x_ext; x++) {
                for (int y = x; y < x + y_ext; y++) {
                    env["x"] = x;
                    env["y"] = y;
                    ASSERT_EQ(eval(simplified, env), eval(e, env))
                        << "seed " << seed << " case " << iter << "\n  " << e << "\n  simplified to " << simplified
                        << "\n  t = " << t_def << ", x in [" << x_min << ", +" << x_ext << "), y in [x, x+" << y_ext
                        << "), z >= " << z_lo << " at x=" << x << " y=" << y << " z=" << z;
                }
            }
        }
    }
    // The test is only meaningful if the simplifier changed many of them.
    EXPECT_GT(changed, 300);
}
