// hl.Buffer: an image the compiler reads (b[x, y] in a definition) and
// realizes into, sharing memory with NumPy through the buffer protocol both
// ways. A C-order array of shape (H, W) is a buffer of width W (the last
// axis is dimension 0) unless reverse_axes=False.
#include <sstream>

#include "halide_python_marshal.h"
#include "py_compiler.h"

namespace halide_py {

using Buffer = Halide::Buffer<>;

namespace {

// The struct-module format of an element type, or nullptr if it has none.
const char *format_of(const Halide::Type &t) {
    if (t.is_bool()) {
        return "?";
    }
    switch (t.code()) {
    case halide_type_int:
        switch (t.bits()) {
        case 8: return "b";
        case 16: return "h";
        case 32: return "i";
        case 64: return "q";
        }
        break;
    case halide_type_uint:
        switch (t.bits()) {
        case 8: return "B";
        case 16: return "H";
        case 32: return "I";
        case 64: return "Q";
        }
        break;
    case halide_type_float:
        switch (t.bits()) {
        case 16: return "e";
        case 32: return "f";
        case 64: return "d";
        }
        break;
    default: break;
    }
    return nullptr;
}

void check_defined(const Buffer &b) {
    if (!b.defined()) {
        throw py::value_error("the halide.Buffer is undefined (it has no shape or memory)");
    }
}

// A copy of a Python buffer-protocol object's shape and element pointer.
Buffer from_python_buffer(const py::object &obj, const std::string &name, bool reverse_axes) {
    halide_python::MarshaledBuffer view;
    if (!view.acquire(obj.ptr(), "halide.Buffer()", false, reverse_axes)) {
        throw py::error_already_set();
    }
    Halide::Runtime::Buffer<> rb(view.buffer);
    return Buffer(rb, name);
}

// The address of the element at `pos`, with an IndexError outside the buffer.
uint8_t *element_address(const Buffer &b, const std::vector<int> &pos) {
    check_defined(b);
    if ((int)pos.size() != b.dimensions()) {
        throw py::index_error("a halide.Buffer of " + std::to_string(b.dimensions()) + " dimensions takes " +
                              std::to_string(b.dimensions()) + " coordinates, got " + std::to_string(pos.size()));
    }
    for (int i = 0; i < b.dimensions(); i++) {
        int lo = b.dim(i).min(), extent = b.dim(i).extent();
        if (pos[i] < lo || pos[i] >= lo + extent) {
            throw py::index_error("index " + std::to_string(pos[i]) + " is out of bounds for axis " +
                                  std::to_string(i) + " with min=" + std::to_string(lo) +
                                  ", extent=" + std::to_string(extent));
        }
    }
    int64_t offset = 0;
    for (int i = 0; i < b.dimensions(); i++) {
        offset += (int64_t)(pos[i] - b.dim(i).min()) * b.dim(i).stride();
    }
    return (uint8_t *)b.data() + offset * b.type().bytes();
}

py::object load(const Buffer &b, const std::vector<int> &pos) {
    const uint8_t *p = element_address(b, pos);
    const Halide::Type t = b.type();
    if (t.is_bool()) {
        return py::bool_(*p != 0);
    }
    switch (t.code()) {
    case halide_type_int:
        switch (t.bits()) {
        case 8: return py::int_(*(const int8_t *)p);
        case 16: return py::int_(*(const int16_t *)p);
        case 32: return py::int_(*(const int32_t *)p);
        case 64: return py::int_(*(const int64_t *)p);
        }
        break;
    case halide_type_uint:
        switch (t.bits()) {
        case 8: return py::int_(*(const uint8_t *)p);
        case 16: return py::int_(*(const uint16_t *)p);
        case 32: return py::int_(*(const uint32_t *)p);
        case 64: return py::int_(*(const uint64_t *)p);
        }
        break;
    case halide_type_float:
        switch (t.bits()) {
        case 32: return py::float_(*(const float *)p);
        case 64: return py::float_(*(const double *)p);
        }
        break;
    default: break;
    }
    throw py::type_error("element access is not supported for halide.Buffer of type " + type_name(t));
}

void store(const Buffer &b, const std::vector<int> &pos, const py::object &value) {
    uint8_t *p = element_address(b, pos);
    const Halide::Type t = b.type();
    if (t.is_bool()) {
        *p = value.cast<bool>() ? 1 : 0;
        return;
    }
    switch (t.code()) {
    case halide_type_int:
        switch (t.bits()) {
        case 8: *(int8_t *)p = value.cast<int8_t>(); return;
        case 16: *(int16_t *)p = value.cast<int16_t>(); return;
        case 32: *(int32_t *)p = value.cast<int32_t>(); return;
        case 64: *(int64_t *)p = value.cast<int64_t>(); return;
        }
        break;
    case halide_type_uint:
        switch (t.bits()) {
        case 8: *(uint8_t *)p = value.cast<uint8_t>(); return;
        case 16: *(uint16_t *)p = value.cast<uint16_t>(); return;
        case 32: *(uint32_t *)p = value.cast<uint32_t>(); return;
        case 64: *(uint64_t *)p = value.cast<uint64_t>(); return;
        }
        break;
    case halide_type_float:
        switch (t.bits()) {
        case 32: *(float *)p = value.cast<float>(); return;
        case 64: *(double *)p = value.cast<double>(); return;
        }
        break;
    default: break;
    }
    throw py::type_error("element access is not supported for halide.Buffer of type " + type_name(t));
}

// b[x, y], b[x] or b[()]: integer coordinates, or Exprs for a call.
py::tuple as_index_tuple(const py::object &index) {
    if (py::isinstance<py::tuple>(index)) {
        return index.cast<py::tuple>();
    }
    return py::make_tuple(index);
}

bool all_ints(const py::tuple &t, std::vector<int> *out) {
    for (const auto &item : t) {
        int v = 0;
        if (PyBool_Check(item.ptr()) || !as_small_int(item, &v)) {
            return false;
        }
        out->push_back(v);
    }
    return true;
}

std::string buffer_repr(const Buffer &b) {
    if (!b.defined()) {
        return "<undefined halide.Buffer>";
    }
    std::ostringstream s;
    s << "<halide.Buffer of type " << type_name(b.type()) << " shape:[";
    for (int i = 0; i < b.dimensions(); i++) {
        s << (i ? "," : "") << "[" << b.dim(i).min() << "," << b.dim(i).extent() << "," << b.dim(i).stride() << "]";
    }
    s << "]>";
    return s.str();
}

struct Dimension {
    int min_, extent_, stride_;
};

} // namespace

void define_buffer(py::module_ &m) {
    py::class_<Dimension>(m, "BufferDimension")
        .def("min", [](const Dimension &d) { return d.min_; })
        .def("extent", [](const Dimension &d) { return d.extent_; })
        .def("stride", [](const Dimension &d) { return d.stride_; })
        .def("max", [](const Dimension &d) { return d.min_ + d.extent_ - 1; })
        .def("__repr__", [](const Dimension &d) {
            return "<halide.BufferDimension min=" + std::to_string(d.min_) + " extent=" + std::to_string(d.extent_) +
                   " stride=" + std::to_string(d.stride_) + ">";
        });

    py::class_<Buffer>(m, "Buffer", py::buffer_protocol())
        .def(py::init<>())
        .def(py::init([](const Halide::Type &t, const std::vector<int> &sizes, const std::string &name) {
                 for (int s : sizes) {
                     if (s < 0) {
                         throw py::value_error("halide.Buffer(): sizes must be non-negative, got " + std::to_string(s));
                     }
                 }
                 return Buffer(t, sizes, name);
             }),
             py::arg("type"), py::arg("sizes"), py::arg("name") = "")
        // Zero-copy: the Buffer keeps the exporting object alive.
        .def(py::init([](const py::buffer &obj, const std::string &name, bool reverse_axes) {
                 return from_python_buffer(obj, name, reverse_axes);
             }),
             py::arg("buffer"), py::arg("name") = "", py::arg("reverse_axes") = true, py::keep_alive<1, 2>())
        .def_buffer([](Buffer &b) -> py::buffer_info {
            check_defined(b);
            const char *format = format_of(b.type());
            if (!format) {
                throw py::type_error("a halide.Buffer of type " + type_name(b.type()) +
                                     " has no buffer-protocol equivalent");
            }
            const int dims = b.dimensions();
            const py::ssize_t item = b.type().bytes();
            std::vector<py::ssize_t> shape(dims), strides(dims);
            for (int i = 0; i < dims; i++) {
                shape[dims - 1 - i] = b.dim(i).extent();
                strides[dims - 1 - i] = (py::ssize_t)b.dim(i).stride() * item;
            }
            return py::buffer_info(b.data(), item, format, dims, shape, strides);
        })
        .def("defined", &Buffer::defined)
        .def("name", &Buffer::name)
        .def("type",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.type();
             })
        .def("dimensions",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.dimensions();
             })
        .def(
            "dim",
            [](const Buffer &b, int i) {
                check_defined(b);
                if (i < 0 || i >= b.dimensions()) {
                    throw py::index_error("dimension " + std::to_string(i) + " is out of range for a buffer of " +
                                          std::to_string(b.dimensions()) + " dimensions");
                }
                return Dimension{b.dim(i).min(), b.dim(i).extent(), b.dim(i).stride()};
            },
            py::arg("dimension"))
        .def("width",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.width();
             })
        .def("height",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.height();
             })
        .def("channels",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.channels();
             })
        .def("number_of_elements",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.number_of_elements();
             })
        .def("copy",
             [](const Buffer &b) {
                 check_defined(b);
                 return Buffer(b.get()->copy());
             })
        .def(
            "__getitem__",
            [](const Buffer &b, const py::object &index) -> py::object {
                check_defined(b);
                py::tuple t = as_index_tuple(index);
                std::vector<int> pos;
                if (all_ints(t, &pos)) {
                    return load(b, pos);
                }
                std::vector<Halide::Expr> args;
                for (const auto &item : t) {
                    args.push_back(to_expr(item, "halide.Buffer index"));
                }
                if ((int)args.size() != b.dimensions()) {
                    throw py::index_error("a halide.Buffer of " + std::to_string(b.dimensions()) +
                                          " dimensions takes " + std::to_string(b.dimensions()) + " coordinates, got " +
                                          std::to_string(args.size()));
                }
                return py::cast(b(args));
            },
            py::arg("index"))
        .def(
            "__setitem__",
            [](const Buffer &b, const py::object &index, const py::object &value) {
                std::vector<int> pos;
                if (!all_ints(as_index_tuple(index), &pos)) {
                    throw py::type_error("halide.Buffer element assignment takes integer coordinates");
                }
                store(b, pos, value);
            },
            py::arg("index"), py::arg("value"))
        .def("__repr__", &buffer_repr);
}

} // namespace halide_py
