// hl.propagate_adjoints and hl.Derivative (Derivative.h): reverse-mode
// automatic differentiation. propagate_adjoints(output, adjoint, bounds)
// takes the bounds as a list of halide.Range or (min, extent) pairs, one per
// dimension; propagate_adjoints(output, adjoint_buffer) a float32 Buffer;
// propagate_adjoints(scalar_loss) nothing more. d[f], d[f, k], d[buffer],
// d[param], d[image_param] and d["name"] give the adjoint Funcs (undefined
// where there is none).
#include <string>

#include "py_compiler.h"

namespace halide_py {

using Halide::Derivative;
using Halide::Func;
using Halide::ImageParam;
using Halide::Range;
using Halide::Region;
using Buffer = Halide::Buffer<>;

namespace {

Region adjoint_bounds(const py::sequence &bounds) {
    Region region;
    for (size_t i = 0; i < py::len(bounds); i++) {
        py::object item = bounds[i];
        if (py::isinstance<Range>(item)) {
            region.push_back(item.cast<Range>());
            continue;
        }
        if ((py::isinstance<py::tuple>(item) || py::isinstance<py::list>(item)) && py::len(item) == 2) {
            auto pair = py::reinterpret_borrow<py::sequence>(item);
            region.push_back(Range{to_expr(pair[0], "bounds min"), to_expr(pair[1], "bounds extent")});
            continue;
        }
        throw py::type_error("propagate_adjoints: output_bounds[" + std::to_string(i) +
                             "] must be a halide.Range or a (min, extent) pair, got " +
                             std::string(py::str(py::type::handle_of(item).attr("__name__"))));
    }
    return region;
}

} // namespace

void define_derivative(py::module_ &m) {
    py::class_<Derivative>(m, "Derivative",
                           "The adjoint Funcs propagate_adjoints made: d[func], d[func, update_index], d[buffer], "
                           "d[param], d[image_param] or d['name'].")
        .def(
            "__getitem__", [](const Derivative &d, const Func &func) { return d(func); }, py::arg("func"))
        .def(
            "__getitem__", [](const Derivative &d, const Buffer &buffer) { return d(buffer.name()); },
            py::arg("buffer"))
        .def(
            "__getitem__", [](const Derivative &d, const Halide::Param<> &param) { return d(param); }, py::arg("param"))
        .def(
            "__getitem__", [](const Derivative &d, const ImageParam &param) { return d(param); }, py::arg("param"))
        .def("__getitem__", [](const Derivative &d,
                               const std::tuple<Func, int> &key) { return d(std::get<0>(key), std::get<1>(key)); })
        .def(
            "__getitem__", [](const Derivative &d, const std::string &name) { return d(name); }, py::arg("name"));

    m.def(
        "propagate_adjoints",
        [](const Func &output, const Func &adjoint, const py::sequence &output_bounds) {
            return Halide::propagate_adjoints(output, adjoint, adjoint_bounds(output_bounds));
        },
        py::arg("output"), py::arg("adjoint"), py::arg("output_bounds"));
    m.def(
        "propagate_adjoints",
        [](const Func &output, const Buffer &adjoint) {
            if (!adjoint.defined() || adjoint.type() != Halide::Float(32)) {
                throw py::type_error("propagate_adjoints: the adjoint Buffer must be a defined float32 Buffer");
            }
            return Halide::propagate_adjoints(output, Halide::Buffer<float>(adjoint));
        },
        py::arg("output"), py::arg("adjoint"));
    m.def(
        "propagate_adjoints", [](const Func &output) { return Halide::propagate_adjoints(output); }, py::arg("output"));
}

} // namespace halide_py
