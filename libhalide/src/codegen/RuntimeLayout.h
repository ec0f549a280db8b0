// The runtime's C structs as the code's target lays them out: byte offsets
// of the halide_buffer_t and halide_dimension_t fields (ABI.md 2) and the
// alignments of pointers and 64-bit fields, read from the LLVM data layout
// of the module being generated (a 32-bit target has 4-byte pointers, and
// on x86-32 Linux 4-byte aligned 64-bit fields).
#ifndef HALIDE_INTERNAL_RUNTIME_LAYOUT_H
#define HALIDE_INTERNAL_RUNTIME_LAYOUT_H

namespace llvm {
class DataLayout;
class LLVMContext;
} // namespace llvm

namespace Halide {
namespace Internal {

struct RuntimeLayout {
    // halide_buffer_t: device, device_interface, host, flags, type,
    // dimensions, dim, padding; `buffer_size` is sizeof(halide_buffer_t).
    int device = 0, device_interface = 0, host = 0, flags = 0, type = 0, dimensions = 0, dim = 0, padding = 0;
    int buffer_size = 0;
    // The ABI alignment of a pointer and of a uint64_t field.
    int pointer_align = 0, int64_align = 0;
    // halide_dimension_t: min, extent, stride, flags (four 32-bit fields on
    // every target).
    static constexpr int kDimSize = 16;
    static constexpr int kDimMin = 0;
    static constexpr int kDimExtent = 4;
    static constexpr int kDimStride = 8;
    static constexpr int kDimFlags = 12;
};

RuntimeLayout runtime_layout(const llvm::DataLayout &dl, llvm::LLVMContext &ctx);

} // namespace Internal
} // namespace Halide

#endif
