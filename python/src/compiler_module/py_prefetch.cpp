// hl.PrefetchBoundStrategy and Func.prefetch / Stage.prefetch (of a Func or
// of an ImageParam), as upstream's Python spells them. What is emitted:
// Stage::prefetch in Halide/Func.h and libhalide's lower/Prefetch.h.
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Func;
using Halide::ImageParam;
using Halide::PrefetchBoundStrategy;
using Halide::Stage;
using Halide::VarOrRVar;

namespace {

template <typename T> void add_prefetch(py::class_<T> &cls) {
    auto strategy = py::arg_v("strategy", PrefetchBoundStrategy::GuardWithIf, "PrefetchBoundStrategy.GuardWithIf");
    cls.def(
           "prefetch",
           [](T &self, const Func &f, const py::object &at, const py::object &from, const py::object &offset,
              PrefetchBoundStrategy s) -> T & {
               return self.prefetch(f, to_var_or_rvar(at, "prefetch"), to_var_or_rvar(from, "prefetch"),
                                    to_expr(offset, "offset"), s);
           },
           py::arg("func"), py::arg("at"), py::arg("from_"), py::arg("offset") = 1, strategy,
           py::return_value_policy::reference_internal)
        .def(
            "prefetch",
            [](T &self, const ImageParam &image, const py::object &at, const py::object &from, const py::object &offset,
               PrefetchBoundStrategy s) -> T & {
                return self.prefetch(image, to_var_or_rvar(at, "prefetch"), to_var_or_rvar(from, "prefetch"),
                                     to_expr(offset, "offset"), s);
            },
            py::arg("image"), py::arg("at"), py::arg("from_"), py::arg("offset") = 1, strategy,
            py::return_value_policy::reference_internal);
}

} // namespace

void define_prefetch(py::module_ &m) {
    py::enum_<PrefetchBoundStrategy>(m, "PrefetchBoundStrategy")
        .value("Clamp", PrefetchBoundStrategy::Clamp)
        .value("GuardWithIf", PrefetchBoundStrategy::GuardWithIf)
        .value("NonFaulting", PrefetchBoundStrategy::NonFaulting);
    auto func = bound_class<Func>(m, "Func");
    add_prefetch(func);
    auto stage = bound_class<Stage>(m, "Stage");
    add_prefetch(stage);
}

} // namespace halide_py
