// Halide::Type: the type of an expression (scalar or, internally, vector).
#ifndef HALIDE_TYPE_H
#define HALIDE_TYPE_H

#include <cstdint>
#include <string>

#include "HalideRuntime.h"

namespace Halide {

struct Type {
    halide_type_code_t code = halide_type_int;
    int bits = 0;  // 0 = no type (an undefined expression)
    int lanes = 1; // > 1 only inside the compiler, after vectorization

    Type() = default;
    Type(halide_type_code_t c, int b, int l = 1) : code(c), bits(b), lanes(l) {}
    // From the runtime's element type.
    explicit Type(const halide_type_t &t) : code(t.code), bits(t.bits), lanes(1) {}
    operator halide_type_t() const { return halide_type_t(code, (uint8_t)bits, 1); }

    bool is_int() const { return code == halide_type_int; }
    bool is_uint() const { return code == halide_type_uint; }
    bool is_float() const { return code == halide_type_float; }
    bool is_handle() const { return code == halide_type_handle; }
    bool is_bool() const { return code == halide_type_uint && bits == 1; }
    bool is_scalar() const { return lanes == 1; }
    bool is_vector() const { return lanes > 1; }
    int bytes() const { return (bits + 7) / 8; }

    Type with_code(halide_type_code_t c) const { return Type(c, bits, lanes); }
    Type with_bits(int b) const { return Type(code, b, lanes); }
    Type with_lanes(int l) const { return Type(code, bits, l); }
    Type element_of() const { return with_lanes(1); }

    // Range of representable values, as 64-bit numbers (integers only).
    int64_t imin() const;
    int64_t imax() const;
    uint64_t umax() const;
    // Whether every value of `other` is representable in this type.
    bool can_represent(Type other) const;
    bool can_represent(int64_t v) const;
    bool can_represent(double v) const;

    bool operator==(const Type &o) const { return code == o.code && bits == o.bits && lanes == o.lanes; }
    bool operator!=(const Type &o) const { return !(*this == o); }
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
inline Type Bool(int lanes = 1) {
    return UInt(1, lanes);
}
inline Type Handle(int lanes = 1) {
    return Type(halide_type_handle, 64, lanes);
}

// "int32", "uint8", "bool", "float32x8", ...
std::string type_to_string(const Type &t);

template <typename T> Type type_of() {
    return Type(halide_type_of<T>());
}

} // namespace Halide

#endif
