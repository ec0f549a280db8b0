// See IROperator.h: the fixed-point helpers (widening, saturating, halving
// and rounding arithmetic). Each is expanded here into ordinary IR, so the
// rest of the compiler (simplifier, bounds, vectorizer, codegen) needs
// nothing new; LLVM recognizes most of the shapes (clamped widened sums,
// for instance) as the target's saturating or averaging instructions.
//
// Where a wider type is not needed (or does not exist, for 64 bits) the
// expansions use identities exact in two's complement:
//   floor((a + b) / 2) = (a & b) + ((a ^ b) >> 1)
//   floor((a + b + 1) / 2) = (a | b) - ((a ^ b) >> 1)
//   floor((a - b) / 2) = ((a ^ b) >> 1) - (~a & b)
//   round(a / 2^b) = (a >> b) + ((a >> (b - 1)) & 1)   for b > 0
// (each right side's only add or subtract computes the exact result, so it
// never overflows where the result fits).
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

using namespace Internal;

namespace {

bool is_integer(const Type &t) {
    return t.is_int_or_uint() && !t.is_bool();
}

void check_defined2(const Expr &a, const Expr &b, const char *name) {
    user_assert(a.defined() && b.defined()) << name << " of an undefined Expr";
    user_assert(!a.type().is_handle() && !b.type().is_handle()) << name << " of a handle";
}

void check_integers(const Expr &a, const Expr &b, const char *name) {
    check_defined2(a, b, name);
    user_assert(is_integer(a.type()) && is_integer(b.type()))
        << name << " is only defined for integer types, but got " << a.type() << " and " << b.type();
}

// t with twice the bits (and signed if `to_signed`).
Type widened(Type t, const char *name, bool to_signed = false) {
    user_assert(t.bits() < 64) << name << " of a " << t.bits()
                               << "-bit Expr: its result would need 128 bits, which no type here has";
    Type w = t.with_bits(t.bits() * 2);
    if (t.is_bfloat()) {
        w = Float(32, t.lanes());
    }
    return to_signed && !w.is_float() ? w.with_code(halide_type_int) : w;
}

// As a << b does: the narrower of the two is widened to the other's width,
// each keeping its signedness.
void match_shift_widths(Expr &a, Expr &b) {
    if (a.type().bits() < b.type().bits()) {
        a = cast(a.type().with_bits(b.type().bits()), a);
    } else if (b.type().bits() < a.type().bits()) {
        b = cast(b.type().with_bits(a.type().bits()), b);
    }
}

// A C++ int shift amount for an Expr `a`: a signed integer of a's width.
Expr shift_amount(const Expr &a, int b, const char *name) {
    user_assert(a.defined()) << name << " of an undefined Expr";
    user_assert(is_integer(a.type())) << name << " is only defined for integer types, but got " << a.type();
    Type t = Int(a.type().bits(), a.type().lanes());
    user_assert(t.can_represent((int64_t)b)) << name << ": the shift " << b << " does not fit in " << t;
    return make_const(t, (int64_t)b);
}

Expr widen_right(const char *name, Expr a, Expr b) {
    check_defined2(a, b, name);
    user_assert(is_integer(a.type()) && is_integer(b.type()))
        << name << " is only defined for integer types, but got " << a.type() << " and " << b.type();
    Type w = widened(b.type(), name);
    user_assert(w == a.type()) << name << ": the first argument must have the type of the second widened (" << w
                               << "), but the types are " << a.type() << " and " << b.type();
    return cast(w, std::move(b));
}

Expr type_max(Type t) {
    return t.is_int() ? make_const(t, t.imax()) : make_const(t, t.umax());
}

} // namespace

Expr widen_right_add(Expr a, Expr b) {
    Expr wb = widen_right("widen_right_add", a, std::move(b));
    return std::move(a) + wb;
}

Expr widen_right_sub(Expr a, Expr b) {
    Expr wb = widen_right("widen_right_sub", a, std::move(b));
    return std::move(a) - wb;
}

