// halide_python_dlpack.h: DLPack <-> halide_buffer_t, for __dlpack__ and
// from_dlpack on halide.Buffer and halide.runtime.Buffer.
//
// Like halide_python_marshal.h it needs only the CPython C API, the C++
// standard library and HalideRuntime.h, and everything is inline. The DLPack
// structs are declared here from the published ABI (dlpack.h, versions 0.x
// "dltensor" capsules and 1.x "dltensor_versioned" ones).
//
// Axes follow the buffer protocol: DLPack's last axis is Halide dimension 0
// unless reverse_axes is false. Only CPU memory is accepted or produced.
#ifndef HALIDE_PYTHON_DLPACK_H
#define HALIDE_PYTHON_DLPACK_H

#include "halide_python_marshal.h"

#include <cstdint>
#include <vector>

namespace halide_python {
namespace dlpack {

enum DeviceType : int32_t { kDLCPU = 1, kDLCUDAHost = 3, kDLCUDAManaged = 13 };
enum TypeCode : uint8_t { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLOpaqueHandle = 3, kDLBfloat = 4, kDLBool = 6 };

struct DLDevice {
    int32_t device_type;
    int32_t device_id;
};
struct DLDataType {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
};
struct DLTensor {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; // in elements; null means compact row-major
    uint64_t byte_offset;
};
struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(DLManagedTensor *self);
};
struct DLPackVersion {
    uint32_t major;
    uint32_t minor;
};
struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
};
constexpr uint64_t kFlagReadOnly = 1ull << 0;
constexpr uint64_t kFlagIsCopied = 1ull << 1;
constexpr uint32_t kMajorVersion = 1, kMinorVersion = 0;

constexpr const char *kCapsule = "dltensor";
constexpr const char *kUsedCapsule = "used_dltensor";
constexpr const char *kVersionedCapsule = "dltensor_versioned";
constexpr const char *kUsedVersionedCapsule = "used_dltensor_versioned";

// ---------------------------------------------------------------------------
// Export
// ---------------------------------------------------------------------------

// Whatever keeps the exported memory alive; deleted with the GIL held when
// the consumer is done (possibly from another thread).
struct ExportOwner {
    virtual ~ExportOwner() = default;
};

struct ExportContext {
    std::vector<int64_t> shape, strides;
    ExportOwner *owner = nullptr;
};

inline void delete_context(void *ctx) {
    auto *c = static_cast<ExportContext *>(ctx);
    if (!c) {
        return;
    }
    // Consumers may call the deleter without the GIL; the owner holds Python
    // references. At interpreter exit there is nothing left to release.
    if (Py_IsInitialized()) {
        PyGILState_STATE state = PyGILState_Ensure();
        delete c->owner;
        PyGILState_Release(state);
    }
    delete c;
}

inline void delete_managed(DLManagedTensor *t) {
    delete_context(t->manager_ctx);
    delete t;
}

inline void delete_versioned(DLManagedTensorVersioned *t) {
    delete_context(t->manager_ctx);
    delete t;
}

// Keeps the exception being raised (if any) across a capsule destructor,
// which may run while one is set and must not leave one of its own.
struct PreserveError {
    PyObject *type, *value, *traceback;
    PreserveError() { PyErr_Fetch(&type, &value, &traceback); }
    ~PreserveError() {
        PyErr_Clear();
        PyErr_Restore(type, value, traceback);
    }
};

// An unconsumed capsule still owns its tensor.
inline void capsule_destructor(PyObject *capsule) {
    PreserveError keep;
    if (PyCapsule_IsValid(capsule, kCapsule)) {
        auto *t = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, kCapsule));
        if (t && t->deleter) {
            t->deleter(t);
        }
    } else if (PyCapsule_IsValid(capsule, kVersionedCapsule)) {
        auto *t = static_cast<DLManagedTensorVersioned *>(PyCapsule_GetPointer(capsule, kVersionedCapsule));
        if (t && t->deleter) {
            t->deleter(t);
        }
    }
}

inline bool dtype_of(halide_type_t t, DLDataType *out) {
    if (t.lanes != 1) {
        return false;
    }
    switch (t.code) {
    case halide_type_int:
    case halide_type_float:
    case halide_type_bfloat: *out = DLDataType{(uint8_t)t.code, t.bits, 1}; return t.bits >= 8;
    case halide_type_uint:
        *out = t.bits == 1 ? DLDataType{kDLBool, 8, 1} : DLDataType{kDLUInt, t.bits, 1};
        return t.bits == 1 || t.bits >= 8;
    default: return false;
    }
}

