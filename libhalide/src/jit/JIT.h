// Just-in-time compilation of a lowered pipeline for the host CPU (LLVM ORC).
//
// A JITModule owns the machine code; keep it (or a copy: copies share the
// code) alive while its function may still be called. No LLVM types here.
#ifndef HALIDE_INTERNAL_JIT_H
#define HALIDE_INTERNAL_JIT_H

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "Halide/JITModule.h"

namespace Halide {
namespace Internal {

struct LoweredFunc;

// What a JIT call puts on the runtime's call context (call_context.h), which
// follows it onto pool threads: the messages the runtime reports, and the
// JITUserContext whose handlers are in use (passed to them; the caller's own
// object when it gave one, never null during a call).
struct JITCallContext {
    std::mutex mutex;
    std::string errors;
    JITUserContext *user = nullptr;
};

class JITModule {
public:
    // The generated entry point: int32_t NAME_argv(void **args) (ABI.md 4).
    using ArgvFunction = int (*)(void **);

    JITModule() = default;

    // Generates, optimizes and compiles `f` for the host. Runtime calls
    // (halide_do_par_for, halide_malloc, halide_error_*) bind to the runtime
    // linked into libhalide; other C symbols (sqrtf, ...) to the process.
    // Throws InternalError if code generation or linking fails.
    // `externs` binds names to addresses ahead of the process's symbols
    // (Pipeline::set_jit_externs).
    static JITModule compile(const LoweredFunc &f, const std::map<std::string, void *> &externs = {});

    bool defined() const { return impl_ != nullptr; }
    ArgvFunction argv_function() const;
    // The address of the compiled function `name` (the entry point NAME,
    // taking its arguments directly), as a JIT extern binds it.
    void *function_address(const std::string &name) const;
    // The optimized LLVM IR of the module, as text.
    std::string llvm_ir() const;
    // Host assembly of the module (generated on first request).
    std::string assembly() const;

private:
    struct Impl;
    std::shared_ptr<Impl> impl_;
};

} // namespace Internal
} // namespace Halide

#endif
