// Internal interface of the process-wide thread pool (thread_pool.cpp).
#ifndef HALIDE_RUNTIME_THREAD_POOL_H
#define HALIDE_RUNTIME_THREAD_POOL_H

#include "HalideRuntime.h"

namespace halide_runtime {

constexpr int kMaxThreads = 256;

// Runs task(user_context, i, closure) through halide_do_task for every i in
// [min, min + size), spread over the pool; returns the first non-zero result.
int run_parallel_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);

} // namespace halide_runtime

#endif
