/*
 * HalideRuntime.h: the C ABI shared by Halide kernels and the runtime that
 * runs them.
 *
 * Every struct in this file is laid out exactly as upstream Halide lays it
 * out (see docs/abi.md), so kernels built by upstream Halide run against this
 * runtime and kernels built by us run under upstream's tools. Changing the
 * size, order or type of any field here is an ABI break; tests/runtime/
 * abi_layout.c pins every offset.
 *
 * The header is plain C99 with a few C++ conveniences (constructors and
 * helpers on the structs) that upstream's C++ API and HalideBuffer.h rely on.
 */
#ifndef HALIDE_HALIDERUNTIME_H
#define HALIDE_HALIDERUNTIME_H

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#include "HalideRuntimeVersion.h" /* HALIDE_VERSION_MAJOR/MINOR/PATCH */

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HALIDE_ATTRIBUTE_ALIGN
#define HALIDE_ATTRIBUTE_ALIGN(x) __attribute__((aligned(x)))
#endif
#ifndef HALIDE_MUST_USE_RESULT
#define HALIDE_MUST_USE_RESULT __attribute__((warn_unused_result))
#endif
#ifndef HALIDE_ALWAYS_INLINE
#define HALIDE_ALWAYS_INLINE inline __attribute__((always_inline))
#endif

/* ------------------------------------------------------------------------
 * Types of elements and scalars (ABI.md section 1)
 * ---------------------------------------------------------------------- */

#ifdef __cplusplus
typedef enum halide_type_code_t : uint8_t
#else
typedef enum halide_type_code_t
#endif
{ halide_type_int = 0,    /* signed two's-complement integer */
  halide_type_uint = 1,   /* unsigned integer; bool is uint with 1 bit */
  halide_type_float = 2,  /* IEEE 754 float of 16, 32 or 64 bits */
  halide_type_handle = 3, /* opaque pointer, 64 bits */
  halide_type_bfloat = 4, /* brain float, 16 bits */
} halide_type_code_t;

/* Four bytes: code, bits, then a halfword that Halide 14 calls `lanes`
 * (always 1 in buffers and metadata) and upstream main calls `reserved`
 * (always 0). Kernels compare the whole 32-bit word, so a loader copies the
 * type from the kernel's own metadata rather than building it. */
struct halide_type_t {
#ifdef __cplusplus
    halide_type_code_t code;
#else
    uint8_t code;
#endif
    uint8_t bits;
    union {
        uint16_t lanes;
        uint16_t reserved;
    };

#ifdef __cplusplus
    HALIDE_ALWAYS_INLINE constexpr halide_type_t(halide_type_code_t code_, uint8_t bits_, uint16_t lanes_ = 1)
        : code(code_), bits(bits_), lanes(lanes_) {}
    HALIDE_ALWAYS_INLINE constexpr halide_type_t() : code((halide_type_code_t)0), bits(0), lanes(0) {}
    HALIDE_ALWAYS_INLINE constexpr halide_type_t with_lanes(uint16_t new_lanes) const {
        return halide_type_t(code, bits, new_lanes);
    }
    /* The scalar type of one element (lanes = 1). */
    HALIDE_ALWAYS_INLINE constexpr halide_type_t element_of() const {
        return with_lanes(1);
    }
    /* Equal when code and bits agree; the third halfword is a version marker,
     * not part of the element type. */
    HALIDE_ALWAYS_INLINE constexpr bool operator==(const halide_type_t &other) const {
        return code == other.code && bits == other.bits;
    }
    HALIDE_ALWAYS_INLINE constexpr bool operator!=(const halide_type_t &other) const {
        return !(*this == other);
    }
    HALIDE_ALWAYS_INLINE constexpr bool operator<(const halide_type_t &other) const {
        return code != other.code ? code < other.code : bits < other.bits;
    }
    /* Bytes one element occupies in memory. */
    HALIDE_ALWAYS_INLINE constexpr int bytes() const {
        return (bits + 7) / 8;
    }
    HALIDE_ALWAYS_INLINE constexpr uint32_t as_u32() const {
        return (uint32_t)code | ((uint32_t)bits << 8) | ((uint32_t)lanes << 16);
    }
#endif
};

/* ------------------------------------------------------------------------
 * Buffers (ABI.md section 2)
 * ---------------------------------------------------------------------- */

struct halide_device_interface_impl_t;
struct halide_buffer_t;

/* A table of device operations; each device API provides one. CPU-only code
 * never dereferences it. 15 function pointers, then `impl` at offset 120. */
struct halide_device_interface_t {
    int (*device_malloc)(void *user_context, struct halide_buffer_t *buf,
                         const struct halide_device_interface_t *device_interface);
    int (*device_free)(void *user_context, struct halide_buffer_t *buf);
    int (*device_sync)(void *user_context, struct halide_buffer_t *buf);
    void (*device_release)(void *user_context, const struct halide_device_interface_t *device_interface);
    int (*copy_to_host)(void *user_context, struct halide_buffer_t *buf);
    int (*copy_to_device)(void *user_context, struct halide_buffer_t *buf,
                          const struct halide_device_interface_t *device_interface);
    int (*device_and_host_malloc)(void *user_context, struct halide_buffer_t *buf,
                                  const struct halide_device_interface_t *device_interface);
    int (*device_and_host_free)(void *user_context, struct halide_buffer_t *buf);
    int (*buffer_copy)(void *user_context, struct halide_buffer_t *src,
                       const struct halide_device_interface_t *dst_device_interface, struct halide_buffer_t *dst);
    int (*device_crop)(void *user_context, const struct halide_buffer_t *src, struct halide_buffer_t *dst);
    int (*device_slice)(void *user_context, const struct halide_buffer_t *src, int slice_dim, int slice_pos,
                        struct halide_buffer_t *dst);
    int (*device_release_crop)(void *user_context, struct halide_buffer_t *buf);
    int (*wrap_native)(void *user_context, struct halide_buffer_t *buf, uint64_t handle,
                       const struct halide_device_interface_t *device_interface);
    int (*detach_native)(void *user_context, struct halide_buffer_t *buf);
    int (*compute_capability)(void *user_context, int *major, int *minor);
    const struct halide_device_interface_impl_t *impl;
};

