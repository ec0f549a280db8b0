// Replacing variables by expressions.
#ifndef HALIDE_INTERNAL_SUBSTITUTE_H
#define HALIDE_INTERNAL_SUBSTITUTE_H

#include <map>
#include <string>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// Every free Variable named in `replacements` becomes its expression, all at
// once (a replacement is not itself substituted into). Lets that rebind a
// name hide it in their bodies.
Expr substitute(const std::map<std::string, Expr> &replacements, const Expr &e);
Stmt substitute(const std::map<std::string, Expr> &replacements, const Stmt &s);

} // namespace Internal
} // namespace Halide

#endif
