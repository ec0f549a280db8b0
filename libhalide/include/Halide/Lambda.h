// Halide::lambda: an anonymous Func from an expression of the given Vars,
// as upstream's. Implicit Vars (_0, _1, ...) used by the expression become
// further arguments: lambda(x, e) is f(x, _) = e, and lambda(_, z, e) is
// f(_, z) = e.
#ifndef HALIDE_LAMBDA_H
#define HALIDE_LAMBDA_H

#include "Halide/Func.h"

namespace Halide {

Func lambda(const Expr &e);
Func lambda(const Var &x, const Expr &e);
Func lambda(const Var &x, const Var &y, const Expr &e);
Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e);
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e);
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Var &v, const Expr &e);

} // namespace Halide

#endif
