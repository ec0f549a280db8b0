// See scalars.h.
#include "scalars.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

#include "errors.h"
#include "halide_python_marshal.h"

namespace py = pybind11;

namespace halide_python {
namespace {

[[noreturn]] void raise_with_note(const std::string &what) {
    add_context_note(what.c_str());
    throw py::error_already_set();
}

bool is_numpy_bool(PyObject *value) {
    const char *name = Py_TYPE(value)->tp_name;
    return std::strcmp(name, "numpy.bool") == 0 || std::strcmp(name, "numpy.bool_") == 0;
}

// An integer value as int64 or uint64, raising for non-integers.
struct IntegerValue {
    bool negative;
    int64_t as_signed;
    uint64_t as_unsigned;
    bool too_large; // beyond 64 bits
};

// The C++ type upstream's bindings convert a scalar of `type` to.
const char *c_type_name(halide_type_t type) {
    switch (type.code) {
    case halide_type_int:
        switch (type.bits) {
        case 8: return "int8_t";
        case 16: return "int16_t";
        case 32: return "int32_t";
        default: return "int64_t";
        }
    case halide_type_uint:
        switch (type.bits) {
        case 1: return "bool";
        case 8: return "uint8_t";
        case 16: return "uint16_t";
        case 32: return "uint32_t";
        default: return "uint64_t";
        }
    case halide_type_float: return type.bits == 64 ? "double" : (type.bits == 32 ? "float" : "float16_t");
    default: return "uint64_t";
    }
}

// Upstream's words for a value it cannot convert, e.g. "Unable to cast Python
// instance of type <class 'float'> to C++ type 'int32_t'".
std::string unable_to_cast(PyObject *value, halide_type_t type) {
    std::string type_text = Py_TYPE(value)->tp_name;
    PyObject *text = PyObject_Str(reinterpret_cast<PyObject *>(Py_TYPE(value)));
    if (text) {
        const char *utf8 = PyUnicode_AsUTF8(text);
        if (utf8) {
            type_text = utf8;
        }
        Py_DECREF(text);
    }
    PyErr_Clear();
    return "Unable to cast Python instance of type " + type_text + " to C++ type '" + c_type_name(type) + "'";
}

[[noreturn]] void wrong_kind(PyObject *value, halide_type_t type, const std::string &what, const char *expected) {
    raise_argument_error(what + ": expected " + expected + ", got " + Py_TYPE(value)->tp_name + " (" +
                         unable_to_cast(value, type) + ")");
}

IntegerValue read_integer(PyObject *value, halide_type_t type, const std::string &what) {
    if (PyFloat_Check(value) || !PyIndex_Check(value)) {
        wrong_kind(value, type, what, "an integer");
    }
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(value));
    if (!index) {
        raise_with_note(what);
    }
    IntegerValue r{false, 0, 0, false};
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) {
        raise_with_note(what);
    }
    if (overflow < 0) {
        r.negative = true;
        r.too_large = true;
    } else if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(index.ptr());
        if (u == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            r.too_large = true;
        } else {
            r.as_unsigned = u;
            r.as_signed = -1; // not representable as int64
        }
    } else {
        r.negative = v < 0;
        r.as_signed = v;
        r.as_unsigned = (uint64_t)v;
    }
    return r;
}

std::string repr(PyObject *value) {
    py::object r = py::reinterpret_steal<py::object>(PyObject_Repr(value));
    if (!r) {
        PyErr_Clear();
        return "<value>";
    }
    return py::str(r);
}

[[noreturn]] void out_of_range(PyObject *value, halide_type_t type, const std::string &what, const std::string &range) {
    raise_range_error(what + ": " + repr(value) + " is not representable as " + type_name(type) + " " + range + " (" +
                      unable_to_cast(value, type) + ")");
}

} // namespace

