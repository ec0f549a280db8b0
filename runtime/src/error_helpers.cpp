// The halide_error_* helpers that kernels call when a check fails. Each one
// formats a message naming what was wrong, hands it to halide_error, and
// returns its standard code; the kernel returns that code unchanged.
#include <cinttypes>
#include <cstdarg>
#include <cstdio>

#include "HalideRuntime.h"

namespace {

__attribute__((format(printf, 3, 4))) int report(void *user_context, int code, const char *fmt, ...) {
    char message[1024];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(message, sizeof(message), fmt, args);
    va_end(args);
    halide_error(user_context, message);
    return code;
}

// Renders a halide_type_t word ("uint8", "float32", ...) for messages.
void type_name(uint32_t word, char *out, size_t size) {
    static const char *const codes[] = {"int", "uint", "float", "handle", "bfloat"};
    unsigned code = word & 0xff, bits = (word >> 8) & 0xff;
    if (code == halide_type_uint && bits == 1) {
        std::snprintf(out, size, "bool");
    } else if (code < 5) {
        std::snprintf(out, size, "%s%u", codes[code], bits);
    } else {
        std::snprintf(out, size, "<type code %u, %u bits>", code, bits);
    }
}

const char *or_unnamed(const char *s) {
    return s ? s : "<unnamed>";
}

} // namespace

