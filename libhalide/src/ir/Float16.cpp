// See Float16.h: conversions between float and the 16-bit float formats,
// and their constants as Exprs.
#include "Halide/Float16.h"

#include <cmath>
#include <cstring>

#include "Halide/Expr.h"
#include "Halide/IR.h"

namespace Halide {

namespace {

uint32_t float_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

float bits_float(uint32_t b) {
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// IEEE binary32 -> binary16, rounding to nearest, ties to even.
uint16_t float_to_half_bits(float f) {
    uint32_t b = float_bits(f);
    uint16_t sign = (uint16_t)((b >> 16) & 0x8000);
    uint32_t abs = b & 0x7fffffff;
    if (abs >= 0x7f800000) { // inf or nan
        return sign | (abs > 0x7f800000 ? 0x7e00 : 0x7c00);
    }
    int exp = (int)(abs >> 23) - 127; // unbiased
    uint32_t mant = abs & 0x7fffff;
    if (exp > 15) {
        return sign | 0x7c00; // overflow
    }
    if (exp >= -14) {
        // Normal half: 10 mantissa bits, 13 dropped.
        uint32_t h = ((uint32_t)(exp + 15) << 10) | (mant >> 13);
        uint32_t rest = mant & 0x1fff;
        if (rest > 0x1000 || (rest == 0x1000 && (h & 1))) {
            h++; // may carry into the exponent (up to infinity): still right
        }
        return sign | (uint16_t)h;
    }
    if (exp < -25) {
        return sign; // below half the smallest subnormal: zero
    }
    // Subnormal half: value = m * 2^-24 with the implicit bit made explicit.
    uint32_t full = mant | 0x800000;
    int shift = -exp - 14 + 13; // bits dropped from the 24-bit significand
    uint32_t h = full >> shift;
    uint32_t rest = full & ((1u << shift) - 1);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1))) {
        h++;
    }
    return sign | (uint16_t)h;
}

float half_bits_to_float(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000) << 16;
    uint32_t exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ff;
    if (exp == 0x1f) {
        return bits_float(sign | 0x7f800000 | (mant << 13));
    }
    if (exp == 0) {
        float v = std::ldexp((float)mant, -24);
        return sign ? -v : v;
    }
    return bits_float(sign | ((exp + 112) << 23) | (mant << 13));
}

// binary32 -> bfloat16 (the top half), rounding to nearest, ties to even.
uint16_t float_to_bfloat_bits(float f) {
    uint32_t b = float_bits(f);
    if ((b & 0x7fffffff) > 0x7f800000) {
        return (uint16_t)((b >> 16) | 0x40); // a quiet nan
    }
    uint32_t rest = b & 0xffff;
    uint32_t top = b >> 16;
    if (rest > 0x8000 || (rest == 0x8000 && (top & 1))) {
        top++;
    }
    return (uint16_t)top;
}

} // namespace

float16_t::float16_t(float value) {
    data = float_to_half_bits(value);
}
float16_t::operator float() const {
    return half_bits_to_float(data);
}

bfloat16_t::bfloat16_t(float value) {
    data = float_to_bfloat_bits(value);
}
bfloat16_t::operator float() const {
    return bits_float((uint32_t)data << 16);
}

Expr::Expr(float16_t v) : Expr(Internal::FloatImm::make(Float(16), (double)v)) {}
Expr::Expr(bfloat16_t v) : Expr(Internal::FloatImm::make(BFloat(16), (double)v)) {}

} // namespace Halide
