// Python bindings of halide.runtime.Buffer, halide.runtime.Type and
// halide.runtime.BufferDimension. Member names, argument names and
// semantics follow upstream Halide's halide.runtime.Buffer; see the
// "Buffer members" table in docs/runtime.md.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>

#include "buffer.h"
#include "errors.h"
#include "scalars.h"

namespace py = pybind11;

namespace halide_python {
namespace {

// ---------------------------------------------------------------------------
// halide.runtime.Type
// ---------------------------------------------------------------------------

struct TypeObject {
    halide_type_t type;
};

halide_type_t make_type(int64_t code, int64_t bits, const char *what) {
    if (code < halide_type_int || code > halide_type_bfloat) {
        throw py::value_error(std::string(what) + ": type code " + std::to_string(code) +
                              " is not one of 0 (int), 1 (uint), 2 (float), 3 (handle), 4 (bfloat)");
    }
    if (bits < 1 || bits > 255) {
        throw py::value_error(std::string(what) + ": bits must be in [1, 255], got " + std::to_string(bits));
    }
    return halide_type_t((halide_type_code_t)code, (uint8_t)bits);
}

bool type_from_name(const std::string &s, halide_type_t *out) {
    static const struct {
        const char *name;
        halide_type_code_t code;
        uint8_t bits;
    } names[] = {
        {"bool", halide_type_uint, 1},        {"uint1", halide_type_uint, 1},       {"int8", halide_type_int, 8},
        {"int16", halide_type_int, 16},       {"int32", halide_type_int, 32},       {"int64", halide_type_int, 64},
        {"uint8", halide_type_uint, 8},       {"uint16", halide_type_uint, 16},     {"uint32", halide_type_uint, 32},
        {"uint64", halide_type_uint, 64},     {"float16", halide_type_float, 16},   {"float32", halide_type_float, 32},
        {"float64", halide_type_float, 64},   {"bfloat16", halide_type_bfloat, 16}, {"handle", halide_type_handle, 64},
        {"handle64", halide_type_handle, 64},
    };
    for (const auto &n : names) {
        if (s == n.name) {
            *out = halide_type_t(n.code, n.bits);
            return true;
        }
    }
    return false;
}

std::string repr_of(py::handle h) {
    PyObject *r = PyObject_Repr(h.ptr());
    if (!r) {
        PyErr_Clear();
        return std::string("<") + Py_TYPE(h.ptr())->tp_name + ">";
    }
    return py::str(py::reinterpret_steal<py::object>(r));
}

[[noreturn]] void bad_type(py::handle h, const char *what) {
    throw py::type_error(std::string(what) +
                         ": expected a halide.runtime.Type, a type name such as 'uint8', or a NumPy dtype; got " +
                         repr_of(h));
}

// A Halide type from a halide.runtime.Type, a name ("uint8"), a NumPy dtype
// or scalar type, or any object with code() and bits() (halide.Type).
halide_type_t parse_type(py::handle h, const char *what) {
    if (py::isinstance<TypeObject>(h)) {
        return py::cast<const TypeObject &>(h).type;
    }
    if (h.is_none()) {
        bad_type(h, what);
    }
    halide_type_t t;
    if (PyUnicode_Check(h.ptr()) && type_from_name(py::cast<std::string>(h), &t)) {
        return t;
    }
    if (!PyUnicode_Check(h.ptr()) && py::hasattr(h, "code") && py::hasattr(h, "bits")) {
        py::object code = h.attr("code"), bits = h.attr("bits");
        if (PyCallable_Check(code.ptr()) && PyCallable_Check(bits.ptr())) {
            return make_type(py::int_(code()), py::int_(bits()), what);
        }
    }
    py::object dtype;
    try {
        dtype = py::module_::import("numpy").attr("dtype")(h);
    } catch (py::error_already_set &e) {
        if (!e.matches(PyExc_TypeError) && !e.matches(PyExc_ValueError)) {
            throw;
        }
        bad_type(h, what);
    }
    const std::string kind = py::str(dtype.attr("kind"));
    const int itemsize = py::cast<int>(dtype.attr("itemsize"));
    if (kind == "b" && itemsize == 1) {
        return halide_type_t(halide_type_uint, 1);
    }
    if ((kind == "i" || kind == "u") && (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8)) {
        return halide_type_t(kind == "i" ? halide_type_int : halide_type_uint, (uint8_t)(itemsize * 8));
    }
    if (kind == "f" && (itemsize == 2 || itemsize == 4 || itemsize == 8)) {
        return halide_type_t(halide_type_float, (uint8_t)(itemsize * 8));
    }
    throw py::type_error(std::string(what) + ": NumPy dtype " + std::string(py::str(dtype)) +
                         " has no Halide equivalent");
}

std::string type_string(halide_type_t t) {
    std::string s = type_name(t);
    if (t.lanes != 1) {
        s += "x" + std::to_string(t.lanes);
    }
    return s;
}

// ---------------------------------------------------------------------------
// Argument helpers
// ---------------------------------------------------------------------------

// An int coordinate or size from an object with __index__ (not a float).
int64_t read_index(py::handle item, const std::string &what) {
    if (PyFloat_Check(item.ptr()) || !PyIndex_Check(item.ptr())) {
        throw py::type_error(what + " must be an integer, got " + std::string(Py_TYPE(item.ptr())->tp_name));
    }
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(item.ptr()));
    if (!index) {
        throw py::error_already_set();
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) {
        throw py::error_already_set();
    }
    if (overflow != 0) {
        return overflow < 0 ? INT64_MIN : INT64_MAX;
    }
    return v;
}

std::vector<int> int_list(py::handle obj, const std::string &what) {
    if (PyUnicode_Check(obj.ptr()) || PyBytes_Check(obj.ptr()) || !PySequence_Check(obj.ptr())) {
        throw py::type_error(what + " must be a sequence of integers, got " + std::string(Py_TYPE(obj.ptr())->tp_name));
    }
    std::vector<int> out;
    py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
    for (size_t i = 0; i < seq.size(); i++) {
        const std::string item_what = what + "[" + std::to_string(i) + "]";
        int64_t v = read_index(seq[i], item_what);
        if (v < INT32_MIN || v > INT32_MAX) {
            throw py::value_error(item_what + " = " + repr_of(seq[i]) + " does not fit in 32 bits");
        }
        out.push_back((int)v);
    }
    return out;
}

// Halide coordinates from an index: an int, or a tuple / sequence of ints.
std::vector<int> coordinates(py::handle index) {
    std::vector<py::object> items;
    if (PyIndex_Check(index.ptr()) && !PyFloat_Check(index.ptr())) {
        items.push_back(py::reinterpret_borrow<py::object>(index));
    } else if (PySequence_Check(index.ptr()) && !PyUnicode_Check(index.ptr()) && !PyBytes_Check(index.ptr())) {
        py::sequence seq = py::reinterpret_borrow<py::sequence>(index);
        for (size_t i = 0; i < seq.size(); i++) {
            items.push_back(seq[i]);
        }
    } else {
        throw py::type_error("Buffer indices must be an integer or a tuple of integers, got " +
                             std::string(Py_TYPE(index.ptr())->tp_name));
    }
    std::vector<int> pos;
    for (size_t i = 0; i < items.size(); i++) {
        int64_t v = read_index(items[i], "Buffer index");
        if (v < INT32_MIN || v > INT32_MAX) {
            throw py::index_error("index " + repr_of(items[i]) + " is out of bounds for axis " + std::to_string(i));
        }
        pos.push_back((int)v);
    }
    return pos;
}

std::string string_arg(py::handle h, const char *what) {
    if (!PyUnicode_Check(h.ptr())) {
        throw py::type_error(std::string(what) + " must be a str, got " + Py_TYPE(h.ptr())->tp_name);
    }
    return py::cast<std::string>(h);
}

bool bool_arg(py::handle h, const char *what) {
    if (PyBool_Check(h.ptr()) || PyLong_Check(h.ptr()) ||
        std::strncmp(Py_TYPE(h.ptr())->tp_name, "numpy.bool", 10) == 0) {
        int truth = PyObject_IsTrue(h.ptr());
        if (truth < 0) {
            throw py::error_already_set();
        }
        return truth != 0;
    }
    throw py::type_error(std::string(what) + " must be a bool, got " + Py_TYPE(h.ptr())->tp_name);
}

// A Buffer from a Buffer or anything Buffer(obj) accepts.
Buffer as_buffer(py::handle h) {
    if (py::isinstance<Buffer>(h)) {
        return Buffer(py::cast<const Buffer &>(h));
    }
    return Buffer::wrap(h, "", true);
}

// ---------------------------------------------------------------------------
// Element access
// ---------------------------------------------------------------------------

void require_value_type(halide_type_t t) {
    bool ok =
        (t.code == halide_type_uint && (t.bits == 1 || t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
        (t.code == halide_type_int && (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64)) ||
        (t.code == halide_type_float && (t.bits == 16 || t.bits == 32 || t.bits == 64));
    if (!ok) {
        throw py::value_error("Unsupported Buffer<> type: elements of type " + type_string(t) +
                              " cannot be read or written from Python");
    }
}

// Calls f(address) for every element, dimension 0 innermost.
template <typename F> void visit_elements(uint8_t *host, const halide_buffer_t &h, F &&f) {
    const int d = h.dimensions;
    for (int i = 0; i < d; i++) {
        if (h.dim[i].extent <= 0) {
            return;
        }
    }
    if (d == 0) {
        f(host);
        return;
    }
    const ptrdiff_t bytes = h.type.bytes();
    std::vector<int> counter(d, 0);
    uint8_t *row = host;
    const ptrdiff_t step0 = (ptrdiff_t)h.dim[0].stride * bytes;
    for (;;) {
        uint8_t *p = row;
        for (int x = 0; x < h.dim[0].extent; x++, p += step0) {
            f(p);
        }
        int i = 1;
        for (; i < d; i++) {
            row += (ptrdiff_t)h.dim[i].stride * bytes;
            if (++counter[i] < h.dim[i].extent) {
                break;
            }
            row -= (ptrdiff_t)h.dim[i].stride * bytes * h.dim[i].extent;
            counter[i] = 0;
        }
        if (i >= d) {
            return;
        }
    }
}

bool element_equals(const uint8_t *p, const halide_scalar_value_t &v, halide_type_t t) {
    switch (t.code) {
    case halide_type_float:
        switch (t.bits) {
        case 16: {
            uint16_t h;
            std::memcpy(&h, p, 2);
            return half_bits_to_double(h) == half_bits_to_double(v.u.u16);
        }
        case 32: {
            float f;
            std::memcpy(&f, p, 4);
            return f == v.u.f32;
        }
        default: {
            double f;
            std::memcpy(&f, p, 8);
            return f == v.u.f64;
        }
        }
    case halide_type_uint:
        if (t.bits == 1) {
            return (*p != 0) == v.u.b;
        }
        [[fallthrough]];
    default: return std::memcmp(p, &v, (size_t)t.bytes()) == 0;
    }
}

// ---------------------------------------------------------------------------
// Exports: the buffer protocol and numpy_view()
// ---------------------------------------------------------------------------

// A buffer-protocol or NumPy export that holds the buffer's memory alive.
struct Export : BufferExport {
    std::unique_ptr<Buffer::Keepalive> keep;
};

void prepare_export(const Buffer &b, bool reverse_axes, Export &e) {
    b.require_defined();
    if (!describe_export(b.raw(), reverse_axes, "halide.runtime.Buffer", &e)) {
        throw py::error_already_set();
    }
    e.readonly = b.readonly();
    e.keep.reset(b.new_keepalive());
}

int buffer_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    view->obj = nullptr;
    try {
        const Buffer &b = py::cast<const Buffer &>(py::handle(self));
        auto e = std::make_unique<Export>();
        prepare_export(b, /*reverse_axes=*/true, *e);
        return fill_buffer_view(self, e.release(), view, flags, "halide.runtime.Buffer");
    } catch (...) {
        set_python_error_from_current_exception();
        return -1;
    }
}

py::array numpy_view(const Buffer &b, bool reverse_axes) {
    Export e;
    prepare_export(b, reverse_axes, e);
    py::capsule base(e.keep.release(), [](void *p) { delete static_cast<Buffer::Keepalive *>(p); });
    py::array array(py::dtype(std::string(e.format)), e.shape, e.strides, e.host, base);
    if (e.readonly) {
        array.attr("flags").attr("writeable") = false;
    }
    return array;
}

// ---------------------------------------------------------------------------
// Misc
// ---------------------------------------------------------------------------

// Runs a runtime device entry point and raises HalideError if it fails.
template <typename F> int call_runtime(const char *what, F f) {
    ErrorLog log;
    int r;
    {
        ScopedErrorLog scope(&log);
        r = f();
    }
    if (r != 0) {
        raise_halide_error(what, r, log.text);
    }
    return 0;
}

// A capsule pointing into `self` that keeps `self` alive.
py::object self_capsule(py::handle self, void *pointer, const char *name) {
    PyObject *capsule = PyCapsule_New(
        pointer, name, [](PyObject *cap) { Py_XDECREF(static_cast<PyObject *>(PyCapsule_GetContext(cap))); });
    if (!capsule) {
        throw py::error_already_set();
    }
    Py_INCREF(self.ptr());
    if (PyCapsule_SetContext(capsule, self.ptr()) != 0) {
        Py_DECREF(self.ptr());
        Py_DECREF(capsule);
        throw py::error_already_set();
    }
    return py::reinterpret_steal<py::object>(capsule);
}

// One dimension of a Buffer, read live (as upstream's BufferDimension, which
// refers to the buffer's shape rather than copying it).
struct DimensionRef {
    py::object owner;
    int index;

    const halide_dimension_t &get() const {
        const Buffer &b = py::cast<const Buffer &>(owner);
        if (index >= b.dimensions()) {
            throw py::index_error("dimension " + std::to_string(index) + " no longer exists: the buffer now has " +
                                  std::to_string(b.dimensions()) + " dimensions");
        }
        return b.raw().dim[index];
    }
};

const halide_dimension_t &dim_at_least(const Buffer &b, int needed, const char *what) {
    if (b.dimensions() < needed) {
        throw py::index_error(std::string(what) + "() needs a buffer with at least " + std::to_string(needed) +
                              " dimension" + (needed > 1 ? "s" : "") + ", this one has " +
                              std::to_string(b.dimensions()));
    }
    return b.raw().dim[needed - 1];
}

// Buffer(...): the five upstream forms, told apart as upstream's overloads
// are (see the docstring).
Buffer construct(const py::args &args, const py::kwargs &kwargs) {
    static const char *const allowed[] = {"buffer", "name", "reverse_axes", "type", "sizes", "storage_order"};
    for (auto item : kwargs) {
        const std::string key = py::str(item.first);
        bool known = false;
        for (const char *a : allowed) {
            known = known || key == a;
        }
        if (!known) {
            throw py::type_error("Buffer() got an unexpected keyword argument '" + key + "'");
        }
    }
    const size_t n = args.size();
    if (n == 0 && kwargs.empty()) {
        return Buffer();
    }
    if (n == 1 && kwargs.empty() && py::isinstance<Buffer>(args[0])) {
        return Buffer(py::cast<const Buffer &>(args[0]));
    }
    bool type_form = kwargs.contains("type") || kwargs.contains("sizes") || kwargs.contains("storage_order");
    const bool buffer_form = kwargs.contains("buffer") || kwargs.contains("reverse_axes");
    if (type_form && buffer_form) {
        throw py::type_error("Buffer(): buffer= / reverse_axes= cannot be combined with type= / sizes= / "
                             "storage_order=");
    }
    if (!type_form && !buffer_form) {
        py::handle first = args[0];
        const bool is_type =
            py::isinstance<TypeObject>(first) || PyUnicode_Check(first.ptr()) || PyType_Check(first.ptr()) ||
            std::strcmp(Py_TYPE(first.ptr())->tp_name, "numpy.dtype") == 0 ||
            std::strncmp(Py_TYPE(first.ptr())->tp_name, "numpy.dtypes.", 13) == 0 ||
            (!PyObject_CheckBuffer(first.ptr()) && py::hasattr(first, "code") && py::hasattr(first, "bits"));
        type_form = is_type;
    }
    // Gathers positional and keyword values of the named parameters.
    auto take = [&](const std::vector<const char *> &names) {
        if (n > names.size()) {
            throw py::type_error("Buffer() takes at most " + std::to_string(names.size()) +
                                 " positional arguments in this form, got " + std::to_string(n));
        }
        std::vector<py::object> values(names.size());
        for (size_t i = 0; i < names.size(); i++) {
            if (i < n) {
                values[i] = args[i];
            }
            if (kwargs.contains(names[i])) {
                if (values[i]) {
                    throw py::type_error(std::string("Buffer() got multiple values for argument '") + names[i] + "'");
                }
                values[i] = kwargs[names[i]];
            }
        }
        return values;
    };
    if (!type_form) {
        for (const char *k : {"type", "sizes", "storage_order"}) {
            if (kwargs.contains(k)) {
                throw py::type_error(std::string("Buffer() got an unexpected keyword argument '") + k + "'");
            }
        }
        auto v = take({"buffer", "name", "reverse_axes"});
        if (!v[0]) {
            throw py::type_error("Buffer() missing required argument 'buffer'");
        }
        const std::string name = v[1] ? string_arg(v[1], "Buffer(): name") : std::string();
        const bool reverse = v[2] ? bool_arg(v[2], "Buffer(): reverse_axes") : true;
        return Buffer::wrap(v[0], name, reverse);
    }
    // Type forms: (type, sizes, name="") and (type, sizes, storage_order, name="").
    std::vector<py::object> v;
    if (n >= 3 && PyUnicode_Check(args[2].ptr())) {
        v = take({"type", "sizes", "name"});
        v.insert(v.begin() + 2, py::object());
        if (kwargs.contains("storage_order")) {
            v[2] = kwargs["storage_order"];
        }
    } else {
        v = take({"type", "sizes", "storage_order", "name"});
    }
    if (!v[0]) {
        throw py::type_error("Buffer() missing required argument 'type'");
    }
    if (!v[1]) {
        throw py::type_error("Buffer(type, sizes): missing required argument 'sizes'");
    }
    const halide_type_t type = parse_type(v[0], "Buffer(): type");
    const std::vector<int> sizes = int_list(v[1], "Buffer(): sizes");
    const std::string name = v[3] ? string_arg(v[3], "Buffer(): name") : std::string();
    if (v[2] && !v[2].is_none()) {
        const std::vector<int> order = int_list(v[2], "Buffer(): storage_order");
        return Buffer::allocate_new(type, sizes, &order, name);
    }
    return Buffer::allocate_new(type, sizes, nullptr, name);
}

const char *const kInitDoc = R"doc(Buffer(buffer, name="", reverse_axes=True)
Buffer()
Buffer(other: Buffer)
Buffer(type, sizes, name="")
Buffer(type, sizes, storage_order, name="")

Wraps an object exporting the buffer protocol (a NumPy array, bytes,
memoryview, ...) without copying; with reverse_axes (the default) the last
NumPy axis is dimension 0, so an array of shape (H, W) has width W. An
object offering _get_halide_buffer_t_capsule() is wrapped the same way.
Buffer() is undefined; Buffer(other) shares other's memory. The type forms
allocate zero-filled memory: type is a halide.runtime.Type, a name such as
"uint8" or a NumPy dtype; storage_order lists dimensions innermost first.)doc";

} // namespace

