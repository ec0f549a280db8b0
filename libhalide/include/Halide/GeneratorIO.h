// A Generator's Input<> and Output<> members (see Generator.h), in the forms
// upstream's Generator API has:
//
//   Input<Buffer<uint8_t>> in{"in", 2};           an ImageParam
//   Input<Func> f{"f", Int(16), 2};               a buffer argument, used as a Func
//   Input<float> scale{"scale", 1.0f, 0.0f, 2.0f}; a scalar: default, min, max
//   Input<Buffer<uint8_t>[]> ins{"ins", 2};       an array, sized by ins.size=N
//   Input<int32_t[2]> gains{"gains"};             an array of fixed size
//   Input<Expr> k{"k"};                           a scalar whose type is set by k.type
//                                                 or set_type() in configure()
//   Output<Buffer<float>> out{"out", 2};          a Func to define and schedule
//   Output<Func> pair{"pair", {UInt(8), Float(32)}, 2};  a Tuple output
//   Output<Func[]> outs{"outs", Int(32), 2};      sized by outs.size=N or outs.resize(N)
//   Output<float> total{"total"};                 a zero-dimensional output: total() = ...
//
// Element i of an array is argument NAME_i; value k of a Tuple output is
// NAME.k (NAME_i.k in an array), as upstream names them. A type, dimension
// count or array size left open in the declaration is set by the implicit
// GeneratorParams NAME.type, NAME.dim and NAME.size.
//
// A generator's C++ stub (emit kind cpp_stub) builds it inside another
// generator's generate(): its Inputs are then bound to the caller's Funcs,
// Exprs, Input<Buffer>s or Buffers (bind_input) instead of becoming
// arguments, and its Outputs are handed back as Funcs or StubOutputBuffers.
#ifndef HALIDE_GENERATOR_IO_H
#define HALIDE_GENERATOR_IO_H

#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/ExternFuncArgument.h"
#include "Halide/Func.h"
#include "Halide/GeneratorParam.h"
#include "Halide/Param.h"
#include "Halide/Realization.h"
#include "Halide/Target.h"

