// Printing and error reporting: the two hooks every kernel reports through.
// Hooks are atomics so a setter can race with a running kernel safely.
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "HalideRuntime.h"

namespace {

std::atomic<halide_print_t> print_hook{halide_default_print};
std::atomic<halide_error_handler_t> error_hook{halide_default_error};

} // namespace

extern "C" {

void halide_default_print(void * /*user_context*/, const char *message) {
    // Upstream prints to stdout; keep that so captured output matches.
    size_t left = std::strlen(message);
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, message, left);
        if (n <= 0) {
            return;
        }
        message += n;
        left -= (size_t)n;
    }
}

void halide_default_error(void *user_context, const char *message) {
    char line[4096];
    size_t len = std::strlen(message);
    bool has_newline = len > 0 && message[len - 1] == '\n';
    std::snprintf(line, sizeof(line), "Error: %s%s", message, has_newline ? "" : "\n");
    halide_print(user_context, line);
    std::abort();
}

void halide_print(void *user_context, const char *message) {
    print_hook.load()(user_context, message);
}

halide_print_t halide_set_custom_print(halide_print_t print) {
    return print_hook.exchange(print ? print : halide_default_print);
}

void halide_error(void *user_context, const char *message) {
    error_hook.load()(user_context, message);
}

halide_error_handler_t halide_set_error_handler(halide_error_handler_t handler) {
    return error_hook.exchange(handler ? handler : halide_default_error);
}

} // extern "C"
