// See IROperator.h: strict_float and unsafe_promise_clamped, intrinsics that
// wrap a value and change how it is compiled (not what it is).
#include <cmath>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

using namespace Internal;

Expr strict_float(Expr e) {
    user_assert(e.defined()) << "strict_float of an undefined Expr";
    Type t = e.type();
    return Call::make(t, Intrinsics::strict_float, {std::move(e)}, Call::Intrinsic);
}

namespace {

// The lowest and highest values of t (infinities for floats).
Expr lowest(Type t) {
    Type s = t.element_of();
    return s.is_float() ? make_const(t, -(double)INFINITY) : make_const(t, s.imin());
}

Expr highest(Type t) {
    Type s = t.element_of();
    return s.is_float() ? make_const(t, (double)INFINITY) : make_const(t, s.umax());
}

} // namespace

Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max) {
    user_assert(value.defined()) << "unsafe_promise_clamped of an undefined Expr";
    Type t = value.type();
    user_assert(!t.is_handle()) << "unsafe_promise_clamped of a handle";
    Expr lo = min.defined() ? cast(t, min) : lowest(t);
    Expr hi = max.defined() ? cast(t, max) : highest(t);
    return Call::make(t, Intrinsics::unsafe_promise_clamped, {value, lo, hi}, Call::Intrinsic);
}

} // namespace Halide