namespace Halide {

template <typename T> class Input;
template <typename T> class Output;

namespace Internal {

class GeneratorBase;

// What an Input or Output is to a caller, as upstream's: a scalar (Expr), a
// Func, or a buffer (Input<Buffer<>>, Output<Buffer<>>).
enum class ArgInfoKind { Scalar, Function, Buffer };

// True when no argument converts to a Realization (a stub's realize(sizes...)).
template <typename... Args> struct NoRealizations : std::true_type {};
template <typename T, typename... Args> struct NoRealizations<T, Args...> {
    static const bool value = !std::is_convertible<T, Realization>::value && NoRealizations<Args...>::value;
};

// Upstream's realize() of what a generator made, for that generator's
// target: a stub's output buffer (its Func) or the generator itself (its
// pipeline). Self provides realizable() (a Func or Pipeline) and get_target().
template <typename Self> class RealizesForGeneratorTarget {
public:
    Realization realize(std::vector<int32_t> sizes) {
        return self().realizable().realize(std::move(sizes), self().get_target());
    }
    template <typename... Args, typename std::enable_if<NoRealizations<Args...>::value>::type * = nullptr>
    Realization realize(Args &&...args) {
        return self().realizable().realize(std::forward<Args>(args)..., self().get_target());
    }
    // Into `dst`: a Realization or a Buffer.
    template <typename Dst> void realize(Dst dst) { self().realizable().realize(dst, self().get_target()); }

private:
    Self &self() { return static_cast<Self &>(*this); }
};

// A Buffer for an Input<Buffer<T>> of a stub (see the file comment): an
// Input<Buffer> of the calling generator (the caller's argument is read), or
// a Buffer (compiled into the caller's code).
template <typename T = void, int Dims = -1> class StubInputBuffer {
    friend class StubInput;

public:
    StubInputBuffer() = default;
    template <typename T2, int D2> StubInputBuffer(const Buffer<T2, D2> &b) : parameter_(from_buffer(b)) {} // NOLINT
    // From an Input<Buffer> (its conversion operator).
    explicit StubInputBuffer(const Parameter &p) : parameter_(p) {}

    template <typename T2, int D2> static std::vector<Parameter> to_parameter_vector(const StubInputBuffer<T2, D2> &t) {
        return {t.parameter_};
    }
    template <typename T2, int D2>
    static std::vector<Parameter> to_parameter_vector(const std::vector<StubInputBuffer<T2, D2>> &v) {
        std::vector<Parameter> r;
        for (const auto &t : v) {
            r.push_back(t.parameter_);
        }
        return r;
    }

private:
    template <typename T2, int D2> friend class StubInputBuffer;
    template <typename T2, int D2> static Parameter from_buffer(const Buffer<T2, D2> &b) {
        user_assert(b.defined()) << "A stub's buffer input was given an undefined Buffer";
        if constexpr (!std::is_void<T>::value) {
            user_assert(b.type() == type_of<T>()) << "A stub's buffer input of type " << type_name_of(type_of<T>())
                                                  << " was given a Buffer of type " << type_name_of(b.type());
        }
        user_assert(Dims < 0 || b.dimensions() == Dims)
            << "A stub's buffer input of " << Dims << " dimensions was given a Buffer of " << b.dimensions();
        Parameter p(b.type(), true, b.dimensions());
        p.set_buffer(Buffer<>(b));
        return p;
    }
    Parameter parameter_;
};

// One value for an Input of a generator used directly (set_inputs(),
// apply()), as upstream's: a buffer (a Parameter: a calling generator's
// Input<Buffer>, or a Buffer compiled in), a Func or an Expr.
class StubInput {
public:
    template <typename T2, int D2>
    StubInput(const StubInputBuffer<T2, D2> &b) : kind_(ArgInfoKind::Buffer), parameter_(b.parameter_) {} // NOLINT
    StubInput(const Parameter &p) : kind_(ArgInfoKind::Buffer), parameter_(p) {}                          // NOLINT
    StubInput(const Func &f) : kind_(ArgInfoKind::Function), func_(f) {}                                  // NOLINT
    StubInput(const Expr &e) : kind_(ArgInfoKind::Scalar), expr_(e) {}                                    // NOLINT

    ArgInfoKind kind() const { return kind_; }
    // The value of its kind (an internal error for another kind).
    Parameter parameter() const;
    Func func() const;
    Expr expr() const;

private:
    ArgInfoKind kind_;
    Parameter parameter_;
    Func func_;
    Expr expr_;
};

// What every Input and Output shares: a name, declared types (empty: open),
// a dimension count (-1: open) and, for arrays, a size (-1: open).
class GeneratorIOBase {
public:
    // array_size: 0 for a single value, -1 for T[] (open), N for T[N].
    GeneratorIOBase(const std::string &name, bool is_input, int array_size, const std::vector<Type> &types, int dims,
                    bool is_scalar = false);
    virtual ~GeneratorIOBase() = default;
    GeneratorIOBase(const GeneratorIOBase &) = delete;
    GeneratorIOBase &operator=(const GeneratorIOBase &) = delete;

    const std::string &name() const { return name_; }
    bool is_array() const { return is_array_; }
    // The argument (or output) name of element i: NAME, or NAME_i in an array.
    std::string array_name(size_t i) const;
    bool types_defined() const { return !types_.empty(); }
    const std::vector<Type> &types() const { return types_; }
    Type type() const;
    bool dims_defined() const { return dims_ >= 0; }
    int dims() const { return dims_; }
    bool array_size_defined() const { return array_size_ >= 0; }

    // From configure() only, for what the declaration left open (upstream's
    // errors otherwise). set_type with several types: a Tuple Output.
    void set_type(const Type &t) { set_type(std::vector<Type>{t}); }
    void set_type(const std::vector<Type> &types);
    void set_dimensions(int dims);
    void set_array_size(int size);

