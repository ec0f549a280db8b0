// See JITHandlers.h. Handlers receive the JITUserContext of the call (the
// caller's own object when it passed one, so it may carry more fields).
#include "jit/JITHandlers.h"

#include <atomic>
#include <mutex>

#include "call_context.h"
#include "jit/JIT.h"

namespace Halide {
namespace Internal {

namespace {

JITCallContext *current_call() {
    return static_cast<JITCallContext *>(hlrt_get_call_context());
}

// The hooks found when ours were installed (what runs outside JIT calls);
// set just after ours are, so the defaults stand in until then.
std::atomic<halide_print_t> previous_print{nullptr};
std::atomic<halide_do_task_t> previous_do_task{nullptr};

void print_hook(void *user_context, const char *message) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_print) {
        call->user->handlers.custom_print(call->user, message);
        return;
    }
    halide_print_t previous = previous_print.load();
    (previous ? previous : halide_default_print)(user_context, message);
}

void error_hook(void *, const char *message) {
    JITCallContext *call = current_call();
    if (!call) {
        return;
    }
    if (call->user->handlers.custom_error) {
        call->user->handlers.custom_error(call->user, message);
        return;
    }
    std::lock_guard<std::mutex> lock(call->mutex);
    call->errors += (call->errors.empty() ? "" : "\n") + std::string(message);
}

using JITTask = int (*)(JITUserContext *, int, uint8_t *);

int do_task_hook(void *user_context, halide_task_t task, int idx, uint8_t *closure) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_do_task) {
        return call->user->handlers.custom_do_task(call->user, reinterpret_cast<JITTask>(task), idx, closure);
    }
    halide_do_task_t previous = previous_do_task.load();
    return (previous ? previous : halide_default_do_task)(user_context, task, idx, closure);
}

// A custom do_par_for may run the tasks on threads of its own: each task
// is wrapped so that it runs with the call's context set on its thread.
struct WrappedTask {
    halide_task_t task;
    uint8_t *closure;
    JITCallContext *call;
};

int run_wrapped_task(JITUserContext *user_context, int idx, uint8_t *closure) {
    auto *w = reinterpret_cast<WrappedTask *>(closure);
    void *outer = hlrt_set_call_context(w->call);
    int result = w->task(user_context, idx, w->closure);
    hlrt_set_call_context(outer);
    return result;
}

} // namespace

int32_t jit_trace(void *user_context, const halide_trace_event_t *event) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_trace) {
        return call->user->handlers.custom_trace(call->user, event);
    }
    return halide_trace(user_context, event);
}

void jit_print(void *user_context, const char *message) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_print) {
        call->user->handlers.custom_print(call->user, message);
        return;
    }
    halide_print(user_context, message);
}

void *jit_malloc(void *user_context, size_t size) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_malloc) {
        return call->user->handlers.custom_malloc(call->user, size);
    }
    return halide_malloc(user_context, size);
}

void jit_free(void *user_context, void *ptr) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_free) {
        call->user->handlers.custom_free(call->user, ptr);
        return;
    }
    halide_free(user_context, ptr);
}

int jit_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    JITCallContext *call = current_call();
    if (call && call->user->handlers.custom_do_par_for) {
        WrappedTask w{task, closure, call};
        return call->user->handlers.custom_do_par_for(call->user, run_wrapped_task, min, size,
                                                      reinterpret_cast<uint8_t *>(&w));
    }
    return halide_do_par_for(user_context, task, min, size, closure);
}

void install_jit_runtime_hooks() {
    static std::once_flag once;
    std::call_once(once, [] {
        halide_set_error_handler(error_hook);
        previous_print.store(halide_set_custom_print(print_hook));
        previous_do_task.store(halide_set_custom_do_task(do_task_hook));
    });
}

} // namespace Internal
} // namespace Halide
