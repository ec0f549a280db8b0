// Generators: pipelines packaged for ahead-of-time compilation, with their
// compile-time parameters (GeneratorParam), inputs and outputs declared as
// members, registered by name and built by a command-line driver
// (docs/aot.md, ABI.md section 7). Source-compatible with upstream's
// Generator API for the features it covers (the Input and Output forms,
// arrays included, are listed in GeneratorIO.h):
//
//   class Brighten : public Halide::Generator<Brighten> {
//   public:
//       GeneratorParam<int> vector_width{"vector_width", 16, 1, 64};
//       Input<Buffer<uint8_t>> input{"input", 2};
//       Input<float> scale{"scale", 1.0f, 0.0f, 10.0f};
//       Output<Buffer<uint8_t>> output{"output", 2};
//       void generate() { output(x, y) = u8_sat(input(x, y) * scale); }
//       void schedule() { output.vectorize(x, vector_width); }
//   private:
//       Var x, y;
//   };
//   HALIDE_REGISTER_GENERATOR(Brighten, brighten)
//
// Inputs and Outputs may also be added by configure(), which runs once the
// GeneratorParams are set (add_input<T>(name, ...), add_output<T>(name, ...),
// and set_type()/set_dimensions()/set_array_size() of what is left open).
// From code: Brighten::create(context), GeneratorRegistry::create(name,
// context) and create_callable_from_generator(context, name, params).
//
// Stubs, as upstream's: registered with a third name,
// HALIDE_REGISTER_GENERATOR(Brighten, brighten, ns::BrightenStub), the
// generator command line writes brighten.stub.h (-e cpp_stub): a class
// ns::BrightenStub with structs Inputs, GeneratorParams and Outputs and
// static generate(context, inputs, params = {}), which builds the generator
// with the caller's Funcs, Exprs and buffers as its inputs (bind_input) and
// returns its outputs. Another generator includes it and calls it in its
// own generate() (and links brighten's generator code).
#ifndef HALIDE_GENERATOR_H
#define HALIDE_GENERATOR_H

#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Callable.h"
#include "Halide/Func.h"
#include "Halide/GeneratorContext.h"
#include "Halide/GeneratorIO.h"
#include "Halide/GeneratorParam.h"
#include "Halide/Pipeline.h"
#include "Halide/Realization.h"
#include "Halide/Target.h"

// Code that inlining into user code would only make bigger (upstream's macro).
#ifndef HALIDE_NO_USER_CODE_INLINE
#define HALIDE_NO_USER_CODE_INLINE __attribute__((noinline))
#endif

