// The propagation behind propagate_adjoints (Derivative.h): the adjoint
// Funcs of every Func, buffer and Param `output` depends on, given the
// adjoint of its final value (defined everywhere, zero outside
// `output_bounds`).
#ifndef HALIDE_INTERNAL_DERIVATIVE_PROPAGATION_H
#define HALIDE_INTERNAL_DERIVATIVE_PROPAGATION_H

#include <map>

#include "Halide/Derivative.h"

namespace Halide {
namespace Internal {

std::map<Derivative::FuncKey, Func> propagate_adjoint_funcs(const Func &output, const Func &output_adjoint,
                                                            const Region &output_bounds);

} // namespace Internal
} // namespace Halide

#endif
