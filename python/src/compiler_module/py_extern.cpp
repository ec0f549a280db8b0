// hl.ExternFuncArgument, hl.NameMangling and Func.define_extern /
// is_extern / extern_function_name, with upstream's overloads: a Func
// computed by a C function (int fn(halide_buffer_t *inputs..., scalars...,
// halide_buffer_t *outputs...)). The JIT finds the function among the
// process's symbols: a shared library loaded with
// ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL) provides it.
#include "py_compiler.h"

namespace halide_py {

using Halide::DeviceAPI;
using Halide::Expr;
using Halide::ExternFuncArgument;
using Halide::Func;
using Halide::NameMangling;
using Halide::Type;
using Halide::Var;

namespace {

py::arg_v mangling_arg() {
    return py::arg_v("mangling", NameMangling::Default, "NameMangling.Default");
}
py::arg_v device_api_arg() {
    return py::arg_v("device_api", DeviceAPI::Host, "DeviceAPI.Host");
}

} // namespace

void define_extern(py::module_ &m) {
    py::enum_<NameMangling>(m, "NameMangling")
        .value("Default", NameMangling::Default)
        .value("C", NameMangling::C)
        .value("CPlusPlus", NameMangling::CPlusPlus);

    // Implicit conversions from each kind (registered first to last: a
    // Python int is an int, a float a float, before the Expr they also make).
    py::class_<ExternFuncArgument>(m, "ExternFuncArgument")
        .def(py::init<>())
        .def(py::init([](const Halide::Buffer<> &b) { return ExternFuncArgument(b); }))
        // Func, Param and ImageParam before Expr: a Param also converts to an
        // Expr, and the stub's overloads must not shadow each other for mypy.
        .def(py::init<const Func &>())
        .def(py::init([](const Halide::Param<> &p) { return ExternFuncArgument(Expr(p)); }))
        .def(py::init<const Halide::ImageParam &>())
        .def(py::init<Expr>())
        .def(py::init<int>())
        .def(py::init<float>())
        .def("is_func", &ExternFuncArgument::is_func)
        .def("is_expr", &ExternFuncArgument::is_expr)
        .def("is_buffer", &ExternFuncArgument::is_buffer)
        .def("is_image_param", &ExternFuncArgument::is_image_param)
        .def("defined", &ExternFuncArgument::defined);
    py::implicitly_convertible<Halide::Buffer<>, ExternFuncArgument>();
    py::implicitly_convertible<Expr, ExternFuncArgument>();
    py::implicitly_convertible<int, ExternFuncArgument>();
    py::implicitly_convertible<float, ExternFuncArgument>();
    py::implicitly_convertible<Func, ExternFuncArgument>();
    py::implicitly_convertible<Halide::Param<>, ExternFuncArgument>();
    py::implicitly_convertible<Halide::ImageParam, ExternFuncArgument>();

    using Params = const std::vector<ExternFuncArgument> &;
    bound_class<Func>(m, "Func")
        .def(
            "define_extern",
            [](Func &self, const std::string &name, Params params, const std::vector<Type> &types,
               const std::vector<Var> &arguments, NameMangling mangling,
               DeviceAPI device_api) { self.define_extern(name, params, types, arguments, mangling, device_api); },
            py::arg("function_name"), py::arg("params"), py::arg("types"), py::arg("arguments"), mangling_arg(),
            device_api_arg())
        .def(
            "define_extern",
            [](Func &self, const std::string &name, Params params, const Type &type, int dimensionality,
               NameMangling mangling,
               DeviceAPI device_api) { self.define_extern(name, params, type, dimensionality, mangling, device_api); },
            py::arg("function_name"), py::arg("params"), py::arg("type"), py::arg("dimensionality"), mangling_arg(),
            device_api_arg())
        .def(
            "define_extern",
            [](Func &self, const std::string &name, Params params, const std::vector<Type> &types, int dimensionality,
               NameMangling mangling,
               DeviceAPI device_api) { self.define_extern(name, params, types, dimensionality, mangling, device_api); },
            py::arg("function_name"), py::arg("params"), py::arg("types"), py::arg("dimensionality"), mangling_arg(),
            device_api_arg())
        .def(
            "define_extern",
            [](Func &self, const std::string &name, Params params, const Type &type, const std::vector<Var> &arguments,
               NameMangling mangling,
               DeviceAPI device_api) { self.define_extern(name, params, type, arguments, mangling, device_api); },
            py::arg("function_name"), py::arg("params"), py::arg("type"), py::arg("arguments"), mangling_arg(),
            device_api_arg())
        .def("is_extern", &Func::is_extern)
        .def("extern_function_name", &Func::extern_function_name);
}

} // namespace halide_py
