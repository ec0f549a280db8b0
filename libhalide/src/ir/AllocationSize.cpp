#include "ir/AllocationSize.h"

#include <algorithm>

namespace Halide {
namespace Internal {

int64_t constant_element_count(const Allocate *op, bool *constant) {
    int64_t count = 1;
    *constant = true;
    for (const Expr &e : op->extents) {
        const IntImm *k = e.as<IntImm>();
        *constant = *constant && k;
        count *= k ? std::max<int64_t>(k->value, 0) : 1;
    }
    return count;
}

bool auto_allocation_on_stack(const Allocate *op) {
    bool constant = false;
    int64_t count = constant_element_count(op, &constant);
    return op->memory_type == MemoryType::Auto && !op->new_expr.defined() && constant && count > 0 &&
           count <= kMaxAutoStackBytes / op->type.bytes();
}

} // namespace Internal
} // namespace Halide
