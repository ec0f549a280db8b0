// hl.lambda_func(x, y, ..., e) (Lambda.h): an anonymous Func of the given
// Vars (any number, as upstream's) whose value is e; implicit Vars used by
// e become further arguments.
#include "Halide/Lambda.h"
#include "py_compiler.h"

namespace halide_py {

void define_lambda(py::module_ &m) {
    m.def("lambda_func", [](const py::args &args) {
        if (args.size() == 0) {
            throw py::value_error("Not enough arguments");
        }
        // As Halide::lambda (which takes at most five Vars): f(vars..., _) = e.
        std::vector<Halide::Expr> lhs;
        for (size_t i = 0; i + 1 < args.size(); i++) {
            lhs.push_back(args[i].cast<Halide::Var>());
        }
        lhs.push_back(Halide::Var("_"));
        Halide::Func f("lambda");
        f(lhs) = to_expr(args[args.size() - 1], "lambda_func value");
        return f;
    });
}

} // namespace halide_py
