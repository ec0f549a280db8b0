// See Passes.h: without asserts, a kernel trusts its caller (no type,
// dimension, bounds or range checks), as upstream's no_asserts does.
#include "Halide/IRMutator.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {
namespace {

class StripAsserts : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const AssertStmt *) override { return Stmt(); }
};

} // namespace

Stmt strip_asserts(const Stmt &s) {
    return StripAsserts().mutate(s);
}

} // namespace Internal
} // namespace Halide
