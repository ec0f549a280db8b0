// See IROperator.h: popcount, count_leading_zeros and count_trailing_zeros
// (intrinsics that codegen maps onto LLVM's ctpop, ctlz and cttz, defined
// for zero), and extract_bits / concat_bits, built from shifts, casts and
// reinterprets of unsigned integers.
#include <sstream>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

using namespace Internal;

namespace {

Expr bit_count(const char *name, Expr x) {
    user_assert(x.defined()) << name << " of an undefined Expr";
    user_assert(x.type().is_int_or_uint() && !x.type().is_bool())
        << "Argument to " << name << " must be an integer, but it has type " << x.type();
    Type t = x.type();
    return Call::make(t, name, {std::move(x)}, Call::Intrinsic);
}

// e's bits as an unsigned integer of the same width.
Expr as_unsigned(const Expr &e) {
    Type u = UInt(e.type().bits(), e.type().lanes());
    if (e.type() == u) {
        return e;
    }
    if (e.type().is_int()) {
        return cast(u, e); // same width: the bits are unchanged
    }
    return reinterpret(u, e);
}

} // namespace

Expr popcount(Expr x) {
    return bit_count(Intrinsics::popcount, std::move(x));
}

Expr count_leading_zeros(Expr x) {
    return bit_count(Intrinsics::count_leading_zeros, std::move(x));
}

Expr count_trailing_zeros(Expr x) {
    return bit_count(Intrinsics::count_trailing_zeros, std::move(x));
}

Expr extract_bits(Type t, const Expr &e, const Expr &lsb) {
    user_assert(e.defined() && lsb.defined()) << "extract_bits of an undefined Expr";
    user_assert(!e.type().is_handle() && !t.is_handle()) << "extract_bits of a handle";
    user_assert(lsb.type().is_int_or_uint() && !lsb.type().is_bool())
        << "extract_bits: the bit index must be an integer, but it has type " << lsb.type();
    user_assert(lsb.type().lanes() == 1 || lsb.type().lanes() == e.type().lanes())
        << "extract_bits: the bit index has a different vector width from the value";
    int lanes = e.type().lanes();
    t = t.with_lanes(lanes);
    // A logical shift of the unsigned bits brings in zeros above the value.
    Expr shifted = as_unsigned(e) >> lsb;
    if (t.is_bool()) {
        return (shifted & 1) == make_one(shifted.type());
    }
    Expr bits = cast(UInt(t.bits(), lanes), shifted); // truncates or zero-extends
    return t.is_uint() ? bits : reinterpret(t, bits);
}

Expr concat_bits(const std::vector<Expr> &e) {
    user_assert(!e.empty()) << "concat_bits needs at least one argument";
    size_t n = e.size();
    user_assert((n & (n - 1)) == 0) << "concat_bits received " << n << " arguments, which is not a power of two";
    for (const Expr &x : e) {
        user_assert(x.defined()) << "concat_bits of an undefined Expr";
        user_assert(x.type() == e[0].type())
            << "All arguments to concat_bits must have the same type, but got " << e[0].type() << " and " << x.type();
    }
    Type t = e[0].type();
    user_assert(t.is_int_or_uint() && !t.is_bool()) << "concat_bits is only defined for integer types, but got " << t;
    int bits = t.bits() * (int)n;
    user_assert(bits <= 64) << "concat_bits: the result would have " << bits << " bits (at most 64 are supported)";
    if (n == 1) {
        return e[0];
    }
    Type wide = UInt(bits, t.lanes());
    Expr result;
    for (size_t i = 0; i < n; i++) {
        Expr part = cast(wide, as_unsigned(e[i]));
        if (i > 0) {
            part = part << make_const(wide, (uint64_t)(i * t.bits()));
        }
        result = result.defined() ? (result | part) : part;
    }
    return t.is_uint() ? result : reinterpret(t.with_bits(bits), result);
}

} // namespace Halide
