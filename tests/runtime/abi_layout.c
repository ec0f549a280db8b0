/*
 * abi_layout.c: pins the binary layout of HalideRuntime.h to the facts in
 * design/ABI.md sections 1-5 (x86-64 Linux): every struct size, alignment
 * and field offset, the halide_type_t word, and every enum value kernels
 * depend on (type codes, argument kinds, buffer flags, error codes).
 *
 * Plain C11 on purpose: kernels and loaders see the header as C. The same
 * checks are compiled as C++ by abi_layout_cpp.cpp, which includes this
 * file, so the C++ view of the header (constructors, typed enums) is held
 * to the same layout.
 *
 * Prints one line per failed check and exits with the number of failures
 * (capped at 255), or 0 when everything matches.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "HalideRuntime.h"

#ifdef __cplusplus
#define ABI_ALIGNOF(T) alignof(T)
#define ABI_LANGUAGE "C++"
#else
#define ABI_ALIGNOF(T) _Alignof(T)
#define ABI_LANGUAGE "C"
#endif

static int abi_failures = 0;
static int abi_checks = 0;

static void abi_expect(const char *what, long long actual, long long expected) {
    abi_checks++;
    if (actual != expected) {
        abi_failures++;
        printf("FAIL [%s] %s: got %lld, expected %lld\n", ABI_LANGUAGE, what, actual, expected);
    }
}

/* Size of one member, without needing an object. */
#define ABI_MEMBER_SIZE(T, m) sizeof(((T *)0)->m)

