// hl.DeviceAPI and what takes one: the GPU and Hexagon schedules of Func
// and Stage (gpu_tile, gpu_blocks, gpu_threads, gpu_lanes, gpu_single_thread,
// gpu, hexagon), Target.supports_type / supports_device_api, and
// Buffer.copy_to_device / device_malloc. There is no GPU or Hexagon backend:
// the schedules are recorded and compiling them raises hl.HalideError
// naming the device (lower/CheckDeviceSchedules.cpp), as do the Buffer calls.
#include "py_compiler.h"

namespace halide_py {

using Halide::DeviceAPI;
using Halide::Func;
using Halide::Stage;
using Halide::TailStrategy;
using Halide::Target;
using Halide::Type;
using Halide::Var;
using Halide::VarOrRVar;

namespace {

py::arg_v device_arg() {
    return py::arg_v("device_api", DeviceAPI::Default_GPU, "DeviceAPI.Default_GPU");
}

// Upstream's default Target() is the JIT target of the environment.
Target jit_target(const Target &t) {
    return t.has_unknowns() ? Halide::get_jit_target_from_environment() : t;
}

VarOrRVar v(const py::object &o, const char *what) {
    return to_var_or_rvar(o, what);
}

// Func and Stage have the same methods (returning themselves), with
// upstream's overloads. The loops are any Var, RVar or RDom, the sizes
// anything that converts to an Expr; the overloads are registered from the
// fewest arguments up, so a TailStrategy or DeviceAPI in a trailing position
// picks the shorter form, as upstream's typed overloads do.
template <typename T> void add_device_schedule(py::class_<T> &cls) {
    constexpr auto self_ref = py::return_value_policy::reference_internal;
    using O = const py::object &;
    using E = const Halide::Expr &;
    cls.def(
           "gpu_threads", [](T &self, O tx, DeviceAPI d) -> T & { return self.gpu_threads(v(tx, "gpu_threads"), d); },
           py::arg("thread_x"), device_arg(), self_ref)
        .def(
            "gpu_threads",
            [](T &self, O tx, O ty, DeviceAPI d) -> T & {
                return self.gpu_threads(v(tx, "gpu_threads"), v(ty, "gpu_threads"), d);
            },
            py::arg("thread_x"), py::arg("thread_y"), device_arg(), self_ref)
        .def(
            "gpu_threads",
            [](T &self, O tx, O ty, O tz, DeviceAPI d) -> T & {
                return self.gpu_threads(v(tx, "gpu_threads"), v(ty, "gpu_threads"), v(tz, "gpu_threads"), d);
            },
            py::arg("thread_x"), py::arg("thread_y"), py::arg("thread_z"), device_arg(), self_ref)
        .def(
            "gpu_lanes", [](T &self, O tx, DeviceAPI d) -> T & { return self.gpu_lanes(v(tx, "gpu_lanes"), d); },
            py::arg("thread_x"), device_arg(), self_ref)
        .def(
            "gpu_single_thread", [](T &self, DeviceAPI d) -> T & { return self.gpu_single_thread(d); }, device_arg(),
            self_ref)
        .def(
            "gpu_blocks", [](T &self, O bx, DeviceAPI d) -> T & { return self.gpu_blocks(v(bx, "gpu_blocks"), d); },
            py::arg("block_x"), device_arg(), self_ref)
        .def(
            "gpu_blocks",
            [](T &self, O bx, O by, DeviceAPI d) -> T & {
                return self.gpu_blocks(v(bx, "gpu_blocks"), v(by, "gpu_blocks"), d);
            },
            py::arg("block_x"), py::arg("block_y"), device_arg(), self_ref)
        .def(
            "gpu_blocks",
            [](T &self, O bx, O by, O bz, DeviceAPI d) -> T & {
                return self.gpu_blocks(v(bx, "gpu_blocks"), v(by, "gpu_blocks"), v(bz, "gpu_blocks"), d);
            },
            py::arg("block_x"), py::arg("block_y"), py::arg("block_z"), device_arg(), self_ref)
        .def(
            "gpu", [](T &self, O bx, O tx, DeviceAPI d) -> T & { return self.gpu(v(bx, "gpu"), v(tx, "gpu"), d); },
            py::arg("block_x"), py::arg("thread_x"), device_arg(), self_ref)
        .def(
            "gpu",
            [](T &self, O bx, O by, O tx, O ty, DeviceAPI d) -> T & {
                return self.gpu(v(bx, "gpu"), v(by, "gpu"), v(tx, "gpu"), v(ty, "gpu"), d);
            },
            py::arg("block_x"), py::arg("block_y"), py::arg("thread_x"), py::arg("thread_y"), device_arg(), self_ref)
        .def(
            "gpu",
            [](T &self, O bx, O by, O bz, O tx, O ty, O tz, DeviceAPI d) -> T & {
                return self.gpu(v(bx, "gpu"), v(by, "gpu"), v(bz, "gpu"), v(tx, "gpu"), v(ty, "gpu"), v(tz, "gpu"), d);
            },
            py::arg("block_x"), py::arg("block_y"), py::arg("block_z"), py::arg("thread_x"), py::arg("thread_y"),
            py::arg("thread_z"), device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O tx, E x_size, TailStrategy tail, DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(tx, "gpu_tile"), x_size, tail, d);
            },
            py::arg("x"), py::arg("tx"), py::arg("x_size"), tail_arg(), device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O bx, O tx, E x_size, TailStrategy tail, DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(bx, "gpu_tile"), v(tx, "gpu_tile"), x_size, tail, d);
            },
            py::arg("x"), py::arg("bx"), py::arg("tx"), py::arg("x_size"), tail_arg(), device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O y, O tx, O ty, E x_size, E y_size, TailStrategy tail, DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(y, "gpu_tile"), v(tx, "gpu_tile"), v(ty, "gpu_tile"), x_size,
                                     y_size, tail, d);
            },
            py::arg("x"), py::arg("y"), py::arg("tx"), py::arg("ty"), py::arg("x_size"), py::arg("y_size"), tail_arg(),
            device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O y, O bx, O by, O tx, O ty, E x_size, E y_size, TailStrategy tail, DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(y, "gpu_tile"), v(bx, "gpu_tile"), v(by, "gpu_tile"),
                                     v(tx, "gpu_tile"), v(ty, "gpu_tile"), x_size, y_size, tail, d);
            },
            py::arg("x"), py::arg("y"), py::arg("bx"), py::arg("by"), py::arg("tx"), py::arg("ty"), py::arg("x_size"),
            py::arg("y_size"), tail_arg(), device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O y, O z, O tx, O ty, O tz, E x_size, E y_size, E z_size, TailStrategy tail,
               DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(y, "gpu_tile"), v(z, "gpu_tile"), v(tx, "gpu_tile"),
                                     v(ty, "gpu_tile"), v(tz, "gpu_tile"), x_size, y_size, z_size, tail, d);
            },
            py::arg("x"), py::arg("y"), py::arg("z"), py::arg("tx"), py::arg("ty"), py::arg("tz"), py::arg("x_size"),
            py::arg("y_size"), py::arg("z_size"), tail_arg(), device_arg(), self_ref)
        .def(
            "gpu_tile",
            [](T &self, O x, O y, O z, O bx, O by, O bz, O tx, O ty, O tz, E x_size, E y_size, E z_size,
               TailStrategy tail, DeviceAPI d) -> T & {
                return self.gpu_tile(v(x, "gpu_tile"), v(y, "gpu_tile"), v(z, "gpu_tile"), v(bx, "gpu_tile"),
                                     v(by, "gpu_tile"), v(bz, "gpu_tile"), v(tx, "gpu_tile"), v(ty, "gpu_tile"),
                                     v(tz, "gpu_tile"), x_size, y_size, z_size, tail, d);
            },
            py::arg("x"), py::arg("y"), py::arg("z"), py::arg("bx"), py::arg("by"), py::arg("bz"), py::arg("tx"),
            py::arg("ty"), py::arg("tz"), py::arg("x_size"), py::arg("y_size"), py::arg("z_size"), tail_arg(),
            device_arg(), self_ref)
        .def(
            "hexagon", [](T &self, O x) -> T & { return self.hexagon(v(x, "hexagon")); },
            py::arg_v("x", Var::outermost(), "Var.outermost()"), self_ref);
}

} // namespace

