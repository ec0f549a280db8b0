// hl.Buffer: an image the compiler reads (b[x, y] in a definition) and
// realizes into. Members, argument names and overloads follow upstream's
// Python Buffer. Shape operations reuse halide.runtime's checked versions
// (runtime_module/buffer.cpp) on the C++ Buffer's Runtime::Buffer, so bad
// arguments raise instead of reaching the header's assertions.
#include <cstring>
#include <limits>
#include <sstream>

#include "buffer.h"
#include "py_buffer.h"

namespace halide_py {

using Checked = halide_python::Buffer;

void check_defined(const Buffer &b) {
    if (!b.defined()) {
        throw py::value_error("the halide.Buffer is undefined (it has no shape or memory)");
    }
}

namespace {

// The checked runtime operations, acting on b's Runtime::Buffer in place.
Checked checked(const Buffer &b) {
    check_defined(b);
    return Checked::borrow(b.get());
}

// After an in-place change of the number of dimensions: the compiler
// recorded the old count, so register the buffer again under its name.
void readopt(Buffer &b) {
    RuntimeBuffer rb = *b.get();
    std::string name = b.name();
    b = Buffer();
    b = Buffer(rb, name);
}

// A new Buffer made by `op` on a view (a shallow copy) of b.
template <typename Op> Buffer view_of(const Buffer &b, Op op) {
    check_defined(b);
    RuntimeBuffer rb = *b.get();
    Checked c = Checked::borrow(&rb);
    op(c);
    return Buffer(rb);
}

// ---------------------------------------------------------------------------
// Element access
// ---------------------------------------------------------------------------

[[noreturn]] void unsupported_elements(const Halide::Type &t) {
    throw py::type_error("element access is not supported for a halide.Buffer of type " + type_name(t) +
                         " (use numpy_view() for float16)");
}

py::object load(const uint8_t *p, const Halide::Type &t) {
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
    unsupported_elements(t);
}

// A Python value converted to t's representation in `bits` (8 bytes), with
// a TypeError for the wrong kind of value and a ValueError when it does not
// fit (as halide.runtime.Buffer does).
void encode(py::handle value, const Halide::Type &t, uint64_t *bits) {
    const std::string what = "a halide.Buffer element of type " + type_name(t);
    if (t.is_float()) {
        if (t.bits() != 32 && t.bits() != 64) {
            unsupported_elements(t);
        }
        if (!PyFloat_Check(value.ptr()) && !PyIndex_Check(value.ptr()) && !py::hasattr(value, "__float__")) {
            throw py::type_error(what + " must be a number, got " + std::string(Py_TYPE(value.ptr())->tp_name));
        }
        const double d = py::cast<double>(py::float_(py::reinterpret_borrow<py::object>(value)));
        if (t.bits() == 32) {
            const float f = (float)d;
            std::memcpy(bits, &f, 4);
        } else {
            std::memcpy(bits, &d, 8);
        }
        return;
    }
    if (!t.is_int() && !t.is_uint()) {
        unsupported_elements(t);
    }
    if (PyFloat_Check(value.ptr()) || !PyIndex_Check(value.ptr())) {
        throw py::type_error(what + " must be an integer, got " + std::string(Py_TYPE(value.ptr())->tp_name));
    }
    py::int_ i = py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
    if (!i) {
        throw py::error_already_set();
    }
    const int n = t.is_bool() ? 1 : t.bits();
    bool fits;
    if (t.is_int()) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
        const long long lo = n == 64 ? std::numeric_limits<long long>::min() : -(1LL << (n - 1));
        const long long hi = n == 64 ? std::numeric_limits<long long>::max() : (1LL << (n - 1)) - 1;
        fits = overflow == 0 && v >= lo && v <= hi;
        *bits = (uint64_t)v;
    } else {
        unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            fits = false;
        } else {
            fits = n == 64 || v <= ((1ULL << n) - 1);
        }
        *bits = v;
    }
    if (!fits) {
        throw py::value_error(std::string(py::str(value)) + " is not representable as " + type_name(t) +
                              " (the type of this halide.Buffer)");
    }
}

