// Default rebuilding for IRMutator.
#include "Halide/IRMutator.h"

#include <utility>

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

namespace {

// Pushes a handle for the duration of one visit (popped on exceptions too).
template <typename H> class StackGuard {
public:
    StackGuard(std::vector<H> &stack, const H &h) : stack_(stack) { stack_.push_back(h); }
    ~StackGuard() { stack_.pop_back(); }
    StackGuard(const StackGuard &) = delete;
    StackGuard &operator=(const StackGuard &) = delete;

private:
    std::vector<H> &stack_;
};

} // namespace

Expr IRMutator::mutate(const Expr &e) {
    if (!e.defined()) {
        return e;
    }
    StackGuard<Expr> guard(expr_stack_, e);
    const IRNode *n = e.get();
    switch (n->node_type) {
#define HALIDE_EXPR_CASE(N)                                                                                            \
    case IRNodeType::N: return visit(static_cast<const N *>(n));
        HALIDE_EXPR_CASE(IntImm)
        HALIDE_EXPR_CASE(UIntImm)
        HALIDE_EXPR_CASE(FloatImm)
        HALIDE_EXPR_CASE(StringImm)
        HALIDE_EXPR_CASE(Cast)
        HALIDE_EXPR_CASE(Variable)
        HALIDE_EXPR_CASE(Add)
        HALIDE_EXPR_CASE(Sub)
        HALIDE_EXPR_CASE(Mul)
        HALIDE_EXPR_CASE(Div)
        HALIDE_EXPR_CASE(Mod)
        HALIDE_EXPR_CASE(Min)
        HALIDE_EXPR_CASE(Max)
        HALIDE_EXPR_CASE(EQ)
        HALIDE_EXPR_CASE(NE)
        HALIDE_EXPR_CASE(LT)
        HALIDE_EXPR_CASE(LE)
        HALIDE_EXPR_CASE(GT)
        HALIDE_EXPR_CASE(GE)
        HALIDE_EXPR_CASE(And)
        HALIDE_EXPR_CASE(Or)
        HALIDE_EXPR_CASE(Not)
        HALIDE_EXPR_CASE(Select)
        HALIDE_EXPR_CASE(Load)
        HALIDE_EXPR_CASE(Ramp)
        HALIDE_EXPR_CASE(Broadcast)
        HALIDE_EXPR_CASE(Call)
        HALIDE_EXPR_CASE(Let)
#undef HALIDE_EXPR_CASE
    default: break;
    }
    internal_error << "IRMutator::mutate: a statement node inside an Expr";
}

Stmt IRMutator::mutate(const Stmt &s) {
    if (!s.defined()) {
        return s;
    }
    StackGuard<Stmt> guard(stmt_stack_, s);
    const IRNode *n = s.get();
    switch (n->node_type) {
#define HALIDE_STMT_CASE(N)                                                                                            \
    case IRNodeType::N: return visit(static_cast<const N *>(n));
        HALIDE_STMT_CASE(LetStmt)
        HALIDE_STMT_CASE(AssertStmt)
        HALIDE_STMT_CASE(ProducerConsumer)
        HALIDE_STMT_CASE(For)
        HALIDE_STMT_CASE(Provide)
        HALIDE_STMT_CASE(Realize)
        HALIDE_STMT_CASE(Store)
        HALIDE_STMT_CASE(Allocate)
        HALIDE_STMT_CASE(Block)
        HALIDE_STMT_CASE(IfThenElse)
        HALIDE_STMT_CASE(Evaluate)
        HALIDE_STMT_CASE(Atomic)
#undef HALIDE_STMT_CASE
    default: break;
    }
    internal_error << "IRMutator::mutate: an expression node inside a Stmt";
}

std::vector<Expr> IRMutator::mutate_exprs(const std::vector<Expr> &es, bool *changed) {
    std::vector<Expr> out;
    out.reserve(es.size());
    bool any = false;
    for (const Expr &e : es) {
        out.push_back(mutate(e));
        any = any || !out.back().same_as(e);
    }
    if (changed) {
        *changed = any;
    }
    return out;
}

Expr IRMutator::visit(const IntImm *op) {
    return self_expr(op);
}
Expr IRMutator::visit(const UIntImm *op) {
    return self_expr(op);
}
Expr IRMutator::visit(const FloatImm *op) {
    return self_expr(op);
}
Expr IRMutator::visit(const StringImm *op) {
    return self_expr(op);
}
Expr IRMutator::visit(const Variable *op) {
    return self_expr(op);
}

