// Aligned host allocation for kernels. Blocks are aligned to 64 bytes (the
// widest x86 vector) and padded on both sides, because kernels may read a
// vector's worth past either end of a buffer they allocated.
//
// Large blocks (a pyramid level, a whole intermediate image) are mapped on
// their own, 2 MB-aligned, and marked for transparent huge pages: a kernel
// writing a fresh 100 MB intermediate then takes 50 page faults instead of
// 25,000, which on a virtual machine cost more than the kernel's own work,
// and two threads faulting at once contend for the process's page tables.
// The front padding holds how the block was made, so halide_default_free
// needs no table.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "HalideRuntime.h"

namespace {

constexpr size_t kAlignment = 64;

// Where a block came from, in the first bytes of its front padding: the
// length of its own mapping (0 for the C heap) and where in the mapping the
// padding starts.
struct BlockHeader {
    size_t mapped_bytes;
    size_t offset;
};
static_assert(sizeof(BlockHeader) <= kAlignment, "the header lives in the front padding");

#if defined(__linux__) && defined(MADV_HUGEPAGE)
constexpr size_t kHugePage = size_t(2) << 20;
// Blocks from one huge page up get a mapping of their own; smaller ones stay
// on the C heap.
constexpr size_t kHugeBlockBytes = kHugePage;

// Blocks do not all start at the same offset in their mappings: buffers
// whose addresses agree in their low 12 or more bits compete for the same
// cache sets and stall on 4K aliasing (a camera pipe's stages ran 20%
// slower so). 32 offsets, each a different multiple of 64 modulo 4 KB,
// spread over 64 KB.
constexpr size_t kColorStep = 2048 + 64;
constexpr size_t kColors = 32;
std::atomic<unsigned> next_color{0};
size_t color() {
    return (next_color.fetch_add(1, std::memory_order_relaxed) % kColors) * kColorStep;
}

// Whether the kernel gives transparent huge pages to memory that asks
// ("always" or "madvise"): where it does not, a mapping of its own would
// only lose the C heap's reuse. Read once; a race reads it twice.
std::atomic<int> huge_pages_state{-1};
bool huge_pages_on() {
    int state = huge_pages_state.load(std::memory_order_relaxed);
    if (state < 0) {
        state = 0;
        int fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY);
        if (fd >= 0) {
            char text[128];
            ssize_t n = read(fd, text, sizeof(text) - 1);
            close(fd);
            if (n > 0) {
                text[n] = 0;
                state = std::strstr(text, "[never]") ? 0 : 1;
            }
        }
        huge_pages_state.store(state, std::memory_order_relaxed);
    }
    return state == 1;
}

// A mapping of `bytes` (a multiple of kHugePage) at a kHugePage boundary, or
// nullptr.
uint8_t *map_huge(size_t bytes) {
    size_t span = bytes + kHugePage;
    void *m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        return nullptr;
    }
    uintptr_t start = reinterpret_cast<uintptr_t>(m);
    uintptr_t aligned = (start + kHugePage - 1) & ~(uintptr_t)(kHugePage - 1);
    if (aligned > start) {
        munmap(m, aligned - start);
    }
    uintptr_t end = start + span, used_end = aligned + bytes;
    if (end > used_end) {
        munmap(reinterpret_cast<void *>(used_end), end - used_end);
    }
    madvise(reinterpret_cast<void *>(aligned), bytes, MADV_HUGEPAGE); // advice: failure is harmless
    return reinterpret_cast<uint8_t *>(aligned);
}

// A few freed mappings are kept for the next block of the same size, so a
// block allocated in every iteration of a loop is faulted in once, as the C
// heap reuses smaller blocks; at most 4 x 16 MB stay mapped (glibc keeps up
// to 64 MB of freed heap too).
constexpr int kCachedMappings = 4;
constexpr size_t kMaxCachedBytes = size_t(16) << 20;
struct Mapping {
    uint8_t *base;
    size_t bytes;
};
Mapping cached[kCachedMappings];
std::atomic_flag cache_lock = ATOMIC_FLAG_INIT;

class CacheLock {
public:
    CacheLock() {
        while (cache_lock.test_and_set(std::memory_order_acquire)) {
        }
    }
    ~CacheLock() { cache_lock.clear(std::memory_order_release); }
};

uint8_t *take_cached(size_t bytes) {
    CacheLock lock;
    for (Mapping &m : cached) {
        if (m.base && m.bytes == bytes) {
            uint8_t *base = m.base;
            m.base = nullptr;
            return base;
        }
    }
    return nullptr;
}

bool keep_cached(uint8_t *base, size_t bytes) {
    if (bytes > kMaxCachedBytes) {
        return false;
    }
    CacheLock lock;
    for (Mapping &m : cached) {
        if (!m.base) {
            m = {base, bytes};
            return true;
        }
    }
    return false;
}
#endif

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
    uint8_t *base = nullptr;
    BlockHeader header{0, 0};
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (padded >= kHugeBlockBytes && huge_pages_on()) {
        size_t span = padded + kColors * kColorStep;
        size_t bytes = (span + kHugePage - 1) & ~(kHugePage - 1);
        uint8_t *mapping = nullptr;
        if (bytes >= padded && ((mapping = take_cached(bytes)) || (mapping = map_huge(bytes)))) {
            header = {bytes, color()};
            base = mapping + header.offset;
        }
    }
#endif
    if (!base) {
        base = static_cast<uint8_t *>(std::aligned_alloc(kAlignment, padded));
    }
    if (!base) {
        return nullptr;
    }
    std::memcpy(base, &header, sizeof(header));
    return base + kAlignment;
}

void halide_default_free(void * /*user_context*/, void *ptr) {
    if (!ptr) {
        return;
    }
    uint8_t *base = static_cast<uint8_t *>(ptr) - kAlignment;
    BlockHeader header;
    std::memcpy(&header, base, sizeof(header));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (header.mapped_bytes) {
        uint8_t *mapping = base - header.offset;
        if (!keep_cached(mapping, header.mapped_bytes)) {
            munmap(mapping, header.mapped_bytes);
        }
        return;
    }
#endif
    std::free(base);
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
