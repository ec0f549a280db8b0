// hl.Func, hl.FuncRef and hl.TailStrategy: definitions with f[x, y] = e,
// calls f[x, y] and the schedule (realize and compile_to_*: py_pipeline.cpp).
#include <sstream>

#include "Halide/IREquality.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Func;
using Halide::FuncRef;
using Halide::RVar;
using Halide::TailStrategy;
using Halide::Var;

namespace {

// f[x, y], f[x] or f[()]: the coordinates as Exprs. A float coordinate is
// refused here, as upstream's, not only once the call is used.
std::vector<Expr> coordinates(const Func &f, const py::object &index) {
    std::vector<Expr> args;
    if (py::isinstance<py::tuple>(index)) {
        for (const auto &item : index.cast<py::tuple>()) {
            args.push_back(to_expr(item, "Func index"));
        }
    } else {
        args.push_back(to_expr(index, "Func index"));
    }
    for (size_t i = 0; i < args.size(); i++) {
        if (args[i].type().is_float()) {
            std::ostringstream msg;
            msg << "Implicit cast from " << type_name(args[i].type()) << " to int in argument " << i + 1
                << " in call to \"" << f.name() << "\" is not allowed. Use an explicit cast.";
            throw Halide::CompileError(Halide::Internal::user_error_text(msg.str()));
        }
    }
    return args;
}

// The right side of a definition: an Expr-like value, or several for a Func
// with several values: a Tuple, a tuple or list, the call of a Func with
// several values, or (as upstream's) any other sequence of Expr-like values.
std::vector<Expr> definition_values(const py::object &value) {
    if (py::isinstance<Halide::Tuple>(value)) {
        return value.cast<const Halide::Tuple &>().as_vector();
    }
    if (py::isinstance<FuncRef>(value)) {
        const auto &ref = value.cast<const FuncRef &>();
        size_t n = 1;
        try {
            n = ref.size();
        } catch (const Halide::Error &) {
            // A Func not defined yet: to_expr below says so.
        }
        if (n > 1) {
            return Halide::Tuple(ref).as_vector();
        }
    }
    bool sequence = py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value);
    if (!sequence) {
        try {
            return {to_expr(value, "Func definition")};
        } catch (const py::type_error &) {
            if (py::isinstance<py::str>(value) || !PySequence_Check(value.ptr())) {
                throw;
            }
        }
    }
    std::vector<Expr> values;
    for (const auto &item : value) {
        values.push_back(to_expr(item, "Func definition"));
    }
    return values;
}

// f[index] = value.
void define(const Func &f, const py::object &index, const py::object &value) {
    std::vector<Expr> args = coordinates(f, index);
    std::vector<Expr> values = definition_values(value);
    FuncRef ref = f(args);
    if (values.size() == 1) {
        ref = values[0];
    } else {
        ref = Halide::Tuple(values);
    }
}

std::vector<Var> var_list(const py::args &args) {
    // reorder(x, y) or reorder([x, y]).
    if (args.size() == 1 && (py::isinstance<py::list>(args[0]) || py::isinstance<py::tuple>(args[0]))) {
        return args[0].cast<std::vector<Var>>();
    }
    return args.cast<std::vector<Var>>();
}

// f[x] += e on a Func not defined yet: Python computes f[x] + e first,
// which can't call f, then assigns it to f[x]. The sum is recorded here and
// the assignment applies it as C++'s f(x) += e (defining f as 0 or 1 first),
// as upstream's _UnevaluatedFuncRefExpr does.
struct UnevaluatedFuncRef {
    Func func;
    std::vector<Expr> args;
    Expr value;
    char op;
};

// f[x] of a Func not defined yet carries the Func and its coordinates (a
// FuncRef keeps them private), for its + - * / below.
py::object func_ref(const Func &f, const py::object &index) {
    std::vector<Expr> args = coordinates(f, index);
    py::object ref = py::cast(f(args));
    if (!f.defined()) {
        ref.attr("_func") = f;
        ref.attr("_args") = args;
    }
    return ref;
}

