// Halide::DeviceAPI: where a loop or a buffer's data lives, as upstream's.
// This compiler generates code for the host CPU only: the GPU and Hexagon
// scheduling directives that take one are accepted, and compiling a
// pipeline that uses them fails with a CompileError naming the device.
#ifndef HALIDE_DEVICEAPI_H
#define HALIDE_DEVICEAPI_H

#include <string>

namespace Halide {

enum class DeviceAPI {
    None, // the same device as the enclosing code
    Host,
    Default_GPU, // the target's GPU API (see Target::get_required_device_api)
    CUDA,
    OpenCL,
    Metal,
    Hexagon,
    HexagonDma,
    D3D12Compute,
    Vulkan,
    WebGPU,
};

const DeviceAPI all_device_apis[] = {DeviceAPI::None,    DeviceAPI::Host,       DeviceAPI::Default_GPU,
                                     DeviceAPI::CUDA,    DeviceAPI::OpenCL,     DeviceAPI::Metal,
                                     DeviceAPI::Hexagon, DeviceAPI::HexagonDma, DeviceAPI::D3D12Compute,
                                     DeviceAPI::Vulkan,  DeviceAPI::WebGPU};

namespace Internal {
// "CUDA", "Default_GPU", ... (the enumerator's name).
std::string device_api_name(DeviceAPI d);
} // namespace Internal

} // namespace Halide

#endif
