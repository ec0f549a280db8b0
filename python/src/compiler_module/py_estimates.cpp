// Estimates, as upstream's Python has them: hl.ArgumentEstimates and
// Argument.argument_estimates (what infer_arguments and Argument(param)
// report of a Param's range and estimate or a buffer's expected region),
// Func.set_estimate for one dimension of an output's region
// (Func.set_estimates: py_func.cpp).
#include "py_compiler.h"

namespace halide_py {

using Halide::ArgumentEstimates;
using Halide::Expr;
using Halide::Func;
using Halide::Range;
using Halide::Region;

Region estimates_region(const py::sequence &estimates, const char *what) {
    Region region;
    for (size_t i = 0; i < py::len(estimates); i++) {
        py::object item = estimates[i];
        if (py::isinstance<Range>(item)) {
            region.push_back(item.cast<Range>());
        } else if ((py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) && py::len(item) == 2) {
            auto pair = py::reinterpret_borrow<py::sequence>(item);
            region.push_back(Range{to_expr(pair[0], "estimate min"), to_expr(pair[1], "estimate extent")});
        } else {
            throw py::type_error(std::string(what) + ": estimates[" + std::to_string(i) +
                                 "] must be a halide.Range or a (min, extent) pair, got " +
                                 std::string(py::str(py::type::handle_of(item).attr("__name__"))));
        }
    }
    return region;
}

void define_estimates(py::module_ &m) {
    bound_class<ArgumentEstimates>(m, "ArgumentEstimates")
        .def(py::init<>())
        .def_readwrite("scalar_def", &ArgumentEstimates::scalar_def)
        .def_readwrite("scalar_min", &ArgumentEstimates::scalar_min)
        .def_readwrite("scalar_max", &ArgumentEstimates::scalar_max)
        .def_readwrite("scalar_estimate", &ArgumentEstimates::scalar_estimate)
        .def_readwrite("buffer_estimates", &ArgumentEstimates::buffer_estimates)
        .def("__repr__", [](const ArgumentEstimates &e) {
            std::string s = "<halide.ArgumentEstimates";
            auto field = [&](const char *name, const Expr &v) {
                if (v.defined()) {
                    s += std::string(" ") + name + "=" + expr_repr(v);
                }
            };
            field("scalar_def", e.scalar_def);
            field("scalar_min", e.scalar_min);
            field("scalar_max", e.scalar_max);
            field("scalar_estimate", e.scalar_estimate);
            if (!e.buffer_estimates.empty()) {
                s += " buffer_estimates=" + std::to_string(e.buffer_estimates.size()) + " ranges";
            }
            return s + ">";
        });

    bound_class<Halide::Argument>(m, "Argument")
        .def_readwrite("argument_estimates", &Halide::Argument::argument_estimates);

    constexpr auto self_ref = py::return_value_policy::reference_internal;
    bound_class<Func>(m, "Func").def(
        "set_estimate",
        [](Func &f, const Halide::Var &var, const py::object &min, const py::object &extent) -> Func & {
            return f.set_estimate(var, to_expr(min, "min"), to_expr(extent, "extent"));
        },
        py::arg("var"), py::arg("min"), py::arg("extent"), self_ref);
}

} // namespace halide_py
