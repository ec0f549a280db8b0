// See kernel.h. The call path is written against the CPython API where it
// matters for per-call overhead; everything else uses pybind11.
#include "kernel.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cctype>
#include <cstring>

#include "errors.h"
#include "halide_python_marshal.h"
#include "scalars.h"

namespace py = pybind11;

namespace halide_python {
namespace {

const char *kind_name(int kind) {
    switch (kind) {
    case halide_argument_kind_input_scalar: return "input_scalar";
    case halide_argument_kind_input_buffer: return "input_buffer";
    case halide_argument_kind_output_buffer: return "output_buffer";
    default: return "unknown";
    }
}

// Metadata names may hold '.' (tuple outputs "g.0"); keywords cannot.
std::string keyword_for(const std::string &name) {
    std::string out;
    for (char c : name) {
        out += (std::isalnum((unsigned char)c) || c == '_') ? c : '_';
    }
    if (out.empty() || std::isdigit((unsigned char)out[0])) {
        out = "_" + out;
    }
    return out;
}

// Looks up an attribute without raising when it is missing.
PyObject *optional_attr(PyObject *obj, const char *name) {
    PyObject *result = nullptr;
    py::object key = py::str(name);
    if (_PyObject_LookupAttr(obj, key.ptr(), &result) < 0) {
        throw py::error_already_set();
    }
    return result;
}

// Leaked on purpose: a static py::object would be released after the interpreter is gone.
py::handle numpy_module() {
    static py::handle np = py::module_::import("numpy").release();
    return np;
}

// Plain NumPy arrays, memoryviews and bytes never offer a capsule, so they
// skip the (comparatively slow) attribute lookup.
bool never_has_capsule(PyObject *obj) {
    static PyTypeObject *ndarray = reinterpret_cast<PyTypeObject *>(numpy_module().attr("ndarray").ptr());
    return Py_TYPE(obj) == ndarray || PyMemoryView_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj);
}

// Per-call scratch arrays of trivial types, on the stack for kernels of up
// to 16 arguments (no allocation on the call path), value-initialized.
template <typename T> class Scratch {
public:
    explicit Scratch(size_t n) {
        if (n > kInline) {
            heap_.reset(new T[n]());
            data_ = heap_.get();
        } else {
            std::fill(inline_, inline_ + n, T());
        }
    }
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;
    T &operator[](size_t i) { return data_[i]; }
    T *data() { return data_; }

private:
    static constexpr size_t kInline = 16;
    T inline_[kInline];
    std::unique_ptr<T[]> heap_;
    T *data_ = inline_;
};

// A buffer argument prepared for one call: either marshalled from the
// buffer protocol or borrowed from a halide_buffer_t capsule.
struct PreparedBuffer {
    MarshaledBuffer marshaled;
    py::object capsule;                   // keeps a borrowed buffer alive
    py::object allocated;                 // an output allocated for this call
    halide_buffer_t *source = nullptr;    // the capsule's buffer, for write-back
    halide_buffer_t header{};             // what the kernel sees
    std::vector<halide_dimension_t> dims; // header.dim when borrowed
};

void prepare_buffer(PyObject *obj, const ArgumentInfo &a, PreparedBuffer &p) {
    const std::string &what = a.what;
    if (obj == Py_None) {
        throw py::type_error(what + ": expected an array or buffer, got None");
    }
    PyObject *method = never_has_capsule(obj) ? nullptr : optional_attr(obj, HALIDE_BUFFER_CAPSULE_METHOD);
    if (method) {
        Py_DECREF(method);
        PyObject *capsule = nullptr;
        halide_buffer_t *source = nullptr;
        if (!buffer_from_capsule(obj, what.c_str(), &capsule, &source)) {
            throw py::error_already_set();
        }
        p.capsule = py::reinterpret_steal<py::object>(capsule);
        p.source = source;
        p.header = *source;
        p.dims.assign(source->dim, source->dim + source->dimensions);
        p.header.dim = p.dims.data();
    } else {
        if (!p.marshaled.acquire(obj, what.c_str(), a.is_output(), /*reverse_axes=*/true)) {
            throw py::error_already_set();
        }
        p.header = p.marshaled.buffer;
    }
    halide_buffer_t &b = p.header;
    if (b.dimensions != a.dimensions) {
        throw py::value_error(what + ": Expected " + std::to_string(a.dimensions) + " dimensions, got " +
                              std::to_string(b.dimensions));
    }
    if (!same_element_type(b.type, a.type)) {
        raise_argument_error(what + ": Expected elements of type " + type_name(a.type) + ", got " + type_name(b.type));
    }
    if (!b.host && b.device == 0) {
        throw py::value_error(what + ": the buffer has no host memory (use kernel.bounds() for bounds queries)");
    }
    // The kernel compares the whole type word; use the one it was built with.
    b.type = a.type;
    if (!a.is_output() && !p.source) {
        b.flags |= halide_buffer_flag_host_dirty;
    }
}

py::object allocate_output(const ArgumentInfo &a, py::handle shape_obj) {
    if (a.type.code == halide_type_handle || a.type.code == halide_type_bfloat) {
        throw py::type_error(a.what + ": cannot allocate an array of " + type_name(a.type) +
                             "; pass the output explicitly");
    }
    py::tuple shape = py::tuple(py::reinterpret_borrow<py::object>(shape_obj));
    if ((int)shape.size() != a.dimensions) {
        throw py::value_error(a.what + ": output_shape has " + std::to_string(shape.size()) +
                              " dimensions, the output needs " + std::to_string(a.dimensions));
    }
    for (auto extent : shape) {
        if (py::cast<long long>(extent) < 0) {
            throw py::value_error(a.what + ": output_shape " + std::string(py::str(shape)) + " has a negative extent");
        }
    }
    return numpy_module().attr("empty")(shape, py::arg("dtype") = type_name(a.type));
}

} // namespace

