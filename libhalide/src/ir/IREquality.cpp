// Deep comparison of IR trees.
#include "Halide/IREquality.h"

#include <cstring>

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

namespace {

template <typename T> int cmp_scalar(const T &a, const T &b) {
    return a < b ? -1 : (b < a ? 1 : 0);
}

int cmp_type(const Type &a, const Type &b) {
    if (int c = cmp_scalar(static_cast<int>(a.code()), static_cast<int>(b.code()))) {
        return c;
    }
    if (int c = cmp_scalar(a.bits(), b.bits())) {
        return c;
    }
    return cmp_scalar(a.lanes(), b.lanes());
}

int cmp_string(const std::string &a, const std::string &b) {
    int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

int cmp_double_bits(double a, double b) {
    uint64_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, sizeof(a));
    std::memcpy(&ub, &b, sizeof(b));
    return cmp_scalar(ua, ub);
}

class Comparer {
public:
    int cmp(const Expr &a, const Expr &b);
    int cmp(const Stmt &a, const Stmt &b);

private:
    template <typename N> int cmp_binary(const IRNode *a, const IRNode *b) {
        const N *x = static_cast<const N *>(a);
        const N *y = static_cast<const N *>(b);
        if (int c = cmp(x->a, y->a)) {
            return c;
        }
        return cmp(x->b, y->b);
    }
    int cmp_exprs(const std::vector<Expr> &a, const std::vector<Expr> &b);
    int cmp_expr_node(const BaseExprNode *a, const BaseExprNode *b);
    int cmp_stmt_node(const BaseStmtNode *a, const BaseStmtNode *b);
};

int Comparer::cmp_exprs(const std::vector<Expr> &a, const std::vector<Expr> &b) {
    if (int c = cmp_scalar(a.size(), b.size())) {
        return c;
    }
    for (size_t i = 0; i < a.size(); i++) {
        if (int c = cmp(a[i], b[i])) {
            return c;
        }
    }
    return 0;
}

int Comparer::cmp(const Expr &a, const Expr &b) {
    if (a.same_as(b)) {
        return 0;
    }
    if (!a.defined() || !b.defined()) {
        return a.defined() ? 1 : -1;
    }
    return cmp_expr_node(a.get(), b.get());
}

int Comparer::cmp(const Stmt &a, const Stmt &b) {
    if (a.same_as(b)) {
        return 0;
    }
    if (!a.defined() || !b.defined()) {
        return a.defined() ? 1 : -1;
    }
    return cmp_stmt_node(a.get(), b.get());
}

int Comparer::cmp_expr_node(const BaseExprNode *a, const BaseExprNode *b) {
    if (int c = cmp_scalar(static_cast<int>(a->node_type), static_cast<int>(b->node_type))) {
        return c;
    }
    if (int c = cmp_type(a->type, b->type)) {
        return c;
    }
    switch (a->node_type) {
    case IRNodeType::IntImm:
        return cmp_scalar(static_cast<const IntImm *>(a)->value, static_cast<const IntImm *>(b)->value);
    case IRNodeType::UIntImm:
        return cmp_scalar(static_cast<const UIntImm *>(a)->value, static_cast<const UIntImm *>(b)->value);
    case IRNodeType::FloatImm:
        return cmp_double_bits(static_cast<const FloatImm *>(a)->value, static_cast<const FloatImm *>(b)->value);
    case IRNodeType::StringImm:
        return cmp_string(static_cast<const StringImm *>(a)->value, static_cast<const StringImm *>(b)->value);
    case IRNodeType::Cast: return cmp(static_cast<const Cast *>(a)->value, static_cast<const Cast *>(b)->value);
    case IRNodeType::Variable:
        return cmp_string(static_cast<const Variable *>(a)->name, static_cast<const Variable *>(b)->name);
    case IRNodeType::Add: return cmp_binary<Add>(a, b);
    case IRNodeType::Sub: return cmp_binary<Sub>(a, b);
    case IRNodeType::Mul: return cmp_binary<Mul>(a, b);
    case IRNodeType::Div: return cmp_binary<Div>(a, b);
    case IRNodeType::Mod: return cmp_binary<Mod>(a, b);
    case IRNodeType::Min: return cmp_binary<Min>(a, b);
    case IRNodeType::Max: return cmp_binary<Max>(a, b);
    case IRNodeType::EQ: return cmp_binary<EQ>(a, b);
    case IRNodeType::NE: return cmp_binary<NE>(a, b);
    case IRNodeType::LT: return cmp_binary<LT>(a, b);
    case IRNodeType::LE: return cmp_binary<LE>(a, b);
    case IRNodeType::GT: return cmp_binary<GT>(a, b);
    case IRNodeType::GE: return cmp_binary<GE>(a, b);
    case IRNodeType::And: return cmp_binary<And>(a, b);
    case IRNodeType::Or: return cmp_binary<Or>(a, b);
    case IRNodeType::Not: return cmp(static_cast<const Not *>(a)->a, static_cast<const Not *>(b)->a);
    case IRNodeType::Select: {
        const Select *x = static_cast<const Select *>(a);
        const Select *y = static_cast<const Select *>(b);
        if (int c = cmp(x->condition, y->condition)) {
            return c;
        }
        if (int c = cmp(x->true_value, y->true_value)) {
            return c;
        }
        return cmp(x->false_value, y->false_value);
    }
    case IRNodeType::Load: {
        const Load *x = static_cast<const Load *>(a);
        const Load *y = static_cast<const Load *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        return cmp(x->index, y->index);
    }
    case IRNodeType::Ramp: {
        const Ramp *x = static_cast<const Ramp *>(a);
        const Ramp *y = static_cast<const Ramp *>(b);
        if (int c = cmp(x->base, y->base)) {
            return c;
        }
        return cmp(x->stride, y->stride);
    }
    case IRNodeType::Broadcast:
        return cmp(static_cast<const Broadcast *>(a)->value, static_cast<const Broadcast *>(b)->value);
    case IRNodeType::Call: {
        const Call *x = static_cast<const Call *>(a);
        const Call *y = static_cast<const Call *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp_scalar(static_cast<int>(x->call_type), static_cast<int>(y->call_type))) {
            return c;
        }
        if (int c = cmp_scalar(x->value_index, y->value_index)) {
            return c;
        }
        return cmp_exprs(x->args, y->args);
    }
    case IRNodeType::Let: {
        const Let *x = static_cast<const Let *>(a);
        const Let *y = static_cast<const Let *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp(x->value, y->value)) {
            return c;
        }
        return cmp(x->body, y->body);
    }
    default: break;
    }
    internal_error << "deep_compare: a statement node inside an Expr";
}