void store(uint8_t *p, const Halide::Type &t, py::handle value) {
    uint64_t bits = 0;
    encode(value, t, &bits);
    std::memcpy(p, &bits, t.bytes()); // little-endian hosts: the low bytes
}

// Integer coordinates from an index (an int or a sequence of ints); false
// when some item is not an int (an Expr index).
bool int_coordinates(const py::handle &index, std::vector<int> *out) {
    py::tuple items;
    if (py::isinstance<py::tuple>(index) || py::isinstance<py::list>(index)) {
        items = py::tuple(py::reinterpret_borrow<py::object>(index));
    } else {
        items = py::make_tuple(index);
    }
    for (const auto &item : items) {
        int v = 0;
        if (PyBool_Check(item.ptr()) || !as_small_int(item, &v)) {
            if (PyIndex_Check(item.ptr()) && !PyBool_Check(item.ptr())) {
                throw py::index_error("halide.Buffer index " + std::string(py::str(item)) + " does not fit in 32 bits");
            }
            return false;
        }
        out->push_back(v);
    }
    return true;
}

std::vector<Halide::Expr> expr_coordinates(const py::handle &index) {
    py::tuple items = py::isinstance<py::tuple>(index) || py::isinstance<py::list>(index)
                          ? py::tuple(py::reinterpret_borrow<py::object>(index))
                          : py::make_tuple(index);
    std::vector<Halide::Expr> args;
    for (const auto &item : items) {
        args.push_back(to_expr(item, "halide.Buffer index"));
    }
    return args;
}

