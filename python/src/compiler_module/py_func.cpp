// hl.Func, hl.FuncRef and hl.TailStrategy: definitions with f[x, y] = e,
// calls f[x, y] and the schedule (realize and compile_to_*: py_pipeline.cpp).
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Func;
using Halide::FuncRef;
using Halide::TailStrategy;
using Halide::Var;

namespace {

// f[x, y], f[x] or f[()]: the coordinates as Exprs.
std::vector<Expr> coordinates(const py::object &index) {
    std::vector<Expr> args;
    if (py::isinstance<py::tuple>(index)) {
        for (const auto &item : index.cast<py::tuple>()) {
            args.push_back(to_expr(item, "Func index"));
        }
    } else {
        args.push_back(to_expr(index, "Func index"));
    }
    return args;
}

// The right side of a definition: an Expr-like value, or a tuple/list of
// them for a Func with several values.
void define(FuncRef ref, const py::object &value) {
    if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
        std::vector<Expr> values;
        for (const auto &item : value) {
            values.push_back(to_expr(item, "Func definition"));
        }
        if (values.size() == 1) {
            ref = values[0];
        } else {
            ref = Halide::Tuple(values);
        }
        return;
    }
    ref = to_expr(value, "Func definition");
}

std::vector<Var> var_list(const py::args &args) {
    // reorder(x, y) or reorder([x, y]).
    if (args.size() == 1 && (py::isinstance<py::list>(args[0]) || py::isinstance<py::tuple>(args[0]))) {
        return args[0].cast<std::vector<Var>>();
    }
    return args.cast<std::vector<Var>>();
}

} // namespace

