// Running JIT-compiled code: shared by Pipeline (realize) and Callable.
#ifndef HALIDE_INTERNAL_JITCALL_H
#define HALIDE_INTERNAL_JITCALL_H

#include <string>

#include "Halide/Target.h"
#include "jit/JIT.h"

namespace Halide {
namespace Internal {

// The JIT's entry points take the call's JITUserContext first, as their
// __user_context argument (as upstream's JIT): extern calls given
// user_context_value() and the runtime's hooks receive it. Compile
// with_jit_user_context(f), not f, for run_jit.
LoweredFunc with_jit_user_context(LoweredFunc f);

// Calls `module`'s entry point with `args`, whose first slot run_jit fills
// with the user context (the caller leaves it free). `context` (may be null) is the
// caller's JITUserContext, handed to the handlers; as upstream, its handlers
// left unset are filled from `handlers` (the pipeline's; may be null). A
// non-zero result becomes a RuntimeError carrying the messages the runtime
// reported during the call (collected per call, so concurrent calls keep
// their messages apart), unless a custom_error handler took the messages:
// then the result is returned.
int run_jit(const JITModule &module, const std::string &name, void **args, JITUserContext *context = nullptr,
            const JITHandlers *handlers = nullptr);

// The JIT makes code for this machine only: a user error for a target of
// another OS, architecture or bit width. `what` names the caller.
void check_jit_target(const Target &target, const char *what);

// How many times Pipelines have been compiled for the JIT in this process
// (tests use it to check that a cached pipeline is reused).
uint64_t jit_compilation_count();

} // namespace Internal
} // namespace Halide

#endif
