// Device entry points for a CPU-only runtime. A buffer with no device side
// makes them no-ops; a buffer that does have one is served through its own
// device_interface (which belongs to whichever runtime allocated it), and
// anything that needs a device we do not have fails with the standard code.
#include "HalideRuntime.h"

extern "C" {

int halide_copy_to_host(void *user_context, struct halide_buffer_t *buf) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_copy_to_host");
    }
    if (!(buf->flags & halide_buffer_flag_device_dirty)) {
        return halide_error_code_success;
    }
    if (!buf->device_interface) {
        return halide_error_no_device_interface(user_context);
    }
    return buf->device_interface->copy_to_host(user_context, buf);
}

int halide_copy_to_device(void *user_context, struct halide_buffer_t *buf,
                          const struct halide_device_interface_t *device_interface) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_copy_to_device");
    }
    const halide_device_interface_t *iface = device_interface ? device_interface : buf->device_interface;
    if (!iface) {
        return halide_error_no_device_interface(user_context);
    }
    return iface->copy_to_device(user_context, buf, iface);
}

int halide_device_sync(void *user_context, struct halide_buffer_t *buf) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_device_sync");
    }
    return buf->device_interface ? buf->device_interface->device_sync(user_context, buf) : 0;
}

int halide_device_malloc(void *user_context, struct halide_buffer_t *buf,
                         const struct halide_device_interface_t *device_interface) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_device_malloc");
    }
    if (!device_interface) {
        return halide_error_no_device_interface(user_context);
    }
    return device_interface->device_malloc(user_context, buf, device_interface);
}

int halide_device_free(void *user_context, struct halide_buffer_t *buf) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_device_free");
    }
    if (buf->device_interface) {
        return buf->device_interface->device_free(user_context, buf);
    }
    if (buf->device != 0) {
        return halide_error_device_interface_no_device(user_context);
    }
    buf->flags &= ~(uint64_t)halide_buffer_flag_device_dirty;
    return halide_error_code_success;
}

void halide_device_free_as_destructor(void *user_context, void *buf) {
    (void)halide_device_free(user_context, static_cast<halide_buffer_t *>(buf));
}

int halide_device_detach_native(void *user_context, struct halide_buffer_t *buf) {
    if (!buf) {
        return halide_error_buffer_is_null(user_context, "halide_device_detach_native");
    }
    return buf->device_interface ? buf->device_interface->detach_native(user_context, buf) : 0;
}

void halide_device_release(void *user_context, const struct halide_device_interface_t *device_interface) {
    if (device_interface) {
        device_interface->device_release(user_context, device_interface);
    }
}

} // extern "C"

extern "C" int halide_reuse_device_allocations(void * /*user_context*/, bool /*reuse*/) {
    return halide_error_code_success; // nothing is allocated on a device here
}