void define_func(py::module_ &m) {
    py::enum_<TailStrategy>(m, "TailStrategy")
        .value("Auto", TailStrategy::Auto)
        .value("GuardWithIf", TailStrategy::GuardWithIf)
        .value("ShiftInwards", TailStrategy::ShiftInwards)
        .value("RoundUp", TailStrategy::RoundUp);

    py::class_<FuncRef> ref(m, "FuncRef");
    ref.def(
        "__getitem__", [](const FuncRef &r, int i) { return r[i]; }, py::arg("index"));
    add_expr_operators(ref);

    py::class_<Func> cls(m, "Func");
    cls.def(py::init<>())
        .def(py::init<const std::string &>(), py::arg("name"))
        .def(py::init([](const py::object &e) { return Func(to_expr(e, "Func()")); }), py::arg("expr"))
        .def("name", &Func::name)
        .def("defined", &Func::defined)
        .def("dimensions", &Func::dimensions)
        .def("args", &Func::args)
        .def("value", &Func::value)
        .def("type", &Func::type)
        .def("types", &Func::output_types)
        .def("outputs", &Func::outputs)
        .def(
            "__getitem__", [](const Func &f, const py::object &index) { return f(coordinates(index)); },
            py::arg("index"))
        .def(
            "__setitem__",
            [](const Func &f, const py::object &index, const py::object &value) {
                define(f(coordinates(index)), value);
            },
            py::arg("index"), py::arg("value"))
        .def("__repr__", [](const Func &f) { return "<halide.Func '" + f.name() + "'>"; })

        // Schedule: each returns the Func, so calls chain.
        .def("compute_root", &Func::compute_root, py::return_value_policy::reference_internal)
        .def("compute_inline", &Func::compute_inline, py::return_value_policy::reference_internal)
        .def("compute_at", &Func::compute_at, py::arg("f"), py::arg("var"), py::return_value_policy::reference_internal)
        .def("store_root", &Func::store_root, py::return_value_policy::reference_internal)
        .def("store_at", &Func::store_at, py::arg("f"), py::arg("var"), py::return_value_policy::reference_internal)
        .def(
            "bound",
            [](Func &f, const Var &v, const py::object &min, const py::object &extent) -> Func & {
                return f.bound(v, to_expr(min, "min"), to_expr(extent, "extent"));
            },
            py::arg("var"), py::arg("min"), py::arg("extent"), py::return_value_policy::reference_internal)
        .def(
            "align_bounds",
            [](Func &f, const Var &v, const py::object &modulus, const py::object &remainder) -> Func & {
                return f.align_bounds(v, to_expr(modulus, "modulus"), to_expr(remainder, "remainder"));
            },
            py::arg("var"), py::arg("modulus"), py::arg("remainder") = 0, py::return_value_policy::reference_internal)
        .def(
            "split",
            [](Func &f, const Var &old, const Var &outer, const Var &inner, const py::object &factor,
               TailStrategy tail) -> Func & { return f.split(old, outer, inner, to_expr(factor, "factor"), tail); },
            py::arg("old"), py::arg("outer"), py::arg("inner"), py::arg("factor"), py::arg("tail") = TailStrategy::Auto,
            py::return_value_policy::reference_internal)
        .def("fuse", &Func::fuse, py::arg("inner"), py::arg("outer"), py::arg("fused"),
             py::return_value_policy::reference_internal)
        .def(
            "reorder", [](Func &f, const py::args &vars) -> Func & { return f.reorder(var_list(vars)); },
            py::return_value_policy::reference_internal)
        .def(
            "reorder_storage",
            [](Func &f, const py::args &vars) -> Func & { return f.reorder_storage(var_list(vars)); },
            py::return_value_policy::reference_internal)
        .def(
            "tile",
            [](Func &f, const Var &x, const Var &y, const Var &xo, const Var &yo, const Var &xi, const Var &yi,
               const py::object &xfactor, const py::object &yfactor, TailStrategy tail) -> Func & {
                return f.tile(x, y, xo, yo, xi, yi, to_expr(xfactor, "xfactor"), to_expr(yfactor, "yfactor"), tail);
            },
            py::arg("x"), py::arg("y"), py::arg("xo"), py::arg("yo"), py::arg("xi"), py::arg("yi"), py::arg("xfactor"),
            py::arg("yfactor"), py::arg("tail") = TailStrategy::Auto, py::return_value_policy::reference_internal)
        .def(
            "tile",
            [](Func &f, const Var &x, const Var &y, const Var &xi, const Var &yi, const py::object &xfactor,
               const py::object &yfactor, TailStrategy tail) -> Func & {
                return f.tile(x, y, xi, yi, to_expr(xfactor, "xfactor"), to_expr(yfactor, "yfactor"), tail);
            },
            py::arg("x"), py::arg("y"), py::arg("xi"), py::arg("yi"), py::arg("xfactor"), py::arg("yfactor"),
            py::arg("tail") = TailStrategy::Auto, py::return_value_policy::reference_internal)
        .def(
            "parallel", [](Func &f, const Var &v) -> Func & { return f.parallel(v); }, py::arg("var"),
            py::return_value_policy::reference_internal)
        .def(
            "parallel",
            [](Func &f, const Var &v, const py::object &task_size, TailStrategy tail) -> Func & {
                return f.parallel(v, to_expr(task_size, "task_size"), tail);
            },
            py::arg("var"), py::arg("task_size"), py::arg("tail") = TailStrategy::Auto,
            py::return_value_policy::reference_internal)
        .def(
            "vectorize", [](Func &f, const Var &v) -> Func & { return f.vectorize(v); }, py::arg("var"),
            py::return_value_policy::reference_internal)
        .def(
            "vectorize",
            [](Func &f, const Var &v, int factor, TailStrategy tail) -> Func & { return f.vectorize(v, factor, tail); },
            py::arg("var"), py::arg("factor"), py::arg("tail") = TailStrategy::Auto,
            py::return_value_policy::reference_internal)
        .def(
            "unroll", [](Func &f, const Var &v) -> Func & { return f.unroll(v); }, py::arg("var"),
            py::return_value_policy::reference_internal)
        .def(
            "unroll",
            [](Func &f, const Var &v, int factor, TailStrategy tail) -> Func & { return f.unroll(v, factor, tail); },
            py::arg("var"), py::arg("factor"), py::arg("tail") = TailStrategy::Auto,
            py::return_value_policy::reference_internal)

        .def("lowered_stmt", &Func::lowered_stmt);
    // realize, compile_jit, compile_to_*...: define_pipeline adds them, once
    // Target and the enums they default to exist.
}

} // namespace halide_py
