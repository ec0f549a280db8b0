// hl.scatter and hl.gather (ScatterGather.h): several values stored at
// several places by one update, f[hl.scatter([3, 5])] = f[hl.gather([5, 3])].
// As upstream's, they take one list of values; separate arguments are
// accepted too.
#include "Halide/ScatterGather.h"
#include "py_compiler.h"

namespace halide_py {

namespace {

std::vector<Halide::Expr> packet(const py::args &args, const char *what) {
    py::object values = args;
    if (args.size() == 1 && (py::isinstance<py::list>(args[0]) || py::isinstance<py::tuple>(args[0]))) {
        values = args[0];
    }
    std::vector<Halide::Expr> exprs;
    for (const auto &v : values) {
        exprs.push_back(to_expr(v, what));
    }
    return exprs;
}

} // namespace

void define_scatter_gather(py::module_ &m) {
    m.def("scatter", [](const py::args &args) { return Halide::scatter(packet(args, "scatter value")); });
    m.def("gather", [](const py::args &args) { return Halide::gather(packet(args, "gather value")); });
}

} // namespace halide_py