namespace Halide {

// The Halide names a generator (and a C++ stub) uses unqualified, as upstream's.
class NamesInterface {
protected:
    using Expr = Halide::Expr;
    using EvictionKey = Halide::EvictionKey;
    using ExternFuncArgument = Halide::ExternFuncArgument;
    using Func = Halide::Func;
    using GeneratorContext = Halide::GeneratorContext;
    using ImageParam = Halide::ImageParam;
    using LoopLevel = Halide::LoopLevel;
    using MemoryType = Halide::MemoryType;
    using NameMangling = Halide::NameMangling;
    using Partition = Halide::Partition;
    using Pipeline = Halide::Pipeline;
    using PrefetchBoundStrategy = Halide::PrefetchBoundStrategy;
    using RDom = Halide::RDom;
    using RVar = Halide::RVar;
    using TailStrategy = Halide::TailStrategy;
    using Target = Halide::Target;
    using Tuple = Halide::Tuple;
    using Type = Halide::Type;
    using Var = Halide::Var;
    template <typename T> static Expr cast(Expr e) { return Halide::cast<T>(std::move(e)); }
    static Expr cast(Halide::Type t, Expr e) { return Halide::cast(t, std::move(e)); }
    template <typename T> using GeneratorParam = Halide::GeneratorParam<T>;
    template <typename T = void, int D = -1> using Buffer = Halide::Buffer<T, D>;
    template <typename T> using Param = Halide::Param<T>;
    static Type Bool(int lanes = 1) { return Halide::Bool(lanes); }
    static Type Float(int bits, int lanes = 1) { return Halide::Float(bits, lanes); }
    static Type Int(int bits, int lanes = 1) { return Halide::Int(bits, lanes); }
    static Type UInt(int bits, int lanes = 1) { return Halide::UInt(bits, lanes); }
};

namespace Internal {

class GeneratorBase;

// A GeneratorParam's value as its string (set_generatorparam_value), for
// the C++ stub: numbers exactly (floats with all their digits).
template <typename T> std::string generator_param_string(const T &v) {
    std::ostringstream o;
    if constexpr (std::is_floating_point<T>::value) {
        o.precision(std::numeric_limits<T>::max_digits10);
    }
    o << +v;
    return o.str();
}

// The generator being constructed on this thread: members register with it.
GeneratorBase *generator_under_construction();
// True while a generator's generate() or schedule() runs on this thread
// (a generator made then is nested: a stub's).
bool inside_generate();

// Makes `g` the generator whose members register while it lives (the
// Inputs and Outputs configure() adds).
class GeneratorConstructionScope {
public:
    explicit GeneratorConstructionScope(GeneratorBase *g);
    ~GeneratorConstructionScope();
    GeneratorConstructionScope(const GeneratorConstructionScope &) = delete;
    GeneratorConstructionScope &operator=(const GeneratorConstructionScope &) = delete;

private:
    GeneratorBase *previous_;
};

class GeneratorBase : public NamesInterface, public RealizesForGeneratorTarget<GeneratorBase> {
public:
    GeneratorBase();
    virtual ~GeneratorBase();
    GeneratorBase(const GeneratorBase &) = delete;
    GeneratorBase &operator=(const GeneratorBase &) = delete;

    // Sets a GeneratorParam (or a scalar Input's default, the target, or
    // autoscheduler / autoscheduler.KEY) from a string. Throws CompileError
    // naming the generator and the key if there is none.
    void set_param(const std::string &key, const std::string &value);
    void set_params(const std::map<std::string, std::string> &params);

    // Upstream's names (AbstractGenerator): the registered name, the
    // context, GeneratorParams by name (not the target: that is the
    // context's), and the pipeline compiled for the context's target.
    std::string name() const { return registered_name_; }
    GeneratorContext context() const { return GeneratorContext(target_, autoscheduler_params_); }
    void set_generatorparam_value(const std::string &name, const std::string &value);
    void set_generatorparam_value(const std::string &name, const LoopLevel &loop_level);
    void set_generatorparam_values(const GeneratorParamsMap &params);
    Callable compile_to_callable();

    // Whether an autoscheduler was named (the autoscheduler GeneratorParam or
    // the context): generate() may then leave the schedule to it.
    bool using_autoscheduler() const { return !autoscheduler_params_.name.empty(); }
    const AutoschedulerParams &autoscheduler_params() const { return autoscheduler_params_; }
    // Ahead-of-time compilation applies the named autoscheduler (if any) to
    // the built pipeline (Pipeline::apply_autoscheduler, for the generator's target).
    void autoschedule(const Pipeline &p) const;

    // configure() only: an Input or Output of this instance, owned by it,
    // after those declared as members. The arguments are those of the
    // Input<T>/Output<T> declarations (add_input<Expr>(name, type) too).
    template <typename T, typename... Args> Input<T> *add_input(const std::string &name, const Args &...args) {
        begin_add(name, "input", "add_input()");
        GeneratorConstructionScope scope(this);
        std::unique_ptr<Input<T>> io;
        if constexpr (std::is_same<T, Expr>::value) {
            static_assert(sizeof...(Args) == 1, "add_input<Expr>(name, type)");
            io = std::make_unique<Input<T>>(name);
            io->set_type(args...);
        } else {
            io = std::make_unique<Input<T>>(name, args...);
        }
        Input<T> *p = io.get();
        owned_io_.push_back(std::move(io));
        return p;
    }
    template <typename T, typename... Args> Output<T> *add_output(const std::string &name, const Args &...args) {
        begin_add(name, "output", "add_output()");
        GeneratorConstructionScope scope(this);
        auto io = std::make_unique<Output<T>>(name, args...);
        Output<T> *p = io.get();
        owned_io_.push_back(std::move(io));
        return p;
    }
    // Throws unless configure() is running ("You may not do this operation
    // at this phase", as upstream, naming `what`).
    void check_configure_phase(const std::string &what) const;

