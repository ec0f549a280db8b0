// See Passes.h: loops scheduled with unroll() become one copy of the body
// per iteration. Their extent must be a constant by now (after simplify).
#include "Halide/Error.h"
#include "Halide/IRMutator.h"
#include "Halide/IRPrinter.h"
#include "ir/Substitute.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class Unroll : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        if (op->for_type != ForType::Unrolled) {
            return IRMutator::visit(op);
        }
        const IntImm *extent = op->extent.as<IntImm>();
        user_assert(extent) << "Can only unroll a loop of constant extent; loop " << op->name << " has extent "
                            << op->extent << ". Split it by a constant factor first.";
        Stmt body = mutate(op->body);
        std::vector<Stmt> copies;
        for (int64_t i = 0; i < extent->value; i++) {
            copies.push_back(substitute({{op->name, Add::make(op->min, int32_const(i))}}, body));
        }
        return Block::make(copies);
    }
};

} // namespace

Stmt unroll_loops(const Stmt &s) {
    return Unroll().mutate(s);
}

} // namespace Internal
} // namespace Halide
