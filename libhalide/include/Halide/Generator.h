// Generators: pipelines packaged for ahead-of-time compilation, with their
// compile-time parameters (GeneratorParam), inputs and outputs declared as
// members, registered by name and built by a command-line driver
// (docs/aot.md, ABI.md section 7). Source-compatible with upstream's
// Generator API for the features it covers:
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
#ifndef HALIDE_GENERATOR_H
#define HALIDE_GENERATOR_H

#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/Param.h"
#include "Halide/Pipeline.h"
#include "Halide/Target.h"

namespace Halide {

namespace Internal {

class GeneratorBase;

// "uint8", "int32", "float32", "bool", ... (throws CompileError otherwise).
Type parse_type_name(const std::string &name);
std::string type_name_of(const Type &t);

// A compile-time parameter, settable by name from strings (the command line).
class GeneratorParamBase {
public:
    explicit GeneratorParamBase(const std::string &name);
    virtual ~GeneratorParamBase() = default;
    GeneratorParamBase(const GeneratorParamBase &) = delete;
    GeneratorParamBase &operator=(const GeneratorParamBase &) = delete;

    const std::string &name() const { return name_; }
    virtual void set_from_string(const std::string &value) = 0;
    virtual std::string to_string() const = 0;

protected:
    std::string name_;
};

// What Input<> and Output<> share: a name, and a hook run once the
// GeneratorParams are final (when their types and dimensions are known).
class GeneratorIOBase {
public:
    GeneratorIOBase(const std::string &name, bool is_input);
    virtual ~GeneratorIOBase() = default;
    GeneratorIOBase(const GeneratorIOBase &) = delete;
    GeneratorIOBase &operator=(const GeneratorIOBase &) = delete;

    const std::string &name() const { return name_; }
    virtual void init() = 0;
    // Inputs: the argument of the compiled pipeline. Outputs: the Func.
    virtual Argument argument() const = 0;
    virtual Func output_func() const { return Func(); }
    // Scalar inputs only: set the default (the value used when not given).
    virtual void set_default_from_string(const std::string &value);

protected:
    std::string name_;
};

// The generator being constructed on this thread: members register with it.
GeneratorBase *generator_under_construction();

class GeneratorBase {
public:
    GeneratorBase();
    virtual ~GeneratorBase();
    GeneratorBase(const GeneratorBase &) = delete;
    GeneratorBase &operator=(const GeneratorBase &) = delete;

    // Sets a GeneratorParam (or a scalar Input's default) from a string.
    // Throws CompileError naming the generator and the key if there is none.
    void set_param(const std::string &key, const std::string &value);
    void set_params(const std::map<std::string, std::string> &params);

