// Func::prefetch / Stage::prefetch (the schedule's PrefetchRecords): a
// prefetch of what a later iteration will read, at the top of the loop
// `at` of the stage.
//
// For a prefetch of g (a Func or an input buffer) at loop `at` from loop
// `from` (`at` itself or a loop around it) by `offset`: the region of g
// that the body of `at` reads (its box, in the variables around the loop)
// with `from` taken `offset` iterations later, is prefetched at the top of
// each iteration of `at`, as
//
//   prefetch(g(min_0, min_1, ...), extent_0, extent_1, ...)
//
// an intrinsic call of g's element type: the region starts at that call's
// coordinates (which are not read). The strategy decides what happens near
// g's edges (g's buffer for an input, its realization for a Func):
// GuardWithIf skips the prefetch of an iteration whose region is not
// wholly inside, Clamp shrinks the region to the part inside, NonFaulting
// leaves the region as it is (prefetches do not fault).
//
// Runs just before storage flattening (after storage folding: a folded
// Func's region is in its folded coordinates), which turns the call into
//
//   prefetch(g.host, flat index of the start, extent_0, stride_0, extent_1, stride_1, ...)
//
// (strides in elements; StorageFlattening.cpp). Codegen prefetches every
// cache line of the innermost dimension's span, in a loop over each outer
// dimension; an extent below 1 prefetches nothing.
//
// At a vectorized loop `at`, the prefetch goes before the loop and covers
// the regions of all its lanes.
//
// A prefetch whose loop `at` is not in the stage's loop nest is ignored (as
// upstream); `from` must be `at` or a loop around it (upstream's
// CompileError otherwise); a region the loop does not read, or cannot be
// bounded, or of a Func realized inside the loop, is dropped with a
// warning.
#ifndef HALIDE_LOWER_PREFETCH_H
#define HALIDE_LOWER_PREFETCH_H

#include "ir/IntrinsicNames.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

Stmt inject_prefetches(const Stmt &s, const Environment &env);

} // namespace Internal
} // namespace Halide

#endif
