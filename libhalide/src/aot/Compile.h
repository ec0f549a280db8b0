// Ahead-of-time compilation internals shared by Pipeline::compile_to and
// the generator driver.
#ifndef HALIDE_INTERNAL_AOT_COMPILE_H
#define HALIDE_INTERNAL_AOT_COMPILE_H

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "Halide/LoweredFunc.h"
#include "Halide/Pipeline.h"

namespace Halide {
namespace Internal {

// `p` lowered for ahead-of-time compilation: `args` (then the outputs) in
// ABI order, entry point `name`, asserts and bounds queries per `target`.
// `output_names` renames output buffer arguments (a Func assigned to a
// generator Output takes the Output's name): Func name -> argument name.
LoweredFunc lower_for_aot(const Pipeline &p, const std::vector<Argument> &args, const std::string &name,
                          const Target &target, const std::map<std::string, std::string> &output_names = {});

// A function name as compile_to and `-f` take it: "ns1::ns2::name".
struct FunctionName {
    std::vector<std::string> namespaces;
    std::string name;
};
// Splits and checks `qualified`: namespaces need the target feature
// c_plus_plus_name_mangling (as upstream requires).
FunctionName split_function_name(const std::string &qualified, const Target &target);

// Writes `output_files` for `f` (from lower_for_aot). With the target
// feature c_plus_plus_name_mangling the entry points get C++ (Itanium)
// names in `namespaces`, and the header declares them there.
// `autoscheduled`: what an autoscheduler applied, for the schedule header.
void compile_lowered(const std::map<OutputFileType, std::string> &output_files, const LoweredFunc &f,
                     const Target &target, const std::vector<std::string> &namespaces = {},
                     const AutoSchedulerResults *autoscheduled = nullptr);
// The same for several functions in one object, library or header (a
// Module called `name`).
void compile_lowered(const std::map<OutputFileType, std::string> &output_files, const std::vector<LoweredFunc> &fs,
                     const std::string &name, const Target &target, const std::vector<std::string> &namespaces = {},
                     const AutoSchedulerResults *autoscheduled = nullptr);

// "dir/f.s" + "-avx2" -> "dir/f-avx2.s": `suffix` before the extension.
std::string with_file_suffix(const std::string &path, const std::string &suffix);

// A multitarget static library (or objects: PATH-SUFFIX per variant,
// PATH_wrapper and PATH_runtime, as upstream's) and/or header: one variant per target
// (lower_variant(target, function name) gives each; a generator builds its
// pipeline afresh per target), and a wrapper NAME that picks the first
// variant the CPU can run (halide_can_use_target_features), else the last.
// Variant i is called NAME_SUFFIX, SUFFIX suffixes[i] (when given) or the
// target string, made a C identifier.
void compile_multitarget(const std::map<OutputFileType, std::string> &output_files, const std::string &name,
                         const std::vector<Target> &targets,
                         const std::function<LoweredFunc(const Target &, const std::string &)> &lower_variant,
                         const std::vector<std::string> &namespaces = {},
                         const std::vector<std::string> &suffixes = {});

} // namespace Internal
} // namespace Halide

#endif