// Calls f(element address, position from the mins) for each element,
// dimension 0 fastest.
template <typename F> void for_each_address(const Buffer &b, F f) {
    const halide_buffer_t &h = *b.raw_buffer();
    const int d = h.dimensions;
    for (int i = 0; i < d; i++) {
        if (h.dim[i].extent <= 0) {
            return;
        }
    }
    if (!h.host) {
        throw py::value_error("the halide.Buffer has no host memory (a bounds-query or deallocated buffer)");
    }
    std::vector<int> pos(d, 0);
    const int bytes = h.type.bytes();
    for (;;) {
        int64_t offset = 0;
        for (int i = 0; i < d; i++) {
            offset += (int64_t)pos[i] * h.dim[i].stride;
        }
        f(h.host + offset * bytes, pos);
        int i = 0;
        for (; i < d; i++) {
            if (++pos[i] < h.dim[i].extent) {
                break;
            }
            pos[i] = 0;
        }
        if (i == d) {
            return;
        }
    }
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

// One dimension of a Buffer, read live as upstream's BufferDimension is.
struct DimensionRef {
    py::object owner;
    int index;

    const halide_dimension_t &get() const {
        const Buffer &b = py::cast<const Buffer &>(owner);
        check_defined(b);
        if (index >= b.dimensions()) {
            throw py::index_error("dimension " + std::to_string(index) + " no longer exists: the buffer now has " +
                                  std::to_string(b.dimensions()) + " dimensions");
        }
        return b.raw_buffer()->dim[index];
    }
};

const halide_dimension_t &dim_at_least(const Buffer &b, int needed, const char *what) {
    check_defined(b);
    if (b.dimensions() < needed) {
        throw py::index_error(std::string(what) + "() needs a buffer with at least " + std::to_string(needed) +
                              " dimension" + (needed > 1 ? "s" : "") + ", this one has " +
                              std::to_string(b.dimensions()));
    }
    return b.raw_buffer()->dim[needed - 1];
}

void bind_shape(py::class_<Buffer> &cls) {
    cls.def("defined", &Buffer::defined)
        .def("name", &Buffer::name)
        .def(
            "set_name",
            [](Buffer &b, const std::string &name) {
                check_defined(b);
                RuntimeBuffer rb = *b.get();
                b = Buffer();
                b = Buffer(rb, name);
            },
            py::arg("name"))
        .def(
            "same_as", [](const Buffer &b, const Buffer &other) { return b.defined() && b.get() == other.get(); },
            py::arg("other"))
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
            [](py::object self, int dimension) {
                checked(py::cast<const Buffer &>(self)).check_dim(dimension);
                return DimensionRef{std::move(self), dimension};
            },
            py::arg("dimension"))
        // 1 for a missing dimension, as upstream.
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
        .def("left", [](const Buffer &b) { return dim_at_least(b, 1, "left").min; })
        .def("right",
             [](const Buffer &b) {
                 const halide_dimension_t &d = dim_at_least(b, 1, "right");
                 return (int)((int64_t)d.min + d.extent - 1);
             })
        .def("top", [](const Buffer &b) { return dim_at_least(b, 2, "top").min; })
        .def("bottom",
             [](const Buffer &b) {
                 const halide_dimension_t &d = dim_at_least(b, 2, "bottom");
                 return (int)((int64_t)d.min + d.extent - 1);
             })
        .def("number_of_elements",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.get()->number_of_elements();
             })
        .def("size_in_bytes",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.get()->size_in_bytes();
             })
        .def(
            "contains", [](const Buffer &b, const std::vector<int> &coords) { return checked(b).contains(coords); },
            py::arg("coords"))
        .def(
            "set_min", [](Buffer &b, const std::vector<int> &mins) { checked(b).set_min(mins); }, py::arg("mins"));

    // In place, and the views (new Buffers sharing memory, which keep this
    // one, and so its memory, alive).
    const auto view = py::keep_alive<0, 1>();
    cls.def(
           "crop", [](Buffer &b, int d, int min, int extent) { checked(b).crop(d, min, extent); }, py::arg("dimension"),
           py::arg("min"), py::arg("extent"))
        .def(
            "crop", [](Buffer &b, const std::vector<std::pair<int, int>> &rect) { checked(b).crop(rect); },
            py::arg("rect"))
        .def(
            "cropped",
            [](const Buffer &b, int d, int min, int extent) {
                return view_of(b, [&](Checked &c) { c.crop(d, min, extent); });
            },
            py::arg("dimension"), py::arg("min"), py::arg("extent"), view)
        .def(
            "cropped",
            [](const Buffer &b, const std::vector<std::pair<int, int>> &rect) {
                return view_of(b, [&](Checked &c) { c.crop(rect); });
            },
            py::arg("rect"), view)
        .def(
            "slice",
            [](Buffer &b, int d, int pos) {
                checked(b).slice(d, pos);
                readopt(b);
            },
            py::arg("dimension"), py::arg("pos"))
        .def(
            "slice",
            [](Buffer &b, int d) {
                checked(b).slice(d);
                readopt(b);
            },
            py::arg("dimension"))
        .def(
            "sliced", [](const Buffer &b, int d, int pos) { return view_of(b, [&](Checked &c) { c.slice(d, pos); }); },
            py::arg("dimension"), py::arg("pos"), view)
        .def(
            "sliced", [](const Buffer &b, int d) { return view_of(b, [&](Checked &c) { c.slice(d); }); },
            py::arg("dimension"), view)
        .def(
            "embed",
            [](Buffer &b, int d, int pos) {
                checked(b).embed(d, pos);
                readopt(b);
            },
            py::arg("dimension"), py::arg("pos"))
        .def(
            "embed",
            [](Buffer &b, int d) {
                checked(b).embed(d, 0);
                readopt(b);
            },
            py::arg("dimension"))
        .def(
            "embedded",
            [](const Buffer &b, int d, int pos) { return view_of(b, [&](Checked &c) { c.embed(d, pos); }); },
            py::arg("dimension"), py::arg("pos"), view)
        .def(
            "embedded", [](const Buffer &b, int d) { return view_of(b, [&](Checked &c) { c.embed(d, 0); }); },
            py::arg("dimension"), view)
        .def("add_dimension",
             [](Buffer &b) {
                 checked(b).add_dimension();
                 readopt(b);
             })
        .def(
            "translate", [](Buffer &b, int d, int dx) { checked(b).translate(d, dx); }, py::arg("dimension"),
            py::arg("dx"))
        .def(
            "translate", [](Buffer &b, const std::vector<int> &delta) { checked(b).translate(delta); },
            py::arg("delta"))
        .def(
            "translated",
            [](const Buffer &b, int d, int dx) { return view_of(b, [&](Checked &c) { c.translate(d, dx); }); },
            py::arg("dimension"), py::arg("dx"), view)
        .def(
            "translated",
            [](const Buffer &b, const std::vector<int> &delta) {
                return view_of(b, [&](Checked &c) { c.translate(delta); });
            },
            py::arg("delta"), view)
        .def(
            "transpose", [](Buffer &b, int d1, int d2) { checked(b).transpose(d1, d2); }, py::arg("d1"), py::arg("d2"))
        .def(
            "transpose", [](Buffer &b, const std::vector<int> &order) { checked(b).transpose(order); },
            py::arg("order"))
        .def(
            "transposed",
            [](const Buffer &b, int d1, int d2) { return view_of(b, [&](Checked &c) { c.transpose(d1, d2); }); },
            py::arg("d1"), py::arg("d2"), view)
        .def(
            "transposed",
            [](const Buffer &b, const std::vector<int> &order) {
                return view_of(b, [&](Checked &c) { c.transpose(order); });
            },
            py::arg("order"), view)
        .def(
            "reverse_axes", [](const Buffer &b) { return view_of(b, [&](Checked &c) { c.reverse_axes_in_place(); }); },
            view, "A view with the dimensions in reverse order.");
}

