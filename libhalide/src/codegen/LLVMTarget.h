// A Halide Target as LLVM sees it: triple, CPU and feature string.
#ifndef HALIDE_INTERNAL_LLVM_TARGET_H
#define HALIDE_INTERNAL_LLVM_TARGET_H

#include <string>

#include "Halide/Target.h"

namespace Halide {
namespace Internal {

struct LLVMTargetSpec {
    std::string triple, cpu, features;
};

// Throws CompileError for targets ahead-of-time compilation does not
// support (only 64-bit x86 and ARM Linux so far).
LLVMTargetSpec llvm_target_for(const Target &t);

} // namespace Internal
} // namespace Halide

#endif
