// Halide::Pipeline: one or more output Funcs compiled and run together.
#ifndef HALIDE_PIPELINE_H
#define HALIDE_PIPELINE_H

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Callable.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/GeneratorContext.h"
#include "Halide/IRMutator.h"
#include "Halide/IROperator.h"
#include "Halide/JITExtern.h"
#include "Halide/JITModule.h"
#include "Halide/Module.h"
#include "Halide/Realization.h"
#include "Halide/Target.h"

namespace Halide {

class Pipeline;
namespace Internal {
struct PipelineContents;
struct LowerOptions;
class JITModule;
LowerOptions lower_options_with_passes(Pipeline &p);
} // namespace Internal

// A custom lowering pass (Pipeline::add_custom_lowering_pass): run over the
// lowered statement after the built-in passes; `deleter` (if set) is called
// when the pipeline lets go of it.
struct CustomLoweringPass {
    Internal::IRMutator *pass;
    std::function<void()> deleter;
};

// What Pipeline::apply_autoscheduler made: the schedule it applied, as C++
// source, for the target and parameters it was given.
struct AutoSchedulerResults {
    Target target;
    AutoschedulerParams autoscheduler_params;
    std::string schedule_source;
    std::vector<uint8_t> featurization; // empty: no autoscheduler here writes one
};

// An autoscheduler: schedules the pipeline's Funcs in place and fills `outputs`.
using AutoSchedulerFn =
    std::function<void(const Pipeline &, const Target &, const AutoschedulerParams &, AutoSchedulerResults *outputs)>;

// Loads a shared library of autoschedulers, which register themselves with
// Pipeline::add_autoscheduler when loaded ("name" means libname.so on the
// library path). Upstream's plugin names (autoschedule_adams2019,
// autoschedule_anderson2021, autoschedule_li2018, autoschedule_mullapudi2016)
// are built in here: loading them does nothing (docs/language.md).
void load_plugin(const std::string &lib_name);

class Pipeline {
public:
    // realize({a, b}), realize(runtime_buffer), realize(raw_buffer): see Realization.h.
    using RealizationArg = Internal::RealizationArg;

    Pipeline() = default;
    Pipeline(const Func &output);
    explicit Pipeline(const std::vector<Func> &outputs);

    bool defined() const { return contents_ != nullptr; }
    std::vector<Func> outputs() const;

    // JIT-compiles (cached until any definition or schedule changes). The
    // JIT makes code for this machine: a target of another OS, architecture
    // or bit width is an error; features are not used yet.
    void compile_jit(const Target &target = get_jit_target_from_environment());
    // Allocates every output over `sizes` and runs the pipeline. A default
    // Target() means get_jit_target_from_environment().
    Realization realize(std::vector<int32_t> sizes = {}, const Target &target = Target());
    // Fills existing buffers, one per output (their mins are honoured).
    void realize(const Realization &dst, const Target &target = Target());
    template <typename T, int D> void realize(const Buffer<T, D> &dst, const Target &target = Target()) {
        realize(Realization({Buffer<>(dst)}), target);
    }
    void realize(RealizationArg outputs, const Target &target = Target()) { realize(outputs.realization(), target); }
    // The same with a JITUserContext (may be null), handed to the handlers
    // of this run: those it sets win over jit_handlers(), which fill the
    // ones it leaves unset (as upstream, in the caller's object). With a
    // custom_error handler, a failing run reports only through it.
    Realization realize(JITUserContext *context, std::vector<int32_t> sizes = {}, const Target &target = Target());
    void realize(JITUserContext *context, const Realization &dst, const Target &target = Target());
    template <typename T, int D>
    void realize(JITUserContext *context, const Buffer<T, D> &dst, const Target &target = Target()) {
        realize(context, Realization({Buffer<>(dst)}), target);
    }
    void realize(JITUserContext *context, RealizationArg outputs, const Target &target = Target()) {
        realize(context, outputs.realization(), target);
    }

