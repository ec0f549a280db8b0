// Halide::JITHandlers and JITUserContext: runtime hooks for JIT-compiled
// pipelines, set per Pipeline (Pipeline::jit_handlers(), Func::jit_handlers()).
//
// This JIT honours custom_trace (every halide_trace event of the pipeline's
// traced Funcs goes to it, with a JITUserContext whose handlers are the
// pipeline's; its return value is the event's id, the parent_id of the
// events nested in it). The other members exist with upstream's types so
// that programs written for upstream compile; setting one is a user error
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

} // namespace Halide

#endif
