// The runtime entry points of JIT-compiled code that honour the JITHandlers
// of the call in progress (JITCallContext, found through the runtime's call
// context, which follows a call onto pool threads). Each falls back to the
// runtime's own function (and so to its process-wide hooks) for a handler
// that is not set.
#ifndef HALIDE_INTERNAL_JITHANDLERS_H
#define HALIDE_INTERNAL_JITHANDLERS_H

#include <cstddef>
#include <cstdint>

#include "HalideRuntime.h"

namespace Halide {
namespace Internal {

int32_t jit_trace(void *user_context, const halide_trace_event_t *event);
void jit_print(void *user_context, const char *message);
void *jit_malloc(void *user_context, size_t size);
void jit_free(void *user_context, void *ptr);
int jit_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);

// Once per process: the runtime's error, print and do_task hooks go to the
// handlers of the JIT call in progress (errors to its log when it has no
// custom_error), and to the hooks found before otherwise.
void install_jit_runtime_hooks();

} // namespace Internal
} // namespace Halide

#endif
