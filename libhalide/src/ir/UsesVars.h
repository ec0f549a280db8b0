// Whether an expression uses some variables, calls a Func or reads memory.
#ifndef HALIDE_INTERNAL_USES_VARS_H
#define HALIDE_INTERNAL_USES_VARS_H

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// Does `e` contain a Variable whose name `wanted` accepts? Each node is
// visited once, so a tree that shares subtrees (expanded lets, bounds
// built from bounds) costs its size as a graph, not as a tree. A name a
// Let inside `e` binds counts like any other.
bool expr_uses_var_if(const Expr &e, const std::function<bool(const std::string &)> &wanted);

// Does `e` contain a Variable named in `names`?
bool expr_uses_any_var(const Expr &e, const std::set<std::string> &names);

// Does one of `exprs` call the Func `name`?
bool exprs_call_func(const std::vector<Expr> &exprs, const std::string &name);

// Does `e` read memory (hold a Load)? An index that does is data, not a
// coordinate (a table lookup).
bool expr_reads_memory(const Expr &e);

} // namespace Internal
} // namespace Halide

#endif
