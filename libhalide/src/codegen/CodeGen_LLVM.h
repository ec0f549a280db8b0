// Code generation: a LoweredFunc to an LLVM module holding its entry points
// `int NAME(args...)` and `int NAME_argv(void **args)` and, for ahead-of-time
// compilation, `NAME_metadata()` (ABI.md sections 3 and 4); optimized at O3
// and verified.
#ifndef HALIDE_INTERNAL_CODEGEN_LLVM_H
#define HALIDE_INTERNAL_CODEGEN_LLVM_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace Halide {
namespace Internal {

// Builds the module for `f` in `ctx`, for the given LLVM target triple, CPU
// name and feature string ("+avx2,+fma,..."). Throws InternalError if the
// IR is malformed (e.g. a Provide or a Func call reached codegen) or if the
// generated module fails LLVM's verifier. With a `metadata_target` (the
// canonical target string), the module also defines NAME_metadata.
std::unique_ptr<llvm::Module> codegen_llvm(const LoweredFunc &f, llvm::LLVMContext &ctx,
                                           const std::string &target_triple, const std::string &cpu,
                                           const std::string &features, const std::string &metadata_target = "");

// One variant of a multitarget kernel: its function and the features it
// needs (Target::Feature bits, 64 per word).
struct MultitargetVariant {
    std::string function;
    std::vector<uint64_t> feature_words;
};

// The multitarget wrapper NAME / NAME_argv / NAME_metadata over `variants`
// (the last one is the fallback), with f's signature.
std::unique_ptr<llvm::Module> codegen_multitarget_wrapper(const LoweredFunc &f,
                                                          const std::vector<MultitargetVariant> &variants,
                                                          llvm::LLVMContext &ctx, const std::string &target_triple,
                                                          const std::string &cpu, const std::string &features,
                                                          const std::string &metadata_target);

} // namespace Internal
} // namespace Halide

#endif