    // Upstream's direct use of a generator (without a stub): its Inputs, in
    // declaration order, read the given values instead of becoming
    // arguments: a Buffer (compiled in; wrapped in a Func for an
    // Input<Func>), a calling generator's Input<Buffer>, a Func, an Expr or
    // a number, or a std::vector of Funcs, Exprs or numbers for an array.
    // Checked as upstream: the count, the kind of each value, and (when the
    // pipeline is built) types and dimensions; a number must have the
    // Input's exact type. Before generate() runs; setting them again
    // replaces them. Generator<T>::apply() sets them and builds the pipeline.
    template <typename... Args> void set_inputs(const Args &...args) {
        check_input_count("set_inputs()", sizeof...(args));
        size_t i = 0;
        std::vector<std::vector<StubInput>> values;
        (values.push_back(build_input(i++, args)), ...);
        set_inputs_vector(values);
    }
    // The pipeline generate() and schedule() built: from schedule() on
    // (upstream's "You may not do this operation at this phase" before).
    Pipeline get_pipeline();
    // realize(sizes...), realize(dst) of RealizesForGeneratorTarget: the
    // pipeline, for the generator's target, once built (apply()).

    // A stub's use (upstream's AbstractGenerator): before the pipeline is
    // built, Input `name` (every element of an array) reads the caller's
    // buffers (Input<Buffer>s' or Buffers' Parameters), Funcs or Exprs
    // instead of becoming arguments; once built, the Funcs of Output `name`.
    void bind_input(const std::string &name, const std::vector<Parameter> &v);
    void bind_input(const std::string &name, const std::vector<Func> &v);
    void bind_input(const std::string &name, const std::vector<Expr> &v);
    std::vector<Func> output_func(const std::string &name);
    // The C++ stub's class name (HALIDE_REGISTER_GENERATOR's third argument,
    // ns::Name; the registered name by default).
    const std::string &stub_name() const { return stub_name_; }
    void set_stub_name(const std::string &n) { stub_name_ = n; }
    // The GeneratorParams declared as members, and the Inputs and Outputs
    // (once configure() ran, those it added too), in declaration order.
    const std::vector<GeneratorParamBase *> &generator_params() const { return params_; }
    const std::vector<GeneratorIOBase *> &inputs() const { return inputs_; }
    const std::vector<GeneratorIOBase *> &outputs() const { return outputs_; }
    // Runs configure() if it has not run.
    void ensure_configured() { configure(); }

    // Builds the pipeline: resolves Inputs/Outputs, runs generate() and
    // schedule(). Idempotent.
    Pipeline build_pipeline();
    // The inputs as compile_to arguments, in declaration order (arrays
    // element by element).
    std::vector<Argument> arguments();
    // Outputs whose Func has another name (a Func assigned to the Output):
    // Func name -> the Output's argument name.
    const std::map<std::string, std::string> &output_names();
    // Writes `files` for `target` with entry point `function_name` (which
    // may be namespace-qualified, ns::name, with c_plus_plus_name_mangling).
    void compile_to(const std::map<OutputFileType, std::string> &files, const std::string &function_name,
                    const Target &target);
    // The built pipeline as a Module for the generator's target (entry
    // point `function_name`, or the first output's name), as upstream's:
    // with an autoscheduler, it is applied and its results are the
    // Module's get_auto_scheduler_results(). The linkage is ignored, as
    // Pipeline::compile_to_module's.
    Module build_module(const std::string &function_name = "",
                        LinkageType linkage_type = LinkageType::ExternalPlusMetadata);

