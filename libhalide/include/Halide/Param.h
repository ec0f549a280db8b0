// Halide::Param<T> (a scalar argument) and Halide::ImageParam (a buffer
// argument): values supplied when the pipeline runs.
#ifndef HALIDE_PARAM_H
#define HALIDE_PARAM_H

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Expr.h"
#include "Halide/IROperator.h"
#include "Halide/Parameter.h"

namespace Halide {

namespace Internal {
struct ParamContents;
std::shared_ptr<ParamContents> make_param(const std::string &name, Type type);
const std::string &param_name(const ParamContents &p);
Type param_type(const ParamContents &p);
void set_param_value(ParamContents &p, const void *value, size_t bytes);
void set_param_range(ParamContents &p, const Expr &min, const Expr &max);
// The default and estimate ahead-of-time metadata reports (scalar_def, scalar_estimate).
void set_param_default(ParamContents &p, const Expr &value);
void set_param_estimate(ParamContents &p, const Expr &value);
// A constant of C++ scalar type T.
template <typename T> Expr scalar_constant(T v) {
    if constexpr (std::is_floating_point<T>::value) {
        return make_const(type_of<T>(), (double)v);
    } else if constexpr (std::is_unsigned<T>::value) {
        return make_const(type_of<T>(), (uint64_t)v);
    } else {
        return make_const(type_of<T>(), (int64_t)v);
    }
}
Expr param_expr(const ParamContents &p);
// Param<void>'s value, range and estimate: `value` must be a constant that
// the Param's type holds exactly (a user error names the Param otherwise).
// `text` is the value as the user wrote it, for the message.
void set_param_constant(ParamContents &p, const Expr &value, const std::string &text);
void set_param_estimate_constant(ParamContents &p, const Expr &value, const std::string &text);
template <typename V> std::string value_text(V v) {
    if constexpr (std::is_same<V, bool>::value) {
        return v ? "true" : "false";
    } else {
        std::ostringstream s;
        s.precision(17);
        s << +v;
        return s.str();
    }
}
// The constant `v` as type `t`, or an undefined Expr if `t` can't hold it exactly.
Expr exact_constant(Type t, int64_t v);
Expr exact_constant(Type t, uint64_t v);
Expr exact_constant(Type t, double v);
template <typename V> Expr exact_constant_of(Type t, V v) {
    static_assert(std::is_arithmetic<V>::value, "a Param's value is a number or a bool");
    if constexpr (std::is_same<V, bool>::value) {
        return exact_constant(t, (int64_t)v);
    } else if constexpr (std::is_floating_point<V>::value) {
        return exact_constant(t, (double)v);
    } else if constexpr (std::is_unsigned<V>::value) {
        return exact_constant(t, (uint64_t)v);
    } else {
        return exact_constant(t, (int64_t)v);
    }
}
Expr param_min_value(const ParamContents &p);
// The current value's bytes (as set_param_value stored them).
const void *param_value_address(const ParamContents &p);
// The bound, cast to the Param's type (undefined: no bound).
void set_param_min_value(ParamContents &p, const Expr &min);
void set_param_max_value(ParamContents &p, const Expr &max);
Expr param_max_value(const ParamContents &p);
// The Param as an argument, with its range and estimate (no default: as
// upstream, only infer_arguments reports the value).
Argument param_argument(const ParamContents &p);
// The Param's current value as a constant of its type.
Expr param_value(const ParamContents &p);
} // namespace Internal

template <typename T = void> class Param {
public:
    Param() : Param(std::string()) {}
    explicit Param(const std::string &name) : p_(Internal::make_param(name, type_of<T>())) {}
    explicit Param(const char *name) : Param(std::string(name)) {}
    // Param<int> p(42): unnamed, holding a value (not for pointer types, whose
    // value would be taken for a name).
    template <typename T2 = T, typename = std::enable_if_t<!std::is_pointer<T2>::value>>
    explicit Param(T value) : Param() {
        set(value);
    }
    Param(T value, const Expr &min, const Expr &max) : Param() {
        set_range(min, max);
        set(value);
    }
    Param(const std::string &name, T value) : Param(name) { set(value); }
    Param(const std::string &name, T value, const Expr &min, const Expr &max) : Param(name, value) {
        set_range(min, max);
    }
    void set(T value) { Internal::set_param_value(*p_, &value, sizeof(T)); }
    // The value given to set() (or the constructor).
    T get() const {
        T value;
        std::memcpy((void *)&value, Internal::param_value_address(*p_), sizeof(T));
        return value;
    }
    // Checked when the pipeline runs; cast to T; an undefined Expr means no bound.
    void set_range(const Expr &min, const Expr &max) {
        set_min_value(min);
        set_max_value(max);
    }
    void set_min_value(const Expr &min) { Internal::set_param_min_value(*p_, min); }
    void set_max_value(const Expr &max) { Internal::set_param_max_value(*p_, max); }
    Expr min_value() const { return Internal::param_min_value(*p_); }
    Expr max_value() const { return Internal::param_max_value(*p_); }
    void set_estimate(T value) { Internal::set_param_estimate(*p_, Internal::scalar_constant(value)); }
    const std::string &name() const { return Internal::param_name(*p_); }
    Type type() const { return type_of<T>(); }
    operator Expr() const { return Internal::param_expr(*p_); }
    operator Argument() const { return Internal::param_argument(*p_); }
    // The argument behind it (upstream returns a reference; a copy is the same handle).
    Parameter parameter() const { return Parameter(p_); }

private:
    std::shared_ptr<Internal::ParamContents> p_;
};

// Param<void> (Param<>): a scalar argument whose type is chosen at run time,
// what the Python bindings offer as hl.Param. Values are converted to the
// type, and refused when the conversion would change them.
template <> class Param<void> {
public:
    explicit Param(Type t) : Param(t, std::string()) {}
    Param(Type t, const std::string &name) : p_(Internal::make_param(name, t)) {}
    template <typename V> Param(Type t, const std::string &name, V value) : Param(t, name) { set(value); }
    template <typename V>
    Param(Type t, const std::string &name, V value, const Expr &min, const Expr &max) : Param(t, name, value) {
        set_range(min, max);
    }
    template <typename V> void set(const V &value) {
        Internal::set_param_constant(*p_, Internal::exact_constant_of(type(), value), Internal::value_text(value));
    }
    template <typename V> void set_estimate(const V &value) {
        Internal::set_param_estimate_constant(*p_, Internal::exact_constant_of(type(), value),
                                              Internal::value_text(value));
    }
    // Checked when the pipeline runs; an undefined Expr means no bound.
    void set_range(const Expr &min, const Expr &max) {
        set_min_value(min);
        set_max_value(max);
    }
    void set_min_value(const Expr &min) { Internal::set_param_min_value(*p_, min); }
    void set_max_value(const Expr &max) { Internal::set_param_max_value(*p_, max); }
    Expr min_value() const { return Internal::param_min_value(*p_); }
    Expr max_value() const { return Internal::param_max_value(*p_); }
    const std::string &name() const { return Internal::param_name(*p_); }
    Type type() const { return Internal::param_type(*p_); }
    operator Expr() const { return Internal::param_expr(*p_); }
    operator Argument() const { return Internal::param_argument(*p_); }
    Parameter parameter() const { return Parameter(p_); }

private:
    std::shared_ptr<Internal::ParamContents> p_;
};

namespace Internal {
// One dimension of an ImageParam or of a Func's output buffer: its fields
// as expressions, which take the values of the buffer passed when the
// pipeline runs, and what the user requires of them. By default only the
// innermost stride is required (to be 1); set_stride(Expr()) lifts that,
// so a strided view (every other column, one channel of an interleaved
// image) is accepted, at the cost of strided loads and stores.
class Dimension {
public:
    Dimension(std::shared_ptr<InputBufferContents> buffer, int d);
    Expr min() const;
    Expr extent() const;
    Expr max() const;
    Expr stride() const;
    // Checked when the pipeline runs (an undefined Expr removes the
    // requirement); a constant one is also assumed by the generated code.
    Dimension set_min(const Expr &min);
    Dimension set_extent(const Expr &extent);
    Dimension set_stride(const Expr &stride);
    Dimension set_bounds(const Expr &min, const Expr &extent);
    // The expected region of this dimension, for ahead-of-time metadata.
    Dimension set_estimate(const Expr &min, const Expr &extent);
    // Another dimension of the same buffer.
    Dimension dim(int i) const;

private:
    Expr field(const char *name) const;
    void changed();
    std::shared_ptr<InputBufferContents> buffer_;
    int d_;
};
} // namespace Internal

namespace Internal {
// Upstream's shorthands over a buffer's dim(i), for every class with one
// (OutputImageParam, a generator's Input<Buffer>): left/right/width over
// dim(0), top/bottom/height over dim(1), channels is dim(2).extent().
template <typename Self> class BufferShapeShorthands {
public:
    Expr left() const { return self().dim(0).min(); }
    Expr right() const { return self().dim(0).max(); }
    Expr top() const { return self().dim(1).min(); }
    Expr bottom() const { return self().dim(1).max(); }
    Expr width() const { return self().dim(0).extent(); }
    Expr height() const { return self().dim(1).extent(); }
    Expr channels() const { return self().dim(2).extent(); }

private:
    const Self &self() const { return static_cast<const Self &>(*this); }
};
} // namespace Internal

// A buffer argument of a pipeline: its name, type, dimensions and the
// expressions for its shape. ImageParam (an input) is the one kind the
// compiler makes today; a default-constructed one is undefined.
class Func;
class OutputImageParam : public Internal::BufferShapeShorthands<OutputImageParam> {
public:
    OutputImageParam() = default;
    bool defined() const { return contents_ != nullptr; }
    const std::string &name() const;
    Type type() const;
    int dimensions() const;
    // dim(i).min(), .extent(), .max(), .stride(): usable in the algorithm
    // (say, to clamp to the image) of a pipeline that reads this buffer.
    Internal::Dimension dim(int i) const;
    // The region this buffer is expected to cover (constants), reported in
    // ahead-of-time metadata (buffer_estimates).
    OutputImageParam &set_estimates(const Region &estimates);
    // The alignment in bytes the buffer's host pointer is required to have
    // (checked when the pipeline runs); by default the type's size, unchecked.
    int host_alignment() const;
    OutputImageParam &set_host_alignment(int bytes);
    // The kind of memory the buffer is in: recorded, as upstream's (on a
    // CPU target every kind is host memory).
    OutputImageParam &store_in(MemoryType memory_type);
    // left(), right(), top(), bottom(), width(), height(), channels():
    // BufferShapeShorthands.
    // With the estimates of set_estimates() as argument_estimates.
    operator Argument() const;
    // The buffer argument behind it.
    Parameter parameter() const;

protected:
    friend class Func;
    friend class Parameter;
    OutputImageParam(std::shared_ptr<Internal::InputBufferContents> contents, Argument::Kind kind)
        : contents_(std::move(contents)), kind_(kind) {}
    void check_defined() const;
    std::shared_ptr<Internal::InputBufferContents> contents_;
    Argument::Kind kind_ = Argument::InputBuffer;
};

class ImageParam;
namespace Internal {
// What an ImageParam is bound to: the buffer, and whatever else must stay
// alive while the pipeline may read it (the Python object of a NumPy array).
struct BoundImage {
    Buffer<> buffer;
    std::shared_ptr<void> owner;
};
void bind_image_param(ImageParam &p, const Buffer<> &b, std::shared_ptr<void> owner);
void bind_input_buffer(InputBufferContents &c, const Buffer<> &b, std::shared_ptr<void> owner);
} // namespace Internal

class ImageParam : public OutputImageParam {
public:
    ImageParam() = default;
    ImageParam(Type t, int dimensions, const std::string &name = "");
    ImageParam &set_estimates(const Region &estimates) {
        OutputImageParam::set_estimates(estimates);
        return *this;
    }
    // What the pipeline reads when it runs.
    template <typename T, int D> void set(const Buffer<T, D> &b) { set(Buffer<>(b)); }
    void set(const Buffer<> &b) { Internal::bind_image_param(*this, b, nullptr); }
    // The buffer given to set(), or an undefined Buffer.
    Buffer<> get() const;
    // Forgets the buffer given to set().
    void reset();
    template <typename... Args> Expr operator()(const Args &...pos) const { return call({Expr(pos)...}); }
    Expr operator()(const std::vector<Expr> &pos) const { return call(pos); }
    // Wrappers, as Func::in: a Func w(x, ...) = this(x, ...) that
    // `consumer` (each of `consumers`; with no argument, every Func) reads
    // instead of the buffer, to be scheduled on its own. Asking again for
    // the same consumers returns the same wrapper.
    Func in(const Func &consumer);
    Func in(const std::vector<Func> &consumers);
    Func in();
    // The buffer as a Func name_im(_0, _1, ...) = this(_0, _1, ...), the
    // same Func on every conversion (so it can be scheduled); calls of the
    // ImageParam itself still load from the buffer.
    operator Func() const;
    // Traces every load from this buffer (as Func::trace_loads: events
    // named after the ImageParam), and adds a tag event of it.
    void trace_loads();
    ImageParam &add_trace_tag(const std::string &trace_tag);

private:
    friend void Internal::bind_image_param(ImageParam &p, const Buffer<> &b, std::shared_ptr<void> owner);
    Expr call(const std::vector<Expr> &pos) const;
};

} // namespace Halide

#endif