struct Kernel::Binding {
    explicit Binding(size_t n) : values(n) {}
    Scratch<PyObject *> values; // borrowed; nullptr = not given
    PyObject *output_shape = nullptr;
    PyObject *user_context = nullptr;
};

Kernel::Kernel(std::shared_ptr<Library> library, const std::string &name) : library_(std::move(library)), name_(name) {
    argv_ = reinterpret_cast<halide_argv_call_t>(library_->symbol(name + "_argv"));
    auto get_metadata = reinterpret_cast<halide_metadata_getter_t>(library_->symbol(name + "_metadata"));
    if (!argv_ || !get_metadata) {
        std::string found;
        for (const auto &n : library_->kernel_names()) {
            found += (found.empty() ? "" : ", ") + n;
        }
        throw py::value_error("kernel library '" + library_->path() + "' does not export " + name + "_argv and " +
                              name + "_metadata; kernels it does export: " + (found.empty() ? "none" : found));
    }
    metadata_ = get_metadata();
    if (!metadata_) {
        throw py::value_error(name + "_metadata() in '" + library_->path() + "' returned NULL");
    }
    if (metadata_->version != halide_filter_metadata_version) {
        throw py::value_error("kernel '" + name + "' in '" + library_->path() + "' has metadata version " +
                              std::to_string(metadata_->version) + ", but this runtime reads version " +
                              std::to_string(halide_filter_metadata_version));
    }
    for (int i = 0; i < metadata_->num_arguments; i++) {
        const halide_filter_argument_t &raw = metadata_->arguments[i];
        ArgumentInfo a;
        a.name = raw.name ? raw.name : "";
        a.python_name = keyword_for(a.name);
        a.what = "Invalid argument " + a.name;
        a.kind = raw.kind;
        a.dimensions = raw.dimensions;
        a.type = raw.type;
        a.raw = &raw;
        if (a.kind < 0 || a.kind > 2) {
            throw py::value_error("kernel '" + name + "': argument '" + a.name + "' has unknown kind " +
                                  std::to_string(a.kind));
        }
        if (a.name == "__user_context" && a.kind == halide_argument_kind_input_scalar) {
            user_context_index_ = i;
        } else {
            visible_.push_back(i);
        }
        arguments_.push_back(a);
    }
    // Raw names go in last, so one wins over another argument's alias.
    for (int v : visible_) {
        keyword_index_[py::str(arguments_[v].python_name)] = v;
    }
    for (int v : visible_) {
        keyword_index_[py::str(arguments_[v].name)] = v;
    }
}

std::string Kernel::listing() const {
    std::string out;
    for (int v : visible_) {
        const ArgumentInfo &a = arguments_[v];
        out += (out.empty() ? "" : ", ") + a.name;
        if (a.python_name != a.name) {
            out += " (or " + a.python_name + ")";
        }
    }
    return out;
}

