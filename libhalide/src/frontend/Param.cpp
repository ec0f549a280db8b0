// Param, ImageParam and Buffer's hooks into the compiler's registries.
#include <cstring>

#include "Function.h"
#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/Param.h"

namespace Halide {
namespace Internal {

std::shared_ptr<InputBufferContents> make_buffer_contents(const std::string &name, Type type, int dims,
                                                          halide_buffer_t *raw, std::shared_ptr<void> owner) {
    auto c = std::make_shared<InputBufferContents>();
    c->name = name.empty() ? fresh_name('b') : unique_name(name);
    c->type = type;
    c->dimensions = dims;
    c->bound = raw;
    c->keep_alive = std::move(owner);
    register_input_buffer(c);
    return c;
}

const std::string &buffer_contents_name(const InputBufferContents &c) {
    return c.name;
}

Expr make_image_call(Type type, const std::string &name, std::vector<Expr> args) {
    auto b = find_input_buffer(name);
    internal_assert(b) << "unknown buffer " << name;
    user_assert((int)args.size() == b->dimensions)
        << "Buffer '" << name << "' has " << b->dimensions << " dimensions but is called with " << args.size()
        << " coordinates";
    for (Expr &a : args) {
        user_assert(a.defined() && (a.type().is_int() || a.type().is_uint()))
            << "Coordinates of buffer '" << name << "' must be integers";
        if (a.type() != Int(32)) {
            a = Cast::make(Int(32), a);
        }
    }
    return Call::make(type, name, std::move(args), Call::Image);
}

std::shared_ptr<ParamContents> make_param(const std::string &name, Type type) {
    auto p = std::make_shared<ParamContents>();
    p->name = name.empty() ? fresh_name('p') : unique_name(name);
    p->type = type;
    register_param(p);
    return p;
}

const std::string &param_name(const ParamContents &p) {
    return p.name;
}
Type param_type(const ParamContents &p) {
    return p.type;
}

void set_param_value(ParamContents &p, const void *value, size_t bytes) {
    std::memset(&p.value, 0, sizeof(p.value));
    std::memcpy(&p.value, value, bytes);
}

void set_param_range(ParamContents &p, const Expr &min, const Expr &max) {
    p.min_value = min;
    p.max_value = max;
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

} // namespace Internal

ImageParam::ImageParam(Type t, int dimensions, const std::string &name) {
    contents_ = std::make_shared<Internal::InputBufferContents>();
    contents_->name = name.empty() ? Internal::fresh_name('i') : Internal::unique_name(name);
    contents_->type = t;
    contents_->dimensions = dimensions;
    Internal::register_input_buffer(contents_);
}

const std::string &ImageParam::name() const {
    return contents_->name;
}
Type ImageParam::type() const {
    return contents_->type;
}
int ImageParam::dimensions() const {
    return contents_->dimensions;
}

ImageParam &ImageParam::set_estimates(const Region &estimates) {
    user_assert(contents_) << "ImageParam used before it was constructed with a type and dimensions";
    user_assert((int)estimates.size() == contents_->dimensions)
        << "set_estimates of ImageParam '" << name() << "' needs " << contents_->dimensions << " ranges, not "
        << estimates.size();
    contents_->estimates = estimates;
    return *this;
}

Internal::Dimension ImageParam::dim(int i) const {
    user_assert(contents_) << "ImageParam used before it was constructed with a type and dimensions";
    user_assert(i >= 0 && i < contents_->dimensions)
        << "ImageParam '" << name() << "' has " << contents_->dimensions << " dimensions; there is no dim(" << i << ")";
    return Internal::Dimension(name(), i);
}

namespace Internal {
// The names add_image_checks binds from the buffer's fields.
Expr Dimension::field(const char *name) const {
    return Variable::make(Int(32), buffer_ + "." + name + "." + std::to_string(d_));
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
} // namespace Internal

Expr ImageParam::call(const std::vector<Expr> &pos) const {
    user_assert(contents_) << "ImageParam used before it was constructed with a type and dimensions";
    return Internal::make_image_call(contents_->type, contents_->name, pos);
}

void ImageParam::set_raw(halide_buffer_t *raw, std::shared_ptr<void> owner, Type t, int dims) {
    user_assert(t == contents_->type) << "ImageParam '" << contents_->name << "' has type "
                                      << int(contents_->type.code()) << ":" << contents_->type.bits()
                                      << " but was given a buffer of type " << int(t.code()) << ":" << t.bits();
    user_assert(dims == contents_->dimensions) << "ImageParam '" << contents_->name << "' has " << contents_->dimensions
                                               << " dimensions but was given a buffer with " << dims;
    contents_->bound = raw;
    contents_->keep_alive = std::move(owner);
}

} // namespace Halide