    // A condition the built pipeline checks when it runs (Pipeline's
    // add_requirement); call it from generate().
    void add_requirement(const Expr &condition, const std::vector<Expr> &error_args = {});
    // The message's parts may be Exprs, numbers or strings (as for print()).
    template <typename... Args> void add_requirement(const Expr &condition, const Args &...error_args) {
        add_requirement(condition, std::vector<Expr>{PrintArg(error_args).expr...});
    }

    Target get_target() const { return target_; }
    void set_target(const Target &t) { target_ = t; }
    int natural_vector_size(const Type &t) const { return target_.natural_vector_size(t); }
    template <typename T> int natural_vector_size() const { return natural_vector_size(type_of<T>()); }

    const std::string &registered_name() const { return registered_name_; }
    void set_registered_name(const std::string &n) { registered_name_ = n; }

    // Registration, by the members' constructors.
    void add_param(GeneratorParamBase *p);
    void add_io(GeneratorIOBase *io, bool is_input);
    // Implicit GeneratorParams (such as "input.type") owned by the generator.
    void add_owned_param(std::unique_ptr<GeneratorParamBase> p);
    GeneratorParamBase *find_param(const std::string &name) const;

protected:
    // The target and autoscheduler of `context` (Generator<T>::create).
    virtual void init_from_context(const GeneratorContext &context);
    virtual void call_configure() = 0;
    virtual void call_generate() = 0;
    virtual void call_schedule() = 0;

    // set_inputs(): upstream's error unless there are `n` Inputs (running
    // configure() first) and generate() has not been called (`what` names
    // the call in the error).
    void check_input_count(const char *what, size_t n);
    void set_inputs_vector(const std::vector<std::vector<StubInput>> &inputs);
    // One value of set_inputs() for Input i, checked against its kind and
    // whether it is an array (upstream's errors).
    template <typename T, int D> std::vector<StubInput> build_input(size_t i, const Buffer<T, D> &arg) {
        return build_buffer_input(i, Buffer<>(arg));
    }
    std::vector<StubInput> build_buffer_input(size_t i, const Buffer<> &arg);
    std::vector<StubInput> build_input(size_t i, const InputBufferOne &arg); // an Input<Buffer> or Input<Func>
    std::vector<StubInput> build_input(size_t i, const Func &arg);
    std::vector<StubInput> build_input(size_t i, const std::vector<Func> &arg);
    std::vector<StubInput> build_input(size_t i, const Expr &arg);
    std::vector<StubInput> build_input(size_t i, const std::vector<Expr> &arg);
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value>::type * = nullptr>
    std::vector<StubInput> build_input(size_t i, const T &arg) {
        return build_input(i, Expr(arg));
    }
    template <typename T, typename std::enable_if<std::is_arithmetic<T>::value>::type * = nullptr>
    std::vector<StubInput> build_input(size_t i, const std::vector<T> &arg) {
        return build_input(i, std::vector<Expr>(arg.begin(), arg.end()));
    }

private:
    friend class RealizesForGeneratorTarget<GeneratorBase>;
    friend class GeneratorParamBase;
    Pipeline realizable();
    bool generate_called() const { return phase_ >= Phase::Generating; }

    // configure() runs once; build_pipeline() runs generate() then schedule().
    enum class Phase { Created, Configuring, Configured, Generating, Scheduling, Scheduled };
    // Runs configure() once.
    void configure();
    void begin_add(const std::string &name, const char *kind, const char *what) const;
    GeneratorIOBase *find_input_to_bind(const std::string &name);

