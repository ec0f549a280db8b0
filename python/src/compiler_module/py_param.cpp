// hl.Param (Param<void>: typed at run time), hl.ImageParam,
// hl.OutputImageParam and hl.Dimension: a pipeline's inputs, given values
// before it runs, and usable in definitions as Exprs and calls.
#include <sstream>
#include <type_traits>

#include "py_compiler.h"
#include "py_number.h"

namespace halide_py {

using Halide::Expr;
using Halide::ImageParam;
using Halide::OutputImageParam;
using Halide::Type;
using Param = Halide::Param<>;

namespace {

// As upstream's bindings do, a Python float given to a float32 Param is
// rounded to float32 (0.1 is accepted; out of range becomes inf); ints stay
// checked for exactness.
template <typename T> T rounded_for(const Param &p, T v) {
    if constexpr (std::is_same_v<T, double>) {
        if (p.type() == Halide::Float(32)) {
            return (double)(float)v;
        }
    }
    return v;
}

void set_value(Param &p, const py::object &value) {
    with_number(value, "Param.set()", [&](auto v) { p.set(rounded_for(p, v)); });
}

Param make_param(const Type &t, const std::string &name, const py::object *value) {
    Param p(t, name);
    if (value) {
        set_value(p, *value);
    }
    return p;
}

// The owner of a NumPy-backed hl.Buffer an ImageParam reads: the Python
// object, released with the GIL held (whatever thread drops the binding).
std::shared_ptr<void> python_owner(const py::object &obj) {
    auto *held = new py::object(obj);
    return std::shared_ptr<void>(held, [](void *p) {
        if (!Py_IsInitialized()) {
            return; // at exit: leak rather than touch a finalized interpreter
        }
        py::gil_scoped_acquire gil;
        delete static_cast<py::object *>(p);
    });
}

std::vector<Expr> coordinates(const py::object &index) {
    std::vector<Expr> args;
    if (py::isinstance<py::tuple>(index) || py::isinstance<py::list>(index)) {
        for (const auto &item : index) {
            args.push_back(to_expr(item, "ImageParam index"));
        }
    } else {
        args.push_back(to_expr(index, "ImageParam index"));
    }
    return args;
}

} // namespace

void define_param(py::module_ &m) {
    auto param = bound_class<Param>(m, "Param");
    param.def(py::init([](const Type &t) { return make_param(t, "", nullptr); }), py::arg("type"))
        .def(py::init([](const Type &t, const std::string &name) { return make_param(t, name, nullptr); }),
             py::arg("type"), py::arg("name"))
        .def(py::init([](const Type &t, const std::string &name, const py::object &value) {
                 return make_param(t, name, &value);
             }),
             py::arg("type"), py::arg("name"), py::arg("value"))
        .def(py::init([](const Type &t, const py::object &value) { return make_param(t, "", &value); }),
             py::arg("type"), py::arg("value"))
        // With a range, as C++'s Param(name, value, min, max); None: no bound.
        .def(py::init([](const Type &t, const std::string &name, const py::object &value, const py::object &min,
                         const py::object &max) {
                 Param p = make_param(t, name, &value);
                 p.set_range(min.is_none() ? Expr() : to_expr(min, "min"),
                             max.is_none() ? Expr() : to_expr(max, "max"));
                 return p;
             }),
             py::arg("type"), py::arg("name"), py::arg("value"), py::arg("min"), py::arg("max"))
        .def("name", &Param::name)
        .def("type", &Param::type)
        .def("set", &set_value, py::arg("value"))
        .def(
            "set_estimate",
            [](Param &p, const py::object &value) {
                with_number(value, "Param.set_estimate()", [&](auto v) { p.set_estimate(rounded_for(p, v)); });
            },
            py::arg("value"))
        .def(
            "set_range",
            [](Param &p, const py::object &min, const py::object &max) {
                p.set_range(min.is_none() ? Expr() : to_expr(min, "min"), max.is_none() ? Expr() : to_expr(max, "max"));
            },
            py::arg("min"), py::arg("max"))
        .def(
            "set_min_value",
            [](Param &p, const py::object &min) { p.set_min_value(min.is_none() ? Expr() : to_expr(min, "min")); },
            py::arg("min"))
        .def(
            "set_max_value",
            [](Param &p, const py::object &max) { p.set_max_value(max.is_none() ? Expr() : to_expr(max, "max")); },
            py::arg("max"))
        .def("min_value", &Param::min_value)
        .def("max_value", &Param::max_value)
        .def("logical_not", [](const Param &p) { return !Expr(p); })
        .def("__repr__",
             [](const Param &p) { return "<halide.Param '" + p.name() + "' type " + type_name(p.type()) + ">"; });
    add_expr_operators(param);

    // The setters take an Expr or a Python int; hl.Expr() (or None) removes
    // the requirement, as set_stride(hl.Expr()) does upstream.
    using Dimension = Halide::Internal::Dimension;
    auto optional = [](const py::object &v, const char *what) {
        if (v.is_none()) {
            return Expr();
        }
        return py::isinstance<Expr>(v) ? v.cast<Expr>() : to_expr(v, what);
    };
    bound_class<Dimension>(m, "Dimension")
        .def("min", &Dimension::min)
        .def("extent", &Dimension::extent)
        .def("max", &Dimension::max)
        .def("stride", &Dimension::stride)
        .def(
            "set_min", [optional](Dimension &d, const py::object &min) { return d.set_min(optional(min, "min")); },
            py::arg("min"))
        .def(
            "set_extent",
            [optional](Dimension &d, const py::object &extent) { return d.set_extent(optional(extent, "extent")); },
            py::arg("extent"))
        .def(
            "set_stride",
            [optional](Dimension &d, const py::object &stride) { return d.set_stride(optional(stride, "stride")); },
            py::arg("stride"))
        .def(
            "set_bounds",
            [optional](Dimension &d, const py::object &min, const py::object &extent) {
                return d.set_bounds(optional(min, "min"), optional(extent, "extent"));
            },
            py::arg("min"), py::arg("extent"))
        .def(
            "set_estimate",
            [optional](Dimension &d, const py::object &min, const py::object &extent) {
                return d.set_estimate(optional(min, "min"), optional(extent, "extent"));
            },
            py::arg("min"), py::arg("extent"))
        .def("dim", &Dimension::dim, py::arg("dimension"));

    auto out = bound_class<OutputImageParam>(m, "OutputImageParam");
    out.def(py::init<>())
        .def("name", &OutputImageParam::name)
        .def("type", &OutputImageParam::type)
        .def("dimensions", &OutputImageParam::dimensions)
        .def("defined", &OutputImageParam::defined)
        .def("dim", &OutputImageParam::dim, py::arg("dimension"))
        .def("left", &OutputImageParam::left)
        .def("right", &OutputImageParam::right)
        .def("top", &OutputImageParam::top)
        .def("bottom", &OutputImageParam::bottom)
        .def("width", &OutputImageParam::width)
        .def("height", &OutputImageParam::height)
        .def("channels", &OutputImageParam::channels)
        .def(
            "set_estimates",
            [](OutputImageParam &p, const py::sequence &estimates) -> OutputImageParam & {
                return p.set_estimates(estimates_region(estimates, "set_estimates()"));
            },
            py::arg("estimates"), py::return_value_policy::reference_internal)
        .def("__repr__", [](const OutputImageParam &p) {
            if (!p.defined()) {
                return std::string("<halide.OutputImageParam OutputImageParam()>"); // as upstream's
            }
            return "<halide.OutputImageParam '" + p.name() + "', dims: " + std::to_string(p.dimensions()) +
                   ", type: " + type_name(p.type()) + ">";
        });

    bound_class<ImageParam, OutputImageParam>(m, "ImageParam")
        .def(py::init<>())
        .def(py::init<Type, int>(), py::arg("type"), py::arg("dimensions"))
        .def(py::init<Type, int, std::string>(), py::arg("type"), py::arg("dimensions"), py::arg("name"))
        .def(
            "set",
            [](ImageParam &p, const py::object &buffer) {
                // An hl.Buffer, or anything hl.Buffer() takes (a NumPy array).
                using Buf = Halide::Buffer<>;
                py::object obj = py::isinstance<Buf>(buffer) ? buffer : py::type::of<Buf>()(buffer);
                Halide::Internal::bind_image_param(p, obj.cast<Buf>(), python_owner(obj));
            },
            py::arg("buffer"))
        .def("get", &ImageParam::get)
        .def("reset", &ImageParam::reset)
        .def("in_", py::overload_cast<const Halide::Func &>(&ImageParam::in), py::arg("f"))
        .def("in_", py::overload_cast<const std::vector<Halide::Func> &>(&ImageParam::in), py::arg("fs"))
        .def("in_", py::overload_cast<>(&ImageParam::in))
        // Loads from the buffer traced as a Func's (upstream's Python has no add_trace_tag; C++'s does).
        .def("trace_loads", &ImageParam::trace_loads)
        .def("add_trace_tag", &ImageParam::add_trace_tag, py::arg("trace_tag"),
             py::return_value_policy::reference_internal)
        .def(
            "__getitem__", [](const ImageParam &p, const py::object &index) { return p(coordinates(index)); },
            py::arg("index"))
        .def("__repr__", [](const ImageParam &p) {
            if (!p.defined()) {
                return std::string("<halide.ImageParam ImageParam()>"); // as upstream's
            }
            return "<halide.ImageParam '" + p.name() + "', dims: " + std::to_string(p.dimensions()) +
                   ", type: " + type_name(p.type()) + ">";
        });
}

} // namespace halide_py
