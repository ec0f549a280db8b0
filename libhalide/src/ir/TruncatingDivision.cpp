// See IROperator.h: div_round_to_zero and mod_round_to_zero, C's integer
// division, from Halide's Euclidean Div and Mod (remainder r in [0, |y|)).
// Where x < 0 and r != 0 the truncated quotient is one step nearer zero:
// q + sign(y), and the remainder takes x's sign: r - |y|. Both are 0 when
// y == 0, as the Euclidean operations are.
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

using namespace Internal;

namespace {

void check_integer_args(Expr &x, Expr &y, const char *name) {
    user_assert(x.defined() && y.defined()) << name << " of an undefined Expr";
    user_assert(x.type().is_int_or_uint()) << "First argument to " << name << " is not an integer: " << x;
    user_assert(y.type().is_int_or_uint()) << "Second argument to " << name << " is not an integer: " << y;
    match_types(x, y);
}

Expr needs_adjusting(const Expr &x, const Expr &r) {
    Type t = x.type();
    return x < make_zero(t) && r != make_zero(t);
}

} // namespace

Expr div_round_to_zero(Expr x, Expr y) {
    check_integer_args(x, y, "div_round_to_zero");
    if (x.type().is_uint()) {
        return x / y;
    }
    Type t = x.type();
    Expr q = x / y, r = x % y;
    Expr step = select(y < make_zero(t), make_const(t, -1), make_one(t));
    return q + select(needs_adjusting(x, r), step, make_zero(t));
}

Expr mod_round_to_zero(Expr x, Expr y) {
    check_integer_args(x, y, "mod_round_to_zero");
    if (x.type().is_uint()) {
        return x % y;
    }
    Type t = x.type();
    Expr r = x % y;
    // r - |y|, which fits in t since 0 < r < |y|.
    Expr toward_zero = select(y < make_zero(t), r + y, r - y);
    return select(needs_adjusting(x, r), toward_zero, r);
}

} // namespace Halide