    // Builds the pipeline: resolves Inputs/Outputs, runs generate() and
    // schedule(). Idempotent.
    Pipeline build_pipeline();
    // The inputs as compile_to arguments, in declaration order.
    std::vector<Argument> arguments();
    // Writes `files` for `target` with entry point `function_name`.
    void compile_to(const std::map<OutputFileType, std::string> &files, const std::string &function_name,
                    const Target &target);

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
    virtual void call_generate() = 0;
    virtual void call_schedule() = 0;

private:
    std::vector<GeneratorParamBase *> params_;
    std::vector<std::unique_ptr<GeneratorParamBase>> owned_params_;
    std::vector<GeneratorIOBase *> inputs_, outputs_;
    Target target_;
    std::string registered_name_;
    bool built_ = false;
    Pipeline pipeline_;
};

// The registry of generators by name (HALIDE_REGISTER_GENERATOR).
using GeneratorFactory = std::function<std::unique_ptr<GeneratorBase>()>;
void register_generator(const std::string &name, GeneratorFactory factory);
void register_generator_alias(const std::string &alias, const std::string &name,
                              const std::map<std::string, std::string> &params);
std::vector<std::string> registered_generators();
// A fresh instance of `name` (an alias gets its parameters set); throws
// CompileError listing the registered names if there is no such generator.
std::unique_ptr<GeneratorBase> create_generator(const std::string &name);

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

template <typename T> T parse_scalar(const std::string &name, const std::string &value) {
    std::istringstream in(value);
    if constexpr (std::is_same<T, bool>::value) {
        user_assert(value == "true" || value == "false")
            << "GeneratorParam '" << name << "' is a bool: give true or false, not '" << value << "'";
        return value == "true";
    } else {
        using Read = std::conditional_t<sizeof(T) == 1, int, T>; // read int8/uint8 as numbers
        Read v{};
        in >> v;
        user_assert(!in.fail() && in.eof()) << "GeneratorParam '" << name << "' needs a number, not '" << value << "'";
        return (T)v;
    }
}

} // namespace Internal

// A compile-time parameter: bool, integer, floating point, std::string,
// Type, or an enum with a name -> value map.
template <typename T> class GeneratorParam : public Internal::GeneratorParamBase {
public:
    GeneratorParam(const std::string &name, const T &value) : GeneratorParamBase(name), value_(value) {}
    GeneratorParam(const std::string &name, const T &value, const T &min, const T &max)
        : GeneratorParamBase(name), value_(value), min_(min), max_(max), has_range_(true) {
        check_range();
    }
    GeneratorParam(const std::string &name, const T &value, const std::map<std::string, T> &names)
        : GeneratorParamBase(name), value_(value), names_(names) {}

    const T &value() const { return value_; }
    // In expressions a numeric GeneratorParam is its value (a constant).
    operator T() const { return value_; }
    GeneratorParam &operator=(const T &v) {
        value_ = v;
        check_range();
        return *this;
    }

    void set_from_string(const std::string &s) override {
        if (!names_.empty()) {
            auto it = names_.find(s);
            std::string known;
            for (const auto &kv : names_) {
                known += (known.empty() ? "" : ", ") + kv.first;
            }
            user_assert(it != names_.end())
                << "GeneratorParam '" << name_ << "' can't be '" << s << "'; it is one of: " << known;
            value_ = it->second;
        } else if constexpr (std::is_same<T, std::string>::value) {
            value_ = s;
        } else if constexpr (std::is_same<T, Type>::value) {
            value_ = Internal::parse_type_name(s);
        } else if constexpr (std::is_arithmetic<T>::value) {
            value_ = Internal::parse_scalar<T>(name_, s);
        } else {
            user_error << "GeneratorParam '" << name_ << "' can't be set from a string";
        }
        check_range();
    }

    std::string to_string() const override {
        for (const auto &kv : names_) {
            if (kv.second == value_) {
                return kv.first;
            }
        }
        if constexpr (std::is_same<T, std::string>::value) {
            return value_;
        } else if constexpr (std::is_same<T, Type>::value) {
            return Internal::type_name_of(value_);
        } else if constexpr (std::is_same<T, bool>::value) {
            return value_ ? "true" : "false";
        } else if constexpr (std::is_arithmetic<T>::value) {
            std::ostringstream o;
            o << +value_;
            return o.str();
        } else {
            return "?";
        }
    }

private:
    void check_range() {
        if constexpr (std::is_arithmetic<T>::value) {
            user_assert(!has_range_ || (!(value_ < min_) && !(max_ < value_)))
                << "GeneratorParam '" << name_ << "' is " << +value_ << " but must be in [" << +min_ << ", " << +max_
                << "]";
        }
    }
    T value_;
    T min_{}, max_{};
    bool has_range_ = false;
    std::map<std::string, T> names_;
};

template <typename T> class Input;
template <typename T> class Output;

namespace Internal {

// A buffer Input: an ImageParam whose type and dimensions come from its
// declaration or, when left open, from GeneratorParams "<name>.type" and
// "<name>.dim".
class InputBufferBase : public GeneratorIOBase {
public:
    InputBufferBase(const std::string &name, Type type, int dims);
    void init() override;
    Argument argument() const override;
    const ImageParam &param() const;
    template <typename... Args> Expr operator()(const Args &...pos) const { return param()(pos...); }
    Expr operator()(const std::vector<Expr> &pos) const { return param()(pos); }
    Dimension dim(int i) const { return param().dim(i); }
    // The expected region, for the metadata (call it in generate()).
    void set_estimates(const Region &estimates) {
        param(); // checks that generate() is running
        param_.set_estimates(estimates);
    }
    int dimensions() const { return param().dimensions(); }
    Type type() const { return param().type(); }

private:
    Type type_;
    int dims_;
    ImageParam param_;
};

// A scalar Input: a Param with a default, range and estimate.
template <typename T> class InputScalar : public GeneratorIOBase {
public:
    explicit InputScalar(const std::string &name) : GeneratorIOBase(name, true), param_(name) {}
    InputScalar(const std::string &name, const T &def) : InputScalar(name) { set_default(def); }
    InputScalar(const std::string &name, const T &def, const T &min, const T &max) : InputScalar(name, def) {
        param_.set_range(scalar_constant(min), scalar_constant(max));
    }
    void init() override {}
    Argument argument() const override { return param_; }
    void set_default_from_string(const std::string &value) override { set_default(parse_scalar<T>(name(), value)); }
    void set_estimate(const T &v) { param_.set_estimate(v); }
    operator Expr() const { return param_; }
    const Param<T> &param() const { return param_; }

private:
    void set_default(const T &v) {
        param_.set(v);
        set_param_default_for(param_, v);
    }
    static void set_param_default_for(Param<T> &p, const T &v);
    Param<T> param_;
};

void set_default_of_param(const std::string &name, const Expr &value);
template <typename T> void InputScalar<T>::set_param_default_for(Param<T> &p, const T &v) {
    set_default_of_param(p.name(), scalar_constant(v));
}

// A buffer Output: a Func (define and schedule it as one) whose type and
// dimensions are checked against the declaration once generate() ran.
class OutputBufferBase : public GeneratorIOBase, public Func {
public:
    OutputBufferBase(const std::string &name, Type type, int dims);
    // A Tuple output: one buffer per type (NAME.0, NAME.1, ...).
    OutputBufferBase(const std::string &name, const std::vector<Type> &types, int dims);
    void init() override;
    Argument argument() const override;
    Func output_func() const override { return *this; }
    using Func::name;
    using Func::operator();

private:
    std::vector<Type> types_; // empty: decided by generate()
    int dims_;
};

} // namespace Internal

namespace Internal {
// The element type a Buffer<T> declares; no type (bits 0) for Buffer<>.
template <typename T> Type declared_type() {
    if constexpr (std::is_void<T>::value) {
        return Type();
    } else {
        return type_of<T>();
    }
}
} // namespace Internal

template <typename T, int D> class Input<Buffer<T, D>> : public Internal::InputBufferBase {
public:
    explicit Input(const std::string &name) : InputBufferBase(name, Internal::declared_type<T>(), D) {}
    Input(const std::string &name, int dims) : InputBufferBase(name, Internal::declared_type<T>(), dims) {}
    Input(const std::string &name, const Type &t, int dims) : InputBufferBase(name, t, dims) {}
};

template <typename T> class Input : public Internal::InputScalar<T> {
    static_assert(std::is_arithmetic<T>::value, "Input<T> takes a scalar type or Buffer<T>");

public:
    using Internal::InputScalar<T>::InputScalar;
};

template <typename T, int D> class Output<Buffer<T, D>> : public Internal::OutputBufferBase {
public:
    explicit Output(const std::string &name) : OutputBufferBase(name, Internal::declared_type<T>(), D) {}
    Output(const std::string &name, int dims) : OutputBufferBase(name, Internal::declared_type<T>(), dims) {}
    Output(const std::string &name, const Type &t, int dims) : OutputBufferBase(name, t, dims) {}
    Output(const std::string &name, const std::vector<Type> &types, int dims) : OutputBufferBase(name, types, dims) {}
};

template <typename T> class Generator : public Internal::GeneratorBase {
protected:
    template <typename U> using Input = Halide::Input<U>;
    template <typename U> using Output = Halide::Output<U>;
    template <typename U> using GeneratorParam = Halide::GeneratorParam<U>;

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
};

} // namespace Halide

