// The per-call context that follows a kernel call onto pool threads, so
// hooks (the Python error handler) know which call a message belongs to,
// whichever thread reports it.
#ifndef HALIDE_RUNTIME_CALL_CONTEXT_H
#define HALIDE_RUNTIME_CALL_CONTEXT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the calling thread's context (NULL if none was set). */
void *hlrt_get_call_context(void);
/* Sets the calling thread's context and returns the previous one. */
void *hlrt_set_call_context(void *context);

#ifdef __cplusplus
}
#endif

#endif
