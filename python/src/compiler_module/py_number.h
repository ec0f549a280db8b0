// Python numbers as the C++ values Param::set and Parameter::set_scalar
// convert (shared by py_param.cpp and py_parameter.cpp).
#ifndef HALIDE_PY_NUMBER_H
#define HALIDE_PY_NUMBER_H

#include <string>

#include "py_compiler.h"

namespace halide_py {

// Calls f with a Python number as the C++ type that holds it: bool,
// int64_t, uint64_t (large ints) or double. Param::set then converts it to
// the Param's type, refusing values that would change.
template <typename F> inline void with_number(const py::object &value, const char *what, F &&f) {
    PyObject *o = value.ptr();
    if (PyBool_Check(o)) {
        f(o == Py_True);
        return;
    }
    if (PyIndex_Check(o) && !PyFloat_Check(o)) {
        py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(o));
        if (!i) {
            throw py::error_already_set();
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
        if (!overflow) {
            f((int64_t)v);
            return;
        }
        unsigned long long u = PyLong_AsUnsignedLongLong(i.ptr());
        if (!PyErr_Occurred()) {
            f((uint64_t)u);
            return;
        }
        PyErr_Clear();
        throw Halide::CompileError(Halide::Internal::user_error_text(
            "The value " + std::string(py::str(value)) + " cannot be losslessly converted to any 64-bit type"));
    }
    if (PyFloat_Check(o) || (Py_TYPE(o)->tp_as_number && Py_TYPE(o)->tp_as_number->nb_float)) {
        double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) {
            throw py::error_already_set();
        }
        f(d);
        return;
    }
    throw py::type_error(std::string(what) + ": expected an int, float or bool, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

} // namespace halide_py

#endif
