// The size of an Allocate with constant extents, and the one rule for which
// allocations of MemoryType::Auto live on the stack: codegen places them
// there and the profiler counts only the others as heap.
#ifndef HALIDE_INTERNAL_ALLOCATION_SIZE_H
#define HALIDE_INTERNAL_ALLOCATION_SIZE_H

#include <cstdint>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// The element count of an Allocate whose extents are all constants (negative
// extents count as 0); `*constant` says whether they were.
int64_t constant_element_count(const Allocate *op, bool *constant);

// The largest block of MemoryType::Auto put on the stack, as upstream's
// (16 KB): a tile's accumulator computed per tile then costs no
// halide_malloc/halide_free per tile.
constexpr int64_t kMaxAutoStackBytes = 16 * 1024;

// Whether an Allocate of MemoryType::Auto goes on the stack: constant,
// non-empty and at most kMaxAutoStackBytes.
bool auto_allocation_on_stack(const Allocate *op);

} // namespace Internal
} // namespace Halide

#endif