    std::vector<GeneratorParamBase *> params_;
    std::vector<std::unique_ptr<GeneratorParamBase>> owned_params_;
    std::vector<GeneratorIOBase *> inputs_, outputs_;
    std::vector<std::unique_ptr<GeneratorIOBase>> owned_io_; // added by configure()
    Phase phase_ = Phase::Created;
    AutoschedulerParams autoscheduler_params_;
    std::map<std::string, std::string> output_names_;
    Target target_;
    std::string registered_name_, stub_name_;
    bool built_ = false;
    Pipeline pipeline_;
    std::vector<std::pair<Expr, std::vector<Expr>>> requirements_;
};

// Upstream's names for a generator instance.
using AbstractGenerator = GeneratorBase;
using AbstractGeneratorPtr = std::unique_ptr<GeneratorBase>;

// The registry of generators by name (HALIDE_REGISTER_GENERATOR).
using GeneratorFactory = std::function<AbstractGeneratorPtr(const GeneratorContext &context)>;
void register_generator(const std::string &name, GeneratorFactory factory);
void register_generator_alias(const std::string &alias, const std::string &name,
                              const std::map<std::string, std::string> &params);
std::vector<std::string> registered_generators();
// A fresh instance of `name` made with `context` (an alias gets its
// parameters set); throws CompileError listing the registered names if
// there is no such generator.
AbstractGeneratorPtr create_generator(const std::string &name,
                                      const GeneratorContext &context = GeneratorContext(get_host_target()));

// Upstream's registry interface.
class GeneratorRegistry {
public:
    static void register_factory(const std::string &name, GeneratorFactory factory) {
        register_generator(name, std::move(factory));
    }
    static void unregister_factory(const std::string &name);
    static std::vector<std::string> enumerate() { return registered_generators(); }
    // nullptr if there is no generator of that name.
    static AbstractGeneratorPtr create(const std::string &name, const GeneratorContext &context);
};

struct RegisterGenerator {
    RegisterGenerator(const char *name, GeneratorFactory factory) { register_generator(name, std::move(factory)); }
};
struct RegisterGeneratorAlias {
    RegisterGeneratorAlias(const char *alias, const char *name, const std::map<std::string, std::string> &params) {
        register_generator_alias(alias, name, params);
    }
};

// The generator command line (ABI.md section 7): returns the exit code and
// reports errors on stderr.
int generate_filter_main(int argc, char **argv);

} // namespace Internal

// Upstream's class names for Input and Output.
template <typename T> using GeneratorInput = Input<T>;
template <typename T> using GeneratorOutput = Output<T>;

template <typename T> class Generator : public Internal::GeneratorBase {
public:
    // A new instance with the context's target and autoscheduler.
    static std::unique_ptr<T> create(const GeneratorContext &context) {
        auto g = std::make_unique<T>();
        g->init_from_context(context);
        return g;
    }
    // HALIDE_REGISTER_GENERATOR's factory.
    static std::unique_ptr<T> create(const GeneratorContext &context, const std::string &registered_name,
                                     const std::string &stub_name) {
        auto g = create(context);
        g->set_registered_name(registered_name);
        g->set_stub_name(stub_name);
        return g;
    }

    // Upstream's direct use: configure(), the Inputs set to `args`
    // (set_inputs()), generate() and schedule(). Once only; the Outputs are
    // then Funcs to call or realize, and realize() runs the pipeline.
    template <typename... Args> void apply(const Args &...args) {
        set_inputs(args...);
        build_pipeline();
    }
    // A generator T2 made with this one's context, and applied to `args`.
    template <typename T2> std::unique_ptr<T2> create() const { return T2::create(context()); }
    template <typename T2, typename... Args> std::unique_ptr<T2> apply(const Args &...args) const {
        auto t = this->create<T2>();
        t->apply(args...);
        return t;
    }

protected:
    template <typename U> using Input = Halide::Input<U>;
    template <typename U> using Output = Halide::Output<U>;
    template <typename U> using GeneratorParam = Halide::GeneratorParam<U>;
    using GeneratorContext = Halide::GeneratorContext;
    using LoopLevel = Halide::LoopLevel;

    void call_configure() override {
        if constexpr (has_configure<T>(0)) {
            static_cast<T *>(this)->configure();
        }
    }
    void call_generate() override { static_cast<T *>(this)->generate(); }
    void call_schedule() override {
        if constexpr (has_schedule<T>(0)) {
            static_cast<T *>(this)->schedule();
        }
    }

private:
    template <typename U> static constexpr auto has_schedule(int) -> decltype(std::declval<U &>().schedule(), true) {
        return true;
    }
    template <typename U> static constexpr bool has_schedule(...) { return false; }
    template <typename U> static constexpr auto has_configure(int) -> decltype(std::declval<U &>().configure(), true) {
        return true;
    }
    template <typename U> static constexpr bool has_configure(...) { return false; }
};

// Compiles the registered generator `name`, made with `context` and given
// `generator_params`, into a Callable (inputs, then output buffers).
// Throws CompileError if there is no such generator.
Callable create_callable_from_generator(const GeneratorContext &context, const std::string &name,
                                        const GeneratorParamsMap &generator_params = {});
Callable create_callable_from_generator(const Target &target, const std::string &name,
                                        const GeneratorParamsMap &generator_params = {});

} // namespace Halide