void bind_elements(py::class_<Buffer> &cls) {
    cls.def(
           "__getitem__",
           [](const Buffer &b, const py::object &index) -> py::object {
               check_defined(b);
               std::vector<int> pos;
               if (int_coordinates(index, &pos)) {
                   if (!b.type().is_bool() && !b.type().is_int() && !b.type().is_uint() &&
                       !(b.type().is_float() && b.type().bits() >= 32)) {
                       unsupported_elements(b.type());
                   }
                   return load(checked(b).address_of(pos, false), b.type());
               }
               // The wrong number of Expr coordinates: the compiler's error
               // (upstream's HalideError "Dimensionality mismatch ...").
               return py::cast(b(expr_coordinates(index)));
           },
           py::arg("index"))
        .def(
            "__setitem__",
            [](const Buffer &b, const py::object &index, const py::object &value) {
                check_defined(b);
                std::vector<int> pos;
                if (!int_coordinates(index, &pos)) {
                    throw py::type_error("halide.Buffer element assignment takes integer coordinates");
                }
                uint8_t *p = checked(b).address_of(pos, true);
                store(p, b.type(), value);
                b.raw_buffer()->set_host_dirty(true);
                return load(p, b.type()); // the value stored, as upstream returns it
            },
            py::arg("index"), py::arg("value"))
        .def(
            "fill",
            [](const Buffer &b, const py::object &value) {
                check_defined(b);
                uint64_t bits = 0;
                encode(value, b.type(), &bits);
                const int bytes = b.type().bytes();
                for_each_address(b, [&](uint8_t *p, const std::vector<int> &) { std::memcpy(p, &bits, bytes); });
                b.raw_buffer()->set_host_dirty(true);
            },
            py::arg("value"))
        .def(
            "all_equal",
            [](const Buffer &b, const py::object &value) {
                check_defined(b);
                uint64_t bits = 0;
                encode(value, b.type(), &bits);
                const Halide::Type t = b.type();
                bool equal = true;
                for_each_address(b, [&](uint8_t *p, const std::vector<int> &) {
                    if (t.is_float()) {
                        double want, have;
                        if (t.bits() == 32) {
                            float fw, fh;
                            std::memcpy(&fw, &bits, 4);
                            std::memcpy(&fh, p, 4);
                            want = fw, have = fh;
                        } else {
                            std::memcpy(&want, &bits, 8);
                            std::memcpy(&have, p, 8);
                        }
                        equal = equal && want == have;
                    } else if (t.is_bool()) {
                        equal = equal && ((*p != 0) == (bits != 0));
                    } else {
                        equal = equal && std::memcmp(p, &bits, t.bytes()) == 0;
                    }
                });
                return equal;
            },
            py::arg("value"))
        .def(
            "for_each_element",
            [](const Buffer &b, const py::function &f) {
                check_defined(b);
                halide_python::for_each_coordinate(*b.raw_buffer(), f);
            },
            py::arg("f"), "Calls f([x, y, ...]) for every coordinate, dimension 0 varying fastest.")
        .def(
            "for_each_value",
            [](const Buffer &b, const py::function &f, const py::args &others) {
                check_defined(b);
                // Every buffer is walked in this one's coordinates.
                std::vector<Buffer> rest;
                for (const auto &o : others) {
                    if (!py::isinstance<Buffer>(o)) {
                        throw py::type_error("for_each_value: the extra arguments must be halide.Buffer, got " +
                                             std::string(Py_TYPE(o.ptr())->tp_name));
                    }
                    rest.push_back(py::cast<Buffer>(o));
                    check_defined(rest.back());
                    bool same = rest.back().dimensions() == b.dimensions();
                    for (int i = 0; same && i < b.dimensions(); i++) {
                        same = rest.back().dim(i).min() == b.dim(i).min() &&
                               rest.back().dim(i).extent() == b.dim(i).extent();
                    }
                    if (!same) {
                        throw py::value_error("for_each_value: every buffer must have the same mins and extents as "
                                              "this one, got " +
                                              buffer_repr(rest.back()) + " for " + buffer_repr(b));
                    }
                }
                const Halide::Type t = b.type();
                for_each_address(b, [&](uint8_t *p, const std::vector<int> &pos) {
                    py::tuple args(1 + rest.size());
                    args[0] = load(p, t);
                    for (size_t k = 0; k < rest.size(); k++) {
                        const halide_buffer_t &o = *rest[k].raw_buffer();
                        int64_t offset = 0;
                        for (int i = 0; i < o.dimensions; i++) {
                            offset += (int64_t)pos[i] * o.dim[i].stride;
                        }
                        if (!o.host) {
                            throw py::value_error("for_each_value: a buffer has no host memory");
                        }
                        args[1 + k] = load(o.host + offset * o.type.bytes(), rest[k].type());
                    }
                    py::object r = f(*args);
                    if (!r.is_none()) {
                        store(p, t, r);
                    }
                });
                b.raw_buffer()->set_host_dirty(true);
            },
            py::arg("f"),
            "Calls f(value, *values_of_others) for every element, dimension 0 fastest; a result other than None "
            "is stored in this buffer's element (C++'s for_each_value with a reference).");
}

