// hl.Tuple: the several values of a Func defined with a Tuple, as
// upstream's hl.Tuple([a, b]) or hl.Tuple(f[x, y]) (the values of a call);
// a Python tuple or list is accepted wherever a Tuple is.
#include "py_compiler.h"

namespace halide_py {

void define_tuple(py::module_ &m) {
    using Halide::Expr;
    using Halide::Tuple;
    bound_class<Tuple>(m, "Tuple")
        // Tuple(f[x, y]): the values of the call, as upstream.
        .def(py::init([](const Halide::FuncRef &call) { return Tuple(call); }), py::arg("f"))
        .def(py::init([](const py::iterable &values) {
                 std::vector<Expr> exprs;
                 for (const auto &v : values) {
                     exprs.push_back(to_expr(v, "Tuple value"));
                 }
                 return Tuple(exprs);
             }),
             py::arg("values"))
        .def("size", &Tuple::size)
        .def("__len__", &Tuple::size)
        .def(
            "__getitem__",
            [](const Tuple &t, size_t i) {
                if (i >= t.size()) {
                    throw py::index_error("Tuple index " + std::to_string(i) + " is out of range (size " +
                                          std::to_string(t.size()) + ")");
                }
                return t[i];
            },
            py::arg("index"))
        .def("as_vector", &Tuple::as_vector)
        .def("__repr__", [](const Tuple &t) { return "<halide.Tuple of " + std::to_string(t.size()) + " values>"; });
}

} // namespace halide_py