// A DLPack capsule over `h` (no copy). `owner` (taken, also on failure)
// keeps the memory alive until the consumer's deleter runs. `versioned`
// makes a DLPack 1.x capsule, which can carry the read-only and copied flags.
// Returns a new reference, or null with a Python exception naming `what`.
inline PyObject *export_capsule(const halide_buffer_t &h, bool reverse_axes, bool versioned, bool readonly, bool copied,
                                ExportOwner *owner, const char *what) {
    auto *ctx = new ExportContext;
    ctx->owner = owner;
    DLTensor t{};
    if (!dtype_of(h.type, &t.dtype)) {
        PyErr_Format(PyExc_BufferError, "%s: a buffer of %s has no DLPack equivalent", what, type_name(h.type).c_str());
        delete_context(ctx);
        return nullptr;
    }
    const int n = h.dimensions;
    int64_t elements = 1;
    ctx->shape.resize(n);
    ctx->strides.resize(n);
    for (int i = 0; i < n; i++) {
        const halide_dimension_t &d = h.dim[reverse_axes ? n - 1 - i : i];
        ctx->shape[i] = d.extent;
        ctx->strides[i] = d.stride;
        elements *= d.extent;
    }
    if (!h.host && elements != 0) {
        PyErr_Format(PyExc_BufferError,
                     "%s: cannot export a buffer with no host memory (a bounds-query or deallocated buffer) "
                     "through DLPack; call allocate() first",
                     what);
        delete_context(ctx);
        return nullptr;
    }
    t.data = h.host;
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = n;
    t.shape = ctx->shape.data();
    t.strides = ctx->strides.data();
    t.byte_offset = 0;
    PyObject *capsule;
    if (versioned) {
        auto *m = new DLManagedTensorVersioned{};
        m->version = DLPackVersion{kMajorVersion, kMinorVersion};
        m->manager_ctx = ctx;
        m->deleter = delete_versioned;
        m->flags = (readonly ? kFlagReadOnly : 0) | (copied ? kFlagIsCopied : 0);
        m->dl_tensor = t;
        capsule = PyCapsule_New(m, kVersionedCapsule, capsule_destructor);
        if (!capsule) {
            delete_versioned(m);
        }
    } else {
        auto *m = new DLManagedTensor{};
        m->dl_tensor = t;
        m->manager_ctx = ctx;
        m->deleter = delete_managed;
        capsule = PyCapsule_New(m, kCapsule, capsule_destructor);
        if (!capsule) {
            delete_managed(m);
        }
    }
    return capsule;
}

// The keyword arguments of __dlpack__(*, stream, max_version, dl_device,
// copy), checked. Sets *versioned (the consumer takes DLPack 1.x) and
// *copy (-1 unspecified, 0 never copy, 1 always copy). Returns false with
// a Python exception naming `what`.
inline bool parse_dlpack_request(PyObject *stream, PyObject *max_version, PyObject *dl_device, PyObject *copy,
                                 const char *what, bool *versioned, int *copy_mode) {
    if (stream && stream != Py_None) {
        PyErr_Format(PyExc_ValueError, "%s: stream must be None for CPU memory", what);
        return false;
    }
    *versioned = false;
    if (max_version && max_version != Py_None) {
        long major = -1;
        if (PyTuple_Check(max_version) && PyTuple_Size(max_version) == 2) {
            major = PyLong_AsLong(PyTuple_GetItem(max_version, 0));
        }
        if (major < 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: max_version must be a (major, minor) tuple of ints", what);
            return false;
        }
        *versioned = major >= (long)kMajorVersion;
    }
    if (dl_device && dl_device != Py_None) {
        long type = -1, id = -1;
        if (PyTuple_Check(dl_device) && PyTuple_Size(dl_device) == 2) {
            type = PyLong_AsLong(PyTuple_GetItem(dl_device, 0));
            id = PyLong_AsLong(PyTuple_GetItem(dl_device, 1));
        }
        if (PyErr_Occurred() || type != kDLCPU || id != 0) {
            PyErr_Clear();
            PyErr_Format(PyExc_BufferError, "%s: only dl_device=(1, 0) (CPU) is supported", what);
            return false;
        }
    }
    *copy_mode = -1;
    if (copy && copy != Py_None) {
        int truth = PyObject_IsTrue(copy);
        if (truth < 0) {
            return false;
        }
        *copy_mode = truth;
    }
    return true;
}

// ---------------------------------------------------------------------------
// Import
// ---------------------------------------------------------------------------

