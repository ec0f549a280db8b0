// Callable and compile_to_callable: the pipeline is lowered and compiled
// once, with the entry point's own argument order; a call permutes the
// caller's argv into it (and fills in input Buffers the caller need not
// pass) on the stack, so calls allocate nothing.
#include "Halide/Callable.h"

#include <set>

#include "Halide/Func.h"
#include "Halide/Pipeline.h"
#include "frontend/CustomPasses.h"
#include "frontend/JITCall.h"
#include "lower/Lower.h"

namespace Halide {
namespace Internal {

struct CallableContents {
    std::string name;
    std::vector<Argument> arguments; // the caller's order
    // Of the jit_externs that are Pipelines or Funcs (before `module`, which
    // calls them, so they outlive it).
    std::vector<std::shared_ptr<JITModule>> extern_modules;
    JITModule module;
    LoweredPipeline lowered; // keeps Params and bound Buffers alive
    // Per entry-point argument: the caller's argument index, or -1 for an
    // input Buffer (or bound ImageParam) read from its binding at call time.
    std::vector<int> from_caller;
    JITHandlers handlers; // the pipeline's at compile_to_callable time
};

namespace {

const char *kind_word(bool is_buffer) {
    return is_buffer ? "a buffer" : "a scalar";
}

} // namespace
} // namespace Internal

using namespace Internal;

const std::string &Callable::name() const {
    user_assert(contents_) << "The Callable is undefined (default-constructed)";
    return contents_->name;
}

const std::vector<Argument> &Callable::arguments() const {
    user_assert(contents_) << "The Callable is undefined (default-constructed)";
    return contents_->arguments;
}

void Callable::check_argument(size_t i, bool is_buffer, const Type &t) const {
    const std::vector<Argument> &args = arguments();
    user_assert(i < args.size()) << "Callable '" << contents_->name << "' takes " << args.size()
                                 << " arguments but was given more";
    const Argument &a = args[i];
    user_assert(a.is_buffer() == is_buffer)
        << "Argument " << i << " ('" << a.name << "') of Callable '" << contents_->name << "' is "
        << kind_word(a.is_buffer()) << ", but " << kind_word(is_buffer) << " was given";
    user_assert(is_buffer || a.type == t || (a.type.is_handle() && t.is_handle()))
        << "Argument " << i << " ('" << a.name << "') of Callable '" << contents_->name << "' has type "
        << type_to_string(a.type) << ", but a value of type " << type_to_string(t) << " was given";
}

int Callable::call_argv_fast(size_t argc, const void *const *argv) const {
    user_assert(contents_) << "The Callable is undefined (default-constructed)";
    const CallableContents &c = *contents_;
    user_assert(argc == c.arguments.size() + 1)
        << "Callable '" << c.name << "' takes " << c.arguments.size()
        << " arguments (after the JITUserContext) but was given " << (argc == 0 ? 0 : argc - 1);
    user_assert(argv[0]) << "Callable '" << c.name << "': argv[0] must point to a JITUserContext * (which may be null)";
    JITUserContext *context = *static_cast<JITUserContext *const *>(argv[0]);
    argv++;
    constexpr size_t kOnStack = 32;
    void *stack[kOnStack + 1];
    std::vector<void *> heap;
    size_t n = c.from_caller.size();
    void **all = stack;
    if (n > kOnStack) {
        heap.resize(n + 1);
        all = heap.data();
    }
    void **args = all + 1; // all[0]: the user context, run_jit's
    for (size_t k = 0; k < n; k++) {
        int i = c.from_caller[k];
        if (i >= 0) {
            args[k] = const_cast<void *>(argv[i]);
            user_assert(args[k] || !c.arguments[(size_t)i].is_scalar())
                << "Callable '" << c.name << "': scalar argument '" << c.arguments[(size_t)i].name << "' is null";
        } else {
            const InputBufferPtr &b = c.lowered.sources[k].buffer;
            user_assert(b->bound) << "Callable '" << c.name << "': ImageParam '" << b->name
                                  << "' is not an argument and has no buffer";
            args[k] = b->bound;
        }
    }
    return run_jit(c.module, c.name, all, context, &c.handlers);
}

Callable Pipeline::compile_to_callable(const std::vector<Argument> &args, const Target &target) {
    user_assert(contents_) << "Can't compile an empty Pipeline";
    check_jit_target(target, "compile_to_callable");
    std::vector<FunctionPtr> funcs;
    for (const Func &f : outputs()) {
        user_assert(f.defined()) << "Can't compile Func '" << f.name() << "' because it has not been defined";
        funcs.push_back(f.function());
    }
    auto c = std::make_shared<CallableContents>();
    c->name = outputs()[0].name();
    c->lowered = lower(funcs, c->name, lower_options_with_passes(*this));
    const LoweredFunc &lf = c->lowered.func;

    std::set<std::string> listed;
    for (const Argument &a : args) {
        user_assert(a.is_input()) << "compile_to_callable: argument '" << a.name
                                  << "' is an output; list only the inputs (the outputs come last by themselves)";
        user_assert(listed.insert(a.name).second) << "compile_to_callable: argument '" << a.name << "' is listed twice";
        c->arguments.push_back(a);
    }
    for (const LoweredArgument &la : lf.args) {
        if (la.kind == LoweredArgument::OutputBuffer) {
            c->arguments.emplace_back(la.name, Argument::OutputBuffer, la.type, la.dimensions);
        }
    }
    size_t outputs_seen = 0;
    for (size_t k = 0; k < lf.args.size(); k++) {
        const LoweredArgument &la = lf.args[k];
        const ArgumentSource &src = c->lowered.sources[k];
        int from = -1;
        if (la.kind == LoweredArgument::OutputBuffer) {
            from = (int)(args.size() + outputs_seen++);
        } else {
            for (size_t i = 0; i < args.size(); i++) {
                if (args[i].name == la.name) {
                    from = (int)i;
                }
            }
            if (from >= 0) {
                const Argument &a = args[(size_t)from];
                user_assert(a.is_buffer() == la.is_buffer() && a.type == la.type &&
                            (!a.is_buffer() || a.dimensions == la.dimensions))
                    << "compile_to_callable: argument '" << a.name << "' is given as " << kind_word(a.is_buffer())
                    << " of type " << type_to_string(a.type) << ", but the pipeline uses it as "
                    << kind_word(la.is_buffer()) << " of type " << type_to_string(la.type);
            } else {
                // An input Buffer the pipeline reads directly: bound already.
                user_assert(src.buffer && src.buffer->bound)
                    << "compile_to_callable: the pipeline '" << c->name << "' uses '" << la.name
                    << "' but the argument list does not contain it. Pass every Param and ImageParam it reads.";
            }
        }
        c->from_caller.push_back(from);
    }
    std::map<std::string, void *> externs = jit_extern_addresses(target, c->extern_modules);
    c->module = JITModule::compile(with_jit_user_context(lf), externs);
    c->handlers = jit_handlers();
    Callable result;
    result.contents_ = std::move(c);
    return result;
}

Callable Func::compile_to_callable(const std::vector<Argument> &args, const Target &target) {
    return pipeline().compile_to_callable(args, target);
}

void Func::infer_input_bounds(const std::vector<int32_t> &sizes, const Target &target) {
    pipeline().infer_input_bounds(sizes, target);
}

void Func::infer_input_bounds(const Realization &dst, const Target &target) {
    pipeline().infer_input_bounds(dst, target);
}

void Func::infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes, const Target &target) {
    pipeline().infer_input_bounds(context, sizes, target);
}

void Func::infer_input_bounds(JITUserContext *context, const Realization &dst, const Target &target) {
    pipeline().infer_input_bounds(context, dst, target);
}

std::vector<Argument> Func::infer_arguments() {
    return Pipeline(*this).infer_arguments();
}

void Func::compile_to_multitarget_static_library(const std::string &filename_prefix, const std::vector<Argument> &args,
                                                 const std::vector<Target> &targets) {
    Pipeline(*this).compile_to_multitarget_static_library(filename_prefix, args, targets);
}

} // namespace Halide
