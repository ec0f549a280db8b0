// See GeneratorIO.h: a Generator's Inputs and Outputs, their implicit
// NAME.type/.dim/.size GeneratorParams, and the checks of what generate()
// defined against what was declared.
#include <functional>

#include "Halide/Generator.h"
#include "lower/Function.h"

namespace Halide {
namespace Internal {

namespace {

// NAME.type, NAME.dim or NAME.size of an Input or Output. When the
// declaration fixes the value, setting it is an error in upstream's words.
class SyntheticParam : public GeneratorParamBase {
public:
    SyntheticParam(const std::string &name, bool fixed, std::function<void(const std::string &)> set)
        : GeneratorParamBase(name), fixed_(fixed), set_(std::move(set)) {}
    void set_from_string(const std::string &v) override {
        user_assert(!fixed_) << "Cannot set the GeneratorParam " << name_ << " for " << generator_->registered_name()
                             << " because the value is explicitly specified in the C++ source.";
        set_(v);
        value_ = v;
    }
    std::string to_string() const override { return value_; }
    bool settable() const override { return !fixed_; }

private:
    bool fixed_;
    std::function<void(const std::string &)> set_;
    std::string value_;
};

std::vector<Type> parse_type_list(const std::string &s) {
    std::vector<Type> types;
    size_t start = 0;
    while (start <= s.size()) {
        size_t comma = s.find(',', start);
        size_t stop = comma == std::string::npos ? s.size() : comma;
        types.push_back(parse_type_name(s.substr(start, stop - start)));
        start = stop + 1;
    }
    return types;
}

std::string type_list_name(const std::vector<Type> &types) {
    std::string r;
    for (const Type &t : types) {
        r += (r.empty() ? "" : ", ") + type_name_of(t);
    }
    return r;
}

} // namespace

// ---------------------------------------------------------------- GeneratorIOBase

GeneratorIOBase::GeneratorIOBase(const std::string &name, bool is_input, int array_size, const std::vector<Type> &types,
                                 int dims, bool is_scalar)
    : generator_(generator_under_construction()), name_(name), is_input_(is_input), is_array_(array_size != 0),
      array_size_(array_size == 0 ? 1 : array_size), types_(types), dims_(dims),
      kind_(is_scalar ? ArgInfoKind::Scalar : ArgInfoKind::Function) {
    user_assert(!name.empty()) << "Generator inputs and outputs need a name";
    GeneratorBase *g = generator_;
    user_assert(g) << (is_input ? "Input" : "Output") << " '" << name
                   << "' must be a member of a Generator (declared in the class)";
    g->add_io(this, is_input);
    if (!is_scalar || !types_defined()) { // Input<Expr> has a NAME.type
        g->add_owned_param(
            std::make_unique<SyntheticParam>(name + ".type", types_defined(), [this](const std::string &v) {
                types_ = parse_type_list(v);
                user_assert(!is_input_ || types_.size() == 1)
                    << "Input '" << name_ << "' takes one type, not '" << v << "' (Tuples are for Outputs)";
            }));
    }
    if (!is_scalar) {
        g->add_owned_param(
            std::make_unique<SyntheticParam>(name + ".dim", dims_defined(), [this](const std::string &v) {
                dims_ = parse_scalar<int>(name_ + ".dim", v);
                user_assert(dims_ >= 0) << "GeneratorParam '" << name_ << ".dim' can't be negative";
            }));
    }
    if (is_array_) {
        g->add_owned_param(
            std::make_unique<SyntheticParam>(name + ".size", array_size_defined(), [this](const std::string &v) {
                array_size_ = parse_scalar<int>(name_ + ".size", v);
                user_assert(array_size_ >= 1) << "GeneratorParam '" << name_ << ".size' must be at least 1";
            }));
    }
}

std::string GeneratorIOBase::array_name(size_t i) const {
    return is_array_ ? name_ + "_" + std::to_string(i) : name_;
}

void GeneratorIOBase::set_type(const std::vector<Type> &types) {
    generator_->check_configure_phase(name_ + ".set_type()");
    user_assert(!types_defined()) << "set_type() may only be called on an Input or Output that has no type specified.";
    user_assert(!types.empty() && (!is_input_ || types.size() == 1))
        << (is_input_ ? "Input" : "Output") << " '" << name_ << "' takes "
        << (is_input_ ? "one type" : "one type or more") << ", not " << types.size();
    types_ = types;
}

void GeneratorIOBase::set_dimensions(int dims) {
    generator_->check_configure_phase(name_ + ".set_dimensions()");
    user_assert(!dims_defined())
        << "set_dimensions() may only be called on an Input or Output that has no dimensionality specified.";
    user_assert(dims >= 0) << name_ << ".set_dimensions(" << dims << "): the count can't be negative";
    dims_ = dims;
}

void GeneratorIOBase::set_array_size(int size) {
    generator_->check_configure_phase(name_ + ".set_array_size()");
    user_assert(is_array_ && !array_size_defined())
        << "set_array_size() may only be called on an Input or Output that has no array size specified.";
    user_assert(size >= 1) << name_ << ".set_array_size(" << size << "): an array needs at least one element";
    array_size_ = size;
}

Type GeneratorIOBase::type() const {
    user_assert(types_.size() == 1) << (is_input_ ? "Input" : "Output") << " '" << name_ << "' has "
                                    << (types_.empty() ? "no type yet" : "several types (a Tuple)");
    return types_[0];
}

void GeneratorIOBase::bind(const std::vector<Parameter> &) {
    user_error << (is_input_ ? "Input '" : "Output '") << name_ << "' can't be bound to a buffer"
               << (is_input_ ? " (it is not an Input<Buffer<>>)" : "");
}

void GeneratorIOBase::bind(const std::vector<Func> &) {
    user_error << (is_input_ ? "Input '" : "Output '") << name_ << "' can't be bound to a Func"
               << (is_input_ ? " (it is not an Input<Func>)" : "");
}

void GeneratorIOBase::bind(const std::vector<Expr> &) {
    user_error << (is_input_ ? "Input '" : "Output '") << name_ << "' can't be bound to an Expr"
               << (is_input_ ? " (it is not a scalar Input)" : "");
}

void GeneratorIOBase::bind_count(size_t n) {
    if (!is_array_) {
        user_assert(n == 1) << "Input '" << name_ << "' is not an array: bind one value, not " << n;
    } else if (array_size_defined()) {
        user_assert(n == (size_t)array_size_)
            << "Input '" << name_ << "' is an array of " << array_size_ << " elements, not " << n;
    } else {
        user_assert(n >= 1) << "Input '" << name_ << "' can't be bound to an empty array";
        array_size_ = (int)n;
    }
}

void GeneratorIOBase::check_bound_types(const std::vector<Expr> &values) const {
    for (const Expr &e : values) {
        user_assert(e.defined()) << "Input '" << name_ << "' was bound to an undefined Expr";
        user_assert(e.type() == type()) << "Type mismatch for " << name_ << ": expected " << type_name_of(type())
                                        << " saw " << type_name_of(e.type());
    }
}

void GeneratorIOBase::set_default_from_string(const std::string &) {
    user_error << "'" << name_ << "' is a buffer; only GeneratorParams and scalar Inputs take values";
}

size_t GeneratorIOBase::checked_count(bool allow_open_size) const {
    const char *kind = is_input_ ? "Input" : "Output";
    user_assert(types_defined() || !is_input_)
        << "Input '" << name_ << "' has no type: declare it (Input<Buffer<uint8_t>>) or set " << name_ << ".type";
    user_assert(dims_defined() || !is_input_)
        << "Input '" << name_ << "' has no dimension count: declare it or set " << name_ << ".dim";
    user_assert(array_size_defined() || allow_open_size)
        << "ArraySize is unspecified for " << kind << " '" << name_ << "'; you need to explicitly set it "
        << (is_input_ ? "" : "via the resize() method or ") << "by setting '" << name_ << ".size' in your build rules.";
    return array_size_defined() ? (size_t)array_size_ : 0;
}

void GeneratorIOBase::check_initialized(bool initialized) const {
    user_assert(initialized) << (is_input_ ? "Input" : "Output") << " '" << name_ << "' is used before generate() runs";
}

void GeneratorIOBase::check_output_func(const Func &f, size_t i) const {
    const std::string n = array_name(i);
    user_assert(f.defined()) << "Output '" << n << "' was not defined by generate()";
    std::vector<Type> got = f.output_types();
    user_assert(types_.empty() || got == types_) << "Output '" << n << "' is declared as (" << type_list_name(types_)
                                                 << ") but generate() defined it as (" << type_list_name(got) << ")";
    user_assert(dims_ < 0 || f.dimensions() == dims_)
        << "Output '" << n << "' is declared with " << dims_ << " dimensions but generate() defined it with "
        << f.dimensions();
}

// ---------------------------------------------------------------- inputs

InputBufferBase::InputBufferBase(const std::string &name, int array_size, const std::vector<Type> &types, int dims)
    : GeneratorIOBase(name, true, array_size, types, dims) {}

void InputBufferBase::init() {
    if (bound_) {
        init_bound();
        return;
    }
    size_t n = checked_count(false);
    user_assert(types_.size() == 1) << "Input '" << name_ << "' takes one type";
    for (size_t i = params_.size(); i < n; i++) {
        params_.emplace_back(types_[0], dims_, array_name(i));
        funcs_.emplace_back(); // made by func(i) when asked for
    }
}

std::vector<Argument> InputBufferBase::arguments() const {
    std::vector<Argument> args;
    for (const ImageParam &p : params_) {
        if (p.defined() && !p.parameter().buffer_contents()->concrete) { // a bound Buffer is compiled in
            args.emplace_back(p);
        }
    }
    return args;
}

namespace {

// The ImageParam of a calling generator's buffer argument (a Parameter).
class ImageParamOf : public ImageParam {
public:
    explicit ImageParamOf(const Parameter &p) {
        contents_ = p.buffer_contents();
        kind_ = Argument::InputBuffer;
    }
};

// An ImageParam over Buffer `b` itself: reading it reads `b` (compiled
// into ahead-of-time code, as a Buffer a Func calls is) and its dim(i)
// fields are b's, as constants.
ImageParam image_param_over(const Buffer<> &b, const std::string &name) {
    auto owner = std::make_shared<Buffer<>>(b);
    return ImageParamOf(Parameter(make_buffer_contents(name, b.type(), b.dimensions(), owner->raw_buffer(), owner)));
}

// A Func of `dims` pure Vars whose value is `value(vars)`.
Func func_over(int dims, const std::function<Expr(const std::vector<Expr> &)> &value) {
    std::vector<Var> vars;
    std::vector<Expr> at;
    for (int d = 0; d < dims; d++) {
        vars.emplace_back();
        at.push_back(vars.back());
    }
    Func f;
    f(vars) = value(at);
    return f;
}

} // namespace

void InputBufferBase::bind(const std::vector<Parameter> &buffers) {
    user_assert(kind() == ArgInfoKind::Buffer)
        << "Input '" << name_ << "' is an Input<Func>: a stub passes it a Func, not a buffer";
    for (const Parameter &p : buffers) {
        user_assert(p.defined() && p.is_buffer()) << "Input '" << name_ << "' was bound to no buffer";
    }
    bind_count(buffers.size());
    bound_params_ = buffers;
    bound_funcs_.clear();
    bound_ = true;
}

void InputBufferBase::bind(const std::vector<Func> &funcs) {
    for (const Func &f : funcs) {
        user_assert(f.defined()) << "Input '" << name_ << "' was bound to Func '" << f.name()
                                 << "', which has no definition";
    }
    bind_count(funcs.size());
    bound_funcs_ = funcs;
    bound_params_.clear();
    bound_ = true;
}

// A bound element becomes the caller's ImageParam, a Func reading the
// bound Buffer (compiled in), or the bound Func; checked against the
// declared type and dimensions (open ones are taken from what is bound).
void InputBufferBase::init_bound() {
    if (!params_.empty()) {
        return;
    }
    size_t n = bound_params_.empty() ? bound_funcs_.size() : bound_params_.size();
    for (size_t i = 0; i < n; i++) {
        std::vector<Type> types;
        int dims;
        ImageParam param;
        Func func;
        if (!bound_params_.empty()) {
            const Parameter &p = bound_params_[i];
            types = {p.type()};
            dims = p.dimensions();
            Buffer<> b = p.buffer();
            param = b.defined() ? image_param_over(b, array_name(i)) : ImageParamOf(p);
        } else {
            func = bound_funcs_[i];
            types = func.output_types();
            dims = func.dimensions();
        }
        const std::string n_i = array_name(i);
        user_assert(!types_defined() || types == types_) << "Type mismatch for " << n_i << ": expected "
                                                         << type_list_name(types_) << " saw " << type_list_name(types);
        user_assert(!dims_defined() || dims == dims_)
            << "Dimensions mismatch for " << n_i << ": expected " << dims_ << " saw " << dims;
        if (!types_defined()) {
            types_ = types;
        }
        if (!dims_defined()) {
            dims_ = dims;
        }
        params_.push_back(param);
        funcs_.push_back(func);
    }
}

Expr InputBufferBase::call(size_t i, const std::vector<Expr> &pos) const {
    check_initialized(!params_.empty());
    user_assert(i < params_.size()) << "Input '" << name_ << "' has " << params_.size() << " elements, not " << i + 1;
    if (params_[i].defined()) {
        return params_[i](pos);
    }
    return funcs_[i](pos);
}

size_t InputBufferBase::elements() const {
    check_initialized(!params_.empty());
    return params_.size();
}

int InputBufferOne::dimensions() const {
    elements();
    return dims_;
}

ImageParam InputBufferOne::shape() const {
    elements();
    user_assert(params_[0].defined()) << "Input '" << name_
                                      << "' is bound to a Func: it has no buffer whose shape, alignment or "
                                         "loads to ask about (it has a type() and dimensions())";
    return params_[0];
}

void InputBufferOne::trace_loads() {
    shape().trace_loads();
}

InputBufferOne &InputBufferOne::add_trace_tag(const std::string &trace_tag) {
    shape().add_trace_tag(trace_tag);
    return *this;
}

InputBufferOne::operator ExternFuncArgument() const {
    elements();
    if (params_[0].defined()) {
        return ExternFuncArgument(params_[0]);
    }
    return ExternFuncArgument(func());
}

const ImageParam &InputBufferBase::param(size_t i) const {
    check_initialized(!params_.empty());
    user_assert(i < params_.size()) << "Input '" << name_ << "' has " << params_.size() << " elements, not " << i + 1;
    user_assert(params_[i].defined()) << "Input '" << array_name(i)
                                      << "' was bound to a Func: it has no buffer parameter "
                                         "(call it, or use it as a Func)";
    return params_[i];
}

// The Func form of an input is a Func that calls the ImageParam (inlined
// into whatever calls it), as upstream's Input<Func> is in a compiled
// generator.
const Func &InputBufferBase::func(size_t i) const {
    elements();
    if (i < funcs_.size() && funcs_[i].defined()) {
        return funcs_[i];
    }
    const ImageParam &p = param(i);
    if (!funcs_[i].defined()) {
        funcs_[i] = func_over(dims_, [&](const std::vector<Expr> &at) { return p(at); });
    }
    return funcs_[i];
}

std::vector<Func>::const_iterator InputFuncArray::begin() const {
    for (size_t i = 0; i < elements(); i++) {
        func(i);
    }
    return funcs_.begin();
}

std::vector<Func>::const_iterator InputFuncArray::end() const {
    elements();
    return funcs_.end();
}

void InputExprBase::init() {
    if (bound_.defined()) {
        if (!types_defined()) {
            types_ = {bound_.type()};
        }
        check_bound_types({bound_});
        return;
    }
    user_assert(types_defined()) << "Type is not defined for Input '" << name_ << "'; you may need to specify '"
                                 << name_
                                 << ".type' as a GeneratorParam, or call set_type() from the configure() method.";
    if (params_.empty()) {
        params_.emplace_back(types_[0], name_);
        if (estimate_.defined()) {
            params_[0].parameter().set_estimate(estimate_);
        }
    }
}

std::vector<Argument> InputExprBase::arguments() const {
    return std::vector<Argument>(params_.begin(), params_.end());
}

void InputExprBase::bind(const std::vector<Expr> &values) {
    bind_count(values.size());
    user_assert(values[0].defined()) << "Input '" << name_ << "' was bound to an undefined Expr";
    bound_ = values[0];
}

void InputExprBase::set_default_from_string(const std::string &) {
    user_error << "Input<Expr> '" << name_ << "' has no default value to set";
}

InputExprBase::operator Expr() const {
    if (bound_.defined()) {
        return bound_;
    }
    check_initialized(!params_.empty());
    return params_[0];
}

void InputExprBase::set_estimate(const Expr &value) {
    estimate_ = value;
    for (Param<void> &p : params_) {
        p.parameter().set_estimate(value);
    }
}

void set_default_of_param(const Expr &param, const Expr &value) {
    const Variable *v = param.as<Variable>();
    ParamPtr p = v ? find_param(v->name) : nullptr;
    internal_assert(p) << "set_default_of_param: not a Param";
    set_param_default(*p, value);
}

// ---------------------------------------------------------------- outputs

OutputBufferBase::OutputBufferBase(const std::string &name, const std::vector<Type> &types, int dims)
    : GeneratorIOBase(name, false, 0, types, dims), Func(name) {
    // A generator a stub builds inside another's generate() may share its
    // Output names: its Funcs then get unique ones.
    user_assert(Func::name() == name || inside_generate())
        << "Output '" << name << "' has the name of another live Func";
}

void OutputBufferBase::assign(const Func &f) {
    user_assert(f.defined()) << "Output '" << name_ << "' can't be assigned Func '" << f.name()
                             << "', which has no definition";
    static_cast<Func &>(*this) = f;
}

std::vector<Func> OutputBufferBase::output_funcs() const {
    const Func &f = *this;
    check_output_func(f, 0);
    return {f};
}

OutputArrayBase::OutputArrayBase(const std::string &name, int array_size, const std::vector<Type> &types, int dims)
    : GeneratorIOBase(name, false, array_size, types, dims) {}

void OutputArrayBase::init() {
    initialized_ = true;
    size_t n = checked_count(true);
    for (size_t i = funcs_.size(); i < n; i++) {
        funcs_.emplace_back(array_name(i));
    }
}

void OutputArrayBase::resize_array(size_t n) {
    check_initialized(initialized_);
    user_assert(!array_size_defined()) << "You may only call " << name_
                                       << ".resize() when the size is undefined (it is " << array_size_ << ")";
    user_assert(n >= 1) << name_ << ".resize(" << n << "): an Output array needs at least one element";
    array_size_ = (int)n;
    init();
}

size_t OutputArrayBase::size() const {
    check_initialized(initialized_);
    return checked_count(false);
}

Func &OutputArrayBase::operator[](size_t i) {
    user_assert(i < size()) << "Output '" << name_ << "' has " << size() << " elements, not " << i + 1;
    return funcs_[i];
}

const Func &OutputArrayBase::operator[](size_t i) const {
    user_assert(i < size()) << "Output '" << name_ << "' has " << size() << " elements, not " << i + 1;
    return funcs_[i];
}

std::vector<Func>::const_iterator OutputArrayBase::begin() const {
    size();
    return funcs_.begin();
}

std::vector<Func>::const_iterator OutputArrayBase::end() const {
    size();
    return funcs_.end();
}

void OutputArrayBase::set_estimates(const Region &estimates) {
    for (size_t i = 0; i < size(); i++) {
        funcs_[i].set_estimates(estimates);
    }
}

std::vector<Func> OutputArrayBase::output_funcs() const {
    size_t n = checked_count(false);
    for (size_t i = 0; i < n; i++) {
        check_output_func(funcs_[i], i);
    }
    return funcs_;
}

} // namespace Internal
} // namespace Halide
