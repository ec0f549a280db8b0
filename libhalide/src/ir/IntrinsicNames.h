// Names of intrinsic Calls that one part of the compiler makes and others
// read (upstream has no IntrinsicOp for them). Kept here, below every folder
// that uses them, so the front end, lowering and both backends agree.
#ifndef HALIDE_IR_INTRINSIC_NAMES_H
#define HALIDE_IR_INTRINSIC_NAMES_H

namespace Halide {
namespace Internal {

// scatter()/gather() (Halide/ScatterGather.h): made by the front end,
// widened by bounds inference, expanded by lower/ScatterGather.cpp.
constexpr const char *kScatterGatherIntrinsic = "scatter_gather";

// Func::prefetch: an Evaluate made by lower/Prefetch.cpp (its arguments are
// described there), flattened by StorageFlattening, emitted by both backends.
constexpr const char *kPrefetchIntrinsic = "prefetch";

} // namespace Internal
} // namespace Halide

#endif
