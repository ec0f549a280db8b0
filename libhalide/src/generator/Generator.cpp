// See Generator.h: registration of a generator's members, building its
// pipeline, and the registry of generators by name.
#include "Halide/Generator.h"

#include <algorithm>
#include <mutex>
#include <optional>

#include "aot/Compile.h"

namespace Halide {
namespace Internal {

namespace {

thread_local GeneratorBase *constructing = nullptr;
thread_local int generating = 0; // generate()s running on this thread

struct Registry {
    std::mutex mutex;
    std::map<std::string, GeneratorFactory> factories;
    std::map<std::string, std::pair<std::string, std::map<std::string, std::string>>> aliases;
};

Registry &registry() {
    static Registry *r = new Registry; // used by static initializers: never destroyed
    return *r;
}

// " (Generator NAME)" for a phase error, or nothing for a generator not registered.
std::string of_generator(const std::string &registered_name) {
    return registered_name.empty() ? std::string() : " (Generator " + registered_name + ")";
}

const std::map<std::string, Type> &type_names() {
    static const std::map<std::string, Type> names = {
        {"bool", Bool()},     {"int8", Int(8)},       {"int16", Int(16)},     {"int32", Int(32)},
        {"int64", Int(64)},   {"uint8", UInt(8)},     {"uint16", UInt(16)},   {"uint32", UInt(32)},
        {"uint64", UInt(64)}, {"float16", Float(16)}, {"float32", Float(32)}, {"float64", Float(64)},
    };
    return names;
}

} // namespace

Type parse_type_name(const std::string &name) {
    auto it = type_names().find(name);
    if (it == type_names().end()) {
        std::string known;
        for (const auto &kv : type_names()) {
            known += (known.empty() ? "" : ", ") + kv.first;
        }
        user_error << "'" << name << "' is not a type name; use one of: " << known;
    }
    return it->second;
}

std::string type_name_of(const Type &t) {
    for (const auto &kv : type_names()) {
        if (kv.second == t) {
            return kv.first;
        }
    }
    return type_to_string(t);
}

GeneratorParamBase::GeneratorParamBase(const std::string &name)
    : name_(name), generator_(generator_under_construction()) {
    if (generator_) {
        generator_->add_param(this);
    }
}

void GeneratorParamBase::check_writable() const {
    user_assert(!generator_ || !generator_->generate_called())
        << "The GeneratorParam \"" << name_ << "\" cannot be written after generate() is called.";
}

Parameter StubInput::parameter() const {
    internal_assert(kind_ == ArgInfoKind::Buffer) << "StubInput::parameter() of a value that is not a buffer";
    return parameter_;
}

Func StubInput::func() const {
    internal_assert(kind_ == ArgInfoKind::Function) << "StubInput::func() of a value that is not a Func";
    return func_;
}

Expr StubInput::expr() const {
    internal_assert(kind_ == ArgInfoKind::Scalar) << "StubInput::expr() of a value that is not an Expr";
    return expr_;
}

GeneratorBase *generator_under_construction() {
    return constructing;
}

bool inside_generate() {
    return generating > 0;
}

GeneratorConstructionScope::GeneratorConstructionScope(GeneratorBase *g) : previous_(constructing) {
    constructing = g;
}

GeneratorConstructionScope::~GeneratorConstructionScope() {
    constructing = previous_;
}

GeneratorBase::GeneratorBase() : target_(get_host_target()) {
    constructing = this;
}

void GeneratorBase::init_from_context(const GeneratorContext &context) {
    target_ = context.target();
    autoscheduler_params_ = context.autoscheduler_params();
}

GeneratorBase::~GeneratorBase() {
    if (constructing == this) {
        constructing = nullptr;
    }
}

void GeneratorBase::add_param(GeneratorParamBase *p) {
    user_assert(!find_param(p->name())) << "Generator has two GeneratorParams named '" << p->name() << "'";
    params_.push_back(p);
}

void GeneratorBase::add_io(GeneratorIOBase *io, bool is_input) {
    for (const auto *list : {&inputs_, &outputs_}) {
        for (const GeneratorIOBase *other : *list) {
            user_assert(other->name() != io->name())
                << "Generator has two inputs or outputs named '" << io->name() << "'";
        }
    }
    (is_input ? inputs_ : outputs_).push_back(io);
}

void GeneratorBase::add_owned_param(std::unique_ptr<GeneratorParamBase> p) {
    // Its constructor registered it as a member GeneratorParam; it is ours instead.
    params_.erase(std::remove(params_.begin(), params_.end(), p.get()), params_.end());
    owned_params_.push_back(std::move(p));
}

GeneratorParamBase *GeneratorBase::find_param(const std::string &name) const {
    for (GeneratorParamBase *p : params_) {
        if (p->name() == name) {
            return p;
        }
    }
    for (const auto &p : owned_params_) {
        if (p->name() == name) {
            return p.get();
        }
    }
    return nullptr;
}

void GeneratorBase::set_param(const std::string &key, const std::string &value) {
    if (GeneratorParamBase *p = find_param(key)) {
        p->set_from_string(value); // an error once generate() was called
        return;
    }
    user_assert(!generate_called()) << "Generator '" << registered_name_ << "': '" << key
                                    << "' can't be set after generate() was called";
    if (key == "target") {
        set_target(Target(value));
        return;
    }
    if (key == "autoscheduler") {
        autoscheduler_params_.name = value;
        return;
    }
    const std::string prefix = "autoscheduler.";
    if (key.compare(0, prefix.size(), prefix) == 0 && key.size() > prefix.size()) {
        autoscheduler_params_.extra[key.substr(prefix.size())] = value;
        return;
    }
    for (GeneratorIOBase *in : inputs_) {
        if (in->name() == key) {
            in->set_default_from_string(value);
            return;
        }
    }
    std::string known;
    for (const GeneratorParamBase *p : params_) {
        known += (known.empty() ? "" : ", ") + p->name();
    }
    for (const auto &p : owned_params_) {
        if (p->settable()) {
            known += (known.empty() ? "" : ", ") + p->name();
        }
    }
    user_error << "Generator '" << registered_name_ << "' has no GeneratorParam or Input named '" << key << "'"
               << (known.empty() ? std::string(" (it has no GeneratorParams)") : "; its GeneratorParams are: " + known);
}

void GeneratorBase::set_params(const std::map<std::string, std::string> &params) {
    for (const auto &kv : params) {
        set_param(kv.first, kv.second);
    }
}

void GeneratorBase::set_generatorparam_value(const std::string &name, const std::string &value) {
    user_assert(name != "target") << "The GeneratorParam '" << name
                                  << "' cannot be specified via string here; use GeneratorContext instead.";
    set_param(name, value);
}

void GeneratorBase::set_generatorparam_value(const std::string &name, const LoopLevel &loop_level) {
    GeneratorParamBase *p = find_param(name);
    user_assert(p) << "Generator '" << registered_name_ << "' has no GeneratorParam named '" << name << "'";
    user_assert(p->is_loop_level()) << "GeneratorParam " << name << " is not a LoopLevel and cannot be set this way.";
    p->set_loop_level(loop_level); // allowed after generate(): LoopLevels are shared
}

void GeneratorBase::set_generatorparam_values(const GeneratorParamsMap &params) {
    for (const auto &kv : params) {
        set_generatorparam_value(kv.first, kv.second);
    }
}

void GeneratorBase::check_configure_phase(const std::string &what) const {
    user_assert(phase_ == Phase::Configuring)
        << "You may not do this operation at this phase: " << what << " may only be called from configure()"
        << of_generator(registered_name_) << ".";
}

void GeneratorBase::begin_add(const std::string &name, const char *kind, const char *what) const {
    check_configure_phase(what);
    for (const auto *list : {&inputs_, &outputs_}) {
        for (const GeneratorIOBase *io : *list) {
            user_assert(io->name() != name) << "Cannot add " << kind << " with name " << name
                                            << ". It is already taken by another input or output parameter.";
        }
    }
}

void GeneratorBase::configure() {
    if (phase_ != Phase::Created) {
        return;
    }
    phase_ = Phase::Configuring;
    GeneratorConstructionScope scope(this);
    try {
        call_configure();
    } catch (...) {
        phase_ = Phase::Created;
        throw;
    }
    phase_ = Phase::Configured;
}

void GeneratorBase::autoschedule(const Pipeline &p) const {
    if (using_autoscheduler()) {
        p.apply_autoscheduler(target_, autoscheduler_params_);
    }
}

Callable GeneratorBase::compile_to_callable() {
    Pipeline p = build_pipeline();
    return p.compile_to_callable(arguments(), target_);
}

Pipeline GeneratorBase::build_pipeline() {
    if (built_) {
        return pipeline_;
    }
    configure();
    for (GeneratorIOBase *io : inputs_) {
        io->init();
    }
    for (GeneratorIOBase *io : outputs_) {
        io->init();
    }
    user_assert(!outputs_.empty()) << "Generator '" << registered_name_ << "' declares no Output";
    {
        // A generator a stub builds here is nested in this one.
        generating++;
        struct Leave {
            ~Leave() { generating--; }
        } leave;
        phase_ = Phase::Generating;
        call_generate();
        phase_ = Phase::Scheduling;
        call_schedule();
        phase_ = Phase::Scheduled;
    }
    std::vector<Func> funcs;
    std::map<std::string, std::string> owner; // Func name -> the Output element it is
    for (GeneratorIOBase *io : outputs_) {
        std::vector<Func> fs = io->output_funcs(); // checked against the declaration
        for (size_t i = 0; i < fs.size(); i++) {
            const std::string &fname = fs[i].name();
            std::string element = io->array_name(i);
            auto [it, fresh] = owner.emplace(fname, element);
            user_assert(fresh) << "Func '" << fname << "' is assigned to two Outputs, '" << it->second << "' and '"
                               << element << "'";
            if (fname != element) {
                output_names_[fname] = element;
            }
            funcs.push_back(fs[i]);
        }
    }
    pipeline_ = Pipeline(funcs);
    for (const auto &[condition, error_args] : requirements_) {
        pipeline_.add_requirement(condition, error_args);
    }
    built_ = true;
    return pipeline_;
}

void GeneratorBase::add_requirement(const Expr &condition, const std::vector<Expr> &error_args) {
    user_assert(!built_) << "Generator " << registered_name_
                         << ": add_requirement() must be called before the pipeline is built (in generate()).";
    requirements_.emplace_back(condition, error_args);
}

GeneratorIOBase *GeneratorBase::find_input_to_bind(const std::string &name) {
    user_assert(!built_) << "Generator '" << registered_name_ << "': Input '" << name
                         << "' can't be bound after the pipeline was built";
    configure(); // Inputs added by configure() are bound too
    for (GeneratorIOBase *in : inputs_) {
        if (in->name() == name) {
            return in;
        }
    }
    std::string known;
    for (const GeneratorIOBase *in : inputs_) {
        known += (known.empty() ? "" : ", ") + in->name();
    }
    user_error << "Generator '" << registered_name_ << "' has no Input named '" << name << "'"
               << (known.empty() ? std::string() : "; its Inputs are: " + known);
    return nullptr;
}

void GeneratorBase::bind_input(const std::string &name, const std::vector<Parameter> &v) {
    find_input_to_bind(name)->bind(v);
}

void GeneratorBase::bind_input(const std::string &name, const std::vector<Func> &v) {
    find_input_to_bind(name)->bind(v);
}

void GeneratorBase::bind_input(const std::string &name, const std::vector<Expr> &v) {
    find_input_to_bind(name)->bind(v);
}

// ---------------------------------------------------------------- set_inputs, apply

void GeneratorBase::check_input_count(const char *what, size_t n) {
    user_assert(!generate_called()) << "You may not do this operation at this phase: " << what
                                    << " must come before generate() runs (apply() is called once)"
                                    << of_generator(registered_name_) << ".";
    configure(); // Inputs added by configure() are set too
    user_assert(n == inputs_.size()) << "Expected exactly " << inputs_.size() << " inputs but got " << n;
}

namespace {

GeneratorIOBase *checked_input(const std::vector<GeneratorIOBase *> &inputs, size_t i, bool is_vector) {
    GeneratorIOBase *in = inputs.at(i);
    if (is_vector) {
        user_assert(in->is_array()) << "Input " << in->name()
                                    << " is not an array, and must not be set with a vector type.";
    } else {
        user_assert(!in->is_array()) << "Input " << in->name() << " is an array, and must be set with a vector type.";
    }
    return in;
}

void check_input_kind(const GeneratorIOBase *in, ArgInfoKind kind) {
    user_assert(in->kind() == kind) << "Input " << in->name() << " cannot be set with the type specified.";
}

// Funcs or Exprs for Input i, which must be of `kind` and an array if
// `is_vector` (one value otherwise).
template <typename T>
std::vector<StubInput> checked_values(const std::vector<GeneratorIOBase *> &inputs, size_t i, ArgInfoKind kind,
                                      const std::vector<T> &values, bool is_vector) {
    check_input_kind(checked_input(inputs, i, is_vector), kind);
    return std::vector<StubInput>(values.begin(), values.end());
}

} // namespace

std::vector<StubInput> GeneratorBase::build_buffer_input(size_t i, const Buffer<> &arg) {
    GeneratorIOBase *in = checked_input(inputs_, i, false);
    user_assert(arg.defined()) << "Input " << in->name() << " was set to an undefined Buffer";
    if (in->kind() == ArgInfoKind::Function) {
        // As upstream: an Input<Func> reads the Buffer through a Func.
        std::vector<Var> vars(arg.dimensions());
        Func f(arg.name() + "_im");
        f(vars) = arg(std::vector<Expr>(vars.begin(), vars.end()));
        return {StubInput(f)};
    }
    check_input_kind(in, ArgInfoKind::Buffer);
    return {StubInput(StubInputBuffer<>(arg))};
}

std::vector<StubInput> GeneratorBase::build_input(size_t i, const InputBufferOne &arg) {
    if (arg.kind() == ArgInfoKind::Buffer && inputs_.at(i)->kind() == ArgInfoKind::Buffer) {
        checked_input(inputs_, i, false);
        return {StubInput(arg.param().parameter())};
    }
    return build_input(i, (Func)arg);
}

std::vector<StubInput> GeneratorBase::build_input(size_t i, const Func &arg) {
    return checked_values(inputs_, i, ArgInfoKind::Function, std::vector<Func>{arg}, false);
}

std::vector<StubInput> GeneratorBase::build_input(size_t i, const std::vector<Func> &arg) {
    return checked_values(inputs_, i, ArgInfoKind::Function, arg, true);
}

std::vector<StubInput> GeneratorBase::build_input(size_t i, const Expr &arg) {
    return checked_values(inputs_, i, ArgInfoKind::Scalar, std::vector<Expr>{arg}, false);
}

std::vector<StubInput> GeneratorBase::build_input(size_t i, const std::vector<Expr> &arg) {
    return checked_values(inputs_, i, ArgInfoKind::Scalar, arg, true);
}

void GeneratorBase::set_inputs_vector(const std::vector<std::vector<StubInput>> &inputs) {
    check_input_count("set_inputs()", inputs.size());
    for (size_t i = 0; i < inputs.size(); i++) {
        GeneratorIOBase *in = inputs_[i];
        std::vector<Parameter> buffers;
        std::vector<Func> funcs;
        std::vector<Expr> exprs;
        for (const StubInput &v : inputs[i]) {
            check_input_kind(in, v.kind());
            switch (v.kind()) {
            case ArgInfoKind::Buffer: buffers.push_back(v.parameter()); break;
            case ArgInfoKind::Function: funcs.push_back(v.func()); break;
            case ArgInfoKind::Scalar: exprs.push_back(v.expr()); break;
            }
        }
        switch (in->kind()) {
        case ArgInfoKind::Buffer: in->bind(buffers); break;
        case ArgInfoKind::Function: in->bind(funcs); break;
        case ArgInfoKind::Scalar: in->bind(exprs); break;
        }
    }
}

Pipeline GeneratorBase::get_pipeline() {
    if (built_) {
        return pipeline_;
    }
    user_assert(phase_ == Phase::Scheduling)
        << "You may not do this operation at this phase: get_pipeline() may be called from schedule() or once the "
           "pipeline is built (apply())"
        << of_generator(registered_name_) << ".";
    std::vector<Func> funcs;
    for (GeneratorIOBase *io : outputs_) {
        for (const Func &f : io->output_funcs()) {
            funcs.push_back(f);
        }
    }
    return Pipeline(funcs);
}

Pipeline GeneratorBase::realizable() {
    user_assert(built_) << "You may not do this operation at this phase: realize() runs the pipeline apply() built"
                        << of_generator(registered_name_) << ".";
    return pipeline_;
}

std::vector<Func> GeneratorBase::output_func(const std::string &name) {
    build_pipeline();
    for (GeneratorIOBase *out : outputs_) {
        if (out->name() == name) {
            return out->output_funcs();
        }
    }
    user_error << "Generator '" << registered_name_ << "' has no Output named '" << name << "'";
    return {};
}

Target StubOutputBufferBase::get_target() const {
    user_assert(generator_) << "A StubOutputBuffer made by no generator has no target";
    return generator_->get_target();
}

std::vector<Argument> GeneratorBase::arguments() {
    build_pipeline();
    std::vector<Argument> args;
    for (GeneratorIOBase *io : inputs_) {
        for (const Argument &a : io->arguments()) {
            args.push_back(a);
        }
    }
    return args;
}

const std::map<std::string, std::string> &GeneratorBase::output_names() {
    build_pipeline();
    return output_names_;
}

void GeneratorBase::compile_to(const std::map<OutputFileType, std::string> &files, const std::string &function_name,
                               const Target &target) {
    set_target(target);
    Pipeline p = build_pipeline();
    // As upstream: the schedule header holds the schedule the autoscheduler applied.
    std::optional<AutoSchedulerResults> results;
    if (using_autoscheduler()) {
        results = p.apply_autoscheduler(target_, autoscheduler_params_);
    }
    FunctionName fn = split_function_name(function_name, target);
    compile_lowered(files, lower_for_aot(p, arguments(), fn.name, target, output_names()), target, fn.namespaces,
                    results ? &*results : nullptr);
}

Module GeneratorBase::build_module(const std::string &function_name, LinkageType linkage_type) {
    Pipeline p = build_pipeline();
    std::optional<AutoSchedulerResults> results;
    if (using_autoscheduler()) {
        results = p.apply_autoscheduler(target_, autoscheduler_params_);
    }
    Module m = p.compile_to_module(arguments(), function_name, target_, linkage_type);
    if (results) {
        m.set_auto_scheduler_results(*results);
    }
    return m;
}

// ---------------------------------------------------------------- registry

void register_generator(const std::string &name, GeneratorFactory factory) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    user_assert(!r.factories.count(name) && !r.aliases.count(name))
        << "Two generators are registered as '" << name << "'";
    r.factories[name] = std::move(factory);
}

void register_generator_alias(const std::string &alias, const std::string &name,
                              const std::map<std::string, std::string> &params) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    user_assert(!r.factories.count(alias) && !r.aliases.count(alias))
        << "Two generators are registered as '" << alias << "'";
    r.aliases[alias] = {name, params};
}

