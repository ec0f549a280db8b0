// See Generator.h: registration of a generator's members, building its
// pipeline, and the registry of generators by name.
#include "Halide/Generator.h"

#include <algorithm>
#include <mutex>

#include "frontend/Function.h"

namespace Halide {
namespace Internal {

namespace {

thread_local GeneratorBase *constructing = nullptr;

struct Registry {
    std::mutex mutex;
    std::map<std::string, GeneratorFactory> factories;
    std::map<std::string, std::pair<std::string, std::map<std::string, std::string>>> aliases;
};

Registry &registry() {
    static Registry *r = new Registry; // used by static initializers: never destroyed
    return *r;
}

const std::map<std::string, Type> &type_names() {
    static const std::map<std::string, Type> names = {
        {"bool", Bool()},     {"int8", Int(8)},       {"int16", Int(16)},     {"int32", Int(32)},
        {"int64", Int(64)},   {"uint8", UInt(8)},     {"uint16", UInt(16)},   {"uint32", UInt(32)},
        {"uint64", UInt(64)}, {"float16", Float(16)}, {"float32", Float(32)}, {"float64", Float(64)},
    };
    return names;
}

// A GeneratorParam the generator creates for an open type or dimension count.
template <typename T> class ImplicitParam : public GeneratorParamBase {
public:
    ImplicitParam(const std::string &name, std::function<void(const std::string &)> set)
        : GeneratorParamBase(name), set_(std::move(set)) {}
    void set_from_string(const std::string &v) override {
        set_(v);
        value_ = v;
    }
    std::string to_string() const override { return value_; }

private:
    std::function<void(const std::string &)> set_;
    std::string value_;
};

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

GeneratorParamBase::GeneratorParamBase(const std::string &name) : name_(name) {
    if (GeneratorBase *g = generator_under_construction()) {
        g->add_param(this);
    }
}

GeneratorIOBase::GeneratorIOBase(const std::string &name, bool is_input) : name_(name) {
    user_assert(!name.empty()) << "Generator inputs and outputs need a name";
    GeneratorBase *g = generator_under_construction();
    user_assert(g) << (is_input ? "Input" : "Output") << " '" << name
                   << "' must be a member of a Generator (declared in the class)";
    g->add_io(this, is_input);
}

void GeneratorIOBase::set_default_from_string(const std::string &) {
    user_error << "'" << name_ << "' is a buffer; only GeneratorParams and scalar Inputs take values";
}

GeneratorBase *generator_under_construction() {
    return constructing;
}

GeneratorBase::GeneratorBase() : target_(get_host_target()) {
    constructing = this;
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
    user_assert(!built_) << "Generator '" << registered_name_ << "': '" << key
                         << "' can't be set after the pipeline was built";
    if (key == "target") {
        set_target(Target(value));
        return;
    }
    if (GeneratorParamBase *p = find_param(key)) {
        p->set_from_string(value);
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
        known += (known.empty() ? "" : ", ") + p->name();
    }
    user_error << "Generator '" << registered_name_ << "' has no GeneratorParam or Input named '" << key << "'"
               << (known.empty() ? std::string(" (it has no GeneratorParams)") : "; its GeneratorParams are: " + known);
}

void GeneratorBase::set_params(const std::map<std::string, std::string> &params) {
    for (const auto &kv : params) {
        set_param(kv.first, kv.second);
    }
}

Pipeline GeneratorBase::build_pipeline() {
    if (built_) {
        return pipeline_;
    }
    for (GeneratorIOBase *io : inputs_) {
        io->init();
    }
    for (GeneratorIOBase *io : outputs_) {
        io->init();
    }
    user_assert(!outputs_.empty()) << "Generator '" << registered_name_ << "' declares no Output";
    call_generate();
    call_schedule();
    std::vector<Func> funcs;
    for (GeneratorIOBase *io : outputs_) {
        io->argument(); // checks the definition against the declaration
        funcs.push_back(io->output_func());
    }
    pipeline_ = Pipeline(funcs);
    built_ = true;
    return pipeline_;
}

std::vector<Argument> GeneratorBase::arguments() {
    build_pipeline();
    std::vector<Argument> args;
    for (GeneratorIOBase *io : inputs_) {
        args.push_back(io->argument());
    }
    return args;
}

void GeneratorBase::compile_to(const std::map<OutputFileType, std::string> &files, const std::string &function_name,
                               const Target &target) {
    set_target(target);
    Pipeline p = build_pipeline();
    p.compile_to(files, arguments(), function_name, target);
}

// ---------------------------------------------------------------- inputs and outputs

InputBufferBase::InputBufferBase(const std::string &name, Type type, int dims)
    : GeneratorIOBase(name, true), type_(type), dims_(dims) {
    GeneratorBase *g = generator_under_construction();
    if (type_.bits() == 0) {
        g->add_owned_param(std::make_unique<ImplicitParam<Type>>(
            name + ".type", [this](const std::string &v) { type_ = parse_type_name(v); }));
    }
    if (dims_ < 0) {
        g->add_owned_param(std::make_unique<ImplicitParam<int>>(
            name + ".dim", [this, name](const std::string &v) { dims_ = parse_scalar<int>(name + ".dim", v); }));
    }
}

void InputBufferBase::init() {
    user_assert(type_.bits() != 0) << "Input '" << name_ << "' has no type: declare it (Input<Buffer<uint8_t>>) or set "
                                 << name_ << ".type";
    user_assert(dims_ >= 0) << "Input '" << name_ << "' has no dimension count: declare it or set " << name_ << ".dim";
    if (!param_.defined()) {
        param_ = ImageParam(type_, dims_, name_);
    }
}

const ImageParam &InputBufferBase::param() const {
    user_assert(param_.defined()) << "Input '" << name_ << "' is used before generate() runs";
    return param_;
}

Argument InputBufferBase::argument() const {
    return param();
}

void set_default_of_param(const std::string &name, const Expr &value) {
    ParamPtr p = find_param(name);
    internal_assert(p) << "no Param named " << name;
    set_param_default(*p, value);
}

OutputBufferBase::OutputBufferBase(const std::string &name, Type type, int dims)
    : OutputBufferBase(name, type.bits() ? std::vector<Type>{type} : std::vector<Type>{}, dims) {}

OutputBufferBase::OutputBufferBase(const std::string &name, const std::vector<Type> &types, int dims)
    : GeneratorIOBase(name, false), Func(name), types_(types), dims_(dims) {
    user_assert(Func::name() == name) << "Output '" << name << "' has the name of another live Func";
}

void OutputBufferBase::init() {}

Argument OutputBufferBase::argument() const {
    const std::string &n = GeneratorIOBase::name();
    user_assert(defined()) << "Output '" << n << "' was not defined by generate()";
    std::vector<Type> got = output_types();
    auto names = [](const std::vector<Type> &ts) {
        std::string r;
        for (const Type &t : ts) {
            r += (r.empty() ? "" : ", ") + type_name_of(t);
        }
        return r;
    };
    user_assert(types_.empty() || got == types_) << "Output '" << n << "' is declared as (" << names(types_)
                                                 << ") but generate() defined it as (" << names(got) << ")";
    user_assert(dims_ < 0 || dimensions() == dims_) << "Output '" << n << "' is declared with " << dims_
                                                    << " dimensions but generate() defined it with " << dimensions();
    return Argument(n, Argument::OutputBuffer, got[0], dimensions());
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

std::unique_ptr<GeneratorBase> create_generator(const std::string &name) {
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
    std::unique_ptr<GeneratorBase> g = factory();
    g->set_registered_name(name);
    g->set_params(params);
    return g;
}

} // namespace Internal
} // namespace Halide
