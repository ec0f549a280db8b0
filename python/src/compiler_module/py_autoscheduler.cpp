// Autoscheduling from Python, as upstream's module has it: hl.load_plugin,
// Pipeline.apply_autoscheduler(target, autoscheduler_params) and the
// hl.AutoSchedulerResults it returns. hl.AutoschedulerParams is the Python
// class of halide._generator (a name and a dict of options).
#include "py_compiler.h"

namespace halide_py {

using Halide::AutoschedulerParams;
using Halide::AutoSchedulerResults;
using Halide::Pipeline;

namespace {

AutoschedulerParams params_from_python(const py::handle &params) {
    py::object cls = py::module_::import("halide._generator").attr("AutoschedulerParams");
    if (!py::isinstance(params, cls)) {
        throw py::type_error("apply_autoscheduler() takes a halide.AutoschedulerParams, got " +
                             std::string(py::str(py::type::of(params).attr("__name__"))));
    }
    AutoschedulerParams out;
    out.name = params.attr("name").cast<std::string>();
    out.extra = params.attr("extra").cast<std::map<std::string, std::string>>();
    return out;
}

py::object params_to_python(const AutoschedulerParams &params) {
    py::object cls = py::module_::import("halide._generator").attr("AutoschedulerParams");
    return cls(params.name, params.extra);
}

} // namespace

void define_autoscheduler(py::module_ &m) {
    m.def("load_plugin", &Halide::load_plugin, py::arg("lib_name"));

    py::class_<AutoSchedulerResults>(m, "AutoSchedulerResults")
        .def(py::init<>())
        .def_readwrite("target", &AutoSchedulerResults::target)
        .def_property(
            "autoscheduler_params",
            [](const AutoSchedulerResults &r) { return params_to_python(r.autoscheduler_params); },
            [](AutoSchedulerResults &r, const py::handle &p) { r.autoscheduler_params = params_from_python(p); })
        .def_readwrite("schedule_source", &AutoSchedulerResults::schedule_source)
        .def_readwrite("featurization", &AutoSchedulerResults::featurization)
        .def("__repr__", [](const AutoSchedulerResults &r) {
            return "<halide.AutoSchedulerResults for " + r.autoscheduler_params.name + " on " + r.target.to_string() +
                   ">";
        });

    auto pipeline = bound_class<Pipeline>(m, "Pipeline");
    pipeline.def(
        "apply_autoscheduler",
        [](const Pipeline &self, const Halide::Target &target, const py::handle &params) {
            return self.apply_autoscheduler(target, params_from_python(params));
        },
        py::arg("target"), py::arg("autoscheduler_params"));
}

} // namespace halide_py