/* One axis of a buffer. Strides count elements, not bytes. */
typedef struct halide_dimension_t {
    int32_t min, extent, stride;
    uint32_t flags; /* reserved: no bits defined, write 0 */

#ifdef __cplusplus
    HALIDE_ALWAYS_INLINE halide_dimension_t() : min(0), extent(0), stride(0), flags(0) {}
    HALIDE_ALWAYS_INLINE halide_dimension_t(int32_t m, int32_t e, int32_t s, uint32_t f = 0)
        : min(m), extent(e), stride(s), flags(f) {}
    HALIDE_ALWAYS_INLINE bool operator==(const halide_dimension_t &other) const {
        return min == other.min && extent == other.extent && stride == other.stride && flags == other.flags;
    }
    HALIDE_ALWAYS_INLINE bool operator!=(const halide_dimension_t &other) const {
        return !(*this == other);
    }
#endif
} halide_dimension_t;

typedef enum { halide_buffer_flag_host_dirty = 1, halide_buffer_flag_device_dirty = 2 } halide_buffer_flags;

/* The buffer every kernel takes: 56 bytes on 64-bit targets. `host` points
 * at the element whose coordinates are the dims' mins. A buffer with no host
 * pointer and no device handle is a bounds query (ABI.md section 9). */
typedef struct halide_buffer_t {
    uint64_t device;
    const struct halide_device_interface_t *device_interface;
    uint8_t *host;
    uint64_t flags;
    struct halide_type_t type;
    int32_t dimensions;
    halide_dimension_t *dim;
    void *padding;

#ifdef __cplusplus
    HALIDE_ALWAYS_INLINE bool get_flag(halide_buffer_flags flag) const {
        return (flags & flag) != 0;
    }
    HALIDE_ALWAYS_INLINE void set_flag(halide_buffer_flags flag, bool value) {
        if (value) {
            flags |= flag;
        } else {
            flags &= ~(uint64_t)flag;
        }
    }
    HALIDE_ALWAYS_INLINE bool host_dirty() const {
        return get_flag(halide_buffer_flag_host_dirty);
    }
    HALIDE_ALWAYS_INLINE bool device_dirty() const {
        return get_flag(halide_buffer_flag_device_dirty);
    }
    HALIDE_ALWAYS_INLINE void set_host_dirty(bool v = true) {
        set_flag(halide_buffer_flag_host_dirty, v);
    }
    HALIDE_ALWAYS_INLINE void set_device_dirty(bool v = true) {
        set_flag(halide_buffer_flag_device_dirty, v);
    }
    HALIDE_ALWAYS_INLINE bool is_bounds_query() const {
        return host == nullptr && device == 0;
    }

    /* Product of the extents. */
    HALIDE_ALWAYS_INLINE size_t number_of_elements() const {
        size_t n = 1;
        for (int i = 0; i < dimensions; i++) {
            n *= (size_t)dim[i].extent;
        }
        return n;
    }
    /* Lowest and one-past-highest addresses the buffer touches. */
    HALIDE_ALWAYS_INLINE uint8_t *begin() const {
        ptrdiff_t offset = 0;
        for (int i = 0; i < dimensions; i++) {
            if (dim[i].stride < 0) {
                offset += (ptrdiff_t)dim[i].stride * (dim[i].extent - 1);
            }
        }
        return host + offset * type.bytes();
    }
    HALIDE_ALWAYS_INLINE uint8_t *end() const {
        ptrdiff_t offset = 0;
        for (int i = 0; i < dimensions; i++) {
            if (dim[i].stride > 0) {
                offset += (ptrdiff_t)dim[i].stride * (dim[i].extent - 1);
            }
        }
        offset += 1;
        return host + offset * type.bytes();
    }
    HALIDE_ALWAYS_INLINE size_t size_in_bytes() const {
        return (size_t)(end() - begin());
    }
    /* Address of the element at absolute coordinates `pos`. */
    HALIDE_ALWAYS_INLINE uint8_t *address_of(const int *pos) const {
        ptrdiff_t index = 0;
        for (int i = 0; i < dimensions; i++) {
            index += (ptrdiff_t)dim[i].stride * (pos[i] - dim[i].min);
        }
        return host + index * type.bytes();
    }
#endif
} halide_buffer_t;

/* ------------------------------------------------------------------------
 * Kernel metadata (ABI.md section 3)
 * ---------------------------------------------------------------------- */

/* An untagged 8-byte scalar in a struct, as upstream declares it (members
 * are reached through `u`, e.g. v.u.i32); the argument's `type` says which
 * member is live. */
typedef struct halide_scalar_value_t {
    union {
        bool b;
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
        void *handle;
    } u;
} halide_scalar_value_t;

enum halide_argument_kind_t {
    halide_argument_kind_input_scalar = 0,
    halide_argument_kind_input_buffer = 1,
    halide_argument_kind_output_buffer = 2,
};

/* One entry point argument, 64 bytes. */
typedef struct halide_filter_argument_t {
    const char *name;
    int32_t kind; /* enum halide_argument_kind_t */
    int32_t dimensions;
    struct halide_type_t type;
    const halide_scalar_value_t *scalar_def, *scalar_min, *scalar_max, *scalar_estimate;
    /* NULL, or 2*dimensions pointers: min0, extent0, min1, ...; each may be NULL */
    const int64_t *const *buffer_estimates;
} halide_filter_argument_t;

