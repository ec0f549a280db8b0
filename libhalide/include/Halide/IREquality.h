// Deep structural comparison of IR trees (same node kinds, types, names and
// values all the way down), plus a total order on expressions so they can
// key a std::map (for common-subexpression elimination and the like).
#ifndef HALIDE_IR_EQUALITY_H
#define HALIDE_IR_EQUALITY_H

#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// Two undefined handles are equal; an undefined one equals nothing else.
// Float literals compare by bit pattern (so nan == nan and 0.0 != -0.0).
bool equal(const Expr &a, const Expr &b);
bool equal(const Stmt &a, const Stmt &b);

// A total order consistent with equal(): negative, zero or positive.
int deep_compare(const Expr &a, const Expr &b);
int deep_compare(const Stmt &a, const Stmt &b);

// For std::map<Expr, T, ExprCompare>.
struct ExprCompare {
    bool operator()(const Expr &a, const Expr &b) const { return deep_compare(a, b) < 0; }
};

} // namespace Internal
} // namespace Halide

#endif
