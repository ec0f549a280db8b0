// The arithmetic behind lerp(), with upstream Halide's rounding.
#ifndef HALIDE_INTERNAL_LERP_H
#define HALIDE_INTERNAL_LERP_H

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// zero_val + (one_val - zero_val) * weight for checked operands: the values
// share a type (float, bool or an integer of at most 32 bits), the weight is
// a float or an unsigned integer. Integer lerps never go through floats
// beyond scaling a float weight: see the comments in Lerp.cpp.
Expr lower_lerp(const Expr &zero_val, const Expr &one_val, const Expr &weight);

} // namespace Internal
} // namespace Halide

#endif
