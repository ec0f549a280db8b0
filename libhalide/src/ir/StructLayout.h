// The memory layout of make_struct: the fields as a C compiler lays out a
// struct of them on a 64-bit target, so that an extern function can read
// the pointer as its own struct type (upstream's make_struct test does).
#ifndef HALIDE_INTERNAL_STRUCT_LAYOUT_H
#define HALIDE_INTERNAL_STRUCT_LAYOUT_H

#include <cstddef>
#include <vector>

#include "Halide/Type.h"

namespace Halide {
namespace Internal {

struct StructLayout {
    std::vector<size_t> offsets; // of each field, in bytes
    size_t size = 0;             // the whole, padding included
    size_t alignment = 1;        // the largest field's alignment
};

// Each field at the next multiple of its alignment (its element size;
// 8 for a handle), the size rounded up to the largest alignment. Padding
// bytes are zero in every make_struct codegen emits, so that the struct's
// bytes can serve as a key (memoization compares them).
StructLayout struct_layout(const std::vector<Type> &fields);

} // namespace Internal
} // namespace Halide

#endif