Expr IRMutator::visit(const Cast *op) {
    Expr v = mutate(op->value);
    if (v.same_as(op->value)) {
        return self_expr(op);
    }
    return Cast::make(op->type, std::move(v));
}

#define HALIDE_MUTATE_BINARY(N)                                                                                        \
    Expr IRMutator::visit(const N *op) {                                                                               \
        Expr a = mutate(op->a);                                                                                        \
        Expr b = mutate(op->b);                                                                                        \
        if (a.same_as(op->a) && b.same_as(op->b)) {                                                                    \
            return self_expr(op);                                                                                      \
        }                                                                                                              \
        return N::make(std::move(a), std::move(b));                                                                    \
    }
HALIDE_MUTATE_BINARY(Add)
HALIDE_MUTATE_BINARY(Sub)
HALIDE_MUTATE_BINARY(Mul)
HALIDE_MUTATE_BINARY(Div)
HALIDE_MUTATE_BINARY(Mod)
HALIDE_MUTATE_BINARY(Min)
HALIDE_MUTATE_BINARY(Max)
HALIDE_MUTATE_BINARY(EQ)
HALIDE_MUTATE_BINARY(NE)
HALIDE_MUTATE_BINARY(LT)
HALIDE_MUTATE_BINARY(LE)
HALIDE_MUTATE_BINARY(GT)
HALIDE_MUTATE_BINARY(GE)
HALIDE_MUTATE_BINARY(And)
HALIDE_MUTATE_BINARY(Or)
#undef HALIDE_MUTATE_BINARY

Expr IRMutator::visit(const Not *op) {
    Expr a = mutate(op->a);
    if (a.same_as(op->a)) {
        return self_expr(op);
    }
    return Not::make(std::move(a));
}

Expr IRMutator::visit(const Select *op) {
    Expr c = mutate(op->condition);
    Expr t = mutate(op->true_value);
    Expr f = mutate(op->false_value);
    if (c.same_as(op->condition) && t.same_as(op->true_value) && f.same_as(op->false_value)) {
        return self_expr(op);
    }
    return Select::make(std::move(c), std::move(t), std::move(f));
}

Expr IRMutator::visit(const Load *op) {
    Expr index = mutate(op->index);
    if (index.same_as(op->index)) {
        return self_expr(op);
    }
    return Load::make(op->type, op->name, std::move(index));
}

Expr IRMutator::visit(const Ramp *op) {
    Expr base = mutate(op->base);
    Expr stride = mutate(op->stride);
    if (base.same_as(op->base) && stride.same_as(op->stride)) {
        return self_expr(op);
    }
    return Ramp::make(std::move(base), std::move(stride), op->lanes);
}

Expr IRMutator::visit(const Broadcast *op) {
    Expr value = mutate(op->value);
    if (value.same_as(op->value)) {
        return self_expr(op);
    }
    return Broadcast::make(std::move(value), op->lanes);
}

Expr IRMutator::visit(const Call *op) {
    bool changed = false;
    std::vector<Expr> args = mutate_exprs(op->args, &changed);
    if (!changed) {
        return self_expr(op);
    }
    return Call::make(op->type, op->name, std::move(args), op->call_type, op->value_index, op->callee);
}

Expr IRMutator::visit(const Let *op) {
    Expr value = mutate(op->value);
    Expr body = mutate(op->body);
    if (value.same_as(op->value) && body.same_as(op->body)) {
        return self_expr(op);
    }
    return Let::make(op->name, std::move(value), std::move(body));
}

Stmt IRMutator::visit(const LetStmt *op) {
    Expr value = mutate(op->value);
    Stmt body = mutate(op->body);
    if (!body.defined()) {
        return Stmt();
    }
    if (value.same_as(op->value) && body.same_as(op->body)) {
        return self_stmt(op);
    }
    return LetStmt::make(op->name, std::move(value), std::move(body));
}

Stmt IRMutator::visit(const AssertStmt *op) {
    Expr c = mutate(op->condition);
    Expr m = mutate(op->message);
    if (c.same_as(op->condition) && m.same_as(op->message)) {
        return self_stmt(op);
    }
    return AssertStmt::make(std::move(c), std::move(m));
}

