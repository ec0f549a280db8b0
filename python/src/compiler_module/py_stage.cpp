// hl.VarOrRVar, hl.Stage (Func.update(i)), the update accessors of Func,
// and the loop scheduling methods Func and Stage share (split, fuse,
// reorder, tile, parallel, vectorize, unroll, serial, rename over Vars and
// RVars).
#include "py_compiler.h"

namespace halide_py {

using Halide::Expr;
using Halide::Func;
using Halide::Partition;
using Halide::RDom;
using Halide::RVar;
using Halide::Stage;
using Halide::TailStrategy;
using Halide::Var;
using Halide::VarOrRVar;

VarOrRVar to_var_or_rvar(py::handle value, const char *what) {
    if (py::isinstance<Var>(value)) {
        return VarOrRVar(value.cast<Var>());
    }
    if (py::isinstance<RVar>(value)) {
        return VarOrRVar(value.cast<RVar>());
    }
    if (py::isinstance<RDom>(value)) {
        return VarOrRVar(value.cast<RDom>());
    }
    if (py::isinstance<VarOrRVar>(value)) {
        return value.cast<VarOrRVar>();
    }
    throw py::type_error(std::string(what) + ": expected a halide.Var, RVar or RDom, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

std::vector<VarOrRVar> var_or_rvar_list(const py::tuple &args, const char *what) {
    // reorder(x, y) or reorder([x, y]).
    py::sequence items = args;
    if (args.size() == 1 && (py::isinstance<py::list>(args[0]) || py::isinstance<py::tuple>(args[0]))) {
        items = py::reinterpret_borrow<py::sequence>(args[0]);
    }
    std::vector<VarOrRVar> vars;
    for (const auto &item : items) {
        vars.push_back(to_var_or_rvar(item, what));
    }
    return vars;
}

namespace {

Stage stage_of(const Func &f) {
    return Stage(f);
}
Stage stage_of(const Stage &s) {
    return s;
}

// Upstream's tile over any number of loops (Stage::tile's vector forms).
void tile_n(Stage s, const py::list &previous, const py::list &outers, const py::list &inners, const py::list &factors,
            TailStrategy tail) {
    std::vector<Expr> factor_exprs;
    for (const auto &f : factors) {
        factor_exprs.push_back(to_expr(f, "factor"));
    }
    s.tile(var_or_rvar_list(py::make_tuple(previous), "tile"), var_or_rvar_list(py::make_tuple(outers), "tile"),
           var_or_rvar_list(py::make_tuple(inners), "tile"), factor_exprs, tail);
}

// The methods return the object they were called on, so calls chain.
template <typename T> void add_loop_schedule(py::class_<T> &cls) {
    constexpr auto self_ref = py::return_value_policy::reference_internal;
    using O = const py::object &;
    cls.def(
           "split",
           [](T &self, O old, O outer, O inner, O factor, TailStrategy tail) -> T & {
               stage_of(self).split(to_var_or_rvar(old, "split"), to_var_or_rvar(outer, "split"),
                                    to_var_or_rvar(inner, "split"), to_expr(factor, "factor"), tail);
               return self;
           },
           py::arg("old"), py::arg("outer"), py::arg("inner"), py::arg("factor"), tail_arg(), self_ref)
        .def(
            "fuse",
            [](T &self, O inner, O outer, O fused) -> T & {
                stage_of(self).fuse(to_var_or_rvar(inner, "fuse"), to_var_or_rvar(outer, "fuse"),
                                    to_var_or_rvar(fused, "fuse"));
                return self;
            },
            py::arg("inner"), py::arg("outer"), py::arg("fused"), self_ref)
        .def(
            "reorder",
            [](T &self, const py::list &vars) -> T & {
                stage_of(self).reorder(var_or_rvar_list(py::make_tuple(vars), "reorder"));
                return self;
            },
            py::arg("vars"), self_ref)
        .def(
            "reorder",
            [](T &self, const py::args &vars) -> T & {
                stage_of(self).reorder(var_or_rvar_list(vars, "reorder"));
                return self;
            },
            self_ref)
        .def(
            "tile",
            [](T &self, O x, O y, O xo, O yo, O xi, O yi, O xfactor, O yfactor, TailStrategy tail) -> T & {
                stage_of(self).tile(to_var_or_rvar(x, "tile"), to_var_or_rvar(y, "tile"), to_var_or_rvar(xo, "tile"),
                                    to_var_or_rvar(yo, "tile"), to_var_or_rvar(xi, "tile"), to_var_or_rvar(yi, "tile"),
                                    to_expr(xfactor, "xfactor"), to_expr(yfactor, "yfactor"), tail);
                return self;
            },
            py::arg("x"), py::arg("y"), py::arg("xo"), py::arg("yo"), py::arg("xi"), py::arg("yi"), py::arg("xfactor"),
            py::arg("yfactor"), tail_arg(), self_ref)
        .def(
            "tile",
            [](T &self, O x, O y, O xi, O yi, O xfactor, O yfactor, TailStrategy tail) -> T & {
                stage_of(self).tile(to_var_or_rvar(x, "tile"), to_var_or_rvar(y, "tile"), to_var_or_rvar(xi, "tile"),
                                    to_var_or_rvar(yi, "tile"), to_expr(xfactor, "xfactor"),
                                    to_expr(yfactor, "yfactor"), tail);
                return self;
            },
            py::arg("x"), py::arg("y"), py::arg("xi"), py::arg("yi"), py::arg("xfactor"), py::arg("yfactor"),
            tail_arg(), self_ref)
        .def(
            "tile",
            [](T &self, const py::list &previous, const py::list &outers, const py::list &inners,
               const py::list &factors, TailStrategy tail) -> T & {
                tile_n(stage_of(self), previous, outers, inners, factors, tail);
                return self;
            },
            py::arg("previous"), py::arg("outers"), py::arg("inners"), py::arg("factors"), tail_arg(), self_ref)
        .def(
            "tile",
            [](T &self, const py::list &previous, const py::list &inners, const py::list &factors,
               TailStrategy tail) -> T & {
                tile_n(stage_of(self), previous, previous, inners, factors, tail);
                return self;
            },
            py::arg("previous"), py::arg("inners"), py::arg("factors"), tail_arg(), self_ref)
        .def(
            "parallel",
            [](T &self, O v) -> T & {
                stage_of(self).parallel(to_var_or_rvar(v, "parallel"));
                return self;
            },
            py::arg("var"), self_ref)
        .def(
            "parallel",
            [](T &self, O v, O task_size, TailStrategy tail) -> T & {
                stage_of(self).parallel(to_var_or_rvar(v, "parallel"), to_expr(task_size, "task_size"), tail);
                return self;
            },
            py::arg("var"), py::arg("task_size"), tail_arg(), self_ref)
        .def(
            "vectorize",
            [](T &self, O v) -> T & {
                stage_of(self).vectorize(to_var_or_rvar(v, "vectorize"));
                return self;
            },
            py::arg("var"), self_ref)
        .def(
            "vectorize",
            [](T &self, O v, O factor, TailStrategy tail) -> T & {
                stage_of(self).vectorize(to_var_or_rvar(v, "vectorize"), to_expr(factor, "factor"), tail);
                return self;
            },
            py::arg("var"), py::arg("factor"), tail_arg(), self_ref)
        .def(
            "unroll",
            [](T &self, O v) -> T & {
                stage_of(self).unroll(to_var_or_rvar(v, "unroll"));
                return self;
            },
            py::arg("var"), self_ref)
        .def(
            "unroll",
            [](T &self, O v, O factor, TailStrategy tail) -> T & {
                stage_of(self).unroll(to_var_or_rvar(v, "unroll"), to_expr(factor, "factor"), tail);
                return self;
            },
            py::arg("var"), py::arg("factor"), tail_arg(), self_ref)
        .def(
            "serial",
            [](T &self, O v) -> T & {
                stage_of(self).serial(to_var_or_rvar(v, "serial"));
                return self;
            },
            py::arg("var"), self_ref)
        .def(
            "rename",
            [](T &self, O old_name, O new_name) -> T & {
                stage_of(self).rename(to_var_or_rvar(old_name, "rename"), to_var_or_rvar(new_name, "rename"));
                return self;
            },
            py::arg("old_name"), py::arg("new_name"), self_ref)
        .def(
            "partition",
            [](T &self, O v, Partition policy) -> T & {
                stage_of(self).partition(to_var_or_rvar(v, "partition"), policy);
                return self;
            },
            py::arg("var"), py::arg("partition_policy"), self_ref)
        .def(
            "never_partition",
            [](T &self, const py::sequence &vars) -> T & {
                stage_of(self).never_partition(var_or_rvar_list(py::make_tuple(vars), "never_partition"));
                return self;
            },
            py::arg("vars"), self_ref)
        .def(
            "always_partition",
            [](T &self, const py::sequence &vars) -> T & {
                stage_of(self).always_partition(var_or_rvar_list(py::make_tuple(vars), "always_partition"));
                return self;
            },
            py::arg("vars"), self_ref)
        .def(
            "never_partition_all",
            [](T &self) -> T & {
                stage_of(self).never_partition_all();
                return self;
            },
            self_ref)
        .def(
            "always_partition_all",
            [](T &self) -> T & {
                stage_of(self).always_partition_all();
                return self;
            },
            self_ref);
}

} // namespace

void define_stage(py::module_ &m) {
    py::enum_<Partition>(m, "Partition")
        .value("Auto", Partition::Auto)
        .value("Never", Partition::Never)
        .value("Always", Partition::Always);

    bound_class<VarOrRVar>(m, "VarOrRVar")
        .def(py::init<const std::string &, bool>(), py::arg("name"), py::arg("is_rvar"))
        .def(py::init<const Var &>(), py::arg("var"))
        .def(py::init<const RVar &>(), py::arg("rvar"))
        .def(py::init<const RDom &>(), py::arg("rdom"))
        .def("name", &VarOrRVar::name)
        .def_readonly("var", &VarOrRVar::var)
        .def_readonly("rvar", &VarOrRVar::rvar)
        .def_readonly("is_rvar", &VarOrRVar::is_rvar)
        .def("__repr__", [](const VarOrRVar &v) {
            return std::string(v.is_rvar ? "<halide.VarOrRVar RVar '" : "<halide.VarOrRVar Var '") + v.name() + "'>";
        });

    auto stage = bound_class<Stage>(m, "Stage");
    stage.def(py::init([](const Func &f) { return Stage(f); }), py::arg("f"))
        .def("name", &Stage::name)
        .def("__repr__", [](const Stage &s) { return "<halide.Stage '" + s.name() + "'>"; })
        .def(
            "rfactor",
            [](Stage &s, const std::vector<std::pair<RVar, Var>> &preserved) { return s.rfactor(preserved); },
            py::arg("preserved"))
        .def(
            "rfactor", [](Stage &s, const RVar &r, const Var &v) { return s.rfactor(r, v); }, py::arg("r"),
            py::arg("v"))
        .def(
            "atomic",
            [](Stage &s, bool override_associativity_test) -> Stage & { return s.atomic(override_associativity_test); },
            py::arg("override_associativity_test") = false, py::return_value_policy::reference_internal)
        .def(
            "allow_race_conditions", [](Stage &s) -> Stage & { return s.allow_race_conditions(); },
            py::return_value_policy::reference_internal)
        .def("unscheduled", &Stage::unscheduled)
        .def("dump_argument_list", &Stage::dump_argument_list);
    add_loop_schedule(stage);

    auto func = bound_class<Func>(m, "Func");
    add_loop_schedule(func);
    func.def("has_update_definition", &Func::has_update_definition)
        .def("num_update_definitions", &Func::num_update_definitions)
        .def("update_args", &Func::update_args, py::arg("idx") = 0)
        .def("update_value", &Func::update_value, py::arg("idx") = 0)
        .def(
            "update_values",
            [](const Func &f, int idx) { return py::tuple(py::cast(f.update_values(idx).as_vector())); },
            py::arg("idx") = 0)
        .def("update", &Func::update, py::arg("idx") = 0)
        .def("atomic", &Func::atomic, py::arg("override_associativity_test") = false,
             py::return_value_policy::reference_internal)
        .def("allow_race_conditions", &Func::allow_race_conditions, py::return_value_policy::reference_internal)
        .def("rvars", &Func::rvars, py::arg("idx") = 0);
}

} // namespace halide_py
