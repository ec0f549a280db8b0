// Whether a scalar Param was given a value. As upstream, a Param never set
// has none: reading it (Param::get, Parameter::scalar_expr) or running a
// pipeline that reads it is the user error "Parameter p does not have a
// valid scalar value." (a Callable takes the value as an argument).
#ifndef HALIDE_FRONTEND_PARAM_VALUES_H
#define HALIDE_FRONTEND_PARAM_VALUES_H

#include "lower/Function.h"

namespace Halide {
namespace Internal {

bool param_has_value(const ParamContents &p);
void check_param_has_value(const ParamContents &p);

} // namespace Internal
} // namespace Halide

#endif
