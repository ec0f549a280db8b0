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
#include <vector>

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

// The struct-module format character of a Halide element type, or nullptr
// when the buffer protocol has none (handles, bfloat16, vectors).
inline const char *format_of(halide_type_t t) {
    if (t.lanes != 1) {
        return nullptr;
    }
    switch (t.code) {
    case halide_type_int:
        switch (t.bits) {
        case 8: return "b";
        case 16: return "h";
        case 32: return "i";
        case 64: return "q";
        }
        break;
    case halide_type_uint:
        switch (t.bits) {
        case 1: return "?";
        case 8: return "B";
        case 16: return "H";
        case 32: return "I";
        case 64: return "Q";
        }
        break;
    case halide_type_float:
        switch (t.bits) {
        case 16: return "e";
        case 32: return "f";
        case 64: return "d";
        }
        break;
    default: break;
    }
    return nullptr;
}

// One buffer-protocol export of a halide_buffer_t: shape and byte strides in
// NumPy order, owned by the Py_buffer (view->internal) until it is released.
// Subclasses add whatever keeps the memory alive; release_export() deletes
// through this base.
struct BufferExport {
    virtual ~BufferExport() = default;
    std::vector<Py_ssize_t> shape, strides;
    const char *format = nullptr;
    Py_ssize_t itemsize = 0, len = 0;
    void *host = nullptr;
    bool readonly = false;
};

// Describes `h` in `e` (dimension 0 last with reverse_axes). Returns false
// with a ValueError naming `what` for types or buffers NumPy cannot see.
inline bool describe_export(const halide_buffer_t &h, bool reverse_axes, const char *what, BufferExport *e) {
    e->format = format_of(h.type);
    if (!e->format) {
        PyErr_Format(PyExc_ValueError,
                     "Unsupported Buffer<> type: %s: a buffer of %s has no Python buffer-protocol equivalent", what,
                     type_name(h.type).c_str());
        return false;
    }
    static uint8_t empty_storage[8];
    e->host = h.host;
    const int n = h.dimensions;
    e->itemsize = h.type.bytes();
    e->shape.assign(n, 0);
    e->strides.assign(n, 0);
    e->len = e->itemsize;
    for (int i = 0; i < n; i++) {
        const halide_dimension_t &dim = h.dim[reverse_axes ? n - 1 - i : i];
        e->shape[i] = dim.extent;
        e->strides[i] = (Py_ssize_t)dim.stride * e->itemsize;
        e->len *= dim.extent;
    }
    if (!e->host) {
        if (e->len != 0) {
            PyErr_Format(PyExc_ValueError,
                         "%s: cannot convert a Buffer<> with null host ptr to a Python buffer (a bounds-query or "
                         "deallocated buffer); call allocate() first",
                         what);
            return false;
        }
        e->host = empty_storage; // no element is ever read through it
    }
    return true;
}

inline bool export_is_contiguous(const BufferExport &e, bool fortran) {
    Py_ssize_t expected = e.itemsize;
    const int n = (int)e.shape.size();
    for (int k = 0; k < n; k++) {
        if (e.shape[k] == 0) {
            return true;
        }
    }
    for (int k = 0; k < n; k++) {
        const int i = fortran ? k : n - 1 - k;
        if (e.shape[i] != 1 && e.strides[i] != expected) {
            return false;
        }
        expected *= e.shape[i];
    }
    return true;
}

// Fills `view` from `e` for a bf_getbuffer slot, honouring the consumer's
// flags. Takes ownership of `e` (freed by release_export or on failure).
// Returns 0, or -1 with a BufferError naming `what`.
inline int fill_buffer_view(PyObject *self, BufferExport *e, Py_buffer *view, int flags, const char *what) {
    std::unique_ptr<BufferExport> owned(e);
    const char *refusal = nullptr;
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && e->readonly) {
        refusal = "a writable buffer was requested, but the Buffer wraps read-only memory";
    } else if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !export_is_contiguous(*e, false)) {
        refusal = "the buffer is not C-contiguous";
    } else if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !export_is_contiguous(*e, true)) {
        refusal = "the buffer is not Fortran-contiguous";
    } else if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !export_is_contiguous(*e, false) &&
               !export_is_contiguous(*e, true)) {
        refusal = "the buffer is not contiguous";
    } else if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !export_is_contiguous(*e, false)) {
        refusal = "the buffer is not C-contiguous; request strides (PyBUF_STRIDES)";
    }
    if (refusal) {
        PyErr_Format(PyExc_BufferError, "%s: %s", what, refusal);
        view->obj = nullptr;
        return -1;
    }
    view->buf = e->host;
    view->len = e->len;
    view->readonly = e->readonly ? 1 : 0;
    view->itemsize = e->itemsize;
    view->format = (flags & PyBUF_FORMAT) ? const_cast<char *>(e->format) : nullptr;
    view->ndim = (int)e->shape.size();
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? e->shape.data() : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? e->strides.data() : nullptr;
    view->suboffsets = nullptr;
    view->internal = owned.release();
    Py_INCREF(self);
    view->obj = self;
    return 0;
}

// The bf_releasebuffer slot matching fill_buffer_view.
inline void release_export(PyObject *, Py_buffer *view) {
    delete static_cast<BufferExport *>(view->internal);
    view->internal = nullptr;
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

    // How the object's axes become dimensions: Reversed (the last axis is
    // dimension 0, right for NumPy's default C order), Kept, or
    // KeptIfFortran: Kept for a Fortran-contiguous object, else Reversed (as
    // upstream's generated Python extensions take arrays).
    enum class Axes { Reversed, Kept, KeptIfFortran };

    // Fills `buffer` from `obj`. `writable` asks for a writable buffer
    // (outputs); `reverse_axes` maps the last axis to dimension 0.
    bool acquire(PyObject *obj, const char *what, bool writable, bool reverse_axes) {
        return acquire(obj, what, writable, reverse_axes ? Axes::Reversed : Axes::Kept);
    }

    bool acquire(PyObject *obj, const char *what, bool writable, Axes axes) {
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
        const bool reverse_axes =
            axes == Axes::Reversed || (axes == Axes::KeptIfFortran && !PyBuffer_IsContiguous(&view_, 'F'));
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
                             "%s: Out of range dimensions in buffer conversion: axis %d has %zd elements, more than a "
                             "halide_buffer_t holds (%d)",
                             what, i, extent, INT32_MAX);
                release();
                return false;
            }
            if (stride > INT32_MAX || stride < INT32_MIN) {
                PyErr_Format(PyExc_ValueError,
                             "%s: Out of range dimensions in buffer conversion: the stride of axis %d (%zd elements) "
                             "does not fit "
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

    // Hands the exporter's view to the caller, who must PyBuffer_Release it;
    // `buffer` stays valid only while its dims are copied elsewhere.
    bool take_view(Py_buffer *out) {
        if (!has_view_) {
            return false;
        }
        *out = view_;
        has_view_ = false;
        return true;
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