template <char Op> BinaryOp unevaluated_op() {
    return [](py::handle self, py::handle other) -> py::object {
        // f[x] += (a, b): as upstream's Python, no operator takes a tuple,
        // a list or an hl.Tuple (Python's TypeError).
        if (py::isinstance<py::tuple>(other) || py::isinstance<py::list>(other) ||
            py::isinstance<Halide::Tuple>(other)) {
            return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        }
        if (py::hasattr(self, "_func")) {
            Func f = self.attr("_func").cast<Func>();
            if (!f.defined()) {
                Expr value;
                try {
                    value = to_arith_expr(other);
                } catch (const py::type_error &) {
                    return py::reinterpret_borrow<py::object>(Py_NotImplemented);
                }
                return py::cast(UnevaluatedFuncRef{f, self.attr("_args").cast<std::vector<Expr>>(), value, Op});
            }
        }
        // Otherwise, the operator every Expr-like value has.
        const std::string name = Op == '+' ? "__add__" : Op == '-' ? "__sub__" : Op == '*' ? "__mul__" : "__truediv__";
        for (const auto &op : expr_binary_operators()) {
            if (name == op.first) {
                return op.second(self, other);
            }
        }
        return py::reinterpret_borrow<py::object>(Py_NotImplemented);
    };
}

// f[index] = value where value is f[index] op e, recorded above.
void apply_unevaluated(const Func &f, const py::object &index, const UnevaluatedFuncRef &u) {
    std::vector<Expr> args = coordinates(f, index);
    bool same = u.func.function() == f.function() && args.size() == u.args.size();
    for (size_t i = 0; same && i < args.size(); i++) {
        same = Halide::Internal::equal(args[i], u.args[i]);
    }
    // As upstream: the message names the Func the reference is of (not yet
    // defined: g in f[x] = g[x] + 1); a reference applied once defined its
    // Func, so applying it again (or after another pure definition) is
    // refused rather than adding a second update.
    if (!same) {
        throw Halide::CompileError(Halide::Internal::user_error_text("Cannot use an unevaluated reference to '" +
                                                                     u.func.name() +
                                                                     "' to define an update at a different location."));
    }
    if (f.defined()) {
        throw Halide::CompileError(
            Halide::Internal::user_error_text("Cannot use an unevaluated reference to '" + f.name() +
                                              "' to define an update when a pure definition already exists."));
    }
    FuncRef ref = f(args);
    switch (u.op) {
    case '+': ref += u.value; break;
    case '-': ref -= u.value; break;
    case '*': ref *= u.value; break;
    default: ref /= u.value; break;
    }
}

} // namespace