/* What `NAME_metadata()` returns: 32 bytes. */
typedef struct halide_filter_metadata_t {
#ifdef __cplusplus
    static const int32_t VERSION = 1;
#endif
    int32_t version; /* halide_filter_metadata_version */
    int32_t num_arguments;
    const struct halide_filter_argument_t *arguments;
    const char *target; /* canonical target string (ABI.md section 6) */
    const char *name;
} halide_filter_metadata_t;

#define halide_filter_metadata_version 1

/* `NAME_argv` calls the entry point with args[i] matching arguments[i]. */
typedef int (*halide_argv_call_t)(void **args);
typedef const struct halide_filter_metadata_t *(*halide_metadata_getter_t)(void);

/* ------------------------------------------------------------------------
 * Error codes (ABI.md section 4). Every halide_error_* helper returns one.
 * ---------------------------------------------------------------------- */

enum halide_error_code_t {
    halide_error_code_success = 0,
    halide_error_code_generic_error = -1,
    halide_error_code_explicit_bounds_too_small = -2,
    halide_error_code_bad_type = -3,
    halide_error_code_access_out_of_bounds = -4,
    halide_error_code_buffer_allocation_too_large = -5,
    halide_error_code_buffer_extents_too_large = -6,
    halide_error_code_constraints_make_required_region_smaller = -7,
    halide_error_code_constraint_violated = -8,
    halide_error_code_param_too_small = -9,
    halide_error_code_param_too_large = -10,
    halide_error_code_out_of_memory = -11,
    halide_error_code_buffer_argument_is_null = -12,
    halide_error_code_debug_to_file_failed = -13,
    halide_error_code_copy_to_host_failed = -14,
    halide_error_code_copy_to_device_failed = -15,
    halide_error_code_device_malloc_failed = -16,
    halide_error_code_device_sync_failed = -17,
    halide_error_code_device_free_failed = -18,
    halide_error_code_no_device_interface = -19,
    /* -20 and -21 were MATLAB codes in Halide 14 and mean unimplemented and
     * symbol_not_found upstream since; we name them as upstream main does. */
    halide_error_code_unimplemented = -20,
    halide_error_code_symbol_not_found = -21,
    halide_error_code_internal_error = -22,
    halide_error_code_device_run_failed = -23,
    halide_error_code_unaligned_host_ptr = -24,
    halide_error_code_bad_fold = -25,
    halide_error_code_fold_factor_too_small = -26,
    halide_error_code_requirement_failed = -27,
    halide_error_code_buffer_extents_negative = -28,
    halide_error_code_gpu_device_error = -29,
    halide_error_code_trace_failed = -30,
    halide_error_code_specialize_fail = -31,
    halide_error_code_device_wrap_native_failed = -32,
    halide_error_code_device_detach_native_failed = -33,
    halide_error_code_host_is_null = -34,
    halide_error_code_bad_extern_fold = -35,
    halide_error_code_device_interface_no_device = -36,
    halide_error_code_host_and_device_dirty = -37,
    halide_error_code_buffer_is_null = -38,
    halide_error_code_device_buffer_copy_failed = -39,
    halide_error_code_device_crop_unsupported = -40,
    halide_error_code_device_crop_failed = -41,
    halide_error_code_incompatible_device_interface = -42,
    halide_error_code_bad_dimensions = -43,
    halide_error_code_device_dirty_with_no_device_support = -44,
    halide_error_code_storage_bound_too_small = -45,
    halide_error_code_split_factor_not_positive = -46,
};

/* ------------------------------------------------------------------------
 * Printing and errors. The default print hook writes to stdout; the default
 * error handler prints "Error: <msg>" and aborts, as upstream's does. The
 * Python runtime replaces it with one that records the message instead.
 * ---------------------------------------------------------------------- */

typedef void (*halide_print_t)(void *user_context, const char *message);
typedef void (*halide_error_handler_t)(void *user_context, const char *message);

extern void halide_print(void *user_context, const char *message);
extern halide_print_t halide_set_custom_print(halide_print_t print);
extern void halide_error(void *user_context, const char *message);
extern halide_error_handler_t halide_set_error_handler(halide_error_handler_t handler);
extern void halide_default_print(void *user_context, const char *message);
extern void halide_default_error(void *user_context, const char *message);

/* ------------------------------------------------------------------------
 * Memory. halide_malloc returns blocks aligned to halide_malloc_alignment()
 * bytes; reading a few bytes past either end of a block is safe.
 * ---------------------------------------------------------------------- */

typedef void *(*halide_malloc_t)(void *user_context, size_t size);
typedef void (*halide_free_t)(void *user_context, void *ptr);

extern void *halide_malloc(void *user_context, size_t size);
extern void halide_free(void *user_context, void *ptr);
extern void *halide_default_malloc(void *user_context, size_t size);
extern void halide_default_free(void *user_context, void *ptr);
extern halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc);
extern halide_free_t halide_set_custom_free(halide_free_t user_free);
extern int halide_malloc_alignment(void);

/* ------------------------------------------------------------------------
 * Parallelism (ABI.md section 5). One thread pool per process.
 * ---------------------------------------------------------------------- */

typedef int (*halide_task_t)(void *user_context, int task_number, uint8_t *closure);
typedef int (*halide_loop_task_t)(void *user_context, int min, int extent, uint8_t *closure, void *task_parent);

/* 16 opaque bytes owned by the kernel. */
struct halide_semaphore_t {
    uint64_t _private[2];
};

struct halide_semaphore_acquire_t {
    struct halide_semaphore_t *semaphore;
    int count;
};

