// PrefetchBoundStrategy: how Func::prefetch treats a prefetched region
// reaching outside the buffer (an input's, or the Func's realization);
// PrefetchDirective: one prefetch as a stage's schedule records it.
#ifndef HALIDE_PREFETCH_DIRECTIVE_H
#define HALIDE_PREFETCH_DIRECTIVE_H

#include <string>

#include "Halide/Expr.h"
#include "Halide/Parameter.h"

namespace Halide {

// Values in upstream's order:
// - Clamp: the region is cut to the part inside the buffer.
// - GuardWithIf: the prefetch of an iteration whose region is not wholly
//   inside the buffer is skipped (all or nothing).
// - NonFaulting: the region is prefetched as it is (prefetch instructions
//   do not fault outside the buffer).
// No strategy changes what is computed.
enum class PrefetchBoundStrategy { Clamp, GuardWithIf, NonFaulting };

namespace Internal {

// Func::prefetch / Stage::prefetch: at the top of each iteration of loop
// `at`, what the loop's body reads of `name` with loop `from` `offset`
// iterations later is prefetched. `param`: the input buffer's Parameter
// when `name` is one (else undefined).
struct PrefetchDirective {
    std::string name, at, from;
    Expr offset;
    PrefetchBoundStrategy strategy = PrefetchBoundStrategy::GuardWithIf;
    Parameter param;
};

} // namespace Internal

} // namespace Halide

#endif
