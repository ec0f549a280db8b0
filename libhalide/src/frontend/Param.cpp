// Param, ImageParam and Buffer's hooks into the compiler's registries.
#include <cmath>
#include <cstring>
#include <sstream>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IRPrinter.h"
#include "Halide/Param.h"
#include "ImplicitVars.h"
#include "ParamValues.h"
#include "lower/Function.h"

namespace Halide {
namespace Internal {

std::shared_ptr<InputBufferContents> make_buffer_contents(const std::string &name, Type type, int dims,
                                                          halide_buffer_t *raw, std::shared_ptr<void> owner) {
    auto c = std::make_shared<InputBufferContents>();
    c->name = name.empty() ? fresh_name('b') : unique_name(name);
    c->user_name = name.empty() ? c->name : name;
    c->type = type;
    c->dimensions = dims;
    c->bound = raw;
    c->keep_alive = std::move(owner);
    c->concrete = true;
    c->constraints.resize((size_t)dims);
    buffer_contents_reshaped(*c);
    register_input_buffer(c);
    return c;
}

const std::string &buffer_contents_name(const InputBufferContents &c) {
    return c.name;
}

// A Buffer's shape is known: its own innermost stride is required (and
// assumed), so a dense one gets dense loads and a strided view works.
void buffer_contents_reshaped(InputBufferContents &c) {
    if (!c.bound) {
        return;
    }
    c.dimensions = c.bound->dimensions;
    c.constraints.assign((size_t)c.dimensions, DimensionConstraint{});
    if (c.dimensions > 0) {
        c.constraints[0].stride = c.bound->dim[0].stride;
    }
}

Expr make_image_call(Type type, const std::string &name, std::vector<Expr> args) {
    auto b = find_input_buffer(name);
    internal_assert(b) << "unknown buffer " << name;
    expand_placeholder_in_call(b->user_name, b->dimensions, args);
    if ((int)args.size() != b->dimensions) {
        // Upstream's words, with the call as written.
        std::ostringstream call;
        for (size_t i = 0; i < args.size(); i++) {
            call << (i ? ", " : "") << args[i];
        }
        user_error << "Dimensionality mismatch accessing Buffer " << name << ". There were " << args.size()
                   << " arguments, but the Buffer has " << b->dimensions << " dimensions:\n  " << name << "("
                   << call.str() << ")";
    }
    for (Expr &a : args) {
        user_assert(a.defined() && (a.type().is_int() || a.type().is_uint()))
            << "Coordinates of buffer '" << name << "' must be integers";
        if (a.type() != Int(32)) {
            a = Cast::make(Int(32), a);
        }
    }
    // The call keeps the buffer alive, as a Func's call keeps the Func: an
    // ImageParam used only as a temporary is still there when a Func
    // defined with it is compiled.
    return Call::make(type, name, std::move(args), Call::Image, 0, b);
}

std::shared_ptr<ParamContents> make_param(const std::string &name, Type type) {
    auto p = std::make_shared<ParamContents>();
    p->name = name.empty() ? fresh_name('p') : unique_name(name);
    p->user_name = name.empty() ? p->name : name;
    p->type = type;
    register_param(p);
    return p;
}

const std::string &param_name(const ParamContents &p) {
    return p.user_name;
}
Type param_type(const ParamContents &p) {
    return p.type;
}

void set_param_value(ParamContents &p, const void *value, size_t bytes) {
    std::memset(&p.value, 0, sizeof(p.value));
    std::memcpy(&p.value, value, bytes);
    p.has_value = true;
}

void set_param_range(ParamContents &p, const Expr &min, const Expr &max) {
    p.min_value = min;
    p.max_value = max;
    mark_everything_changed(); // the range checks are compiled in
}

void set_param_default(ParamContents &p, const Expr &value) {
    p.default_value = value;
}

void set_param_estimate(ParamContents &p, const Expr &value) {
    p.estimate = value;
}

Expr param_expr(const ParamContents &p) {
    return Variable::make(p.type, p.name);
}

Expr param_min_value(const ParamContents &p) {
    return p.min_value;
}
Expr param_max_value(const ParamContents &p) {
    return p.max_value;
}

const void *param_value_address(const ParamContents &p) {
    check_param_has_value(p);
    return &p.value;
}

bool param_has_value(const ParamContents &p) {
    return p.has_value;
}

void check_param_has_value(const ParamContents &p) {
    user_assert(param_has_value(p)) << "Parameter " << p.user_name << " does not have a valid scalar value.";
}

// Cast to the Param's type, so the run-time check compares like with like.
void set_param_min_value(ParamContents &p, const Expr &min) {
    set_param_range(p, min.defined() && min.type() != p.type ? cast(p.type, min) : min, p.max_value);
}
void set_param_max_value(ParamContents &p, const Expr &max) {
    set_param_range(p, p.min_value, max.defined() && max.type() != p.type ? cast(p.type, max) : max);
}

Argument param_argument(const ParamContents &p) {
    ArgumentEstimates e;
    e.scalar_min = p.min_value;
    e.scalar_max = p.max_value;
    e.scalar_estimate = p.estimate;
    return Argument(p.user_name, Argument::InputScalar, p.type, 0, e);
}

Expr param_value(const ParamContents &p) {
    const halide_scalar_value_t &v = p.value;
    const Type &t = p.type;
    if (t.is_bool()) {
        return make_const(t, (int64_t)v.u.b);
    }
    if (t.is_float()) {
        return make_const(t, t.bits() == 32 ? (double)v.u.f32 : v.u.f64);
    }
    if (t.is_int()) {
        switch (t.bits()) {
        case 8: return make_const(t, (int64_t)v.u.i8);
        case 16: return make_const(t, (int64_t)v.u.i16);
        case 32: return make_const(t, (int64_t)v.u.i32);
        default: return make_const(t, v.u.i64);
        }
    }
    if (t.is_uint()) {
        switch (t.bits()) {
        case 8: return make_const(t, (uint64_t)v.u.u8);
        case 16: return make_const(t, (uint64_t)v.u.u16);
        case 32: return make_const(t, (uint64_t)v.u.u32);
        default: return make_const(t, v.u.u64);
        }
    }
    return Expr(); // a handle: no constant
}

Expr exact_constant(Type t, int64_t v) {
    if (t.is_bool()) {
        return (v == 0 || v == 1) ? make_const(t, v) : Expr();
    }
    if (t.is_float()) {
        // Exact when the value survives the round trip through the float type.
        double d = t.bits() == 32 ? (double)(float)v : (double)v;
        return (d >= -9223372036854775808.0 && d < 9223372036854775808.0 && (int64_t)d == v) ? make_const(t, d)
                                                                                             : Expr();
    }
    return t.can_represent(v) ? make_const(t, v) : Expr();
}

Expr exact_constant(Type t, uint64_t v) {
    if (t.is_uint() || t.is_bool()) {
        return t.can_represent(v) ? make_const(t, v) : Expr();
    }
    if (t.is_int() || v <= (uint64_t)INT64_MAX) {
        return v <= (uint64_t)INT64_MAX ? exact_constant(t, (int64_t)v) : Expr();
    }
    double d = t.bits() == 32 ? (double)(float)v : (double)v;
    return (d < 18446744073709551616.0 && (uint64_t)d == v) ? make_const(t, d) : Expr();
}

Expr exact_constant(Type t, double v) {
    if (t.is_float()) {
        if (t.bits() == 32 && !std::isnan(v) && (double)(float)v != v) {
            return Expr();
        }
        return make_const(t, v);
    }
    if (std::isnan(v) || v != std::trunc(v) || v < -9223372036854775808.0 || v >= 18446744073709551616.0) {
        return Expr();
    }
    return v < 0 ? exact_constant(t, (int64_t)v) : exact_constant(t, (uint64_t)v);
}

namespace {
// The constant `value` (from exact_constant: undefined if it did not fit)
// as the bits of a halide_scalar_value_t of type `t`.
halide_scalar_value_t scalar_bits(const ParamContents &p, const Expr &value, const std::string &text) {
    user_assert(value.defined()) << "The value " << text << " cannot be losslessly converted to type "
                                 << type_to_string(p.type) << " (Param '" << p.name << "')";
    user_assert(p.type.bits() != 16 || !p.type.is_float())
        << "Param '" << p.name << "': values of type " << type_to_string(p.type) << " are not supported";
    halide_scalar_value_t v{};
    const Type &t = p.type;
    if (const FloatImm *f = value.as<FloatImm>()) {
        if (t.bits() == 32) {
            v.u.f32 = (float)f->value;
        } else {
            v.u.f64 = f->value;
        }
        return v;
    }
    uint64_t bits = 0;
    if (const IntImm *i = value.as<IntImm>()) {
        bits = (uint64_t)i->value;
    } else if (const UIntImm *u = value.as<UIntImm>()) {
        bits = u->value;
    } else {
        internal_error << "exact_constant made a non-constant";
    }
    switch (t.is_bool() ? 1 : t.bits()) {
    case 1: v.u.b = bits != 0; break;
    case 8: v.u.u8 = (uint8_t)bits; break;
    case 16: v.u.u16 = (uint16_t)bits; break;
    case 32: v.u.u32 = (uint32_t)bits; break;
    default: v.u.u64 = bits; break;
    }
    return v;
}
} // namespace

void set_param_constant(ParamContents &p, const Expr &value, const std::string &text) {
    p.value = scalar_bits(p, value, text);
    p.has_value = true;
}

void set_param_estimate_constant(ParamContents &p, const Expr &value, const std::string &text) {
    scalar_bits(p, value, text);
    p.estimate = value;
}

} // namespace Internal

ImageParam::ImageParam(Type t, int dimensions, const std::string &name) {
    user_assert(dimensions >= 0) << "ImageParam '" << name << "' can't have " << dimensions << " dimensions";
    contents_ = std::make_shared<Internal::InputBufferContents>();
    contents_->name = name.empty() ? Internal::fresh_name('i') : Internal::unique_name(name);
    contents_->user_name = name.empty() ? contents_->name : name;
    contents_->type = t;
    contents_->dimensions = dimensions;
    contents_->constraints = Internal::default_constraints(dimensions);
    Internal::register_input_buffer(contents_);
}

void OutputImageParam::check_defined() const {
    user_assert(contents_) << "ImageParam used before it was constructed with a type and dimensions";
}

const std::string &OutputImageParam::name() const {
    check_defined();
    return contents_->user_name;
}
Type OutputImageParam::type() const {
    check_defined();
    return contents_->type;
}
int OutputImageParam::dimensions() const {
    check_defined();
    return contents_->dimensions;
}

OutputImageParam &OutputImageParam::set_estimates(const Region &estimates) {
    check_defined();
    user_assert((int)estimates.size() == contents_->dimensions)
        << "set_estimates of ImageParam '" << name() << "' needs " << contents_->dimensions << " ranges, not "
        << estimates.size();
    contents_->estimates = estimates;
    return *this;
}

Parameter OutputImageParam::parameter() const {
    check_defined();
    return Parameter(contents_);
}

int OutputImageParam::host_alignment() const {
    check_defined();
    return contents_->host_alignment > 0 ? contents_->host_alignment : contents_->type.bytes();
}

OutputImageParam &OutputImageParam::set_host_alignment(int bytes) {
    check_defined();
    user_assert(bytes > 0) << "set_host_alignment of '" << name() << "': the alignment must be positive, not " << bytes;
    contents_->host_alignment = bytes;
    if (contents_->func) {
        Internal::mark_changed(*contents_->func);
    } else {
        Internal::mark_everything_changed(); // the check is compiled in
    }
    return *this;
}

OutputImageParam &OutputImageParam::store_in(MemoryType memory_type) {
    check_defined();
    contents_->memory_type = memory_type;
    return *this;
}

OutputImageParam::operator Argument() const {
    ArgumentEstimates e;
    e.buffer_estimates = contents_ ? contents_->estimates : Region();
    return Argument(name(), kind_, type(), dimensions(), e);
}

Internal::Dimension OutputImageParam::dim(int i) const {
    check_defined();
    user_assert(i >= 0 && i < contents_->dimensions)
        << "ImageParam '" << name() << "' has " << contents_->dimensions << " dimensions; there is no dim(" << i << ")";
    return Internal::Dimension(contents_, i);
}

Buffer<> ImageParam::get() const {
    check_defined();
    auto bound = std::static_pointer_cast<Internal::BoundImage>(contents_->keep_alive);
    return bound ? bound->buffer : Buffer<>();
}

void ImageParam::reset() {
    check_defined();
    contents_->bound = nullptr;
    contents_->keep_alive.reset();
}

namespace Internal {
// The ImageParam's keep_alive is always a BoundImage, so get() can find the Buffer.
void bind_image_param(ImageParam &p, const Buffer<> &b, std::shared_ptr<void> owner) {
    p.check_defined();
    bind_input_buffer(*p.contents_, b, std::move(owner));
}

void bind_input_buffer(InputBufferContents &c, const Buffer<> &b, std::shared_ptr<void> owner) {
    user_assert(b.defined()) << "ImageParam '" << c.name << "' was given an undefined Buffer";
    Type t = b.type();
    user_assert(t == c.type) << "ImageParam '" << c.name << "' has type " << type_to_string(c.type)
                             << " but was given a buffer of type " << type_to_string(t);
    user_assert(b.dimensions() == c.dimensions) << "ImageParam '" << c.name << "' has " << c.dimensions
                                                << " dimensions but was given a buffer with " << b.dimensions();
    auto bound = std::make_shared<BoundImage>();
    bound->buffer = b;
    bound->owner = std::move(owner);
    c.bound = b.raw_buffer();
    c.keep_alive = std::move(bound);
}
} // namespace Internal

namespace Internal {
std::vector<DimensionConstraint> default_constraints(int dimensions) {
    std::vector<DimensionConstraint> c((size_t)dimensions);
    if (dimensions > 0) {
        c[0].stride = 1;
    }
    return c;
}

Dimension::Dimension(std::shared_ptr<InputBufferContents> buffer, int d) : buffer_(std::move(buffer)), d_(d) {}

// The names add_image_checks binds from the buffer's fields; a Buffer's
// (compiled in, not an argument) are its own, as constants.
Expr Dimension::field(const char *name) const {
    if (buffer_->concrete && buffer_->bound && d_ >= 0 && d_ < buffer_->bound->dimensions) {
        const halide_dimension_t &dim = buffer_->bound->dim[d_];
        const std::string n = name;
        return IntImm::make(Int(32), n == "min"      ? dim.min
                                     : n == "extent" ? dim.extent
                                     : n == "max"    ? dim.min + dim.extent - 1
                                                     : dim.stride);
    }
    return Variable::make(Int(32), buffer_->name + "." + name + "." + std::to_string(d_));
}
Expr Dimension::min() const {
    return field("min");
}
Expr Dimension::extent() const {
    return field("extent");
}
Expr Dimension::max() const {
    return field("max");
}
Expr Dimension::stride() const {
    return field("stride");
}

namespace {
Expr as_int32(const Expr &e, const std::string &what) {
    if (!e.defined()) {
        return e;
    }
    user_assert(e.type().is_int() || e.type().is_uint())
        << what << " must be an integer, not " << type_to_string(e.type()) << " (" << e << ")";
    return e.type() == Int(32) ? e : Cast::make(Int(32), e);
}
} // namespace

void Dimension::changed() {
    if (buffer_->func) {
        mark_changed(*buffer_->func);
    } else {
        mark_everything_changed();
    }
}

Dimension Dimension::set_min(const Expr &min) {
    buffer_->constraints[(size_t)d_].min = as_int32(min, buffer_->user_name + ".dim(" + std::to_string(d_) + ") min");
    changed();
    return *this;
}
Dimension Dimension::set_extent(const Expr &extent) {
    buffer_->constraints[(size_t)d_].extent =
        as_int32(extent, buffer_->user_name + ".dim(" + std::to_string(d_) + ") extent");
    changed();
    return *this;
}
Dimension Dimension::set_stride(const Expr &stride) {
    buffer_->constraints[(size_t)d_].stride =
        as_int32(stride, buffer_->user_name + ".dim(" + std::to_string(d_) + ") stride");
    changed();
    return *this;
}
Dimension Dimension::set_bounds(const Expr &min, const Expr &extent) {
    return set_min(min).set_extent(extent);
}
Dimension Dimension::set_estimate(const Expr &min, const Expr &extent) {
    if (buffer_->estimates.size() != (size_t)buffer_->dimensions) {
        buffer_->estimates.resize((size_t)buffer_->dimensions);
    }
    buffer_->estimates[(size_t)d_] = Range{min, extent};
    changed();
    return *this;
}
Dimension Dimension::dim(int i) const {
    user_assert(i >= 0 && i < buffer_->dimensions)
        << "Buffer '" << buffer_->user_name << "' has " << buffer_->dimensions << " dimensions; there is no dim(" << i
        << ")";
    return Dimension(buffer_, i);
}
} // namespace Internal

Expr ImageParam::call(const std::vector<Expr> &pos) const {
    check_defined();
    return Internal::make_image_call(contents_->type, contents_->name, pos);
}

} // namespace Halide
