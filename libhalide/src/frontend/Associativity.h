// Recognizes update definitions that combine a Func's own value with a new
// term by an associative and commutative operator (f(x) = f(x) + g, max,
// min, *, &&, ||, element by element for Tuples): the updates rfactor() can
// split and atomic() can make atomic.
#ifndef HALIDE_INTERNAL_ASSOCIATIVITY_H
#define HALIDE_INTERNAL_ASSOCIATIVITY_H

#include <string>
#include <vector>

#include "lower/Function.h"

namespace Halide {
namespace Internal {

enum class AssociativeOp { Add, Mul, Min, Max, And, Or };

// Value i of the update is ops[i](f(args)[i], terms[i]), where the term
// does not read f.
struct AssociativeForm {
    std::vector<AssociativeOp> ops;
    std::vector<Expr> terms;
};

// Whether update `u` of Func `func` has that form (filling `out` if so).
bool find_associative_form(const std::string &func, const UpdateDefinition &u, AssociativeForm *out);

// a op b.
Expr combine(AssociativeOp op, const Expr &a, const Expr &b);

// The value x with x op y == y for every y of type t (0 for +, 1 for *,
// the type's highest value for min, ...).
Expr identity_of(AssociativeOp op, Type t);

} // namespace Internal
} // namespace Halide

#endif
