// scatter()/gather() (Halide/ScatterGather.h) in definitions: the checks
// made when a Func is defined; lower/ScatterGather.cpp expands them.
#ifndef HALIDE_FRONTEND_SCATTER_GATHER_H
#define HALIDE_FRONTEND_SCATTER_GATHER_H

#include <string>
#include <vector>

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

// Every scatter and gather of a definition has the same number of values,
// and none holds another (upstream's errors).
void check_scatter_gather(const std::string &func, const std::vector<Expr> &args, const std::vector<Expr> &values);

} // namespace Internal
} // namespace Halide

#endif