py::object Kernel::shape_for(const ArgumentInfo &a, PyObject *output_shape) const {
    if (!PyDict_Check(output_shape)) {
        return py::reinterpret_borrow<py::object>(output_shape);
    }
    py::dict shapes = py::reinterpret_borrow<py::dict>(output_shape);
    for (const std::string &key : {a.name, a.python_name}) {
        if (shapes.contains(key)) {
            return shapes[py::str(key)];
        }
    }
    raise_argument_error("Missing argument '" + a.name + "' for kernel '" + name_ +
                         "': output_shape has no entry for it (its keys: " +
                         std::string(py::str(py::str(", ").attr("join")(py::list(shapes.attr("keys")())))) + ")");
}

int Kernel::index_of(PyObject *keyword) const {
    PyObject *found = PyDict_GetItemWithError(keyword_index_.ptr(), keyword);
    if (!found) {
        if (PyErr_Occurred()) {
            throw py::error_already_set();
        }
        return -1;
    }
    return (int)PyLong_AsLong(found);
}

void Kernel::bind(const py::args &args, const py::kwargs &kwargs, Binding &b, bool for_bounds) const {
    Py_ssize_t npos = PyTuple_GET_SIZE(args.ptr());
    if (npos > (Py_ssize_t)visible_.size()) {
        raise_argument_error("Too many positional arguments for kernel '" + name_ + "': it takes " +
                             std::to_string(visible_.size()) + " (" + listing() + ") but " + std::to_string(npos) +
                             " were given");
    }
    for (Py_ssize_t i = 0; i < npos; i++) {
        b.values[visible_[i]] = PyTuple_GET_ITEM(args.ptr(), i);
    }
    if (kwargs && PyDict_GET_SIZE(kwargs.ptr()) > 0) {
        PyObject *key, *value;
        Py_ssize_t pos = 0;
        while (PyDict_Next(kwargs.ptr(), &pos, &key, &value)) {
            int idx = index_of(key);
            if (idx < 0) {
                std::string k = py::str(key);
                if (k == "output_shape") {
                    b.output_shape = value;
                    continue;
                }
                if (k == "user_context" && user_context_index_ >= 0) {
                    b.user_context = value;
                    continue;
                }
                raise_argument_error("Unknown argument '" + k + "' for kernel '" + name_ +
                                     "'; its arguments are: " + listing());
            }
            if (b.values[idx]) {
                // Name both ways it was given: by position or by its other name.
                std::string first = "by position";
                PyObject *other_key, *other_value;
                Py_ssize_t other_pos = 0;
                while (PyDict_Next(kwargs.ptr(), &other_pos, &other_key, &other_value)) {
                    if (other_key != key && index_of(other_key) == idx) {
                        first = "as '" + std::string(py::str(other_key)) + "'";
                        break;
                    }
                }
                raise_argument_error("Argument '" + arguments_[idx].name + "' specified more than once for kernel '" +
                                     name_ + "': " + first + " and as '" + std::string(py::str(key)) + "'");
            }
            b.values[idx] = value;
        }
    }
    for (int v : visible_) {
        const ArgumentInfo &a = arguments_[v];
        if (b.values[v]) {
            continue;
        }
        if (a.is_output() && b.output_shape) {
            continue;
        }
        if (!a.is_buffer() && a.raw->scalar_def) {
            continue; // filled from the metadata default
        }
        if (for_bounds && a.is_buffer() && !a.is_output()) {
            continue; // a bounds query needs no input data
        }
        std::string missing = "Missing argument '" + a.name + "' for kernel '" + name_ + "'";
        if (a.is_output()) {
            raise_argument_error(missing +
                                 ": pass an array to write into, or output_shape=(...) to have one allocated");
        }
        raise_argument_error(missing);
    }
}

