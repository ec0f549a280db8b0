// hl.MemoryType and where a Func's storage lives: Func.store_in,
// hoist_storage / hoist_storage_root, bound_storage and align_storage; a buffer
// argument's OutputImageParam.store_in and host alignment.
#include "py_compiler.h"

namespace halide_py {

using Halide::Func;
using Halide::MemoryType;
using Halide::RVar;
using Halide::Var;

void define_storage(py::module_ &m) {
    // Upstream's Python enum has these members (not AMXTile).
    py::enum_<MemoryType>(m, "MemoryType")
        .value("Auto", MemoryType::Auto)
        .value("Heap", MemoryType::Heap)
        .value("Stack", MemoryType::Stack)
        .value("Register", MemoryType::Register)
        .value("GPUShared", MemoryType::GPUShared)
        .value("GPUTexture", MemoryType::GPUTexture)
        .value("LockedCache", MemoryType::LockedCache)
        .value("VTCM", MemoryType::VTCM);

    constexpr auto self_ref = py::return_value_policy::reference_internal;
    bound_class<Func>(m, "Func")
        .def("store_in", &Func::store_in, py::arg("memory_type"), self_ref)
        .def("hoist_storage", py::overload_cast<const Func &, const Var &>(&Func::hoist_storage), py::arg("f"),
             py::arg("var"), self_ref)
        .def("hoist_storage", py::overload_cast<const Func &, const RVar &>(&Func::hoist_storage), py::arg("f"),
             py::arg("rvar"), self_ref)
        .def("hoist_storage_root", &Func::hoist_storage_root, self_ref)
        .def(
            "bound_storage",
            [](Func &f, const Var &dim, const py::object &bound) -> Func & {
                return f.bound_storage(dim, to_expr(bound, "bound"));
            },
            py::arg("dim"), py::arg("bound"), self_ref)
        .def(
            "align_storage",
            [](Func &f, const Var &dim, const py::object &alignment) -> Func & {
                return f.align_storage(dim, to_expr(alignment, "alignment"));
            },
            py::arg("dim"), py::arg("alignment"), self_ref);
    // A buffer argument's memory and host pointer alignment, as upstream's.
    bound_class<Halide::OutputImageParam>(m, "OutputImageParam")
        .def("store_in", &Halide::OutputImageParam::store_in, py::arg("memory_type"), self_ref)
        .def("host_alignment", &Halide::OutputImageParam::host_alignment)
        .def("set_host_alignment", &Halide::OutputImageParam::set_host_alignment, py::arg("bytes"), self_ref);
}

} // namespace halide_py
