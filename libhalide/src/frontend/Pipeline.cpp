// See Pipeline.h. Compiling (lower + JIT) is cached per Pipeline and redone
// when any definition or schedule has changed since (pipeline_epoch).
#include "Halide/Pipeline.h"

#include <mutex>
#include <sstream>

#include "Function.h"
#include "Halide/IRPrinter.h"
#include "call_context.h"
#include "jit/JIT.h"
#include "lower/Lower.h"

namespace Halide {
namespace Internal {

struct PipelineContents {
    std::vector<Func> outputs;
    uint64_t epoch = ~uint64_t(0);
    LoweredPipeline lowered;
    std::shared_ptr<JITModule> module;
};

namespace {

// Runtime errors of JIT-compiled pipelines: the runtime linked into
// libhalide reports through this handler, which appends to the log of the
// call in progress (the call context follows the call onto pool threads).
struct JITErrorLog {
    std::mutex mutex;
    std::string text;
};

void capture_jit_error(void *, const char *message) {
    auto *log = static_cast<JITErrorLog *>(hlrt_get_call_context());
    if (!log) {
        return;
    }
    std::lock_guard<std::mutex> lock(log->mutex);
    log->text += (log->text.empty() ? "" : "\n") + std::string(message);
}

void run_jit(const JITModule &module, const std::string &name, void **args) {
    static std::once_flag once;
    std::call_once(once, [] { halide_set_error_handler(capture_jit_error); });
    JITErrorLog log;
    void *outer = hlrt_set_call_context(&log);
    int result = module.argv_function()(args);
    hlrt_set_call_context(outer);
    if (result != 0) {
        throw RuntimeError("Error running pipeline '" + name + "' (code " + std::to_string(result) +
                               "): " + (log.text.empty() ? "no message" : log.text),
                           result);
    }
}

} // namespace
} // namespace Internal

using namespace Internal;

Pipeline::Pipeline(const Func &output) : Pipeline(std::vector<Func>{output}) {}

Pipeline::Pipeline(const std::vector<Func> &outputs) : contents_(std::make_shared<PipelineContents>()) {
    user_assert(!outputs.empty()) << "A Pipeline needs at least one output Func";
    contents_->outputs = outputs;
}

std::vector<Func> Pipeline::outputs() const {
    return contents_ ? contents_->outputs : std::vector<Func>{};
}

void Pipeline::compile_jit() {
    user_assert(contents_) << "Can't compile an empty Pipeline";
    PipelineContents &c = *contents_;
    std::vector<FunctionPtr> outputs;
    for (const Func &f : c.outputs) {
        user_assert(f.defined()) << "Can't compile Func '" << f.name() << "' because it has not been defined";
        outputs.push_back(f.function());
    }
    if (c.epoch == pipeline_epoch() && c.module) {
        return;
    }
    c.lowered = lower(outputs, c.outputs[0].name());
    c.module = std::make_shared<JITModule>(JITModule::compile(c.lowered.func));
    c.epoch = pipeline_epoch();
}

void Pipeline::realize(const Realization &dst) {
    std::vector<halide_buffer_t *> outputs;
    for (size_t i = 0; i < dst.size(); i++) {
        user_assert(dst[i].defined()) << "Output buffer " << i << " given to realize() is undefined";
        outputs.push_back(dst[i].raw_buffer());
    }
    run(outputs);
}

void Pipeline::run(const std::vector<halide_buffer_t *> &outputs) {
    compile_jit();
    PipelineContents &c = *contents_;
    size_t buffers = 0;
    for (const Func &f : c.outputs) {
        buffers += (size_t)f.outputs();
    }
    user_assert(outputs.size() == buffers)
        << "Pipeline '" << c.outputs[0].name() << "' computes " << buffers << " output buffers (one per output Func "
        << "and Tuple value) but realize() was given " << outputs.size();
    const LoweredPipeline &lp = c.lowered;
    std::vector<void *> args;
    for (const ArgumentSource &s : lp.sources) {
        if (s.param) {
            args.push_back(&s.param->value);
        } else if (s.buffer) {
            user_assert(s.buffer->bound) << "ImageParam '" << s.buffer->name
                                         << "' has no buffer: call set() on it before realizing '"
                                         << c.outputs[0].name() << "'";
            args.push_back(s.buffer->bound);
        } else {
            args.push_back(outputs[(size_t)s.output_index]);
        }
    }
    run_jit(*c.module, c.outputs[0].name(), args.data());
}

Realization Pipeline::realize(std::vector<int32_t> sizes) {
    user_assert(contents_) << "Can't realize an empty Pipeline";
    std::vector<Buffer<>> buffers;
    for (const Func &f : contents_->outputs) {
        user_assert(f.defined()) << "Can't realize Func '" << f.name() << "' because it has not been defined";
        user_assert((int)sizes.size() == f.dimensions())
            << "Func '" << f.name() << "' has " << f.dimensions() << " dimensions but realize() was given "
            << sizes.size() << " sizes";
        for (const Type &t : f.output_types()) {
            buffers.emplace_back(t, std::vector<int>(sizes.begin(), sizes.end()), f.name());
        }
    }
    Realization r(buffers);
    realize(r);
    return r;
}

std::string Pipeline::lowered_stmt() {
    compile_jit();
    std::ostringstream s;
    s << contents_->lowered.func.body;
    return s.str();
}

std::string Pipeline::llvm_ir() {
    compile_jit();
    return contents_->module->llvm_ir();
}

std::string Pipeline::assembly() {
    compile_jit();
    return contents_->module->assembly();
}

} // namespace Halide
