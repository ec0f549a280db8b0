// See Parameter.h: one handle over the two kinds of argument contents.
#include "Halide/Parameter.h"

#include "Halide/Buffer.h"
#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "Halide/Param.h"
#include "ParamValues.h"
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

void Parameter::check_buffer(const char *what) const {
    user_assert(defined()) << "Parameter::" << what << " of an undefined Parameter";
    user_assert(buffer_) << "Parameter::" << what << " applies to a buffer parameter; '" << name() << "' is a scalar";
}

void Parameter::check_buffer(const char *what, int dim) const {
    check_buffer(what);
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
    check_param_has_value(*scalar_);
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

bool Parameter::has_scalar_value() const {
    return defined() && !is_buffer() && param_has_value(*scalar_);
}

halide_scalar_value_t Parameter::scalar_data(const Type &as) const {
    check_scalar("scalar");
    user_assert(as == scalar_->type) << "Parameter::scalar: '" << name() << "' has type "
                                     << type_to_string(scalar_->type) << ", not " << type_to_string(as);
    check_param_has_value(*scalar_);
    return scalar_->value;
}

void Parameter::set_scalar(const Type &value_type, halide_scalar_value_t value) {
    check_scalar("set_scalar");
    user_assert(value_type == scalar_->type) << "Parameter::set_scalar: '" << name() << "' has type "
                                             << type_to_string(scalar_->type) << ", not " << type_to_string(value_type);
    set_param_value(*scalar_, &value, sizeof(value));
}

Expr Parameter::min_constraint_estimate(int dim) const {
    check_buffer("min_constraint_estimate", dim);
    return (size_t)dim < buffer_->estimates.size() ? buffer_->estimates[(size_t)dim].min : Expr();
}
Expr Parameter::extent_constraint_estimate(int dim) const {
    check_buffer("extent_constraint_estimate", dim);
    return (size_t)dim < buffer_->estimates.size() ? buffer_->estimates[(size_t)dim].extent : Expr();
}
// Estimates are kept as a Region: the other half of an unset dimension stays undefined.
void Parameter::set_min_constraint_estimate(int dim, const Expr &min) {
    check_buffer("set_min_constraint_estimate", dim);
    buffer_->estimates.resize((size_t)buffer_->dimensions);
    buffer_->estimates[(size_t)dim].min = min.defined() ? cast(Int(32), min) : min;
}
void Parameter::set_extent_constraint_estimate(int dim, const Expr &extent) {
    check_buffer("set_extent_constraint_estimate", dim);
    buffer_->estimates.resize((size_t)buffer_->dimensions);
    buffer_->estimates[(size_t)dim].extent = extent.defined() ? cast(Int(32), extent) : extent;
}

std::vector<BufferConstraint> Parameter::buffer_constraints() const {
    check_buffer("buffer_constraints");
    std::vector<BufferConstraint> result((size_t)buffer_->dimensions);
    for (int d = 0; d < buffer_->dimensions; d++) {
        const DimensionConstraint &c = buffer_->constraints[(size_t)d];
        result[(size_t)d] = {c.min, c.extent, c.stride, min_constraint_estimate(d), extent_constraint_estimate(d)};
    }
    return result;
}

Buffer<> Parameter::buffer() const {
    check_buffer("buffer");
    if (!buffer_->bound) {
        return Buffer<>();
    }
    if (buffer_->concrete) {
        // A Buffer's own contents: a view of it, kept alive by this Parameter's owner.
        return Buffer<>(Runtime::Buffer<>(*buffer_->bound), buffer_->user_name);
    }
    return std::static_pointer_cast<BoundImage>(buffer_->keep_alive)->buffer;
}

void Parameter::set_buffer(const Buffer<> &b) {
    check_buffer("set_buffer");
    user_assert(!buffer_->concrete && !buffer_->output)
        << "Parameter::set_buffer: '" << name() << "' is not an input ImageParam; only those can be rebound";
    if (!b.defined()) {
        buffer_->bound = nullptr;
        buffer_->keep_alive.reset();
        return;
    }
    bind_input_buffer(*buffer_, b, nullptr);
}

void Parameter::store_in(MemoryType memory_type) {
    check_buffer("store_in");
    buffer_->memory_type = memory_type;
}
MemoryType Parameter::memory_type() const {
    check_buffer("memory_type");
    return buffer_->memory_type;
}

void Parameter::trace_loads() {
    check_buffer("trace_loads");
    buffer_->trace_loads = true;
    mark_everything_changed(); // its consumers are not known here
}
bool Parameter::is_tracing_loads() const {
    check_buffer("is_tracing_loads");
    return buffer_->trace_loads;
}
void Parameter::add_trace_tag(const std::string &trace_tag) {
    check_buffer("add_trace_tag");
    buffer_->trace_tags.push_back(trace_tag);
    mark_everything_changed();
}
std::vector<std::string> Parameter::get_trace_tags() const {
    check_buffer("get_trace_tags");
    return buffer_->trace_tags;
}

ArgumentEstimates Parameter::get_argument_estimates() const {
    user_assert(defined()) << "Parameter::get_argument_estimates of an undefined Parameter";
    ArgumentEstimates e;
    if (buffer_) {
        e.buffer_estimates = buffer_->estimates;
        e.buffer_estimates.resize((size_t)buffer_->dimensions);
    } else {
        e.scalar_def = scalar_->default_value;
        e.scalar_min = scalar_->min_value;
        e.scalar_max = scalar_->max_value;
        e.scalar_estimate = scalar_->estimate;
    }
    return e;
}

} // namespace Halide
