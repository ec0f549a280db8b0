// Automatic differentiation (reverse mode), as upstream's Derivative.h:
// propagate_adjoints(output, adjoint) builds, for every Func, input buffer
// and scalar Param the output depends on, an ordinary Func holding the
// derivative of sum(output * adjoint) with respect to it. The Derivative it
// returns finds them: d(f, k) is the adjoint of the value stage k of f
// computes (k = -1, the default: the pure definition; f's final value is
// its last update's), d(buffer), d(param), d(image_param), d("name") (a
// buffer's or Param's). A Func the output does not depend on (or not
// differentiably) has an undefined adjoint Func.
#ifndef HALIDE_DERIVATIVE_H
#define HALIDE_DERIVATIVE_H

#include <map>
#include <string>
#include <utility>

#include "Halide/Argument.h"
#include "Halide/Buffer.h"
#include "Halide/Func.h"
#include "Halide/Param.h"

namespace Halide {

class Derivative {
public:
    // A Func, buffer or Param name and a stage: -1 is the pure definition
    // (and the only key of a buffer or Param), k the value after update k.
    using FuncKey = std::pair<std::string, int>;

    explicit Derivative(const std::map<FuncKey, Func> &adjoints_in) : adjoints(adjoints_in) {}
    explicit Derivative(std::map<FuncKey, Func> &&adjoints_in) : adjoints(std::move(adjoints_in)) {}

    // Each returns an undefined Func when there is no such adjoint.
    Func operator()(const Func &func, int update_id = -1) const;
    Func operator()(const Buffer<> &buffer) const;
    // (A typed Buffer by its own name: converting it would make a new one.)
    template <typename T, int D> Func operator()(const Buffer<T, D> &buffer) const { return (*this)(buffer.name()); }
    template <typename T> Func operator()(const Param<T> &param) const { return (*this)(param.name()); }
    Func operator()(const ImageParam &param) const;
    Func operator()(const std::string &name) const;

private:
    std::map<FuncKey, Func> adjoints;
};

// Propagates `adjoint` (defined over `output_bounds`, one Range {min,
// extent} per dimension of `output`; zero outside it) back through the
// definitions `output` depends on.
Derivative propagate_adjoints(const Func &output, const Func &adjoint, const Region &output_bounds);
// The same with an adjoint buffer, whose shape gives the bounds.
Derivative propagate_adjoints(const Func &output, const Buffer<float> &adjoint);
// The gradient of a zero-dimensional Func (a scalar loss): adjoint 1.
Derivative propagate_adjoints(const Func &output);

} // namespace Halide

#endif
