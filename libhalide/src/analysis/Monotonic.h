// Monotonicity: whether an expression grows, shrinks or stays put as one
// variable grows (used to tell which regions slide along a loop).
#ifndef HALIDE_INTERNAL_MONOTONIC_H
#define HALIDE_INTERNAL_MONOTONIC_H

#include <map>
#include <string>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

enum class Monotonic { Constant, Increasing, Decreasing, Unknown };

// How `e` changes as the variable `var` grows (non-strictly: Increasing
// means never decreases). `known`: how other variables change with `var`
// (the lets that depend on it); every other variable is constant.
Monotonic is_monotonic(const Expr &e, const std::string &var, const std::map<std::string, Monotonic> &known = {});

// Monotonicity of a + b (and of a - b, with b flipped).
Monotonic monotonic_sum(Monotonic a, Monotonic b);
Monotonic monotonic_flip(Monotonic m);

} // namespace Internal
} // namespace Halide

#endif
