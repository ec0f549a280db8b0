// Func.specialize(condition) / Stage.specialize(condition), returning the
// specialization's hl.Stage to schedule, and specialize_fail(message), as
// upstream's Python names them.
#include "py_compiler.h"

namespace halide_py {

using Halide::Func;
using Halide::Stage;

namespace {

template <typename T> void add_specialize(py::class_<T> &cls) {
    cls.def(
           "specialize", [](T &self, const Halide::Expr &condition) { return self.specialize(condition); },
           py::arg("condition"))
        .def(
            "specialize_fail", [](T &self, const std::string &message) { self.specialize_fail(message); },
            py::arg("message"));
}

} // namespace

void define_specialize(py::module_ &m) {
    auto func = bound_class<Func>(m, "Func");
    auto stage = bound_class<Stage>(m, "Stage");
    add_specialize(func);
    add_specialize(stage);
}

} // namespace halide_py
