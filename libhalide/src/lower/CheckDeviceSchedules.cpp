// See Passes.h: a Func scheduled for a GPU or Hexagon (gpu_tile,
// gpu_blocks, hexagon, ...) cannot be compiled here. The error is
// upstream's when the target lacks the device's feature, and names the
// missing backend when it has it.
#include "Halide/DeviceAPI.h"
#include "Halide/Error.h"
#include "lower/Passes.h"

namespace Halide {
namespace Internal {

void check_device_schedules(const Environment &env, const Target &target) {
    for (const auto &[name, f] : env) {
        DeviceAPI d = f->device_api;
        if (d == DeviceAPI::None || d == DeviceAPI::Host) {
            continue;
        }
        const std::string &shown = f->original ? f->original->name : name;
        // copy_to_device(): upstream's copy is an extern stage, with its error.
        user_assert(!f->buffer_copy || target.supports_device_api(d))
            << "Func " << shown << " has an extern definition that may leave the output with a dirty <"
            << device_api_name(d) << "> device allocation, but no compatible target feature is enabled in target "
            << target.to_string() << ", so the pipeline would not be able to copy back the result.";
        user_assert(target.supports_device_api(d))
            << "Schedule for Func " << shown << " requires <" << device_api_name(d)
            << "> but no compatible target feature is enabled in target " << target.to_string();
        DeviceAPI api = d == DeviceAPI::Default_GPU ? get_default_device_api_for_target(target) : d;
        user_error << "Schedule for Func " << shown << " requires <" << device_api_name(api)
                   << ">, but this compiler has no " << device_api_name(api)
                   << " backend: it compiles for the host CPU only (remove the GPU/Hexagon schedule)";
    }
}

} // namespace Internal
} // namespace Halide
