// The memoization cache behind Func::memoize (HalideRuntime.h).
//
// An entry holds the values of one memoized computation: a copy of its key
// bytes, the region computed (realized_bounds' mins and extents) and, per
// value of the Func, the buffer's type and shape and a block of memory.
// The block comes from halide_malloc with a header of kHeader bytes in
// front of the host pointer handed out, so that release finds its entry
// from the host pointer alone. A lookup that misses allocates fresh blocks
// whose header names no entry; store adopts them into a new entry. Entries
// are in a hash table (by key, region and shapes) and a least recently used
// list; each counts the host pointers handed out and not yet released, and
// only entries with none are pruned. An entry evicted while in use is
// unlinked at once and freed by its last release.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <pthread.h>

#include "HalideRuntime.h"

namespace {

constexpr int64_t kDefaultSize = 1 << 20;
constexpr size_t kHeader = 64; // keeps the host pointer 64-byte aligned
constexpr size_t kBuckets = 256;
constexpr uint32_t kMagic = 0x6d656d6fu;

struct Entry;

struct BlockHeader {
    Entry *entry; // null until stored
    uint32_t magic;
};
static_assert(sizeof(BlockHeader) <= kHeader, "block header too large");

struct Entry {
    Entry *lru_prev, *lru_next; // most recently used first
    Entry *bucket_next;
    uint32_t hash;
    uint8_t *key;
    int32_t key_size;
    int32_t dimensions;         // of realized_bounds
    halide_dimension_t *bounds; // its mins and extents
    int32_t tuple_count;        // buffers, one per value
    halide_buffer_t *buffers;   // type, shape and host of each
    halide_dimension_t *shapes; // their dims, tuple_count x buffers[0].dimensions
    int64_t bytes;              // of all blocks
    int32_t in_use;             // host pointers not yet released
    bool linked;                // in the table and the list (not evicted)
    bool has_eviction_key;
    uint64_t eviction_key;
};

pthread_mutex_t cache_mutex = PTHREAD_MUTEX_INITIALIZER;

// Holds cache_mutex for a scope (no std::mutex: this runtime needs libc only).
struct Lock {
    Lock() { pthread_mutex_lock(&cache_mutex); }
    ~Lock() { pthread_mutex_unlock(&cache_mutex); }
};

Entry *buckets[kBuckets];
Entry *lru_first = nullptr, *lru_last = nullptr;
int64_t current_size = 0;
int64_t max_size = kDefaultSize;

BlockHeader *header_of(void *host) {
    return reinterpret_cast<BlockHeader *>(static_cast<uint8_t *>(host) - kHeader);
}

// FNV-1a over the key bytes and the region.
uint32_t hash_of(const uint8_t *key, int32_t size, const halide_buffer_t *bounds) {
    uint32_t h = 2166136261u;
    auto mix = [&](const void *p, size_t n) {
        const uint8_t *b = static_cast<const uint8_t *>(p);
        for (size_t i = 0; i < n; i++) {
            h = (h ^ b[i]) * 16777619u;
        }
    };
    mix(key, (size_t)size);
    for (int d = 0; d < bounds->dimensions; d++) {
        mix(&bounds->dim[d].min, sizeof(int32_t));
        mix(&bounds->dim[d].extent, sizeof(int32_t));
    }
    return h;
}

// The bytes a buffer's elements span from its host pointer; -1 if some
// stride is negative (the kernels this cache serves use dense storage).
int64_t span_bytes(const halide_buffer_t *b) {
    int64_t elems = 1;
    for (int d = 0; d < b->dimensions; d++) {
        if (b->dim[d].stride < 0) {
            return -1;
        }
        if (b->dim[d].extent <= 0) {
            return 0;
        }
        elems += (int64_t)(b->dim[d].extent - 1) * b->dim[d].stride;
    }
    return elems * (int64_t)((b->type.bits + 7) / 8) * (b->type.lanes ? b->type.lanes : 1);
}

bool same_type(const halide_type_t &a, const halide_type_t &b) {
    return a.code == b.code && a.bits == b.bits && a.lanes == b.lanes;
}

bool matches(const Entry *e, uint32_t hash, const uint8_t *key, int32_t size, const halide_buffer_t *bounds,
             int32_t tuple_count, halide_buffer_t **tuple_buffers) {
    if (e->hash != hash || e->key_size != size || e->dimensions != bounds->dimensions ||
        e->tuple_count != tuple_count || std::memcmp(e->key, key, (size_t)size) != 0) {
        return false;
    }
    for (int d = 0; d < bounds->dimensions; d++) {
        if (e->bounds[d].min != bounds->dim[d].min || e->bounds[d].extent != bounds->dim[d].extent) {
            return false;
        }
    }
    for (int i = 0; i < tuple_count; i++) {
        const halide_buffer_t &mine = e->buffers[i], &theirs = *tuple_buffers[i];
        if (!same_type(mine.type, theirs.type) || mine.dimensions != theirs.dimensions) {
            return false;
        }
        for (int d = 0; d < mine.dimensions; d++) {
            if (mine.dim[d].min != theirs.dim[d].min || mine.dim[d].extent != theirs.dim[d].extent ||
                mine.dim[d].stride != theirs.dim[d].stride) {
                return false;
            }
        }
    }
    return true;
}

Entry *find(uint32_t hash, const uint8_t *key, int32_t size, const halide_buffer_t *bounds, int32_t tuple_count,
            halide_buffer_t **tuple_buffers) {
    for (Entry *e = buckets[hash % kBuckets]; e; e = e->bucket_next) {
        if (matches(e, hash, key, size, bounds, tuple_count, tuple_buffers)) {
            return e;
        }
    }
    return nullptr;
}

void lru_unlink(Entry *e) {
    (e->lru_prev ? e->lru_prev->lru_next : lru_first) = e->lru_next;
    (e->lru_next ? e->lru_next->lru_prev : lru_last) = e->lru_prev;
    e->lru_prev = e->lru_next = nullptr;
}

void lru_push_front(Entry *e) {
    e->lru_prev = nullptr;
    e->lru_next = lru_first;
    (lru_first ? lru_first->lru_prev : lru_last) = e;
    lru_first = e;
}

// Out of the table and the list; its memory stays.
void unlink(Entry *e) {
    Entry **p = &buckets[e->hash % kBuckets];
    while (*p != e) {
        p = &(*p)->bucket_next;
    }
    *p = e->bucket_next;
    lru_unlink(e);
    current_size -= e->bytes;
    e->linked = false;
}

void destroy(void *user_context, Entry *e) {
    for (int i = 0; i < e->tuple_count; i++) {
        halide_free(user_context, e->buffers[i].host - kHeader);
    }
    std::free(e->key);
    std::free(e->bounds);
    std::free(e->buffers);
    std::free(e->shapes);
    std::free(e);
}

// Least recently used entries not in use go until the cache fits.
void prune(void *user_context) {
    Entry *e = lru_last;
    while (current_size > max_size && e) {
        Entry *prev = e->lru_prev;
        if (e->in_use == 0) {
            unlink(e);
            destroy(user_context, e);
        }
        e = prev;
    }
}

Entry *new_entry(uint32_t hash, const uint8_t *key, int32_t size, const halide_buffer_t *bounds, int32_t tuple_count,
                 halide_buffer_t **tuple_buffers) {
    auto *e = static_cast<Entry *>(std::calloc(1, sizeof(Entry)));
    if (!e) {
        return nullptr;
    }
    int dims = tuple_count > 0 ? tuple_buffers[0]->dimensions : 0;
    e->key = static_cast<uint8_t *>(std::malloc(size > 0 ? (size_t)size : 1));
    e->bounds =
        static_cast<halide_dimension_t *>(std::calloc((size_t)bounds->dimensions + 1, sizeof(halide_dimension_t)));
    e->buffers = static_cast<halide_buffer_t *>(std::calloc((size_t)tuple_count + 1, sizeof(halide_buffer_t)));
    e->shapes =
        static_cast<halide_dimension_t *>(std::calloc((size_t)(tuple_count * dims) + 1, sizeof(halide_dimension_t)));
    if (!e->key || !e->bounds || !e->buffers || !e->shapes) {
        std::free(e->key);
        std::free(e->bounds);
        std::free(e->buffers);
        std::free(e->shapes);
        std::free(e);
        return nullptr;
    }
    e->hash = hash;
    std::memcpy(e->key, key, (size_t)size);
    e->key_size = size;
    e->dimensions = bounds->dimensions;
    for (int d = 0; d < bounds->dimensions; d++) {
        e->bounds[d] = bounds->dim[d];
    }
    e->tuple_count = tuple_count;
    for (int i = 0; i < tuple_count; i++) {
        halide_buffer_t &b = e->buffers[i];
        b = *tuple_buffers[i];
        b.device = 0;
        b.device_interface = nullptr;
        b.dim = e->shapes + i * dims;
        for (int d = 0; d < dims && d < b.dimensions; d++) {
            b.dim[d] = tuple_buffers[i]->dim[d];
        }
        e->bytes += span_bytes(&b);
    }
    return e;
}

} // namespace

