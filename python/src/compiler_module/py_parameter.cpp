// hl.Parameter: the argument behind an hl.Param or hl.ImageParam, and
// their .parameter() (OutputImageParam's too), as upstream's Python has.
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Parameter;
using Halide::Type;

namespace {

Expr optional_expr(const py::object &e, const char *what) {
    return e.is_none() ? Expr() : to_expr(e, what);
}

} // namespace

void define_parameter(py::module_ &m) {
    bound_class<Parameter>(m, "Parameter")
        .def(py::init<>())
        .def(py::init<const Type &, bool, int>(), py::arg("type"), py::arg("is_buffer"), py::arg("dimensions"))
        .def(py::init<const Type &, bool, int, const std::string &>(), py::arg("type"), py::arg("is_buffer"),
             py::arg("dimensions"), py::arg("name"))
        .def("defined", &Parameter::defined)
        .def("name", &Parameter::name)
        .def("type", &Parameter::type)
        .def("dimensions", &Parameter::dimensions)
        .def("is_buffer", &Parameter::is_buffer)
        .def("same_as", &Parameter::same_as, py::arg("other"))
        .def("scalar_expr", &Parameter::scalar_expr)
        .def("min_value", &Parameter::min_value)
        .def("max_value", &Parameter::max_value)
        .def(
            "set_min_value", [](Parameter &p, const py::object &e) { p.set_min_value(optional_expr(e, "min")); },
            py::arg("e"))
        .def(
            "set_max_value", [](Parameter &p, const py::object &e) { p.set_max_value(optional_expr(e, "max")); },
            py::arg("e"))
        .def("estimate", &Parameter::estimate)
        .def(
            "set_estimate", [](Parameter &p, const py::object &e) { p.set_estimate(optional_expr(e, "estimate")); },
            py::arg("e"))
        .def("default_value", &Parameter::default_value)
        .def(
            "set_default_value",
            [](Parameter &p, const py::object &e) { p.set_default_value(optional_expr(e, "default value")); },
            py::arg("e"))
        .def("min_constraint", &Parameter::min_constraint, py::arg("dim"))
        .def("extent_constraint", &Parameter::extent_constraint, py::arg("dim"))
        .def("stride_constraint", &Parameter::stride_constraint, py::arg("dim"))
        .def(
            "set_min_constraint",
            [](Parameter &p, int dim, const py::object &e) { p.set_min_constraint(dim, optional_expr(e, "min")); },
            py::arg("dim"), py::arg("e"))
        .def(
            "set_extent_constraint",
            [](Parameter &p, int dim, const py::object &e) {
                p.set_extent_constraint(dim, optional_expr(e, "extent"));
            },
            py::arg("dim"), py::arg("e"))
        .def(
            "set_stride_constraint",
            [](Parameter &p, int dim, const py::object &e) {
                p.set_stride_constraint(dim, optional_expr(e, "stride"));
            },
            py::arg("dim"), py::arg("e"))
        .def("host_alignment", &Parameter::host_alignment)
        .def("set_host_alignment", &Parameter::set_host_alignment, py::arg("bytes"))
        .def("__repr__", [](const Parameter &p) {
            if (!p.defined()) {
                return std::string("<halide.Parameter (undefined)>");
            }
            return "<halide.Parameter '" + p.name() + "' type " + type_name(p.type()) + ">";
        });

    bound_class<Halide::OutputImageParam>(m, "OutputImageParam").def("parameter", &Halide::OutputImageParam::parameter);
    bound_class<Halide::Param<>>(m, "Param").def("parameter", &Halide::Param<>::parameter);
}

} // namespace halide_py
