// A float divided by a constant becomes a multiplication by the constant's
// reciprocal (1 / c computed in double, rounded once to the type), as
// upstream's simplifier does before custom lowering passes run; not inside
// strict_float() nor for a strict_float target. Results are checked against
// plain C++ float arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "Halide.h"
#include "Halide/IRMutator.h"
#include "Halide/Simplify.h"
#include "simplify/StrictFloatScope.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// The constant a simplified var / c multiplies var by (undefined if the
// simplifier did not make it var * constant).
Expr reciprocal_of(const Expr &quotient) {
    Expr e = simplify(quotient);
    const Mul *m = e.as<Mul>();
    return m && m->b.as<FloatImm>() ? m->b : Expr();
}

double value_of(const Expr &e) {
    return e.as<FloatImm>()->value;
}

TEST(FloatDivision, SimplifierMultipliesByTheReciprocal) {
    Expr x32 = Variable::make(Float(32), "x");
    Expr r = reciprocal_of(x32 / 2.4f);
    ASSERT_TRUE(r.defined()) << simplify(x32 / 2.4f);
    EXPECT_EQ(r.type(), Float(32));
    EXPECT_EQ((float)value_of(r), (float)(1.0 / (double)2.4f));

    Expr x64 = Variable::make(Float(64), "y");
    r = reciprocal_of(x64 / Expr(3.0));
    ASSERT_TRUE(r.defined());
    EXPECT_EQ(r.type(), Float(64));
    EXPECT_EQ(value_of(r), 1.0 / 3.0);

    // Half precision: 1/3 rounded once to the nearest float16 (0x3555).
    Expr x16 = Variable::make(Float(16), "z");
    r = reciprocal_of(x16 / FloatImm::make(Float(16), 3.0));
    ASSERT_TRUE(r.defined());
    EXPECT_EQ(r.type(), Float(16));
    EXPECT_EQ(value_of(r), 0.333251953125);

    // Division by zero: multiplication by an infinity (as upstream).
    r = reciprocal_of(x32 / 0.0f);
    ASSERT_TRUE(r.defined());
    EXPECT_TRUE(std::isinf(value_of(r)) && value_of(r) > 0);
}

TEST(FloatDivision, LeftAloneWhereItMustBe) {
    Expr x32 = Variable::make(Float(32), "x");
    Expr i = Variable::make(Int(32), "i");
    EXPECT_NE(simplify(i / 3).as<Div>(), nullptr);              // integers: not at all
    EXPECT_NE(simplify(x32 / x32 * 2.0f).as<Mul>(), nullptr);   // not a constant divisor
    EXPECT_NE(simplify(x32 / (x32 + 1.0f)).as<Div>(), nullptr); // not a constant divisor
    // Inside strict_float(): the division stays.
    Expr strict = simplify(strict_float(x32 / 2.4f));
    const Call *c = strict.as<Call>();
    ASSERT_NE(c, nullptr);
    EXPECT_NE(c->args[0].as<Div>(), nullptr);
    // While lowering for a strict_float target: too.
    {
        StrictFloatScope strict(true);
        EXPECT_NE(simplify(x32 / 2.4f).as<Div>(), nullptr);
    }
    EXPECT_EQ(simplify(x32 / 2.4f).as<Div>(), nullptr);
}

// Counts the float divisions by a constant a custom lowering pass sees.
int float_divisions_seen = 0;
class CountFloatDivisions : public IRMutator {
    using IRMutator::visit;
    Expr visit(const Div *op) override {
        if (op->type.is_float() && (op->b.as<FloatImm>() || op->b.as<Broadcast>())) {
            float_divisions_seen++;
        }
        return IRMutator::visit(op);
    }
};

TEST(FloatDivision, CustomPassesSeeAMultiplicationAndValuesAreItsOwn) {
    Func f("fd_f");
    Var x("x");
    f(x) = cast<float>(x) / 2.4f;
    f.add_custom_lowering_pass(new CountFloatDivisions);
    float_divisions_seen = 0;
    const int n = 1000;
    Buffer<float> out = f.realize({n});
    EXPECT_EQ(float_divisions_seen, 0);
    const float recip = (float)(1.0 / (double)2.4f);
    int differ_from_division = 0;
    for (int i = 0; i < n; i++) {
        ASSERT_EQ(out(i), (float)i * recip) << i;
        differ_from_division += out(i) != (float)i / 2.4f;
    }
    EXPECT_GT(differ_from_division, 0); // the last bit does change somewhere

    // A strict_float target keeps the division, and its exact quotients.
    Func g("fd_g");
    g(x) = cast<float>(x) / 2.4f;
    g.add_custom_lowering_pass(new CountFloatDivisions);
    float_divisions_seen = 0;
    Buffer<float> strict = g.realize({n}, get_jit_target_from_environment().with_feature(Target::StrictFloat));
    EXPECT_GT(float_divisions_seen, 0);
    for (int i = 0; i < n; i++) {
        ASSERT_EQ(strict(i), (float)i / 2.4f) << i;
    }
}

} // namespace