/* One of several tasks run together by halide_do_parallel_tasks: 56 bytes. */
struct halide_parallel_task_t {
    halide_loop_task_t fn;
    uint8_t *closure;
    const char *name;
    struct halide_semaphore_acquire_t *semaphores;
    int num_semaphores;
    int min, extent;
    int min_threads;
    bool serial;
};

typedef int (*halide_do_par_for_t)(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);
typedef int (*halide_do_task_t)(void *user_context, halide_task_t task, int idx, uint8_t *closure);
typedef int (*halide_do_loop_task_t)(void *user_context, halide_loop_task_t task, int min, int extent, uint8_t *closure,
                                     void *task_parent);
typedef int (*halide_do_parallel_tasks_t)(void *user_context, int num_tasks, struct halide_parallel_task_t *tasks,
                                          void *task_parent);
typedef int (*halide_semaphore_init_t)(struct halide_semaphore_t *sem, int count);
typedef int (*halide_semaphore_release_t)(struct halide_semaphore_t *sem, int count);
typedef bool (*halide_semaphore_try_acquire_t)(struct halide_semaphore_t *sem, int count);

extern int halide_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);
extern int halide_do_task(void *user_context, halide_task_t task, int idx, uint8_t *closure);
extern int halide_do_loop_task(void *user_context, halide_loop_task_t task, int min, int extent, uint8_t *closure,
                               void *task_parent);
extern int halide_do_parallel_tasks(void *user_context, int num_tasks, struct halide_parallel_task_t *tasks,
                                    void *task_parent);
extern int halide_default_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure);
extern int halide_default_do_task(void *user_context, halide_task_t task, int idx, uint8_t *closure);
extern int halide_default_do_loop_task(void *user_context, halide_loop_task_t task, int min, int extent,
                                       uint8_t *closure, void *task_parent);
extern int halide_default_do_parallel_tasks(void *user_context, int num_tasks, struct halide_parallel_task_t *tasks,
                                            void *task_parent);

extern int halide_semaphore_init(struct halide_semaphore_t *sem, int count);
extern int halide_semaphore_release(struct halide_semaphore_t *sem, int count);
extern bool halide_semaphore_try_acquire(struct halide_semaphore_t *sem, int count);

extern halide_do_par_for_t halide_set_custom_do_par_for(halide_do_par_for_t do_par_for);
extern halide_do_task_t halide_set_custom_do_task(halide_do_task_t do_task);
extern void halide_set_custom_parallel_runtime(halide_do_par_for_t do_par_for, halide_do_task_t do_task,
                                               halide_do_loop_task_t do_loop_task,
                                               halide_do_parallel_tasks_t do_parallel_tasks,
                                               halide_semaphore_init_t semaphore_init,
                                               halide_semaphore_try_acquire_t semaphore_try_acquire,
                                               halide_semaphore_release_t semaphore_release);

/* n = 0 restores the default (HL_NUM_THREADS, else the CPU count); n < 0 is an
 * error. Returns the previous count. */
extern int halide_set_num_threads(int n);

/* Target features, numbered as upstream Halide 21's (the bit numbers of
 * halide_can_use_target_features' bitsets; Halide::Target::Feature has the
 * same values). Halide 14 numbered them differently (ABI.md H3). */
