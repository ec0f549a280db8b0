// hl.Module, hl.LinkageType, hl.link_modules and compile_to_module on Func
// and Pipeline: lowered code not yet written out (Halide/Module.h).
#include "Halide/Module.h"
#include "py_compiler.h"

namespace halide_py {

using Halide::Module;

void define_module(py::module_ &m) {
    py::enum_<Halide::LinkageType>(m, "LinkageType")
        .value("External", Halide::LinkageType::External)
        .value("ExternalPlusMetadata", Halide::LinkageType::ExternalPlusMetadata)
        .value("ExternalPlusArgv", Halide::LinkageType::ExternalPlusArgv)
        .value("Internal", Halide::LinkageType::Internal);

    py::class_<Module>(m, "Module")
        .def(py::init<const std::string &, const Halide::Target &>(), py::arg("name"), py::arg("target"))
        .def("target", &Module::target)
        .def("name", &Module::name)
        .def("buffers", &Module::buffers)
        .def("submodules", &Module::submodules)
        .def("append", py::overload_cast<const Halide::Buffer<void> &>(&Module::append), py::arg("buffer"))
        .def("append", py::overload_cast<const Module &>(&Module::append), py::arg("module"))
        .def("compile", &Module::compile, py::arg("outputs"))
        .def("compile_to_buffer", [](const Module &self) { return Halide::Buffer<>(self.compile_to_buffer()); })
        .def("resolve_submodules", &Module::resolve_submodules)
        .def("remap_metadata_name", &Module::remap_metadata_name)
        .def("get_metadata_name_map", &Module::get_metadata_name_map)
        // A copy (None when no autoscheduler ran): upstream hands out the
        // module's own object, which Python then frees twice.
        .def("get_auto_scheduler_results",
             [](const Module &self) -> std::optional<Halide::AutoSchedulerResults> {
                 const Halide::AutoSchedulerResults *r = self.get_auto_scheduler_results();
                 return r ? std::optional<Halide::AutoSchedulerResults>(*r) : std::nullopt;
             })
        .def("set_auto_scheduler_results", &Module::set_auto_scheduler_results, py::arg("results"))
        .def("__repr__", [](const Module &self) {
            return "<halide.Module '" + self.name() + "' for " + self.target().to_string() + ">";
        });

    m.def("link_modules", &Halide::link_modules, py::arg("name"), py::arg("modules"));

    // Upstream's default Target() means the target from HL_TARGET.
    bound_class<Halide::Func>(m, "Func").def(
        "compile_to_module",
        [](Halide::Func &self, const std::vector<Halide::Argument> &args, const std::string &fn_name,
           const Halide::Target &target) {
            return self.compile_to_module(args, fn_name,
                                          target.has_unknowns() ? Halide::get_target_from_environment() : target);
        },
        py::arg("arguments"), py::arg("fn_name") = "", target_arg());
    bound_class<Halide::Pipeline>(m, "Pipeline")
        .def(
            "compile_to_module",
            [](Halide::Pipeline &self, const std::vector<Halide::Argument> &args, const std::string &fn_name,
               const Halide::Target &target, Halide::LinkageType linkage) {
                return self.compile_to_module(
                    args, fn_name, target.has_unknowns() ? Halide::get_target_from_environment() : target, linkage);
            },
            py::arg("arguments"), py::arg("fn_name"), target_arg(),
            py::arg_v("linkage", Halide::LinkageType::ExternalPlusMetadata, "LinkageType.ExternalPlusMetadata"));
}

} // namespace halide_py