Stmt IRMutator::visit(const For *op) {
    Expr min = mutate(op->min);
    Expr extent = mutate(op->extent);
    Stmt body = mutate(op->body);
    if (!body.defined()) {
        return Stmt();
    }
    if (min.same_as(op->min) && extent.same_as(op->extent) && body.same_as(op->body)) {
        return self_stmt(op);
    }
    return For::make(op->name, std::move(min), std::move(extent), op->for_type, std::move(body));
}

Stmt IRMutator::visit(const Provide *op) {
    bool values_changed = false, args_changed = false;
    std::vector<Expr> values = mutate_exprs(op->values, &values_changed);
    std::vector<Expr> args = mutate_exprs(op->args, &args_changed);
    if (!values_changed && !args_changed) {
        return self_stmt(op);
    }
    return Provide::make(op->name, std::move(values), std::move(args));
}

Stmt IRMutator::visit(const Realize *op) {
    bool changed = false;
    std::vector<Range> bounds;
    bounds.reserve(op->bounds.size());
    for (const Range &r : op->bounds) {
        Expr min = mutate(r.min);
        Expr extent = mutate(r.extent);
        changed = changed || !min.same_as(r.min) || !extent.same_as(r.extent);
        bounds.push_back(Range{std::move(min), std::move(extent)});
    }
    Stmt body = mutate(op->body);
    if (!body.defined()) {
        return Stmt();
    }
    if (!changed && body.same_as(op->body)) {
        return self_stmt(op);
    }
    return Realize::make(op->name, op->types, std::move(bounds), std::move(body));
}

Stmt IRMutator::visit(const Store *op) {
    Expr value = mutate(op->value);
    Expr index = mutate(op->index);
    if (value.same_as(op->value) && index.same_as(op->index)) {
        return self_stmt(op);
    }
    return Store::make(op->name, std::move(value), std::move(index));
}

Stmt IRMutator::visit(const Allocate *op) {
    bool changed = false;
    std::vector<Expr> extents = mutate_exprs(op->extents, &changed);
    Expr new_expr = op->new_expr.defined() ? mutate(op->new_expr) : Expr();
    Stmt body = mutate(op->body);
    if (!body.defined()) {
        return Stmt();
    }
    if (!changed && body.same_as(op->body) && new_expr.same_as(op->new_expr)) {
        return self_stmt(op);
    }
    return Allocate::make(op->name, op->type, op->memory_type, std::move(extents), std::move(body), std::move(new_expr),
                          op->free_function);
}

Stmt IRMutator::visit(const Block *op) {
    Stmt first = mutate(op->first);
    Stmt rest = mutate(op->rest);
    if (first.same_as(op->first) && rest.same_as(op->rest)) {
        return self_stmt(op);
    }
    return Block::make(std::move(first), std::move(rest));
}

Stmt IRMutator::visit(const IfThenElse *op) {
    Expr c = mutate(op->condition);
    Stmt then_case = mutate(op->then_case);
    Stmt else_case = mutate(op->else_case);
    if (c.same_as(op->condition) && then_case.same_as(op->then_case) && else_case.same_as(op->else_case)) {
        return self_stmt(op);
    }
    if (!then_case.defined()) {
        if (!else_case.defined()) {
            return Stmt();
        }
        return IfThenElse::make(Not::make(std::move(c)), std::move(else_case));
    }
    return IfThenElse::make(std::move(c), std::move(then_case), std::move(else_case));
}

Stmt IRMutator::visit(const Evaluate *op) {
    Expr value = mutate(op->value);
    if (value.same_as(op->value)) {
        return self_stmt(op);
    }
    return Evaluate::make(std::move(value));
}

Stmt IRMutator::visit(const Atomic *op) {
    Stmt body = mutate(op->body);
    if (body.same_as(op->body)) {
        return self_stmt(op);
    }
    if (!body.defined()) {
        return Stmt();
    }
    return Atomic::make(op->producer_name, op->mutex_name, std::move(body));
}

Stmt IRMutator::visit(const ProducerConsumer *op) {
    Stmt body = mutate(op->body);
    if (body.same_as(op->body)) {
        return self_stmt(op);
    }
    if (!body.defined()) {
        return Stmt();
    }
    return ProducerConsumer::make(op->name, op->is_producer, std::move(body));
}

} // namespace Internal
} // namespace Halide