typedef enum halide_target_feature_t {
    halide_target_feature_jit = 0,
    halide_target_feature_debug = 1,
    halide_target_feature_enable_backtraces = 2,
    halide_target_feature_no_asserts = 3,
    halide_target_feature_no_bounds_query = 4,
    halide_target_feature_sse41 = 5,
    halide_target_feature_avx = 6,
    halide_target_feature_avx2 = 7,
    halide_target_feature_avxvnni = 8,
    halide_target_feature_fma = 9,
    halide_target_feature_fma4 = 10,
    halide_target_feature_f16c = 11,
    halide_target_feature_armv7s = 12,
    halide_target_feature_no_neon = 13,
    halide_target_feature_vsx = 14,
    halide_target_feature_power_arch_2_07 = 15,
    halide_target_feature_cuda = 16,
    halide_target_feature_cuda_capability30 = 17,
    halide_target_feature_cuda_capability32 = 18,
    halide_target_feature_cuda_capability35 = 19,
    halide_target_feature_cuda_capability50 = 20,
    halide_target_feature_cuda_capability61 = 21,
    halide_target_feature_cuda_capability70 = 22,
    halide_target_feature_cuda_capability75 = 23,
    halide_target_feature_cuda_capability80 = 24,
    halide_target_feature_cuda_capability86 = 25,
    halide_target_feature_opencl = 26,
    halide_target_feature_cl_doubles = 27,
    halide_target_feature_cl_atomic64 = 28,
    halide_target_feature_user_context = 29,
    halide_target_feature_profile = 30,
    halide_target_feature_no_runtime = 31,
    halide_target_feature_metal = 32,
    halide_target_feature_c_plus_plus_mangling = 33,
    halide_target_feature_large_buffers = 34,
    halide_target_feature_hvx_128 = 35,
    halide_target_feature_hvx_v62 = 36,
    halide_target_feature_fuzz_float_stores = 37,
    halide_target_feature_soft_float_abi = 38,
    halide_target_feature_msan = 39,
    halide_target_feature_avx512 = 40,
    halide_target_feature_avx512_knl = 41,
    halide_target_feature_avx512_skylake = 42,
    halide_target_feature_avx512_cannonlake = 43,
    halide_target_feature_avx512_zen4 = 44,
    halide_target_feature_avx512_zen5 = 45,
    halide_target_feature_avx512_sapphirerapids = 46,
    halide_target_feature_trace_loads = 47,
    halide_target_feature_trace_stores = 48,
    halide_target_feature_trace_realizations = 49,
    halide_target_feature_trace_pipeline = 50,
    halide_target_feature_hvx_v65 = 51,
    halide_target_feature_hvx_v66 = 52,
    halide_target_feature_hvx_v68 = 53,
    halide_target_feature_cl_half = 54,
    halide_target_feature_strict_float = 55,
    halide_target_feature_tsan = 56,
    halide_target_feature_asan = 57,
    halide_target_feature_d3d12compute = 58,
    halide_target_feature_check_unsafe_promises = 59,
    halide_target_feature_hexagon_dma = 60,
    halide_target_feature_embed_bitcode = 61,
    halide_target_feature_enable_llvm_loop_opt = 62,
    halide_target_feature_wasm_mvponly = 63,
    halide_target_feature_wasm_simd128 = 64,
    halide_target_feature_wasm_threads = 65,
    halide_target_feature_wasm_bulk_memory = 66,
    halide_target_feature_webgpu = 67,
    halide_target_feature_sve = 68,
    halide_target_feature_sve2 = 69,
    halide_target_feature_egl = 70,
    halide_target_feature_arm_dot_prod = 71,
    halide_target_feature_arm_fp16 = 72,
    halide_llvm_large_code_model = 73, /* upstream's name, without "target_feature" */
    halide_target_feature_rvv = 74,
    halide_target_feature_armv8a = 75,
    halide_target_feature_armv81a = 76,
    halide_target_feature_armv82a = 77,
    halide_target_feature_armv83a = 78,
    halide_target_feature_armv84a = 79,
    halide_target_feature_armv85a = 80,
    halide_target_feature_armv86a = 81,
    halide_target_feature_armv87a = 82,
    halide_target_feature_armv88a = 83,
    halide_target_feature_armv89a = 84,
    halide_target_feature_sanitizer_coverage = 85,
    halide_target_feature_profile_by_timer = 86,
    halide_target_feature_spirv = 87,
    halide_target_feature_vulkan = 88,
    halide_target_feature_vulkan_int8 = 89,
    halide_target_feature_vulkan_int16 = 90,
    halide_target_feature_vulkan_int64 = 91,
    halide_target_feature_vulkan_float16 = 92,
    halide_target_feature_vulkan_float64 = 93,
    halide_target_feature_vulkan_version10 = 94,
    halide_target_feature_vulkan_version12 = 95,
    halide_target_feature_vulkan_version13 = 96,
    halide_target_feature_semihosting = 97,
    halide_target_feature_avx10_1 = 98,
    halide_target_feature_x86_apx = 99,
    halide_target_feature_simulator = 100,
    halide_target_feature_end = 101,
} halide_target_feature_t;

/* Whether this CPU has every instruction-set feature in `features` (a bitset
 * of halide_target_feature_t numbers, `count` 64-bit words); multitarget kernels
 * call it to pick a variant. HL_DISABLE_FEATURES=a,b masks features. */
extern int halide_can_use_target_features(int count, const uint64_t *features);
extern int halide_get_num_threads(void);
extern void halide_shutdown_thread_pool(void);

/* ------------------------------------------------------------------------
 * Error helpers called by kernels. Each reports through halide_error and
 * returns its code, which the kernel returns unchanged.
 * ---------------------------------------------------------------------- */

extern int halide_error_bounds_inference_call_failed(void *user_context, const char *extern_stage_name, int result);
extern int halide_error_extern_stage_failed(void *user_context, const char *extern_stage_name, int result);
extern int halide_error_explicit_bounds_too_small(void *user_context, const char *func_name, const char *var_name,
                                                  int min_bound, int max_bound, int min_required, int max_required);
/* type_given and correct_type are halide_type_t words (ABI.md section 1). */
extern int halide_error_bad_type(void *user_context, const char *func_name, uint32_t type_given, uint32_t correct_type);
extern int halide_error_bad_dimensions(void *user_context, const char *func_name, int32_t dimensions_given,
                                       int32_t correct_dimensions);
extern int halide_error_access_out_of_bounds(void *user_context, const char *func_name, int dimension, int min_touched,
                                             int max_touched, int min_valid, int max_valid);
extern int halide_error_buffer_allocation_too_large(void *user_context, const char *buffer_name,
                                                    uint64_t allocation_size, uint64_t max_size);
extern int halide_error_buffer_extents_negative(void *user_context, const char *buffer_name, int dimension, int extent);
extern int halide_error_buffer_extents_too_large(void *user_context, const char *buffer_name, int64_t actual_size,
                                                 int64_t max_size);
extern int halide_error_constraints_make_required_region_smaller(void *user_context, const char *buffer_name,
                                                                 int dimension, int constrained_min,
                                                                 int constrained_extent, int required_min,
                                                                 int required_extent);
extern int halide_error_constraint_violated(void *user_context, const char *var, int val, const char *constrained_var,
                                            int constrained_val);
extern int halide_error_param_too_small_i64(void *user_context, const char *param_name, int64_t val, int64_t min_val);
extern int halide_error_param_too_small_u64(void *user_context, const char *param_name, uint64_t val, uint64_t min_val);
extern int halide_error_param_too_small_f64(void *user_context, const char *param_name, double val, double min_val);
extern int halide_error_param_too_large_i64(void *user_context, const char *param_name, int64_t val, int64_t max_val);
extern int halide_error_param_too_large_u64(void *user_context, const char *param_name, uint64_t val, uint64_t max_val);
extern int halide_error_param_too_large_f64(void *user_context, const char *param_name, double val, double max_val);
extern int halide_error_out_of_memory(void *user_context);
extern int halide_error_buffer_argument_is_null(void *user_context, const char *buffer_name);
extern int halide_error_debug_to_file_failed(void *user_context, const char *func, const char *filename,
                                             int error_code);