#define EXPECT_SIZE(T, n) abi_expect("sizeof(" #T ")", (long long)sizeof(T), (n))
#define EXPECT_ALIGN(T, n) abi_expect("alignof(" #T ")", (long long)ABI_ALIGNOF(T), (n))
#define EXPECT_OFFSET(T, m, n) abi_expect("offsetof(" #T ", " #m ")", (long long)offsetof(T, m), (n))
#define EXPECT_FIELD(T, m, off, size)                                                                                  \
    do {                                                                                                               \
        EXPECT_OFFSET(T, m, off);                                                                                      \
        abi_expect("sizeof(" #T "." #m ")", (long long)ABI_MEMBER_SIZE(T, m), (size));                                 \
    } while (0)
#define EXPECT_VALUE(name, n) abi_expect(#name, (long long)(name), (n))

/* ---- Section 1: element types --------------------------------------- */
static void check_types(void) {
    EXPECT_VALUE(halide_type_int, 0);
    EXPECT_VALUE(halide_type_uint, 1);
    EXPECT_VALUE(halide_type_float, 2);
    EXPECT_VALUE(halide_type_handle, 3);
    EXPECT_VALUE(halide_type_bfloat, 4);

    EXPECT_SIZE(struct halide_type_t, 4);
    EXPECT_ALIGN(struct halide_type_t, 2);
    EXPECT_FIELD(struct halide_type_t, code, 0, 1);
    EXPECT_FIELD(struct halide_type_t, bits, 1, 1);
    EXPECT_FIELD(struct halide_type_t, lanes, 2, 2);
    EXPECT_FIELD(struct halide_type_t, reserved, 2, 2);

    /* The 32-bit word kernels compare: code | bits << 8 | lanes << 16.
     * uint8 with lanes = 1 (Halide 14) is 0x00010801. */
    {
        struct halide_type_t t;
        uint32_t word = 0;
        /* code, bits and lanes together cover all four bytes. */
        t.code = halide_type_uint;
        t.bits = 8;
        t.lanes = 1;
        memcpy(&word, &t, sizeof(word));
        abi_expect("type word of uint8 (lanes=1)", (long long)word, 0x00010801LL);
        t.code = halide_type_float;
        t.bits = 32;
        t.reserved = 0;
        memcpy(&word, &t, sizeof(word));
        abi_expect("type word of float32 (reserved=0)", (long long)word, 0x00002002LL);
    }
}

/* ---- Section 2: dimensions, buffers, device interface ---------------- */
static void check_buffers(void) {
    EXPECT_SIZE(halide_dimension_t, 16);
    EXPECT_ALIGN(halide_dimension_t, 4);
    EXPECT_FIELD(halide_dimension_t, min, 0, 4);
    EXPECT_FIELD(halide_dimension_t, extent, 4, 4);
    EXPECT_FIELD(halide_dimension_t, stride, 8, 4);
    EXPECT_FIELD(halide_dimension_t, flags, 12, 4);

    EXPECT_SIZE(halide_buffer_t, 56);
    EXPECT_ALIGN(halide_buffer_t, 8);
    EXPECT_FIELD(halide_buffer_t, device, 0, 8);
    EXPECT_FIELD(halide_buffer_t, device_interface, 8, 8);
    EXPECT_FIELD(halide_buffer_t, host, 16, 8);
    EXPECT_FIELD(halide_buffer_t, flags, 24, 8);
    EXPECT_FIELD(halide_buffer_t, type, 32, 4);
    EXPECT_FIELD(halide_buffer_t, dimensions, 36, 4);
    EXPECT_FIELD(halide_buffer_t, dim, 40, 8);
    EXPECT_FIELD(halide_buffer_t, padding, 48, 8);

    EXPECT_VALUE(halide_buffer_flag_host_dirty, 1);
    EXPECT_VALUE(halide_buffer_flag_device_dirty, 2);

    EXPECT_SIZE(struct halide_device_interface_t, 128);
    EXPECT_ALIGN(struct halide_device_interface_t, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_malloc, 0, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_free, 8, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_sync, 16, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_release, 24, 8);
    EXPECT_FIELD(struct halide_device_interface_t, copy_to_host, 32, 8);
    EXPECT_FIELD(struct halide_device_interface_t, copy_to_device, 40, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_and_host_malloc, 48, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_and_host_free, 56, 8);
    EXPECT_FIELD(struct halide_device_interface_t, buffer_copy, 64, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_crop, 72, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_slice, 80, 8);
    EXPECT_FIELD(struct halide_device_interface_t, device_release_crop, 88, 8);
    EXPECT_FIELD(struct halide_device_interface_t, wrap_native, 96, 8);
    EXPECT_FIELD(struct halide_device_interface_t, detach_native, 104, 8);
    EXPECT_FIELD(struct halide_device_interface_t, compute_capability, 112, 8);
    EXPECT_FIELD(struct halide_device_interface_t, impl, 120, 8);
}

/* ---- Section 3: metadata --------------------------------------------- */
static void check_metadata(void) {
    EXPECT_SIZE(halide_scalar_value_t, 8);
    EXPECT_ALIGN(halide_scalar_value_t, 8);
    EXPECT_FIELD(halide_scalar_value_t, u.b, 0, 1);
    EXPECT_FIELD(halide_scalar_value_t, u.i8, 0, 1);
    EXPECT_FIELD(halide_scalar_value_t, u.i16, 0, 2);
    EXPECT_FIELD(halide_scalar_value_t, u.i32, 0, 4);
    EXPECT_FIELD(halide_scalar_value_t, u.i64, 0, 8);
    EXPECT_FIELD(halide_scalar_value_t, u.u8, 0, 1);
    EXPECT_FIELD(halide_scalar_value_t, u.u16, 0, 2);
    EXPECT_FIELD(halide_scalar_value_t, u.u32, 0, 4);
    EXPECT_FIELD(halide_scalar_value_t, u.u64, 0, 8);
    EXPECT_FIELD(halide_scalar_value_t, u.f32, 0, 4);
    EXPECT_FIELD(halide_scalar_value_t, u.f64, 0, 8);
    EXPECT_FIELD(halide_scalar_value_t, u.handle, 0, 8);

    EXPECT_VALUE(halide_argument_kind_input_scalar, 0);
    EXPECT_VALUE(halide_argument_kind_input_buffer, 1);
    EXPECT_VALUE(halide_argument_kind_output_buffer, 2);

    EXPECT_SIZE(halide_filter_argument_t, 64);
    EXPECT_ALIGN(halide_filter_argument_t, 8);
    EXPECT_FIELD(halide_filter_argument_t, name, 0, 8);
    EXPECT_FIELD(halide_filter_argument_t, kind, 8, 4);
    EXPECT_FIELD(halide_filter_argument_t, dimensions, 12, 4);
    EXPECT_FIELD(halide_filter_argument_t, type, 16, 4);
    EXPECT_FIELD(halide_filter_argument_t, scalar_def, 24, 8);
    EXPECT_FIELD(halide_filter_argument_t, scalar_min, 32, 8);
    EXPECT_FIELD(halide_filter_argument_t, scalar_max, 40, 8);
    EXPECT_FIELD(halide_filter_argument_t, scalar_estimate, 48, 8);
    EXPECT_FIELD(halide_filter_argument_t, buffer_estimates, 56, 8);

    EXPECT_SIZE(halide_filter_metadata_t, 32);
    EXPECT_ALIGN(halide_filter_metadata_t, 8);
    EXPECT_FIELD(halide_filter_metadata_t, version, 0, 4);
    EXPECT_FIELD(halide_filter_metadata_t, num_arguments, 4, 4);
    EXPECT_FIELD(halide_filter_metadata_t, arguments, 8, 8);
    EXPECT_FIELD(halide_filter_metadata_t, target, 16, 8);
    EXPECT_FIELD(halide_filter_metadata_t, name, 24, 8);
    EXPECT_VALUE(halide_filter_metadata_version, 1);
}

/* ---- Section 4: error codes (names as our header spells them) -------- */
static void check_error_codes(void) {
    EXPECT_VALUE(halide_error_code_success, 0);
    EXPECT_VALUE(halide_error_code_generic_error, -1);
    EXPECT_VALUE(halide_error_code_explicit_bounds_too_small, -2);
    EXPECT_VALUE(halide_error_code_bad_type, -3);
    EXPECT_VALUE(halide_error_code_access_out_of_bounds, -4);
    EXPECT_VALUE(halide_error_code_buffer_allocation_too_large, -5);
    EXPECT_VALUE(halide_error_code_buffer_extents_too_large, -6);
    EXPECT_VALUE(halide_error_code_constraints_make_required_region_smaller, -7);
    EXPECT_VALUE(halide_error_code_constraint_violated, -8);
    EXPECT_VALUE(halide_error_code_param_too_small, -9);
    EXPECT_VALUE(halide_error_code_param_too_large, -10);
    EXPECT_VALUE(halide_error_code_out_of_memory, -11);
    EXPECT_VALUE(halide_error_code_buffer_argument_is_null, -12);
    EXPECT_VALUE(halide_error_code_debug_to_file_failed, -13);
    EXPECT_VALUE(halide_error_code_copy_to_host_failed, -14);
    EXPECT_VALUE(halide_error_code_copy_to_device_failed, -15);
    EXPECT_VALUE(halide_error_code_device_malloc_failed, -16);
    EXPECT_VALUE(halide_error_code_device_sync_failed, -17);
    EXPECT_VALUE(halide_error_code_device_free_failed, -18);
    EXPECT_VALUE(halide_error_code_no_device_interface, -19);
    /* -20/-21: matlab_init_failed / matlab_bad_param_type in 14. */
    EXPECT_VALUE(halide_error_code_unimplemented, -20);
    EXPECT_VALUE(halide_error_code_symbol_not_found, -21);
    EXPECT_VALUE(halide_error_code_internal_error, -22);
    EXPECT_VALUE(halide_error_code_device_run_failed, -23);
    EXPECT_VALUE(halide_error_code_unaligned_host_ptr, -24);
    EXPECT_VALUE(halide_error_code_bad_fold, -25);
    EXPECT_VALUE(halide_error_code_fold_factor_too_small, -26);
    EXPECT_VALUE(halide_error_code_requirement_failed, -27);
    EXPECT_VALUE(halide_error_code_buffer_extents_negative, -28);
    /* -29/-30: unused_29 / unused_30 in 14. */
    EXPECT_VALUE(halide_error_code_gpu_device_error, -29);
    EXPECT_VALUE(halide_error_code_trace_failed, -30);
    EXPECT_VALUE(halide_error_code_specialize_fail, -31);
    EXPECT_VALUE(halide_error_code_device_wrap_native_failed, -32);
    EXPECT_VALUE(halide_error_code_device_detach_native_failed, -33);
    EXPECT_VALUE(halide_error_code_host_is_null, -34);
    EXPECT_VALUE(halide_error_code_bad_extern_fold, -35);
    EXPECT_VALUE(halide_error_code_device_interface_no_device, -36);
    EXPECT_VALUE(halide_error_code_host_and_device_dirty, -37);
    EXPECT_VALUE(halide_error_code_buffer_is_null, -38);
    EXPECT_VALUE(halide_error_code_device_buffer_copy_failed, -39);
    EXPECT_VALUE(halide_error_code_device_crop_unsupported, -40);
    EXPECT_VALUE(halide_error_code_device_crop_failed, -41);
    EXPECT_VALUE(halide_error_code_incompatible_device_interface, -42);
    EXPECT_VALUE(halide_error_code_bad_dimensions, -43);
    EXPECT_VALUE(halide_error_code_device_dirty_with_no_device_support, -44);
    EXPECT_VALUE(halide_error_code_storage_bound_too_small, -45);
    /* main only */
    EXPECT_VALUE(halide_error_code_split_factor_not_positive, -46);
}

/* ---- Section 5: parallel runtime structs ----------------------------- */
static void check_parallel(void) {
    EXPECT_SIZE(struct halide_semaphore_t, 16);
    EXPECT_ALIGN(struct halide_semaphore_t, 8);

    EXPECT_SIZE(struct halide_semaphore_acquire_t, 16);
    EXPECT_ALIGN(struct halide_semaphore_acquire_t, 8);
    EXPECT_FIELD(struct halide_semaphore_acquire_t, semaphore, 0, 8);
    EXPECT_FIELD(struct halide_semaphore_acquire_t, count, 8, 4);

    EXPECT_SIZE(struct halide_parallel_task_t, 56);
    EXPECT_ALIGN(struct halide_parallel_task_t, 8);
    EXPECT_FIELD(struct halide_parallel_task_t, fn, 0, 8);
    EXPECT_FIELD(struct halide_parallel_task_t, closure, 8, 8);
    EXPECT_FIELD(struct halide_parallel_task_t, name, 16, 8);
    EXPECT_FIELD(struct halide_parallel_task_t, semaphores, 24, 8);
    EXPECT_FIELD(struct halide_parallel_task_t, num_semaphores, 32, 4);
    EXPECT_FIELD(struct halide_parallel_task_t, min, 36, 4);
    EXPECT_FIELD(struct halide_parallel_task_t, extent, 40, 4);
    EXPECT_FIELD(struct halide_parallel_task_t, min_threads, 44, 4);
    EXPECT_FIELD(struct halide_parallel_task_t, serial, 48, 1);
}

/* ---- Tracing (the same in Halide 14 and 21) --------------------------- */
static void check_trace(void) {
    EXPECT_VALUE(halide_trace_load, 0);
    EXPECT_VALUE(halide_trace_store, 1);
    EXPECT_VALUE(halide_trace_begin_realization, 2);
    EXPECT_VALUE(halide_trace_end_realization, 3);
    EXPECT_VALUE(halide_trace_produce, 4);
    EXPECT_VALUE(halide_trace_end_produce, 5);
    EXPECT_VALUE(halide_trace_consume, 6);
    EXPECT_VALUE(halide_trace_end_consume, 7);
    EXPECT_VALUE(halide_trace_begin_pipeline, 8);
    EXPECT_VALUE(halide_trace_end_pipeline, 9);
    EXPECT_VALUE(halide_trace_tag, 10);
    EXPECT_SIZE(struct halide_trace_event_t, 56);
    EXPECT_ALIGN(struct halide_trace_event_t, 8);
    EXPECT_FIELD(struct halide_trace_event_t, func, 0, 8);
    EXPECT_FIELD(struct halide_trace_event_t, value, 8, 8);
    EXPECT_FIELD(struct halide_trace_event_t, coordinates, 16, 8);
    EXPECT_FIELD(struct halide_trace_event_t, trace_tag, 24, 8);
    EXPECT_FIELD(struct halide_trace_event_t, type, 32, 4);
    EXPECT_FIELD(struct halide_trace_event_t, event, 36, 4);
    EXPECT_FIELD(struct halide_trace_event_t, parent_id, 40, 4);
    EXPECT_FIELD(struct halide_trace_event_t, value_index, 44, 4);
    EXPECT_FIELD(struct halide_trace_event_t, dimensions, 48, 4);
    EXPECT_SIZE(struct halide_trace_packet_t, 28);
    EXPECT_ALIGN(struct halide_trace_packet_t, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, size, 0, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, id, 4, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, type, 8, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, event, 12, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, parent_id, 16, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, value_index, 20, 4);
    EXPECT_FIELD(struct halide_trace_packet_t, dimensions, 24, 4);
}

int main(void) {
    check_types();
    check_buffers();
    check_metadata();
    check_error_codes();
    check_parallel();
    check_trace();
    printf("abi_layout (%s): %d checks, %d failures\n", ABI_LANGUAGE, abi_checks, abi_failures);
    return abi_failures > 255 ? 255 : abi_failures;
}