    // Run once the GeneratorParams are final, before generate().
    virtual void init() = 0;
    // Inputs: the compiled pipeline's arguments, one per element.
    virtual std::vector<Argument> arguments() const { return {}; }
    // Outputs: one Func per element, checked against the declaration (after generate()).
    virtual std::vector<Func> output_funcs() const { return {}; }
    // Scalar Inputs only: the default, from the command line.
    virtual void set_default_from_string(const std::string &value);

    bool is_input() const { return is_input_; }
    ArgInfoKind kind() const { return kind_; }
    // The element type the C++ declaration fixes (Buffer<T>'s T; empty for
    // Buffer<>, Func and scalars), as the C++ stub names it.
    const std::vector<Type> &static_types() const { return static_types_; }
    // Inputs of a generator built by a stub: what the caller passes instead
    // of an argument (checked against the declaration when it is built).
    virtual void bind(const std::vector<Parameter> &buffers);
    virtual void bind(const std::vector<Func> &funcs);
    virtual void bind(const std::vector<Expr> &values);

protected:
    // Input<Buffer<T>>/Output<Buffer<T>> forms: kind Buffer, static type T.
    void set_buffer_form(const std::vector<Type> &static_types) {
        kind_ = ArgInfoKind::Buffer;
        static_types_ = static_types;
    }
    // Sets an open array size from the number of values bound; checks a fixed one.
    void bind_count(size_t n);
    // Checks scalar values bound to an Input against its type.
    void check_bound_types(const std::vector<Expr> &values) const;
    // Checks the open values were given; the element count.
    size_t checked_count(bool allow_open_size) const;
    // Checks one Func defined by generate() against the declaration.
    void check_output_func(const Func &f, size_t i) const;
    // Throws unless generate() may use the value (init() ran).
    void check_initialized(bool initialized) const;

