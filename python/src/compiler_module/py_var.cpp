// hl.Var, and the implicit Vars hl._, hl._0 ... hl._9.
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Var;

void define_var(py::module_ &m) {
    auto cls = bound_class<Var>(m, "Var");
    cls.def(py::init<>())
        .def(py::init<const std::string &>(), py::arg("name"))
        .def("name", &Var::name)
        .def("same_as", &Var::same_as, py::arg("other"))
        .def("is_implicit", [](const Var &v) { return v.is_implicit(); })
        .def("implicit_index", [](const Var &v) { return v.implicit_index(); })
        .def("is_placeholder", [](const Var &v) { return v.is_placeholder(); })
        .def_static("implicit", &Var::implicit, py::arg("n"))
        .def_static("outermost", &Var::outermost)
        .def("__repr__", [](const Var &v) { return "<halide.Var '" + v.name() + "'>"; })
        .def("__str__", &Var::name)
        .def("logical_not", [](const Var &v) { return !Expr(v); });
    add_expr_operators(cls);

    m.attr("_") = Var("_");
    for (int i = 0; i < 10; i++) {
        m.attr(("_" + std::to_string(i)).c_str()) = Var::implicit(i);
    }
}

} // namespace halide_py
