// IRVisitor: a read-only walk over the IR. `include` dispatches on the
// node's kind to the matching `visit`, whose default visits the children in
// field order. Override the kinds you care about and call the base visit to
// keep walking below them.
#ifndef HALIDE_IR_VISITOR_H
#define HALIDE_IR_VISITOR_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

class IRVisitor {
public:
    IRVisitor() = default;
    IRVisitor(const IRVisitor &) = default;
    IRVisitor &operator=(const IRVisitor &) = default;
    virtual ~IRVisitor() = default;

    // Visit a node (undefined handles are skipped).
    void include(const Expr &e);
    void include(const Stmt &s);

    // One per node kind; the defaults visit the children.
#define HALIDE_IR_NODE(N) virtual void visit(const N *);
#include "Halide/IRNodes.def"
#undef HALIDE_IR_NODE
};

} // namespace Internal
} // namespace Halide

#endif
