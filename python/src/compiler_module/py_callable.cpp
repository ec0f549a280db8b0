// hl.Callable: c(inputs..., outputs...) with hl.Buffers, NumPy arrays (any
// buffer-protocol object) and Python numbers, positionally or by argument
// name. The call path stays in C++ with no allocation for up to
// kMaxFastArgs arguments, and releases the GIL while the pipeline runs.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "halide_python_marshal.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Argument;
using Halide::Callable;

namespace {

constexpr size_t kMaxFastArgs = 16;

[[noreturn]] void fail(const Callable &c, const std::string &msg) {
    throw Halide::CompileError(Halide::Internal::user_error_text("Callable '" + c.name() + "': " + msg));
}

std::string py_type_name(py::handle o) {
    return py::str(py::type::handle_of(o).attr("__name__"));
}

// A Python number as argument `a`'s type, exactly (as Param.set).
halide_scalar_value_t scalar_value(const Callable &c, const Argument &a, py::handle o) {
    halide_scalar_value_t v{};
    const Halide::Type &t = a.type;
    PyObject *p = o.ptr();
    auto bad = [&](const std::string &why) {
        fail(c, "argument '" + a.name + "' is a scalar of type " + type_name(t) + "; " + why);
    };
    if (t.is_float()) {
        if (!PyFloat_Check(p) && !PyLong_Check(p) && !PyIndex_Check(p) &&
            !(Py_TYPE(p)->tp_as_number && Py_TYPE(p)->tp_as_number->nb_float)) {
            bad("got " + py_type_name(o));
        }
        double d = PyFloat_AsDouble(p);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            bad("got " + py_type_name(o));
        }
        if (t.bits() == 32) {
            v.u.f32 = (float)d;
        } else if (t.bits() == 64) {
            v.u.f64 = d;
        } else {
            bad("this type is not supported in a call");
        }
        return v;
    }
    if (PyFloat_Check(p) || !PyIndex_Check(p)) {
        bad("got " + py_type_name(o) + (PyFloat_Check(p) ? " " + std::string(py::str(o)) : std::string()));
    }
    int overflow = 0;
    long long i = PyLong_Check(p) ? PyLong_AsLongLongAndOverflow(p, &overflow) : 0;
    if (!PyLong_Check(p)) { // a NumPy integer or other __index__ object
        py::int_ n = py::reinterpret_steal<py::int_>(PyNumber_Index(p));
        if (!n) {
            PyErr_Clear(); // an array, say: not a scalar
            bad("got " + py_type_name(o));
        }
        i = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
    }
    if (i == -1 && PyErr_Occurred()) {
        throw py::error_already_set();
    }
    bool fits = !overflow && t.can_represent((int64_t)i);
    if (overflow > 0 && t.is_uint() && t.bits() == 64) {
        unsigned long long u = PyLong_AsUnsignedLongLong(p);
        if (!PyErr_Occurred()) {
            v.u.u64 = u;
            return v;
        }
        PyErr_Clear();
    }
    if (t.is_bool()) {
        fits = !overflow && (i == 0 || i == 1);
    }
    if (!fits) {
        bad("the value " + std::string(py::str(o)) + " does not fit it");
    }
    switch (t.is_bool() ? 1 : t.bits()) {
    case 1: v.u.b = i != 0; break;
    case 8: v.u.u8 = (uint8_t)i; break;
    case 16: v.u.u16 = (uint16_t)i; break;
    case 32: v.u.u32 = (uint32_t)i; break;
    default: v.u.i64 = i; break;
    }
    return v;
}

// Per-call storage: scalars, and views of buffer-protocol objects (made
// only for the arguments that need one: a view is large to initialize).
struct CallFrame {
    using View = halide_python::MarshaledBuffer;
    explicit CallFrame(size_t n) : n(n) {
        if (n > kMaxFastArgs) {
            heap_scalars.reset(new halide_scalar_value_t[n]);
            heap_argv.reset(new const void *[n]());
        }
    }
    ~CallFrame() {
        for (size_t i = 0; i < views_made; i++) {
            views[i].~View();
        }
    }
    CallFrame(const CallFrame &) = delete;
    CallFrame &operator=(const CallFrame &) = delete;
    halide_scalar_value_t *scalars() { return heap_scalars ? heap_scalars.get() : stack_scalars.data(); }
    const void **argv() { return heap_argv ? heap_argv.get() : stack_argv.data(); }
    View &new_view() {
        if (views_made == kMaxFastArgs) {
            heap_views.emplace_back(new View());
            return *heap_views.back();
        }
        return *new (&views[views_made++]) View();
    }

    size_t n;
    std::array<halide_scalar_value_t, kMaxFastArgs> stack_scalars;
    std::array<const void *, kMaxFastArgs> stack_argv{};
    std::unique_ptr<halide_scalar_value_t[]> heap_scalars;
    std::unique_ptr<const void *[]> heap_argv;
    union {
        View views[kMaxFastArgs];
    };
    size_t views_made = 0;
    std::vector<std::unique_ptr<View>> heap_views;
};

