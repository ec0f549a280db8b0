// See Passes.h: the store_in() memory types a CPU target cannot honour are
// refused here, once simplification has made every constant extent a
// constant (so the error comes from lowering, as upstream's).
#include "Halide/Error.h"
#include "Halide/IRVisitor.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class CheckMemoryTypes : public IRVisitor {
public:
    using IRVisitor::visit;
    void visit(const Allocate *op) override {
        if (op->memory_type == MemoryType::Register) {
            for (const Expr &e : op->extents) {
                user_assert(e.as<IntImm>()) << "Allocation " << op->name
                                            << " has a dynamic size. Only fixed-size allocations can be stored in "
                                               "registers. Try storing on the heap or stack instead.";
            }
        }
        user_assert(op->memory_type != MemoryType::AMXTile)
            << "Allocation " << op->name
            << " is stored in AMXTile memory, which holds the tiles of an AMX matrix multiply: this compiler "
               "has no AMX code generation. Try storing on the heap or stack instead.";
        IRVisitor::visit(op);
    }
};

} // namespace

Stmt check_memory_types(const Stmt &s) {
    CheckMemoryTypes check;
    check.include(s);
    return s;
}

} // namespace Internal
} // namespace Halide
