// See buffer.h.
#include "buffer.h"

#include <pybind11/stl.h>

#include "errors.h"
#include "scalars.h"

namespace py = pybind11;

namespace halide_python {
namespace {

const char *format_of(halide_type_t t) {
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
    throw py::type_error("buffers of " + type_name(t) + " cannot be exported to Python");
}

// Runs a runtime device entry point and raises HalideError if it fails.
template <typename F> void call_runtime(const char *what, F f) {
    ErrorLog log;
    int r;
    {
        ScopedErrorLog scope(&log);
        r = f();
    }
    if (r != 0) {
        raise_halide_error(what, r, log.text);
    }
}

struct Dimension {
    int min, extent, stride;
};

void destroy_capsule(PyObject *capsule) {
    Py_XDECREF(static_cast<PyObject *>(PyCapsule_GetContext(capsule)));
}

std::vector<int> coordinates(py::handle index) {
    std::vector<int> pos;
    if (py::isinstance<py::tuple>(index)) {
        for (auto v : py::reinterpret_borrow<py::tuple>(index)) {
            pos.push_back(py::cast<int>(v));
        }
    } else {
        pos.push_back(py::cast<int>(index));
    }
    return pos;
}

} // namespace

Buffer::Buffer(py::object exporter, std::string name, bool reverse_axes)
    : storage_(std::make_shared<MarshaledBuffer>()), name_(std::move(name)), reverse_axes_(reverse_axes) {
    std::string what = name_.empty() ? std::string("Buffer") : "Buffer '" + name_ + "'";
    // Ask for a writable view where the exporter allows one.
    if (!storage_->acquire(exporter.ptr(), what.c_str(), /*writable=*/false, reverse_axes)) {
        throw py::error_already_set();
    }
    buffer_ = storage_->buffer;
    dims_.assign(buffer_.dim, buffer_.dim + buffer_.dimensions);
    sync_header();
}

void Buffer::check_dim(int d) const {
    if (d < 0 || d >= dimensions()) {
        throw py::index_error("dimension " + std::to_string(d) + " is out of range for a buffer with " +
                              std::to_string(dimensions()) + " dimensions");
    }
}

void Buffer::crop(int d, int min, int extent) {
    check_dim(d);
    halide_dimension_t &dim = dims_[d];
    if (extent < 0 || min < dim.min || (int64_t)min + extent > (int64_t)dim.min + dim.extent) {
        throw py::value_error("crop of dimension " + std::to_string(d) + " to [" + std::to_string(min) + ", " +
                              std::to_string((int64_t)min + extent) + ") lies outside the buffer's [" +
                              std::to_string(dim.min) + ", " + std::to_string((int64_t)dim.min + dim.extent) + ")");
    }
    move_host(((int64_t)min - dim.min) * dim.stride);
    dim.min = min;
    dim.extent = extent;
}

void Buffer::slice(int d, int pos) {
    check_dim(d);
    halide_dimension_t dim = dims_[d];
    if (pos < dim.min || (int64_t)pos >= (int64_t)dim.min + dim.extent) {
        throw py::index_error("slice position " + std::to_string(pos) + " is outside dimension " + std::to_string(d) +
                              " [" + std::to_string(dim.min) + ", " + std::to_string((int64_t)dim.min + dim.extent) +
                              ")");
    }
    move_host(((int64_t)pos - dim.min) * dim.stride);
    dims_.erase(dims_.begin() + d);
    sync_header();
}

void Buffer::move_host(int64_t elements) {
    // Integer arithmetic: a view may legitimately point outside any allocation
    // (e.g. an empty crop of a buffer with huge strides).
    buffer_.host = reinterpret_cast<uint8_t *>(reinterpret_cast<uintptr_t>(buffer_.host) +
                                               (uintptr_t)elements * (uintptr_t)buffer_.type.bytes());
}

void Buffer::transpose(int d1, int d2) {
    check_dim(d1);
    check_dim(d2);
    std::swap(dims_[d1], dims_[d2]);
}

void Buffer::translate(int d, int delta) {
    check_dim(d);
    int64_t min = (int64_t)dims_[d].min + delta;
    if (min < INT32_MIN || min + dims_[d].extent - 1 > INT32_MAX) {
        throw py::value_error("translating dimension " + std::to_string(d) + " by " + std::to_string(delta) +
                              " moves its coordinates outside the 32-bit range");
    }
    dims_[d].min = (int32_t)min;
}

uint8_t *Buffer::address_of(const std::vector<int> &pos) const {
    if ((int)pos.size() != dimensions()) {
        throw py::index_error("expected " + std::to_string(dimensions()) + " coordinates, got " +
                              std::to_string(pos.size()));
    }
    ptrdiff_t offset = 0;
    for (int d = 0; d < dimensions(); d++) {
        const halide_dimension_t &dim = dims_[d];
        if (pos[d] < dim.min || (int64_t)pos[d] >= (int64_t)dim.min + dim.extent) {
            throw py::index_error("coordinate " + std::to_string(pos[d]) + " is outside dimension " +
                                  std::to_string(d) + " [" + std::to_string(dim.min) + ", " +
                                  std::to_string((int64_t)dim.min + dim.extent) + ")");
        }
        offset += (ptrdiff_t)(pos[d] - dim.min) * dim.stride;
    }
    return buffer_.host + offset * buffer_.type.bytes();
}

void bind_buffer(py::module_ &m) {
    py::class_<Dimension>(m, "BufferDimension", "One dimension of a Buffer: min, extent and stride (in elements).")
        .def("min", [](const Dimension &d) { return d.min; })
        .def("extent", [](const Dimension &d) { return d.extent; })
        .def("stride", [](const Dimension &d) { return d.stride; })
        .def("max", [](const Dimension &d) { return d.min + d.extent - 1; })
        .def("__repr__", [](const Dimension &d) {
            return "BufferDimension(min=" + std::to_string(d.min) + ", extent=" + std::to_string(d.extent) +
                   ", stride=" + std::to_string(d.stride) + ")";
        });

    py::class_<Buffer>(m, "Buffer", py::buffer_protocol(),
                       "A halide_buffer_t over any object that exports the buffer protocol (NumPy arrays first), "
                       "without copying. By default axes are reversed: NumPy's last axis is dimension 0.")
        .def(py::init<py::object, std::string, bool>(), py::arg("buffer"), py::arg("name") = "",
             py::arg("reverse_axes") = true)
        .def("dimensions", &Buffer::dimensions)
        .def("type", [](const Buffer &b) { return type_name(b.raw().type); })
        .def("dim",
             [](const Buffer &b, int d) {
                 b.check_dim(d);
                 const halide_dimension_t &dim = b.raw().dim[d];
                 return Dimension{dim.min, dim.extent, dim.stride};
             })
        .def("name", &Buffer::name)
        .def("set_name", &Buffer::set_name)
        .def("number_of_elements", [](const Buffer &b) { return b.raw().number_of_elements(); })
        .def("size_in_bytes", [](const Buffer &b) { return b.raw().size_in_bytes(); })
        .def("width", [](const Buffer &b) { return b.dimensions() > 0 ? b.raw().dim[0].extent : 1; })
        .def("height", [](const Buffer &b) { return b.dimensions() > 1 ? b.raw().dim[1].extent : 1; })
        .def("channels", [](const Buffer &b) { return b.dimensions() > 2 ? b.raw().dim[2].extent : 1; })
        .def("__getitem__",
             [](const Buffer &b, py::handle index) {
                 return from_scalar(b.address_of(coordinates(index)), b.raw().type);
             })
        .def("__setitem__",
             [](Buffer &b, py::handle index, py::handle value) {
                 if (b.readonly()) {
                     throw py::value_error("cannot assign to an element of a Buffer over read-only memory");
                 }
                 uint8_t *p = b.address_of(coordinates(index));
                 halide_scalar_value_t v;
                 to_scalar(value.ptr(), b.raw().type, "value", &v);
                 std::memcpy(p, &v, (size_t)b.raw().type.bytes());
             })
        .def("crop", &Buffer::crop, py::arg("dimension"), py::arg("min"), py::arg("extent"))
        .def("slice", &Buffer::slice, py::arg("dimension"), py::arg("pos"))
        .def("transpose", &Buffer::transpose, py::arg("d1"), py::arg("d2"))
        .def("translate", &Buffer::translate, py::arg("dimension"), py::arg("delta"))
        .def(
            "cropped",
            [](const Buffer &b, int d, int min, int extent) {
                Buffer v = b.view();
                v.crop(d, min, extent);
                return v;
            },
            py::arg("dimension"), py::arg("min"), py::arg("extent"))
        .def(
            "sliced",
            [](const Buffer &b, int d, int pos) {
                Buffer v = b.view();
                v.slice(d, pos);
                return v;
            },
            py::arg("dimension"), py::arg("pos"))
        .def(
            "transposed",
            [](const Buffer &b, int d1, int d2) {
                Buffer v = b.view();
                v.transpose(d1, d2);
                return v;
            },
            py::arg("d1"), py::arg("d2"))
        .def(
            "translated",
            [](const Buffer &b, int d, int delta) {
                Buffer v = b.view();
                v.translate(d, delta);
                return v;
            },
            py::arg("dimension"), py::arg("delta"))
        .def_buffer([](Buffer &b) {
            const halide_buffer_t &h = b.raw();
            int n = h.dimensions;
            std::vector<py::ssize_t> shape(n), strides(n);
            for (int i = 0; i < n; i++) {
                const halide_dimension_t &dim = h.dim[b.reverse_axes() ? n - 1 - i : i];
                shape[i] = dim.extent;
                strides[i] = (py::ssize_t)dim.stride * h.type.bytes();
            }
            return py::buffer_info(h.host, h.type.bytes(), format_of(h.type), n, shape, strides, b.readonly());
        })
        .def(
            "numpy", [](py::object self) { return py::module_::import("numpy").attr("asarray")(self); },
            "A NumPy view of the buffer's elements (no copy), in NumPy axis order.")
        .def("_host_address", [](const Buffer &b) { return (uintptr_t)b.raw().host; })
        .def("_get_halide_buffer_t_capsule",
             [](py::object self) {
                 Buffer &b = py::cast<Buffer &>(self);
                 PyObject *capsule = PyCapsule_New(&b.raw(), HALIDE_BUFFER_CAPSULE_NAME, destroy_capsule);
                 if (!capsule) {
                     throw py::error_already_set();
                 }
                 // The capsule keeps this Buffer (and so the exporter) alive.
                 PyCapsule_SetContext(capsule, self.inc_ref().ptr());
                 return py::reinterpret_steal<py::object>(capsule);
             })
        .def("host_dirty", [](const Buffer &b) { return b.raw().host_dirty(); })
        .def("device_dirty", [](const Buffer &b) { return b.raw().device_dirty(); })
        .def(
            "set_host_dirty", [](Buffer &b, bool v) { b.raw().set_host_dirty(v); }, py::arg("value") = true)
        .def(
            "set_device_dirty", [](Buffer &b, bool v) { b.raw().set_device_dirty(v); }, py::arg("value") = true)
        .def("has_device_allocation", [](const Buffer &b) { return b.raw().device != 0; })
        .def("copy_to_host",
             [](Buffer &b) { call_runtime("copy_to_host", [&] { return halide_copy_to_host(nullptr, &b.raw()); }); })
        .def("device_sync",
             [](Buffer &b) { call_runtime("device_sync", [&] { return halide_device_sync(nullptr, &b.raw()); }); })
        .def("device_free",
             [](Buffer &b) { call_runtime("device_free", [&] { return halide_device_free(nullptr, &b.raw()); }); })
        .def("copy_to_device",
             [](Buffer &b) {
                 call_runtime("copy_to_device",
                              [&] { return halide_copy_to_device(nullptr, &b.raw(), b.raw().device_interface); });
             })
        .def("__repr__", [](const Buffer &b) {
            std::string s = "<halide.runtime.Buffer " + type_name(b.raw().type) + " [";
            for (int d = 0; d < b.dimensions(); d++) {
                const halide_dimension_t &dim = b.raw().dim[d];
                s += (d ? ", " : "") + std::to_string(dim.min) + ":" + std::to_string(dim.min + dim.extent);
            }
            return s + "]" + (b.name().empty() ? "" : " '" + b.name() + "'") + ">";
        });
}

} // namespace halide_python
