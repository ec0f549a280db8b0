// See Parameter.h: one handle over the two kinds of argument contents.
#include "Halide/Parameter.h"

#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "Halide/Param.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

Parameter::Parameter(const Type &t, bool is_buffer, int dimensions) : Parameter(t, is_buffer, dimensions, "") {}

Parameter::Parameter(const Type &t, bool is_buffer, int dimensions, const std::string &name) {
    if (is_buffer) {
        // An ImageParam's contents: registered, named and constrained as one.
        ImageParam image(t, dimensions, name);
        buffer_ = Parameter(image.parameter()).buffer_;
    } else {
        user_assert(dimensions == 0) << "Scalar Parameter '" << name << "' can't have " << dimensions << " dimensions";
        scalar_ = make_param(name, t);
    }
}

void Parameter::check_scalar(const char *what) const {
    user_assert(defined()) << "Parameter::" << what << " of an undefined Parameter";
    user_assert(scalar_) << "Parameter::" << what << " applies to a scalar parameter; '" << name() << "' is a buffer";
}

void Parameter::check_buffer(const char *what, int dim) const {
    user_assert(defined()) << "Parameter::" << what << " of an undefined Parameter";
    user_assert(buffer_) << "Parameter::" << what << " applies to a buffer parameter; '" << name() << "' is a scalar";
    user_assert(dim >= 0 && dim < buffer_->dimensions)
        << "Parameter::" << what << ": buffer '" << name() << "' has " << buffer_->dimensions
        << " dimensions; there is no dimension " << dim;
}

bool Parameter::is_buffer() const {
    user_assert(defined()) << "Parameter::is_buffer of an undefined Parameter";
    return buffer_ != nullptr;
}

const std::string &Parameter::name() const {
    user_assert(defined()) << "Parameter::name of an undefined Parameter";
    return buffer_ ? buffer_->user_name : scalar_->user_name;
}

Type Parameter::type() const {
    user_assert(defined()) << "Parameter::type of an undefined Parameter";
    return buffer_ ? buffer_->type : scalar_->type;
}

int Parameter::dimensions() const {
    user_assert(defined()) << "Parameter::dimensions of an undefined Parameter";
    return buffer_ ? buffer_->dimensions : 0;
}

bool Parameter::same_as(const Parameter &other) const {
    return scalar_ == other.scalar_ && buffer_ == other.buffer_;
}

bool Parameter::operator<(const Parameter &other) const {
    const void *a = buffer_ ? (const void *)buffer_.get() : (const void *)scalar_.get();
    const void *b = other.buffer_ ? (const void *)other.buffer_.get() : (const void *)other.scalar_.get();
    return a < b;
}

Expr Parameter::scalar_expr() const {
    check_scalar("scalar_expr");
    return param_value(*scalar_);
}
Expr Parameter::min_value() const {
    check_scalar("min_value");
    return scalar_->min_value;
}
Expr Parameter::max_value() const {
    check_scalar("max_value");
    return scalar_->max_value;
}
void Parameter::set_min_value(const Expr &e) {
    check_scalar("set_min_value");
    set_param_range(*scalar_, e.defined() && e.type() != type() ? cast(type(), e) : e, scalar_->max_value);
}
void Parameter::set_max_value(const Expr &e) {
    check_scalar("set_max_value");
    set_param_range(*scalar_, scalar_->min_value, e.defined() && e.type() != type() ? cast(type(), e) : e);
}
Expr Parameter::estimate() const {
    check_scalar("estimate");
    return scalar_->estimate;
}
void Parameter::set_estimate(const Expr &e) {
    check_scalar("set_estimate");
    set_param_estimate(*scalar_, e.defined() && e.type() != type() ? cast(type(), e) : e);
}
Expr Parameter::default_value() const {
    check_scalar("default_value");
    return scalar_->default_value;
}
void Parameter::set_default_value(const Expr &e) {
    check_scalar("set_default_value");
    set_param_default(*scalar_, e.defined() && e.type() != type() ? cast(type(), e) : e);
}

Expr Parameter::min_constraint(int dim) const {
    check_buffer("min_constraint", dim);
    return buffer_->constraints[(size_t)dim].min;
}
Expr Parameter::extent_constraint(int dim) const {
    check_buffer("extent_constraint", dim);
    return buffer_->constraints[(size_t)dim].extent;
}
Expr Parameter::stride_constraint(int dim) const {
    check_buffer("stride_constraint", dim);
    return buffer_->constraints[(size_t)dim].stride;
}
void Parameter::set_min_constraint(int dim, const Expr &e) {
    check_buffer("set_min_constraint", dim);
    Dimension(buffer_, dim).set_min(e);
}
void Parameter::set_extent_constraint(int dim, const Expr &e) {
    check_buffer("set_extent_constraint", dim);
    Dimension(buffer_, dim).set_extent(e);
}
void Parameter::set_stride_constraint(int dim, const Expr &e) {
    check_buffer("set_stride_constraint", dim);
    Dimension(buffer_, dim).set_stride(e);
}
int Parameter::host_alignment() const {
    check_buffer("host_alignment");
    return buffer_->host_alignment > 0 ? buffer_->host_alignment : buffer_->type.bytes();
}
void Parameter::set_host_alignment(int bytes) {
    check_buffer("set_host_alignment");
    OutputImageParam(buffer_, Argument::InputBuffer).set_host_alignment(bytes);
}

} // namespace Halide
