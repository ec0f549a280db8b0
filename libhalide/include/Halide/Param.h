// Halide::Param<T> (a scalar argument) and Halide::ImageParam (a buffer
// argument): values supplied when the pipeline runs.
#ifndef HALIDE_PARAM_H
#define HALIDE_PARAM_H

#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Expr.h"
#include "Halide/IROperator.h"

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
} // namespace Internal

template <typename T = void> class Param {
    static_assert(!std::is_void<T>::value, "use Param<T> with a scalar type");

public:
    Param() : Param(std::string()) {}
    explicit Param(const std::string &name) : p_(Internal::make_param(name, type_of<T>())) {}
    Param(const std::string &name, T value) : Param(name) { set(value); }
    Param(const std::string &name, T value, const Expr &min, const Expr &max) : Param(name, value) {
        set_range(min, max);
    }
    void set(T value) { Internal::set_param_value(*p_, &value, sizeof(T)); }
    void set_range(const Expr &min, const Expr &max) { Internal::set_param_range(*p_, min, max); }
    void set_estimate(T value) { Internal::set_param_estimate(*p_, Internal::scalar_constant(value)); }
    const std::string &name() const { return Internal::param_name(*p_); }
    Type type() const { return type_of<T>(); }
    operator Expr() const { return Internal::param_expr(*p_); }
    operator Argument() const { return Argument(name(), Argument::InputScalar, type(), 0); }

private:
    std::shared_ptr<Internal::ParamContents> p_;
};

namespace Internal {
// One dimension of an ImageParam: its fields as expressions, which take
// the values of the buffer passed when the pipeline runs.
class Dimension {
public:
    Dimension(const std::string &buffer, int d) : buffer_(buffer), d_(d) {}
    Expr min() const;
    Expr extent() const;
    Expr max() const;
    Expr stride() const;

private:
    Expr field(const char *name) const;
    std::string buffer_;
    int d_;
};
} // namespace Internal

class ImageParam {
public:
    ImageParam() = default;
    ImageParam(Type t, int dimensions, const std::string &name = "");
    bool defined() const { return contents_ != nullptr; }
    // The region this input is expected to cover (constants), reported in
    // ahead-of-time metadata (buffer_estimates).
    ImageParam &set_estimates(const Region &estimates);
    const std::string &name() const;
    Type type() const;
    int dimensions() const;
    // dim(i).min(), .extent(), .max(), .stride(): usable in the algorithm
    // (say, to clamp to the image) of a pipeline that reads this ImageParam.
    Internal::Dimension dim(int i) const;
    // What the pipeline reads when it runs.
    template <typename T, int D> void set(const Buffer<T, D> &b) {
        set_raw(b.raw_buffer(), std::static_pointer_cast<void>(std::make_shared<Buffer<T, D>>(b)), b.type(),
                b.dimensions());
    }
    operator Argument() const { return Argument(name(), Argument::InputBuffer, type(), dimensions()); }
    template <typename... Args> Expr operator()(const Args &...pos) const { return call({Expr(pos)...}); }
    Expr operator()(const std::vector<Expr> &pos) const { return call(pos); }

private:
    Expr call(const std::vector<Expr> &pos) const;
    void set_raw(halide_buffer_t *raw, std::shared_ptr<void> owner, Type t, int dims);
    std::shared_ptr<Internal::InputBufferContents> contents_;
};

} // namespace Halide

#endif
