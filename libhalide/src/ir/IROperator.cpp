// The expression-building operators and functions, and constant helpers.
#include "Halide/IROperator.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "Halide/Error.h"
#include "ir/Lerp.h"

namespace Halide {
namespace Internal {

// ---------------------------------------------------------------------------
// Constants

bool is_const(const Expr &e) {
    return e.as<IntImm>() || e.as<UIntImm>() || e.as<FloatImm>() || e.as<StringImm>();
}

bool is_const(const Expr &e, int64_t v) {
    if (const IntImm *i = e.as<IntImm>()) {
        return i->value == v;
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        return v >= 0 && u->value == (uint64_t)v;
    }
    if (const FloatImm *f = e.as<FloatImm>()) {
        return f->value == (double)v;
    }
    return false;
}

const int64_t *as_const_int(const Expr &e) {
    const IntImm *i = e.as<IntImm>();
    return i ? &i->value : nullptr;
}

const uint64_t *as_const_uint(const Expr &e) {
    const UIntImm *u = e.as<UIntImm>();
    return u ? &u->value : nullptr;
}

const double *as_const_float(const Expr &e) {
    const FloatImm *f = e.as<FloatImm>();
    return f ? &f->value : nullptr;
}

bool is_const_power_of_two_integer(const Expr &e, int *bits) {
    uint64_t v = 0;
    if (const int64_t *i = as_const_int(e)) {
        if (*i <= 0) {
            return false;
        }
        v = (uint64_t)*i;
    } else if (const uint64_t *u = as_const_uint(e)) {
        v = *u;
    } else {
        return false;
    }
    if (v == 0 || (v & (v - 1)) != 0) {
        return false;
    }
    int b = 0;
    while (v > 1) {
        v >>= 1;
        b++;
    }
    if (bits) {
        *bits = b;
    }
    return true;
}

bool is_positive_const(const Expr &e) {
    if (const int64_t *i = as_const_int(e)) {
        return *i > 0;
    }
    if (const uint64_t *u = as_const_uint(e)) {
        return *u > 0;
    }
    if (const double *f = as_const_float(e)) {
        return *f > 0;
    }
    return false;
}

bool is_negative_const(const Expr &e) {
    if (const int64_t *i = as_const_int(e)) {
        return *i < 0;
    }
    if (const double *f = as_const_float(e)) {
        return *f < 0;
    }
    return false;
}

bool is_const_zero(const Expr &e) {
    return is_const(e, 0);
}

bool is_const_one(const Expr &e) {
    return is_const(e, 1);
}

bool is_no_op(const Stmt &s) {
    if (!s.defined()) {
        return true;
    }
    const Evaluate *ev = s.as<Evaluate>();
    return ev && is_const(ev->value);
}

namespace {

// An int64 or uint64 as the nearest float of `bits` width (one rounding).
double int_to_float_bits(int bits, int64_t v) {
    return bits == 32 ? (double)(float)v : (double)v;
}
double uint_to_float_bits(int bits, uint64_t v) {
    return bits == 32 ? (double)(float)v : (double)v;
}

} // namespace

Expr make_const(Type t, int64_t val) {
    internal_assert(t.bits() > 0) << "make_const of an undefined type";
    switch (t.code()) {
    case halide_type_int: return IntImm::make(t, val);
    case halide_type_uint: return UIntImm::make(t, t.is_bool() ? (val != 0) : (uint64_t)val);
    case halide_type_float: return FloatImm::make(t, int_to_float_bits(t.bits(), val));
    default: internal_error << "make_const of type " << type_to_string(t); return Expr();
    }
}

Expr make_const(Type t, uint64_t val) {
    internal_assert(t.bits() > 0) << "make_const of an undefined type";
    switch (t.code()) {
    case halide_type_int: return IntImm::make(t, (int64_t)val);
    case halide_type_uint: return UIntImm::make(t, t.is_bool() ? (val != 0) : val);
    case halide_type_float: return FloatImm::make(t, uint_to_float_bits(t.bits(), val));
    default: internal_error << "make_const of type " << type_to_string(t); return Expr();
    }
}

Expr make_const(Type t, double val) {
    internal_assert(t.bits() > 0) << "make_const of an undefined type";
    if (t.is_float()) {
        return FloatImm::make(t, val);
    }
    Expr r = cast_constant(t, FloatImm::make(Float(64), val));
    user_assert(r.defined()) << "The constant " << val << " cannot be represented as " << type_to_string(t);
    return r;
}

void check_representable(Type t, int64_t v) {
    user_assert(!t.is_handle()) << "Integer constant " << v << " cannot be combined with a handle";
    user_assert(t.can_represent(v)) << "Integer constant " << v << " takes the type of the other operand, "
                                    << type_to_string(t) << ", which cannot represent it exactly; cast one side "
                                    << "explicitly";
}

Expr make_bool(bool val, int lanes) {
    return UIntImm::make(Bool(lanes), val ? 1 : 0);
}
Expr make_zero(Type t) {
    return make_const(t, (int64_t)0);
}
Expr make_one(Type t) {
    return make_const(t, (int64_t)1);
}
Expr make_two(Type t) {
    return make_const(t, (int64_t)2);
}
Expr const_true(int lanes) {
    return make_bool(true, lanes);
}
Expr const_false(int lanes) {
    return make_bool(false, lanes);
}

Expr cast_constant(Type t, const Expr &e) {
    if (!e.defined() || t.is_handle() || t.bits() == 0) {
        return Expr();
    }
    Type from = e.type();
    if (from.is_handle()) {
        return Expr();
    }
    if (const IntImm *i = e.as<IntImm>()) {
        if (t.is_bool()) {
            return make_bool((i->value & 1) != 0, t.lanes()); // the low bit, as upstream
        }
        return make_const(t, i->value);
    }
    if (const UIntImm *u = e.as<UIntImm>()) {
        if (t.is_bool()) {
            return make_bool((u->value & 1) != 0, t.lanes());
        }
        return make_const(t, u->value);
    }
    if (const FloatImm *f = e.as<FloatImm>()) {
        double v = f->value;
        if (t.is_float()) {
            return FloatImm::make(t, v);
        }
        if (t.is_bool()) {
            // The low bit of the value truncated toward zero (out of the
            // int64 range, or NaN, is left to the target).
            double w = std::trunc(v);
            if (!(w > -9.2e18 && w < 9.2e18)) {
                return Expr();
            }
            return make_bool(((int64_t)w & 1) != 0, t.lanes());
        }
        if (std::isnan(v)) {
            return Expr();
        }
        double w = std::trunc(v);
        if (t.is_int()) {
            double lim = std::ldexp(1.0, t.bits() - 1);
            if (!(w >= -lim && w < lim)) {
                return Expr();
            }
            return IntImm::make(t, (int64_t)w);
        }
        double lim = std::ldexp(1.0, t.bits());
        if (!(w >= 0 && w < lim)) {
            return Expr();
        }
        return UIntImm::make(t, (uint64_t)w);
    }
    return Expr();
}

// ---------------------------------------------------------------------------
// Type coercion

namespace {

void check_defined(const Expr &e, const char *op) {
    user_assert(e.defined()) << op << " of an undefined Expr";
}

void check_not_handle(const Expr &e, const char *op) {
    user_assert(!e.type().is_handle()) << "Can't apply " << op << " to a handle (opaque pointer) expression";
}

std::string describe_type(const Expr &e) {
    return type_to_string(e.type());
}

} // namespace

void match_types(Expr &a, Expr &b) {
    user_assert(a.defined() && b.defined()) << "match_types of an undefined Expr";
    user_assert(!a.type().is_handle() && !b.type().is_handle())
        << "Can't do arithmetic on opaque pointer (handle) expressions";
    Type ta = a.type(), tb = b.type();
    if (ta == tb) {
        return;
    }
    user_assert(ta.lanes() == tb.lanes()) << "Can't combine expressions of types " << type_to_string(ta) << " and "
                                          << type_to_string(tb) << " (different vector widths)";
    if (!ta.is_float() && tb.is_float()) {
        a = cast(tb, std::move(a));
    } else if (ta.is_float() && !tb.is_float()) {
        b = cast(ta, std::move(b));
    } else if (ta.is_float() && tb.is_float()) {
        if (ta.bits() > tb.bits()) {
            b = cast(ta, std::move(b));
        } else {
            a = cast(tb, std::move(a));
        }
    } else if (ta.code() == tb.code()) {
        // Both signed or both unsigned: widen the narrower.
        if (ta.bits() > tb.bits()) {
            b = cast(ta, std::move(b));
        } else {
            a = cast(tb, std::move(a));
        }
    } else {
        // One signed, one unsigned: a signed int of the larger width.
        Type t = Int(ta.bits() > tb.bits() ? ta.bits() : tb.bits(), ta.lanes());
        a = cast(t, std::move(a));
        b = cast(t, std::move(b));
    }
}

void match_types_bitwise(Expr &a, Expr &b, const char *op_name) {
    user_assert(a.defined() && b.defined()) << op_name << " of an undefined Expr";
    user_assert(a.type().is_int() || a.type().is_uint())
        << "The first argument to " << op_name << " must be an integer, but it has type " << describe_type(a);
    user_assert(b.type().is_int() || b.type().is_uint())
        << "The second argument to " << op_name << " must be an integer, but it has type " << describe_type(b);
    user_assert(a.type().code() == b.type().code())
        << "The arguments to " << op_name << " must both be signed or both be unsigned, but they have types "
        << describe_type(a) << " and " << describe_type(b);
    user_assert(a.type().lanes() == b.type().lanes())
        << "The arguments to " << op_name << " have different vector widths";
    if (a.type().bits() > b.type().bits()) {
        b = cast(a.type(), std::move(b));
    } else if (b.type().bits() > a.type().bits()) {
        a = cast(b.type(), std::move(a));
    }
}

} // namespace Internal

using namespace Internal;

// ---------------------------------------------------------------------------
// Casts

Expr cast(Type t, Expr a) {
    user_assert(a.defined()) << "cast of an undefined Expr";
    user_assert(t.bits() > 0) << "cast to an undefined type";
    if (a.type() == t) {
        return a;
    }
    user_assert(t.is_handle() == a.type().is_handle())
        << "Can't cast an expression of type " << describe_type(a) << " to " << type_to_string(t)
        << ": handles only convert to handles";
    // A cast to bool keeps the lowest bit, as upstream's does (not C's
    // "nonzero"): it is a narrowing integer cast like any other.
    Expr folded = cast_constant(t, a);
    if (folded.defined()) {
        return folded;
    }
    return Cast::make(t, std::move(a));
}

// ---------------------------------------------------------------------------
// Arithmetic

namespace {

void check_arith(const Expr &a, const Expr &b, const char *op) {
    check_defined(a, op);
    check_defined(b, op);
}

// The int literal `v` as a constant of `other`'s type, checked.
Expr literal_like(const Expr &other, int v, const char *op) {
    check_defined(other, op);
    check_not_handle(other, op);
    check_representable(other.type(), v);
    return make_const(other.type(), (int64_t)v);
}

template <typename Node> Expr arith(Expr a, Expr b, const char *op) {
    check_arith(a, b, op);
    match_types(a, b);
    return Node::make(std::move(a), std::move(b));
}

} // namespace

Expr operator+(Expr a, Expr b) {
    return arith<Add>(std::move(a), std::move(b), "operator+");
}
Expr operator+(Expr a, int b) {
    Expr c = literal_like(a, b, "operator+");
    return Add::make(std::move(a), std::move(c));
}
Expr operator+(int a, Expr b) {
    Expr c = literal_like(b, a, "operator+");
    return Add::make(std::move(c), std::move(b));
}
Expr &operator+=(Expr &a, Expr b) {
    check_arith(a, b, "operator+=");
    Type t = a.type();
    a = std::move(a) + cast(t, std::move(b));
    return a;
}

Expr operator-(Expr a, Expr b) {
    return arith<Sub>(std::move(a), std::move(b), "operator-");
}
Expr operator-(Expr a, int b) {
    Expr c = literal_like(a, b, "operator-");
    return Sub::make(std::move(a), std::move(c));
}
Expr operator-(int a, Expr b) {
    Expr c = literal_like(b, a, "operator-");
    return Sub::make(std::move(c), std::move(b));
}
Expr operator-(Expr a) {
    check_defined(a, "unary operator-");
    check_not_handle(a, "unary operator-");
    Expr z = make_zero(a.type());
    return Sub::make(std::move(z), std::move(a));
}
Expr &operator-=(Expr &a, Expr b) {
    check_arith(a, b, "operator-=");
    Type t = a.type();
    a = std::move(a) - cast(t, std::move(b));
    return a;
}

Expr operator*(Expr a, Expr b) {
    return arith<Mul>(std::move(a), std::move(b), "operator*");
}
Expr operator*(Expr a, int b) {
    Expr c = literal_like(a, b, "operator*");
    return Mul::make(std::move(a), std::move(c));
}
Expr operator*(int a, Expr b) {
    Expr c = literal_like(b, a, "operator*");
    return Mul::make(std::move(c), std::move(b));
}
Expr &operator*=(Expr &a, Expr b) {
    check_arith(a, b, "operator*=");
    Type t = a.type();
    a = std::move(a) * cast(t, std::move(b));
    return a;
}

Expr operator/(Expr a, Expr b) {
    return arith<Div>(std::move(a), std::move(b), "operator/");
}
Expr &operator/=(Expr &a, Expr b) {
    check_arith(a, b, "operator/=");
    Type t = a.type();
    a = std::move(a) / cast(t, std::move(b));
    return a;
}
Expr operator/(Expr a, int b) {
    Expr c = literal_like(a, b, "operator/");
    return Div::make(std::move(a), std::move(c));
}
Expr operator/(int a, Expr b) {
    Expr c = literal_like(b, a, "operator/");
    return Div::make(std::move(c), std::move(b));
}

Expr operator%(Expr a, Expr b) {
    return arith<Mod>(std::move(a), std::move(b), "operator%");
}
Expr operator%(Expr a, int b) {
    Expr c = literal_like(a, b, "operator%");
    return Mod::make(std::move(a), std::move(c));
}
Expr operator%(int a, Expr b) {
    Expr c = literal_like(b, a, "operator%");
    return Mod::make(std::move(c), std::move(b));
}

// ---------------------------------------------------------------------------
// Comparisons

#define HALIDE_DEFINE_CMP(OP, NODE, NAME)                                                                              \
    Expr operator OP(Expr a, Expr b) {                                                                                 \
        return arith<NODE>(std::move(a), std::move(b), NAME);                                                          \
    }                                                                                                                  \
    Expr operator OP(Expr a, int b) {                                                                                  \
        Expr c = literal_like(a, b, NAME);                                                                             \
        return NODE::make(std::move(a), std::move(c));                                                                 \
    }                                                                                                                  \
    Expr operator OP(int a, Expr b) {                                                                                  \
        Expr c = literal_like(b, a, NAME);                                                                             \
        return NODE::make(std::move(c), std::move(b));                                                                 \
    }
HALIDE_DEFINE_CMP(>, GT, "operator>")
HALIDE_DEFINE_CMP(<, LT, "operator<")
HALIDE_DEFINE_CMP(<=, LE, "operator<=")
HALIDE_DEFINE_CMP(==, EQ, "operator==")
HALIDE_DEFINE_CMP(!=, NE, "operator!=")
#undef HALIDE_DEFINE_CMP

Expr operator>=(Expr a, Expr b) {
    return arith<GE>(std::move(a), std::move(b), "operator>=");
}
Expr operator>=(const Expr &a, int b) {
    return GE::make(a, literal_like(a, b, "operator>="));
}
Expr operator>=(int a, const Expr &b) {
    return GE::make(literal_like(b, a, "operator>="), b);
}

// ---------------------------------------------------------------------------
// Logical operators

namespace {

void check_bool(const Expr &e, const char *which, const char *op) {
    check_defined(e, op);
    user_assert(e.type().is_bool()) << "The " << which << (*which ? " " : "") << "argument to " << op
                                    << " must be a boolean (a comparison or logical expression), but it has type "
                                    << describe_type(e);
}

} // namespace

Expr operator&&(Expr a, Expr b) {
    check_bool(a, "first", "operator&&");
    check_bool(b, "second", "operator&&");
    return And::make(std::move(a), std::move(b));
}
Expr operator&&(Expr a, bool b) {
    check_bool(a, "first", "operator&&");
    return b ? a : const_false(a.type().lanes());
}
Expr operator&&(bool a, Expr b) {
    check_bool(b, "second", "operator&&");
    return a ? b : const_false(b.type().lanes());
}
Expr operator||(Expr a, Expr b) {
    check_bool(a, "first", "operator||");
    check_bool(b, "second", "operator||");
    return Or::make(std::move(a), std::move(b));
}
Expr operator||(Expr a, bool b) {
    check_bool(a, "first", "operator||");
    return b ? const_true(a.type().lanes()) : a;
}
Expr operator||(bool a, Expr b) {
    check_bool(b, "second", "operator||");
    return a ? const_true(b.type().lanes()) : b;
}
Expr operator!(Expr a) {
    check_bool(a, "", "operator!");
    return Not::make(std::move(a));
}

// ---------------------------------------------------------------------------
// min, max, clamp, abs, select

Expr max(Expr a, Expr b) {
    return arith<Max>(std::move(a), std::move(b), "max");
}
Expr max(Expr a, int b) {
    Expr c = literal_like(a, b, "max");
    return Max::make(std::move(a), std::move(c));
}
Expr max(int a, Expr b) {
    Expr c = literal_like(b, a, "max");
    return Max::make(std::move(c), std::move(b));
}
Expr min(Expr a, Expr b) {
    return arith<Min>(std::move(a), std::move(b), "min");
}
Expr min(Expr a, int b) {
    Expr c = literal_like(a, b, "min");
    return Min::make(std::move(a), std::move(c));
}
Expr min(int a, Expr b) {
    Expr c = literal_like(b, a, "min");
    return Min::make(std::move(c), std::move(b));
}

namespace {

// A clamp bound in type t: constants must fit exactly.
Expr clamp_bound(Type t, const Expr &bound, const char *which) {
    check_defined(bound, "clamp");
    if (bound.type() == t) {
        return bound;
    }
    bool fits = true;
    std::string value;
    if (const int64_t *i = as_const_int(bound)) {
        fits = t.can_represent(*i);
        value = std::to_string(*i);
    } else if (const uint64_t *u = as_const_uint(bound)) {
        fits = *u <= (uint64_t)std::numeric_limits<int64_t>::max() ? t.can_represent((int64_t)*u)
                                                                   : (t.is_uint() && t.bits() == 64) || t.is_float();
        value = std::to_string(*u);
    } else if (const double *f = as_const_float(bound)) {
        fits = t.can_represent(*f);
        value = std::to_string(*f);
    }
    user_assert(fits) << "clamp: the " << which << " bound " << value << " (" << describe_type(bound)
                      << ") cannot be represented in the clamped expression's type " << type_to_string(t);
    return cast(t, bound);
}

} // namespace

Expr clamp(Expr a, const Expr &min_val, const Expr &max_val) {
    check_defined(a, "clamp");
    check_not_handle(a, "clamp");
    Type t = a.type();
    Expr lo = clamp_bound(t, min_val, "lower");
    Expr hi = clamp_bound(t, max_val, "upper");
    return Max::make(Min::make(std::move(a), std::move(hi)), std::move(lo));
}

namespace {

// name + "f" for Float(32), name for Float(64).
std::string math_name(const char *name, Type t) {
    return t.bits() == 32 ? std::string(name) + "f" : std::string(name);
}

// A C math function of one float argument. Non-floats become Float(32);
// Float(16) is computed in Float(32).
Expr math_call1(const char *name, Expr x) {
    check_defined(x, name);
    check_not_handle(x, name);
    if (!x.type().is_float()) {
        Type f = Float(32, x.type().lanes());
        x = cast(f, std::move(x));
    }
    Type t = x.type();
    if (t.bits() == 16) {
        Type f = Float(32, t.lanes());
        return cast(t, Call::make(f, math_name(name, f), {cast(f, std::move(x))}, Call::Extern));
    }
    return Call::make(t, math_name(name, t), {std::move(x)}, Call::Extern);
}

// Two float arguments: coerced to one float type.
Expr math_call2(const char *name, Expr x, Expr y) {
    check_defined(x, name);
    check_defined(y, name);
    match_types(x, y);
    if (!x.type().is_float()) {
        Type f = Float(32, x.type().lanes());
        x = cast(f, std::move(x));
        y = cast(f, std::move(y));
    }
    Type t = x.type();
    if (t.bits() == 16) {
        Type f = Float(32, t.lanes());
        return cast(t, Call::make(f, math_name(name, f), {cast(f, std::move(x)), cast(f, std::move(y))}, Call::Extern));
    }
    return Call::make(t, math_name(name, t), {std::move(x), std::move(y)}, Call::Extern);
}

} // namespace

Expr abs(Expr a) {
    check_defined(a, "abs");
    check_not_handle(a, "abs");
    Type t = a.type();
    if (t.is_uint()) {
        return a;
    }
    Type rt = t.is_int() ? t.with_code(halide_type_uint) : t;
    return Call::make(rt, Intrinsics::abs, {std::move(a)}, Call::Intrinsic);
}

Expr absd(Expr a, Expr b) {
    check_arith(a, b, "absd");
    match_types(a, b);
    Type t = a.type();
    Expr cond = LT::make(a, b);
    if (t.is_float()) {
        return Select::make(std::move(cond), Sub::make(b, a), Sub::make(a, b));
    }
    // Modular subtraction in the unsigned type is exact because the true
    // difference is always below 2^bits.
    Type u = t.with_code(halide_type_uint);
    Expr ua = cast(u, a), ub = cast(u, b);
    return Select::make(std::move(cond), Sub::make(ub, ua), Sub::make(ua, ub));
}

Expr select(Expr condition, Expr true_value, Expr false_value) {
    check_defined(condition, "select");
    check_defined(true_value, "select");
    check_defined(false_value, "select");
    user_assert(condition.type().is_bool())
        << "The first argument to select must be a boolean, but it has type " << describe_type(condition);
    if (as_const_int(true_value) && true_value.type() != false_value.type()) {
        true_value = cast(false_value.type(), std::move(true_value));
    }
    if (as_const_int(false_value) && true_value.type() != false_value.type()) {
        false_value = cast(true_value.type(), std::move(false_value));
    }
    user_assert(true_value.type() == false_value.type())
        << "The second and third arguments to a select do not have a matching type: they have types "
        << describe_type(true_value) << " and " << describe_type(false_value);
    return Select::make(std::move(condition), std::move(true_value), std::move(false_value));
}

Expr mux(const Expr &id, const std::vector<Expr> &values) {
    check_defined(id, "mux");
    user_assert(!values.empty()) << "mux needs at least one value";
    user_assert(id.type().is_int() || id.type().is_uint())
        << "The index of mux must be an integer, but it has type " << describe_type(id);
    Expr result = values.back();
    check_defined(result, "mux");
    for (size_t i = values.size() - 1; i-- > 0;) {
        check_defined(values[i], "mux");
        user_assert(id.type().can_represent((int64_t)i))
            << "mux: too many values for an index of type " << describe_type(id);
        Expr idx = make_const(id.type(), (int64_t)i);
        result = select(EQ::make(id, idx), values[i], result);
    }
    return result;
}

Expr mux(const Expr &id, const std::initializer_list<Expr> &values) {
    return mux(id, std::vector<Expr>(values.begin(), values.end()));
}

// ---------------------------------------------------------------------------
// Math

Expr sin(Expr x) {
    return math_call1("sin", std::move(x));
}
Expr asin(Expr x) {
    return math_call1("asin", std::move(x));
}
Expr cos(Expr x) {
    return math_call1("cos", std::move(x));
}
Expr acos(Expr x) {
    return math_call1("acos", std::move(x));
}
Expr tan(Expr x) {
    return math_call1("tan", std::move(x));
}
Expr atan(Expr x) {
    return math_call1("atan", std::move(x));
}
Expr atan2(Expr y, Expr x) {
    return math_call2("atan2", std::move(y), std::move(x));
}
Expr sinh(Expr x) {
    return math_call1("sinh", std::move(x));
}
Expr asinh(Expr x) {
    return math_call1("asinh", std::move(x));
}
Expr cosh(Expr x) {
    return math_call1("cosh", std::move(x));
}
Expr acosh(Expr x) {
    return math_call1("acosh", std::move(x));
}
Expr tanh(Expr x) {
    return math_call1("tanh", std::move(x));
}
Expr atanh(Expr x) {
    return math_call1("atanh", std::move(x));
}
Expr sqrt(Expr x) {
    return math_call1("sqrt", std::move(x));
}
Expr hypot(const Expr &x, const Expr &y) {
    return math_call2("hypot", x, y);
}
Expr exp(Expr x) {
    return math_call1("exp", std::move(x));
}
Expr log(Expr x) {
    return math_call1("log", std::move(x));
}
Expr floor(Expr x) {
    return math_call1("floor", std::move(x));
}
Expr ceil(Expr x) {
    return math_call1("ceil", std::move(x));
}
Expr round(Expr x) {
    return math_call1("nearbyint", std::move(x));
}
Expr trunc(Expr x) {
    return math_call1("trunc", std::move(x));
}

Expr pow(Expr x, Expr y) {
    check_defined(x, "pow");
    check_defined(y, "pow");
    if (!x.type().is_float()) {
        Type f = Float(32, x.type().lanes());
        x = cast(f, std::move(x));
    }
    y = cast(x.type(), std::move(y));
    return math_call2("pow", std::move(x), std::move(y));
}

Expr fract(const Expr &x) {
    check_defined(x, "fract");
    Expr f = x.type().is_float() ? x : cast(Float(32, x.type().lanes()), x);
    return f - trunc(f);
}

namespace {

void check_float(const Expr &x, const char *op) {
    check_defined(x, op);
    user_assert(x.type().is_float()) << op << " requires a floating-point argument, but it has type "
                                     << describe_type(x);
}

} // namespace

Expr is_nan(Expr x) {
    check_float(x, "is_nan");
    return NE::make(x, x);
}

Expr is_inf(Expr x) {
    check_float(x, "is_inf");
    Expr inf = make_const(x.type(), std::numeric_limits<double>::infinity());
    Expr ninf = make_const(x.type(), -std::numeric_limits<double>::infinity());
    return Or::make(EQ::make(x, inf), EQ::make(x, ninf));
}

Expr is_finite(Expr x) {
    check_float(x, "is_finite");
    Expr inf = make_const(x.type(), std::numeric_limits<double>::infinity());
    Expr ninf = make_const(x.type(), -std::numeric_limits<double>::infinity());
    return And::make(GT::make(x, ninf), LT::make(x, inf));
}

Expr reinterpret(Type t, Expr e) {
    check_defined(e, "reinterpret");
    user_assert(t.bits() * t.lanes() == e.type().bits() * e.type().lanes())
        << "reinterpret can't change the number of bits: " << describe_type(e) << " to " << type_to_string(t);
    if (t == e.type()) {
        return e;
    }
    return Call::make(t, Intrinsics::reinterpret, {std::move(e)}, Call::Intrinsic);
}

// ---------------------------------------------------------------------------
// Bitwise operators and shifts

namespace {

Expr bitwise(const char *name, const char *op, Expr x, Expr y) {
    match_types_bitwise(x, y, op);
    Type t = x.type();
    return Call::make(t, name, {std::move(x), std::move(y)}, Call::Intrinsic);
}

Expr bitwise_literal(const char *name, const char *op, Expr x, int y, bool literal_first) {
    check_defined(x, op);
    user_assert(x.type().is_int() || x.type().is_uint())
        << "The arguments to " << op << " must be integers, but one has type " << describe_type(x);
    Expr c = literal_like(x, y, op);
    Type t = x.type();
    if (literal_first) {
        return Call::make(t, name, {std::move(c), std::move(x)}, Call::Intrinsic);
    }
    return Call::make(t, name, {std::move(x), std::move(c)}, Call::Intrinsic);
}

Expr shift(const char *name, const char *op, Expr x, Expr y) {
    check_defined(x, op);
    check_defined(y, op);
    user_assert(x.type().is_int() || x.type().is_uint())
        << "The first argument to " << op << " must be an integer, but it has type " << describe_type(x);
    user_assert(y.type().is_int() || y.type().is_uint())
        << "The second argument to " << op << " must be an integer, but it has type " << describe_type(y);
    // Match widths, each side keeping its signedness.
    if (x.type().bits() < y.type().bits()) {
        Type wide = x.type().with_bits(y.type().bits());
        x = cast(wide, std::move(x));
    } else if (y.type().bits() < x.type().bits()) {
        Type wide = y.type().with_bits(x.type().bits());
        y = cast(wide, std::move(y));
    }
    Type t = x.type();
    return Call::make(t, name, {std::move(x), std::move(y)}, Call::Intrinsic);
}

Expr shift_literal(const char *name, const char *op, Expr x, int y) {
    check_defined(x, op);
    user_assert(x.type().is_int() || x.type().is_uint())
        << "The first argument to " << op << " must be an integer, but it has type " << describe_type(x);
    Type t = x.type().with_code(halide_type_int);
    check_representable(t, y);
    return shift(name, op, std::move(x), make_const(t, (int64_t)y));
}

} // namespace

Expr operator&(Expr x, Expr y) {
    return bitwise(Intrinsics::bitwise_and, "operator&", std::move(x), std::move(y));
}
Expr operator&(Expr x, int y) {
    return bitwise_literal(Intrinsics::bitwise_and, "operator&", std::move(x), y, false);
}
Expr operator&(int x, Expr y) {
    return bitwise_literal(Intrinsics::bitwise_and, "operator&", std::move(y), x, true);
}
Expr operator|(Expr x, Expr y) {
    return bitwise(Intrinsics::bitwise_or, "operator|", std::move(x), std::move(y));
}
Expr operator|(Expr x, int y) {
    return bitwise_literal(Intrinsics::bitwise_or, "operator|", std::move(x), y, false);
}
Expr operator|(int x, Expr y) {
    return bitwise_literal(Intrinsics::bitwise_or, "operator|", std::move(y), x, true);
}
Expr operator^(Expr x, Expr y) {
    return bitwise(Intrinsics::bitwise_xor, "operator^", std::move(x), std::move(y));
}
Expr operator^(Expr x, int y) {
    return bitwise_literal(Intrinsics::bitwise_xor, "operator^", std::move(x), y, false);
}
Expr operator^(int x, Expr y) {
    return bitwise_literal(Intrinsics::bitwise_xor, "operator^", std::move(y), x, true);
}

Expr operator~(Expr x) {
    check_defined(x, "operator~");
    user_assert(x.type().is_int() || x.type().is_uint())
        << "The argument to operator~ must be an integer, but it has type " << describe_type(x);
    Type t = x.type();
    return Call::make(t, Intrinsics::bitwise_not, {std::move(x)}, Call::Intrinsic);
}

Expr operator<<(Expr x, Expr y) {
    return shift(Intrinsics::shift_left, "operator<<", std::move(x), std::move(y));
}
Expr operator<<(Expr x, int y) {
    return shift_literal(Intrinsics::shift_left, "operator<<", std::move(x), y);
}
Expr operator>>(Expr x, Expr y) {
    return shift(Intrinsics::shift_right, "operator>>", std::move(x), std::move(y));
}
Expr operator>>(Expr x, int y) {
    return shift_literal(Intrinsics::shift_right, "operator>>", std::move(x), y);
}

// ---------------------------------------------------------------------------
// lerp, likely, saturating casts

Expr lerp(Expr zero_val, Expr one_val, Expr weight) {
    check_defined(zero_val, "lerp");
    check_defined(one_val, "lerp");
    check_defined(weight, "lerp");
    // An int literal on one side takes the other side's type.
    if (as_const_int(zero_val) && zero_val.type() != one_val.type()) {
        zero_val = cast(one_val.type(), std::move(zero_val));
    }
    if (as_const_int(one_val) && zero_val.type() != one_val.type()) {
        one_val = cast(zero_val.type(), std::move(one_val));
    }
    user_assert(zero_val.type() == one_val.type())
        << "lerp: the two values must have the same type, but they have types " << describe_type(zero_val) << " and "
        << describe_type(one_val);
    user_assert(weight.type().is_float() || weight.type().is_uint())
        << "lerp: the weight must be a float or an unsigned integer, but it has type " << describe_type(weight);
    Type t = zero_val.type();
    user_assert(!t.is_handle()) << "lerp of handles";
    user_assert(t.bits() <= 32 || t.is_float()) << "lerp of 64-bit integers is not supported";
    if (!t.is_float()) {
        if (const double *w = as_const_float(weight)) {
            user_assert(*w >= 0 && *w <= 1) << "Floating-point weight for lerp with integer arguments is " << *w
                                            << ", which is not in the range [0.0f, 1.0f]";
        }
    }
    return lower_lerp(zero_val, one_val, weight);
}

Expr likely(Expr e) {
    check_defined(e, "likely");
    Type t = e.type();
    return Call::make(t, Intrinsics::likely, {std::move(e)}, Call::Intrinsic);
}

Expr likely_if_innermost(Expr e) {
    check_defined(e, "likely_if_innermost");
    Type t = e.type();
    return Call::make(t, Intrinsics::likely_if_innermost, {std::move(e)}, Call::Intrinsic);
}

Expr print(const std::vector<Expr> &args) {
    // A string first is allowed, as upstream's: its value is the string (a
    // handle), which is what Python's print("text") gives under
    // `from halide import *`.
    user_assert(!args.empty() && args[0].defined()) << "print() needs a value to return as its first argument";
    for (const Expr &a : args) {
        user_assert(a.defined()) << "print() was given an undefined expression";
    }
    return Call::make(args[0].type(), Intrinsics::print, args, Call::Intrinsic);
}

Expr print_when(const Expr &condition, const std::vector<Expr> &args) {
    user_assert(condition.defined() && condition.type().is_bool())
        << "print_when() needs a boolean condition as its first argument";
    user_assert(!args.empty() && args[0].defined()) << "print_when() needs a value to return after its condition";
    std::vector<Expr> all = {condition};
    all.insert(all.end(), args.begin(), args.end());
    return Call::make(args[0].type(), Intrinsics::print_when, all, Call::Intrinsic);
}

Expr saturating_cast(Type t, Expr e) {
    check_defined(e, "saturating_cast");
    Type s = e.type();
    user_assert(!t.is_handle() && !s.is_handle()) << "saturating_cast of handles";
    if (s == t) {
        return e;
    }
    if (t.is_float()) {
        // Every integer fits a float's range; float to float rounds (and may
        // become infinite), as a plain cast does.
        return cast(t, std::move(e));
    }
    if (t.is_bool()) {
        // Clamped to [0, 1], then nonzero: positive values are true.
        return GT::make(e, make_zero(s));
    }
    if (s.is_float()) {
        // Powers of two are exact in every float type; compare against them
        // rather than against t's maximum, which may not be representable.
        double hi = std::ldexp(1.0, t.is_int() ? t.bits() - 1 : t.bits());
        double lo = t.is_int() ? -hi : 0.0;
        Expr hi_f = make_const(s, hi), lo_f = make_const(s, lo);
        Expr tmax = t.is_int() ? make_const(t, t.imax()) : make_const(t, t.umax());
        Expr tmin = make_const(t, t.imin());
        Expr inner = Select::make(GT::make(e, lo_f), Cast::make(t, e), tmin);
        return Select::make(GE::make(e, hi_f), tmax, inner);
    }
    // Integer to integer: clamp in the source type where t's range is
    // narrower, then cast (which then never wraps).
    if (t.umax() < s.umax()) {
        e = Min::make(std::move(e), make_const(s, t.umax()));
    }
    if (t.imin() > s.imin()) {
        e = Max::make(std::move(e), make_const(s, t.imin()));
    }
    return cast(t, std::move(e));
}

} // namespace Halide
