// Inline reductions: sum, product, maximum, minimum, argmax and argmin of
// an expression over the RDom it uses, as upstream's. Each makes an
// anonymous Func over the expression's other free Vars, defined by an
// update over the RDom, and returns a call to it.
#ifndef HALIDE_INLINE_REDUCTIONS_H
#define HALIDE_INLINE_REDUCTIONS_H

#include <string>

#include "Halide/Expr.h"
#include "Halide/RDom.h"
#include "Halide/Tuple.h"

namespace Halide {

Expr sum(Expr e, const std::string &name = "sum");
// The sum with saturating_add: an integer sum stops at its type's bounds.
Expr saturating_sum(Expr e, const std::string &name = "saturating_sum");
Expr product(Expr e, const std::string &name = "product");
Expr maximum(Expr e, const std::string &name = "maximum");
Expr minimum(Expr e, const std::string &name = "minimum");
// The same over an explicit RDom (`r` need not appear in e).
Expr sum(const RDom &r, Expr e, const std::string &name = "sum");
Expr saturating_sum(const RDom &r, Expr e, const std::string &name = "saturating_sum");
Expr product(const RDom &r, Expr e, const std::string &name = "product");
Expr maximum(const RDom &r, Expr e, const std::string &name = "maximum");
Expr minimum(const RDom &r, Expr e, const std::string &name = "minimum");

// The coordinates (one per RDom dimension) of the first point where e is
// largest (smallest), then that value: a Tuple.
Tuple argmax(Expr e, const std::string &name = "argmax");
Tuple argmin(Expr e, const std::string &name = "argmin");
Tuple argmax(const RDom &r, Expr e, const std::string &name = "argmax");
Tuple argmin(const RDom &r, Expr e, const std::string &name = "argmin");

} // namespace Halide

#endif
