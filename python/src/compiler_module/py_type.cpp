// hl.Type, hl.TypeCode and the constructors hl.Int(bits), hl.UInt, hl.Float,
// hl.BFloat, hl.Bool, hl.Handle.
#include "py_compiler.h"

namespace halide_py {

using Halide::Type;

std::string type_name(const Type &t) {
    std::string s;
    switch (t.code()) {
    case halide_type_int: s = "int"; break;
    case halide_type_uint: s = t.bits() == 1 ? "bool" : "uint"; break;
    case halide_type_float: s = "float"; break;
    case halide_type_bfloat: s = "bfloat"; break;
    case halide_type_handle: s = "handle"; break;
    default: s = "unknown"; break;
    }
    if (!t.is_bool()) {
        s += std::to_string(t.bits());
    }
    if (t.lanes() > 1) { // as upstream's: Type() (0 lanes) is "handle0"
        s += "x" + std::to_string(t.lanes());
    }
    return s;
}

namespace {

// Type::is_max / is_min for a Python int of any size.
bool is_extreme(const Type &t, const py::int_ &v, bool max) {
    int overflow = 0;
    long long i = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
    if (overflow == 0) {
        return max ? t.is_max((int64_t)i) : t.is_min((int64_t)i);
    }
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return false;
        }
        return max ? t.is_max((uint64_t)u) : t.is_min((uint64_t)u);
    }
    return false;
}

} // namespace

void define_type(py::module_ &m) {
    py::enum_<halide_type_code_t>(m, "TypeCode")
        .value("Int", halide_type_int)
        .value("UInt", halide_type_uint)
        .value("Float", halide_type_float)
        .value("Handle", halide_type_handle)
        .value("BFloat", halide_type_bfloat);

    bound_class<Type>(m, "Type")
        // As upstream's Type(): a handle of 0 bits and 0 lanes.
        .def(py::init([] { return Type(halide_type_handle, 0, 0); }))
        .def(py::init<halide_type_code_t, int, int>(), py::arg("code"), py::arg("bits"), py::arg("lanes") = 1)
        .def("bits", &Type::bits)
        .def("bytes", &Type::bytes)
        .def("code", &Type::code)
        .def("lanes", &Type::lanes)
        .def("is_bool", &Type::is_bool)
        .def("is_int", &Type::is_int)
        .def("is_uint", &Type::is_uint)
        .def("is_float", &Type::is_float)
        .def("is_bfloat", &Type::is_bfloat)
        .def("is_handle", &Type::is_handle)
        .def("is_scalar", &Type::is_scalar)
        .def("is_vector", &Type::is_vector)
        .def("with_code", &Type::with_code, py::arg("code"))
        .def("with_bits", &Type::with_bits, py::arg("bits"))
        .def("with_lanes", &Type::with_lanes, py::arg("lanes"))
        .def("element_of", &Type::element_of)
        .def("widen", &Type::widen)
        .def("narrow", &Type::narrow)
        .def("max", &Type::max)
        .def("min", &Type::min)
        .def(
            "is_max", [](const Type &t, const py::int_ &v) { return is_extreme(t, v, true); }, py::arg("value"))
        .def(
            "is_min", [](const Type &t, const py::int_ &v) { return is_extreme(t, v, false); }, py::arg("value"))
        .def(
            "can_represent", [](const Type &t, const Type &other) { return t.can_represent(other); }, py::arg("other"))
        .def("same_handle_type", &Type::same_handle_type, py::arg("other"))
        .def(py::self == py::self)
        .def(py::self != py::self)
        .def("__repr__", [](const Type &t) { return "<halide.Type " + type_name(t) + ">"; })
        .def("__str__", &type_name);

    m.def("Int", &Halide::Int, py::arg("bits"), py::arg("lanes") = 1);
    m.def("UInt", &Halide::UInt, py::arg("bits"), py::arg("lanes") = 1);
    m.def("Float", &Halide::Float, py::arg("bits"), py::arg("lanes") = 1);
    m.def("BFloat", &Halide::BFloat, py::arg("bits"), py::arg("lanes") = 1);
    m.def("Bool", &Halide::Bool, py::arg("lanes") = 1);
    m.def(
        "Handle", [](int lanes) { return Halide::Handle(lanes); }, py::arg("lanes") = 1);
}

} // namespace halide_py
