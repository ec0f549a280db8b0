// See DropSpentLikelies.h.
#include "lower/DropSpentLikelies.h"

#include <vector>

#include "Halide/IRMutator.h"
#include "lower/InnerLoops.h"

namespace Halide {
namespace Internal {
namespace {

class Drop : public IRMutator {
public:
    using IRMutator::visit;

    Stmt visit(const For *op) override {
        if (op->for_type == ForType::Vectorized) {
            return IRMutator::visit(op);
        }
        innermost_.push_back(!has_inner_loop(op->body));
        Stmt s = IRMutator::visit(op);
        innermost_.pop_back();
        return s;
    }

    Expr visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->args.size() == 1 &&
            ((op->name == "likely" && innermost_.empty()) ||
             (op->name == "likely_if_innermost" && (innermost_.empty() || !innermost_.back())))) {
            return mutate(op->args[0]);
        }
        return IRMutator::visit(op);
    }

private:
    // For each enclosing serial loop, outermost first: whether it is innermost.
    std::vector<bool> innermost_;
};

} // namespace

Stmt drop_spent_likelies(const Stmt &s) {
    return Drop().mutate(s);
}

} // namespace Internal
} // namespace Halide
