// Halide::Parameter: a handle on the argument behind a Param or an
// ImageParam (a scalar or a buffer), as upstream's Param::parameter() and
// ImageParam::parameter() return it. Copies refer to the same argument.
#ifndef HALIDE_PARAMETER_H
#define HALIDE_PARAMETER_H

#include <memory>
#include <string>

#include "Halide/Expr.h"
#include "Halide/Type.h"

namespace Halide {

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

    // Scalars: the current value as a constant (as upstream; a Param never
    // set is 0), and its range, estimate and default (undefined when not set).
    Expr scalar_expr() const;
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

    const std::shared_ptr<Internal::ParamContents> &scalar_contents() const { return scalar_; }
    const std::shared_ptr<Internal::InputBufferContents> &buffer_contents() const { return buffer_; }

private:
    void check_scalar(const char *what) const;
    void check_buffer(const char *what, int dim = 0) const;
    std::shared_ptr<Internal::ParamContents> scalar_;
    std::shared_ptr<Internal::InputBufferContents> buffer_;
};

} // namespace Halide

#endif
