// Python values <-> Halide scalars, with range checks that name the argument.
#ifndef HALIDE_PYTHON_SCALARS_H
#define HALIDE_PYTHON_SCALARS_H

#include <pybind11/pybind11.h>

#include <string>

#include "HalideRuntime.h"

namespace halide_python {

// Converts `value` to a scalar of type `type` in `out`. Raises (as a
// pybind11 error_already_set or value_error) when the value is of the wrong
// kind or is not representable in the type; `what` names the argument.
void to_scalar(PyObject *value, halide_type_t type, const std::string &what, halide_scalar_value_t *out);

// The Python value of a scalar of type `type` stored at `bits`.
pybind11::object from_scalar(const void *bits, halide_type_t type);

// Raises ValueError if `value` lies outside [min, max] (either may be NULL).
void check_scalar_range(const halide_scalar_value_t &value, halide_type_t type, const halide_scalar_value_t *min,
                        const halide_scalar_value_t *max, const std::string &what);

// IEEE half-precision conversions (round to nearest even).
uint16_t float_to_half_bits(double value, bool *overflow);
double half_bits_to_double(uint16_t bits);

} // namespace halide_python

#endif
