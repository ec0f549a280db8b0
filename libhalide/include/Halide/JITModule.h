// Halide::JITHandlers and JITUserContext: runtime hooks for JIT-compiled
// pipelines, set per call (a JITUserContext), per Pipeline
// (Pipeline::jit_handlers(), Func::jit_handlers()) or for the process
// (Internal::JITSharedRuntime::set_default_handlers), in that order of
// precedence. The host handlers are honoured (docs/language.md, JITHandlers);
// the symbol-lookup and CUDA ones exist with upstream's types so that
// programs written for upstream compile, and setting one is a user error
// when the pipeline runs.
#ifndef HALIDE_JITMODULE_H
#define HALIDE_JITMODULE_H

#include <cstddef>
#include <cstdint>

#include "HalideRuntime.h"

namespace Halide {

struct JITUserContext;

struct JITHandlers {
    void (*custom_print)(JITUserContext *, const char *){nullptr};
    void *(*custom_malloc)(JITUserContext *, size_t){nullptr};
    void (*custom_free)(JITUserContext *, void *){nullptr};
    int (*custom_do_task)(JITUserContext *, int (*)(JITUserContext *, int, uint8_t *), int, uint8_t *){nullptr};
    int (*custom_do_par_for)(JITUserContext *, int (*)(JITUserContext *, int, uint8_t *), int, int, uint8_t *){nullptr};
    void (*custom_error)(JITUserContext *, const char *){nullptr};
    int32_t (*custom_trace)(JITUserContext *, const halide_trace_event_t *){nullptr};
    void *(*custom_get_symbol)(const char *name){nullptr};
    void *(*custom_load_library)(const char *name){nullptr};
    void *(*custom_get_library_symbol)(void *lib, const char *name){nullptr};
    int32_t (*custom_cuda_acquire_context)(JITUserContext *user_context, void **cuda_context_ptr, bool create){nullptr};
    int32_t (*custom_cuda_release_context)(JITUserContext *user_context){nullptr};
    int32_t (*custom_cuda_get_stream)(JITUserContext *user_context, void *cuda_context, void **stream_ptr){nullptr};
};

namespace Internal {
struct JITErrorBuffer;
}

// What JIT-compiled code passes to the handlers: the handlers in use for
// this call.
struct JITUserContext {
    Internal::JITErrorBuffer *error_buffer{nullptr};
    JITHandlers handlers;
};

namespace Internal {

// The runtime every JIT-compiled pipeline of the process shares (upstream's
// static interface; there is no per-module runtime to get here).
class JITSharedRuntime {
public:
    // Fills the handlers `jit_user_context` leaves unset from `handlers`,
    // then from the process defaults.
    static void populate_jit_handlers(JITUserContext *jit_user_context, const JITHandlers &handlers);
    // The handlers used where neither a call nor its pipeline sets one;
    // returns the previous defaults.
    static JITHandlers set_default_handlers(const JITHandlers &handlers);
    // The memoization cache's size in bytes, and eviction by the key given
    // to memoize(EvictionKey).
    static void memoization_cache_set_size(int64_t size);
    static void memoization_cache_evict(uint64_t eviction_key);
    // No device allocations here: accepted, does nothing.
    static void reuse_device_allocations(bool);
    // Empties the memoization cache and stops the thread pool (it restarts
    // on the next parallel loop).
    static void release_all();
    // The thread pool's size, the calling thread included; set returns the
    // old size (0: the number of CPUs).
    static int get_num_threads();
    static int set_num_threads(int);
};

} // namespace Internal
} // namespace Halide

#endif
