// halide_python_marshal.h: Python buffer protocol <-> halide_buffer_t.
//
// The one place where a Python object exporting the buffer protocol (NumPy
// first) becomes a halide_buffer_t. It is compiled into halide.runtime and
// into every Python extension the compiler generates, so it depends only on
// the CPython C API, the C++ standard library and HalideRuntime.h, and
// everything in it is inline.
//
// Conventions:
// - Functions that can fail return false with a Python exception set; the
//   message names the argument (`what`) and what was expected.
// - Axes are reversed by default, so NumPy's last (fastest) axis becomes
//   Halide dimension 0, as upstream Halide's bindings do.
// - Element types come from the buffer's format character and item size;
//   only native byte order is accepted.
#ifndef HALIDE_PYTHON_MARSHAL_H
#define HALIDE_PYTHON_MARSHAL_H

#ifndef PY_SSIZE_T_CLEAN
#define PY_SSIZE_T_CLEAN
#endif
#include <Python.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "HalideRuntime.h"

namespace halide_python {

// "uint8", "float32", "bool", "handle", ...
inline std::string type_name(halide_type_t t) {
    switch (t.code) {
    case halide_type_int: return "int" + std::to_string(t.bits);
    case halide_type_uint: return t.bits == 1 ? std::string("bool") : "uint" + std::to_string(t.bits);
    case halide_type_float: return "float" + std::to_string(t.bits);
    case halide_type_bfloat: return "bfloat" + std::to_string(t.bits);
    case halide_type_handle: return "handle";
    }
    return "<type code " + std::to_string((int)t.code) + ">";
}

// Same (code, bits): the third halfword is a version marker (ABI.md H1).
inline bool same_element_type(halide_type_t a, halide_type_t b) {
    return a.code == b.code && a.bits == b.bits;
}

// Adds the note "<what>: raised while converting this value" to the
// exception being raised, keeping its type and message (an exporter's own
// exception is preserved).
inline void add_context_note(const char *what) {
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (value) {
        PyObject *note = PyUnicode_FromFormat("%s: raised while converting this value", what);
        if (note) {
            PyObject *r = PyObject_CallMethod(value, "add_note", "O", note);
            Py_XDECREF(r);
            Py_DECREF(note);
            PyErr_Clear(); // a failed note must not replace the real error
        }
        if (traceback) {
            PyException_SetTraceback(value, traceback);
        }
    }
    PyErr_Restore(type, value, traceback);
#else
    (void)what;
#endif
}

// The class raised for a read-only array given as an output: a BufferError
// that is also a ValueError (NumPy raises ValueError for it). halide.runtime
// stores its own ReadOnlyBufferError here at import; elsewhere (generated
// extensions) a class of that name is made on first use. Needs the GIL.
inline PyObject *&read_only_buffer_error_slot() {
    static PyObject *type = nullptr;
    return type;
}

inline PyObject *read_only_buffer_error() {
    PyObject *&type = read_only_buffer_error_slot();
    if (!type) {
        PyObject *bases = PyTuple_Pack(2, PyExc_BufferError, PyExc_ValueError);
        type = bases ? PyErr_NewException("halide.ReadOnlyBufferError", bases, nullptr) : nullptr;
        Py_XDECREF(bases);
        if (!type) {
            PyErr_Clear();
            return PyExc_BufferError;
        }
    }
    return type;
}

// Maps a struct-module format string and item size to a Halide type.
// Returns false with a ValueError naming `what` when it cannot.
inline bool type_from_format(const char *format, Py_ssize_t itemsize, const char *what, halide_type_t *out) {
    if (!format) {
        format = "B"; // no format means unsigned bytes
    }
    const char *f = format;
    char order = '@';
    if (*f == '@' || *f == '=' || *f == '<' || *f == '>' || *f == '!') {
        order = *f++;
    }
    if (f[0] == '\0' || f[1] != '\0') {
        PyErr_Format(PyExc_ValueError,
                     "%s: Invalid data type '%s': unsupported buffer format (expected a single bool, integer or "
                     "float element type)",
                     what, format);
        return false;
    }
    halide_type_code_t code;
    int bytes;
    switch (f[0]) {
    case '?':
        code = halide_type_uint;
        bytes = 1;
        break;
    case 'b':
        code = halide_type_int;
        bytes = 1;
        break;
    case 'B':
        code = halide_type_uint;
        bytes = 1;
        break;
    case 'h':
        code = halide_type_int;
        bytes = 2;
        break;
    case 'H':
        code = halide_type_uint;
        bytes = 2;
        break;
    case 'i':
        code = halide_type_int;
        bytes = 4;
        break;
    case 'I':
        code = halide_type_uint;
        bytes = 4;
        break;
    // 'l' and 'L' are native longs with '@' and 4 bytes with an explicit order.
    case 'l':
        code = halide_type_int;
        bytes = order == '@' ? (int)sizeof(long) : 4;
        break;
    case 'L':
        code = halide_type_uint;
        bytes = order == '@' ? (int)sizeof(long) : 4;
        break;
    case 'q':
        code = halide_type_int;
        bytes = 8;
        break;
    case 'Q':
        code = halide_type_uint;
        bytes = 8;
        break;
    // 'n' and 'N' (ssize_t, size_t) exist only in native mode.
    case 'n':
        code = halide_type_int;
        bytes = order == '@' ? (int)sizeof(Py_ssize_t) : 0;
        break;
    case 'N':
        code = halide_type_uint;
        bytes = order == '@' ? (int)sizeof(size_t) : 0;
        break;
    case 'e':
        code = halide_type_float;
        bytes = 2;
        break;
    case 'f':
        code = halide_type_float;
        bytes = 4;
        break;
    case 'd':
        code = halide_type_float;
        bytes = 8;
        break;
    default:
        PyErr_Format(PyExc_ValueError,
                     "%s: Invalid data type '%s': unsupported buffer format (expected bool, integer or float "
                     "elements)",
                     what, format);
        return false;
    }
    if (bytes == 0) {
        PyErr_Format(PyExc_ValueError,
                     "%s: Invalid data type '%s': unsupported buffer format ('%c' exists only in native mode)", what,
                     format, f[0]);
        return false;
    }
    if (itemsize != bytes) {
        PyErr_Format(PyExc_ValueError,
                     "%s: Invalid data type '%s': the format implies %d-byte elements but the item size is %zd", what,
                     format, bytes, itemsize);
        return false;
    }
    const bool big_endian_host = false; // x86-64 and AArch64 Linux
    bool non_native = (order == '>' || order == '!') ? !big_endian_host : (order == '<' ? big_endian_host : false);
    if (non_native && bytes > 1) {
        PyErr_Format(PyExc_ValueError,
                     "%s: Non-native byte order %s is not supported; convert the array first, e.g. with "
                     "numpy.ascontiguousarray(a, dtype=a.dtype.newbyteorder('='))",
                     what, format);
        return false;
    }
    out->code = code;
    out->bits = f[0] == '?' ? 1 : (uint8_t)(bytes * 8);
    out->lanes = 1;
    return true;
}

// A halide_buffer_t describing a Python buffer-protocol object, holding the
// Py_buffer (and so the exporter) until it is released or destroyed. Must be
// destroyed with the GIL held.
class MarshaledBuffer {
public:
    MarshaledBuffer() { std::memset(&view_, 0, sizeof(view_)); }
    ~MarshaledBuffer() { release(); }
    MarshaledBuffer(const MarshaledBuffer &) = delete;
    MarshaledBuffer &operator=(const MarshaledBuffer &) = delete;

