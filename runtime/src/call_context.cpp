// See call_context.h.
#include "call_context.h"

namespace {
thread_local void *current_context = nullptr;
}

extern "C" {

void *hlrt_get_call_context(void) {
    return current_context;
}

void *hlrt_set_call_context(void *context) {
    void *old = current_context;
    current_context = context;
    return old;
}

} // extern "C"