// A halide_buffer_t over a consumed DLPack tensor. `owner` (a capsule whose
// destructor calls the producer's deleter) must outlive every use of
// `buffer`; it is a new reference that the caller takes.
struct Imported {
    halide_buffer_t buffer{};
    std::vector<halide_dimension_t> dims;
    PyObject *owner = nullptr;
    bool readonly = false;
};

inline void owner_destructor(PyObject *capsule) {
    PreserveError keep;
    void *p = PyCapsule_GetPointer(capsule, "halide.dlpack_owner");
    void *versioned = PyCapsule_GetContext(capsule);
    if (p && versioned) {
        auto *t = static_cast<DLManagedTensorVersioned *>(p);
        if (t->deleter) {
            t->deleter(t);
        }
    } else if (p) {
        auto *t = static_cast<DLManagedTensor *>(p);
        if (t->deleter) {
            t->deleter(t);
        }
    }
}

inline bool halide_type_of(DLDataType d, halide_type_t *out) {
    if (d.lanes != 1) {
        return false;
    }
    switch (d.code) {
    case kDLInt:
    case kDLUInt:
        if (d.bits == 8 || d.bits == 16 || d.bits == 32 || d.bits == 64) {
            *out = halide_type_t((halide_type_code_t)d.code, d.bits);
            return true;
        }
        if (d.code == kDLUInt && d.bits == 1) {
            *out = halide_type_t(halide_type_uint, 1);
            return true;
        }
        return false;
    case kDLFloat:
        if (d.bits == 16 || d.bits == 32 || d.bits == 64) {
            *out = halide_type_t(halide_type_float, d.bits);
            return true;
        }
        return false;
    case kDLBfloat:
        if (d.bits == 16) {
            *out = halide_type_t(halide_type_bfloat, 16);
            return true;
        }
        return false;
    case kDLBool:
        if (d.bits == 8) {
            *out = halide_type_t(halide_type_uint, 1);
            return true;
        }
        return false;
    default: return false;
    }
}

// Checks the producer's __dlpack_device__() (when it has one) says CPU.
inline bool check_device(PyObject *obj, const char *what) {
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack_device__");
    if (!method) {
        PyErr_Clear();
        return true;
    }
    PyObject *dev = PyObject_CallNoArgs(method);
    Py_DECREF(method);
    if (!dev) {
        add_context_note(what);
        return false;
    }
    long type = -1;
    if (PyTuple_Check(dev) && PyTuple_Size(dev) == 2) {
        type = PyLong_AsLong(PyTuple_GetItem(dev, 0));
    }
    Py_DECREF(dev);
    if (PyErr_Occurred() || (type != kDLCPU && type != kDLCUDAHost && type != kDLCUDAManaged)) {
        PyErr_Clear();
        PyErr_Format(PyExc_BufferError,
                     "%s: the tensor lives on DLPack device type %ld; only CPU memory is supported (copy it to the "
                     "CPU first)",
                     what, type);
        return false;
    }
    return true;
}

// The DLPack capsule of `obj`: obj.__dlpack__(max_version=(1, 0)) (or
// obj.__dlpack__() for older producers), or obj itself if it is a capsule.
inline PyObject *capsule_of(PyObject *obj, const char *what) {
    if (PyCapsule_CheckExact(obj)) {
        Py_INCREF(obj);
        return obj;
    }
    PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
    if (!method) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: expected an object with __dlpack__() or a DLPack capsule, got %s", what,
                     Py_TYPE(obj)->tp_name);
        return nullptr;
    }
    if (!check_device(obj, what)) {
        Py_DECREF(method);
        return nullptr;
    }
    PyObject *args = PyTuple_New(0);
    PyObject *kwargs = Py_BuildValue("{s:(ii)}", "max_version", (int)kMajorVersion, (int)kMinorVersion);
    PyObject *capsule = args && kwargs ? PyObject_Call(method, args, kwargs) : nullptr;
    Py_XDECREF(args);
    Py_XDECREF(kwargs);
    if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear(); // a producer from before max_version
        capsule = PyObject_CallNoArgs(method);
    }
    Py_DECREF(method);
    if (!capsule) {
        add_context_note(what);
    }
    return capsule;
}

