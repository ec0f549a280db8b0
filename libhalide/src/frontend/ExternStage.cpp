// Func::define_extern: a Func computed by a C function (lowered by
// lower/ExternStages.cpp). The definition is stored as ordinary values, one
// "extern_stage" intrinsic per output type over the stage's arguments, so
// realization order, Func::in() and inlining see what the stage reads.
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IR.h"
#include "aot/Mangle.h"
#include "lower/Function.h"

namespace Halide {

ExternFuncArgument::ExternFuncArgument(const Func &f) : arg_type(FuncArg), func(f.function()) {}

namespace {

// The Itanium C++ name of `int [ns::]name(halide_buffer_t *..., scalars...)`.
std::string cplusplus_symbol(const std::string &qualified, const std::vector<ExternFuncArgument> &params,
                             const std::vector<Type> &types) {
    std::vector<std::string> namespaces;
    std::string name = qualified;
    for (size_t at; (at = name.find("::")) != std::string::npos;) {
        namespaces.push_back(name.substr(0, at));
        name = name.substr(at + 2);
    }
    Internal::LoweredFunc f;
    f.name = name;
    for (const ExternFuncArgument &a : params) {
        if (a.is_expr()) {
            f.args.emplace_back("", Internal::LoweredArgument::Scalar, a.expr.type(), 0);
        } else {
            size_t n = a.is_func() ? a.func->values.size() : 1;
            for (size_t i = 0; i < n; i++) {
                f.args.emplace_back("", Internal::LoweredArgument::InputBuffer, Type(), 0);
            }
        }
    }
    for (size_t i = 0; i < types.size(); i++) {
        f.args.emplace_back("", Internal::LoweredArgument::OutputBuffer, types[i], 0);
    }
    return Internal::mangled_entry_points(f, namespaces).at(name);
}

} // namespace

void Func::define_extern(const std::string &function_name, const std::vector<ExternFuncArgument> &params,
                         const std::vector<Type> &types, const std::vector<Var> &arguments, NameMangling mangling,
                         DeviceAPI device_api) {
    using namespace Internal;
    user_assert(!f_->defined()) << "In extern definition for Func \"" << f_->name
                                << "\":\nFunc with a pure definition cannot have an extern definition.\n";
    user_assert(!function_name.empty()) << "define_extern of Func \"" << f_->name << "\" needs a function name";
    user_assert(!types.empty()) << "define_extern of Func \"" << f_->name
                                << "\" needs at least one output type (one halide_buffer_t per type)";
    // Buffers on a device would need a GPU or Hexagon backend, which this compiler does not have.
    user_assert(device_api == DeviceAPI::Host || device_api == DeviceAPI::None)
        << "The extern definition of Func \"" << f_->name << "\" (" << function_name
        << ") asks for its buffers on a device (DeviceAPI " << (int)device_api
        << "), but this compiler has no GPU or Hexagon backend: use DeviceAPI::Host";
    std::vector<Expr> stage_args;
    std::vector<int> kinds;
    for (size_t i = 0; i < params.size(); i++) {
        const ExternFuncArgument &a = params[i];
        auto zeros = [](int n) { return std::vector<Expr>((size_t)n, Expr(0)); };
        switch (a.arg_type) {
        case ExternFuncArgument::FuncArg:
            user_assert(a.func && a.func->defined())
                << "Argument " << i << " of the extern definition of Func \"" << f_->name << "\" (" << function_name
                << ") is a Func that has not been defined";
            stage_args.push_back(Call::make(a.func->values[0].type(), a.func->name, zeros((int)a.func->args.size()),
                                            Call::Halide, 0, a.func));
            break;
        case ExternFuncArgument::BufferArg:
            user_assert(a.buffer.defined()) << "Argument " << i << " of the extern definition of Func \"" << f_->name
                                            << "\" (" << function_name << ") is an undefined Buffer";
            stage_args.push_back(a.buffer(zeros(a.buffer.dimensions())));
            break;
        case ExternFuncArgument::ImageParamArg:
            user_assert(a.image_param.defined())
                << "Argument " << i << " of the extern definition of Func \"" << f_->name << "\" (" << function_name
                << ") is an undefined ImageParam";
            stage_args.push_back(a.image_param(zeros(a.image_param.dimensions())));
            break;
        case ExternFuncArgument::ExprArg:
            user_assert(a.expr.defined()) << "Argument " << i << " of the extern definition of Func \"" << f_->name
                                          << "\" (" << function_name << ") is an undefined Expr";
            stage_args.push_back(a.expr);
            break;
        default:
            user_error << "Argument " << i << " of the extern definition of Func \"" << f_->name << "\" ("
                       << function_name << ") is undefined";
        }
        kinds.push_back(a.arg_type);
    }
    std::vector<Expr> values;
    for (const Type &t : types) {
        values.push_back(Call::make(t, "extern_stage", stage_args, Call::Intrinsic));
    }
    FuncRef definition = (*this)(arguments);
    if (values.size() == 1) {
        definition = values[0];
    } else {
        definition = Tuple(values);
    }
    auto def = std::make_shared<ExternDefinition>();
    def->name = function_name;
    def->cplusplus_name = cplusplus_symbol(function_name, params, types);
    def->mangling = (int)mangling;
    def->arg_kinds = kinds;
    f_->extern_def = def;
}

bool Func::is_extern() const {
    return f_->extern_def != nullptr;
}

const std::string &Func::extern_function_name() const {
    static const std::string none;
    return f_->extern_def ? f_->extern_def->name : none;
}

} // namespace Halide
