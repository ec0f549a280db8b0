#include "ir/StructLayout.h"

#include <algorithm>

namespace Halide {
namespace Internal {

StructLayout struct_layout(const std::vector<Type> &fields) {
    StructLayout layout;
    size_t at = 0;
    for (const Type &t : fields) {
        size_t align = t.is_handle() ? 8 : (size_t)t.bytes();
        size_t size = t.is_handle() ? 8 * (size_t)t.lanes() : (size_t)t.bytes() * (size_t)t.lanes();
        at = (at + align - 1) / align * align;
        layout.offsets.push_back(at);
        at += size;
        layout.alignment = std::max(layout.alignment, align);
    }
    layout.size = (at + layout.alignment - 1) / layout.alignment * layout.alignment;
    return layout;
}

} // namespace Internal
} // namespace Halide
