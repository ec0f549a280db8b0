// hl.Buffer and the rest of Python: the buffer protocol out (and NumPy
// views), halide_buffer_t capsules both ways (halide.runtime.Buffer, AOT
// kernels), DLPack both ways, and PNG for Jupyter. Every export holds a
// copy of the Runtime::Buffer (a reference on its allocation) and the
// Python Buffer (which keeps a wrapped source alive), so it stays valid
// whatever later happens to the Buffer.
#include <pybind11/numpy.h>

#include "buffer.h"
#include "halide_python_dlpack.h"
#include "halide_python_marshal.h"
#include "py_buffer.h"

namespace halide_py {

namespace {

// What keeps one export's memory alive.
struct Keepalive {
    RuntimeBuffer buffer;
    py::object self;
};

Keepalive *keepalive_of(const py::handle &self) {
    const Buffer &b = py::cast<const Buffer &>(self);
    check_defined(b);
    return new Keepalive{*b.get(), py::reinterpret_borrow<py::object>(self)};
}

struct Export : halide_python::BufferExport {
    std::unique_ptr<Keepalive> keep;
};

// Export a new view (dimension 0 last, as upstream's buffer protocol does).
int buffer_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    view->obj = nullptr;
    try {
        auto e = std::make_unique<Export>();
        e->keep.reset(keepalive_of(self));
        if (!halide_python::describe_export(*e->keep->buffer.raw_buffer(), true, "halide.Buffer", e.get())) {
            return -1;
        }
        return halide_python::fill_buffer_view(self, e.release(), view, flags, "halide.Buffer");
    } catch (...) {
        halide_python::set_python_error_from_current_exception();
        return -1;
    }
}

py::array numpy_view(const py::handle &self, bool reverse_axes) {
    Export e;
    e.keep.reset(keepalive_of(self));
    if (!halide_python::describe_export(*e.keep->buffer.raw_buffer(), reverse_axes, "halide.Buffer.numpy_view", &e)) {
        throw py::error_already_set();
    }
    py::capsule base(e.keep.release(), [](void *p) { delete static_cast<Keepalive *>(p); });
    return py::array(py::dtype(std::string(e.format)), e.shape, e.strides, e.host, base);
}

// A capsule over a snapshot of the buffer (same memory), named as the
// marshaller expects, that keeps the memory alive.
py::object buffer_capsule(const py::handle &self) {
    Keepalive *k = keepalive_of(self);
    PyObject *capsule = PyCapsule_New(k->buffer.raw_buffer(), HALIDE_BUFFER_CAPSULE_NAME, [](PyObject *cap) {
        delete static_cast<Keepalive *>(PyCapsule_GetContext(cap));
    });
    if (!capsule) {
        delete k;
        throw py::error_already_set();
    }
    if (PyCapsule_SetContext(capsule, k) != 0) {
        Py_DECREF(capsule); // its destructor finds no context
        delete k;
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
}

struct DLPackOwner : halide_python::dlpack::ExportOwner {
    std::unique_ptr<Keepalive> keep;
};

py::object dlpack_capsule(const py::handle &self, const py::handle &stream, const py::handle &max_version,
                          const py::handle &dl_device, const py::handle &copy) {
    const char *what = "halide.Buffer.__dlpack__";
    bool versioned = false;
    int copy_mode = -1;
    if (!halide_python::dlpack::parse_dlpack_request(stream.ptr(), max_version.ptr(), dl_device.ptr(), copy.ptr(), what,
                                                     &versioned, &copy_mode)) {
        throw py::error_already_set();
    }
    py::object source = py::reinterpret_borrow<py::object>(self);
    if (copy_mode == 1) {
        source = self.attr("copy")();
    }
    auto *owner = new DLPackOwner;
    owner->keep.reset(keepalive_of(source));
    PyObject *capsule = halide_python::dlpack::export_capsule(*owner->keep->buffer.raw_buffer(), true, versioned, false,
                                                              copy_mode == 1, owner, what);
    if (!capsule) {
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
}

// What a Buffer over Python-owned memory holds on to: the exporter's view
// (a NumPy array stays alive and can't be resized while exported) or a
// reference to a capsule. Released by the last C++ copy of the Buffer, which
// may be a Func's definition or a Param's value long after the Python
// objects are gone, and on any thread.
struct PythonLease {
    Py_buffer view{};
    bool has_view = false;
    PyObject *object = nullptr;

    static void end(void *context) {
        auto *lease = static_cast<PythonLease *>(context);
        // After the interpreter is gone (static destructors) there is nothing
        // left to release.
        if (Py_IsInitialized()) {
            const PyGILState_STATE gil = PyGILState_Ensure();
            if (lease->has_view) {
                PyBuffer_Release(&lease->view);
            }
            Py_XDECREF(lease->object);
            PyGILState_Release(gil);
        }
        delete lease;
    }
};

// `lease` goes to `b`, or is ended now if `b` can't take it.
RuntimeBuffer leased(RuntimeBuffer b, std::unique_ptr<PythonLease> lease) {
    PythonLease *l = lease.release();
    if (!b.set_host_owner(&PythonLease::end, l)) {
        PythonLease::end(l);
        throw std::bad_alloc();
    }
    return b;
}

py::object from_dlpack(const py::handle &producer, const std::string &name, bool reverse_axes) {
    halide_python::dlpack::Imported t;
    if (!halide_python::dlpack::import_tensor(producer.ptr(), reverse_axes, "halide.Buffer.from_dlpack", &t)) {
        throw py::error_already_set();
    }
    // The tensor is released when the last copy of the new Buffer is.
    auto lease = std::make_unique<PythonLease>();
    lease->object = t.owner;
    RuntimeBuffer b(t.buffer.type, t.buffer.host, t.buffer.dimensions, t.buffer.dim);
    return py::cast(Buffer(leased(std::move(b), std::move(lease)), name));
}

} // namespace

Buffer buffer_from_object(const py::handle &source, const std::string &name, bool reverse_axes) {
    const std::string what = name.empty() ? std::string("halide.Buffer()") : "halide.Buffer('" + name + "')";
    PyObject *capsule = nullptr;
    halide_buffer_t *raw = nullptr;
    // A capsule first (halide.runtime.Buffer has both): it keeps mins and
    // types NumPy lacks, and is already in Halide's axis order.
    if (!halide_python::buffer_from_capsule(source.ptr(), what.c_str(), &capsule, &raw)) {
        throw py::error_already_set();
    }
    if (capsule) {
        py::object keep = py::reinterpret_steal<py::object>(capsule);
        if (raw->dimensions < 0 || (raw->dimensions > 0 && !raw->dim)) {
            throw py::value_error(what + ": the capsule's halide_buffer_t has an invalid shape");
        }
        auto lease = std::make_unique<PythonLease>();
        lease->object = keep.release().ptr();
        return Buffer(leased(RuntimeBuffer(*raw), std::move(lease)), name);
    }
    if (!PyObject_CheckBuffer(source.ptr())) {
        throw py::type_error(what +
                             ": expected a halide.Type and sizes, or an object exporting the buffer protocol (a NumPy "
                             "array, ...) or offering " HALIDE_BUFFER_CAPSULE_METHOD "(); got " +
                             std::string(Py_TYPE(source.ptr())->tp_name));
    }
    halide_python::MarshaledBuffer view;
    if (!view.acquire(source.ptr(), what.c_str(), false, reverse_axes)) {
        throw py::error_already_set();
    }
    RuntimeBuffer b(view.buffer);
    auto lease = std::make_unique<PythonLease>();
    lease->has_view = view.take_view(&lease->view);
    return Buffer(leased(std::move(b), std::move(lease)), name);
}

void define_buffer_interop(py::class_<Buffer> &cls) {
    auto *type_object = reinterpret_cast<PyTypeObject *>(cls.ptr());
    type_object->tp_as_buffer->bf_getbuffer = buffer_getbuffer;
    type_object->tp_as_buffer->bf_releasebuffer = halide_python::release_export;

    cls.def(
           "numpy_view", [](const py::object &self, bool reverse_axes) { return numpy_view(self, reverse_axes); },
           py::arg("reverse_axes") = true,
           "A NumPy array over the buffer's memory (no copy); with reverse_axes NumPy's last axis is dimension 0.")
        .def("_get_halide_buffer_t_capsule", &buffer_capsule,
             "A capsule holding a halide_buffer_t over this buffer's memory, for halide.runtime and AOT kernels.")
        .def("_get_raw_halide_buffer_t",
             [](const Buffer &b) {
                 check_defined(b);
                 return (uintptr_t)b.raw_buffer();
             })
        .def(
            "raw_buffer",
            [](const Buffer &b) {
                check_defined(b);
                return (uintptr_t)b.raw_buffer();
            },
            "The address of the halide_buffer_t (as C++'s raw_buffer()).")
        .def_static("from_dlpack", &from_dlpack, py::arg("tensor"), py::arg("name") = "",
                    py::arg("reverse_axes") = true,
                    "A Buffer over the memory of a DLPack producer (an object with __dlpack__, or a DLPack "
                    "capsule), without copying; with reverse_axes the last axis is dimension 0.")
        .def("__dlpack__", &dlpack_capsule, py::kw_only(), py::arg("stream") = py::none(),
             py::arg("max_version") = py::none(), py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
             "A DLPack capsule over the buffer's memory (dimension 0 last, as NumPy sees it).")
        .def("__dlpack_device__",
             [](const Buffer &b) {
                 check_defined(b);
                 return py::make_tuple((int)halide_python::dlpack::kDLCPU, 0);
             })
        .def(
            "_repr_png_",
            [](const py::object &self) { return py::module_::import("halide._png").attr("repr_png")(self); },
            "PNG bytes of a 2-D or 3-D uint8/uint16/float buffer, for Jupyter (None for other buffers).");
}

} // namespace halide_py