void bind_buffer(py::module_ &m) {
    py::class_<TypeObject>(m, "Type",
                           "A Halide element type: a code (0 int, 1 uint, 2 float, 3 handle, 4 bfloat) "
                           "and a number of bits. str() gives 'uint8', 'float32', 'bool', ...")
        .def(py::init([](int64_t code, int64_t bits) { return TypeObject{make_type(code, bits, "Type")}; }),
             py::arg("code"), py::arg("bits"))
        .def("code", [](const TypeObject &t) { return (int)t.type.code; })
        .def("bits", [](const TypeObject &t) { return (int)t.type.bits; })
        .def("__eq__",
             [](const TypeObject &t, py::handle other) -> py::object {
                 if (py::isinstance<TypeObject>(other)) {
                     return py::bool_(py::cast<const TypeObject &>(other).type == t.type);
                 }
                 if (PyUnicode_Check(other.ptr())) {
                     return py::bool_(py::cast<std::string>(other) == type_string(t.type));
                 }
                 return py::reinterpret_borrow<py::object>(Py_NotImplemented);
             })
        .def("__hash__", [](const TypeObject &t) { return py::hash(py::str(type_string(t.type))); })
        .def("__str__", [](const TypeObject &t) { return type_string(t.type); })
        .def("__repr__", [](const TypeObject &t) { return type_string(t.type); });

    py::class_<DimensionRef>(m, "BufferDimension", "One dimension of a Buffer: min, extent and stride (in elements).")
        .def("min", [](const DimensionRef &d) { return d.get().min; })
        .def("extent", [](const DimensionRef &d) { return d.get().extent; })
        .def("stride", [](const DimensionRef &d) { return d.get().stride; })
        .def("max", [](const DimensionRef &d) { return (int)((int64_t)d.get().min + d.get().extent - 1); })
        .def("__repr__", [](const DimensionRef &d) {
            const halide_dimension_t &h = d.get();
            return "BufferDimension(min=" + std::to_string(h.min) + ", extent=" + std::to_string(h.extent) +
                   ", stride=" + std::to_string(h.stride) + ")";
        });

    py::class_<Buffer> cls(m, "Buffer", py::buffer_protocol(),
                           "A halide_buffer_t over NumPy (or any buffer-protocol) memory, or over memory it owns. "
                           "By default axes are reversed: NumPy's last axis is dimension 0.");
    cls.def(py::init([](const py::args &args, const py::kwargs &kwargs) { return construct(args, kwargs); }), kInitDoc);

    // Static constructors.
    cls.def_static(
           "_from_borrowed",
           [](py::handle capsule, py::object owner, const std::string &name) {
               return Buffer::from_borrowed(capsule, std::move(owner), name);
           },
           py::arg("capsule"), py::arg("owner"), py::arg("name"),
           "A Buffer operating on the Halide::Runtime::Buffer in `capsule` (from "
           "_get_halide_runtime_buffer_capsule()); `owner` is kept alive.")
        .def_static(
            "make_bounds_query",
            [](py::handle type, py::handle sizes, const std::string &name) {
                return Buffer::bounds_query(parse_type(type, "make_bounds_query: type"),
                                            int_list(sizes, "make_bounds_query: sizes"), name);
            },
            py::arg("type"), py::arg("sizes"), py::arg("name") = "",
            "A buffer with a shape but no host memory, for bounds queries.")
        .def_static(
            "make_scalar",
            [](py::handle type, const std::string &name) {
                return Buffer::scalar(parse_type(type, "make_scalar: type"), name);
            },
            py::arg("type"), py::arg("name") = "", "A zero-dimensional buffer holding one (zero) element.")
        .def_static(
            "make_interleaved",
            [](py::handle type, int width, int height, int channels, const std::string &name) {
                return Buffer::interleaved(parse_type(type, "make_interleaved: type"), width, height, channels, name);
            },
            py::arg("type"), py::arg("width"), py::arg("height"), py::arg("channels"), py::arg("name") = "",
            "A width x height x channels buffer whose channels are adjacent in memory.")
        .def_static(
            "make_with_shape_of",
            [](py::handle src, const std::string &name) { return Buffer::with_shape_of(as_buffer(src), name); },
            py::arg("src"), py::arg("name") = "",
            "A new zero-filled dense buffer with src's type, mins and extents, laid out in the same memory order.");

    // Identity and shape.
    cls.def("name", &Buffer::name)
        .def("set_name", &Buffer::set_name, py::arg("name"))
        .def("defined", &Buffer::defined)
        .def("same_as", &Buffer::same_as, py::arg("other"),
             "Whether both Buffers come from the same construction (views share it; copy() does not).")
        .def("type", [](const Buffer &b) { return TypeObject{b.type()}; })
        .def("dimensions", &Buffer::dimensions)
        .def(
            "dim",
            [](py::object self, int dimension) {
                py::cast<const Buffer &>(self).check_dim(dimension);
                return DimensionRef{std::move(self), dimension};
            },
            py::arg("dimension"))
        .def("width", [](const Buffer &b) { return b.rt().width(); })
        .def("height", [](const Buffer &b) { return b.rt().height(); })
        .def("channels", [](const Buffer &b) { return b.rt().channels(); })
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
        .def("number_of_elements", [](const Buffer &b) { return b.raw().number_of_elements(); })
        .def("size_in_bytes", [](const Buffer &b) { return b.rt().size_in_bytes(); })
        .def(
            "contains", [](const Buffer &b, const std::vector<int> &coords) { return b.contains(coords); },
            py::arg("coords"), "Whether the coordinates (of the first len(coords) dimensions) lie inside the buffer.")
        .def(
            "set_min", [](Buffer &b, const std::vector<int> &mins) { b.set_min(mins); }, py::arg("mins"),
            "Sets the mins of the first len(mins) dimensions (no memory moves).");

    // In-place shape changes and the views that make them on a copy.
    cls.def(
           "crop", [](Buffer &b, int d, int min, int extent) { b.crop(d, min, extent); }, py::arg("dimension"),
           py::arg("min"), py::arg("extent"))
        .def(
            "crop", [](Buffer &b, const std::vector<std::pair<int, int>> &rect) { b.crop(rect); }, py::arg("rect"))
        .def(
            "cropped",
            [](const Buffer &b, int d, int min, int extent) {
                Buffer v = b.view();
                v.crop(d, min, extent);
                return v;
            },
            py::arg("dimension"), py::arg("min"), py::arg("extent"))
        .def(
            "cropped",
            [](const Buffer &b, const std::vector<std::pair<int, int>> &rect) {
                Buffer v = b.view();
                v.crop(rect);
                return v;
            },
            py::arg("rect"))
        .def(
            "slice", [](Buffer &b, int d, int pos) { b.slice(d, pos); }, py::arg("dimension"), py::arg("pos"))
        .def(
            "slice", [](Buffer &b, int d) { b.slice(d); }, py::arg("dimension"))
        .def(
            "sliced",
            [](const Buffer &b, int d, int pos) {
                Buffer v = b.view();
                v.slice(d, pos);
                return v;
            },
            py::arg("dimension"), py::arg("pos"))
        .def(
            "sliced",
            [](const Buffer &b, int d) {
                Buffer v = b.view();
                v.slice(d);
                return v;
            },
            py::arg("dimension"))
        .def(
            "embed", [](Buffer &b, int d, int pos) { b.embed(d, pos); }, py::arg("dimension"), py::arg("pos"))
        .def(
            "embed", [](Buffer &b, int d) { b.embed(d, 0); }, py::arg("dimension"))
        .def(
            "embedded",
            [](const Buffer &b, int d, int pos) {
                Buffer v = b.view();
                v.embed(d, pos);
                return v;
            },
            py::arg("dimension"), py::arg("pos"))
        .def(
            "embedded",
            [](const Buffer &b, int d) {
                Buffer v = b.view();
                v.embed(d, 0);
                return v;
            },
            py::arg("dimension"))
        .def("add_dimension", &Buffer::add_dimension)
        .def(
            "translate", [](Buffer &b, int d, int dx) { b.translate(d, dx); }, py::arg("dimension"), py::arg("dx"))
        .def(
            "translate", [](Buffer &b, const std::vector<int> &delta) { b.translate(delta); }, py::arg("delta"))
        .def(
            "translated",
            [](const Buffer &b, int d, int dx) {
                Buffer v = b.view();
                v.translate(d, dx);
                return v;
            },
            py::arg("dimension"), py::arg("dx"))
        .def(
            "translated",
            [](const Buffer &b, const std::vector<int> &delta) {
                Buffer v = b.view();
                v.translate(delta);
                return v;
            },
            py::arg("delta"))
        .def(
            "transpose", [](Buffer &b, int d1, int d2) { b.transpose(d1, d2); }, py::arg("d1"), py::arg("d2"))
        .def(
            "transpose", [](Buffer &b, const std::vector<int> &order) { b.transpose(order); }, py::arg("order"),
            "General permutation: old dimension i becomes dimension order[i].")
        .def(
            "transposed",
            [](const Buffer &b, int d1, int d2) {
                Buffer v = b.view();
                v.transpose(d1, d2);
                return v;
            },
            py::arg("d1"), py::arg("d2"))
        .def(
            "transposed",
            [](const Buffer &b, const std::vector<int> &order) {
                Buffer v = b.view();
                v.transpose(order);
                return v;
            },
            py::arg("order"))
        .def(
            "reverse_axes",
            [](const Buffer &b) {
                Buffer v = b.view();
                v.reverse_axes_in_place();
                return v;
            },
            "A view with the dimensions in reverse order.");

    // Memory.
    cls.def("allocate", &Buffer::allocate, "Allocates (zero-filled) host memory for the current shape.")
        .def("deallocate", &Buffer::deallocate, "Drops this buffer's reference to memory it allocated.")
        .def("copy", &Buffer::copy, "A dense copy of the elements, in the same memory order.")
        .def(
            "copy_from", [](Buffer &b, py::handle src) { b.copy_from(as_buffer(src)); }, py::arg("src"),
            "Copies the elements of src at the coordinates both buffers contain.")
        .def(
            "fill",
            [](Buffer &b, py::handle value) {
                require_value_type(b.type());
                uint8_t *host = b.host_for_write("fill");
                halide_scalar_value_t v;
                to_scalar(value.ptr(), b.type(), "value", &v);
                const size_t bytes = (size_t)b.type().bytes();
                visit_elements(host, b.raw(), [&](uint8_t *p) { std::memcpy(p, &v, bytes); });
                b.raw().set_host_dirty(true);
            },
            py::arg("value"))
        .def(
            "all_equal",
            [](const Buffer &b, py::handle value) {
                require_value_type(b.type());
                uint8_t *host = b.host_for_read("all_equal");
                halide_scalar_value_t v;
                to_scalar(value.ptr(), b.type(), "value", &v);
                bool equal = true;
                visit_elements(host, b.raw(), [&](uint8_t *p) { equal = equal && element_equals(p, v, b.type()); });
                return equal;
            },
            py::arg("value"))
        .def(
            "for_each_element", [](const Buffer &b, const py::function &f) { for_each_coordinate(b.raw(), f); },
            py::arg("f"), "Calls f([x, y, ...]) for every coordinate, dimension 0 varying fastest.")
        .def("__getitem__",
             [](Buffer &b, py::handle index) {
                 std::vector<int> pos = coordinates(index);
                 uint8_t *p = b.address_of(pos, false);
                 require_value_type(b.type());
                 return from_scalar(p, b.type());
             })
        .def("__setitem__", [](Buffer &b, py::handle index, py::handle value) {
            std::vector<int> pos = coordinates(index);
            uint8_t *p = b.address_of(pos, true);
            require_value_type(b.type());
            halide_scalar_value_t v;
            to_scalar(value.ptr(), b.type(), "value", &v);
            std::memcpy(p, &v, (size_t)b.type().bytes());
            b.raw().set_host_dirty(true);
            return from_scalar(p, b.type()); // the value stored, as upstream returns it
        });

    // NumPy.
    cls.def(
           "numpy_view", [](const Buffer &b, bool reverse_axes) { return numpy_view(b, reverse_axes); },
           py::arg("reverse_axes") = true,
           "A NumPy array over the buffer's memory (no copy); with reverse_axes NumPy's last axis is dimension 0.")
        .def(
            "numpy", [](const Buffer &b) { return numpy_view(b, b.reverse_axes()); },
            "A NumPy view in the axis order the buffer was made with (NumPy order unless reverse_axes=False).");

    // DLPack (no copy unless asked) and Jupyter.
    cls.def_static(
           "from_dlpack",
           [](py::handle producer, const std::string &name, bool reverse_axes) {
               return Buffer::from_dlpack(producer, name, reverse_axes);
           },
           py::arg("tensor"), py::arg("name") = "", py::arg("reverse_axes") = true,
           "A Buffer over the memory of a DLPack producer (an object with __dlpack__, such as a NumPy array or "
           "a torch tensor, or a DLPack capsule), without copying; with reverse_axes the last axis is dimension 0.")
        .def(
            "__dlpack__",
            [](const Buffer &b, py::handle stream, py::handle max_version, py::handle dl_device, py::handle copy) {
                bool versioned = false;
                int copy_mode = -1;
                if (!dlpack::parse_dlpack_request(stream.ptr(), max_version.ptr(), dl_device.ptr(), copy.ptr(),
                                                  "halide.runtime.Buffer.__dlpack__", &versioned, &copy_mode)) {
                    throw py::error_already_set();
                }
                b.require_defined();
                const Buffer source = copy_mode == 1 ? b.copy() : Buffer(b);
                if (source.raw().device_dirty()) {
                    throw py::value_error("__dlpack__: the buffer is device-dirty; call copy_to_host() first");
                }
                struct Owner : dlpack::ExportOwner {
                    std::unique_ptr<Buffer::Keepalive> keep;
                };
                auto *owner = new Owner;
                owner->keep.reset(source.new_keepalive());
                PyObject *capsule =
                    dlpack::export_capsule(source.raw(), /*reverse_axes=*/true, versioned, source.readonly(),
                                           copy_mode == 1, owner, "halide.runtime.Buffer.__dlpack__");
                if (!capsule) {
                    throw py::error_already_set();
                }
                return py::reinterpret_steal<py::object>(capsule);
            },
            py::kw_only(), py::arg("stream") = py::none(), py::arg("max_version") = py::none(),
            py::arg("dl_device") = py::none(), py::arg("copy") = py::none(),
            "A DLPack capsule over the buffer's memory (dimension 0 last, as NumPy sees it).")
        .def("__dlpack_device__", [](const Buffer &) { return py::make_tuple((int)dlpack::kDLCPU, 0); })
        .def(
            "_repr_png_", [](py::handle self) { return py::module_::import("halide._png").attr("repr_png")(self); },
            "PNG bytes of a 2-D or 3-D uint8/uint16/float buffer, for Jupyter (None for other buffers).");

    // Dirty bits and device memory.
    cls.def("host_dirty", [](const Buffer &b) { return b.raw().host_dirty(); })
        .def("device_dirty", [](const Buffer &b) { return b.raw().device_dirty(); })
        .def(
            "set_host_dirty",
            [](Buffer &b, bool dirty) {
                if (dirty && b.raw().device_dirty()) {
                    throw py::value_error("Cannot set host dirty when device is already dirty; call copy_to_host() "
                                          "first");
                }
                b.raw().set_host_dirty(dirty);
            },
            py::arg("dirty") = true)
        .def(
            "set_device_dirty",
            [](Buffer &b, bool dirty) {
                if (dirty && b.raw().host_dirty()) {
                    throw py::value_error("Cannot set device dirty when host is already dirty; call "
                                          "set_host_dirty(False) first");
                }
                b.raw().set_device_dirty(dirty);
            },
            py::arg("dirty") = true)
        .def("has_device_allocation", [](const Buffer &b) { return b.raw().device != 0; })
        .def("copy_to_host",
             [](Buffer &b) {
                 return call_runtime("copy_to_host", [&] { return halide_copy_to_host(nullptr, &b.raw()); });
             })
        .def("device_sync",
             [](Buffer &b) {
                 return call_runtime("device_sync", [&] { return halide_device_sync(nullptr, &b.raw()); });
             })
        .def("device_free",
             [](Buffer &b) {
                 int r = call_runtime("device_free", [&] { return halide_device_free(nullptr, &b.raw()); });
                 b.rt().device_deallocate();
                 return r;
             })
        .def("device_detach_native",
             [](Buffer &b) {
                 int r = 0;
                 if (b.raw().device_interface) {
                     r = call_runtime("device_detach_native",
                                      [&] { return halide_device_detach_native(nullptr, &b.raw()); });
                 }
                 b.rt().device_deallocate();
                 return r;
             })
        .def("device_deallocate", [](Buffer &b) { b.rt().device_deallocate(); })
        .def("copy_to_device", [](Buffer &b) {
            return call_runtime("copy_to_device",
                                [&] { return halide_copy_to_device(nullptr, &b.raw(), b.raw().device_interface); });
        });

    // Capsules and the rest.
    cls.def("_get_halide_buffer_t_capsule",
            [](py::object self) {
                Buffer &b = py::cast<Buffer &>(self);
                b.require_defined();
                return self_capsule(self, &b.raw(), HALIDE_BUFFER_CAPSULE_NAME);
            })
        .def("_get_halide_runtime_buffer_capsule",
             [](py::object self) {
                 Buffer &b = py::cast<Buffer &>(self);
                 b.require_defined();
                 return self_capsule(self, &b.rt(), HALIDE_RUNTIME_BUFFER_CAPSULE_NAME);
             })
        .def("_host_address", [](const Buffer &b) { return (uintptr_t)b.raw().host; })
        .def("__repr__", [](const Buffer &b) {
            if (!b.defined()) {
                return std::string("<undefined halide.runtime.Buffer>");
            }
            std::string s = "<halide.runtime.Buffer of type " + type_string(b.type()) + " shape:[";
            for (int d = 0; d < b.dimensions(); d++) {
                const halide_dimension_t &dim = b.raw().dim[d];
                s += (d ? ",[" : "[") + std::to_string(dim.min) + "," + std::to_string(dim.extent) + "," +
                     std::to_string(dim.stride) + "]";
            }
            return s + "]>";
        });

    // pybind11's buffer export cannot keep the memory alive on its own;
    // ours holds a reference to it (see Buffer::Keepalive) for as long as
    // the export lives, whatever happens to the Buffer meanwhile.
    auto *type_object = reinterpret_cast<PyTypeObject *>(cls.ptr());
    type_object->tp_as_buffer->bf_getbuffer = buffer_getbuffer;
    type_object->tp_as_buffer->bf_releasebuffer = release_export;

    m.attr("RUNTIME_BUFFER_CAPSULE_NAME") = HALIDE_RUNTIME_BUFFER_CAPSULE_NAME;
}

} // namespace halide_python
