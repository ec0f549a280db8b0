// Halide::Type: the type of an expression (scalar or, internally, vector).
// Its interface is upstream Halide's: accessors are methods (t.bits()).
#ifndef HALIDE_TYPE_H
#define HALIDE_TYPE_H

#include <cstdint>
#include <functional>
#include <string>

#include "Halide/HandleTypes.h"
#include "HalideRuntime.h"

namespace Halide {

class Expr;

struct Type {
    // The type codes, spelled as upstream spells them (Type::Int, ...).
    static constexpr halide_type_code_t Int = halide_type_int;
    static constexpr halide_type_code_t UInt = halide_type_uint;
    static constexpr halide_type_code_t Float = halide_type_float;
    static constexpr halide_type_code_t BFloat = halide_type_bfloat;
    static constexpr halide_type_code_t Handle = halide_type_handle;

    // No type (bits() == 0): the type of an undefined expression.
    Type() = default;
    // A handle may name the C++ type it points to (see HandleTypes.h).
    Type(halide_type_code_t code, int bits, int lanes = 1, const halide_handle_cplusplus_type *handle = nullptr)
        : handle_type(handle), code_(code), bits_(bits), lanes_(lanes) {}
    // From the runtime's element type.
    Type(const halide_type_t &t, const halide_handle_cplusplus_type *handle = nullptr)
        : handle_type(handle), code_((halide_type_code_t)t.code), bits_(t.bits), lanes_(t.lanes) {}
    operator halide_type_t() const { return halide_type_t(code_, (uint8_t)bits_, (uint16_t)lanes_); }

    halide_type_code_t code() const { return code_; }
    int bits() const { return bits_; }
    int lanes() const { return lanes_; }
    int bytes() const { return (bits_ + 7) / 8; }

    bool is_int() const { return code_ == halide_type_int; }
    bool is_uint() const { return code_ == halide_type_uint; }
    bool is_int_or_uint() const { return is_int() || is_uint(); }
    bool is_float() const { return code_ == halide_type_float || code_ == halide_type_bfloat; }
    bool is_bfloat() const { return code_ == halide_type_bfloat; }
    bool is_handle() const { return code_ == halide_type_handle; }
    bool is_bool() const { return code_ == halide_type_uint && bits_ == 1; }
    bool is_scalar() const { return lanes_ == 1; }
    bool is_vector() const { return lanes_ != 1; }

    // The handle type is kept unless the code or bits change.
    Type with_code(halide_type_code_t c) const { return Type(c, bits_, lanes_, c == code_ ? handle_type : nullptr); }
    Type with_bits(int b) const { return Type(code_, b, lanes_, b == bits_ ? handle_type : nullptr); }
    Type with_lanes(int l) const { return Type(code_, bits_, l, handle_type); }
    Type element_of() const { return with_lanes(1); }
    // Twice / half as many bits, same code and lanes.
    Type widen() const { return with_bits(bits_ * 2); }
    Type narrow() const { return with_bits(bits_ == 1 ? 1 : bits_ / 2); }

    // The largest and smallest values of the type, as constants of it.
    Expr max() const;
    Expr min() const;
    bool is_max(int64_t v) const;
    bool is_max(uint64_t v) const;
    bool is_min(int64_t v) const;
    bool is_min(uint64_t v) const;

    // Whether every value of `other` (or the constant) is exactly
    // representable in this type.
    bool can_represent(Type other) const;
    bool can_represent(int64_t v) const;
    bool can_represent(uint64_t v) const;
    bool can_represent(double v) const;
    bool can_represent(int v) const { return can_represent((int64_t)v); }

    // Whether wrapping on overflow is defined: unsigned integers, and
    // signed ones of at most 16 bits (wider signed overflow is undefined).
    bool can_overflow_int() const { return is_int() && bits_ <= 16; }
    bool can_overflow() const { return is_uint() || can_overflow_int(); }

    // Whether two handles point to the same C++ type (no handle type is
    // void *). Types that are not handles compare by code, bits and lanes.
    bool same_handle_type(const Type &other) const;

    bool operator==(const Type &o) const {
        return code_ == o.code_ && bits_ == o.bits_ && lanes_ == o.lanes_ && (!is_handle() || same_handle_type(o));
    }
    bool operator!=(const Type &o) const { return !(*this == o); }
    // The runtime's type has no handle type.
    bool operator==(const halide_type_t &o) const {
        return code_ == (halide_type_code_t)o.code && bits_ == o.bits && lanes_ == o.lanes;
    }
    bool operator!=(const halide_type_t &o) const { return !(*this == o); }
    // An arbitrary total order, for maps and sets.
    bool operator<(const Type &o) const {
        if (code_ != o.code_) {
            return code_ < o.code_;
        }
        if (bits_ != o.bits_) {
            return bits_ < o.bits_;
        }
        if (lanes_ != o.lanes_) {
            return lanes_ < o.lanes_;
        }
        return is_handle() && std::less<const halide_handle_cplusplus_type *>()(handle_type, o.handle_type);
    }

    // The C++ type a handle points to, for type_to_c_type (nullptr: void *).
    const halide_handle_cplusplus_type *handle_type = nullptr;

    // Range of representable values as 64-bit numbers (integers only); an
    // addition of ours, used throughout the compiler.
    int64_t imin() const;
    int64_t imax() const;
    uint64_t umax() const;

private:
    halide_type_code_t code_ = halide_type_int;
    int bits_ = 0;
    int lanes_ = 1;
};

inline Type Int(int bits, int lanes = 1) {
    return Type(halide_type_int, bits, lanes);
}
inline Type UInt(int bits, int lanes = 1) {
    return Type(halide_type_uint, bits, lanes);
}
inline Type Float(int bits, int lanes = 1) {
    return Type(halide_type_float, bits, lanes);
}
inline Type BFloat(int bits, int lanes = 1) {
    return Type(halide_type_bfloat, bits, lanes);
}
inline Type Bool(int lanes = 1) {
    return UInt(1, lanes);
}
inline Type Handle(int lanes = 1, const halide_handle_cplusplus_type *handle_type = nullptr) {
    return Type(halide_type_handle, 64, lanes, handle_type);
}

// "int32", "uint8", "bool", "float32x8", ...
std::string type_to_string(const Type &t);

// The C (or C++) spelling of a type: "int32_t", "float", "int32x4_t",
// "struct halide_buffer_t const *"; `include_space` ends a name that does
// not end in '*' with a space. Without `c_plus_plus`, a handle to a type
// in a namespace is "void *".
std::string type_to_c_type(Type type, bool include_space, bool c_plus_plus = true);

template <typename T> Type type_of() {
    return Type(halide_type_of<T>(), halide_handle_traits<T>::type_info());
}

} // namespace Halide

#endif
