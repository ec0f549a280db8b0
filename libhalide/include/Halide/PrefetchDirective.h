// PrefetchBoundStrategy: how Func::prefetch treats the part of a prefetched
// region that lies outside the region the pipeline reads.
#ifndef HALIDE_PREFETCH_DIRECTIVE_H
#define HALIDE_PREFETCH_DIRECTIVE_H

namespace Halide {

// Values in upstream's order:
// - Clamp: the prefetched region is cut to the region read.
// - GuardWithIf: a prefetch reaching outside the region read is skipped.
// - NonFaulting: the region is prefetched as it is (the target's prefetch
//   does not fault outside the buffer).
// This compiler records prefetches but emits no prefetch instructions, so
// the strategy never changes what is computed (nor, today, the speed).
enum class PrefetchBoundStrategy { Clamp, GuardWithIf, NonFaulting };

} // namespace Halide

#endif
