// hl.Parameter: the argument behind an hl.Param or hl.ImageParam, and
// their .parameter() (OutputImageParam's too), as upstream's Python has.
#include <sstream>
#include <type_traits>

#include "py_buffer.h"
#include "py_compiler.h"
#include "py_number.h"

namespace halide_py {

using Halide::Expr;
using Halide::Parameter;
using Halide::Type;

namespace {

Expr optional_expr(const py::object &e, const char *what) {
    return e.is_none() ? Expr() : to_expr(e, what);
}

// The current value, as the Python type of the parameter's type (upstream's
// overloads all return the first one's type, bool).
py::object scalar_value(const Parameter &p) {
    Expr v = p.scalar_expr();
    if (p.type().is_bool()) {
        return py::bool_(!Halide::Internal::is_const_zero(v));
    }
    if (const int64_t *i = Halide::Internal::as_const_int(v)) {
        return py::int_(*i);
    }
    if (const uint64_t *u = Halide::Internal::as_const_uint(v)) {
        return py::int_(*u);
    }
    if (const double *d = Halide::Internal::as_const_float(v)) {
        return py::float_(*d);
    }
    throw py::type_error("Parameter.scalar(): '" + p.name() + "' of type " + type_name(p.type()) +
                         " has no Python value");
}

// Converted to the parameter's type as Param.set() converts, refused when
// that would change the value; a float32 one takes a Python float rounded.
void set_scalar_value(Parameter &p, const py::object &value) {
    user_assert(p.defined() && !p.is_buffer()) << "Parameter.set_scalar() applies to a scalar parameter";
    with_number(value, "Parameter.set_scalar()", [&](auto v) {
        if constexpr (std::is_same_v<decltype(v), double>) {
            if (p.type() == Halide::Float(32)) {
                v = (double)(float)v;
            }
        }
        Halide::Internal::set_param_constant(*p.scalar_contents(), Halide::Internal::exact_constant_of(p.type(), v),
                                             Halide::Internal::value_text(v));
    });
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
        .def("scalar", &scalar_value)
        .def("set_scalar", &set_scalar_value, py::arg("value"))
        .def(
            "set_scalar",
            [](Parameter &p, const Type &value_type, const py::object &value) {
                user_assert(p.defined() && !p.is_buffer()) << "Parameter.set_scalar() applies to a scalar parameter";
                user_assert(value_type == p.type()) << "Parameter.set_scalar(): '" << p.name() << "' has type "
                                                    << type_name(p.type()) << ", not " << type_name(value_type);
                set_scalar_value(p, value);
            },
            py::arg("value_type"), py::arg("value"))
        .def("buffer", &Parameter::buffer)
        .def("set_buffer", &Parameter::set_buffer, py::arg("buffer"))
        .def("buffer_constraints", &Parameter::buffer_constraints)
        .def("min_constraint_estimate", &Parameter::min_constraint_estimate, py::arg("dim"))
        .def("extent_constraint_estimate", &Parameter::extent_constraint_estimate, py::arg("dim"))
        .def(
            "set_min_constraint_estimate",
            [](Parameter &p, int dim, const py::object &e) {
                p.set_min_constraint_estimate(dim, optional_expr(e, "min estimate"));
            },
            py::arg("dim"), py::arg("expr"))
        .def(
            "set_extent_constraint_estimate",
            [](Parameter &p, int dim, const py::object &e) {
                p.set_extent_constraint_estimate(dim, optional_expr(e, "extent estimate"));
            },
            py::arg("dim"), py::arg("expr"))
        .def("get_argument_estimates", &Parameter::get_argument_estimates)
        .def("store_in", &Parameter::store_in, py::arg("memory_type"))
        .def("memory_type", &Parameter::memory_type)
        .def("host_alignment", &Parameter::host_alignment)
        .def("set_host_alignment", &Parameter::set_host_alignment, py::arg("bytes"))
        .def("__repr__", [](const Parameter &p) {
            if (!p.defined()) {
                return std::string("<halide.Parameter (undefined)>");
            }
            return "<halide.Parameter '" + p.name() + "' type " + type_name(p.type()) + ">";
        });

    // Upstream's Python has no BufferConstraint class (its buffer_constraints()
    // cannot convert its result); ours returns these.
    bound_class<Halide::BufferConstraint>(m, "BufferConstraint")
        .def_readonly("min", &Halide::BufferConstraint::min)
        .def_readonly("extent", &Halide::BufferConstraint::extent)
        .def_readonly("stride", &Halide::BufferConstraint::stride)
        .def_readonly("min_estimate", &Halide::BufferConstraint::min_estimate)
        .def_readonly("extent_estimate", &Halide::BufferConstraint::extent_estimate)
        .def("__repr__", [](const Halide::BufferConstraint &c) {
            auto text = [](const Expr &e) {
                std::ostringstream os;
                if (e.defined()) {
                    os << e;
                } else {
                    os << "None";
                }
                return os.str();
            };
            return "<halide.BufferConstraint min=" + text(c.min) + " extent=" + text(c.extent) +
                   " stride=" + text(c.stride) + ">";
        });

    bound_class<Halide::OutputImageParam>(m, "OutputImageParam").def("parameter", &Halide::OutputImageParam::parameter);
    bound_class<Halide::Param<>>(m, "Param").def("parameter", &Halide::Param<>::parameter);
}

} // namespace halide_py
