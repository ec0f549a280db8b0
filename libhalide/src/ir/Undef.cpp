// See IROperator.h: undef(t), a value that leaves the Func's point as it is.
// Lowering drops the stores of undef values (StorageFlattening) and guards
// those of values with an undef() inside (RemoveUndef).
#include "ir/Undef.h"

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"

namespace Halide {

Expr undef(Type t) {
    user_assert(t.bits() != 0) << "undef of no type";
    return Internal::Call::make(t, Internal::Intrinsics::undef, {}, Internal::Call::Intrinsic);
}

namespace Internal {

bool is_undef(const Expr &e) {
    const Call *c = e.as<Call>();
    return c && c->call_type == Call::Intrinsic && c->name == Intrinsics::undef;
}

namespace {
class FindUndef : public IRVisitor {
public:
    bool found = false;
    using IRVisitor::visit;
    void visit(const Call *op) override {
        found = found || (op->call_type == Call::Intrinsic && op->name == Intrinsics::undef);
        IRVisitor::visit(op);
    }
};
} // namespace

bool contains_undef(const Expr &e) {
    FindUndef f;
    f.include(e);
    return f.found;
}

void check_undef_placement(const std::string &func, const std::vector<Expr> &values) {
    // undef() inside a value is upstream's conditional store (see
    // lower/RemoveUndef.cpp), except in a select's condition.
    class FindUndefInCondition : public IRVisitor {
    public:
        bool found = false;
        using IRVisitor::visit;
        void visit(const Select *op) override {
            found = found || contains_undef(op->condition);
            IRVisitor::visit(op);
        }
    };
    for (const Expr &v : values) {
        FindUndefInCondition f;
        f.include(v);
        user_assert(!f.found) << "In the definition of Func \"" << func
                              << "\": undef() may not be part of a select's condition";
    }
}

} // namespace Internal
} // namespace Halide