    // JIT-compiles with a fixed argument list: `args` (every Param and
    // ImageParam the pipeline reads) and then the output buffers. Input
    // Buffers the pipeline reads directly need not be listed.
    Callable compile_to_callable(const std::vector<Argument> &args,
                                 const Target &target = get_jit_target_from_environment());

    // Every ImageParam without a buffer gets one (zero-filled) covering the
    // region that realizing over `sizes` (or into `dst`) would read.
    void infer_input_bounds(const std::vector<int32_t> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(const Realization &dst, const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes,
                            const Target &target = get_jit_target_from_environment());
    void infer_input_bounds(JITUserContext *context, const Realization &dst,
                            const Target &target = get_jit_target_from_environment());
    template <typename T, int D>
    void infer_input_bounds(const Buffer<T, D> &dst, const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(Realization({Buffer<>(dst)}), target);
    }
    void infer_input_bounds(RealizationArg outputs, const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(outputs.realization(), target);
    }
    void infer_input_bounds(JITUserContext *context, RealizationArg outputs,
                            const Target &target = get_jit_target_from_environment()) {
        infer_input_bounds(context, outputs.realization(), target);
    }

    // Schedules every Func of the pipeline with the named autoscheduler
    // (built in: Adams2019, Anderson2021, Li2018 and Mullapudi2016, one
    // heuristic here; or one registered by add_autoscheduler/load_plugin).
    AutoSchedulerResults apply_autoscheduler(const Target &target,
                                             const AutoschedulerParams &autoscheduler_params) const;
    static void add_autoscheduler(const std::string &autoscheduler_name, const AutoSchedulerFn &autoscheduler);

    // Func `index` of every Func the pipeline computes, in realization
    // order (producers before consumers; the outputs last).
    Func get_func(size_t index);
    // Every later compile reports begin_pipeline/end_pipeline trace events
    // (halide_trace), even when no Func is traced.
    void trace_pipeline();
    // The target of the JIT-compiled code (Target() before compile_jit).
    Target get_compiled_jit_target() const;

    // The Params and ImageParams (and input Buffers) the pipeline reads:
    // buffers first, then scalars, each sorted by name (as upstream).
    std::vector<Argument> infer_arguments();

    // Hooks for the runs of this pipeline's JIT-compiled code (see
    // JITModule.h: the host handlers are honoured, the GPU and symbol-lookup
    // ones refused).
    JITHandlers &jit_handlers();
    // C functions the JIT calls for extern calls of these names (define_extern,
    // HalideExtern_*), in place of the process's symbols; the JITed code is
    // compiled again. A JITExtern of a Pipeline or Func is refused.
    void set_jit_externs(const std::map<std::string, JITExtern> &externs);
    const std::map<std::string, JITExtern> &get_jit_externs();

    // Custom passes over the lowered statement, run in the order added after
    // the built-in ones, by every later compile (JIT, Callable, AOT). The
    // pipeline owns them: `deleter` runs when it is destroyed or the passes
    // are cleared (the template form deletes the pass).
    void add_custom_lowering_pass(Internal::IRMutator *pass, std::function<void()> deleter);
    template <typename T> void add_custom_lowering_pass(T *pass) {
        add_custom_lowering_pass(pass, [pass]() { delete pass; });
    }
    void clear_custom_lowering_passes();
    const std::vector<CustomLoweringPass> &custom_lowering_passes();

    // Every later run (JIT or ahead-of-time) first checks `condition` (of
    // Params and buffer fields) and, where it is false, fails with
    // "Requirement Failed: (condition) " and the values of `error_args`
    // separated by spaces.
    void add_requirement(const Expr &condition, const std::vector<Expr> &error_args = {});
    // The message's parts may be Exprs, numbers or strings (as for print()).
    template <typename... Args> void add_requirement(const Expr &condition, const Args &...error_args) {
        add_requirement(condition, std::vector<Expr>{PrintArg(error_args).expr...});
    }
    // Forgets the JIT-compiled code: the next run compiles afresh.
    void invalidate_cache();
    // The loop nest of the lowered pipeline as upstream's print_loop_nest
    // shows it: produce/consume blocks and loops (named without their
    // Func and stage prefix, with constant bounds as [min, max]), each
    // stage's body as "f(...) = ...". print_loop_nest() writes it to stderr.
    std::string loop_nest();
    void print_loop_nest();

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
    // C++ source defining the same entry points as the object (OutputFileType::c_source).
    void compile_to_c(const std::string &filename, const std::vector<Argument> &args, const std::string &fn_name,
                      const Target &target = get_target_from_environment());
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args,
                                 const Target &target = get_target_from_environment());
    void compile_to_lowered_stmt(const std::string &filename, const std::vector<Argument> &args, StmtOutputFormat fmt,
                                 const Target &target = get_target_from_environment());
    // Upstream's statement before its backend-specific passes; here the
    // same lowered statement compile_to_lowered_stmt writes.
    void compile_to_conceptual_stmt(const std::string &filename, const std::vector<Argument> &args,
                                    StmtOutputFormat fmt = StmtOutputFormat::Text,
                                    const Target &target = get_target_from_environment());
    // One object per target, PREFIX-SUFFIX.o (SUFFIX: suffixes[i], or the
    // target's string when `suffixes` is empty), PREFIX_wrapper.o running
    // the first variant the CPU supports (the last is the fallback),
    // PREFIX_runtime.o and PREFIX.h, as upstream. A single target gives
    // PREFIX.o (with the runtime) and PREFIX.h, as compile_to_file.
    void compile_to_multitarget_object_files(const std::string &filename_prefix, const std::vector<Argument> &args,
                                             const std::vector<Target> &targets,
                                             const std::vector<std::string> &suffixes);
    // PREFIX.a and PREFIX.h.
    void compile_to_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                   const std::string &fn_name = "",
                                   const Target &target = get_target_from_environment());
    // PREFIX.a and PREFIX.h holding one variant per target and a wrapper
    // that runs the first one this CPU supports (the last is the fallback).
    void compile_to_multitarget_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                               const std::vector<Target> &targets);
    // See Module.h: the pipeline lowered for `target` as function `fn_name`
    // (entry points NAME, NAME_argv, NAME_metadata whatever the linkage),
    // to be written by Module::compile or linked with others.
    Module compile_to_module(const std::vector<Argument> &args, const std::string &fn_name,
                             const Target &target = get_target_from_environment(),
                             LinkageType linkage_type = LinkageType::ExternalPlusMetadata);
    // PREFIX.o and PREFIX.h.
    void compile_to_file(const std::string &filename_prefix, const std::vector<Argument> &args,
                         const std::string &fn_name = "", const Target &target = get_target_from_environment());

private:
    friend class Func;
    friend Internal::LowerOptions Internal::lower_options_with_passes(Pipeline &p);
    // Runs into raw buffers, one per output. With `query_inputs`, unbound
    // ImageParams are passed as bounds queries and their buffers returned.
    // `query`: a bounds query of the outputs' shapes, run without handlers.
    void run(const std::vector<halide_buffer_t *> &outputs, JITUserContext *context = nullptr, bool query = false);
    void infer_input_bounds(const std::vector<halide_buffer_t *> &outputs, JITUserContext *context);
    // set_jit_externs(): each name's address for the JIT, compiling the
    // Pipelines and Funcs among them (their modules added to `keep_alive`).
    std::map<std::string, void *> jit_extern_addresses(const Target &target,
                                                       std::vector<std::shared_ptr<Internal::JITModule>> &keep_alive);
    std::shared_ptr<Internal::PipelineContents> contents_;
};

// The runtime alone (what kernels compiled with no_runtime call into), as an
// object (FILE.o) or a static library (FILE.a). Upstream's
// compile_standalone_runtime; the runtime exists for the host machine only.
void compile_standalone_runtime(const std::string &filename, const Target &target);

} // namespace Halide

#endif
