// Halide::Var: a name for a dimension of a Func.
#ifndef HALIDE_VAR_H
#define HALIDE_VAR_H

#include <string>

#include "Halide/Expr.h"

namespace Halide {

class Var {
public:
    Var(); // a fresh, unique name ("v0", "v1", ...)
    explicit Var(const std::string &name);
    const std::string &name() const { return name_; }
    operator Expr() const;
    bool same_as(const Var &other) const { return name_ == other.name_; }

    // Implicit vars (_0, _1, ...) and the placeholder _, as upstream names them.
    static Var implicit(int n);

private:
    std::string name_;
};

} // namespace Halide

#endif
