// Default traversal for IRVisitor.
#include "Halide/IRVisitor.h"

#include "Halide/Error.h"

namespace Halide {
namespace Internal {

void IRNode::accept(IRVisitor *v) const {
    const IRNode *n = this;
    switch (n->node_type) {
#define HALIDE_IR_NODE(N)                                                                                              \
    case IRNodeType::N:                                                                                                \
        v->visit(static_cast<const N *>(n));                                                                           \
        break;
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE
    }
}

void IRVisitor::include(const Expr &e) {
    if (e.defined()) {
        e.get()->accept(this);
    }
}

void IRVisitor::include(const Stmt &s) {
    if (s.defined()) {
        s.get()->accept(this);
    }
}

void IRVisitor::visit(const IntImm *) {}
void IRVisitor::visit(const UIntImm *) {}
void IRVisitor::visit(const FloatImm *) {}
void IRVisitor::visit(const StringImm *) {}
void IRVisitor::visit(const Cast *op) {
    include(op->value);
}
void IRVisitor::visit(const Variable *) {}

#define HALIDE_VISIT_BINARY(N)                                                                                         \
    void IRVisitor::visit(const N *op) {                                                                               \
        include(op->a);                                                                                                \
        include(op->b);                                                                                                \
    }
HALIDE_VISIT_BINARY(Add)
HALIDE_VISIT_BINARY(Sub)
HALIDE_VISIT_BINARY(Mul)
HALIDE_VISIT_BINARY(Div)
HALIDE_VISIT_BINARY(Mod)
HALIDE_VISIT_BINARY(Min)
HALIDE_VISIT_BINARY(Max)
HALIDE_VISIT_BINARY(EQ)
HALIDE_VISIT_BINARY(NE)
HALIDE_VISIT_BINARY(LT)
HALIDE_VISIT_BINARY(LE)
HALIDE_VISIT_BINARY(GT)
HALIDE_VISIT_BINARY(GE)
HALIDE_VISIT_BINARY(And)
HALIDE_VISIT_BINARY(Or)
#undef HALIDE_VISIT_BINARY

void IRVisitor::visit(const Not *op) {
    include(op->a);
}

void IRVisitor::visit(const Select *op) {
    include(op->condition);
    include(op->true_value);
    include(op->false_value);
}

void IRVisitor::visit(const Load *op) {
    include(op->index);
}

void IRVisitor::visit(const Ramp *op) {
    include(op->base);
    include(op->stride);
}

void IRVisitor::visit(const Broadcast *op) {
    include(op->value);
}

void IRVisitor::visit(const Call *op) {
    for (const Expr &a : op->args) {
        include(a);
    }
}

void IRVisitor::visit(const Let *op) {
    include(op->value);
    include(op->body);
}

void IRVisitor::visit(const LetStmt *op) {
    include(op->value);
    include(op->body);
}

void IRVisitor::visit(const AssertStmt *op) {
    include(op->condition);
    include(op->message);
}

void IRVisitor::visit(const For *op) {
    include(op->min);
    include(op->extent);
    include(op->body);
}

void IRVisitor::visit(const Provide *op) {
    for (const Expr &v : op->values) {
        include(v);
    }
    for (const Expr &a : op->args) {
        include(a);
    }
}

void IRVisitor::visit(const Realize *op) {
    for (const Range &r : op->bounds) {
        include(r.min);
        include(r.extent);
    }
    include(op->body);
}

void IRVisitor::visit(const Store *op) {
    include(op->value);
    include(op->index);
}

void IRVisitor::visit(const Allocate *op) {
    for (const Expr &e : op->extents) {
        include(e);
    }
    if (op->new_expr.defined()) {
        include(op->new_expr);
    }
    include(op->body);
}

void IRVisitor::visit(const Block *op) {
    include(op->first);
    include(op->rest);
}

void IRVisitor::visit(const IfThenElse *op) {
    include(op->condition);
    include(op->then_case);
    include(op->else_case);
}

void IRVisitor::visit(const Evaluate *op) {
    include(op->value);
}

void IRVisitor::visit(const ProducerConsumer *op) {
    include(op->body);
}
void IRVisitor::visit(const Atomic *op) {
    include(op->body);
}

} // namespace Internal
} // namespace Halide