void define_func(py::module_ &m) {
    py::enum_<TailStrategy>(m, "TailStrategy")
        .value("RoundUp", TailStrategy::RoundUp)
        .value("GuardWithIf", TailStrategy::GuardWithIf)
        .value("Predicate", TailStrategy::Predicate)
        .value("PredicateLoads", TailStrategy::PredicateLoads)
        .value("PredicateStores", TailStrategy::PredicateStores)
        .value("ShiftInwards", TailStrategy::ShiftInwards)
        .value("ShiftInwardsAndBlend", TailStrategy::ShiftInwardsAndBlend)
        .value("RoundUpAndBlend", TailStrategy::RoundUpAndBlend)
        .value("Auto", TailStrategy::Auto);

    auto ref = bound_class<FuncRef>(m, "FuncRef");
    // f[x, y][i]: an Expr that also knows which value it reads, as upstream's.
    bound_class<Halide::FuncTupleElementRef>(m, "FuncTupleElementRef")
        .def("index", &Halide::FuncTupleElementRef::index);
    ref.def(
           "__getitem__", [](const FuncRef &r, int i) { return r[i]; }, py::arg("index"))
        .def("size", &FuncRef::size)
        .def("logical_not", [](const FuncRef &r) { return !Expr(r); });
    add_expr_operators(ref);
    // + - * / of a Func not defined yet: see UnevaluatedFuncRef.
    const std::pair<const char *, BinaryOp> updates[] = {{"__add__", unevaluated_op<'+'>()},
                                                         {"__sub__", unevaluated_op<'-'>()},
                                                         {"__mul__", unevaluated_op<'*'>()},
                                                         {"__truediv__", unevaluated_op<'/'>()}};
    for (const auto &u : updates) {
        ref.attr(u.first) = py::cpp_function(u.second, py::name(u.first), py::is_method(ref), py::is_operator());
    }
    // Named as upstream's class is, from its extension module halide.halide_
    // (Python's errors show the name: "unsupported operand type(s) for +=:
    // 'halide.halide_._UnevaluatedFuncRefExpr' and 'int'"); halide.halide_
    // is this module (halide/__init__.py).
    py::module_ upstream_scope = py::module_::import("types").attr("ModuleType")("halide.halide_");
    py::class_<UnevaluatedFuncRef>(upstream_scope, "_UnevaluatedFuncRefExpr")
        .def("__repr__", [](const UnevaluatedFuncRef &u) {
            return "<halide._UnevaluatedFuncRefExpr: " + u.func.name() + "(...) " + u.op + " ...>";
        });
    m.attr("_UnevaluatedFuncRefExpr") = upstream_scope.attr("_UnevaluatedFuncRefExpr");

    auto cls = bound_class<Func>(m, "Func");
    cls.def(py::init<>())
        .def(py::init<const std::string &>(), py::arg("name"))
        .def(py::init([](Halide::Buffer<> &b) { return Func(b); }))
        .def(py::init([](const Halide::ImageParam &im) { return Func(im); }))
        .def(py::init([](const py::object &e) { return Func(to_expr(e, "Func()")); }), py::arg("expr"))
        .def("name", &Func::name)
        .def("defined", &Func::defined)
        .def("args", &Func::args)
        .def("value", &Func::value)
        .def("values", [](const Func &f) { return py::tuple(py::cast(f.values().as_vector())); })
        // type, types, outputs, dimensions: py_func_requirements.cpp.
        .def(
            "__getitem__", [](const Func &f, const py::object &index) { return func_ref(f, index); }, py::arg("index"))
        .def(
            "__setitem__",
            [](const Func &f, const py::object &index, const py::object &value) {
                if (py::isinstance<UnevaluatedFuncRef>(value)) {
                    apply_unevaluated(f, index, value.cast<const UnevaluatedFuncRef &>());
                    return;
                }
                define(f, index, value);
            },
            py::arg("index"), py::arg("value"))
        .def("__repr__", [](const Func &f) { return "<halide.Func '" + f.name() + "'>"; })

        // Schedule: each returns the Func, so calls chain.
        .def("compute_root", &Func::compute_root, py::return_value_policy::reference_internal)
        .def("compute_inline", &Func::compute_inline, py::return_value_policy::reference_internal)
        .def("compute_at", py::overload_cast<const Func &, const Var &>(&Func::compute_at), py::arg("f"),
             py::arg("var"), py::return_value_policy::reference_internal)
        .def("compute_at", py::overload_cast<const Func &, const RVar &>(&Func::compute_at), py::arg("f"),
             py::arg("var"), py::return_value_policy::reference_internal)
        .def("store_root", &Func::store_root, py::return_value_policy::reference_internal)
        .def("store_at", py::overload_cast<const Func &, const Var &>(&Func::store_at), py::arg("f"), py::arg("var"),
             py::return_value_policy::reference_internal)
        .def("store_at", py::overload_cast<const Func &, const RVar &>(&Func::store_at), py::arg("f"), py::arg("var"),
             py::return_value_policy::reference_internal)
        .def(
            "bound",
            [](Func &f, const Var &v, const py::object &min, const py::object &extent) -> Func & {
                return f.bound(v, to_expr(min, "min"), to_expr(extent, "extent"));
            },
            py::arg("var"), py::arg("min"), py::arg("extent"), py::return_value_policy::reference_internal)
        .def(
            "set_estimates",
            [](Func &f, const py::sequence &estimates) -> Func & {
                // Upstream's takes a list of Ranges; (min, extent) pairs are taken too.
                Halide::Region region;
                for (const py::handle item : estimates) {
                    if (py::isinstance<Halide::Range>(item)) {
                        region.push_back(item.cast<Halide::Range>());
                        continue;
                    }
                    if (!py::isinstance<py::sequence>(item) || py::len(item) != 2) {
                        throw py::type_error("Func.set_estimates: each estimate must be a halide.Range or a (min, "
                                             "extent) pair");
                    }
                    py::sequence pair = item.cast<py::sequence>();
                    region.push_back(Halide::Range{to_expr(pair[0], "min"), to_expr(pair[1], "extent")});
                }
                return f.set_estimates(region);
            },
            py::arg("estimates"), py::return_value_policy::reference_internal)
        .def(
            "align_bounds",
            [](Func &f, const Var &v, const py::object &modulus, const py::object &remainder) -> Func & {
                return f.align_bounds(v, to_expr(modulus, "modulus"), to_expr(remainder, "remainder"));
            },
            py::arg("var"), py::arg("modulus"), py::arg("remainder") = 0, py::return_value_policy::reference_internal)
        .def(
            "align_extent",
            [](Func &f, const Var &v, const py::object &modulus) -> Func & {
                return f.align_extent(v, to_expr(modulus, "modulus"));
            },
            py::arg("var"), py::arg("modulus"), py::return_value_policy::reference_internal)
        .def(
            "bound_extent",
            [](Func &f, const Var &v, const py::object &extent) -> Func & {
                return f.bound_extent(v, to_expr(extent, "extent"));
            },
            py::arg("var"), py::arg("extent"), py::return_value_policy::reference_internal)
        .def(
            "fold_storage",
            [](Func &f, const Var &dim, const py::object &extent, bool fold_forward) -> Func & {
                return f.fold_storage(dim, to_expr(extent, "extent"), fold_forward);
            },
            py::arg("dim"), py::arg("extent"), py::arg("fold_forward") = true,
            py::return_value_policy::reference_internal)
        .def(
            "reorder_storage",
            [](Func &f, const py::args &vars) -> Func & { return f.reorder_storage(var_list(vars)); },
            py::return_value_policy::reference_internal)
        // split, fuse, reorder, tile, parallel, vectorize, unroll, serial
        // (over Vars and RVars): define_stage adds them, with Stage's.
        // Wrappers (Func::in; `in` is a Python keyword) and async.
        .def("in_", py::overload_cast<const Func &>(&Func::in), py::arg("f"))
        .def("in_", py::overload_cast<const std::vector<Func> &>(&Func::in), py::arg("fs"))
        .def("in_", py::overload_cast<>(&Func::in))
        .def("clone_in", py::overload_cast<const Func &>(&Func::clone_in), py::arg("f"))
        .def("clone_in", py::overload_cast<const std::vector<Func> &>(&Func::clone_in), py::arg("fs"))
        .def("async_", &Func::async, py::return_value_policy::reference_internal)
        .def(
            "ring_buffer",
            [](Func &f, const py::object &extent) -> Func & { return f.ring_buffer(to_expr(extent, "extent")); },
            py::arg("extent"), py::return_value_policy::reference_internal)
        .def("debug_to_file", &Func::debug_to_file, py::arg("filename"))
        // Debugging: upstream's trace lines for this Func, printed as the pipeline runs.
        .def("trace_loads", &Func::trace_loads, py::return_value_policy::reference_internal)
        .def("trace_stores", &Func::trace_stores, py::return_value_policy::reference_internal)
        .def("trace_realizations", &Func::trace_realizations, py::return_value_policy::reference_internal)
        .def("add_trace_tag", &Func::add_trace_tag, py::arg("trace_tag"), py::return_value_policy::reference_internal)
        .def("output_buffer", &Func::output_buffer)
        .def("output_buffers", &Func::output_buffers)
        .def("lowered_stmt", &Func::lowered_stmt);
    // realize, compile_jit, compile_to_*...: define_pipeline adds them, once
    // Target and the enums they default to exist.
}

} // namespace halide_py
