// The simplifier: constant folding with exactly the IR's semantics (IR.h),
// plus a few algebraic rules for index and bounds arithmetic.
#ifndef HALIDE_SIMPLIFY_H
#define HALIDE_SIMPLIFY_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// Fold every subexpression whose operands are constants; apply identities
// such as x + 0, x * 1, x - x, (x + c1) + c2 and min(x, x) (those that could
// change a float result are only applied to integers, but for upstream's
// x / c -> x * (1 / c) of a float constant divisor, outside strict_float());
// substitute Lets of
// constants and variables; drop loops with a constant extent <= 0 and
// branches on constant conditions. min/max and comparisons of signed
// 32/64-bit integers that the enclosing loops, Lets, asserts and if
// conditions decide are folded too (assuming, as upstream does, that such
// index arithmetic does not overflow). Results that the IR leaves undefined
// (a float out of an integer type's range, oversized shifts) stay unfolded.
Expr simplify(const Expr &e);
Stmt simplify(const Stmt &s);

// Does e (a Bool) simplify to true?
bool can_prove(const Expr &e);

// The constant-evaluation core: if e is one node whose operands are all
// immediates (IntImm, UIntImm, FloatImm), the immediate it evaluates to;
// otherwise, or if the result is not defined by the IR, an undefined Expr.
// Covers Cast, the arithmetic, comparison and logical nodes, Select, the
// bitwise/shift/reinterpret intrinsics and the exactly-rounded math calls
// (sqrt, floor, ceil, trunc, nearbyint, fabs).
Expr constant_fold(const Expr &e);

} // namespace Internal
} // namespace Halide

#endif
