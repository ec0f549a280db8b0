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

namespace Internal {

// What float16_t and bfloat16_t share: everything but the encoding, which
// T supplies as its constructor from float and its conversion to float.
template <typename T, int MantissaBits, uint16_t ExponentMask> struct Float16Interface {
    static constexpr int mantissa_bits = MantissaBits;
    static constexpr uint16_t sign_mask = 0x8000;
    static constexpr uint16_t exponent_mask = ExponentMask;
    static constexpr uint16_t mantissa_mask = (1 << MantissaBits) - 1;

    static T make_from_bits(uint16_t bits) {
        T f;
        f.data = bits;
        return f;
    }
    static T make_from_signed_int(int64_t value) { return T((float)value); }
    static T make_zero() { return make_from_bits(0); }
    static T make_negative_zero() { return make_from_bits(sign_mask); }
    static T make_infinity() { return make_from_bits(exponent_mask); }
    static T make_negative_infinity() { return make_from_bits(sign_mask | exponent_mask); }
    // The quiet nan: the top mantissa bit set.
    static T make_nan() { return make_from_bits(exponent_mask | (1 << (MantissaBits - 1))); }

    explicit operator double() const { return (double)f(); }
    explicit operator int() const { return (int)f(); }

    T operator-() const { return make_from_bits(data ^ sign_mask); }
    T operator+(T rhs) const { return T(f() + (float)rhs); }
    T operator-(T rhs) const { return T(f() - (float)rhs); }
    T operator*(T rhs) const { return T(f() * (float)rhs); }
    T operator/(T rhs) const { return T(f() / (float)rhs); }
    T operator+=(T rhs) { return self() = *this + rhs; }
    T operator-=(T rhs) { return self() = *this - rhs; }
    T operator*=(T rhs) { return self() = *this * rhs; }
    T operator/=(T rhs) { return self() = *this / rhs; }
    bool operator==(T rhs) const { return f() == (float)rhs; }
    bool operator!=(T rhs) const { return !(*this == rhs); }
    bool operator>(T rhs) const { return f() > (float)rhs; }
    bool operator<(T rhs) const { return f() < (float)rhs; }
    bool operator>=(T rhs) const { return f() >= (float)rhs; }
    bool operator<=(T rhs) const { return f() <= (float)rhs; }

    bool is_nan() const { return (data & exponent_mask) == exponent_mask && (data & mantissa_mask) != 0; }
    bool is_infinity() const { return (data & ~sign_mask) == exponent_mask; }
    bool is_negative() const { return (data & sign_mask) != 0; }
    bool is_zero() const { return (data & ~sign_mask) == 0; }

    uint16_t to_bits() const { return data; }

protected:
    uint16_t data = 0;

private:
    T &self() { return static_cast<T &>(*this); }
    float f() const { return (float)static_cast<const T &>(*this); }
};

} // namespace Internal

struct float16_t : Internal::Float16Interface<float16_t, 10, 0x7c00> {
    float16_t() = default;
    // Rounded to the nearest half (ties to even); out of range: +-infinity.
    explicit float16_t(float value);
    explicit float16_t(double value) : float16_t((float)value) {}
    explicit float16_t(int value) : float16_t((float)value) {}
    explicit operator float() const;
};

struct bfloat16_t : Internal::Float16Interface<bfloat16_t, 7, 0x7f80> {
    bfloat16_t() = default;
    // Rounded to the nearest bfloat16 (ties to even).
    explicit bfloat16_t(float value);
    explicit bfloat16_t(double value) : bfloat16_t((float)value) {}
    explicit bfloat16_t(int value) : bfloat16_t((float)value) {}
    explicit operator float() const;
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
