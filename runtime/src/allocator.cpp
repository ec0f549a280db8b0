// Aligned host allocation for kernels. Blocks are aligned to 64 bytes (the
// widest x86 vector) and padded on both sides, because kernels may read a
// vector's worth past either end of a buffer they allocated.
#include <atomic>
#include <cstdint>
#include <cstdlib>

#include "HalideRuntime.h"

namespace {

constexpr size_t kAlignment = 64;

std::atomic<halide_malloc_t> malloc_hook{halide_default_malloc};
std::atomic<halide_free_t> free_hook{halide_default_free};

} // namespace

extern "C" {

int halide_malloc_alignment(void) {
    return (int)kAlignment;
}

void *halide_default_malloc(void * /*user_context*/, size_t size) {
    // One alignment unit of padding before the block, at least one after,
    // and a size that is a multiple of the alignment.
    size_t padded = ((size + kAlignment - 1) / kAlignment + 2) * kAlignment;
    if (padded < size) {
        return nullptr; // overflow
    }
    auto *base = static_cast<uint8_t *>(std::aligned_alloc(kAlignment, padded));
    return base ? base + kAlignment : nullptr;
}

void halide_default_free(void * /*user_context*/, void *ptr) {
    if (ptr) {
        std::free(static_cast<uint8_t *>(ptr) - kAlignment);
    }
}

void *halide_malloc(void *user_context, size_t size) {
    return malloc_hook.load()(user_context, size);
}

void halide_free(void *user_context, void *ptr) {
    free_hook.load()(user_context, ptr);
}

halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc) {
    return malloc_hook.exchange(user_malloc ? user_malloc : halide_default_malloc);
}

halide_free_t halide_set_custom_free(halide_free_t user_free) {
    return free_hook.exchange(user_free ? user_free : halide_default_free);
}

} // extern "C"
