// Module: pipelines lowered for one target and not yet written out, as
// upstream's Module.h. Pipeline::compile_to_module makes one,
// link_modules joins several, and compile() writes the files that
// compile_to would (one object, library or header for all the functions).
#ifndef HALIDE_MODULE_H
#define HALIDE_MODULE_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/LoweredFunc.h"
#include "Halide/Target.h"

namespace Halide {

// Argument names as the metadata should show them: old name -> new name.
using MetadataNameMap = std::map<std::string, std::string>;

struct AutoSchedulerResults;

namespace Internal {
struct ModuleContents;
class CompilerLogger; // upstream's; this compiler has none
} // namespace Internal

class Module {
public:
    Module(const std::string &name, const Target &target, const MetadataNameMap &renames = {});

    const Target &target() const;
    const std::string &name() const;
    // The Buffers appended with append(Buffer); a Buffer a function reads is
    // embedded in that function's code instead.
    const std::vector<Buffer<void>> &buffers() const;
    const std::vector<Internal::LoweredFunc> &functions() const;
    std::vector<Internal::LoweredFunc> &functions();
    const std::vector<Module> &submodules() const;
    // The function called `name`; a user error if there is none.
    Internal::LoweredFunc get_function_by_name(const std::string &name) const;

    void append(const Buffer<void> &buffer);
    void append(const Internal::LoweredFunc &function);
    void append(const Module &module);

    // Writes each file of `output_files` (as Pipeline::compile_to does) for
    // all the functions of this module and its submodules together.
    void compile(const std::map<OutputFileType, std::string> &output_files) const;
    // The object file's bytes.
    Buffer<uint8_t> compile_to_buffer() const;
    // A module with the submodules' functions moved into it.
    Module resolve_submodules() const;

    // Output buffer `from` is called `to` in the metadata (and, here, in the
    // header and the argument list too).
    void remap_metadata_name(const std::string &from, const std::string &to) const;
    MetadataNameMap get_metadata_name_map() const;

    // Whether any function was compiled with the strict_float feature.
    bool any_strict_float() const;
    void set_any_strict_float(bool any_strict_float);

    // What the autoscheduler made for this module's pipeline, as upstream's:
    // set when a Generator with an autoscheduler builds the module, else
    // nullptr (Pipeline::compile_to_module does not set it). The pointer
    // lives as long as the module.
    const AutoSchedulerResults *get_auto_scheduler_results() const;
    void set_auto_scheduler_results(const AutoSchedulerResults &results);

private:
    std::shared_ptr<Internal::ModuleContents> contents_;
};

// One module holding all of `modules`' functions and buffers; they must all
// have the same target.
Module link_modules(const std::string &name, const std::vector<Module> &modules);

// Makes the module of one variant of a multitarget build: its function must
// be called fn_name.
using ModuleFactory = std::function<Module(const std::string &fn_name, const Target &target)>;
using CompilerLoggerFactory =
    std::function<std::unique_ptr<Internal::CompilerLogger>(const std::string &fn_name, const Target &target)>;

// As upstream's: a static library (and its header) whose function fn_name
// runs the variant of the first of `targets` this CPU can run, the last
// being the base. Variant i is module_factory(fn_name + "_" + suffix,
// targets[i] with no_runtime), suffix = suffixes[i], or the target string
// with '_' for '-' when `suffixes` is empty; the runtime is the base
// target's. One target: that module compiled as it is. Other kinds of
// output files are written once per variant, the suffix before the
// extension. A compiler logger factory is refused: there is no logger here.
void compile_multitarget(const std::string &fn_name, const std::map<OutputFileType, std::string> &output_files,
                         const std::vector<Target> &targets, const std::vector<std::string> &suffixes,
                         const ModuleFactory &module_factory,
                         const CompilerLoggerFactory &compiler_logger_factory = nullptr);

} // namespace Halide

#endif
