// See Pipeline.h. Compiling (lower + JIT) is cached per Pipeline and redone
// when a Func it reaches has changed since (change stamps, Function.h).
#include "Halide/Pipeline.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sstream>
#include <tuple>

#include "Halide/IRPrinter.h"
#include "Halide/Param.h"
#include "call_context.h"
#include "frontend/CustomPasses.h"
#include "frontend/JITCall.h"
#include "frontend/ParamValues.h"
#include "jit/JITHandlers.h"
#include "lower/Function.h"
#include "lower/Lower.h"
#include "lower/Passes.h"
#include "profiler.h"
#include "simplify/StrictFloatScope.h"

namespace Halide {
namespace Internal {

// The change stamps a compiled pipeline depends on: the global one, then
// each Func it reaches with its own.
using ChangeStamps = std::vector<std::pair<const FunctionContents *, uint64_t>>;

// add_custom_lowering_pass(): the passes, deleted with the pipeline.
struct CustomPasses {
    std::vector<CustomLoweringPass> passes;
    CustomPasses() = default;
    CustomPasses(const CustomPasses &) = delete;
    CustomPasses &operator=(const CustomPasses &) = delete;
    void clear() {
        for (CustomLoweringPass &p : passes) {
            if (p.deleter) {
                p.deleter();
            }
        }
        passes.clear();
    }
    ~CustomPasses() { clear(); }
};

struct PipelineContents {
    std::vector<Func> outputs;
    uint64_t checked_at = ~uint64_t(0); // latest_change_stamp() when `stamps` were last found current
    ChangeStamps stamps;
    LoweredPipeline lowered;
    std::shared_ptr<JITModule> module;
    CustomPasses custom_passes;
    JITHandlers handlers;
    std::vector<std::pair<Expr, std::vector<Expr>>> requirements; // add_requirement()
    bool trace_pipeline = false;                                  // trace_pipeline()
    Target jit_target;                                            // of `module`
    std::map<std::string, JITExtern> jit_externs;                 // set_jit_externs()
    std::vector<std::shared_ptr<JITModule>> extern_modules;       // of the jit_externs that are Pipelines
    Target call_target; // the target the realize() under way gave (Target(): the environment's)
};

namespace {

// The handlers this JIT does not honour: an error rather than silence.
void check_supported_handlers(const JITHandlers &h) {
    auto refuse = [](bool set, const char *name) {
        user_assert(!set) << "JITHandlers::" << name << " is not supported by this JIT";
    };
    refuse(h.custom_get_symbol || h.custom_load_library || h.custom_get_library_symbol,
           "custom_get_symbol/custom_load_library/custom_get_library_symbol");
    refuse(h.custom_cuda_acquire_context || h.custom_cuda_release_context || h.custom_cuda_get_stream, "custom_cuda_*");
}

std::atomic<uint64_t> jit_compilations{0};

ChangeStamps change_stamps_of(const std::vector<FunctionPtr> &outputs) {
    Environment env;
    realization_order(outputs, env);
    ChangeStamps stamps{{nullptr, everything_changed_stamp()}};
    for (const auto &[name, f] : env) {
        stamps.emplace_back(f->original ? f->original : f.get(), f->stamp);
    }
    return stamps;
}

} // namespace

// The target of a realize() or infer_input_bounds() call, for the compile
// its run does, while the call lasts.
class CallTarget {
public:
    CallTarget(PipelineContents &c, const Target &t) : c_(c), saved_(c.call_target) { c.call_target = t; }
    ~CallTarget() { c_.call_target = saved_; }
    CallTarget(const CallTarget &) = delete;
    CallTarget &operator=(const CallTarget &) = delete;

private:
    PipelineContents &c_;
    Target saved_;
};

LoweredFunc with_jit_user_context(LoweredFunc f) {
    f.args.insert(f.args.begin(), LoweredArgument{"__user_context", LoweredArgument::Scalar, Handle(), 0});
    return f;
}

int run_jit(const JITModule &module, const std::string &name, void **args, JITUserContext *context,
            const JITHandlers *handlers) {
    install_jit_runtime_hooks();
    JITUserContext own;
    JITCallContext call;
    call.user = context ? context : &own;
    args[0] = static_cast<void *>(&call.user);
    // As upstream: the handlers the call's context leaves unset are the
    // pipeline's, then the process defaults.
    JITSharedRuntime::populate_jit_handlers(call.user, handlers ? *handlers : JITHandlers{});
    check_supported_handlers(call.user->handlers);
    void *outer = hlrt_set_call_context(&call);
    int result = module.argv_function()(args);
    // A profiled pipeline's report follows each call, as upstream's JIT.
    if (halide_profiler_get_state()->pipelines) {
        hlrt_profiler_report(call.user, jit_print);
        halide_profiler_reset();
    }
    hlrt_set_call_context(outer);
    if (result != 0 && !call.user->handlers.custom_error) {
        // Upstream's text: "Error: " and the runtime's messages, one per line.
        std::string text = call.errors.empty() ? "pipeline '" + name + "' failed with code " + std::to_string(result) +
                                                     " and no message"
                                               : call.errors;
        throw RuntimeError(user_error_text(text), result);
    }
    return result;
}

uint64_t jit_compilation_count() {
    return jit_compilations.load();
}

void check_jit_target(const Target &target, const char *what) {
    if (target.has_unknowns()) { // Target(): the JIT target from the environment
        return;
    }
    Target host = get_host_target();
    user_assert(target.os == host.os && target.arch == host.arch && target.bits == host.bits)
        << what << ": the JIT compiles for this machine (" << host.to_string() << "), not for target "
        << target.to_string();
}

} // namespace Internal

using namespace Internal;

Pipeline::Pipeline(const Func &output) : Pipeline(std::vector<Func>{output}) {}

Pipeline::Pipeline(const std::vector<Func> &outputs) : contents_(std::make_shared<PipelineContents>()) {
    user_assert(!outputs.empty()) << "A Pipeline needs at least one output Func";
    contents_->outputs = outputs;
}

void Pipeline::add_custom_lowering_pass(IRMutator *pass, std::function<void()> deleter) {
    user_assert(contents_) << "Can't add a custom lowering pass to an empty Pipeline";
    user_assert(pass) << "add_custom_lowering_pass: the pass is null";
    contents_->custom_passes.passes.push_back({pass, std::move(deleter)});
    contents_->module.reset(); // the next compile runs it
}

void Pipeline::clear_custom_lowering_passes() {
    if (contents_) {
        contents_->custom_passes.clear();
        contents_->module.reset();
    }
}

const std::vector<CustomLoweringPass> &Pipeline::custom_lowering_passes() {
    static const std::vector<CustomLoweringPass> none;
    return contents_ ? contents_->custom_passes.passes : none;
}

LowerOptions Internal::lower_options_with_passes(Pipeline &p) {
    LowerOptions options;
    for (const CustomLoweringPass &c : p.custom_lowering_passes()) {
        options.custom_passes.push_back(c.pass);
    }
    if (p.contents_) {
        options.requirements = p.contents_->requirements;
        options.trace_pipeline = p.contents_->trace_pipeline;
    }
    return options;
}

void Pipeline::add_requirement(const Expr &condition, const std::vector<Expr> &error_args) {
    user_assert(contents_) << "Can't add a requirement to an empty Pipeline";
    user_assert(condition.defined() && condition.type().is_bool() && condition.type().is_scalar())
        << "add_requirement: the condition must be a boolean Expr";
    for (const Expr &e : error_args) {
        user_assert(e.defined()) << "add_requirement: an argument of the message is undefined";
    }
    contents_->requirements.emplace_back(condition, error_args);
    contents_->module.reset(); // the next compile checks it
}

std::string Pipeline::loop_nest() {
    user_assert(contents_) << "Can't print the loop nest of an empty Pipeline";
    std::vector<FunctionPtr> outputs;
    for (const Func &f : contents_->outputs) {
        user_assert(f.defined()) << "Can't lower Func '" << f.name() << "' because it has not been defined";
        outputs.push_back(f.function());
    }
    LowerOptions options = lower_options_with_passes(*this);
    std::string nest;
    options.loop_nest = &nest;
    lower(outputs, contents_->outputs[0].name(), options);
    return nest;
}

void Pipeline::print_loop_nest() {
    std::cerr << loop_nest();
}

void Pipeline::invalidate_cache() {
    if (contents_) {
        contents_->module.reset();
    }
}

JITHandlers &Pipeline::jit_handlers() {
    user_assert(contents_) << "Can't set the JIT handlers of an empty Pipeline";
    return contents_->handlers;
}

std::map<std::string, void *> Pipeline::jit_extern_addresses(const Target &target,
                                                             std::vector<std::shared_ptr<JITModule>> &keep_alive) {
    std::map<std::string, void *> externs;
    for (const auto &[name, e] : contents_->jit_externs) {
        if (e.pipeline().defined()) {
            // As upstream: the pipeline's own entry point, compiled for the JIT
            // (__user_context, its inputs, its outputs), kept alive with ours.
            Pipeline inner = e.pipeline();
            user_assert(inner.contents_ != contents_) << "set_jit_externs: '" << name << "' is the pipeline itself";
            inner.compile_jit(target);
            keep_alive.push_back(inner.contents_->module);
            externs[name] = inner.contents_->module->function_address(inner.contents_->lowered.func.name);
        } else {
            externs[name] = e.extern_c_function().address();
        }
    }
    return externs;
}

void Pipeline::set_jit_externs(const std::map<std::string, JITExtern> &externs) {
    user_assert(contents_) << "Can't set the JIT externs of an empty Pipeline";
    for (const auto &[name, e] : externs) {
        user_assert(e.pipeline().defined() || e.extern_c_function().address())
            << "set_jit_externs: '" << name << "' is neither a C function nor a defined Pipeline or Func";
    }
    contents_->jit_externs = externs;
    contents_->module.reset(); // compiled again with these bindings
}

const std::map<std::string, JITExtern> &Pipeline::get_jit_externs() {
    user_assert(contents_) << "Can't get the JIT externs of an empty Pipeline";
    return contents_->jit_externs;
}

JITExtern::JITExtern(const Pipeline &pipeline) : pipeline_(std::make_shared<Pipeline>(pipeline)) {}
JITExtern::JITExtern(const Func &func) : pipeline_(std::make_shared<Pipeline>(func)) {}
JITExtern::JITExtern(const ExternCFunction &extern_c_function)
    : pipeline_(std::make_shared<Pipeline>()), extern_c_function_(extern_c_function) {}

Func Pipeline::get_func(size_t index) {
    user_assert(contents_) << "Can't get a Func of an empty Pipeline";
    std::vector<FunctionPtr> outputs;
    for (const Func &f : contents_->outputs) {
        user_assert(f.defined()) << "Func '" << f.name() << "' has not been defined";
        outputs.push_back(f.function());
    }
    Environment env;
    std::vector<std::string> order = realization_order(outputs, env);
    user_assert(index < order.size()) << "Index value passed is " << index << "; however, there are only "
                                      << order.size() << " functions in the pipeline.";
    const FunctionPtr &f = env.at(order[index]);
    FunctionPtr user = find_function(order[index]);
    return Func(user ? user : f);
}

void Pipeline::trace_pipeline() {
    user_assert(contents_) << "Can't trace an empty Pipeline";
    contents_->trace_pipeline = true;
    contents_->module.reset(); // the next compile adds the events
}

Target Pipeline::get_compiled_jit_target() const {
    return contents_ && contents_->module ? contents_->jit_target : Target();
}

std::vector<Func> Pipeline::outputs() const {
    return contents_ ? contents_->outputs : std::vector<Func>{};
}

void Pipeline::compile_jit(const Target &target) {
    user_assert(contents_) << "Can't compile an empty Pipeline";
    check_jit_target(target, "compile_jit");
    PipelineContents &c = *contents_;
    std::vector<FunctionPtr> outputs;
    for (const Func &f : c.outputs) {
        user_assert(f.defined()) << "Can't compile Func '" << f.name() << "' because it has not been defined";
        outputs.push_back(f.function());
    }
    // Nothing changed anywhere: current. Otherwise current unless a Func
    // this pipeline reaches changed (walking them costs far less than a compile).
    const uint64_t now = latest_change_stamp();
    const Target resolved = target.has_unknowns() ? get_jit_target_from_environment() : target;
    // The features that change what is lowered for the JIT.
    auto lowering_features = [](const Target &t) {
        return std::make_tuple(t.has_feature(Target::StrictFloat), t.has_feature(Target::Profile),
                               t.has_feature(Target::ProfileByTimer));
    };
    const bool same_strictness = lowering_features(resolved) == lowering_features(c.jit_target);
    if (c.module && c.checked_at == now && same_strictness) {
        return;
    }
    ChangeStamps stamps = change_stamps_of(outputs);
    if (!c.module || stamps != c.stamps || !same_strictness) {
        {
            // Of the target's features the JIT honours strict_float in lowering
            // (float operations kept as written); code generation is the host's.
            StrictFloatScope strict_float(resolved.has_feature(Target::StrictFloat));
            LowerOptions options = lower_options_with_passes(*this);
            options.target = resolved; // (profile: the profiler's calls)
            c.lowered = lower(outputs, c.outputs[0].name(), options);
        }
        c.extern_modules.clear();
        std::map<std::string, void *> externs = jit_extern_addresses(target, c.extern_modules);
        c.module = std::make_shared<JITModule>(JITModule::compile(with_jit_user_context(c.lowered.func), externs));
        c.stamps = std::move(stamps);
        c.jit_target = resolved;
        jit_compilations++;
    }
    c.checked_at = now;
}

void Pipeline::realize(const Realization &dst, const Target &target) {
    realize(nullptr, dst, target);
}

void Pipeline::realize(JITUserContext *context, const Realization &dst, const Target &target) {
    user_assert(contents_) << "Can't realize an empty Pipeline";
    check_jit_target(target, "realize");
    CallTarget call(*contents_, target);
    std::vector<halide_buffer_t *> outputs;
    for (size_t i = 0; i < dst.size(); i++) {
        user_assert(dst[i].defined()) << "Output buffer " << i << " given to realize() is undefined";
        outputs.push_back(dst[i].raw_buffer());
    }
    run(outputs, context);
}

namespace {
void check_output_count(const std::vector<Func> &funcs, size_t given, const char *what) {
    size_t buffers = 0;
    for (const Func &f : funcs) {
        buffers += (size_t)f.outputs();
    }
    user_assert(given == buffers) << "Realization requires " << given << " output(s) but pipeline produces " << buffers
                                  << " result(s). (Pipeline '" << funcs[0].name()
                                  << "': one buffer per output Func and Tuple value; " << what << " was given " << given
                                  << ")";
}
} // namespace

void Pipeline::run(const std::vector<halide_buffer_t *> &outputs, JITUserContext *context, bool query) {
    compile_jit(contents_->call_target);
    PipelineContents &c = *contents_;
    check_output_count(c.outputs, outputs.size(), "realize()");
    const LoweredPipeline &lp = c.lowered;
    std::vector<void *> args = {nullptr}; // the user context: run_jit's
    for (const ArgumentSource &s : lp.sources) {
        if (s.param) {
            check_param_has_value(*s.param);
            args.push_back(&s.param->value);
        } else if (s.buffer) {
            user_assert(s.buffer->bound) << "Buffer argument " << s.buffer->name << " is nullptr: ImageParam '"
                                         << s.buffer->name << "' has no buffer; call set() on it before realizing '"
                                         << c.outputs[0].name() << "'";
            args.push_back(s.buffer->bound);
        } else {
            args.push_back(outputs[(size_t)s.output_index]);
        }
    }
    if (query) {
        run_jit(*c.module, c.outputs[0].name(), args.data());
    } else {
        run_jit(*c.module, c.outputs[0].name(), args.data(), context, &c.handlers);
    }
}

Realization Pipeline::realize(std::vector<int32_t> sizes, const Target &target) {
    return realize(nullptr, std::move(sizes), target);
}

Realization Pipeline::realize(JITUserContext *context, std::vector<int32_t> sizes, const Target &target) {
    user_assert(contents_) << "Can't realize an empty Pipeline";
    check_jit_target(target, "realize");
    CallTarget call(*contents_, target);
    std::vector<Type> types;
    std::vector<std::string> names;
    for (const Func &f : contents_->outputs) {
        user_assert(f.defined()) << "Can't realize undefined Func. ('" << f.name() << "' has no definition)";
        user_assert((int)sizes.size() == f.dimensions())
            << "Func " << f.name() << " is defined with " << f.dimensions()
            << " dimensions, but realize() is requesting a realization with " << sizes.size() << " dimensions.";
        for (const Type &t : f.output_types()) {
            types.push_back(t);
            names.push_back(f.name());
        }
    }
    // As upstream: each output is allocated over the region the pipeline
    // writes (a bounds query; an output split by a factor with its last
    // iteration shifted inwards writes at least one factor), and the
    // requested region is returned as a crop of it.
    std::vector<std::vector<halide_dimension_t>> dims(types.size());
    std::vector<halide_buffer_t> queries(types.size());
    std::vector<halide_buffer_t *> query_ptrs;
    for (size_t i = 0; i < types.size(); i++) {
        for (int32_t extent : sizes) {
            dims[i].push_back({0, extent, 0, 0});
        }
        queries[i].type = types[i];
        queries[i].dimensions = (int32_t)sizes.size();
        queries[i].dim = dims[i].data();
        query_ptrs.push_back(&queries[i]);
    }
    try {
        run(query_ptrs, nullptr, true);
    } catch (const RuntimeError &) {
        // No answer (a target without bounds queries): the requested region;
        // the run below reports whatever is wrong.
        for (size_t i = 0; i < types.size(); i++) {
            for (size_t d = 0; d < sizes.size(); d++) {
                dims[i][d].min = 0;
                dims[i][d].extent = sizes[d];
            }
        }
    }
    std::vector<Buffer<>> wholes, results;
    for (size_t i = 0; i < types.size(); i++) {
        std::vector<int> extents, mins;
        for (size_t d = 0; d < sizes.size(); d++) {
            const halide_dimension_t &q = dims[i][d];
            // A region not holding the one requested (the output's bounds
            // constrained otherwise): the requested region, so that the run
            // reports the constraint it breaks.
            const bool holds = q.min <= 0 && (int64_t)q.min + q.extent >= sizes[d];
            mins.push_back(holds ? q.min : 0);
            extents.push_back(holds ? q.extent : sizes[d]);
        }
        Runtime::Buffer<> whole(types[i], extents);
        whole.set_min(mins);
        Runtime::Buffer<> crop = whole;
        for (size_t d = 0; d < sizes.size(); d++) {
            crop.crop((int)d, 0, sizes[d]);
        }
        wholes.emplace_back(whole, names[i]);
        results.emplace_back(crop, names[i]);
    }
    realize(context, Realization(wholes), target);
    return Realization(results);
}

// A bounds query (ABI.md 9) with every unbound ImageParam as a query
// buffer; each then gets a zero-filled buffer of the answered shape.
void Pipeline::infer_input_bounds(const std::vector<halide_buffer_t *> &outputs, JITUserContext *context) {
    compile_jit();
    PipelineContents &c = *contents_;
    check_output_count(c.outputs, outputs.size(), "infer_input_bounds()");
    struct Query {
        InputBufferPtr input;
        halide_buffer_t buffer{};
        std::vector<halide_dimension_t> dims;
    };
    std::vector<Query> queries;
    queries.reserve(c.lowered.sources.size()); // args point into it
    std::vector<void *> args = {nullptr};      // the user context: run_jit's
    for (const ArgumentSource &s : c.lowered.sources) {
        if (s.param) {
            check_param_has_value(*s.param);
            args.push_back(&s.param->value);
        } else if (s.buffer && s.buffer->bound) {
            args.push_back(s.buffer->bound);
        } else if (s.buffer) {
            Query &q = queries.emplace_back();
            q.input = s.buffer;
            q.dims.resize((size_t)s.buffer->dimensions);
            q.buffer.type = s.buffer->type;
            q.buffer.dimensions = s.buffer->dimensions;
            q.buffer.dim = q.dims.data();
            args.push_back(&q.buffer);
        } else {
            args.push_back(outputs[(size_t)s.output_index]);
        }
    }
    bool any_query = !queries.empty();
    for (halide_buffer_t *b : outputs) {
        any_query = any_query || b->host == nullptr;
    }
    if (!any_query) {
        return;
    }
    // A constraint can name another buffer's answer (an input's min from an
    // output's extent, say), so the query is asked again until no answer
    // changes, as upstream (at most 16 times).
    auto shapes = [&] {
        std::vector<int32_t> all;
        for (halide_buffer_t *b : outputs) {
            for (int d = 0; d < b->dimensions; d++) {
                all.insert(all.end(), {b->dim[d].min, b->dim[d].extent, b->dim[d].stride});
            }
        }
        for (const Query &q : queries) {
            for (const halide_dimension_t &d : q.dims) {
                all.insert(all.end(), {d.min, d.extent, d.stride});
            }
        }
        return all;
    };
    constexpr int max_queries = 16;
    int asked = 0;
    for (std::vector<int32_t> before = shapes();; asked++) {
        user_assert(asked < max_queries) << "Pipeline '" << c.outputs[0].name()
                                         << "': the bounds query's answers did not settle after " << max_queries
                                         << " queries; the buffer constraints may contradict each other";
        run_jit(*c.module, c.outputs[0].name(), args.data(), context, &c.handlers);
        std::vector<int32_t> after = shapes();
        if (after == before) {
            break;
        }
        before = std::move(after);
    }
    for (Query &q : queries) {
        std::vector<int> extents, mins;
        for (const halide_dimension_t &d : q.dims) {
            // The query itself refuses regions wider than int32; a
            // constraint can still answer a negative extent.
            user_assert(d.extent >= 0) << "infer_input_bounds(): the region required of input '" << q.input->user_name
                                       << "' in dimension " << mins.size() << " (min " << d.min << ", extent "
                                       << d.extent << ") has a negative extent: its bounds do not fit in 32 bits";
            mins.push_back(d.min);
            extents.push_back(d.extent);
        }
        Runtime::Buffer<> rb(q.buffer.type, extents);
        rb.set_min(mins);
        std::memset(rb.data(), 0, rb.size_in_bytes());
        bind_input_buffer(*q.input, Buffer<>(rb), nullptr);
    }
}

void Pipeline::infer_input_bounds(const std::vector<int32_t> &sizes, const Target &target) {
    infer_input_bounds(nullptr, sizes, target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, const std::vector<int32_t> &sizes, const Target &target) {
    user_assert(contents_) << "Can't infer the input bounds of an empty Pipeline";
    check_jit_target(target, "infer_input_bounds");
    // Outputs as queries too: shapes given, no memory.
    std::vector<std::vector<halide_dimension_t>> dims;
    std::vector<halide_buffer_t> buffers;
    for (const Func &f : contents_->outputs) {
        user_assert(f.defined()) << "Can't infer input bounds for Func '" << f.name() << "': it is not defined";
        user_assert((int)sizes.size() == f.dimensions())
            << "Func '" << f.name() << "' has " << f.dimensions() << " dimensions but infer_input_bounds() was given "
            << sizes.size() << " sizes";
        for (const Type &t : f.output_types()) {
            std::vector<halide_dimension_t> d;
            int32_t stride = 1;
            for (int32_t extent : sizes) {
                d.push_back({0, extent, stride, 0});
                stride *= extent;
            }
            dims.push_back(std::move(d));
            halide_buffer_t b{};
            b.type = t;
            b.dimensions = (int32_t)sizes.size();
            buffers.push_back(b);
        }
    }
    std::vector<halide_buffer_t *> outputs;
    for (size_t i = 0; i < buffers.size(); i++) {
        buffers[i].dim = dims[i].data();
        outputs.push_back(&buffers[i]);
    }
    infer_input_bounds(outputs, context);
}

void Pipeline::infer_input_bounds(const Realization &dst, const Target &target) {
    infer_input_bounds(nullptr, dst, target);
}

void Pipeline::infer_input_bounds(JITUserContext *context, const Realization &dst, const Target &target) {
    user_assert(contents_) << "Can't infer the input bounds of an empty Pipeline";
    check_jit_target(target, "infer_input_bounds");
    std::vector<halide_buffer_t *> outputs;
    for (size_t i = 0; i < dst.size(); i++) {
        user_assert(dst[i].defined()) << "Output buffer " << i << " given to infer_input_bounds() is undefined";
        outputs.push_back(dst[i].raw_buffer());
    }
    infer_input_bounds(outputs, context);
}

std::vector<Argument> Pipeline::infer_arguments() {
    compile_jit();
    std::vector<Argument> buffers, scalars;
    const LoweredPipeline &lp = contents_->lowered;
    for (size_t i = 0; i < lp.func.args.size(); i++) {
        const LoweredArgument &a = lp.func.args[i];
        ArgumentEstimates e;
        if (a.kind == LoweredArgument::InputBuffer) {
            e.buffer_estimates = a.buffer_estimates;
            buffers.emplace_back(a.name, Argument::InputBuffer, a.type, a.dimensions, e);
        } else if (a.kind == LoweredArgument::Scalar) {
            if (const ParamPtr &p = lp.sources[i].param) {
                // As upstream: the default reported is the current value.
                e = param_argument(*p).argument_estimates;
                e.scalar_def = param_value(*p);
            }
            scalars.emplace_back(a.name, Argument::InputScalar, a.type, 0, e);
        }
    }
    auto by_name = [](const Argument &a, const Argument &b) { return a.name < b.name; };
    std::sort(buffers.begin(), buffers.end(), by_name);
    std::sort(scalars.begin(), scalars.end(), by_name);
    buffers.insert(buffers.end(), scalars.begin(), scalars.end());
    return buffers;
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
