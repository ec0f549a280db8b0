// Whether an expression has an undef() inside (see IROperator.h: undef).
#ifndef HALIDE_INTERNAL_UNDEF_H
#define HALIDE_INTERNAL_UNDEF_H

#include "Halide/Expr.h"

namespace Halide {
namespace Internal {

bool contains_undef(const Expr &e);

} // namespace Internal
} // namespace Halide

#endif
