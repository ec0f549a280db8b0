// Branch marks that loop partitioning can no longer use, dropped once it has
// run: likely_if_innermost(e) outside every loop or in a loop with a loop
// inside (vectorized loops not counted, as partitioning counts them), and
// likely(e) outside every loop. Their argument takes their place, so the
// simplifier can cancel it against the rest of an index: an unrolled tile's
// stores, `-m + likely_if_innermost(m + 16)`, become the constant 16, and
// LLVM keeps a small accumulator array in registers instead of on the stack.
// Marks in innermost loops stay (codegen reads them in steady states).
#ifndef HALIDE_LOWER_DROP_SPENT_LIKELIES_H
#define HALIDE_LOWER_DROP_SPENT_LIKELIES_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

Stmt drop_spent_likelies(const Stmt &s);

} // namespace Internal
} // namespace Halide

#endif
