// See Lambda.h and Evaluate.h.
#include "Halide/Lambda.h"

#include "Halide/Evaluate.h"
#include "Halide/IR.h"
#include "Halide/IRPrinter.h"

namespace Halide {

namespace {
Func lambda_of(std::vector<Expr> args, const Expr &e) {
    Func f("lambda");
    // The implicit Vars of e go last, unless one of the Vars given is the
    // placeholder `_` (lambda(_, z, h(_, z))): then they go there.
    bool placeholder = false;
    for (const Expr &a : args) {
        const Internal::Variable *v = a.as<Internal::Variable>();
        placeholder = placeholder || (v && Var::is_placeholder(v->name));
    }
    if (!placeholder) {
        args.push_back(Var("_"));
    }
    f(args) = e;
    return f;
}
} // namespace

Func lambda(const Expr &e) {
    return lambda_of({}, e);
}
Func lambda(const Var &x, const Expr &e) {
    return lambda_of({x}, e);
}
Func lambda(const Var &x, const Var &y, const Expr &e) {
    return lambda_of({x, y}, e);
}
Func lambda(const Var &x, const Var &y, const Var &z, const Expr &e) {
    return lambda_of({x, y, z}, e);
}
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Expr &e) {
    return lambda_of({x, y, z, w}, e);
}
Func lambda(const Var &x, const Var &y, const Var &z, const Var &w, const Var &v, const Expr &e) {
    return lambda_of({x, y, z, w, v}, e);
}

namespace Internal {

void check_evaluate_type(const Expr &e, Type t, Type wanted) {
    user_assert(e.defined()) << "Can't evaluate an undefined expression";
    user_assert(t == wanted) << "Can't evaluate expression " << e << " of type " << t << " as a scalar of type "
                             << wanted;
}

} // namespace Internal
} // namespace Halide
