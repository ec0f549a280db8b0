// Ahead-of-time compilation internals shared by Pipeline::compile_to and
// the generator driver.
#ifndef HALIDE_INTERNAL_AOT_COMPILE_H
#define HALIDE_INTERNAL_AOT_COMPILE_H

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "Halide/Pipeline.h"
#include "codegen/LoweredFunc.h"

namespace Halide {
namespace Internal {

// `p` lowered for ahead-of-time compilation: `args` (then the outputs) in
// ABI order, entry point `name`, asserts and bounds queries per `target`.
LoweredFunc lower_for_aot(const Pipeline &p, const std::vector<Argument> &args, const std::string &name,
                          const Target &target);

// A multitarget static library and/or header: one variant per target
// (lower_variant(target, function name) gives each; a generator builds its
// pipeline afresh per target), and a wrapper NAME that picks the first
// variant the CPU can run (halide_can_use_target_features), else the last.
void compile_multitarget(const std::map<OutputFileType, std::string> &output_files, const std::string &name,
                         const std::vector<Target> &targets,
                         const std::function<LoweredFunc(const Target &, const std::string &)> &lower_variant);

} // namespace Internal
} // namespace Halide

#endif
