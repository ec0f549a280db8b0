// The operators and functions that build expressions (x + 1, select, sqrt,
// casts, ...), with the implicit type coercions of Halide's front end, and
// helpers for constants used throughout the compiler.
//
// Binary operators on two Exprs coerce their operands with
// Internal::match_types. A C++ int on one side takes the type of the Expr on
// the other side (a CompileError if it does not fit); a C++ float becomes a
// Float(32) Expr and is then coerced like any other Expr.
#ifndef HALIDE_IR_OPERATOR_H
#define HALIDE_IR_OPERATOR_H

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "Halide/Expr.h"
#include "Halide/IR.h"

namespace Halide {
namespace Internal {

// Names of the Call::Intrinsic calls the front end builds, and what they
// mean (all are pure; their operands are evaluated first):
// - likely(x): x. Marks the branch of a select or condition expected to hold.
// - likely_if_innermost(x): x. The same, for the innermost loop only.
// - bitwise_and/or/xor(a, b): a and b of one integer type (Bool allowed),
//   result of that type.
// - bitwise_not(a): every bit of the integer a flipped.
// - shift_left(a, b) / shift_right(a, b): a and b integers of the same bit
//   width (their signedness may differ); the result has a's type.
//   shift_right of a signed a is arithmetic (sign-filling). The amount b is
//   read as unsigned: amounts >= the bit width (including every negative
//   signed b) give 0, or for shift_right of a signed a, the sign fill
//   (0 or -1).
// - abs(a): |a|. For a signed integer the call has the unsigned type of the
//   same width (abs of the most negative value is 2^(bits-1)); floats clear
//   the sign bit.
// - reinterpret(a): a's bits as the call's type (same bit width).
namespace Intrinsics {
constexpr const char likely[] = "likely";
constexpr const char likely_if_innermost[] = "likely_if_innermost";
constexpr const char bitwise_and[] = "bitwise_and";
constexpr const char bitwise_or[] = "bitwise_or";
constexpr const char bitwise_xor[] = "bitwise_xor";
constexpr const char bitwise_not[] = "bitwise_not";
constexpr const char shift_left[] = "shift_left";
constexpr const char shift_right[] = "shift_right";
constexpr const char abs[] = "abs";
constexpr const char reinterpret[] = "reinterpret";
// print(value, args...) prints its arguments (through halide_print) each time
// it is evaluated and returns `value`; print_when(cond, value, args...) only
// prints when cond is true.
constexpr const char print[] = "print";
constexpr const char print_when[] = "print_when";
// undef<T>(): no value (see undef below); removed by lowering.
constexpr const char undef[] = "undef";
// popcount(a) / count_leading_zeros(a) / count_trailing_zeros(a): the number
// of set bits, of zero bits above the highest set bit, of zero bits below the
// lowest set bit of the integer a (the bit width for a == 0); a's type.
constexpr const char popcount[] = "popcount";
constexpr const char count_leading_zeros[] = "count_leading_zeros";
constexpr const char count_trailing_zeros[] = "count_trailing_zeros";
// strict_float(a): a, with the floating-point operations inside computed
// exactly as written (no fused multiply-add).
constexpr const char strict_float[] = "strict_float";
// unsafe_promise_clamped(value, min, max): value, which the user promises
// lies in [min, max] (unchecked); bounds inference relies on it.
constexpr const char unsafe_promise_clamped[] = "unsafe_promise_clamped";
} // namespace Intrinsics

// Math functions are Call::Extern nodes named after the C library function
// for the argument type: "sqrtf" for Float(32), "sqrt" for Float(64), and
// likewise floor, ceil, trunc, nearbyint (round, ties to even), fabs, sin,
// cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, asinh, acosh, atanh,
// exp, log, pow, hypot. Float(16) arguments are computed in Float(32).

// Is e a call of undef() (see undef below)?
bool is_undef(const Expr &e);
// undef() may only be a whole value of a definition: an error naming
// `func` if it appears inside one of `values`.
void check_undef_placement(const std::string &func, const std::vector<Expr> &values);

// Is e an IntImm, UIntImm, FloatImm or StringImm?
bool is_const(const Expr &e);
// Is e a numeric immediate equal to v?
bool is_const(const Expr &e, int64_t v);

// The value of an IntImm / UIntImm / FloatImm, or nullptr for other nodes.
const int64_t *as_const_int(const Expr &e);
const uint64_t *as_const_uint(const Expr &e);
const double *as_const_float(const Expr &e);

// Is e an integer immediate that is a power of two? If so, *bits = log2(e).
bool is_const_power_of_two_integer(const Expr &e, int *bits);
// Numeric immediates > 0, < 0, == 0, == 1.
bool is_positive_const(const Expr &e);
bool is_negative_const(const Expr &e);
bool is_const_zero(const Expr &e);
bool is_const_one(const Expr &e);

// An undefined Stmt, or Evaluate of an immediate.
bool is_no_op(const Stmt &s);

// An immediate of type t with the given value. Integers wrap into integer
// types (as a C cast would); a Bool is true for any nonzero value; a float
// type rounds to its precision. A double that does not fit an integer type
// is a CompileError.
Expr make_const(Type t, int64_t val);
Expr make_const(Type t, uint64_t val);
Expr make_const(Type t, double val);
inline Expr make_const(Type t, int32_t val) {
    return make_const(t, (int64_t)val);
}
inline Expr make_const(Type t, uint32_t val) {
    return make_const(t, (uint64_t)val);
}
inline Expr make_const(Type t, int16_t val) {
    return make_const(t, (int64_t)val);
}
inline Expr make_const(Type t, uint16_t val) {
    return make_const(t, (uint64_t)val);
}
inline Expr make_const(Type t, int8_t val) {
    return make_const(t, (int64_t)val);
}
inline Expr make_const(Type t, uint8_t val) {
    return make_const(t, (uint64_t)val);
}
inline Expr make_const(Type t, bool val) {
    return make_const(t, (uint64_t)val);
}
inline Expr make_const(Type t, float val) {
    return make_const(t, (double)val);
}

// A CompileError unless the integer v is exactly representable in t.
void check_representable(Type t, int64_t v);

Expr make_bool(bool val, int lanes = 1);
Expr make_zero(Type t);
Expr make_one(Type t);
Expr make_two(Type t);
Expr const_true(int lanes = 1);
Expr const_false(int lanes = 1);

// The constant that casting the immediate e to t gives (C conversion rules:
// integers wrap, floats truncate towards zero, Bool is "nonzero"), or an
// undefined Expr if e is not an immediate or the result is not defined
// (a float out of the integer type's range, NaN to an integer, handles).
Expr cast_constant(Type t, const Expr &e);

// Coerce a and b to a common type, C-style (Bool counts as UInt(1)):
// - equal types: nothing;
// - one float, one not: the other becomes that float type;
// - both float: the narrower becomes the wider;
// - both unsigned, or both signed: the narrower becomes the wider;
// - one signed, one unsigned: both become a signed int with the larger
//   width (Int(8) with UInt(16) gives Int(16); UInt(8) with Int(8) gives
//   Int(8)).
// Handles are a CompileError.
void match_types(Expr &a, Expr &b);

// For & | ^: both must be integers (Bool included) and both signed or both
// unsigned; the narrower is widened to the wider.
void match_types_bitwise(Expr &a, Expr &b, const char *op_name);

// Euclidean integer division and modulus: the remainder is never negative,
// so the quotient rounds towards negative infinity for a positive divisor
// (and towards positive infinity for a negative one), and a == (a / b) * b +
// a % b. x / 0 == 0 and x % 0 == 0.
// Floats: a / b, and a - b * floor(a / b).
template <typename T> inline T div_imp(T a, T b) {
    if constexpr (std::is_floating_point<T>::value) {
        return a / b;
    } else {
        if (b == 0) {
            return 0;
        }
        if constexpr (std::is_signed<T>::value) {
            if (b == -1) {
                // Negate in unsigned arithmetic: the most negative value wraps.
                using U = typename std::make_unsigned<T>::type;
                return (T)(U)((U)0 - (U)a);
            }
            // C truncates; step away from zero so the remainder is never
            // negative (Euclidean division).
            T q = a / b;
            if (a % b < 0) {
                q = b > 0 ? q - 1 : q + 1;
            }
            return q;
        } else {
            return a / b;
        }
    }
}

template <typename T> inline T mod_imp(T a, T b) {
    if constexpr (std::is_floating_point<T>::value) {
        using std::floor;
        return a - b * floor(a / b);
    } else {
        if (b == 0) {
            return 0;
        }
        if constexpr (std::is_signed<T>::value) {
            if (b == -1) {
                return 0;
            }
            T r = a % b;
            if (r < 0) {
                r = b < 0 ? r - b : r + b;
            }
            return r;
        } else {
            return a % b;
        }
    }
}

} // namespace Internal

// Cast to a new type (integers wrap, floats truncate towards zero; casting
// to Bool means "!= 0"). Immediates are folded where the result is defined.
Expr cast(Type t, Expr a);
template <typename T> inline Expr cast(Expr a) {
    return cast(type_of<T>(), std::move(a));
}

Expr operator+(Expr a, Expr b);
Expr operator+(Expr a, int b);
Expr operator+(int a, Expr b);
Expr &operator+=(Expr &a, Expr b);

Expr operator-(Expr a, Expr b);
Expr operator-(Expr a, int b);
Expr operator-(int a, Expr b);
// 0 - a, in a's type (for unsigned types, the wrap-around negation).
Expr operator-(Expr a);
Expr &operator-=(Expr &a, Expr b);

Expr operator*(Expr a, Expr b);
Expr operator*(Expr a, int b);
Expr operator*(int a, Expr b);
Expr &operator*=(Expr &a, Expr b);

// Integer division rounds towards negative infinity for a positive divisor
// (towards positive infinity for a negative one, matching the Euclidean %),
// and dividing by zero gives zero.
Expr operator/(Expr a, Expr b);
Expr &operator/=(Expr &a, Expr b);
Expr operator/(Expr a, int b);
Expr operator/(int a, Expr b);

// Euclidean modulus: never negative; x % 0 is zero.
Expr operator%(Expr a, Expr b);
Expr operator%(Expr a, int b);
Expr operator%(int a, Expr b);

// The compound assignments above cast b to a's type, which does not change.

Expr operator>(Expr a, Expr b);
Expr operator>(Expr a, int b);
Expr operator>(int a, Expr b);
Expr operator<(Expr a, Expr b);
Expr operator<(Expr a, int b);
Expr operator<(int a, Expr b);
Expr operator<=(Expr a, Expr b);
Expr operator<=(Expr a, int b);
Expr operator<=(int a, Expr b);
Expr operator>=(Expr a, Expr b);
Expr operator>=(const Expr &a, int b);
Expr operator>=(int a, const Expr &b);
Expr operator==(Expr a, Expr b);
Expr operator==(Expr a, int b);
Expr operator==(int a, Expr b);
Expr operator!=(Expr a, Expr b);
Expr operator!=(Expr a, int b);
Expr operator!=(int a, Expr b);

// Logical operators: the operands must be Bool.
Expr operator&&(Expr a, Expr b);
Expr operator&&(Expr a, bool b);
Expr operator&&(bool a, Expr b);
Expr operator||(Expr a, Expr b);
Expr operator||(Expr a, bool b);
Expr operator||(bool a, Expr b);
Expr operator!(Expr a);

Expr max(Expr a, Expr b);
Expr max(Expr a, int b);
Expr max(int a, Expr b);
inline Expr max(float a, Expr b) {
    return max(Expr(a), std::move(b));
}
inline Expr max(Expr a, float b) {
    return max(std::move(a), Expr(b));
}

Expr min(Expr a, Expr b);
Expr min(Expr a, int b);
Expr min(int a, Expr b);
inline Expr min(float a, Expr b) {
    return min(Expr(a), std::move(b));
}
inline Expr min(Expr a, float b) {
    return min(std::move(a), Expr(b));
}

// min / max of three or more values.
template <typename A, typename B, typename C, typename... Rest,
          typename std::enable_if<(std::is_convertible<Rest, Expr>::value && ...)>::type * = nullptr>
inline Expr max(A &&a, B &&b, C &&c, Rest &&...rest) {
    return max(std::forward<A>(a), max(std::forward<B>(b), std::forward<C>(c), std::forward<Rest>(rest)...));
}
template <typename A, typename B, typename C, typename... Rest,
          typename std::enable_if<(std::is_convertible<Rest, Expr>::value && ...)>::type * = nullptr>
inline Expr min(A &&a, B &&b, C &&c, Rest &&...rest) {
    return min(std::forward<A>(a), min(std::forward<B>(b), std::forward<C>(c), std::forward<Rest>(rest)...));
}

// C++ float operands become Float(32) Exprs.
inline Expr operator+(Expr a, float b) {
    return std::move(a) + Expr(b);
}
inline Expr operator+(float a, Expr b) {
    return Expr(a) + std::move(b);
}
inline Expr operator-(Expr a, float b) {
    return std::move(a) - Expr(b);
}
inline Expr operator-(float a, Expr b) {
    return Expr(a) - std::move(b);
}
inline Expr operator*(Expr a, float b) {
    return std::move(a) * Expr(b);
}
inline Expr operator*(float a, Expr b) {
    return Expr(a) * std::move(b);
}
inline Expr operator/(Expr a, float b) {
    return std::move(a) / Expr(b);
}
inline Expr operator/(float a, Expr b) {
    return Expr(a) / std::move(b);
}
inline Expr operator%(Expr a, float b) {
    return std::move(a) % Expr(b);
}
inline Expr operator%(float a, Expr b) {
    return Expr(a) % std::move(b);
}
inline Expr operator>(Expr a, float b) {
    return std::move(a) > Expr(b);
}
inline Expr operator>(float a, Expr b) {
    return Expr(a) > std::move(b);
}
inline Expr operator<(Expr a, float b) {
    return std::move(a) < Expr(b);
}
inline Expr operator<(float a, Expr b) {
    return Expr(a) < std::move(b);
}
inline Expr operator>=(Expr a, float b) {
    return std::move(a) >= Expr(b);
}
inline Expr operator>=(float a, Expr b) {
    return Expr(a) >= std::move(b);
}
inline Expr operator<=(Expr a, float b) {
    return std::move(a) <= Expr(b);
}
inline Expr operator<=(float a, Expr b) {
    return Expr(a) <= std::move(b);
}
inline Expr operator==(Expr a, float b) {
    return std::move(a) == Expr(b);
}
inline Expr operator==(float a, Expr b) {
    return Expr(a) == std::move(b);
}
inline Expr operator!=(Expr a, float b) {
    return std::move(a) != Expr(b);
}
inline Expr operator!=(float a, Expr b) {
    return Expr(a) != std::move(b);
}

// max(min(a, max_val), min_val), with the bounds cast to a's type (a
// constant bound that does not fit a's type is a CompileError).
Expr clamp(Expr a, const Expr &min_val, const Expr &max_val);

// |a|. For a signed integer the result is the unsigned type of the same
// width, so abs of the most negative value does not overflow.
Expr abs(Expr a);

// |a - b| after match_types; unsigned of the same width for integers.
Expr absd(Expr a, Expr b);

// condition ? true_value : false_value, evaluating both. An int immediate
// on one side takes the other side's type; otherwise the types must match.
Expr select(Expr condition, Expr true_value, Expr false_value);

// select(c0, v0, c1, v1, ..., default): the first v whose c holds.
template <typename... Args, typename std::enable_if<(std::is_convertible<Args, Expr>::value && ...)>::type * = nullptr>
inline Expr select(Expr c0, Expr v0, Expr c1, Expr v1, Args &&...args) {
    return select(std::move(c0), std::move(v0), select(std::move(c1), std::move(v1), std::forward<Args>(args)...));
}

// values[id], or the last value if id is out of range.
Expr mux(const Expr &id, const std::initializer_list<Expr> &values);
Expr mux(const Expr &id, const std::vector<Expr> &values);

// Math functions. A non-float argument is cast to Float(32) first; the
// result has the (float) argument type.
Expr sin(Expr x);
Expr asin(Expr x);
Expr cos(Expr x);
Expr acos(Expr x);
Expr tan(Expr x);
Expr atan(Expr x);
Expr atan2(Expr y, Expr x);
Expr sinh(Expr x);
Expr asinh(Expr x);
Expr cosh(Expr x);
Expr acosh(Expr x);
Expr tanh(Expr x);
Expr atanh(Expr x);
Expr sqrt(Expr x);
Expr hypot(const Expr &x, const Expr &y);
Expr exp(Expr x);
Expr log(Expr x);
// x to the power y; y is cast to x's (float) type.
Expr pow(Expr x, Expr y);
Expr floor(Expr x);
Expr ceil(Expr x);
// Nearest whole number, ties to even.
Expr round(Expr x);
Expr trunc(Expr x);
// x - trunc(x): the same sign as x.
Expr fract(const Expr &x);
// Float argument required; the result is Bool.
Expr is_nan(Expr x);
Expr is_inf(Expr x);
Expr is_finite(Expr x);

// Fast approximations for Float(32) (upstream's accuracy: up to the last
// few bits of the mantissa; see FastMath.cpp), built from arithmetic and
// bit manipulation so they vectorize. fast_log is nonsense for x <= 0,
// fast_pow for x < 0, fast_exp where exp overflows or underflows.
Expr fast_log(const Expr &x);
Expr fast_exp(const Expr &x);
Expr fast_pow(Expr x, Expr y);
// 1 / x and 1 / sqrt(x) (here computed exactly; upstream uses the CPU's
// reciprocal estimate instructions where it has them).
Expr fast_inverse(Expr x);
Expr fast_inverse_sqrt(Expr x);
// sin(x) and cos(x) of a Float(32) x (here computed exactly; upstream uses a
// polynomial approximation).
Expr fast_sin(const Expr &x);
Expr fast_cos(const Expr &x);
// The Gauss error function of a Float(32) x (C's erff).
Expr erf(const Expr &x);

// In an update definition: leaves that value of the Func unchanged (a
// Tuple's element, or the whole point); as a pure definition: the Func's
// values are what its output buffer already holds. Only a whole value may
// be undef.
Expr undef(Type t);
template <typename T> inline Expr undef() {
    return undef(type_of<T>());
}

// The bits of e as type t (same bit width).
Expr reinterpret(Type t, Expr e);
template <typename T> Expr reinterpret(Expr e) {
    return reinterpret(type_of<T>(), std::move(e));
}

// Bitwise operators on integers. Two Exprs: both signed or both unsigned,
// the result has the wider type. With an int: the Expr's type.
Expr operator&(Expr x, Expr y);
Expr operator&(Expr x, int y);
Expr operator&(int x, Expr y);
Expr operator|(Expr x, Expr y);
Expr operator|(Expr x, int y);
Expr operator|(int x, Expr y);
Expr operator^(Expr x, Expr y);
Expr operator^(Expr x, int y);
Expr operator^(int x, Expr y);
Expr operator~(Expr x);

// Shifts of integers; the narrower operand is widened to the other's width
// (each keeps its signedness) and the result has x's (widened) type. Right
// shifts of signed values fill with the sign bit. Shifting by the bit width
// or more, or by a negative amount, gives 0 (or the sign fill for >> of a
// signed value).
Expr operator<<(Expr x, Expr y);
Expr operator<<(Expr x, int y);
Expr operator>>(Expr x, Expr y);
Expr operator>>(Expr x, int y);

// zero_val * (1 - weight) + one_val * weight. zero_val and one_val must have
// the same type; the weight is a float, or an unsigned integer meaning
// weight / its type's maximum. Integer results are rounded to nearest.
Expr lerp(Expr zero_val, Expr one_val, Expr weight);

// A printable argument of print(): an Expr or a string.
struct PrintArg {
    PrintArg(const Expr &e) : expr(e) {}
    PrintArg(const char *s) : expr(Internal::StringImm::make(s)) {}
    PrintArg(const std::string &s) : expr(Internal::StringImm::make(s)) {}
    template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>> PrintArg(T v) : expr(Expr(v)) {}
    Expr expr;
};

// Prints its arguments, separated by spaces, each time it is evaluated, and
// returns the first one: f(x) = print(x * 2, "at", x) computes x * 2.
Expr print(const std::vector<Expr> &args);
template <typename... Args> Expr print(const Expr &value, const Args &...rest) {
    return print(std::vector<Expr>{value, PrintArg(rest).expr...});
}
// The same, printing only when `condition` is true.
Expr print_when(const Expr &condition, const std::vector<Expr> &args);
template <typename... Args> Expr print_when(const Expr &condition, const Expr &value, const Args &...rest) {
    return print_when(condition, std::vector<Expr>{value, PrintArg(rest).expr...});
}

// e, marked as the likely case (see Intrinsics::likely).
Expr likely(Expr e);
// e, marked as the likely case only where it sits in an innermost loop:
// loop partitioning splits that loop alone, never the loops around it.
Expr likely_if_innermost(Expr e);

// Cast to t, first clamping to t's range (NaN becomes t's minimum).
Expr saturating_cast(Type t, Expr e);
template <typename T> Expr saturating_cast(Expr e) {
    return saturating_cast(type_of<T>(), std::move(e));
}

// Fixed-point arithmetic on integers (FixedPoint.cpp). "widen" below means
// a cast to the type of twice the bit width, "narrow" one to half, and
// "saturating_narrow" a saturating_cast to half. Unless said otherwise the
// two operands are first coerced like a + b (Internal::match_types). They
// are built from ordinary arithmetic, so they vectorize.
// a + widen(b), a - widen(b), a * widen(b): a's type must be b's type widened.
Expr widen_right_add(Expr a, Expr b);
Expr widen_right_sub(Expr a, Expr b);
Expr widen_right_mul(Expr a, Expr b);
// widen(a) + widen(b) and widen(a) - widen(b) (always signed, or a float).
Expr widening_add(Expr a, Expr b);
Expr widening_sub(Expr a, Expr b);
// widen(a) * widen(b); each operand keeps its signedness, and the result is
// signed when either is.
Expr widening_mul(Expr a, Expr b);
// widen(a) << b and widen(a) >> b, b matched to a's width as in a << b.
Expr widening_shift_left(Expr a, Expr b);
Expr widening_shift_left(Expr a, int b);
Expr widening_shift_right(Expr a, Expr b);
Expr widening_shift_right(Expr a, int b);
// a >> b rounded to nearest (ties up) for b > 0; for b <= 0 the plain
// (wrapping) a << -b. rounding_shift_left(a, b) is rounding_shift_right(a, -b).
Expr rounding_shift_right(Expr a, Expr b);
Expr rounding_shift_right(Expr a, int b);
Expr rounding_shift_left(Expr a, Expr b);
Expr rounding_shift_left(Expr a, int b);
// a + b and a - b clamped to the type's range.
Expr saturating_add(Expr a, Expr b);
Expr saturating_sub(Expr a, Expr b);
// floor((a + b) / 2), floor((a + b + 1) / 2), floor((a - b) / 2) computed
// without overflow (halving_sub wraps only when the result does not fit).
Expr halving_add(Expr a, Expr b);
Expr rounding_halving_add(Expr a, Expr b);
Expr halving_sub(Expr a, Expr b);
// saturating_narrow(widening_mul(a, b) >> q), and the same with a rounding
// shift; q is unsigned. Not for 64-bit operands.
Expr mul_shift_right(Expr a, Expr b, Expr q);
Expr mul_shift_right(Expr a, Expr b, int q);
Expr rounding_mul_shift_right(Expr a, Expr b, Expr q);
Expr rounding_mul_shift_right(Expr a, Expr b, int q);

// Bit counting and bit fields (BitOps.cpp); see Intrinsics::popcount.
Expr popcount(Expr x);
Expr count_leading_zeros(Expr x);
Expr count_trailing_zeros(Expr x);
// The bits of e from bit lsb up (bit 0 is the least significant), as type t
// (with e's lanes); bits past e's width read as zero.
Expr extract_bits(Type t, const Expr &e, const Expr &lsb);
template <typename T> Expr extract_bits(const Expr &e, const Expr &lsb) {
    return extract_bits(type_of<T>(), e, lsb);
}
// The bits of a power-of-two number of Exprs of one type side by side, the
// first the least significant, as one value of that type code.
Expr concat_bits(const std::vector<Expr> &e);

// Integer division and remainder rounding toward zero, as in C (x / 0 and
// x % 0 are 0); the result has the coerced type (TruncatingDivision.cpp).
Expr div_round_to_zero(Expr x, Expr y);
Expr mod_round_to_zero(Expr x, Expr y);

// e, its floating-point arithmetic computed as written (no fused
// multiply-add), whatever the target (CodegenHints.cpp).
Expr strict_float(Expr e);
// value, promised (not checked) to lie in [min, max]; an undefined bound is
// no promise on that side. Bounds inference may rely on the promise.
Expr unsafe_promise_clamped(const Expr &value, const Expr &min, const Expr &max);

namespace ConciseCasts {

inline Expr f64(Expr e) {
    Type t = Float(64, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr f32(Expr e) {
    Type t = Float(32, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr f16(Expr e) {
    Type t = Float(16, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr i64(Expr e) {
    Type t = Int(64, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr i32(Expr e) {
    Type t = Int(32, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr i16(Expr e) {
    Type t = Int(16, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr i8(Expr e) {
    Type t = Int(8, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr u64(Expr e) {
    Type t = UInt(64, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr u32(Expr e) {
    Type t = UInt(32, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr u16(Expr e) {
    Type t = UInt(16, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr u8(Expr e) {
    Type t = UInt(8, e.type().lanes());
    return cast(t, std::move(e));
}
inline Expr i8_sat(Expr e) {
    Type t = Int(8, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr u8_sat(Expr e) {
    Type t = UInt(8, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr i16_sat(Expr e) {
    Type t = Int(16, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr u16_sat(Expr e) {
    Type t = UInt(16, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr i32_sat(Expr e) {
    Type t = Int(32, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr u32_sat(Expr e) {
    Type t = UInt(32, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr i64_sat(Expr e) {
    Type t = Int(64, e.type().lanes());
    return saturating_cast(t, std::move(e));
}
inline Expr u64_sat(Expr e) {
    Type t = UInt(64, e.type().lanes());
    return saturating_cast(t, std::move(e));
}

} // namespace ConciseCasts

} // namespace Halide

#endif
