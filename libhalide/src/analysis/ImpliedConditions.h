// What a condition's holding or failing says about its parts: the one walk
// that bounds inference (facts of a Box's `used` condition) and
// specialization (the values a branch's condition fixes) both need.
#ifndef HALIDE_INTERNAL_IMPLIED_CONDITIONS_H
#define HALIDE_INTERNAL_IMPLIED_CONDITIONS_H

#include <functional>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// Calls `each(c, holds)` for `cond` and for every part whose truth follows
// from `cond == holds`: through `!`, through the operands of `&&` when it
// holds and of `||` when it fails, and through `likely()` /
// `likely_if_innermost()`. Outer conditions come before their parts.
void for_each_implied_condition(const Expr &cond, bool holds, const std::function<void(const Expr &, bool)> &each);

} // namespace Internal
} // namespace Halide

#endif
