// Halide::Parameter: a handle on the argument behind a Param or an
// ImageParam (a scalar or a buffer), as upstream's Param::parameter() and
// ImageParam::parameter() return it. Copies refer to the same argument.
#ifndef HALIDE_PARAMETER_H
#define HALIDE_PARAMETER_H

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Halide/Argument.h"
#include "Halide/Expr.h"
#include "Halide/Type.h"

namespace Halide {

template <typename T, int Dims> class Buffer;

// One dimension's requirements on a buffer argument, and the estimates
// tools read (undefined: none), as Parameter::buffer_constraints lists them.
struct BufferConstraint {
    Expr min, extent, stride;
    Expr min_estimate, extent_estimate;
};

namespace Internal {
struct ParamContents;
struct InputBufferContents;
} // namespace Internal

class Parameter {
public:
    // Undefined: defined() is false and the accessors are errors.
    Parameter() = default;
    // A new scalar (is_buffer false, dimensions 0) or buffer argument.
    Parameter(const Type &t, bool is_buffer, int dimensions);
    Parameter(const Type &t, bool is_buffer, int dimensions, const std::string &name);
    explicit Parameter(std::shared_ptr<Internal::ParamContents> scalar) : scalar_(std::move(scalar)) {}
    explicit Parameter(std::shared_ptr<Internal::InputBufferContents> buffer) : buffer_(std::move(buffer)) {}

    bool defined() const { return scalar_ || buffer_; }
    bool is_buffer() const;
    const std::string &name() const;
    Type type() const;
    // 0 for a scalar.
    int dimensions() const;
    bool same_as(const Parameter &other) const;
    bool operator<(const Parameter &other) const;

    // Scalars: the current value as a constant, and its range, estimate and
    // default (undefined when not set). As upstream's, a Param never given a
    // value has none: scalar_expr() and scalar<T>() are an error for it.
    Expr scalar_expr() const;
    // Whether the scalar was given a value (set, or made with one).
    bool has_scalar_value() const;
    // The current value as T, which must be the parameter's type.
    template <typename T> T scalar() const {
        static_assert(sizeof(T) <= sizeof(halide_scalar_value_t), "scalar<T>: T is too large");
        halide_scalar_value_t v = scalar_data(type_of<T>());
        T t;
        std::memcpy(&t, &v.u.u64, sizeof(t));
        return t;
    }
    // Sets the value the JIT passes: T (or `value_type`) must be the parameter's type.
    template <typename T> void set_scalar(T value) {
        static_assert(sizeof(T) <= sizeof(halide_scalar_value_t), "set_scalar<T>: T is too large");
        halide_scalar_value_t v{};
        std::memcpy(&v.u.u64, &value, sizeof(value));
        set_scalar(type_of<T>(), v);
    }
    void set_scalar(const Type &value_type, halide_scalar_value_t value);
    Expr min_value() const;
    Expr max_value() const;
    void set_min_value(const Expr &e);
    void set_max_value(const Expr &e);
    Expr estimate() const;
    void set_estimate(const Expr &e);
    Expr default_value() const;
    void set_default_value(const Expr &e);

    // Buffers: the requirements on dimension `dim` (undefined: none) and on
    // the host pointer's alignment.
    Expr min_constraint(int dim) const;
    Expr extent_constraint(int dim) const;
    Expr stride_constraint(int dim) const;
    void set_min_constraint(int dim, const Expr &e);
    void set_extent_constraint(int dim, const Expr &e);
    void set_stride_constraint(int dim, const Expr &e);
    int host_alignment() const;
    void set_host_alignment(int bytes);
    // The region a tool may assume (set_estimates), per dimension.
    Expr min_constraint_estimate(int dim) const;
    Expr extent_constraint_estimate(int dim) const;
    void set_min_constraint_estimate(int dim, const Expr &min);
    void set_extent_constraint_estimate(int dim, const Expr &extent);
    std::vector<BufferConstraint> buffer_constraints() const;
    // The buffer the JIT reads (undefined when none is bound), and binding one.
    Buffer<void, -1> buffer() const;
    void set_buffer(const Buffer<void, -1> &b);
    // Recorded only: a CPU has one kind of memory.
    void store_in(MemoryType memory_type);
    MemoryType memory_type() const;
    // Trace the buffer's loads as a Func's (ImageParam::trace_loads).
    void trace_loads();
    bool is_tracing_loads() const;
    void add_trace_tag(const std::string &trace_tag);
    std::vector<std::string> get_trace_tags() const;

    // Either kind: what tools and the metadata know of the argument's values.
    ArgumentEstimates get_argument_estimates() const;

    const std::shared_ptr<Internal::ParamContents> &scalar_contents() const { return scalar_; }
    const std::shared_ptr<Internal::InputBufferContents> &buffer_contents() const { return buffer_; }

private:
    halide_scalar_value_t scalar_data(const Type &as) const;
    void check_scalar(const char *what) const;
    void check_buffer(const char *what) const;
    void check_buffer(const char *what, int dim) const;
    std::shared_ptr<Internal::ParamContents> scalar_;
    std::shared_ptr<Internal::InputBufferContents> buffer_;
};

} // namespace Halide

#endif
