// For upstream's error on a Func computed where it can't be (see
// LegalLocations.cpp): the loop levels around every use of g in `s`
// ("Legal locations for this function are: ..."), and those uses.
#ifndef HALIDE_LOWER_LEGAL_LOCATIONS_H
#define HALIDE_LOWER_LEGAL_LOCATIONS_H

#include <string>

#include "lower/Passes.h"

namespace Halide {
namespace Internal {

std::string legal_locations_text(const FunctionContents &g, const Stmt &s, const Environment &env);

} // namespace Internal
} // namespace Halide

#endif