Expr widen_right_mul(Expr a, Expr b) {
    Expr wb = widen_right("widen_right_mul", a, std::move(b));
    return std::move(a) * wb;
}

Expr widening_add(Expr a, Expr b) {
    check_defined2(a, b, "widening_add");
    match_types(a, b);
    Type w = widened(a.type(), "widening_add");
    return cast(w, std::move(a)) + cast(w, std::move(b));
}

Expr widening_sub(Expr a, Expr b) {
    check_defined2(a, b, "widening_sub");
    match_types(a, b);
    Type w = widened(a.type(), "widening_sub", true);
    return cast(w, std::move(a)) - cast(w, std::move(b));
}

Expr widening_mul(Expr a, Expr b) {
    check_defined2(a, b, "widening_mul");
    if (a.type().is_float() || b.type().is_float()) {
        match_types(a, b);
        Type w = widened(a.type(), "widening_mul");
        return cast(w, std::move(a)) * cast(w, std::move(b));
    }
    check_integers(a, b, "widening_mul");
    user_assert(a.type().lanes() == b.type().lanes()) << "widening_mul of Exprs with different vector widths";
    int bits = std::max(a.type().bits(), b.type().bits());
    bool is_signed = a.type().is_int() || b.type().is_int();
    Type t = (is_signed ? Int(bits) : UInt(bits)).with_lanes(a.type().lanes());
    // Each operand converts to the wide type from its own signedness; the
    // product of two n-bit values always fits in 2n bits.
    Type w = widened(t, "widening_mul");
    return cast(w, std::move(a)) * cast(w, std::move(b));
}

Expr widening_shift_left(Expr a, Expr b) {
    check_integers(a, b, "widening_shift_left");
    match_shift_widths(a, b);
    Type w = widened(a.type(), "widening_shift_left");
    return cast(w, std::move(a)) << std::move(b);
}

Expr widening_shift_left(Expr a, int b) {
    Expr e = shift_amount(a, b, "widening_shift_left");
    return widening_shift_left(std::move(a), e);
}

Expr widening_shift_right(Expr a, Expr b) {
    check_integers(a, b, "widening_shift_right");
    match_shift_widths(a, b);
    Type w = widened(a.type(), "widening_shift_right");
    return cast(w, std::move(a)) >> std::move(b);
}

Expr widening_shift_right(Expr a, int b) {
    Expr e = shift_amount(a, b, "widening_shift_right");
    return widening_shift_right(std::move(a), e);
}

Expr rounding_shift_right(Expr a, Expr b) {
    check_integers(a, b, "rounding_shift_right");
    match_shift_widths(a, b);
    Type t = a.type();
    // The rounding bit is the last one shifted out; a left shift (b <= 0)
    // shifts nothing out.
    Expr round = select(b > 0, (a >> (b - 1)) & 1, make_zero(t));
    return (a >> b) + round;
}

Expr rounding_shift_right(Expr a, int b) {
    Expr e = shift_amount(a, b, "rounding_shift_right");
    return rounding_shift_right(std::move(a), e);
}

Expr rounding_shift_left(Expr a, Expr b) {
    check_integers(a, b, "rounding_shift_left");
    match_shift_widths(a, b);
    Type t = a.type();
    if (b.type().is_uint()) {
        return a << b;
    }
    // A negative b is a rounding right shift by -b; ~b is -b - 1 without
    // overflow.
    Expr round = select(b < 0, (a >> ~b) & 1, make_zero(t));
    return (a << b) + round;
}

Expr rounding_shift_left(Expr a, int b) {
    Expr e = shift_amount(a, b, "rounding_shift_left");
    return rounding_shift_left(std::move(a), e);
}

