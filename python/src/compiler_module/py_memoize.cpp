// hl.EvictionKey, Func.memoize and hl.memoize_tag: results kept in the
// runtime's memoization cache across realizations (docs/language.md,
// "memoize").
#include "Halide/MemoizeTag.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::EvictionKey;
using Halide::Func;

void define_memoize(py::module_ &m) {
    // EvictionKey() (no key) is what memoize() defaults to.
    py::class_<EvictionKey>(m, "EvictionKey")
        .def(py::init<>())
        .def(py::init([](const py::object &key) { return EvictionKey(to_expr(key, "eviction key")); }),
             py::arg("expr"));

    bound_class<Func>(m, "Func").def("memoize", &Func::memoize,
                                     py::arg_v("eviction_key", EvictionKey(), "EvictionKey()"),
                                     py::return_value_policy::reference_internal);

    m.def(
        "memoize_tag",
        [](const py::object &result, const py::args &args) {
            std::vector<Halide::Expr> keys;
            for (const auto &a : args) {
                keys.push_back(to_expr(a, "memoize_tag"));
            }
            return Halide::memoize_tag(to_expr(result, "memoize_tag"), keys);
        },
        py::arg("result"));
}

} // namespace halide_py