    GeneratorBase *generator_;
    std::string name_;
    bool is_input_, is_array_;
    int array_size_; // 1 for a single value
    std::vector<Type> types_;
    int dims_;
    ArgInfoKind kind_;
    std::vector<Type> static_types_;
};

// Buffer inputs (Input<Buffer<>>, Input<Func> and arrays of them): an
// ImageParam per element, and a Func calling it for the Input<Func> forms.
class InputBufferBase : public GeneratorIOBase {
public:
    InputBufferBase(const std::string &name, int array_size, const std::vector<Type> &types, int dims);
    void init() override;
    std::vector<Argument> arguments() const override;
    using GeneratorIOBase::bind;
    void bind(const std::vector<Parameter> &buffers) override;
    void bind(const std::vector<Func> &funcs) override;
    const ImageParam &param(size_t i = 0) const;
    const Func &func(size_t i = 0) const;
    size_t elements() const;
    // Element i at `pos`: the ImageParam's value, or the bound Func's.
    Expr call(size_t i, const std::vector<Expr> &pos) const;

protected:
    // One per element; undefined for an element bound to a Func or Buffer.
    std::vector<ImageParam> params_;
    mutable std::vector<Func> funcs_; // made on first use, or bound
    std::vector<Parameter> bound_params_;
    std::vector<Func> bound_funcs_;
    bool bound_ = false;

private:
    void init_bound();
};

// Input<Buffer<T>> and Input<Func>: one buffer argument, or (used by a
// stub or directly) what it was bound to.
class InputBufferOne : public InputBufferBase, public BufferShapeShorthands<InputBufferOne> {
public:
    using InputBufferBase::InputBufferBase;
    template <typename... Args> Expr operator()(const Args &...pos) const { return call(0, {Expr(pos)...}); }
    Expr operator()(const std::vector<Expr> &pos) const { return call(0, pos); }
    // Upstream's ImageParam members (and BufferShapeShorthands' left(),
    // width(), ...): those of the buffer argument, or of the Buffer bound to
    // it (its fields are then constants). An Input bound to a Func has a
    // type and dimensions but no buffer: the rest are errors for it.
    Dimension dim(int i) const { return shape().dim(i); }
    int dimensions() const;
    int host_alignment() const { return shape().host_alignment(); }
    OutputImageParam set_host_alignment(int bytes) { return shape().set_host_alignment(bytes); }
    OutputImageParam store_in(MemoryType memory_type) { return shape().store_in(memory_type); }
    void trace_loads();
    InputBufferOne &add_trace_tag(const std::string &trace_tag);
    // The expected region, for the metadata (call it in generate()).
    void set_estimates(const Region &estimates) { shape().set_estimates(estimates); }
    // The Input's Func wrapped for all consumers, for `consumer`, or for each of `consumers`.
    Func in() { return Func(func()).in(); }
    Func in(const Func &consumer) { return Func(func()).in(consumer); }
    Func in(const std::vector<Func> &consumers) { return Func(func()).in(consumers); }
    operator ImageParam() const { return param(); }
    operator Func() const { return func(); }
    // An extern stage's argument: the buffer argument, the bound Buffer or the bound Func.
    operator ExternFuncArgument() const;

private:
    // The ImageParam of the buffer argument, or one over the bound Buffer.
    ImageParam shape() const;
};

// Input<Buffer<T>[]>: element i is an ImageParam.
class InputBufferArray : public InputBufferBase {
public:
    using InputBufferBase::InputBufferBase;
    size_t size() const { return elements(); }
    ImageParam operator[](size_t i) const { return param(i); }
    ImageParam at(size_t i) const { return param(i); }
};

// Input<Func[]>: element i is a Func.
class InputFuncArray : public InputBufferBase {
public:
    using InputBufferBase::InputBufferBase;
    size_t size() const { return elements(); }
    const Func &operator[](size_t i) const { return func(i); }
    const Func &at(size_t i) const { return func(i); }
    std::vector<Func>::const_iterator begin() const;
    std::vector<Func>::const_iterator end() const;
};

void set_default_of_param(const Expr &param, const Expr &value); // `param`: the Param as an Expr

// Scalar inputs: a Param<T> per element, with a default, range and estimate.
template <typename T> class InputScalarBase : public GeneratorIOBase {
public:
    InputScalarBase(const std::string &name, int array_size)
        : GeneratorIOBase(name, true, array_size, {type_of<T>()}, 0, true) {}
    InputScalarBase(const std::string &name, int array_size, const T &def) : InputScalarBase(name, array_size) {
        def_ = def;
        has_def_ = true;
    }
    InputScalarBase(const std::string &name, int array_size, const T &def, const T &min, const T &max)
        : InputScalarBase(name, array_size, def) {
        min_ = scalar_constant(min);
        max_ = scalar_constant(max);
    }
    void init() override {
        if (bound_) {
            check_bound_types(exprs_);
            return;
        }
        size_t n = checked_count(false);
        for (size_t i = params_.size(); i < n; i++) {
            params_.emplace_back(array_name(i));
            Param<T> &p = params_.back();
            if (has_def_) {
                p.set(def_);
                set_default_of_param(p, scalar_constant(def_));
            }
            if (min_.defined() || max_.defined()) {
                p.set_range(min_, max_);
            }
            exprs_.push_back(p);
        }
        apply_estimate();
    }
    std::vector<Argument> arguments() const override { return std::vector<Argument>(params_.begin(), params_.end()); }
    using GeneratorIOBase::bind;
    void bind(const std::vector<Expr> &values) override {
        bind_count(values.size());
        exprs_ = values;
        bound_ = true;
    }
    void set_default_from_string(const std::string &value) override {
        def_ = parse_scalar<T>(name(), value);
        has_def_ = true;
    }
    // The value the metadata suggests for tuning (all elements of an array).
    void set_estimate(const T &v) {
        estimate_ = v;
        has_estimate_ = true;
        apply_estimate();
    }

protected:
    const Expr &expr(size_t i) const {
        check_initialized(!exprs_.empty());
        return exprs_.at(i);
    }
    void apply_estimate() {
        for (Param<T> &p : params_) {
            if (has_estimate_) {
                p.set_estimate(estimate_);
            }
        }
    }
    std::vector<Param<T>> params_;
    std::vector<Expr> exprs_;
    T def_{}, estimate_{};
    bool has_def_ = false, has_estimate_ = false, bound_ = false;
    Expr min_, max_;
};

template <typename T> class InputScalarOne : public InputScalarBase<T> {
public:
    using InputScalarBase<T>::InputScalarBase;
    operator Expr() const { return this->expr(0); }
};

template <typename T> class InputScalarArray : public InputScalarBase<T> {
public:
    using InputScalarBase<T>::InputScalarBase;
    size_t size() const { return this->checked_count(false); }
    const Expr &operator[](size_t i) const { return this->expr(i); }
    const Expr &at(size_t i) const { return this->expr(i); }
    std::vector<Expr>::const_iterator begin() const {
        this->check_initialized(!this->exprs_.empty());
        return this->exprs_.begin();
    }
    std::vector<Expr>::const_iterator end() const {
        this->check_initialized(!this->exprs_.empty());
        return this->exprs_.end();
    }
};

// Input<Expr>: one scalar argument whose type is set by NAME.type or by
// set_type() in configure() (add_input<Expr>(name, type) does that).
class InputExprBase : public GeneratorIOBase {
public:
    explicit InputExprBase(const std::string &name) : GeneratorIOBase(name, true, 0, {}, 0, true) {}
    void init() override;
    std::vector<Argument> arguments() const override;
    using GeneratorIOBase::bind;
    void bind(const std::vector<Expr> &values) override;
    void set_default_from_string(const std::string &value) override;
    operator Expr() const;
    // The value the metadata suggests for tuning.
    void set_estimate(const Expr &value);

private:
    std::vector<Param<void>> params_; // one, once init() ran
    Expr estimate_, bound_;
};

// Output<Buffer<T>> and Output<Func>: a Func (define and schedule it as
// one), checked against the declaration once generate() ran. Assigning a
// Func makes it the output; the argument keeps the Output's name.
class OutputBufferBase : public GeneratorIOBase, public Func {
public:
    OutputBufferBase(const std::string &name, const std::vector<Type> &types, int dims);
    void init() override {}
    std::vector<Func> output_funcs() const override;
    using GeneratorIOBase::name; // the Output's name, even once a Func is assigned
    using Func::operator();
    using Func::type;

protected:
    void assign(const Func &f);
};

// Output<Buffer<T>[]> and Output<Func[]>: a Func per element, NAME_i.
class OutputArrayBase : public GeneratorIOBase {
public:
    OutputArrayBase(const std::string &name, int array_size, const std::vector<Type> &types, int dims);
    void init() override;
    std::vector<Func> output_funcs() const override;
    size_t size() const;
    Func &operator[](size_t i);
    const Func &operator[](size_t i) const;
    Func &at(size_t i) { return (*this)[i]; }
    const Func &at(size_t i) const { return (*this)[i]; }
    std::vector<Func>::const_iterator begin() const;
    std::vector<Func>::const_iterator end() const;
    // The expected region of every element, for the metadata.
    void set_estimates(const Region &estimates);

protected:
    // T[] only: the size, when not given by NAME.size.
    void resize_array(size_t n);
    bool initialized_ = false;
    std::vector<Func> funcs_;
};

// An Output<Buffer<T>> of a generator a stub built: it may be assigned to
// an Output<Buffer> of the calling generator, or realized (JIT); it is not
// a Func to call (as upstream's).
class StubOutputBufferBase : public RealizesForGeneratorTarget<StubOutputBufferBase> {
protected:
    friend class RealizesForGeneratorTarget<StubOutputBufferBase>;
    Func realizable() const { return f_; }