extern int halide_error_unaligned_host_ptr(void *user_context, const char *func_name, int alignment);
extern int halide_error_host_is_null(void *user_context, const char *func_name);
extern int halide_error_bad_fold(void *user_context, const char *func_name, const char *var_name,
                                 const char *loop_name);
extern int halide_error_bad_extern_fold(void *user_context, const char *func_name, int dim, int min, int extent,
                                        int valid_min, int fold_factor);
extern int halide_error_fold_factor_too_small(void *user_context, const char *func_name, const char *var_name,
                                              int fold_factor, const char *loop_name, int required_extent);
extern int halide_error_requirement_failed(void *user_context, const char *condition, const char *message);
extern int halide_error_specialize_fail(void *user_context, const char *message);
extern int halide_error_no_device_interface(void *user_context);
extern int halide_error_device_interface_no_device(void *user_context);
extern int halide_error_host_and_device_dirty(void *user_context);
extern int halide_error_buffer_is_null(void *user_context, const char *routine);
extern int halide_error_device_dirty_with_no_device_support(void *user_context, const char *buffer_name);
extern int halide_error_storage_bound_too_small(void *user_context, const char *func_name, const char *var_name,
                                                int provided_size, int required_size);
extern int halide_error_device_crop_failed(void *user_context);
extern int halide_error_split_factor_not_positive(void *user_context, const char *func_name, const char *orig,
                                                  const char *outer, const char *inner, const char *factor_str,
                                                  int factor);

/* ------------------------------------------------------------------------
 * Tracing (Func::trace_loads / trace_stores / trace_realizations, and the
 * trace_* target features). Traced code calls halide_trace once per event;
 * the id it returns is the parent_id of the events nested in that one:
 *   begin_pipeline (parent 0)
 *     tag ...                          all tags, right after begin_pipeline
 *     begin_realization f  -> produce f -> store f ... , end_produce f
 *                          -> consume f -> load f ...  , end_consume f
 *                          -> end_realization f
 *     end_pipeline
 * Loads and stores of a Func whose realizations are not traced have parent
 * 0. The layouts are those of upstream Halide 14 to 21 (56 and 28 bytes).
 * ---------------------------------------------------------------------- */

enum halide_trace_event_code_t {
    halide_trace_load = 0,
    halide_trace_store = 1,
    halide_trace_begin_realization = 2,
    halide_trace_end_realization = 3,
    halide_trace_produce = 4,
    halide_trace_end_produce = 5,
    halide_trace_consume = 6,
    halide_trace_end_consume = 7,
    halide_trace_begin_pipeline = 8,
    halide_trace_end_pipeline = 9,
    halide_trace_tag = 10
};

struct halide_trace_event_t {
    /* The Func (or, for pipeline events, the pipeline) the event is about. */
    const char *func;
    /* Loads and stores: the value, `type.lanes` elements of `type`. NULL
     * for the other events. */
    void *value;
    /* Loads and stores: the coordinates, one vector of `type.lanes` per
     * dimension (lanes innermost). Realization, produce and consume events:
     * min0, extent0, min1, extent1, ... Pipeline and tag events: NULL. */
    int32_t *coordinates;
    /* Tag events: the tag text. Other events: an empty string. */
    const char *trace_tag;
    /* Loads and stores: the value's type, lanes > 1 for a vector. */
    struct halide_type_t type;
    enum halide_trace_event_code_t event;
    int32_t parent_id;
    /* Which element of a Tuple-valued Func. */
    int32_t value_index;
    /* The number of entries in `coordinates`. */
    int32_t dimensions;
};

typedef int32_t (*halide_trace_t)(void *user_context, const struct halide_trace_event_t *);

/* Calls the current handler and returns its id. The default handler prints
 * one line per event through halide_print, in upstream's text format, or,
 * when a trace file is set (halide_set_trace_file, or the HL_TRACE_FILE
 * environment variable naming a file to create), appends binary packets to
 * it. */
extern int32_t halide_trace(void *user_context, const struct halide_trace_event_t *event);
extern int32_t halide_default_trace(void *user_context, const struct halide_trace_event_t *event);
/* Installs a handler (NULL: the default one) and returns the previous one. */
extern halide_trace_t halide_set_custom_trace(halide_trace_t trace);

/* What upstream-built kernels call: builds the event from its fields and
 * calls halide_trace. */
extern int32_t halide_trace_helper(void *user_context, const char *func, void *value, int32_t *coords, int type_code,
                                   int type_bits, int type_lanes, int event, int parent_id, int value_index,
                                   int dimensions, const char *trace_tag);

/* The header of one packet of a binary trace; every field is 32 bits. The
 * packet continues with the coordinates (dimensions x int32), the value
 * (type.lanes x type.bytes()), the func name and the trace tag (each
 * NUL-terminated), padded with zeros to `size`, a multiple of 4. */
struct halide_trace_packet_t {
    uint32_t size;
    int32_t id;
    struct halide_type_t type;
    enum halide_trace_event_code_t event;
    int32_t parent_id;
    int32_t value_index;
    int32_t dimensions;

#ifdef __cplusplus
    HALIDE_ALWAYS_INLINE const int32_t *coordinates() const {
        return (const int32_t *)(this + 1);
    }
    HALIDE_ALWAYS_INLINE int32_t *coordinates() {
        return (int32_t *)(this + 1);
    }
    HALIDE_ALWAYS_INLINE const void *value() const {
        return coordinates() + dimensions;
    }
    HALIDE_ALWAYS_INLINE void *value() {
        return coordinates() + dimensions;
    }
    HALIDE_ALWAYS_INLINE const char *func() const {
        return (const char *)value() + type.lanes * type.bytes();
    }
    HALIDE_ALWAYS_INLINE char *func() {
        return (char *)value() + type.lanes * type.bytes();
    }
    HALIDE_ALWAYS_INLINE const char *trace_tag() const {
        const char *p = func();
        while (*p++) {
        }
        return p;
    }
    HALIDE_ALWAYS_INLINE char *trace_tag() {
        char *p = func();
        while (*p++) {
        }
        return p;
    }
#endif
};