Expr saturating_add(Expr a, Expr b) {
    check_integers(a, b, "saturating_add");
    match_types(a, b);
    Type t = a.type();
    if (t.bits() < 64) {
        Type w = widened(t, "saturating_add");
        return saturating_cast(t, cast(w, std::move(a)) + cast(w, std::move(b)));
    }
    if (t.is_uint()) {
        Expr s = a + b;
        return select(s < a, type_max(t), s);
    }
    // 64-bit signed: add as unsigned (wrapping); the sum overflowed when it
    // has the opposite sign of both operands.
    Type u = t.with_code(halide_type_uint);
    Expr s = reinterpret(t, reinterpret(u, a) + reinterpret(u, b));
    Expr overflow = ((a ^ s) & (b ^ s)) < make_zero(t);
    return select(overflow, select(a < make_zero(t), make_const(t, t.imin()), type_max(t)), s);
}

Expr saturating_sub(Expr a, Expr b) {
    check_integers(a, b, "saturating_sub");
    match_types(a, b);
    Type t = a.type();
    if (t.is_uint()) {
        return select(a < b, make_zero(t), a - b);
    }
    if (t.bits() < 64) {
        Type w = widened(t, "saturating_sub");
        return saturating_cast(t, cast(w, std::move(a)) - cast(w, std::move(b)));
    }
    // 64-bit signed: the difference overflowed when the operands' signs
    // differ and the result's sign is not a's.
    Type u = t.with_code(halide_type_uint);
    Expr s = reinterpret(t, reinterpret(u, a) - reinterpret(u, b));
    Expr overflow = ((a ^ b) & (a ^ s)) < make_zero(t);
    return select(overflow, select(a < make_zero(t), make_const(t, t.imin()), type_max(t)), s);
}

Expr halving_add(Expr a, Expr b) {
    check_integers(a, b, "halving_add");
    match_types(a, b);
    return (a & b) + ((a ^ b) >> 1);
}

Expr rounding_halving_add(Expr a, Expr b) {
    check_integers(a, b, "rounding_halving_add");
    match_types(a, b);
    return (a | b) - ((a ^ b) >> 1);
}

Expr halving_sub(Expr a, Expr b) {
    check_integers(a, b, "halving_sub");
    match_types(a, b);
    return ((a ^ b) >> 1) - (~a & b);
}

namespace {

Expr mul_shift(const char *name, Expr a, Expr b, Expr q, bool rounding) {
    check_integers(a, b, name);
    user_assert(q.defined()) << name << " of an undefined Expr";
    match_types(a, b);
    user_assert(q.type().is_uint()) << name << " shift must be unsigned, but it has type " << q.type();
    Type t = a.type();
    Expr product = widening_mul(std::move(a), std::move(b));
    Expr shifted = rounding ? rounding_shift_right(product, std::move(q)) : product >> std::move(q);
    return saturating_cast(t, shifted);
}

Expr unsigned_shift(const Expr &a, int q, const char *name) {
    user_assert(a.defined()) << name << " of an undefined Expr";
    Type t = UInt(a.type().bits(), a.type().lanes());
    user_assert(q >= 0 && t.can_represent((int64_t)q)) << name << ": the shift " << q << " does not fit in " << t;
    return make_const(t, (int64_t)q);
}

} // namespace

Expr mul_shift_right(Expr a, Expr b, Expr q) {
    return mul_shift("mul_shift_right", std::move(a), std::move(b), std::move(q), false);
}

Expr mul_shift_right(Expr a, Expr b, int q) {
    Expr e = unsigned_shift(a, q, "mul_shift_right");
    return mul_shift("mul_shift_right", std::move(a), std::move(b), e, false);
}

Expr rounding_mul_shift_right(Expr a, Expr b, Expr q) {
    return mul_shift("rounding_mul_shift_right", std::move(a), std::move(b), std::move(q), true);
}

Expr rounding_mul_shift_right(Expr a, Expr b, int q) {
    Expr e = unsigned_shift(a, q, "rounding_mul_shift_right");
    return mul_shift("rounding_mul_shift_right", std::move(a), std::move(b), e, true);
}

} // namespace Halide
