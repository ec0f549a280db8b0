// The placeholder `_` in Func calls and definitions (see Var.h), expanded
// into the implicit Vars _0, _1, ... as upstream does.
#ifndef HALIDE_FRONTEND_IMPLICIT_VARS_H
#define HALIDE_FRONTEND_IMPLICIT_VARS_H

#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// A call f(args) of a Func with `dimensions` arguments (< 0: not defined
// yet): replaces `_` by as many implicit Vars as arguments are missing.
// An undefined Func keeps its `_` for its definition to resolve.
void expand_placeholder_in_call(const std::string &func, int dimensions, std::vector<Expr> &args);

// The left side f(args) = values of a definition: a `_` becomes the
// implicit Vars the values use (_0 .. _n-1); implicit Vars in the values
// without a `_` on the left are an error (upstream's words).
void expand_placeholder_in_definition(const std::string &func, bool update, std::vector<Expr> &args,
                                      const std::vector<Expr> &values);

} // namespace Internal
} // namespace Halide

#endif
