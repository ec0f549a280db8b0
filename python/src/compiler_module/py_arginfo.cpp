// hl.ArgInfo, hl.ArgInfoDirection, hl.ArgInfoKind: what a Python generator's
// _get_arginfos() describes its Inputs and Outputs with (name, direction,
// kind, types, dimensions), as upstream's Python API has them. The fields
// are read-only, as upstream's.
#include <string>
#include <vector>

#include "py_compiler.h"

namespace halide_py {

namespace {

enum class ArgInfoDirection { Input, Output };
// Upstream's values: a Func-valued argument sits between the two.
enum class ArgInfoKind { Scalar, Function, Buffer };

struct ArgInfo {
    std::string name;
    ArgInfoDirection dir = ArgInfoDirection::Input;
    ArgInfoKind kind = ArgInfoKind::Scalar;
    std::vector<Halide::Type> types;
    int dimensions = 0;
};

} // namespace

void define_arginfo(py::module_ &m) {
    py::enum_<ArgInfoDirection>(m, "ArgInfoDirection")
        .value("Input", ArgInfoDirection::Input)
        .value("Output", ArgInfoDirection::Output);
    py::enum_<ArgInfoKind>(m, "ArgInfoKind")
        .value("Scalar", ArgInfoKind::Scalar)
        .value("Function", ArgInfoKind::Function)
        .value("Buffer", ArgInfoKind::Buffer);
    py::class_<ArgInfo>(m, "ArgInfo")
        .def(py::init<>())
        .def(py::init([](const std::string &name, ArgInfoDirection dir, ArgInfoKind kind,
                         const std::vector<Halide::Type> &types, int dimensions) {
                 return ArgInfo{name, dir, kind, types, dimensions};
             }),
             py::arg("name"), py::arg("dir"), py::arg("kind"), py::arg("types"), py::arg("dimensions"))
        .def_readonly("name", &ArgInfo::name)
        .def_readonly("dir", &ArgInfo::dir)
        .def_readonly("kind", &ArgInfo::kind)
        .def_readonly("types", &ArgInfo::types)
        .def_readonly("dimensions", &ArgInfo::dimensions)
        .def("__repr__", [](const ArgInfo &a) {
            return "<halide.ArgInfo '" + a.name + "' " + (a.dir == ArgInfoDirection::Input ? "input" : "output") +
                   ", " + std::to_string(a.types.size()) + " type(s), " + std::to_string(a.dimensions) +
                   " dimension(s)>";
        });
}

} // namespace halide_py
