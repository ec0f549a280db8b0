// What "innermost" means to likely_if_innermost, shared by loop
// partitioning (which partitions only innermost loops on it) and by
// DropSpentLikelies (which drops the marks no innermost loop holds).
#ifndef HALIDE_LOWER_INNER_LOOPS_H
#define HALIDE_LOWER_INNER_LOOPS_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// Whether `s` has a loop inside that is not vectorized (vectorized loops
// become vector code, so a loop around only those is still innermost).
// Defined in PartitionLoops.cpp.
bool has_inner_loop(const Stmt &s);

} // namespace Internal
} // namespace Halide

#endif