void define_device(py::module_ &m) {
    // Upstream's Python enum has these members (not HexagonDma, D3D12Compute
    // or WebGPU); the values are the C++ enumerators'.
    py::enum_<DeviceAPI>(m, "DeviceAPI")
        .value("None", DeviceAPI::None)
        .value("Host", DeviceAPI::Host)
        .value("Default_GPU", DeviceAPI::Default_GPU)
        .value("CUDA", DeviceAPI::CUDA)
        .value("Vulkan", DeviceAPI::Vulkan)
        .value("OpenCL", DeviceAPI::OpenCL)
        .value("Metal", DeviceAPI::Metal)
        .value("Hexagon", DeviceAPI::Hexagon);

    auto func = bound_class<Func>(m, "Func");
    add_device_schedule(func);
    // A plain copy Func (f[x] = g[x]) made a buffer copy: on the host, its
    // own loop nest; to another device, refused when compiled.
    func.def("copy_to_host", &Func::copy_to_host)
        .def("copy_to_device", &Func::copy_to_device,
             py::arg_v("device_api", DeviceAPI::Default_GPU, "DeviceAPI.Default_GPU"));
    auto stage = bound_class<Stage>(m, "Stage");
    add_device_schedule(stage);

    bound_class<Target>(m, "Target")
        .def(
            "supports_type", [](const Target &t, const Type &type) { return t.supports_type(type); }, py::arg("type"))
        .def(
            "supports_type", [](const Target &t, const Type &type, DeviceAPI d) { return t.supports_type(type, d); },
            py::arg("type"), py::arg("device"))
        .def("supports_device_api", &Target::supports_device_api, py::arg("device"));

    m.def("target_feature_for_device_api", &Halide::target_feature_for_device_api);
    m.def("host_supports_target_device", &Halide::host_supports_target_device);

    // No device to copy to or allocate on: a HalideError naming the device
    // asked for (or the missing GPU feature of the target).
    bound_class<Halide::Buffer<>>(m, "Buffer")
        .def(
            "copy_to_device", [](Halide::Buffer<> &b, const Target &t) { return b.copy_to_device(jit_target(t)); },
            target_arg())
        .def(
            "copy_to_device",
            [](Halide::Buffer<> &b, DeviceAPI d, const Target &t) { return b.copy_to_device(d, jit_target(t)); },
            py::arg("device_api"), target_arg())
        .def(
            "device_malloc", [](Halide::Buffer<> &b, const Target &t) { return b.device_malloc(jit_target(t)); },
            target_arg())
        .def(
            "device_malloc",
            [](Halide::Buffer<> &b, DeviceAPI d, const Target &t) { return b.device_malloc(d, jit_target(t)); },
            py::arg("device_api"), target_arg());
}

} // namespace halide_py