// Consumes the DLPack tensor of `obj` into `out`. Returns false with a
// Python exception naming `what` (the tensor is then released).
inline bool import_tensor(PyObject *obj, bool reverse_axes, const char *what, Imported *out) {
    PyObject *capsule = capsule_of(obj, what);
    if (!capsule) {
        return false;
    }
    const bool versioned = PyCapsule_IsValid(capsule, kVersionedCapsule);
    if (!versioned && !PyCapsule_IsValid(capsule, kCapsule)) {
        const char *name = PyCapsule_GetName(capsule);
        PyErr_Clear();
        if (name && (std::strcmp(name, kUsedCapsule) == 0 || std::strcmp(name, kUsedVersionedCapsule) == 0)) {
            PyErr_Format(PyExc_ValueError, "%s: this DLPack capsule was already consumed", what);
        } else {
            PyErr_Format(PyExc_TypeError, "%s: expected a DLPack capsule named '%s' or '%s', got one named '%s'", what,
                         kCapsule, kVersionedCapsule, name ? name : "<unnamed>");
        }
        Py_DECREF(capsule);
        return false;
    }
    void *managed = PyCapsule_GetPointer(capsule, versioned ? kVersionedCapsule : kCapsule);
    DLTensor *t = nullptr;
    uint64_t flags = 0;
    if (versioned) {
        auto *m = static_cast<DLManagedTensorVersioned *>(managed);
        if (m->version.major != kMajorVersion) {
            PyErr_Format(PyExc_BufferError, "%s: DLPack version %u.%u is not supported (expected 1.x)", what,
                         m->version.major, m->version.minor);
            Py_DECREF(capsule); // still unconsumed: its destructor releases the tensor
            return false;
        }
        t = &m->dl_tensor;
        flags = m->flags;
    } else {
        t = &static_cast<DLManagedTensor *>(managed)->dl_tensor;
    }
    // The owner capsule gets its destructor only once the producer's capsule
    // is marked used: until then a failure leaves the tensor to the producer's
    // capsule alone, so it is released exactly once.
    PyObject *owner = PyCapsule_New(managed, "halide.dlpack_owner", nullptr);
    if (!owner || PyCapsule_SetContext(owner, versioned ? (void *)1 : nullptr) != 0 ||
        PyCapsule_SetName(capsule, versioned ? kUsedVersionedCapsule : kUsedCapsule) != 0) {
        Py_XDECREF(owner);
        Py_DECREF(capsule);
        return false;
    }
    Py_DECREF(capsule);
    // From here on the tensor is ours: the owner capsule releases it.
    if (PyCapsule_SetDestructor(owner, owner_destructor) != 0) {
        Py_DECREF(owner);
        return false;
    }
    auto fail = [&](PyObject *type, const std::string &message) {
        PyErr_Format(type, "%s: %s", what, message.c_str());
        Py_DECREF(owner);
        return false;
    };
    if (t->device.device_type != kDLCPU && t->device.device_type != kDLCUDAHost &&
        t->device.device_type != kDLCUDAManaged) {
        return fail(PyExc_BufferError, "the tensor lives on DLPack device type " +
                                           std::to_string(t->device.device_type) + "; only CPU memory is supported");
    }
    if (!halide_type_of(t->dtype, &out->buffer.type)) {
        return fail(PyExc_BufferError, "Invalid data type: DLPack type code " + std::to_string(t->dtype.code) +
                                           " with " + std::to_string(t->dtype.bits) + " bits x " +
                                           std::to_string(t->dtype.lanes) + " lanes has no Halide equivalent");
    }
    const int n = t->ndim;
    if (n < 0 || (n > 0 && !t->shape)) {
        return fail(PyExc_BufferError, "the tensor has an invalid shape");
    }
    out->dims.resize(n);
    int64_t compact = 1;
    for (int i = n - 1; i >= 0; i--) {
        const int64_t extent = t->shape[i];
        const int64_t stride = t->strides ? t->strides[i] : compact;
        compact *= extent;
        if (extent < 0 || extent > INT32_MAX) {
            return fail(PyExc_BufferError, "Buffer extent is out of range: axis " + std::to_string(i) + " has " +
                                               std::to_string(extent) + " elements");
        }
        if (stride < INT32_MIN || stride > INT32_MAX) {
            return fail(PyExc_BufferError, "Buffer stride is out of range: the stride of axis " + std::to_string(i) +
                                               " (" + std::to_string(stride) + " elements) does not fit in 32 bits");
        }
        out->dims[reverse_axes ? n - 1 - i : i] = halide_dimension_t{0, (int32_t)extent, (int32_t)stride, 0};
    }
    out->buffer.host = static_cast<uint8_t *>(t->data) + t->byte_offset;
    out->buffer.dimensions = n;
    out->buffer.dim = out->dims.data();
    out->owner = owner;
    out->readonly = (flags & kFlagReadOnly) != 0;
    return true;
}

} // namespace dlpack
} // namespace halide_python

#endif // HALIDE_PYTHON_DLPACK_H