py::object Kernel::call(const py::args &args, const py::kwargs &kwargs) {
    const size_t n = arguments_.size();
    Binding b(n);
    bind(args, kwargs, b, /*for_bounds=*/false);

    Scratch<void *> argv(n);
    Scratch<halide_scalar_value_t> scalars(n);
    std::unique_ptr<PreparedBuffer[]> buffers(new PreparedBuffer[n]);
    size_t allocated = 0, outputs = 0;
    void *user_context = nullptr;

    for (size_t i = 0; i < n; i++) {
        const ArgumentInfo &a = arguments_[i];
        if ((int)i == user_context_index_) {
            if (b.user_context) {
                to_scalar(b.user_context, a.type, "user_context", &scalars[i]);
                user_context = scalars[i].u.handle;
            }
            scalars[i].u.handle = user_context;
            argv[i] = &scalars[i];
            continue;
        }
        PyObject *value = b.values[i];
        if (!a.is_buffer()) {
            if (value) {
                to_scalar(value, a.type, a.what, &scalars[i]);
            } else {
                scalars[i] = *a.raw->scalar_def;
            }
            if (a.raw->scalar_min || a.raw->scalar_max) {
                check_scalar_range(scalars[i], a.type, a.raw->scalar_min, a.raw->scalar_max, a.what);
            }
            argv[i] = &scalars[i];
            continue;
        }
        if (!value) {
            buffers[i].allocated = allocate_output(a, shape_for(a, b.output_shape));
            value = buffers[i].allocated.ptr();
            allocated++;
        }
        prepare_buffer(value, a, buffers[i]);
        argv[i] = &buffers[i].header;
        outputs += a.is_output() ? 1 : 0;
    }

    ErrorLog log;
    int result;
    {
        py::gil_scoped_release no_gil;
        ScopedErrorLog scope(&log);
        result = argv_(argv.data());
        // Outputs a device computed must come back to the host before Python reads them.
        for (size_t i = 0; result == 0 && i < n; i++) {
            if (arguments_[i].is_output() && (buffers[i].header.flags & halide_buffer_flag_device_dirty)) {
                int r = halide_copy_to_host(user_context, &buffers[i].header);
                if (r != 0) {
                    std::lock_guard<std::mutex> lock(log.mutex);
                    log.text = "copying output '" + arguments_[i].name + "' back to the host failed" +
                               (log.text.empty() ? "" : ": " + log.text);
                    result = r;
                }
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (buffers[i].source) {
            buffers[i].source->flags = buffers[i].header.flags;
        }
    }
    if (result != 0) {
        raise_halide_error(name_, result, log.text);
    }
    if (!allocated) {
        return py::none();
    }
    // Every output, in order, allocated or given.
    py::tuple t(outputs);
    for (size_t i = 0, j = 0; i < n; i++) {
        if (arguments_[i].is_output()) {
            t[j++] = buffers[i].allocated ? buffers[i].allocated : py::reinterpret_borrow<py::object>(b.values[i]);
        }
    }
    if (outputs == 1) {
        return t[0];
    }
    return std::move(t);
}

py::dict Kernel::bounds(const py::args &args, const py::kwargs &kwargs) {
    const size_t n = arguments_.size();
    Binding b(n);
    bind(args, kwargs, b, /*for_bounds=*/true);
    std::vector<void *> argv(n, nullptr);
    std::vector<halide_scalar_value_t> scalars(n);
    std::vector<halide_buffer_t> headers(n);
    std::vector<std::vector<halide_dimension_t>> dims(n);

    for (size_t i = 0; i < n; i++) {
        const ArgumentInfo &a = arguments_[i];
        if (!a.is_buffer()) {
            scalars[i].u.u64 = 0;
            if ((int)i != user_context_index_) {
                if (b.values[i]) {
                    to_scalar(b.values[i], a.type, a.what, &scalars[i]);
                } else {
                    scalars[i] = *a.raw->scalar_def;
                }
            }
            argv[i] = &scalars[i];
            continue;
        }
        // The kernel writes into dim[], so give it room for every dimension.
        dims[i].assign(std::max(a.dimensions, 1), halide_dimension_t());
        halide_buffer_t &h = headers[i];
        h = halide_buffer_t();
        h.type = a.type;
        h.dimensions = a.dimensions;
        h.dim = dims[i].data();
        if (a.is_output()) {
            py::object shape = b.values[i] ? py::reinterpret_borrow<py::object>(b.values[i]).attr("shape")
                                           : shape_for(a, b.output_shape);
            py::tuple s = py::tuple(shape);
            if ((int)s.size() != a.dimensions) {
                throw py::value_error(a.what + ": shape " + std::string(py::str(s)) + " has " +
                                      std::to_string(s.size()) + " dimensions, the output needs " +
                                      std::to_string(a.dimensions));
            }
            for (int d = 0; d < a.dimensions; d++) {
                h.dim[d].extent = py::cast<int32_t>(s[a.dimensions - 1 - d]);
            }
        }
        argv[i] = &h;
    }
    ErrorLog log;
    int result;
    {
        py::gil_scoped_release no_gil;
        ScopedErrorLog scope(&log);
        result = argv_(argv.data());
    }
    if (result != 0) {
        raise_halide_error(name_, result, log.text);
    }
    py::dict out;
    for (size_t i = 0; i < n; i++) {
        const ArgumentInfo &a = arguments_[i];
        if (!a.is_buffer()) {
            continue;
        }
        py::tuple region(a.dimensions);
        for (int d = 0; d < a.dimensions; d++) {
            const halide_dimension_t &dim = headers[i].dim[a.dimensions - 1 - d];
            region[d] = py::make_tuple(dim.min, dim.extent);
        }
        out[py::str(a.python_name)] = region;
    }
    return out;
}

py::list Kernel::argument_names() const {
    py::list names;
    for (int v : visible_) {
        names.append(arguments_[v].name);
    }
    return names;
}

py::list Kernel::keyword_names() const {
    py::list names;
    for (int v : visible_) {
        names.append(arguments_[v].python_name);
    }
    return names;
}

namespace {

py::object scalar_or_none(const halide_scalar_value_t *v, halide_type_t type) {
    return v ? from_scalar(v, type) : py::none();
}

} // namespace

py::list Kernel::argument_infos() const {
    py::object make = py::module_::import("halide.runtime._kernel_info").attr("Argument");
    py::list out;
    for (int v : visible_) {
        const ArgumentInfo &a = arguments_[v];
        bool scalar = !a.is_buffer() && a.type.code != halide_type_handle;
        out.append(make(a.python_name, a.name, kind_name(a.kind), type_name(a.type), a.dimensions,
                        scalar ? scalar_or_none(a.raw->scalar_def, a.type) : py::none(),
                        scalar ? scalar_or_none(a.raw->scalar_min, a.type) : py::none(),
                        scalar ? scalar_or_none(a.raw->scalar_max, a.type) : py::none(),
                        scalar ? scalar_or_none(a.raw->scalar_estimate, a.type) : py::none()));
    }
    return out;
}

void bind_kernel(py::module_ &m) {
    py::class_<Kernel, std::shared_ptr<Kernel>>(m, "Kernel", py::dynamic_attr(),
                                                "A Halide AOT kernel loaded from a shared library. Call it with "
                                                "arrays and scalars in the kernel's argument order or by keyword.")
        .def("__call__", &Kernel::call)
        // A non-data descriptor that returns itself: a kernel stored as a class
        // attribute behaves like a staticmethod, and pydoc documents it as a
        // routine (name, signature, docstring) rather than as an object.
        .def("__get__", [](py::object self, py::object, py::object) { return self; })
        .def("bounds", &Kernel::bounds,
             "Runs the kernel's bounds query: returns {buffer name: ((min, extent), ...)} in NumPy axis order, "
             "the region of each buffer a call with these scalars and output shapes would touch.")
        .def_property_readonly("name", &Kernel::name)
        .def_property_readonly("target", &Kernel::target)
        .def_property_readonly("library", &Kernel::library_path)
        .def_property_readonly("argument_names", &Kernel::argument_names,
                               "The arguments' names in the kernel's metadata (\"pair.0\"), in argv order.")
        .def_property_readonly("keyword_names", &Kernel::keyword_names,
                               "The arguments' Python keyword names (\"pair_0\"), in argv order.")
        .def_property_readonly("arguments", &Kernel::argument_infos,
                               "One entry per argument, in argv order: a dict with the keys name, kind, type and "
                               "dimensions, whose attributes also give the keyword name, default, min, max and "
                               "estimate.")
        .def_property_readonly("has_user_context", &Kernel::has_user_context)
        .def("__repr__", [](const Kernel &k) {
            return "<halide.runtime.Kernel " + k.name() + "(" +
                   std::string(py::str(py::str(", ").attr("join")(k.keyword_names()))) + ") target=" + k.target() + ">";
        });
    m.def(
        "_kernel_names", [](const std::string &path) { return Library::open(path)->kernel_names(); },
        "Names of the kernels a library exports (opens it).");
    m.def(
        "_load",
        [](const std::string &path, const std::string &name) {
            return std::make_shared<Kernel>(Library::open(path), name);
        },
        py::arg("path"), py::arg("name"));
}

} // namespace halide_python
