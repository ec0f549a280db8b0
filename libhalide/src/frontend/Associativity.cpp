// See Associativity.h.
#include "Associativity.h"

#include "Halide/IREquality.h"
#include "Halide/IROperator.h"
#include "Halide/IRVisitor.h"

namespace Halide {
namespace Internal {
namespace {

bool reads_func(const Expr &e, const std::string &func) {
    class Reads : public IRVisitor {
    public:
        explicit Reads(const std::string &f) : f_(f) {}
        bool found = false;
        using IRVisitor::visit;
        void visit(const Call *op) override {
            found = found || (op->call_type == Call::Halide && op->name == f_);
            IRVisitor::visit(op);
        }

    private:
        const std::string &f_;
    } reads(func);
    reads.include(e);
    return reads.found;
}

// Whether e is value `index` of func at exactly `args`.
bool is_self_call(const Expr &e, const std::string &func, int index, const std::vector<Expr> &args) {
    const Call *c = e.as<Call>();
    if (!c || c->call_type != Call::Halide || c->name != func || c->value_index != index ||
        c->args.size() != args.size()) {
        return false;
    }
    for (size_t i = 0; i < args.size(); i++) {
        if (!equal(c->args[i], args[i])) {
            return false;
        }
    }
    return true;
}

template <typename Node>
bool match(const Expr &e, AssociativeOp op, const std::string &func, int index, const std::vector<Expr> &args,
           AssociativeOp *op_out, Expr *term) {
    const Node *n = e.as<Node>();
    if (!n) {
        return false;
    }
    for (int side = 0; side < 2; side++) {
        const Expr &self = side == 0 ? n->a : n->b, &other = side == 0 ? n->b : n->a;
        if (is_self_call(self, func, index, args) && !reads_func(other, func)) {
            *op_out = op;
            *term = other;
            return true;
        }
    }
    return false;
}

} // namespace

bool find_associative_form(const std::string &func, const UpdateDefinition &u, AssociativeForm *out) {
    AssociativeForm form;
    for (size_t i = 0; i < u.values.size(); i++) {
        const Expr &v = u.values[i];
        AssociativeOp op{};
        Expr term;
        int k = (int)i;
        bool ok = match<Add>(v, AssociativeOp::Add, func, k, u.args, &op, &term) ||
                  match<Mul>(v, AssociativeOp::Mul, func, k, u.args, &op, &term) ||
                  match<Min>(v, AssociativeOp::Min, func, k, u.args, &op, &term) ||
                  match<Max>(v, AssociativeOp::Max, func, k, u.args, &op, &term) ||
                  match<And>(v, AssociativeOp::And, func, k, u.args, &op, &term) ||
                  match<Or>(v, AssociativeOp::Or, func, k, u.args, &op, &term);
        if (!ok) {
            return false;
        }
        form.ops.push_back(op);
        form.terms.push_back(term);
    }
    for (const Expr &a : u.args) {
        if (reads_func(a, func)) {
            return false; // where it writes depends on what it holds
        }
    }
    if (out) {
        *out = std::move(form);
    }
    return true;
}

Expr combine(AssociativeOp op, const Expr &a, const Expr &b) {
    switch (op) {
    case AssociativeOp::Add: return Add::make(a, b);
    case AssociativeOp::Mul: return Mul::make(a, b);
    case AssociativeOp::Min: return Min::make(a, b);
    case AssociativeOp::Max: return Max::make(a, b);
    case AssociativeOp::And: return And::make(a, b);
    case AssociativeOp::Or: return Or::make(a, b);
    }
    return Expr();
}

Expr identity_of(AssociativeOp op, Type t) {
    switch (op) {
    case AssociativeOp::Add: return make_zero(t);
    case AssociativeOp::Mul: return make_one(t);
    case AssociativeOp::Min: return t.max(); // +inf for floats
    case AssociativeOp::Max: return t.min(); // -inf for floats
    case AssociativeOp::And: return const_true(t.lanes());
    case AssociativeOp::Or: return const_false(t.lanes());
    }
    return Expr();
}

} // namespace Internal
} // namespace Halide
