// Halide::Pipeline: one or more output Funcs compiled and run together.
#ifndef HALIDE_PIPELINE_H
#define HALIDE_PIPELINE_H

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/Realization.h"
#include "Halide/Target.h"

namespace Halide {

namespace Internal {
struct PipelineContents;
}

class Pipeline {
public:
    Pipeline() = default;
    Pipeline(const Func &output);
    explicit Pipeline(const std::vector<Func> &outputs);

    std::vector<Func> outputs() const;

    // JIT-compiles (cached until any definition or schedule changes).
    void compile_jit();
    // Allocates every output over `sizes` and runs the pipeline.
    Realization realize(std::vector<int32_t> sizes);
    // Fills existing buffers, one per output (their mins are honoured).
    void realize(const Realization &dst);
    template <typename T, int D> void realize(const Buffer<T, D> &dst) { realize(Realization({Buffer<>(dst)})); }

    // For people: the lowered loop nest, LLVM IR and assembly.
    std::string lowered_stmt();
    std::string llvm_ir();
    std::string assembly();

    // Ahead-of-time compilation (docs/aot.md). `args` are the inputs in the
    // order of the entry point's parameters; the outputs follow. `fn_name`
    // names NAME, NAME_argv and NAME_metadata (default: the first output's
    // name).
    void compile_to(const std::map<OutputFileType, std::string> &output_files, const std::vector<Argument> &args,
                    const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_object(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_header(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                           const Target &target = get_target_from_environment());
    void compile_to_assembly(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target = get_target_from_environment());
    void compile_to_bitcode(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                            const Target &target = get_target_from_environment());
    void compile_to_llvm_assembly(const std::string &filename, const std::vector<Argument> &args,
                                  const std::string &fn_name, const Target &target = get_target_from_environment());
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 const Target &target = get_target_from_environment());
    // PREFIX.a and PREFIX.h.
    void compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    // PREFIX.a and PREFIX.h holding one variant per target and a wrapper
    // that runs the first one this CPU supports (the last is the fallback).
    void compile_to_multitarget_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                               const std::vector<Target> &targets);
    // PREFIX.o and PREFIX.h.
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "", const Target &target = get_target_from_environment());

private:
    friend class Func;
    // Runs into raw buffers, one per output.
    void run(const std::vector<halide_buffer_t *> &outputs);
    std::shared_ptr<Internal::PipelineContents> contents_;
};

// The runtime alone (what kernels compiled with no_runtime call into), as an
// object (FILE.o) or a static library (FILE.a). Upstream's
// compile_standalone_runtime; the runtime exists for the host machine only.
void compile_standalone_runtime(const std::string &filename, const Target &target);

} // namespace Halide

#endif
