// Internal::JITSharedRuntime (Halide/JITModule.h): the process-wide side of
// the JIT. Every JIT-compiled pipeline calls the runtime linked into this
// library, so its memoization cache and thread pool are this runtime's, and
// the default handlers fill what neither a call nor its pipeline sets.
#include <atomic>
#include <mutex>

#include "Halide/JITModule.h"
#include "HalideRuntime.h"

namespace Halide {
namespace Internal {

namespace {

std::mutex default_handlers_mutex;
JITHandlers default_handlers;
// Whether any default was ever set: the calls of a process that sets none
// (nearly all) skip the lock.
std::atomic<bool> defaults_set{false};

void fill_unset(JITHandlers &to, const JITHandlers &from) {
    auto fill = [](auto &slot, auto value) {
        if (!slot) {
            slot = value;
        }
    };
    fill(to.custom_print, from.custom_print);
    fill(to.custom_malloc, from.custom_malloc);
    fill(to.custom_free, from.custom_free);
    fill(to.custom_do_task, from.custom_do_task);
    fill(to.custom_do_par_for, from.custom_do_par_for);
    fill(to.custom_error, from.custom_error);
    fill(to.custom_trace, from.custom_trace);
    fill(to.custom_get_symbol, from.custom_get_symbol);
    fill(to.custom_load_library, from.custom_load_library);
    fill(to.custom_get_library_symbol, from.custom_get_library_symbol);
    fill(to.custom_cuda_acquire_context, from.custom_cuda_acquire_context);
    fill(to.custom_cuda_release_context, from.custom_cuda_release_context);
    fill(to.custom_cuda_get_stream, from.custom_cuda_get_stream);
}

} // namespace

void JITSharedRuntime::populate_jit_handlers(JITUserContext *jit_user_context, const JITHandlers &handlers) {
    fill_unset(jit_user_context->handlers, handlers);
    if (!defaults_set.load(std::memory_order_acquire)) {
        return;
    }
    std::lock_guard<std::mutex> lock(default_handlers_mutex);
    fill_unset(jit_user_context->handlers, default_handlers);
}

JITHandlers JITSharedRuntime::set_default_handlers(const JITHandlers &handlers) {
    std::lock_guard<std::mutex> lock(default_handlers_mutex);
    JITHandlers old = default_handlers;
    default_handlers = handlers;
    defaults_set.store(true, std::memory_order_release);
    return old;
}

void JITSharedRuntime::memoization_cache_set_size(int64_t size) {
    halide_memoization_cache_set_size(size);
}

void JITSharedRuntime::memoization_cache_evict(uint64_t eviction_key) {
    halide_memoization_cache_evict(nullptr, eviction_key);
}

void JITSharedRuntime::reuse_device_allocations(bool) {}

void JITSharedRuntime::release_all() {
    halide_memoization_cache_cleanup();
    halide_shutdown_thread_pool();
}

int JITSharedRuntime::get_num_threads() {
    return halide_get_num_threads();
}

int JITSharedRuntime::set_num_threads(int n) {
    return halide_set_num_threads(n);
}

} // namespace Internal
} // namespace Halide
