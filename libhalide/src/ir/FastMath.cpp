// See IROperator.h: fast_exp, fast_log, fast_pow, fast_inverse and
// fast_inverse_sqrt for Float(32), from plain arithmetic and bit
// manipulation (no calls into libm), so they vectorize.
//
// fast_exp(x): x = k ln2 + r with k = round(x / ln2) and |r| <= ln2 / 2, so
// exp(x) = 2^k exp(r); exp(r) is its Taylor polynomial of degree 6 (error
// below |r|^7 / 7! < 1.3e-7, about 1 ulp) and 2^k is built from its exponent
// bits. fast_log(x): x = 2^e m with m in [sqrt(2)/2, sqrt(2)), so
// log(x) = e ln2 + log(m) and log(m) = 2 atanh(s) with s = (m - 1) / (m + 1),
// |s| < 0.172: the odd series to s^9 (error below 1e-9). fast_pow(x, y) is
// fast_exp(y fast_log(x)) (its error grows with |y log x|, as upstream's
// documentation says), and 0 for x == 0. fast_sin and fast_cos are sin and
// cos; erf calls C's erff (as the other math functions call libm).
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"
#include "Halide/IRPrinter.h"

namespace Halide {

namespace {

void check_float32(const Expr &x, const char *what) {
    user_assert(x.defined()) << what << " of an undefined expression";
    user_assert(x.type().element_of() == Float(32))
        << what << " only works for Float(32), not " << x.type() << " (in " << what << "(" << x << "))";
}

Expr f32(const Expr &like, double v) {
    return Internal::make_const(Float(32, like.type().lanes()), v);
}
Expr i32(const Expr &like, int64_t v) {
    return Internal::make_const(Int(32, like.type().lanes()), v);
}

} // namespace

Expr fast_exp(const Expr &x_in) {
    check_float32(x_in, "fast_exp");
    Expr x = x_in;
    const double ln2 = 0.69314718055994530942;
    Expr k = floor(x * f32(x, 1.0 / ln2) + f32(x, 0.5));
    Expr r = x - k * f32(x, ln2);
    // Horner form of 1 + r + r^2/2! + ... + r^6/6!.
    Expr p = f32(x, 1.0 / 720);
    for (double c : {1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1.0, 1.0}) {
        p = p * r + f32(x, c);
    }
    Expr ki = cast(Int(32, x.type().lanes()), k);
    Expr two_k = reinterpret(Float(32, x.type().lanes()), (ki + i32(x, 127)) << i32(x, 23));
    return p * two_k;
}

Expr fast_log(const Expr &x) {
    check_float32(x, "fast_log");
    Type it = Int(32, x.type().lanes());
    Expr bits = reinterpret(it, x);
    Expr e = ((bits >> i32(x, 23)) & i32(x, 0xff)) - i32(x, 127);
    Expr m = reinterpret(x.type(), (bits & i32(x, 0x7fffff)) | i32(x, 0x3f800000)); // in [1, 2)
    Expr big = m > f32(x, 1.41421356237309504880);
    m = select(big, m * f32(x, 0.5), m);
    e = select(big, e + i32(x, 1), e);
    Expr s = (m - f32(x, 1)) / (m + f32(x, 1));
    Expr s2 = s * s;
    Expr p = f32(x, 2.0 / 9);
    for (double c : {2.0 / 7, 2.0 / 5, 2.0 / 3, 2.0}) {
        p = p * s2 + f32(x, c);
    }
    return cast(x.type(), e) * f32(x, 0.69314718055994530942) + p * s;
}

Expr fast_pow(Expr x, Expr y) {
    check_float32(x, "fast_pow");
    user_assert(y.defined()) << "fast_pow of an undefined exponent";
    if (y.type() != x.type()) {
        y = cast(x.type(), y);
    }
    return select(x == f32(x, 0), f32(x, 0), fast_exp(fast_log(x) * y));
}

Expr fast_inverse(Expr x) {
    check_float32(x, "fast_inverse");
    return f32(x, 1) / x;
}

Expr fast_inverse_sqrt(Expr x) {
    check_float32(x, "fast_inverse_sqrt");
    return f32(x, 1) / sqrt(x);
}

Expr fast_sin(const Expr &x) {
    check_float32(x, "fast_sin");
    return sin(x);
}

Expr fast_cos(const Expr &x) {
    check_float32(x, "fast_cos");
    return cos(x);
}

Expr erf(const Expr &x) {
    check_float32(x, "erf");
    return Internal::Call::make(x.type(), "erff", {x}, Internal::Call::Extern);
}

} // namespace Halide