    // Fills `buffer` from `obj`. `writable` asks for a writable buffer
    // (outputs); `reverse_axes` maps the last axis to dimension 0.
    bool acquire(PyObject *obj, const char *what, bool writable, bool reverse_axes) {
        release();
        if (PyObject_GetBuffer(obj, &view_, PyBUF_RECORDS_RO) != 0) {
            add_context_note(what);
            return false;
        }
        has_view_ = true;
        if (writable && view_.readonly) {
            PyErr_Format(read_only_buffer_error(),
                         "%s: buffer source array is read-only (not writable), but an output buffer must be writable",
                         what);
            release();
            return false;
        }
        buffer = halide_buffer_t();
        if (!type_from_format(view_.format, view_.itemsize, what, &buffer.type)) {
            release();
            return false;
        }
        int ndim = view_.ndim;
        if (ndim > kInlineDims) {
            heap_dims_.reset(new halide_dimension_t[ndim]);
        }
        halide_dimension_t *dims = ndim > kInlineDims ? heap_dims_.get() : inline_dims_;
        for (int i = 0; i < ndim; i++) {
            Py_ssize_t extent = view_.shape[i];
            Py_ssize_t byte_stride = view_.strides ? view_.strides[i] : 0;
            if (!view_.strides) {
                // C-contiguous: the exporter left strides to us.
                byte_stride = view_.itemsize;
                for (int j = i + 1; j < ndim; j++) {
                    byte_stride *= view_.shape[j];
                }
            }
            if (byte_stride % view_.itemsize != 0) {
                PyErr_Format(PyExc_ValueError,
                             "%s: Buffer byte stride is not a multiple of its item size: the stride of axis %d is "
                             "%zd bytes, the item size %zd bytes",
                             what, i, byte_stride, view_.itemsize);
                release();
                return false;
            }
            Py_ssize_t stride = byte_stride / view_.itemsize;
            if (extent > INT32_MAX) {
                PyErr_Format(PyExc_ValueError,
                             "%s: Buffer extent is out of range: axis %d has %zd elements, more than a "
                             "halide_buffer_t holds (%d)",
                             what, i, extent, INT32_MAX);
                release();
                return false;
            }
            if (stride > INT32_MAX || stride < INT32_MIN) {
                PyErr_Format(PyExc_ValueError,
                             "%s: Buffer stride is out of range: the stride of axis %d (%zd elements) does not fit "
                             "in a 32-bit halide_buffer_t stride",
                             what, i, stride);
                release();
                return false;
            }
            int d = reverse_axes ? ndim - 1 - i : i;
            dims[d] = halide_dimension_t{0, (int32_t)extent, (int32_t)stride, 0};
        }
        buffer.host = static_cast<uint8_t *>(view_.buf);
        buffer.dimensions = ndim;
        buffer.dim = dims;
        return true;
    }

