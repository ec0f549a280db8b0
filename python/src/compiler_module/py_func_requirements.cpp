// hl.Func(type, dimensions, name) and hl.Func([types], dimensions, name), as
// upstream's: a Func whose value types and number of dimensions are fixed
// before it is defined (the compiler's Func(types, dims, name), which refuses
// a pure definition that does not match). type(), types(), outputs() and
// dimensions() answer from the requirement while the Func is undefined (a
// generator's outputs are such Funcs, so generate() may read
// self.output.type()); without one the compiler raises upstream's errors.
#include "py_compiler.h"

namespace halide_py {

using Halide::Func;
using Halide::Type;

namespace {

void check_requirement(const std::vector<Type> &types, int dimensions) {
    if (types.empty()) {
        throw py::value_error("Func(): a typed Func needs at least one type");
    }
    if (dimensions < 0) {
        throw py::value_error("Func(): the number of dimensions must be non-negative, got " +
                              std::to_string(dimensions));
    }
}

} // namespace

void define_func_requirements(py::module_ &m) {
    auto cls = bound_class<Func>(m, "Func");
    cls.def(py::init([](const Type &t, int dimensions, const std::string &name) {
                check_requirement({t}, dimensions);
                return Func(t, dimensions, name);
            }),
            py::arg("required_type"), py::arg("required_dimensions"), py::arg("name") = "")
        .def(py::init([](const std::vector<Type> &types, int dimensions, const std::string &name) {
                 check_requirement(types, dimensions);
                 return Func(types, dimensions, name);
             }),
             py::arg("required_types"), py::arg("required_dimensions"), py::arg("name") = "")
        .def("type", [](const Func &f) { return f.type(); })
        .def("types", [](const Func &f) { return f.types(); })
        .def("outputs", [](const Func &f) { return f.outputs(); })
        .def("dimensions", [](const Func &f) { return f.dimensions(); });
}

} // namespace halide_py
