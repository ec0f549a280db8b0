// Ahead-of-time code generation: a LoweredFunc to the bytes of an object
// file, assembly, LLVM bitcode or LLVM IR text, and archives of objects.
#ifndef HALIDE_INTERNAL_EMIT_MODULE_H
#define HALIDE_INTERNAL_EMIT_MODULE_H

#include <string>
#include <utility>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "Halide/Target.h"

namespace Halide {
namespace Internal {

struct EmittedModule {
    std::string object, assembly, bitcode, llvm_assembly; // empty unless asked for
};

struct EmitRequest {
    bool object = false, assembly = false, bitcode = false, llvm_assembly = false;
    // NAME gets hidden visibility: a multitarget variant, called only by the
    // dispatcher linked with it, neither exported nor interposable.
    bool hidden_entry = false;
};

// Generates NAME, NAME_argv and NAME_metadata (with t's canonical string)
// for target t and emits what `what` asks for.
EmittedModule emit_module(const LoweredFunc &f, const Target &t, const EmitRequest &what);
// Several functions in one LLVM module (a Module's, for one object).
EmittedModule emit_module(const std::vector<LoweredFunc> &fs, const Target &t, const EmitRequest &what);

// The object of a multitarget wrapper (CodeGen_LLVM.h) for `base`'s
// architecture, its metadata naming `metadata_target`.
std::string emit_multitarget_wrapper(const LoweredFunc &f, const std::vector<std::string> &variant_functions,
                                     const std::vector<Target> &variant_targets, const Target &base,
                                     const std::string &metadata_target);

// A GNU-format static library holding `members` (file name, contents),
// with a symbol table.
std::string make_archive(const std::vector<std::pair<std::string, std::string>> &members);

} // namespace Internal
} // namespace Halide

#endif