void bind_memory(py::class_<Buffer> &cls) {
    cls.def("allocate", [](Buffer &b) { checked(b).allocate(); })
        .def("deallocate", [](Buffer &b) { checked(b).deallocate(); })
        .def("copy",
             [](const Buffer &b) {
                 Checked copy = checked(b).copy();
                 return Buffer(copy.rt());
             })
        .def(
            "copy_from",
            [](Buffer &b, const Buffer &src) {
                check_defined(src);
                checked(b).copy_from(Checked::borrow(src.get()));
            },
            py::arg("src"))
        .def("host_dirty",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.raw_buffer()->host_dirty();
             })
        .def("device_dirty",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.raw_buffer()->device_dirty();
             })
        .def(
            "set_host_dirty",
            [](Buffer &b, bool dirty) {
                check_defined(b);
                if (dirty && b.raw_buffer()->device_dirty()) {
                    throw py::value_error("Cannot set host dirty when device is already dirty; call copy_to_host() "
                                          "first");
                }
                b.raw_buffer()->set_host_dirty(dirty);
            },
            py::arg("dirty") = true)
        .def(
            "set_device_dirty",
            [](Buffer &b, bool dirty) {
                check_defined(b);
                if (dirty && b.raw_buffer()->host_dirty()) {
                    throw py::value_error("Cannot set device dirty when host is already dirty; call "
                                          "set_host_dirty(False) first");
                }
                b.raw_buffer()->set_device_dirty(dirty);
            },
            py::arg("dirty") = true)
        .def("has_device_allocation",
             [](const Buffer &b) {
                 check_defined(b);
                 return b.raw_buffer()->device != 0;
             })
        // Host only: these have nothing to do and succeed (0), as upstream's
        // do for a buffer without a device allocation.
        .def("copy_to_host",
             [](const Buffer &b) {
                 check_defined(b);
                 return 0;
             })
        .def("device_sync",
             [](const Buffer &b) {
                 check_defined(b);
                 return 0;
             })
        .def("device_free",
             [](const Buffer &b) {
                 check_defined(b);
                 return 0;
             })
        .def("device_detach_native",
             [](const Buffer &b) {
                 check_defined(b);
                 return 0;
             })
        .def("device_deallocate", [](const Buffer &b) { check_defined(b); });
    // copy_to_device and device_malloc (which take a DeviceAPI): py_device.cpp.
}

