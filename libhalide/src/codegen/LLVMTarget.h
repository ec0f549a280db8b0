// A Halide Target as LLVM sees it: triple, CPU and feature string.
#ifndef HALIDE_INTERNAL_LLVM_TARGET_H
#define HALIDE_INTERNAL_LLVM_TARGET_H

#include <string>

#include "Halide/Target.h"

namespace Halide {
namespace Internal {

struct LLVMTargetSpec {
    std::string triple, cpu, features;
    std::string tune; // LLVM's name of the processor to tune for (tune_znver3 -> "znver3"), or ""
};

// The target's features and those they imply (avx2 -> avx -> sse41, ...),
// as code generation and the metadata's target string use them.
Target with_implied_features(Target t);

// Throws CompileError for targets ahead-of-time compilation does not
// support: it writes code for 32- and 64-bit x86 and ARM on Linux, Android,
// Windows (64-bit ARM only, as upstream), macOS and iOS. Implied features
// included.
LLVMTargetSpec llvm_target_for(const Target &t);

} // namespace Internal
} // namespace Halide

#endif
