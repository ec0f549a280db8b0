// IRMutator: rebuilds the IR bottom-up. `mutate` dispatches on the node's
// kind to the matching `visit`, whose default mutates the children and
// rebuilds the node only if one changed (otherwise the original handle comes
// back, so untouched subtrees stay same_as their input). A visit called on a
// node that did not come through mutate (say, one the override just built)
// still works, but returns a copy rather than the same handle.
//
// A statement whose body mutates to nothing (an undefined Stmt) disappears:
// LetStmt, For, Realize and Allocate return an undefined Stmt; Block keeps
// the other half; IfThenElse with no cases left disappears too.
#ifndef HALIDE_IR_MUTATOR_H
#define HALIDE_IR_MUTATOR_H

#include <memory>
#include <utility>
#include <vector>

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

class IRMutator {
public:
    IRMutator() = default;
    IRMutator(const IRMutator &) = default;
    IRMutator &operator=(const IRMutator &) = default;
    virtual ~IRMutator() = default;

    // Mutate a node (an undefined handle stays undefined). Virtual, as
    // upstream's: a pass may override them to see every node first.
    virtual Expr mutate(const Expr &e);
    virtual Stmt mutate(const Stmt &s);

    // Mutate every element; `changed` (if given) says whether any differs.
    std::vector<Expr> mutate_exprs(const std::vector<Expr> &es, bool *changed = nullptr);
    // The same, as upstream spells it: the new list and whether any differs.
    std::pair<std::vector<Expr>, bool> mutate_with_changes(const std::vector<Expr> &es) {
        bool changed = false;
        std::vector<Expr> out = mutate_exprs(es, &changed);
        return {std::move(out), changed};
    }
    std::vector<Expr> mutate(const std::vector<Expr> &es) { return mutate_exprs(es); }

    virtual Expr visit(const IntImm *);
    virtual Expr visit(const UIntImm *);
    virtual Expr visit(const FloatImm *);
    virtual Expr visit(const StringImm *);
    virtual Expr visit(const Cast *);
    virtual Expr visit(const Variable *);
    virtual Expr visit(const Add *);
    virtual Expr visit(const Sub *);
    virtual Expr visit(const Mul *);
    virtual Expr visit(const Div *);
    virtual Expr visit(const Mod *);
    virtual Expr visit(const Min *);
    virtual Expr visit(const Max *);
    virtual Expr visit(const EQ *);
    virtual Expr visit(const NE *);
    virtual Expr visit(const LT *);
    virtual Expr visit(const LE *);
    virtual Expr visit(const GT *);
    virtual Expr visit(const GE *);
    virtual Expr visit(const And *);
    virtual Expr visit(const Or *);
    virtual Expr visit(const Not *);
    virtual Expr visit(const Select *);
    virtual Expr visit(const Load *);
    virtual Expr visit(const Ramp *);
    virtual Expr visit(const Broadcast *);
    virtual Expr visit(const Call *);
    virtual Expr visit(const Let *);

    virtual Stmt visit(const LetStmt *);
    virtual Stmt visit(const AssertStmt *);
    virtual Stmt visit(const ProducerConsumer *);
    virtual Stmt visit(const For *);
    virtual Stmt visit(const Provide *);
    virtual Stmt visit(const Realize *);
    virtual Stmt visit(const Store *);
    virtual Stmt visit(const Allocate *);
    virtual Stmt visit(const Block *);
    virtual Stmt visit(const IfThenElse *);
    virtual Stmt visit(const Evaluate *);
    virtual Stmt visit(const Atomic *);

protected:
    // The handle of `op` if it is the node being mutated (the usual case when
    // a visit runs from mutate), else a fresh copy of the node.
    template <typename N> Expr self_expr(const N *op) const {
        if (!expr_stack_.empty() && expr_stack_.back().get() == op) {
            return expr_stack_.back();
        }
        return Expr(std::make_shared<N>(*op));
    }
    template <typename N> Stmt self_stmt(const N *op) const {
        if (!stmt_stack_.empty() && stmt_stack_.back().get() == op) {
            return stmt_stack_.back();
        }
        return Stmt(std::make_shared<N>(*op));
    }

private:
    // Handles of the nodes whose visit is running, innermost last.
    std::vector<Expr> expr_stack_;
    std::vector<Stmt> stmt_stack_;
};

} // namespace Internal
} // namespace Halide

#endif