extern "C" {

int halide_error_bounds_inference_call_failed(void *uc, const char *extern_stage_name, int result) {
    return report(uc, result, "Bounds inference call to external stage %s returned non-zero value: %d",
                  or_unnamed(extern_stage_name), result);
}

int halide_error_extern_stage_failed(void *uc, const char *extern_stage_name, int result) {
    return report(uc, result, "Call to external stage %s returned non-zero value: %d", or_unnamed(extern_stage_name),
                  result);
}

int halide_error_explicit_bounds_too_small(void *uc, const char *func_name, const char *var_name, int min_bound,
                                           int max_bound, int min_required, int max_required) {
    return report(uc, halide_error_code_explicit_bounds_too_small,
                  "Bounds given for %s in %s (from %d to %d) do not cover required region (from %d to %d)",
                  or_unnamed(var_name), or_unnamed(func_name), min_bound, max_bound, min_required, max_required);
}

int halide_error_bad_type(void *uc, const char *func_name, uint32_t type_given, uint32_t correct_type) {
    char given[48], correct[48];
    type_name(type_given, given, sizeof(given));
    type_name(correct_type, correct, sizeof(correct));
    return report(uc, halide_error_code_bad_type, "%s has type %s but type of the buffer passed in is %s",
                  or_unnamed(func_name), correct, given);
}

int halide_error_bad_dimensions(void *uc, const char *func_name, int32_t dimensions_given, int32_t correct_dimensions) {
    return report(uc, halide_error_code_bad_dimensions,
                  "%s requires a buffer of exactly %d dimensions, but the buffer passed in has %d dimensions",
                  or_unnamed(func_name), correct_dimensions, dimensions_given);
}

int halide_error_access_out_of_bounds(void *uc, const char *func_name, int dimension, int min_touched, int max_touched,
                                      int min_valid, int max_valid) {
    if (min_touched < min_valid) {
        return report(uc, halide_error_code_access_out_of_bounds,
                      "%s is accessed at %d, which is before the min (%d) in dimension %d", or_unnamed(func_name),
                      min_touched, min_valid, dimension);
    }
    return report(uc, halide_error_code_access_out_of_bounds,
                  "%s is accessed at %d, which is beyond the max (%d) in dimension %d", or_unnamed(func_name),
                  max_touched, max_valid, dimension);
}

int halide_error_buffer_allocation_too_large(void *uc, const char *buffer_name, uint64_t allocation_size,
                                             uint64_t max_size) {
    return report(uc, halide_error_code_buffer_allocation_too_large,
                  "Total allocation for buffer %s is %" PRIu64 ", which exceeds the maximum size of %" PRIu64,
                  or_unnamed(buffer_name), allocation_size, max_size);
}

int halide_error_buffer_extents_negative(void *uc, const char *buffer_name, int dimension, int extent) {
    return report(uc, halide_error_code_buffer_extents_negative,
                  "The extents for buffer %s dimension %d is negative (%d)", or_unnamed(buffer_name), dimension,
                  extent);
}

int halide_error_buffer_extents_too_large(void *uc, const char *buffer_name, int64_t actual_size, int64_t max_size) {
    return report(uc, halide_error_code_buffer_extents_too_large,
                  "Product of extents for buffer %s is %" PRId64 ", which exceeds the maximum size of %" PRId64,
                  or_unnamed(buffer_name), actual_size, max_size);
}

int halide_error_constraints_make_required_region_smaller(void *uc, const char *buffer_name, int dimension,
                                                          int constrained_min, int constrained_extent, int required_min,
                                                          int required_extent) {
    return report(uc, halide_error_code_constraints_make_required_region_smaller,
                  "Applying the constraints on %s to the required region made it smaller in dimension %d: "
                  "required [%d, %d], constrained [%d, %d]",
                  or_unnamed(buffer_name), dimension, required_min, required_min + required_extent - 1, constrained_min,
                  constrained_min + constrained_extent - 1);
}

int halide_error_constraint_violated(void *uc, const char *var, int val, const char *constrained_var,
                                     int constrained_val) {
    return report(uc, halide_error_code_constraint_violated, "Constraint violated: %s (%d) == %s (%d)", or_unnamed(var),
                  val, or_unnamed(constrained_var), constrained_val);
}

int halide_error_param_too_small_i64(void *uc, const char *param_name, int64_t val, int64_t min_val) {
    return report(uc, halide_error_code_param_too_small, "Parameter %s is %" PRId64 " but must be at least %" PRId64,
                  or_unnamed(param_name), val, min_val);
}

int halide_error_param_too_small_u64(void *uc, const char *param_name, uint64_t val, uint64_t min_val) {
    return report(uc, halide_error_code_param_too_small, "Parameter %s is %" PRIu64 " but must be at least %" PRIu64,
                  or_unnamed(param_name), val, min_val);
}

int halide_error_param_too_small_f64(void *uc, const char *param_name, double val, double min_val) {
    return report(uc, halide_error_code_param_too_small, "Parameter %s is %.17g but must be at least %.17g",
                  or_unnamed(param_name), val, min_val);
}

int halide_error_param_too_large_i64(void *uc, const char *param_name, int64_t val, int64_t max_val) {
    return report(uc, halide_error_code_param_too_large, "Parameter %s is %" PRId64 " but must be at most %" PRId64,
                  or_unnamed(param_name), val, max_val);
}

int halide_error_param_too_large_u64(void *uc, const char *param_name, uint64_t val, uint64_t max_val) {
    return report(uc, halide_error_code_param_too_large, "Parameter %s is %" PRIu64 " but must be at most %" PRIu64,
                  or_unnamed(param_name), val, max_val);
}

int halide_error_param_too_large_f64(void *uc, const char *param_name, double val, double max_val) {
    return report(uc, halide_error_code_param_too_large, "Parameter %s is %.17g but must be at most %.17g",
                  or_unnamed(param_name), val, max_val);
}

int halide_error_out_of_memory(void *uc) {
    return report(uc, halide_error_code_out_of_memory, "%s", "Out of memory (halide_malloc returned NULL)");
}

int halide_error_buffer_argument_is_null(void *uc, const char *buffer_name) {
    return report(uc, halide_error_code_buffer_argument_is_null, "Buffer argument %s is NULL", or_unnamed(buffer_name));
}

int halide_error_debug_to_file_failed(void *uc, const char *func, const char *filename, int error_code) {
    return report(uc, halide_error_code_debug_to_file_failed, "Failed to dump function %s to file %s with error %d",
                  or_unnamed(func), or_unnamed(filename), error_code);
}

int halide_error_unaligned_host_ptr(void *uc, const char *func_name, int alignment) {
    return report(uc, halide_error_code_unaligned_host_ptr,
                  "The host pointer of %s is not aligned to a %d bytes boundary", or_unnamed(func_name), alignment);
}

int halide_error_host_is_null(void *uc, const char *func_name) {
    return report(uc, halide_error_code_host_is_null,
                  "The host pointer of %s is null, but the pipeline will access it on the host", or_unnamed(func_name));
}

int halide_error_bad_fold(void *uc, const char *func_name, const char *var_name, const char *loop_name) {
    return report(uc, halide_error_code_bad_fold,
                  "The folded storage dimension %s of %s was accessed out of order by loop %s", or_unnamed(var_name),
                  or_unnamed(func_name), or_unnamed(loop_name));
}

int halide_error_bad_extern_fold(void *uc, const char *func_name, int dim, int min, int extent, int valid_min,
                                 int fold_factor) {
    return report(uc, halide_error_code_bad_extern_fold,
                  "The folded storage dimension %d of %s was accessed at [%d, %d], which crosses a fold boundary "
                  "(valid from %d, fold factor %d)",
                  dim, or_unnamed(func_name), min, min + extent - 1, valid_min, fold_factor);
}

int halide_error_fold_factor_too_small(void *uc, const char *func_name, const char *var_name, int fold_factor,
                                       const char *loop_name, int required_extent) {
    return report(uc, halide_error_code_fold_factor_too_small,
                  "The fold factor (%d) of dimension %s of %s is too small to store the required region accessed "
                  "by loop %s (%d)",
                  fold_factor, or_unnamed(var_name), or_unnamed(func_name), or_unnamed(loop_name), required_extent);
}

int halide_error_requirement_failed(void *uc, const char *condition, const char *message) {
    return report(uc, halide_error_code_requirement_failed, "Requirement Failed: (%s) %s", or_unnamed(condition),
                  message ? message : "");
}

int halide_error_specialize_fail(void *uc, const char *message) {
    return report(uc, halide_error_code_specialize_fail, "A schedule specialized with specialize_fail() was chosen: %s",
                  message ? message : "");
}

int halide_error_no_device_interface(void *uc) {
    return report(uc, halide_error_code_no_device_interface, "%s",
                  "Buffer has a non-zero device but no device interface");
}

int halide_error_device_interface_no_device(void *uc) {
    return report(uc, halide_error_code_device_interface_no_device, "%s",
                  "Buffer has a device interface but no device allocation");
}

int halide_error_host_and_device_dirty(void *uc) {
    return report(uc, halide_error_code_host_and_device_dirty, "%s", "Buffer has both host and device dirty bits set");
}

int halide_error_buffer_is_null(void *uc, const char *routine) {
    return report(uc, halide_error_code_buffer_is_null, "Buffer pointer passed to %s is null", or_unnamed(routine));
}

int halide_error_device_dirty_with_no_device_support(void *uc, const char *buffer_name) {
    return report(uc, halide_error_code_device_dirty_with_no_device_support,
                  "Buffer %s is dirty on the device, but this pipeline was compiled with no support for device to "
                  "host copies",
                  or_unnamed(buffer_name));
}

int halide_error_storage_bound_too_small(void *uc, const char *func_name, const char *var_name, int provided_size,
                                         int required_size) {
    return report(
        uc, halide_error_code_storage_bound_too_small,
        "The explicit allocation bound (%d) of dimension %s of %s is too small to store the required region (%d).",
        provided_size, or_unnamed(var_name), or_unnamed(func_name), required_size);
}

int halide_error_device_crop_failed(void *uc) {
    return report(uc, halide_error_code_device_crop_failed, "%s",
                  "Buffer could not be cropped (fully or partially) on the device");
}

int halide_error_split_factor_not_positive(void *uc, const char *func_name, const char *orig, const char *outer,
                                           const char *inner, const char *factor_str, int factor) {
    return report(uc, halide_error_code_split_factor_not_positive,
                  "In schedule for %s, the factor (%s = %d) splitting %s into %s and %s must be positive",
                  or_unnamed(func_name), or_unnamed(factor_str), factor, or_unnamed(orig), or_unnamed(outer),
                  or_unnamed(inner));
}

} // extern "C"
