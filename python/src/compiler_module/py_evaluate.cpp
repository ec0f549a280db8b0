// hl.evaluate: JIT-compiles and runs a scalar expression (or a tuple or
// list of them) and returns its value as a Python number (or a tuple), as
// upstream's: hl.evaluate(hl.u8(250) + 10) == 4.
#include <optional>

#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;

namespace {

py::object evaluate(const py::object &value) {
    std::vector<Expr> values;
    bool several = py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value);
    if (several) {
        for (const auto &item : value) {
            values.push_back(to_expr(item, "evaluate"));
        }
        if (values.empty()) {
            throw py::value_error("evaluate: expected an Expr or a tuple of Exprs, got an empty " +
                                  std::string(py::isinstance<py::tuple>(value) ? "tuple" : "list"));
        }
    } else if (py::isinstance<Halide::Tuple>(value) || py::isinstance<Halide::Func>(value) ||
               py::isinstance<py::str>(value)) {
        // Upstream takes neither; a Tuple is given as a Python tuple.
        throw py::value_error("evaluate: expected an Expr or a tuple of Exprs, got a " +
                              std::string(py::str(py::type::handle_of(value).attr("__name__"))));
    } else {
        values.push_back(to_expr(value, "evaluate"));
    }
    for (const Expr &e : values) {
        if (!e.defined()) {
            throw py::value_error("evaluate: the expression is undefined (a default-constructed Expr)");
        }
    }
    Halide::Func f("evaluate");
    if (values.size() == 1) {
        f() = values[0];
    } else {
        f() = Halide::Tuple(values);
    }
    std::optional<Halide::Realization> realized;
    {
        PipelineRun run;
        realized.emplace(f.realize(std::vector<int32_t>{}));
    }
    const Halide::Realization &r = *realized;
    // Each result is a 0-dimensional Buffer; b[()] is its value as Python's.
    py::tuple out(r.size());
    for (size_t i = 0; i < r.size(); i++) {
        out[i] = py::cast(r[i]).attr("__getitem__")(py::tuple());
    }
    // A list of one value gives the value, as upstream's.
    if (out.size() == 1) {
        return out[0];
    }
    return std::move(out);
}

} // namespace

void define_evaluate(py::module_ &m) {
    m.def("evaluate", &evaluate, py::arg("expr"),
          "The value of a scalar expression (a Python tuple of them: a tuple of values), computed by JIT-compiling "
          "it.");
    // Upstream's schedules the expression on a GPU when the JIT target has
    // one; this compiler has no GPU backend, so it computes it as evaluate().
    m.def("evaluate_may_gpu", &evaluate, py::arg("expr"),
          "As evaluate(): upstream's may compute on a GPU, this compiler has no GPU backend.");
}

} // namespace halide_py