void bind_constructors(py::class_<Buffer> &cls) {
    auto check_sizes = [](const std::vector<int> &sizes) {
        for (int s : sizes) {
            if (s < 0) {
                throw py::value_error("halide.Buffer(): sizes must be non-negative, got " + std::to_string(s));
            }
        }
    };
    cls.def(py::init<>())
        // A copy shares other's elements, so it keeps what keeps them alive
        // (the NumPy array other wraps) alive too.
        .def(py::init([](const Buffer &other) { return other; }), py::arg("other"), py::keep_alive<1, 2>())
        .def(py::init([=](const Halide::Type &t, const std::vector<int> &sizes, const std::string &name) {
                 check_sizes(sizes);
                 return Buffer(Checked::allocate_new(halide_type_t(t), sizes, nullptr, name).rt(), name);
             }),
             py::arg("type"), py::arg("sizes"), py::arg("name") = "")
        .def(py::init([=](const Halide::Type &t, const std::vector<int> &sizes, const std::vector<int> &storage_order,
                          const std::string &name) {
                 check_sizes(sizes);
                 return Buffer(Checked::allocate_new(halide_type_t(t), sizes, &storage_order, name).rt(), name);
             }),
             py::arg("type"), py::arg("sizes"), py::arg("storage_order"), py::arg("name") = "")
        // Zero-copy: the Buffer keeps the source object alive.
        .def(py::init([](const py::object &buffer, const std::string &name, bool reverse_axes) {
                 return buffer_from_object(buffer, name, reverse_axes);
             }),
             py::arg("buffer"), py::arg("name") = "", py::arg("reverse_axes") = true);

    cls.def_static(
           "make_scalar",
           [](const Halide::Type &t, const std::string &name) {
               return Buffer(Checked::scalar(halide_type_t(t), name).rt(), name);
           },
           py::arg("type"), py::arg("name") = "")
        .def_static(
            "make_bounds_query",
            [=](const Halide::Type &t, const std::vector<int> &sizes, const std::string &name) {
                check_sizes(sizes);
                return Buffer(Checked::bounds_query(halide_type_t(t), sizes, name).rt(), name);
            },
            py::arg("type"), py::arg("sizes"), py::arg("name") = "")
        .def_static(
            "make_interleaved",
            [](const Halide::Type &t, int width, int height, int channels, const std::string &name) {
                return Buffer(Checked::interleaved(halide_type_t(t), width, height, channels, name).rt(), name);
            },
            py::arg("type"), py::arg("width"), py::arg("height"), py::arg("channels"), py::arg("name") = "")
        .def_static(
            "make_with_shape_of",
            [](const Buffer &src, const std::string &name) {
                return Buffer(Checked::with_shape_of(checked(src), name).rt(), name);
            },
            py::arg("src"), py::arg("name") = "");
}

} // namespace

void define_buffer(py::module_ &m) {
    py::class_<DimensionRef>(m, "BufferDimension", "One dimension of a Buffer: min, extent and stride (in elements).")
        .def("min", [](const DimensionRef &d) { return d.get().min; })
        .def("extent", [](const DimensionRef &d) { return d.get().extent; })
        .def("stride", [](const DimensionRef &d) { return d.get().stride; })
        .def("max", [](const DimensionRef &d) { return (int)((int64_t)d.get().min + d.get().extent - 1); })
        .def("__repr__", [](const DimensionRef &d) {
            const halide_dimension_t &h = d.get();
            return "<halide.BufferDimension min=" + std::to_string(h.min) + " extent=" + std::to_string(h.extent) +
                   " stride=" + std::to_string(h.stride) + ">";
        });

    auto cls = bound_class<Buffer>(m, "Buffer");
    bind_constructors(cls);
    bind_shape(cls);
    bind_elements(cls);
    bind_memory(cls);
    define_buffer_interop(cls);
    cls.def("__repr__", &buffer_repr);
}

} // namespace halide_py