    void release() {
        if (has_view_) {
            PyBuffer_Release(&view_);
            has_view_ = false;
        }
    }

    bool holds_view() const { return has_view_; }
    const Py_buffer &view() const { return view_; }

    halide_buffer_t buffer{};

private:
    static constexpr int kInlineDims = 8;
    Py_buffer view_;
    bool has_view_ = false;
    halide_dimension_t inline_dims_[kInlineDims];
    std::unique_ptr<halide_dimension_t[]> heap_dims_;
};

// Capsules that carry a halide_buffer_t between extensions without copies.
// The ABI's major version is part of the name, so a capsule made against
// another version is refused instead of misread.
#define HALIDE_PYTHON_STR2(x) #x
#define HALIDE_PYTHON_STR(x) HALIDE_PYTHON_STR2(x)
#define HALIDE_BUFFER_CAPSULE_NAME "halide.halide_buffer_t.v" HALIDE_PYTHON_STR(HALIDE_VERSION_MAJOR)
#define HALIDE_BUFFER_CAPSULE_METHOD "_get_halide_buffer_t_capsule"

// If `obj` offers a buffer capsule, returns true and sets *capsule (a new
// reference) and *buffer; returns true with *capsule == NULL when it offers
// none; returns false with an exception set when it offers a bad one.
inline bool buffer_from_capsule(PyObject *obj, const char *what, PyObject **capsule, halide_buffer_t **buffer) {
    *capsule = nullptr;
    *buffer = nullptr;
    PyObject *method = PyObject_GetAttrString(obj, HALIDE_BUFFER_CAPSULE_METHOD);
    if (!method) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return false;
        }
        PyErr_Clear();
        return true;
    }
    PyObject *cap = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (!cap) {
        add_context_note(what);
        return false;
    }
    if (!PyCapsule_CheckExact(cap)) {
        PyErr_Format(PyExc_TypeError, "%s: %s() returned %s, expected a capsule named '%s'", what,
                     HALIDE_BUFFER_CAPSULE_METHOD, Py_TYPE(cap)->tp_name, HALIDE_BUFFER_CAPSULE_NAME);
        Py_DECREF(cap);
        return false;
    }
    const char *name = PyCapsule_GetName(cap);
    if (!name || std::strcmp(name, HALIDE_BUFFER_CAPSULE_NAME) != 0) {
        PyErr_Format(PyExc_TypeError,
                     "%s: buffer capsule is named '%s' but this runtime expects '%s' (made by an incompatible "
                     "Halide version?)",
                     what, name ? name : "<unnamed>", HALIDE_BUFFER_CAPSULE_NAME);
        Py_DECREF(cap);
        return false;
    }
    auto *b = static_cast<halide_buffer_t *>(PyCapsule_GetPointer(cap, name));
    if (!b) {
        Py_DECREF(cap);
        return false;
    }
    *capsule = cap;
    *buffer = b;
    return true;
}

} // namespace halide_python

#endif // HALIDE_PYTHON_MARSHAL_H