/* The file descriptor binary trace packets go to; 0 means print text. If
 * halide_set_trace_file was never called, the first event opens the file
 * named by HL_TRACE_FILE, if that is set. */
extern void halide_set_trace_file(int fd);
extern int halide_get_trace_file(void *user_context);
/* Closes the trace file this runtime opened from HL_TRACE_FILE, if any.
 * Returns 0 on success. */
extern int halide_shutdown_trace(void);

/* Func::debug_to_file: writes the values of `buf` (copied to the host first
 * if its device side is newer) to `filename`, in a format chosen by the
 * extension (case-insensitive): ".npy" NumPy (C order, shape in Halide's
 * dimension order), ".mat" MATLAB level 5, ".tif"/".tiff" TIFF, anything
 * else (".tmp") the 20-byte header of four extents (higher dimensions
 * folded into the fourth) and a type code, then the dense values.
 * Returns 0, or an error code after reporting through halide_error. */
extern int32_t halide_debug_to_file(void *user_context, const char *filename, struct halide_buffer_t *buf);

/* ------------------------------------------------------------------------
 * The memoization cache (Func::memoize): results of memoized Funcs kept
 * across calls, keyed by an opaque byte string the kernel builds, the
 * region computed and the shape of each value's buffer. Least recently used
 * entries not in use go first once the cache holds more than its size.
 * ---------------------------------------------------------------------- */

/* The most bytes of results kept (default 1 MiB; 0 restores the default). */
extern void halide_memoization_cache_set_size(int64_t size);
/* 0: found, each tuple_buffers[i]->host now points at the cached values;
 * 1: not found, each host points at new memory the kernel computes into and
 * then passes to halide_memoization_cache_store; -1: out of memory. Every
 * host pointer set here goes back through halide_memoization_cache_release. */
extern int halide_memoization_cache_lookup(void *user_context, const uint8_t *cache_key, int32_t size,
                                           struct halide_buffer_t *realized_bounds, int32_t tuple_count,
                                           struct halide_buffer_t **tuple_buffers);
/* Keeps the values computed after a miss (the memory from the lookup, not a
 * copy), tagged with eviction_key when has_eviction_key. Returns 0. */
extern int halide_memoization_cache_store(void *user_context, const uint8_t *cache_key, int32_t size,
                                          struct halide_buffer_t *realized_bounds, int32_t tuple_count,
                                          struct halide_buffer_t **tuple_buffers, bool has_eviction_key,
                                          uint64_t eviction_key);
/* Drops every entry stored with this eviction key. */
extern void halide_memoization_cache_evict(void *user_context, uint64_t eviction_key);
/* The kernel is done with a host pointer the lookup gave it. */
extern void halide_memoization_cache_release(void *user_context, void *host);
/* Frees every entry; no kernel may be using the cache. */
extern void halide_memoization_cache_cleanup(void);

/* ------------------------------------------------------------------------
 * A lock of one word, as upstream's (zero-initialized means unlocked).
 * ---------------------------------------------------------------------- */

struct halide_mutex {
    uintptr_t _private[1];
};
extern void halide_mutex_lock(struct halide_mutex *mutex);
extern void halide_mutex_unlock(struct halide_mutex *mutex);
struct halide_thread;

/* ------------------------------------------------------------------------
 * The sampling profiler of kernels compiled for a target with the
 * `profile` (or `profile_by_timer`) feature: a thread samples which Func
 * each running kernel is computing, every sleep_time microseconds, and the
 * report (halide_profiler_report, also printed at exit) gives each Func's
 * share of the time, its thread use and its heap allocations. The structs
 * have upstream's fields, in its order, for programmatic inspection.
 * ---------------------------------------------------------------------- */

struct HALIDE_ATTRIBUTE_ALIGN(8) halide_profiler_func_stats {
    uint64_t time; /* nanoseconds */
    uint64_t memory_current, memory_peak, memory_total;
    uint64_t stack_peak;
    uint64_t active_threads_numerator, active_threads_denominator;
    const char *name;
    int num_allocs;
};

struct HALIDE_ATTRIBUTE_ALIGN(8) halide_profiler_pipeline_stats {
    uint64_t time; /* nanoseconds */
    uint64_t memory_current, memory_peak, memory_total;
    uint64_t active_threads_numerator, active_threads_denominator;
    const char *name;
    struct halide_profiler_func_stats *funcs;
    void *next; /* the next pipeline's stats */
    int num_funcs;
    int runs;
    int samples;
    int num_allocs;
};

/* One running kernel call. */
struct HALIDE_ATTRIBUTE_ALIGN(8) halide_profiler_instance_state {
    uint64_t billed_time;
    uint64_t start_time;
    uint64_t memory_current, memory_peak, memory_total;
    uint64_t active_threads_numerator, active_threads_denominator;
    struct halide_profiler_instance_state *next;
    struct halide_profiler_instance_state **prev_next;
    struct halide_profiler_pipeline_stats *pipeline_stats;
    struct halide_profiler_func_stats *funcs;
    int current_func;
    int active_threads;
    int samples;
    int num_allocs;
    int should_collect_statistics;
};

struct halide_profiler_state {
    struct halide_mutex lock; /* held: the sampling thread waits */
    struct halide_profiler_pipeline_stats *pipelines;
    struct halide_thread *sampling_thread;
    struct halide_profiler_instance_state *instances;
    void (*get_remote_profiler_state)(int *func, int *active_workers); /* unused here */
    int sleep_time;                                                    /* microseconds between samples */
    int shutdown;
};

