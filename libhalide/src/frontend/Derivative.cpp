// Halide::propagate_adjoints and Derivative (Derivative.h): the checks of
// the arguments and the output's adjoint; the propagation itself is in
// DerivativePropagation.cpp.
#include "Halide/Derivative.h"

#include "Halide/BoundaryConditions.h"
#include "Halide/Error.h"
#include "Halide/IROperator.h"
#include "frontend/DerivativePropagation.h"

namespace Halide {

Func Derivative::operator()(const Func &func, int update_id) const {
    auto it = adjoints.find({func.name(), update_id});
    return it == adjoints.end() ? Func() : it->second;
}

Func Derivative::operator()(const Buffer<> &buffer) const {
    return (*this)(buffer.name());
}

Func Derivative::operator()(const ImageParam &param) const {
    return (*this)(param.name());
}

Func Derivative::operator()(const std::string &name) const {
    auto it = adjoints.find({name, -1});
    return it == adjoints.end() ? Func() : it->second;
}

namespace {

Derivative propagate(const Func &output, const Func &adjoint, const Region &bounds) {
    user_assert(output.defined()) << "propagate_adjoints: the output Func is undefined";
    user_assert(output.outputs() == 1) << "propagate_adjoints: the output " << output.name()
                                       << " is Tuple-valued; not supported";
    user_assert((int)bounds.size() == output.dimensions())
        << "propagate_adjoints: " << bounds.size() << " bounds given for " << output.name() << ", which has "
        << output.dimensions() << " dimensions";
    Type t = output.type().is_float() ? output.type() : Float(32);
    // The adjoint of the output's final value: the given one, zero outside the bounds.
    Func acc(output.name() + "_" + std::to_string(output.num_update_definitions()) + "_d_def__");
    std::vector<Var> vars;
    for (int i = 0; i < output.dimensions(); i++) {
        vars.push_back(Var());
    }
    if (bounds.empty()) {
        acc(vars) = cast(t, adjoint(vars));
    } else {
        Func bounded = BoundaryConditions::constant_exterior(adjoint, Internal::make_zero(adjoint.type()), bounds);
        acc(vars) = cast(t, bounded(vars));
    }
    return Derivative(Internal::propagate_adjoint_funcs(output, acc, bounds));
}

} // namespace

Derivative propagate_adjoints(const Func &output, const Func &adjoint, const Region &output_bounds) {
    return propagate(output, adjoint, output_bounds);
}

Derivative propagate_adjoints(const Func &output, const Buffer<float> &adjoint) {
    user_assert(adjoint.defined()) << "propagate_adjoints: the adjoint Buffer is undefined";
    user_assert(adjoint.dimensions() == output.dimensions())
        << "propagate_adjoints: the adjoint Buffer has " << adjoint.dimensions() << " dimensions; " << output.name()
        << " has " << output.dimensions();
    Region bounds;
    for (int i = 0; i < adjoint.dimensions(); i++) {
        bounds.emplace_back(adjoint.dim(i).min(), adjoint.dim(i).extent());
    }
    Func wrapped(adjoint.name() + "_adjoint");
    std::vector<Var> vars(adjoint.dimensions());
    std::vector<Expr> at(vars.begin(), vars.end());
    wrapped(vars) = adjoint(at);
    return propagate(output, wrapped, bounds);
}

Derivative propagate_adjoints(const Func &output) {
    user_assert(output.dimensions() == 0)
        << "propagate_adjoints(Func) needs a zero-dimensional (scalar) Func; " << output.name() << " has "
        << output.dimensions() << " dimensions (give an adjoint and its bounds)";
    Func one(output.name() + "_seed");
    one() = Internal::make_const(output.type().is_float() ? output.type() : Float(32), 1.0);
    return propagate(output, one, {});
}

} // namespace Halide
