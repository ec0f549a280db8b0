// lerp(a, b, w), computed as upstream Halide computes it, so results agree to
// the bit:
//
// - Float values: a * (1 - w) + b * w. An unsigned weight is first divided
//   by its largest value. (Upstream's float results can differ from these in
//   the last bit: its simplifier and LLVM may reassociate or fuse them.)
// - Bool values: b where w is above half its range (0.5, or max / 2), else a.
// - Integer values of N bits: the weight becomes an N-bit unsigned fraction
//   W of 2^N - 1. A float weight is scaled by 2^N - 1 in the weight's own
//   float type and truncated (in float64 for N = 32). An unsigned weight of
//   another width is rescaled by replicating its bits (u8 -> u16 multiplies
//   by 257) or dividing them out (u16 -> u8 divides by 257, truncating).
//   Then, in 2N-bit unsigned arithmetic, p = a * (2^N - 1 - W) + b * W +
//   2^(N-1) and the result is ((p >> N) + p) >> N: a division by 2^N - 1
//   rounded to nearest. Signed values are offset by 2^(N-1) (their sign bit
//   flipped) to do this in unsigned arithmetic, and flipped back after.
#include "ir/Lerp.h"

#include <algorithm>
#include <cmath>

#include "Halide/IROperator.h"

namespace Halide {
namespace Internal {

namespace {

// What a weight of `from` bits is multiplied (or divided, when it is the
// wider one) by to span `to` bits: the narrower width's lowest bit repeated
// across the wider width (0x0101 for 8 and 16 bits), i.e. the ratio of the
// two types' largest values.
uint64_t rescale_factor(int from, int to) {
    int wide = std::max(from, to), narrow = std::min(from, to);
    uint64_t factor = 0;
    for (int shift = 0; shift < wide; shift += narrow) {
        factor |= uint64_t(1) << shift;
    }
    return factor;
}

Expr float_lerp(const Expr &a, const Expr &b, const Expr &weight) {
    Type t = a.type();
    Type wt = weight.type();
    if (wt.is_float()) {
        // 1 - w is taken in the weight's type, then converted.
        Expr inverse = cast(t, make_one(wt) - weight);
        return a * inverse + b * cast(t, weight);
    }
    // An unsigned weight over its largest value, in the values' type.
    Expr w = cast(t, weight) / make_const(t, std::ldexp(1.0, wt.bits()) - 1);
    return a * (make_one(t) - w) + b * w;
}

Expr bool_lerp(const Expr &a, const Expr &b, const Expr &weight) {
    Type wt = weight.type();
    Expr half = wt.is_float() ? make_const(wt, 0.5) : make_const(wt, wt.umax() / 2);
    return select(weight > half, b, a);
}

Expr integer_lerp(const Expr &zero_val, const Expr &one_val, const Expr &weight) {
    Type t = zero_val.type();
    Type wt = weight.type();
    int n = t.bits();
    Type u = UInt(n, t.lanes());
    Type wide = UInt(2 * n, t.lanes());
    Expr top = make_const(u, u.umax());

    Expr a = cast(u, zero_val), b = cast(u, one_val);
    Expr sign_bit = make_const(u, uint64_t(1) << (n - 1));
    if (t.is_int()) {
        a = a ^ sign_bit;
        b = b ^ sign_bit;
    }

    Expr w;
    if (wt.is_float()) {
        if (n == 32) {
            w = cast(u, make_const(Float(64, wt.lanes()), 4294967295.0) * cast(Float(64, wt.lanes()), weight));
        } else {
            w = cast(u, make_const(wt, (double)u.umax()) * weight);
        }
    } else if (wt.bits() > n) {
        w = cast(u, weight / make_const(wt, rescale_factor(wt.bits(), n)));
    } else if (wt.bits() < n) {
        w = cast(u, weight) * make_const(u, rescale_factor(wt.bits(), n));
    } else {
        w = weight;
    }

    Expr p =
        cast(wide, a) * cast(wide, top - w) + cast(wide, b) * cast(wide, w) + make_const(wide, uint64_t(1) << (n - 1));
    Expr shift = make_const(wide, (uint64_t)n);
    Expr r = cast(u, ((p >> shift) + p) >> shift);
    if (t.is_int()) {
        r = r ^ sign_bit;
    }
    return cast(t, r);
}

} // namespace

Expr lower_lerp(const Expr &zero_val, const Expr &one_val, const Expr &weight) {
    Type t = zero_val.type();
    if (t.is_float()) {
        return float_lerp(zero_val, one_val, weight);
    }
    if (t.is_bool()) {
        return bool_lerp(zero_val, one_val, weight);
    }
    return integer_lerp(zero_val, one_val, weight);
}

} // namespace Internal
} // namespace Halide
