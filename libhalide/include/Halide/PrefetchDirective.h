// PrefetchBoundStrategy: how Func::prefetch treats a prefetched region
// reaching outside the buffer (an input's, or the Func's realization).
#ifndef HALIDE_PREFETCH_DIRECTIVE_H
#define HALIDE_PREFETCH_DIRECTIVE_H

namespace Halide {

// Values in upstream's order:
// - Clamp: the region is cut to the part inside the buffer.
// - GuardWithIf: the prefetch of an iteration whose region is not wholly
//   inside the buffer is skipped (all or nothing).
// - NonFaulting: the region is prefetched as it is (prefetch instructions
//   do not fault outside the buffer).
// No strategy changes what is computed.
enum class PrefetchBoundStrategy { Clamp, GuardWithIf, NonFaulting };

} // namespace Halide

#endif