int Comparer::cmp_stmt_node(const BaseStmtNode *a, const BaseStmtNode *b) {
    if (int c = cmp_scalar(static_cast<int>(a->node_type), static_cast<int>(b->node_type))) {
        return c;
    }
    switch (a->node_type) {
    case IRNodeType::LetStmt: {
        const LetStmt *x = static_cast<const LetStmt *>(a);
        const LetStmt *y = static_cast<const LetStmt *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp(x->value, y->value)) {
            return c;
        }
        return cmp(x->body, y->body);
    }
    case IRNodeType::AssertStmt: {
        const AssertStmt *x = static_cast<const AssertStmt *>(a);
        const AssertStmt *y = static_cast<const AssertStmt *>(b);
        if (int c = cmp(x->condition, y->condition)) {
            return c;
        }
        return cmp(x->message, y->message);
    }
    case IRNodeType::For: {
        const For *x = static_cast<const For *>(a);
        const For *y = static_cast<const For *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp_scalar(static_cast<int>(x->for_type), static_cast<int>(y->for_type))) {
            return c;
        }
        if (int c = cmp(x->min, y->min)) {
            return c;
        }
        if (int c = cmp(x->extent, y->extent)) {
            return c;
        }
        return cmp(x->body, y->body);
    }
    case IRNodeType::Provide: {
        const Provide *x = static_cast<const Provide *>(a);
        const Provide *y = static_cast<const Provide *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp_exprs(x->args, y->args)) {
            return c;
        }
        return cmp_exprs(x->values, y->values);
    }
    case IRNodeType::Realize: {
        const Realize *x = static_cast<const Realize *>(a);
        const Realize *y = static_cast<const Realize *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp_scalar(x->types.size(), y->types.size())) {
            return c;
        }
        for (size_t i = 0; i < x->types.size(); i++) {
            if (int c = cmp_type(x->types[i], y->types[i])) {
                return c;
            }
        }
        if (int c = cmp_scalar(x->bounds.size(), y->bounds.size())) {
            return c;
        }
        for (size_t i = 0; i < x->bounds.size(); i++) {
            if (int c = cmp(x->bounds[i].min, y->bounds[i].min)) {
                return c;
            }
            if (int c = cmp(x->bounds[i].extent, y->bounds[i].extent)) {
                return c;
            }
        }
        return cmp(x->body, y->body);
    }
    case IRNodeType::Store: {
        const Store *x = static_cast<const Store *>(a);
        const Store *y = static_cast<const Store *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp(x->index, y->index)) {
            return c;
        }
        return cmp(x->value, y->value);
    }
    case IRNodeType::Allocate: {
        const Allocate *x = static_cast<const Allocate *>(a);
        const Allocate *y = static_cast<const Allocate *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (int c = cmp_type(x->type, y->type)) {
            return c;
        }
        if (x->memory_type != y->memory_type) {
            return x->memory_type < y->memory_type ? -1 : 1;
        }
        if (int c = cmp_exprs(x->extents, y->extents)) {
            return c;
        }
        if (x->new_expr.defined() != y->new_expr.defined()) {
            return x->new_expr.defined() ? 1 : -1;
        }
        if (x->new_expr.defined()) {
            if (int c = cmp(x->new_expr, y->new_expr)) {
                return c;
            }
        }
        if (int c = cmp_string(x->free_function, y->free_function)) {
            return c;
        }
        return cmp(x->body, y->body);
    }
    case IRNodeType::Block: {
        const Block *x = static_cast<const Block *>(a);
        const Block *y = static_cast<const Block *>(b);
        if (int c = cmp(x->first, y->first)) {
            return c;
        }
        return cmp(x->rest, y->rest);
    }
    case IRNodeType::IfThenElse: {
        const IfThenElse *x = static_cast<const IfThenElse *>(a);
        const IfThenElse *y = static_cast<const IfThenElse *>(b);
        if (int c = cmp(x->condition, y->condition)) {
            return c;
        }
        if (int c = cmp(x->then_case, y->then_case)) {
            return c;
        }
        return cmp(x->else_case, y->else_case);
    }
    case IRNodeType::Evaluate:
        return cmp(static_cast<const Evaluate *>(a)->value, static_cast<const Evaluate *>(b)->value);
    case IRNodeType::Atomic: {
        const Atomic *x = static_cast<const Atomic *>(a);
        const Atomic *y = static_cast<const Atomic *>(b);
        if (int c = cmp_string(x->producer_name, y->producer_name)) {
            return c;
        }
        if (int c = cmp_string(x->mutex_name, y->mutex_name)) {
            return c;
        }
        return cmp(x->body, y->body);
    }
    case IRNodeType::ProducerConsumer: {
        const ProducerConsumer *x = static_cast<const ProducerConsumer *>(a);
        const ProducerConsumer *y = static_cast<const ProducerConsumer *>(b);
        if (int c = cmp_string(x->name, y->name)) {
            return c;
        }
        if (x->is_producer != y->is_producer) {
            return x->is_producer ? 1 : -1;
        }
        return cmp(x->body, y->body);
    }
    default: break;
    }
    internal_error << "deep_compare: an expression node inside a Stmt";
}

} // namespace

int deep_compare(const Expr &a, const Expr &b) {
    return Comparer().cmp(a, b);
}
int deep_compare(const Stmt &a, const Stmt &b) {
    return Comparer().cmp(a, b);
}
bool equal(const Expr &a, const Expr &b) {
    return deep_compare(a, b) == 0;
}
bool equal(const Stmt &a, const Stmt &b) {
    return deep_compare(a, b) == 0;
}

} // namespace Internal
} // namespace Halide