extern struct halide_profiler_state *halide_profiler_get_state(void);
/* The stats of the pipeline of that name, or NULL. */
extern struct halide_profiler_pipeline_stats *halide_profiler_get_pipeline_state(const char *pipeline_name);
/* Bills the time since *prev_t to what every running kernel computes. */
extern int halide_profiler_sample(struct halide_profiler_state *s, uint64_t *prev_t);
/* Forgets every statistic (waits for running kernels). */
extern void halide_profiler_reset(void);
/* halide_profiler_reset, and the sampling thread stopped. */
extern void halide_profiler_shutdown(void);
/* Prints every pipeline's statistics through halide_print. */
extern void halide_profiler_report(void *user_context);
extern void halide_profiler_lock(struct halide_profiler_state *);
extern void halide_profiler_unlock(struct halide_profiler_state *);

/* Called by profiled kernels. func_names: num_funcs names separated by
 * '\n' (0: overhead, 1: halide_malloc, 2: halide_free, then the Funcs).
 * Returns the call's state, or NULL when out of memory. */
extern struct halide_profiler_instance_state *
halide_profiler_instance_start(void *user_context, const char *pipeline_name, int num_funcs, const char *func_names);
/* Merges the call's statistics into its pipeline's and frees the state. */
extern void halide_profiler_instance_end(void *user_context, struct halide_profiler_instance_state *instance);
extern int halide_profiler_set_current_func(struct halide_profiler_instance_state *instance, int func);
extern int halide_profiler_incr_active_threads(struct halide_profiler_instance_state *instance, int delta);
extern int halide_profiler_memory_allocate(void *user_context, struct halide_profiler_instance_state *instance,
                                           int func, uint64_t bytes);
extern int halide_profiler_memory_free(void *user_context, struct halide_profiler_instance_state *instance, int func,
                                       uint64_t bytes);

/* ------------------------------------------------------------------------
 * Device operations. This runtime is CPU-only: on a buffer with no device
 * allocation they succeed without doing anything; anything that needs a
 * device fails with the matching error code.
 * ---------------------------------------------------------------------- */

extern int halide_copy_to_host(void *user_context, struct halide_buffer_t *buf);
extern int halide_copy_to_device(void *user_context, struct halide_buffer_t *buf,
                                 const struct halide_device_interface_t *device_interface);
extern int halide_device_sync(void *user_context, struct halide_buffer_t *buf);
extern int halide_device_malloc(void *user_context, struct halide_buffer_t *buf,
                                const struct halide_device_interface_t *device_interface);
extern int halide_device_free(void *user_context, struct halide_buffer_t *buf);
extern void halide_device_free_as_destructor(void *user_context, void *buf);
extern int halide_device_detach_native(void *user_context, struct halide_buffer_t *buf);
extern void halide_device_release(void *user_context, const struct halide_device_interface_t *device_interface);
/* Whether device allocations are kept for reuse; a no-op without devices. */
extern int halide_reuse_device_allocations(void *user_context, bool reuse);

#ifdef __cplusplus
} /* extern "C" */

/* halide_type_of<T>(): the element type for a C++ type, as HalideBuffer.h
 * and upstream's C++ API expect. Any pointer is a 64-bit handle. */
template <typename T> struct halide_type_of_helper;

template <typename T> struct halide_type_of_helper<T *> {
    static constexpr halide_type_t get() { return halide_type_t(halide_type_handle, 64); }
};

#define HALIDE_RUNTIME_TYPE_OF(T, CODE, BITS)                                                                          \
    template <> struct halide_type_of_helper<T> {                                                                      \
        static constexpr halide_type_t get() { return halide_type_t(CODE, BITS); }                                     \
    };
HALIDE_RUNTIME_TYPE_OF(bool, halide_type_uint, 1)
HALIDE_RUNTIME_TYPE_OF(int8_t, halide_type_int, 8)
HALIDE_RUNTIME_TYPE_OF(int16_t, halide_type_int, 16)
HALIDE_RUNTIME_TYPE_OF(int32_t, halide_type_int, 32)
HALIDE_RUNTIME_TYPE_OF(int64_t, halide_type_int, 64)
HALIDE_RUNTIME_TYPE_OF(uint8_t, halide_type_uint, 8)
HALIDE_RUNTIME_TYPE_OF(uint16_t, halide_type_uint, 16)
HALIDE_RUNTIME_TYPE_OF(uint32_t, halide_type_uint, 32)
HALIDE_RUNTIME_TYPE_OF(uint64_t, halide_type_uint, 64)
HALIDE_RUNTIME_TYPE_OF(float, halide_type_float, 32)
HALIDE_RUNTIME_TYPE_OF(double, halide_type_float, 64)
#undef HALIDE_RUNTIME_TYPE_OF

template <typename T> HALIDE_ALWAYS_INLINE constexpr halide_type_t halide_type_of() {
    return halide_type_of_helper<T>::get();
}
#endif /* __cplusplus */

#if defined(__cplusplus) && __cplusplus >= 201703L
#include <string_view>
/* What a function_info_header file describes: each argument of a kernel,
 * usable at compile time (upstream declares the same names). */
namespace HalideFunctionInfo {
enum ArgumentKind { InputScalar = 0, InputBuffer = 1, OutputBuffer = 2 };
struct ArgumentInfo {
    std::string_view name;
    ArgumentKind kind;
    int32_t dimensions; /* 0 for scalars */
    halide_type_t type;
};
} // namespace HalideFunctionInfo
#endif

#endif /* HALIDE_HALIDERUNTIME_H */
