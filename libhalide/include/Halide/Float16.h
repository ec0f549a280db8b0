// Halide::float16_t (IEEE half) and Halide::bfloat16_t (the top 16 bits of
// a float): 16-bit storage types with upstream's interface, laid out as the
// runtime's halide_float16_t / bfloat16 (a uint16_t of bits), so
// Buffer<float16_t> holds Float(16) elements and Expr(float16_t(...)) is a
// Float(16) constant. Arithmetic converts to float and rounds back (to
// nearest, ties to even).
#ifndef HALIDE_FLOAT16_H
#define HALIDE_FLOAT16_H

#include <cstdint>
#include <string>

#include "HalideRuntime.h"

namespace Halide {

struct float16_t {
    static const int mantissa_bits = 10;
    static const uint16_t sign_mask = 0x8000;
    static const uint16_t exponent_mask = 0x7c00;
    static const uint16_t mantissa_mask = 0x03ff;

    float16_t() = default;
    // Rounded to the nearest half (ties to even); out of range: +-infinity.
    explicit float16_t(float value);
    explicit float16_t(double value);
    explicit float16_t(int value);

    static float16_t make_from_bits(uint16_t bits);
    static float16_t make_from_signed_int(int64_t value);
    static float16_t make_zero() { return make_from_bits(0); }
    static float16_t make_negative_zero() { return make_from_bits(0x8000); }
    static float16_t make_infinity() { return make_from_bits(0x7c00); }
    static float16_t make_negative_infinity() { return make_from_bits(0xfc00); }
    static float16_t make_nan() { return make_from_bits(0x7e00); }

    explicit operator float() const;
    explicit operator double() const { return (double)(float)*this; }
    explicit operator int() const { return (int)(float)*this; }

    float16_t operator-() const { return make_from_bits(data ^ sign_mask); }
    float16_t operator+(float16_t rhs) const { return float16_t((float)*this + (float)rhs); }
    float16_t operator-(float16_t rhs) const { return float16_t((float)*this - (float)rhs); }
    float16_t operator*(float16_t rhs) const { return float16_t((float)*this * (float)rhs); }
    float16_t operator/(float16_t rhs) const { return float16_t((float)*this / (float)rhs); }
    float16_t operator+=(float16_t rhs) { return *this = *this + rhs; }
    float16_t operator-=(float16_t rhs) { return *this = *this - rhs; }
    float16_t operator*=(float16_t rhs) { return *this = *this * rhs; }
    float16_t operator/=(float16_t rhs) { return *this = *this / rhs; }
    bool operator==(float16_t rhs) const { return (float)*this == (float)rhs; }
    bool operator!=(float16_t rhs) const { return !(*this == rhs); }
    bool operator>(float16_t rhs) const { return (float)*this > (float)rhs; }
    bool operator<(float16_t rhs) const { return (float)*this < (float)rhs; }
    bool operator>=(float16_t rhs) const { return (float)*this >= (float)rhs; }
    bool operator<=(float16_t rhs) const { return (float)*this <= (float)rhs; }

    bool is_nan() const { return (data & exponent_mask) == exponent_mask && (data & mantissa_mask) != 0; }
    bool is_infinity() const { return (data & ~sign_mask) == exponent_mask; }
    bool is_negative() const { return (data & sign_mask) != 0; }
    bool is_zero() const { return (data & ~sign_mask) == 0; }

    uint16_t to_bits() const { return data; }

private:
    uint16_t data = 0;
};

struct bfloat16_t {
    static const int mantissa_bits = 7;
    static const uint16_t sign_mask = 0x8000;
    static const uint16_t exponent_mask = 0x7f80;
    static const uint16_t mantissa_mask = 0x007f;

    bfloat16_t() = default;
    explicit bfloat16_t(float value);
    explicit bfloat16_t(double value);
    explicit bfloat16_t(int value);

    static bfloat16_t make_from_bits(uint16_t bits);
    static bfloat16_t make_from_signed_int(int64_t value);
    static bfloat16_t make_zero() { return make_from_bits(0); }
    static bfloat16_t make_negative_zero() { return make_from_bits(0x8000); }
    static bfloat16_t make_infinity() { return make_from_bits(0x7f80); }
    static bfloat16_t make_negative_infinity() { return make_from_bits(0xff80); }
    static bfloat16_t make_nan() { return make_from_bits(0x7fc0); }

    explicit operator float() const;
    explicit operator double() const { return (double)(float)*this; }
    explicit operator int() const { return (int)(float)*this; }

    bfloat16_t operator-() const { return make_from_bits(data ^ sign_mask); }
    bfloat16_t operator+(bfloat16_t rhs) const { return bfloat16_t((float)*this + (float)rhs); }
    bfloat16_t operator-(bfloat16_t rhs) const { return bfloat16_t((float)*this - (float)rhs); }
    bfloat16_t operator*(bfloat16_t rhs) const { return bfloat16_t((float)*this * (float)rhs); }
    bfloat16_t operator/(bfloat16_t rhs) const { return bfloat16_t((float)*this / (float)rhs); }
    bfloat16_t operator+=(bfloat16_t rhs) { return *this = *this + rhs; }
    bfloat16_t operator-=(bfloat16_t rhs) { return *this = *this - rhs; }
    bfloat16_t operator*=(bfloat16_t rhs) { return *this = *this * rhs; }
    bfloat16_t operator/=(bfloat16_t rhs) { return *this = *this / rhs; }
    bool operator==(bfloat16_t rhs) const { return (float)*this == (float)rhs; }
    bool operator!=(bfloat16_t rhs) const { return !(*this == rhs); }
    bool operator>(bfloat16_t rhs) const { return (float)*this > (float)rhs; }
    bool operator<(bfloat16_t rhs) const { return (float)*this < (float)rhs; }
    bool operator>=(bfloat16_t rhs) const { return (float)*this >= (float)rhs; }
    bool operator<=(bfloat16_t rhs) const { return (float)*this <= (float)rhs; }

    bool is_nan() const { return (data & exponent_mask) == exponent_mask && (data & mantissa_mask) != 0; }
    bool is_infinity() const { return (data & ~sign_mask) == exponent_mask; }
    bool is_negative() const { return (data & sign_mask) != 0; }
    bool is_zero() const { return (data & ~sign_mask) == 0; }

    uint16_t to_bits() const { return data; }

private:
    uint16_t data = 0;
};

static_assert(sizeof(float16_t) == 2 && sizeof(bfloat16_t) == 2, "16-bit floats must be 2 bytes");

} // namespace Halide

template <> struct halide_type_of_helper<Halide::float16_t> {
    static constexpr halide_type_t get() { return halide_type_t(halide_type_float, 16); }
};
template <> struct halide_type_of_helper<Halide::bfloat16_t> {
    static constexpr halide_type_t get() { return halide_type_t(halide_type_bfloat, 16); }
};

#endif