std::vector<std::string> registered_generators() {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> names;
    for (const auto &kv : r.factories) {
        names.push_back(kv.first);
    }
    for (const auto &kv : r.aliases) {
        names.push_back(kv.first);
    }
    std::sort(names.begin(), names.end());
    return names;
}

AbstractGeneratorPtr create_generator(const std::string &name, const GeneratorContext &context) {
    Registry &r = registry();
    GeneratorFactory factory;
    std::map<std::string, std::string> params;
    {
        std::lock_guard<std::mutex> lock(r.mutex);
        std::string target = name;
        auto alias = r.aliases.find(name);
        if (alias != r.aliases.end()) {
            target = alias->second.first;
            params = alias->second.second;
        }
        auto it = r.factories.find(target);
        if (it != r.factories.end()) {
            factory = it->second;
        }
    }
    if (!factory) {
        std::string known;
        for (const std::string &n : registered_generators()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        user_error << "There is no generator named '" << name << "'"
                   << (known.empty() ? std::string("; none is registered") : "; registered: " + known);
    }
    AbstractGeneratorPtr g = factory(context);
    if (g->stub_name().empty() || g->stub_name() == g->registered_name()) {
        g->set_stub_name(name); // an alias's stub is named after it
    }
    g->set_registered_name(name);
    g->set_params(params);
    return g;
}

void GeneratorRegistry::unregister_factory(const std::string &name) {
    Registry &r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    user_assert(r.factories.erase(name) || r.aliases.erase(name))
        << "There is no Generator with the name '" << name << "' currently available.";
}

AbstractGeneratorPtr GeneratorRegistry::create(const std::string &name, const GeneratorContext &context) {
    {
        Registry &r = registry();
        std::lock_guard<std::mutex> lock(r.mutex);
        if (!r.factories.count(name) && !r.aliases.count(name)) {
            return nullptr;
        }
    }
    return create_generator(name, context);
}

} // namespace Internal

Callable create_callable_from_generator(const GeneratorContext &context, const std::string &name,
                                        const GeneratorParamsMap &generator_params) {
    Internal::AbstractGeneratorPtr g = Internal::GeneratorRegistry::create(name, context);
    user_assert(g) << "There is no Generator with the name '" << name << "' currently available.";
    g->set_generatorparam_values(generator_params);
    return g->compile_to_callable();
}

Callable create_callable_from_generator(const Target &target, const std::string &name,
                                        const GeneratorParamsMap &generator_params) {
    return create_callable_from_generator(GeneratorContext(target), name, generator_params);
}

} // namespace Halide
