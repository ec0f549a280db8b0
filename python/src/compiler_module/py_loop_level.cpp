// hl.LoopLevel and hl.LoopAlignStrategy, and the schedule methods that take
// them: Func.compute_at / store_at / hoist_storage(loop_level), and
// Func.compute_with / Stage.compute_with (a Stage or Func and a Var, or a
// LoopLevel; one alignment or a list of (var, alignment) pairs).
#include "py_compiler.h"

namespace halide_py {

using Halide::Func;
using Halide::LoopAlignStrategy;
using Halide::LoopLevel;
using Halide::Stage;
using Halide::VarOrRVar;

namespace {

using AlignList = std::vector<std::pair<VarOrRVar, LoopAlignStrategy>>;

Stage to_stage(const py::object &value) {
    if (py::isinstance<Func>(value)) {
        return Stage(value.cast<Func>());
    }
    if (py::isinstance<Stage>(value)) {
        return value.cast<Stage>();
    }
    throw py::type_error("compute_with: expected a halide.Func or Stage, got " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
}

AlignList to_align_list(const py::sequence &items) {
    AlignList align;
    for (const auto &item : items) {
        auto pair = item.cast<py::sequence>();
        if (pair.size() != 2) {
            throw py::value_error("compute_with: each alignment is a (var, LoopAlignStrategy) pair");
        }
        align.emplace_back(to_var_or_rvar(pair[0], "compute_with"), pair[1].cast<LoopAlignStrategy>());
    }
    return align;
}

py::arg_v align_arg() {
    return py::arg_v("align", LoopAlignStrategy::Auto, "LoopAlignStrategy.Auto");
}

template <typename T> void add_compute_with(py::class_<T> &cls) {
    constexpr auto self_ref = py::return_value_policy::reference_internal;
    // The LoopLevel forms first: the Stage forms take any object (a Func or
    // a Stage) and would claim a LoopLevel call.
    cls.def(
           "compute_with",
           [](T &self, const LoopLevel &level, const py::sequence &align) -> T & {
               return self.compute_with(level, to_align_list(align));
           },
           py::arg("loop_level"), py::arg("align"), self_ref)
        .def(
            "compute_with",
            [](T &self, const LoopLevel &level, LoopAlignStrategy align) -> T & {
                return self.compute_with(level, align);
            },
            py::arg("loop_level"), align_arg(), self_ref)
        .def(
            "compute_with",
            [](T &self, const py::object &stage, const py::object &var, const py::sequence &align) -> T & {
                return self.compute_with(to_stage(stage), to_var_or_rvar(var, "compute_with"), to_align_list(align));
            },
            py::arg("stage"), py::arg("var"), py::arg("align"), self_ref)
        .def(
            "compute_with",
            [](T &self, const py::object &stage, const py::object &var, LoopAlignStrategy align) -> T & {
                return self.compute_with(to_stage(stage), to_var_or_rvar(var, "compute_with"), align);
            },
            py::arg("stage"), py::arg("var"), align_arg(), self_ref);
}

} // namespace

void define_loop_level(py::module_ &m) {
    py::enum_<LoopAlignStrategy>(m, "LoopAlignStrategy")
        .value("AlignStart", LoopAlignStrategy::AlignStart)
        .value("AlignEnd", LoopAlignStrategy::AlignEnd)
        .value("NoAlign", LoopAlignStrategy::NoAlign)
        .value("Auto", LoopAlignStrategy::Auto);

    bound_class<LoopLevel>(m, "LoopLevel")
        .def(py::init<>())
        .def(py::init([](const Func &f, const py::object &var, int stage_index) {
                 return LoopLevel(f, to_var_or_rvar(var, "LoopLevel"), stage_index);
             }),
             py::arg("func"), py::arg("var"), py::arg("stage_index") = -1)
        .def_static("inlined", &LoopLevel::inlined)
        .def_static("root", &LoopLevel::root)
        .def("set", &LoopLevel::set, py::arg("other"))
        .def("stage_index", &LoopLevel::stage_index)
        .def("__repr__", [](const LoopLevel &) { return std::string("<halide.LoopLevel>"); });

    constexpr auto self_ref = py::return_value_policy::reference_internal;
    auto func = bound_class<Func>(m, "Func");
    func.def("compute_at", py::overload_cast<const LoopLevel &>(&Func::compute_at), py::arg("loop_level"), self_ref)
        .def("store_at", py::overload_cast<const LoopLevel &>(&Func::store_at), py::arg("loop_level"), self_ref)
        .def("hoist_storage", py::overload_cast<const LoopLevel &>(&Func::hoist_storage), py::arg("loop_level"),
             self_ref);
    add_compute_with(func);
    auto stage = bound_class<Stage>(m, "Stage");
    add_compute_with(stage);
}

} // namespace halide_py
