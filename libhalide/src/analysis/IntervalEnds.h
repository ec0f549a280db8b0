// Arithmetic on interval ends shared by interval analysis (Interval.cpp)
// and the region walker (Regions.cpp): constants folded, an undefined end
// (unbounded) taken into account.
#ifndef HALIDE_INTERNAL_INTERVAL_ENDS_H
#define HALIDE_INTERNAL_INTERVAL_ENDS_H

#include <cstdint>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {
namespace interval_ends {

// An int32 constant.
Expr int32(int64_t v);
// The value of an integer (or float) constant, or null.
const int64_t *as_int(const Expr &e);
const double *as_float(const Expr &e);
// min/max that tolerate unbounded ends: an unbounded end wins for the outer
// bound and loses for the inner one.
Expr make_min(const Expr &a, const Expr &b);
Expr make_max(const Expr &a, const Expr &b);

} // namespace interval_ends
} // namespace Internal
} // namespace Halide

#endif
