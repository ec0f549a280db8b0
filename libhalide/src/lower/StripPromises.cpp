// See Passes.h: promise_clamped(value, min, max) only informs bounds
// inference; once that is done, the value alone lets the simplifier see
// (and cancel) the index arithmetic inside. An extern stage's marker keeps
// its promises until it goes (strip_extern_markers).
#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class Strip : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->name == "promise_clamped") {
            // An extern stage's coordinates (its marker's, which shows
            // storage folding what it touches) stay with their marker.
            const Call *unknown = op->args[0].as<Call>();
            if (unknown && unknown->call_type == Call::Intrinsic && unknown->name == "extern_stage_unknown") {
                return IRMutator::visit(op);
            }
            return mutate(op->args[0]);
        }
        return IRMutator::visit(op);
    }
};

} // namespace

Stmt strip_promises(const Stmt &s) {
    return Strip().mutate(s);
}

} // namespace Internal
} // namespace Halide