extern "C" {

void halide_memoization_cache_set_size(int64_t size) {
    Lock lock;
    max_size = size == 0 ? kDefaultSize : size;
    prune(nullptr);
}

int halide_memoization_cache_lookup(void *user_context, const uint8_t *cache_key, int32_t size,
                                    halide_buffer_t *realized_bounds, int32_t tuple_count,
                                    halide_buffer_t **tuple_buffers) {
    uint32_t hash = hash_of(cache_key, size, realized_bounds);
    {
        Lock lock;
        if (Entry *e = find(hash, cache_key, size, realized_bounds, tuple_count, tuple_buffers)) {
            lru_unlink(e);
            lru_push_front(e);
            for (int i = 0; i < tuple_count; i++) {
                tuple_buffers[i]->host = e->buffers[i].host;
            }
            e->in_use += tuple_count;
            return 0;
        }
    }
    // A miss: fresh blocks, not in the cache until stored.
    for (int i = 0; i < tuple_count; i++) {
        int64_t bytes = span_bytes(tuple_buffers[i]);
        auto *block =
            bytes < 0 ? nullptr : static_cast<uint8_t *>(halide_malloc(user_context, kHeader + (size_t)bytes));
        if (!block) {
            for (int j = 0; j < i; j++) {
                halide_free(user_context, tuple_buffers[j]->host - kHeader);
                tuple_buffers[j]->host = nullptr;
            }
            return -1;
        }
        auto *h = reinterpret_cast<BlockHeader *>(block);
        h->entry = nullptr;
        h->magic = kMagic;
        tuple_buffers[i]->host = block + kHeader;
    }
    return 1;
}

int halide_memoization_cache_store(void *user_context, const uint8_t *cache_key, int32_t size,
                                   halide_buffer_t *realized_bounds, int32_t tuple_count,
                                   halide_buffer_t **tuple_buffers, bool has_eviction_key, uint64_t eviction_key) {
    uint32_t hash = hash_of(cache_key, size, realized_bounds);
    Lock lock;
    for (int i = 0; i < tuple_count; i++) {
        if (!tuple_buffers[i]->host || header_of(tuple_buffers[i]->host)->entry) {
            return 0; // not memory from a miss, or stored already
        }
    }
    if (find(hash, cache_key, size, realized_bounds, tuple_count, tuple_buffers)) {
        return 0; // another call stored the same result first: these blocks stay private
    }
    Entry *e = new_entry(hash, cache_key, size, realized_bounds, tuple_count, tuple_buffers);
    if (!e) {
        return 0; // not kept; the blocks are freed by their release
    }
    e->has_eviction_key = has_eviction_key;
    e->eviction_key = eviction_key;
    e->in_use = tuple_count;
    e->linked = true;
    for (int i = 0; i < tuple_count; i++) {
        header_of(tuple_buffers[i]->host)->entry = e;
    }
    e->bucket_next = buckets[hash % kBuckets];
    buckets[hash % kBuckets] = e;
    lru_push_front(e);
    current_size += e->bytes;
    prune(user_context);
    return 0;
}

void halide_memoization_cache_release(void *user_context, void *host) {
    if (!host) {
        return;
    }
    BlockHeader *h = header_of(host);
    Entry *dead = nullptr;
    {
        Lock lock;
        Entry *e = h->entry;
        if (!e) {
            halide_free(user_context, h); // never stored
            return;
        }
        e->in_use--;
        if (e->in_use == 0 && !e->linked) {
            dead = e; // evicted while in use
        }
    }
    if (dead) {
        destroy(user_context, dead);
    }
}

void halide_memoization_cache_evict(void *user_context, uint64_t eviction_key) {
    Lock lock;
    for (Entry *e = lru_first; e;) {
        Entry *next = e->lru_next;
        if (e->has_eviction_key && e->eviction_key == eviction_key) {
            unlink(e);
            if (e->in_use == 0) {
                destroy(user_context, e);
            }
        }
        e = next;
    }
}

void halide_memoization_cache_cleanup(void) {
    Lock lock;
    for (Entry *e = lru_first; e;) {
        Entry *next = e->lru_next;
        unlink(e);
        if (e->in_use == 0) {
            destroy(nullptr, e);
        }
        e = next;
    }
    current_size = 0;
}

} // extern "C"