    StubOutputBufferBase() = default;
    StubOutputBufferBase(const Func &f, const std::shared_ptr<GeneratorBase> &generator)
        : f_(f), generator_(generator) {}
    // The target of the generator that made it.
    Target get_target() const;

    template <typename U> friend class Halide::Output;
    Func f_;
    std::shared_ptr<GeneratorBase> generator_;
};

template <typename T = void> class StubOutputBuffer : public StubOutputBufferBase {
public:
    StubOutputBuffer() = default;
    // One per Func of `funcs` (an Output's elements), made by `generator`.
    static std::vector<StubOutputBuffer<T>> to_output_buffers(const std::vector<Func> &funcs,
                                                              const std::shared_ptr<GeneratorBase> &generator) {
        std::vector<StubOutputBuffer<T>> r;
        for (const Func &f : funcs) {
            r.push_back(StubOutputBuffer<T>(f, generator));
        }
        return r;
    }

private:
    StubOutputBuffer(const Func &f, const std::shared_ptr<GeneratorBase> &generator)
        : StubOutputBufferBase(f, generator) {}
};

// The element type a Buffer<T> declares; none (empty) for Buffer<>.
template <typename T> std::vector<Type> declared_types() {
    if constexpr (std::is_void<T>::value) {
        return {};
    } else {
        return {type_of<T>()};
    }
}

} // namespace Internal

// ---------------------------------------------------------------- inputs

template <typename T, int D> class Input<Buffer<T, D>> : public Internal::InputBufferOne {
public:
    explicit Input(const std::string &name) : InputBufferOne(name, 0, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, int dims) : InputBufferOne(name, 0, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, const Type &t, int dims) : InputBufferOne(name, 0, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, const Type &t) : InputBufferOne(name, 0, {t}, D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    // For a stub's Inputs: the caller's buffer argument, read by the stub's generator.
    template <typename T2, int D2> operator Internal::StubInputBuffer<T2, D2>() const {
        return Internal::StubInputBuffer<T2, D2>(param().parameter());
    }
};

template <typename T, int D> class Input<Buffer<T, D>[]> : public Internal::InputBufferArray {
public:
    explicit Input(const std::string &name) : InputBufferArray(name, -1, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, int dims) : InputBufferArray(name, -1, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, const Type &t, int dims) : InputBufferArray(name, -1, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, const Type &t) : InputBufferArray(name, -1, {t}, D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(size_t size, const std::string &name) : InputBufferArray(name, (int)size, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(size_t size, const std::string &name, int dims)
        : InputBufferArray(name, (int)size, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(size_t size, const std::string &name, const Type &t, int dims)
        : InputBufferArray(name, (int)size, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
};

template <typename T, int D, size_t N> class Input<Buffer<T, D>[N]> : public Internal::InputBufferArray {
public:
    explicit Input(const std::string &name) : InputBufferArray(name, (int)N, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, int dims) : InputBufferArray(name, (int)N, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Input(const std::string &name, const Type &t, int dims) : InputBufferArray(name, (int)N, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
};

template <> class Input<Func> : public Internal::InputBufferOne {
public:
    explicit Input(const std::string &name) : InputBufferOne(name, 0, {}, -1) {}
    Input(const std::string &name, const Type &t, int dims) : InputBufferOne(name, 0, {t}, dims) {}
    Input(const std::string &name, const Type &t) : InputBufferOne(name, 0, {t}, -1) {}
    Input(const std::string &name, int dims) : InputBufferOne(name, 0, {}, dims) {}
};

template <> class Input<Func[]> : public Internal::InputFuncArray {
public:
    explicit Input(const std::string &name) : InputFuncArray(name, -1, {}, -1) {}
    Input(const std::string &name, const Type &t, int dims) : InputFuncArray(name, -1, {t}, dims) {}
    Input(const std::string &name, const Type &t) : InputFuncArray(name, -1, {t}, -1) {}
    Input(const std::string &name, int dims) : InputFuncArray(name, -1, {}, dims) {}
    Input(size_t size, const std::string &name, const Type &t, int dims) : InputFuncArray(name, (int)size, {t}, dims) {}
};

template <size_t N> class Input<Func[N]> : public Internal::InputFuncArray {
public:
    explicit Input(const std::string &name) : InputFuncArray(name, (int)N, {}, -1) {}
    Input(const std::string &name, const Type &t, int dims) : InputFuncArray(name, (int)N, {t}, dims) {}
    Input(const std::string &name, int dims) : InputFuncArray(name, (int)N, {}, dims) {}
};

template <typename T> class Input : public Internal::InputScalarOne<T> {
    static_assert(std::is_arithmetic<T>::value, "Input<T> takes a scalar type, Buffer<T>, Func or an array of them");

public:
    explicit Input(const std::string &name) : Internal::InputScalarOne<T>(name, 0) {}
    Input(const std::string &name, const T &def) : Internal::InputScalarOne<T>(name, 0, def) {}
    Input(const std::string &name, const T &def, const T &min, const T &max)
        : Internal::InputScalarOne<T>(name, 0, def, min, max) {}
};

template <> class Input<Expr> : public Internal::InputExprBase {
public:
    explicit Input(const std::string &name) : InputExprBase(name) {}
};

template <typename T> class Input<T[]> : public Internal::InputScalarArray<T> {
    static_assert(std::is_arithmetic<T>::value, "Input<T[]> takes a scalar type, Buffer<T> or Func");

public:
    explicit Input(const std::string &name) : Internal::InputScalarArray<T>(name, -1) {}
    Input(const std::string &name, const T &def) : Internal::InputScalarArray<T>(name, -1, def) {}
    Input(const std::string &name, const T &def, const T &min, const T &max)
        : Internal::InputScalarArray<T>(name, -1, def, min, max) {}
    Input(size_t size, const std::string &name) : Internal::InputScalarArray<T>(name, (int)size) {}
    Input(size_t size, const std::string &name, const T &def) : Internal::InputScalarArray<T>(name, (int)size, def) {}
    Input(size_t size, const std::string &name, const T &def, const T &min, const T &max)
        : Internal::InputScalarArray<T>(name, (int)size, def, min, max) {}
};

template <typename T, size_t N> class Input<T[N]> : public Internal::InputScalarArray<T> {
    static_assert(std::is_arithmetic<T>::value, "Input<T[N]> takes a scalar type, Buffer<T> or Func");

public:
    explicit Input(const std::string &name) : Internal::InputScalarArray<T>(name, (int)N) {}
    Input(const std::string &name, const T &def) : Internal::InputScalarArray<T>(name, (int)N, def) {}
    Input(const std::string &name, const T &def, const T &min, const T &max)
        : Internal::InputScalarArray<T>(name, (int)N, def, min, max) {}
};

// ---------------------------------------------------------------- outputs

template <typename T, int D> class Output<Buffer<T, D>> : public Internal::OutputBufferBase {
public:
    explicit Output(const std::string &name) : OutputBufferBase(name, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, int dims) : OutputBufferBase(name, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const Type &t, int dims) : OutputBufferBase(name, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const std::vector<Type> &types, int dims) : OutputBufferBase(name, types, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const std::vector<Type> &types) : OutputBufferBase(name, types, D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output &operator=(const Func &f) {
        assign(f);
        return *this;
    }
    // The output of a generator built by a stub becomes this Output.
    template <typename T2> Output &operator=(const Internal::StubOutputBuffer<T2> &stub_output) {
        assign(stub_output.f_);
        return *this;
    }
};

template <> class Output<Func> : public Internal::OutputBufferBase {
public:
    explicit Output(const std::string &name) : OutputBufferBase(name, {}, -1) {}
    Output(const std::string &name, int dims) : OutputBufferBase(name, {}, dims) {}
    Output(const std::string &name, const Type &t) : OutputBufferBase(name, {t}, -1) {}
    Output(const std::string &name, const Type &t, int dims) : OutputBufferBase(name, {t}, dims) {}
    Output(const std::string &name, const std::vector<Type> &types) : OutputBufferBase(name, types, -1) {}
    Output(const std::string &name, const std::vector<Type> &types, int dims) : OutputBufferBase(name, types, dims) {}
    Output &operator=(const Func &f) {
        assign(f);
        return *this;
    }
};

template <typename T, int D> class Output<Buffer<T, D>[]> : public Internal::OutputArrayBase {
public:
    explicit Output(const std::string &name) : OutputArrayBase(name, -1, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, int dims) : OutputArrayBase(name, -1, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const Type &t, int dims) : OutputArrayBase(name, -1, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const std::vector<Type> &types, int dims) : OutputArrayBase(name, -1, types, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(size_t size, const std::string &name) : OutputArrayBase(name, (int)size, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(size_t size, const std::string &name, int dims)
        : OutputArrayBase(name, (int)size, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    // Sets the size in generate(), if NAME.size did not.
    void resize(size_t size) { resize_array(size); }
};

template <typename T, int D, size_t N> class Output<Buffer<T, D>[N]> : public Internal::OutputArrayBase {
public:
    explicit Output(const std::string &name) : OutputArrayBase(name, (int)N, Internal::declared_types<T>(), D) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, int dims) : OutputArrayBase(name, (int)N, Internal::declared_types<T>(), dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
    Output(const std::string &name, const Type &t, int dims) : OutputArrayBase(name, (int)N, {t}, dims) {
        set_buffer_form(Internal::declared_types<T>());
    }
};

template <> class Output<Func[]> : public Internal::OutputArrayBase {
public:
    explicit Output(const std::string &name) : OutputArrayBase(name, -1, {}, -1) {}
    Output(const std::string &name, int dims) : OutputArrayBase(name, -1, {}, dims) {}
    Output(const std::string &name, const Type &t, int dims) : OutputArrayBase(name, -1, {t}, dims) {}
    Output(const std::string &name, const std::vector<Type> &types, int dims)
        : OutputArrayBase(name, -1, types, dims) {}
    Output(size_t size, const std::string &name, const Type &t, int dims)
        : OutputArrayBase(name, (int)size, {t}, dims) {}
    Output(size_t size, const std::string &name, const std::vector<Type> &types, int dims)
        : OutputArrayBase(name, (int)size, types, dims) {}
    // Sets the size in generate(), if NAME.size did not.
    void resize(size_t size) { resize_array(size); }
};

// Output<T> for a scalar type T: a Func of zero dimensions (out() = ...),
// written into a zero-dimensional buffer.
template <typename T> class Output : public Internal::OutputBufferBase {
    static_assert(std::is_arithmetic<T>::value, "Output<T> takes a scalar type, Buffer<T>, Func or an array of them");

public:
    explicit Output(const std::string &name) : OutputBufferBase(name, {type_of<T>()}, 0) {}
    Output &operator=(const Func &f) {
        assign(f);
        return *this;
    }
};

template <typename T> class Output<T[]> : public Internal::OutputArrayBase {
    static_assert(std::is_arithmetic<T>::value, "Output<T[]> takes a scalar type, Buffer<T> or Func");

public:
    explicit Output(const std::string &name) : OutputArrayBase(name, -1, {type_of<T>()}, 0) {}
    Output(size_t size, const std::string &name) : OutputArrayBase(name, (int)size, {type_of<T>()}, 0) {}
    // Sets the size in generate(), if NAME.size did not.
    void resize(size_t size) { resize_array(size); }
};

template <typename T, size_t N> class Output<T[N]> : public Internal::OutputArrayBase {
    static_assert(std::is_arithmetic<T>::value, "Output<T[N]> takes a scalar type, Buffer<T> or Func");

public:
    explicit Output(const std::string &name) : OutputArrayBase(name, (int)N, {type_of<T>()}, 0) {}
};

template <size_t N> class Output<Func[N]> : public Internal::OutputArrayBase {
public:
    explicit Output(const std::string &name) : OutputArrayBase(name, (int)N, {}, -1) {}
    Output(const std::string &name, int dims) : OutputArrayBase(name, (int)N, {}, dims) {}
    Output(const std::string &name, const Type &t, int dims) : OutputArrayBase(name, (int)N, {t}, dims) {}
    Output(const std::string &name, const std::vector<Type> &types, int dims)
        : OutputArrayBase(name, (int)N, types, dims) {}
};

} // namespace Halide

#endif