uint16_t float_to_half_bits(double value, bool *overflow) {
    *overflow = false;
    float f = (float)value;
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exponent = (x >> 23) & 0xffu;
    uint32_t mantissa = x & 0x7fffffu;
    if (exponent == 0xff) { // inf or nan
        return (uint16_t)(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    }
    int e = (int)exponent - 127 + 15;
    if (e >= 31) {
        *overflow = true;
        return (uint16_t)(sign | 0x7c00u);
    }
    if (e <= 0) { // subnormal half or zero
        if (e < -10) {
            return (uint16_t)sign;
        }
        mantissa |= 0x800000u;
        int shift = 14 - e;
        uint32_t half = mantissa >> shift;
        uint32_t rest = mantissa & ((1u << shift) - 1);
        uint32_t halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (half & 1u))) {
            half++;
        }
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (mantissa >> 13);
    uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) {
        half++; // may carry into the exponent, which is still correct
    }
    if ((half & 0x7c00u) == 0x7c00u) {
        *overflow = true;
    }
    return (uint16_t)(sign | half);
}

double half_bits_to_double(uint16_t bits) {
    int sign = bits >> 15;
    int exponent = (bits >> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    double v;
    if (exponent == 0) {
        v = std::ldexp((double)mantissa, -24);
    } else if (exponent == 31) {
        v = mantissa ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else {
        v = std::ldexp((double)(mantissa | 0x400), exponent - 25);
    }
    return sign ? -v : v;
}

void to_scalar(PyObject *value, halide_type_t type, const std::string &what, halide_scalar_value_t *out) {
    out->u.u64 = 0;
    switch (type.code) {
    case halide_type_uint:
        if (type.bits == 1) {
            // As upstream (pybind11's bool conversion): bools, None and any
            // number take their truth value.
            PyNumberMethods *number = Py_TYPE(value)->tp_as_number;
            if (PyBool_Check(value) || is_numpy_bool(value) || value == Py_None ||
                (number != nullptr && number->nb_bool != nullptr)) {
                int truth = PyObject_IsTrue(value);
                if (truth < 0) {
                    raise_with_note(what);
                }
                out->u.b = truth != 0;
                return;
            }
            IntegerValue i = read_integer(value, type, what);
            if (i.too_large || i.negative || i.as_unsigned > 1) {
                out_of_range(value, type, what, "(expected True, False, 0 or 1)");
            }
            out->u.b = i.as_unsigned != 0;
            return;
        }
        [[fallthrough]];
    case halide_type_int: {
        IntegerValue i = read_integer(value, type, what);
        bool is_signed = type.code == halide_type_int;
        int bits = type.bits;
        if (is_signed) {
            int64_t lo = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
            int64_t hi = bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1;
            if (i.too_large || (!i.negative && i.as_signed == -1) || i.as_signed < lo || i.as_signed > hi) {
                out_of_range(value, type, what, "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
            }
            switch (bits) {
            case 8: out->u.i8 = (int8_t)i.as_signed; break;
            case 16: out->u.i16 = (int16_t)i.as_signed; break;
            case 32: out->u.i32 = (int32_t)i.as_signed; break;
            default: out->u.i64 = i.as_signed; break;
            }
        } else {
            uint64_t hi = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
            if (i.too_large || i.negative || i.as_unsigned > hi) {
                out_of_range(value, type, what, "[0, " + std::to_string(hi) + "]");
            }
            switch (bits) {
            case 8: out->u.u8 = (uint8_t)i.as_unsigned; break;
            case 16: out->u.u16 = (uint16_t)i.as_unsigned; break;
            case 32: out->u.u32 = (uint32_t)i.as_unsigned; break;
            default: out->u.u64 = i.as_unsigned; break;
            }
        }
        return;
    }
    case halide_type_float: {
        if (!PyFloat_Check(value) && !PyLong_Check(value) && !PyNumber_Check(value)) {
            wrong_kind(value, type, what, "a number");
        }
        double d = PyFloat_AsDouble(value);
        if (d == -1.0 && PyErr_Occurred()) {
            raise_with_note(what);
        }
        if (type.bits == 64) {
            out->u.f64 = d;
        } else if (type.bits == 32) {
            if (std::isfinite(d) && std::fabs(d) > (double)FLT_MAX) {
                out_of_range(value, type, what, "(magnitude above 3.4028235e38)");
            }
            out->u.f32 = (float)d;
        } else if (type.bits == 16) {
            bool overflow = false;
            out->u.u16 = float_to_half_bits(d, &overflow);
            if (overflow && std::isfinite(d)) {
                out_of_range(value, type, what, "(magnitude above 65504)");
            }
        } else {
            throw py::type_error(what + ": unsupported float width " + std::to_string(type.bits));
        }
        return;
    }
    case halide_type_handle: {
        if (value == Py_None) {
            out->u.handle = nullptr;
            return;
        }
        if (PyCapsule_CheckExact(value)) {
            void *p = PyCapsule_GetPointer(value, PyCapsule_GetName(value));
            if (!p && PyErr_Occurred()) {
                raise_with_note(what);
            }
            out->u.handle = p;
            return;
        }
        IntegerValue i = read_integer(value, type, what);
        if (i.too_large || i.negative) {
            out_of_range(value, type, what, "(expected None, a capsule or an address in [0, 2**64))");
        }
        out->u.handle = reinterpret_cast<void *>((uintptr_t)i.as_unsigned);
        return;
    }
    default: throw py::type_error(what + ": scalars of type " + type_name(type) + " are not supported");
    }
}

py::object from_scalar(const void *bits, halide_type_t type) {
    halide_scalar_value_t v;
    std::memset(&v, 0, sizeof(v));
    std::memcpy(&v, bits, (size_t)type.bytes());
    switch (type.code) {
    case halide_type_int:
        switch (type.bits) {
        case 8: return py::int_(v.u.i8);
        case 16: return py::int_(v.u.i16);
        case 32: return py::int_(v.u.i32);
        default: return py::int_(v.u.i64);
        }
    case halide_type_uint:
        switch (type.bits) {
        case 1: return py::bool_(v.u.u8 != 0);
        case 8: return py::int_(v.u.u8);
        case 16: return py::int_(v.u.u16);
        case 32: return py::int_(v.u.u32);
        default: return py::int_(v.u.u64);
        }
    case halide_type_float:
        switch (type.bits) {
        case 16: return py::float_(half_bits_to_double(v.u.u16));
        case 32: return py::float_(v.u.f32);
        default: return py::float_(v.u.f64);
        }
    case halide_type_handle: return py::int_((uint64_t)(uintptr_t)v.u.handle);
    default: throw py::type_error("values of type " + type_name(type) + " are not supported");
    }
}

namespace {

// Compares two scalars of the same type: <0, 0 or >0.
int compare(const halide_scalar_value_t &a, const halide_scalar_value_t &b, halide_type_t type) {
    auto cmp = [](auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); };
    switch (type.code) {
    case halide_type_int:
        switch (type.bits) {
        case 8: return cmp(a.u.i8, b.u.i8);
        case 16: return cmp(a.u.i16, b.u.i16);
        case 32: return cmp(a.u.i32, b.u.i32);
        default: return cmp(a.u.i64, b.u.i64);
        }
    case halide_type_uint:
        switch (type.bits) {
        case 1: return cmp(a.u.u8 != 0, b.u.u8 != 0);
        case 8: return cmp(a.u.u8, b.u.u8);
        case 16: return cmp(a.u.u16, b.u.u16);
        case 32: return cmp(a.u.u32, b.u.u32);
        default: return cmp(a.u.u64, b.u.u64);
        }
    case halide_type_float:
        switch (type.bits) {
        case 16: return cmp(half_bits_to_double(a.u.u16), half_bits_to_double(b.u.u16));
        case 32: return cmp(a.u.f32, b.u.f32);
        default: return cmp(a.u.f64, b.u.f64);
        }
    default: return 0;
    }
}

} // namespace

void check_scalar_range(const halide_scalar_value_t &value, halide_type_t type, const halide_scalar_value_t *min,
                        const halide_scalar_value_t *max, const std::string &what) {
    if (type.code == halide_type_handle) {
        return;
    }
    bool low = min && compare(value, *min, type) < 0;
    bool high = max && compare(value, *max, type) > 0;
    if (low || high) {
        std::string range = std::string("[") + (min ? std::string(py::str(from_scalar(min, type))) : "-inf") + ", " +
                            (max ? std::string(py::str(from_scalar(max, type))) : "inf") + "]";
        raise_range_error(what + ": " + std::string(py::str(from_scalar(&value, type))) +
                          " is outside the kernel's range " + range);
    }
}

} // namespace halide_python
