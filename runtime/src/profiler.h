// The profiler's report with a chosen print function, for the JIT, whose
// report goes through the call's print handler (jit_print).
#ifndef HALIDE_RUNTIME_PROFILER_H
#define HALIDE_RUNTIME_PROFILER_H

#ifdef __cplusplus
extern "C" {
#endif

/* halide_profiler_report(user_context), each line through `print`. */
void hlrt_profiler_report(void *user_context, void (*print)(void *user_context, const char *message));

#ifdef __cplusplus
}
#endif

#endif
