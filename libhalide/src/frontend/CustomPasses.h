// Lowering options that carry a pipeline's custom lowering passes
// (Pipeline::add_custom_lowering_pass), for the JIT, Callable and AOT paths.
#ifndef HALIDE_FRONTEND_CUSTOM_PASSES_H
#define HALIDE_FRONTEND_CUSTOM_PASSES_H

#include "Halide/Pipeline.h"
#include "lower/Lower.h"

namespace Halide {
namespace Internal {

LowerOptions lower_options_with_passes(Pipeline &p);

} // namespace Internal
} // namespace Halide

#endif