// Registers GEN_CLASS under the name GEN_NAME (an identifier), at global
// scope, as upstream: the factory halide_register_generator::GEN_NAME_ns::factory
// is what a C++ stub calls. A third argument names the stub's class
// (ns::NameStub; by default GEN_NAME, in no namespace).
#define HALIDE_REGISTER_GENERATOR(...)                                                                                 \
    HALIDE_GENERATOR_PICK_(__VA_ARGS__, HALIDE_REGISTER_GENERATOR3_, HALIDE_REGISTER_GENERATOR2_, unused)(__VA_ARGS__)
#define HALIDE_GENERATOR_PICK_(a, b, c, NAME, ...) NAME
#define HALIDE_REGISTER_GENERATOR2_(GEN_CLASS, GEN_NAME) HALIDE_REGISTER_GENERATOR3_(GEN_CLASS, GEN_NAME, GEN_NAME)
#define HALIDE_REGISTER_GENERATOR3_(GEN_CLASS, GEN_NAME, STUB_NAME)                                                    \
    namespace halide_register_generator {                                                                              \
    namespace GEN_NAME##_ns {                                                                                          \
        std::unique_ptr<::Halide::Internal::GeneratorBase> factory(const ::Halide::GeneratorContext &context);         \
        std::unique_ptr<::Halide::Internal::GeneratorBase> factory(const ::Halide::GeneratorContext &context) {        \
            return GEN_CLASS::create(context, #GEN_NAME, #STUB_NAME);                                                  \
        }                                                                                                              \
    }                                                                                                                  \
    namespace {                                                                                                        \
    const ::Halide::Internal::RegisterGenerator registered_##GEN_NAME(#GEN_NAME, GEN_NAME##_ns::factory);              \
    }                                                                                                                  \
    }

// Registers ALIAS: the generator GEN_NAME with some GeneratorParams set
// (its factory, for a stub of ALIAS, too).
#define HALIDE_REGISTER_GENERATOR_ALIAS(ALIAS, GEN_NAME, ...)                                                          \
    namespace halide_register_generator {                                                                              \
    namespace GEN_NAME##_ns {                                                                                          \
        std::unique_ptr<::Halide::Internal::GeneratorBase> factory(const ::Halide::GeneratorContext &context);         \
    }                                                                                                                  \
    namespace ALIAS##_ns {                                                                                             \
        std::unique_ptr<::Halide::Internal::GeneratorBase> factory(const ::Halide::GeneratorContext &context);         \
        std::unique_ptr<::Halide::Internal::GeneratorBase> factory(const ::Halide::GeneratorContext &context) {        \
            auto g = GEN_NAME##_ns::factory(context);                                                                  \
            const std::map<std::string, std::string> params = __VA_ARGS__;                                             \
            if (g->stub_name() == #GEN_NAME) {                                                                         \
                g->set_stub_name(#ALIAS);                                                                              \
            }                                                                                                          \
            g->set_registered_name(#ALIAS);                                                                            \
            g->set_params(params);                                                                                     \
            return g;                                                                                                  \
        }                                                                                                              \
    }                                                                                                                  \
    namespace {                                                                                                        \
    const ::Halide::Internal::RegisterGeneratorAlias registered_alias_##ALIAS(#ALIAS, #GEN_NAME, __VA_ARGS__);         \
    }                                                                                                                  \
    }

#endif