// The C++ object inside a pybind11 instance of a class without subclasses
// in C++ (Buffer, Callable): pybind11's own cast, minus its type lookups.
template <typename T> T *instance_value(PyObject *o) {
    auto *inst = reinterpret_cast<py::detail::instance *>(o);
    return static_cast<T *>(inst->simple_layout ? inst->simple_value_holder[0] : inst->nonsimple.values_and_holders[0]);
}

void set_argument(const Callable &c, size_t i, py::handle value, CallFrame &frame, PyTypeObject *buffer_type) {
    const Argument &a = c.arguments()[i];
    if (a.is_scalar()) {
        frame.scalars()[i] = scalar_value(c, a, value);
        frame.argv()[i] = &frame.scalars()[i];
        return;
    }
    PyObject *o = value.ptr();
    if (Py_TYPE(o) == buffer_type || PyObject_TypeCheck(o, buffer_type)) {
        const Halide::Buffer<> *bp = instance_value<Halide::Buffer<>>(o);
        if (!bp || !bp->defined()) {
            fail(c, "argument '" + a.name + "' is an undefined halide.Buffer");
        }
        frame.argv()[i] = bp->raw_buffer();
        return;
    }
    if (!PyObject_CheckBuffer(o)) {
        fail(c,
             "argument '" + a.name + "' is a buffer; expected a halide.Buffer or an array, got " + py_type_name(value));
    }
    halide_python::MarshaledBuffer &view = frame.new_view();
    if (!view.acquire(o, a.name.c_str(), a.is_output(), true)) {
        throw py::error_already_set();
    }
    frame.argv()[i] = &view.buffer;
}

PyTypeObject *buffer_type = nullptr; // hl.Buffer, set by define_callable

// `args` is a tuple, `kwargs` a dict or null (tp_call's arguments).
void call(const Callable &c, PyObject *args, PyObject *kwargs) {
    const std::vector<Argument> &arguments = c.arguments();
    size_t n = arguments.size();
    size_t positional = (size_t)PyTuple_GET_SIZE(args);
    if (positional > n) {
        fail(c, "Expected at most " + std::to_string(n) + " positional arguments, but saw " +
                    std::to_string(positional) + ".");
    }
    CallFrame frame(n);
    for (size_t i = 0; i < positional; i++) {
        set_argument(c, i, PyTuple_GET_ITEM(args, (Py_ssize_t)i), frame, buffer_type);
    }
    size_t given = positional;
    if (kwargs && PyDict_GET_SIZE(kwargs) > 0) {
        for (auto item : py::reinterpret_borrow<py::dict>(kwargs)) {
            std::string name = py::str(item.first);
            size_t i = 0;
            while (i < n && arguments[i].name != name) {
                i++;
            }
            if (i == n) {
                fail(c, "Unknown argument '" + name + "' specified via keyword.");
            }
            if (i < positional || frame.argv()[i]) {
                fail(c, "Argument " + name + " specified multiple times.");
            }
            set_argument(c, i, item.second, frame, buffer_type);
            given++;
        }
    }
    if (given != n) {
        // Upstream's words: a count when only positional arguments came.
        if (given == positional) {
            fail(c, "Expected exactly " + std::to_string(n) + " positional arguments, but saw " +
                        std::to_string(positional) + ".");
        }
        size_t i = 0;
        while (frame.argv()[i]) {
            i++;
        }
        fail(c, "Argument " + arguments[i].name + " was not specified by either positional or keyword argument.");
    }
    // call_argv_fast's argv[0]: a pointer to the (null) JITUserContext *.
    Halide::JITUserContext *context = nullptr;
    std::array<const void *, kMaxFastArgs + 1> stack_argv;
    std::vector<const void *> heap_argv;
    const void **argv = stack_argv.data();
    if (n + 1 > stack_argv.size()) {
        heap_argv.resize(n + 1);
        argv = heap_argv.data();
    }
    argv[0] = &context;
    std::copy(frame.argv(), frame.argv() + n, argv + 1);
    PipelineRun run;
    c.call_argv_fast(n + 1, argv);
}

// The type's tp_call: no pybind11 dispatch on the way in.
PyObject *call_slot(PyObject *self, PyObject *args, PyObject *kwargs) {
    try {
        const Callable *c = instance_value<Callable>(self);
        if (!c) {
            throw py::type_error("halide.Callable: the object was not initialized");
        }
        call(*c, args, kwargs);
        Py_RETURN_NONE;
    } catch (py::error_already_set &e) {
        e.restore();
    } catch (...) {
        py::detail::try_translate_exceptions();
    }
    return nullptr;
}

} // namespace

void define_callable(py::module_ &m) {
    buffer_type = (PyTypeObject *)py::type::of<Halide::Buffer<>>().ptr();
    auto cls = bound_class<Callable>(m, "Callable");
    cls.def("__call__", [](const Callable &c, const py::args &args,
                           const py::kwargs &kwargs) { call(c, args.ptr(), kwargs.ptr()); })
        .def("defined", &Callable::defined)
        .def("arguments", &Callable::arguments)
        .def("__repr__", [](const Callable &c) {
            return c.defined() ? "<halide.Callable '" + c.name() + "'>" : std::string("<halide.Callable (undefined)>");
        });
    // Calls skip the __call__ above (kept for help()) and come here.
    auto *type = (PyTypeObject *)cls.ptr();
    type->tp_call = call_slot;
    PyType_Modified(type);
}

} // namespace halide_py
