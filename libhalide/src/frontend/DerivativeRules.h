// The local rules of reverse-mode differentiation: given an expression and
// the adjoint of its value, the adjoint reaching each Func or buffer call and
// each scalar Param it reads. Only floating-point values carry adjoints:
// integers (coordinates, casts from integers, conditions) stop them.
#ifndef HALIDE_INTERNAL_DERIVATIVE_RULES_H
#define HALIDE_INTERNAL_DERIVATIVE_RULES_H

#include <string>
#include <utility>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

struct ExprAdjoints {
    // A Call (Halide or Image) node of the expression and its adjoint.
    std::vector<std::pair<Expr, Expr>> calls;
    // A Param's (unique) name and its adjoint.
    std::vector<std::pair<std::string, Expr>> params;
};

// The adjoints of the leaves of `e` when its value has adjoint `seed`.
// A call this does not know how to differentiate is a user error naming
// `func` (the Func whose definition it is in).
ExprAdjoints differentiate_expr(const Expr &e, const Expr &seed, const std::string &func);

} // namespace Internal
} // namespace Halide

#endif