#define HALIDE_GENERATOR_CONCAT_(a, b) a##b
#define HALIDE_GENERATOR_CONCAT(a, b) HALIDE_GENERATOR_CONCAT_(a, b)

// Registers GEN_CLASS under the name GEN_NAME (an identifier, as upstream;
// a third argument, upstream's stub name, is accepted and ignored).
#define HALIDE_REGISTER_GENERATOR(...) HALIDE_REGISTER_GENERATOR_IMPL(__VA_ARGS__, unused)
#define HALIDE_REGISTER_GENERATOR_IMPL(GEN_CLASS, GEN_NAME, ...)                                                       \
    namespace {                                                                                                        \
    const ::Halide::Internal::RegisterGenerator                                                                        \
        HALIDE_GENERATOR_CONCAT(halide_register_generator_,                                                            \
                                GEN_NAME)(#GEN_NAME, []() -> std::unique_ptr<::Halide::Internal::GeneratorBase> {      \
            return std::unique_ptr<::Halide::Internal::GeneratorBase>(new GEN_CLASS());                                \
        });                                                                                                            \
    }

// Registers ALIAS: the generator GEN_NAME with some GeneratorParams set.
#define HALIDE_REGISTER_GENERATOR_ALIAS(ALIAS, GEN_NAME, ...)                                                          \
    namespace {                                                                                                        \
    const ::Halide::Internal::RegisterGeneratorAlias HALIDE_GENERATOR_CONCAT(halide_register_alias_,                   \
                                                                             ALIAS)(#ALIAS, #GEN_NAME, __VA_ARGS__);   \
    }

#endif
