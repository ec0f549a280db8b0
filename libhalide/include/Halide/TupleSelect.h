// select() of Tuples, as upstream's: each value chosen by one condition
// (an Expr) or by its own (a Tuple of conditions), and the multi-case form
// select(c0, t0, c1, t1, ..., default). Calls of Funcs (which convert to
// both) choose between Exprs, as upstream's: select(c, f(x), g(x)) is an Expr.
// mux() of Tuples and of Func calls, as upstream's, is here too.
#ifndef HALIDE_TUPLE_SELECT_H
#define HALIDE_TUPLE_SELECT_H

#include <initializer_list>
#include <utility>
#include <vector>

#include "Halide/IROperator.h"
#include "Halide/Tuple.h"

namespace Halide {

class FuncRef;

Tuple select(const Expr &condition, const Tuple &true_value, const Tuple &false_value);
Tuple select(const Tuple &condition, const Tuple &true_value, const Tuple &false_value);

template <typename... Args>
Tuple select(const Expr &c0, const Tuple &v0, const Expr &c1, const Tuple &v1, Args &&...args) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(args)...));
}

template <typename... Args>
Tuple select(const Tuple &c0, const Tuple &v0, const Tuple &c1, const Tuple &v1, Args &&...args) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(args)...));
}

// Single-valued Funcs only (a Tuple-valued one is a CompileError: write
// Tuple(f(x)) to choose between Tuples).
Expr select(const Expr &condition, const FuncRef &true_value, const FuncRef &false_value);
template <typename... Args>
Expr select(const Expr &c0, const FuncRef &v0, const Expr &c1, const FuncRef &v1, Args &&...args) {
    return select(c0, v0, select(c1, v1, std::forward<Args>(args)...));
}

// mux(id, values) with the values those of a Tuple (mux(c, f(x)) for a
// Tuple-valued f picks value c), of Func calls, or, per value, of Tuples
// (all of one size).
Expr mux(const Expr &id, const Tuple &values);
Expr mux(const Expr &id, const std::initializer_list<FuncRef> &values);
Tuple mux(const Expr &id, const std::initializer_list<Tuple> &values);
Tuple mux(const Expr &id, const std::vector<Tuple> &values);

} // namespace Halide

#endif
