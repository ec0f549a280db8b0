// See DeviceAPI.h: the GPU and Hexagon scheduling directives of Func and
// Stage (recorded, refused when lowering: lower/CheckDeviceSchedules.cpp),
// and Buffer's device methods, which have no device to go to here.
#include "Halide/DeviceAPI.h"

#include <sstream>

#include "Halide/Buffer.h"
#include "Halide/Error.h"
#include "Halide/Func.h"
#include "Halide/IRPrinter.h"
#include "lower/Function.h"

namespace Halide {

using namespace Internal;

namespace Internal {

std::string device_api_name(DeviceAPI d) {
    switch (d) {
    case DeviceAPI::None: return "None";
    case DeviceAPI::Host: return "Host";
    case DeviceAPI::Default_GPU: return "Default_GPU";
    case DeviceAPI::CUDA: return "CUDA";
    case DeviceAPI::OpenCL: return "OpenCL";
    case DeviceAPI::Metal: return "Metal";
    case DeviceAPI::Hexagon: return "Hexagon";
    case DeviceAPI::HexagonDma: return "HexagonDma";
    case DeviceAPI::D3D12Compute: return "D3D12Compute";
    case DeviceAPI::Vulkan: return "Vulkan";
    case DeviceAPI::WebGPU: return "WebGPU";
    }
    return "unknown";
}

void no_device_for_buffer(const std::string &buffer, const char *method, DeviceAPI d, const Target &t) {
    DeviceAPI api = d == DeviceAPI::Default_GPU ? get_default_device_api_for_target(t) : d;
    if (api == DeviceAPI::None || api == DeviceAPI::Host) {
        user_error << "Buffer::" << method << " of Buffer '" << buffer << "': no device API for " << device_api_name(d)
                   << " in target " << t.to_string() << " (a GPU feature such as cuda, opencl or vulkan is needed)";
    }
    user_error << "Buffer::" << method << " of Buffer '" << buffer << "' to " << device_api_name(api)
               << ": this compiler has no " << device_api_name(api)
               << " backend (it runs pipelines on the host CPU only)";
}

} // namespace Internal

namespace {

// The schedule of `f` now asks for `d` (the first such request is kept).
void require_device(FunctionContents &f, DeviceAPI d) {
    if (f.device_api == DeviceAPI::None) {
        f.device_api = d;
    }
    mark_changed(f);
}

// copy_to_host/copy_to_device need f(x, y) = g(x, y): every value a call
// of one Func or buffer at the pure Vars in order, and no updates.
void check_plain_copy(const FunctionContents &f) {
    user_assert(f.defined()) << "Func " << f.name << " is scheduled as copy_to_host/device before it is defined";
    std::string callee;
    bool plain = f.updates.empty();
    for (const Expr &v : f.values) {
        const Call *c = v.as<Call>();
        plain = plain && c && (c->call_type == Call::Halide || c->call_type == Call::Image) &&
                (callee.empty() || callee == c->name) && c->args.size() == f.args.size();
        for (size_t i = 0; plain && i < f.args.size(); i++) {
            const Variable *a = c->args[i].as<Variable>();
            plain = a && a->name == f.args[i];
        }
        if (plain) {
            callee = c->name;
        }
    }
    if (!plain) {
        std::ostringstream value;
        for (size_t i = 0; i < f.values.size(); i++) {
            value << (i ? ", " : "") << f.values[i];
        }
        user_error << "Func " << f.name << " is scheduled as copy_to_host/device, but has value: " << value.str()
                   << (f.updates.empty() ? "" : " and update definitions")
                   << "\nExpected a single call to another Func with matching dimensionality and argument order.";
    }
}

} // namespace

// ---------------------------------------------------------------------------
// Func::copy_to_host / copy_to_device: on the host the copy is the Func's
// own loop nest (the same values); other devices are refused when lowering.

Func Func::copy_to_device(DeviceAPI d) {
    check_plain_copy(*f_);
    f_->buffer_copy = true;
    if (d == DeviceAPI::Host) {
        mark_changed(*f_);
    } else {
        require_device(*f_, d);
    }
    return *this;
}

Func Func::copy_to_host() {
    return copy_to_device(DeviceAPI::Host);
}

// ---------------------------------------------------------------------------
// Stage

Stage &Stage::gpu_threads(const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_threads(const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_threads(const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_lanes(const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_single_thread(DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_blocks(const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_blocks(const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_blocks(const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu(const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu(const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu(const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, const VarOrRVar &, const VarOrRVar &,
                  const VarOrRVar &, DeviceAPI device_api) {
    require_device(*f_, device_api);
    return *this;
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &x_size,
                       TailStrategy tail, DeviceAPI device_api) {
    split(x, bx, tx, x_size, tail);
    return gpu(bx, tx, device_api);
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &x_size, TailStrategy tail,
                       DeviceAPI device_api) {
    split(x, x, tx, x_size, tail);
    return gpu(x, tx, device_api);
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                       const VarOrRVar &tx, const VarOrRVar &ty, const Expr &x_size, const Expr &y_size,
                       TailStrategy tail, DeviceAPI device_api) {
    tile(x, y, bx, by, tx, ty, x_size, y_size, tail);
    return gpu(bx, by, tx, ty, device_api);
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty,
                       const Expr &x_size, const Expr &y_size, TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, x, y, tx, ty, x_size, y_size, tail, device_api);
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                       const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx, const VarOrRVar &ty,
                       const VarOrRVar &tz, const Expr &x_size, const Expr &y_size, const Expr &z_size,
                       TailStrategy tail, DeviceAPI device_api) {
    split(x, bx, tx, x_size, tail);
    split(y, by, ty, y_size, tail);
    split(z, bz, tz, z_size, tail);
    reorder(std::vector<VarOrRVar>{tx, ty, tz, bx, by, bz});
    return gpu(bx, by, bz, tx, ty, tz, device_api);
}
Stage &Stage::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                       const VarOrRVar &ty, const VarOrRVar &tz, const Expr &x_size, const Expr &y_size,
                       const Expr &z_size, TailStrategy tail, DeviceAPI device_api) {
    return gpu_tile(x, y, z, x, y, z, tx, ty, tz, x_size, y_size, z_size, tail, device_api);
}
Stage &Stage::hexagon(const VarOrRVar &) {
    require_device(*f_, DeviceAPI::Hexagon);
    return *this;
}

// ---------------------------------------------------------------------------
// Func: its pure definition's Stage.

#define HALIDE_FUNC_FORWARD(call)                                                                                      \
    Stage(function(), 0).call;                                                                                         \
    return *this

Func &Func::gpu_threads(const VarOrRVar &x, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_threads(x, d));
}
Func &Func::gpu_threads(const VarOrRVar &x, const VarOrRVar &y, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_threads(x, y, d));
}
Func &Func::gpu_threads(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_threads(x, y, z, d));
}
Func &Func::gpu_lanes(const VarOrRVar &x, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_lanes(x, d));
}
Func &Func::gpu_single_thread(DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_single_thread(d));
}
Func &Func::gpu_blocks(const VarOrRVar &x, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_blocks(x, d));
}
Func &Func::gpu_blocks(const VarOrRVar &x, const VarOrRVar &y, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_blocks(x, y, d));
}
Func &Func::gpu_blocks(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_blocks(x, y, z, d));
}
Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &tx, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu(bx, tx, d));
}
Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &tx, const VarOrRVar &ty, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu(bx, by, tx, ty, d));
}
Func &Func::gpu(const VarOrRVar &bx, const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx, const VarOrRVar &ty,
                const VarOrRVar &tz, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu(bx, by, bz, tx, ty, tz, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &bx, const VarOrRVar &tx, const Expr &xs, TailStrategy t,
                     DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, bx, tx, xs, t, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &tx, const Expr &xs, TailStrategy t, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, tx, xs, t, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &bx, const VarOrRVar &by,
                     const VarOrRVar &tx, const VarOrRVar &ty, const Expr &xs, const Expr &ys, TailStrategy t,
                     DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, y, bx, by, tx, ty, xs, ys, t, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &tx, const VarOrRVar &ty, const Expr &xs,
                     const Expr &ys, TailStrategy t, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, y, tx, ty, xs, ys, t, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &bx,
                     const VarOrRVar &by, const VarOrRVar &bz, const VarOrRVar &tx, const VarOrRVar &ty,
                     const VarOrRVar &tz, const Expr &xs, const Expr &ys, const Expr &zs, TailStrategy t, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, y, z, bx, by, bz, tx, ty, tz, xs, ys, zs, t, d));
}
Func &Func::gpu_tile(const VarOrRVar &x, const VarOrRVar &y, const VarOrRVar &z, const VarOrRVar &tx,
                     const VarOrRVar &ty, const VarOrRVar &tz, const Expr &xs, const Expr &ys, const Expr &zs,
                     TailStrategy t, DeviceAPI d) {
    HALIDE_FUNC_FORWARD(gpu_tile(x, y, z, tx, ty, tz, xs, ys, zs, t, d));
}
Func &Func::hexagon(const VarOrRVar &x) {
    HALIDE_FUNC_FORWARD(hexagon(x));
}

#undef HALIDE_FUNC_FORWARD

} // namespace Halide
