// hl.require(condition, value, *args) (Require.h): value, or a run-time
// error printing value and args where condition fails.
#include "Halide/Require.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;

void define_require(py::module_ &m) {
    m.def(
        "require",
        [](const py::object &condition, const py::object &value, const py::args &args) {
            std::vector<Expr> values = {to_expr(value, "require")};
            std::vector<Expr> rest = print_args(args, 0);
            values.insert(values.end(), rest.begin(), rest.end());
            return Halide::require(to_expr(condition, "require"), values);
        },
        py::arg("condition"), py::arg("value"));
}

} // namespace halide_py
