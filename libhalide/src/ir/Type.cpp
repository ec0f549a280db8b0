// Type: value ranges, representability and names.
#include "Halide/Type.h"

#include <cmath>
#include <limits>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IROperator.h"

namespace Halide {

namespace {

// Significand width (including the implicit bit) of a float type.
int significand_bits(int bits) {
    switch (bits) {
    case 16: return 11;
    case 32: return 24;
    case 64: return 53;
    default: return 0;
    }
}

} // namespace

int64_t Type::imin() const {
    internal_assert(is_int() || is_uint()) << "imin() of non-integer type " << type_to_string(*this);
    if (is_uint()) {
        return 0;
    }
    if (bits_ >= 64) {
        return std::numeric_limits<int64_t>::min();
    }
    return -(int64_t(1) << (bits_ - 1));
}

int64_t Type::imax() const {
    internal_assert(is_int() || is_uint()) << "imax() of non-integer type " << type_to_string(*this);
    if (is_uint()) {
        // Clamped to what an int64 can hold.
        return bits_ >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t)((uint64_t(1) << bits_) - 1);
    }
    if (bits_ >= 64) {
        return std::numeric_limits<int64_t>::max();
    }
    return (int64_t(1) << (bits_ - 1)) - 1;
}

uint64_t Type::umax() const {
    internal_assert(is_int() || is_uint()) << "umax() of non-integer type " << type_to_string(*this);
    if (is_int()) {
        return (uint64_t)imax();
    }
    return bits_ >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t(1) << bits_) - 1;
}

bool Type::can_represent(Type other) const {
    if (lanes_ != other.lanes()) {
        return false;
    }
    if (*this == other) {
        return true;
    }
    switch (code_) {
    case halide_type_int: return (other.is_int() && other.bits() <= bits_) || (other.is_uint() && other.bits() < bits_);
    case halide_type_uint: return other.is_uint() && other.bits() <= bits_;
    case halide_type_float:
        if (other.is_float()) {
            return other.bits() <= bits_;
        }
        if (other.is_uint()) {
            return other.bits() <= significand_bits(bits_);
        }
        if (other.is_int()) {
            return other.bits() <= significand_bits(bits_) + 1;
        }
        return false;
    case halide_type_handle: return other.is_handle();
    default: return false;
    }
}

bool Type::can_represent(int64_t v) const {
    switch (code_) {
    case halide_type_int: return v >= imin() && v <= imax();
    case halide_type_uint: return v >= 0 && (uint64_t)v <= umax();
    case halide_type_float: {
        // Exactly representable: the magnitude fits in the significand once
        // trailing zero bits are dropped.
        if (v == 0) {
            return true;
        }
        uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
        while ((m & 1) == 0) {
            m >>= 1;
        }
        int width = 0;
        while (m) {
            width++;
            m >>= 1;
        }
        return width <= significand_bits(bits_);
    }
    case halide_type_handle: return v == 0;
    default: return false;
    }
}

bool Type::can_represent(double v) const {
    switch (code_) {
    case halide_type_int:
    case halide_type_uint: {
        if (!(v == std::trunc(v))) { // also rejects NaN and infinities
            return false;
        }
        if (std::isinf(v)) {
            return false;
        }
        if (is_int()) {
            // [-2^(bits-1), 2^(bits-1)) exactly, with powers of two in double.
            double lim = std::ldexp(1.0, bits_ - 1);
            return v >= -lim && v < lim;
        }
        double lim = std::ldexp(1.0, bits_);
        return v >= 0 && v < lim;
    }
    case halide_type_float:
        if (std::isnan(v) || std::isinf(v)) {
            return true;
        }
        switch (bits_) {
        case 64: return true;
        case 32: return (double)(float)v == v;
        case 16: {
            // Representable in binary16: in range and with at most 11
            // significant bits (or a multiple of 2^-24 if subnormal).
            double a = std::fabs(v);
            if (a == 0) {
                return true;
            }
            if (a > 65504.0) {
                return false;
            }
            int e = 0;
            std::frexp(a, &e);
            int q = e - 11 < -24 ? -24 : e - 11;
            double scaled = std::ldexp(a, -q);
            return scaled == std::trunc(scaled);
        }
        default: return false;
        }
    default: return false;
    }
}

// Upstream gives infinities as the bounds of float types.
Expr Type::max() const {
    if (is_vector()) {
        return Internal::Broadcast::make(element_of().max(), lanes_);
    }
    if (is_float()) {
        return Internal::make_const(*this, std::numeric_limits<double>::infinity());
    }
    if (is_uint()) {
        return Internal::make_const(*this, umax());
    }
    return Internal::make_const(*this, imax());
}

Expr Type::min() const {
    if (is_vector()) {
        return Internal::Broadcast::make(element_of().min(), lanes_);
    }
    if (is_float()) {
        return Internal::make_const(*this, -std::numeric_limits<double>::infinity());
    }
    if (is_uint()) {
        return Internal::make_const(*this, (uint64_t)0);
    }
    return Internal::make_const(*this, imin());
}

bool Type::is_max(int64_t v) const {
    return v >= 0 && is_max((uint64_t)v);
}

bool Type::is_max(uint64_t v) const {
    if (is_int()) {
        return v == (uint64_t)imax();
    }
    return is_uint() && v == umax();
}

bool Type::is_min(int64_t v) const {
    if (is_int()) {
        return v == imin();
    }
    return is_uint() && v == 0;
}

bool Type::is_min(uint64_t v) const {
    return is_uint() && v == 0;
}

bool Type::can_represent(uint64_t v) const {
    if (is_uint()) {
        return bits_ >= 64 || v <= umax();
    }
    if (is_int()) {
        return v <= (uint64_t)imax();
    }
    if (v <= (uint64_t)std::numeric_limits<int64_t>::max()) {
        return can_represent((int64_t)v);
    }
    // Above 2^63: exactly representable in a float if its significant bits fit.
    return is_float() && can_represent((double)v) && (uint64_t)(double)v == v;
}

std::string type_to_string(const Type &t) {
    std::string s;
    if (t.bits() == 0) {
        return "void";
    }
    switch (t.code()) {
    case halide_type_int: s = "int" + std::to_string(t.bits()); break;
    case halide_type_uint: s = t.bits() == 1 ? "bool" : "uint" + std::to_string(t.bits()); break;
    case halide_type_float: s = "float" + std::to_string(t.bits()); break;
    case halide_type_handle: s = "handle"; break;
    default: s = "unknown" + std::to_string(t.bits()); break;
    }
    if (t.lanes() > 1) {
        s += "x" + std::to_string(t.lanes());
    }
    return s;
}

} // namespace Halide
