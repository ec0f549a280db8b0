// require(condition, value, error args...): `value` where `condition`
// holds; where it does not, the pipeline stops with the runtime's
// halide_error_requirement_failed ("Requirement Failed: (false) " and
// value and the error args, printed as print() prints them), as upstream's.
#ifndef HALIDE_REQUIRE_H
#define HALIDE_REQUIRE_H

#include <vector>

#include "Halide/Expr.h"
#include "Halide/IROperator.h"

namespace Halide {

// values[0] is the value; all of values are printed on failure.
Expr require(Expr condition, const std::vector<Expr> &values);
template <typename... Args> Expr require(Expr condition, Expr value, const Args &...error_args) {
    return require(std::move(condition), std::vector<Expr>{std::move(value), PrintArg(error_args).expr...});
}

} // namespace Halide

#endif
