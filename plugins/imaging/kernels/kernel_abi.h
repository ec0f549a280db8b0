/*
 * kernel_abi.h: what every hand-written kernel in this plugin does before it
 * computes, so that it behaves like a Halide AOT kernel (entry point NAME,
 * NAME_argv and NAME_metadata; see HalideRuntime.h). Header-only.
 *
 * A kernel lists its buffer arguments in an array of ka_buffer and calls:
 *
 *   ka_prologue()  a NULL buffer pointer fails (-12). If any buffer is a
 *                  bounds query (host == NULL and device == 0), every query
 *                  buffer's header is filled in with the region the kernel
 *                  needs and the kernel returns 0 without computing.
 *                  Otherwise each buffer's type word (-3) and dimension
 *                  count (-43) are checked.
 *   ka_check()     every buffer covers the region the kernel touches (-4),
 *                  has no negative extent (-28) and at most 2^31-1 elements
 *                  (-6), is not dirty on a device (-44), and has host
 *                  memory (-34).
 *   ka_range_f64() a scalar lies inside its metadata min/max (-9 / -10).
 *
 * Every failing check calls the runtime's halide_error_* helper and returns
 * true; the kernel then returns whatever the helper returned (in *rc), as
 * generated code does. The helpers are not defined here: they stay undefined
 * in the plugin's libraries and resolve to the runtime halide.runtime loads
 * (the targets say "no_runtime").
 */
#ifndef KERNEL_ABI_H
#define KERNEL_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "HalideRuntime.h"

/* The target string stored in the metadata; the manifest says the same. */
#if defined(__x86_64__) && defined(__linux__)
#define KA_TARGET "x86-64-linux-no_runtime"
#else
#error "kernel_abi.h: set KA_TARGET (and the manifest's targets) for this architecture"
#endif

/* A type word as kernels compare it: code | bits << 8 | lanes (1) << 16. */
#define KA_WORD(code, bits) ((uint32_t)(code) | ((uint32_t)(bits) << 8) | ((uint32_t)1 << 16))
/* The same type as a halide_type_t initializer, for metadata. */
#define KA_TYPE(c, b)                                                                                                  \
    { .code = (c), .bits = (b), .lanes = 1 }

#define KA_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))
#define KA_MAX_DIMS 4

/* ------------------------------------------------------------------------
 * Metadata entries
 * ---------------------------------------------------------------------- */

/* Buffers without estimates still carry 2*dims NULL estimate pointers. */
static const int64_t *const ka_no_estimates[2 * KA_MAX_DIMS] = {NULL};

#define KA_META_BUFFER(nm, knd, d, code, bits)                                                                         \
    {                                                                                                                  \
        .name = (nm), .kind = (knd), .dimensions = (d), .type = KA_TYPE(code, bits), .scalar_def = NULL,               \
        .scalar_min = NULL, .scalar_max = NULL, .scalar_estimate = NULL, .buffer_estimates = ka_no_estimates           \
    }
#define KA_META_INPUT(nm, d, code, bits) KA_META_BUFFER(nm, halide_argument_kind_input_buffer, d, code, bits)
#define KA_META_OUTPUT(nm, d, code, bits) KA_META_BUFFER(nm, halide_argument_kind_output_buffer, d, code, bits)
/* def, mn and mx point at halide_scalar_value_t, or are NULL. */
#define KA_META_SCALAR(nm, code, bits, def, mn, mx)                                                                    \
    {                                                                                                                  \
        .name = (nm), .kind = halide_argument_kind_input_scalar, .dimensions = 0, .type = KA_TYPE(code, bits),         \
        .scalar_def = (def), .scalar_min = (mn), .scalar_max = (mx), .scalar_estimate = NULL, .buffer_estimates = NULL \
    }

/* ------------------------------------------------------------------------
 * Buffer arguments and their checks
 * ---------------------------------------------------------------------- */

typedef struct ka_buffer {
    const char *name;  /* the metadata name, e.g. "input" */
    const char *label; /* "Input buffer input", as error messages name it */
    halide_buffer_t *buf;
    uint32_t type_word;
    int dims;
    bool is_output;
    /* The region the kernel touches, per dimension (filled by ka_region). */
    int32_t min[KA_MAX_DIMS];
    int32_t extent[KA_MAX_DIMS];
} ka_buffer;

#define KA_INPUT(nm, b, code, bits, d)                                                                                 \
    {                                                                                                                  \
        .name = (nm), .label = "Input buffer " nm, .buf = (b), .type_word = KA_WORD(code, bits), .dims = (d),          \
        .is_output = false                                                                                             \
    }
#define KA_OUTPUT(nm, b, code, bits, d)                                                                                \
    {                                                                                                                  \
        .name = (nm), .label = "Output buffer " nm, .buf = (b), .type_word = KA_WORD(code, bits), .dims = (d),         \
        .is_output = true                                                                                              \
    }

/* The kernel's bounds rule: given the outputs' regions (already in bufs),
 * fills in the regions of the inputs. NULL means "inputs need nothing". */
typedef void (*ka_bounds_fn)(ka_buffer *bufs);

static inline bool ka_is_query(const halide_buffer_t *b) {
    return b->host == NULL && b->device == 0;
}

/* Outputs touch their own region; inputs whatever the bounds rule says. */
static inline void ka_region(ka_buffer *bufs, int n, ka_bounds_fn bounds) {
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < bufs[i].dims; d++) {
            bufs[i].min[d] = bufs[i].is_output ? bufs[i].buf->dim[d].min : 0;
            bufs[i].extent[d] = bufs[i].is_output ? bufs[i].buf->dim[d].extent : 0;
        }
    }
    if (bounds) {
        bounds(bufs);
    }
}

static inline bool ka_prologue(void *uc, ka_buffer *bufs, int n, ka_bounds_fn bounds, int *rc) {
    bool query = false;
    for (int i = 0; i < n; i++) {
        if (bufs[i].buf == NULL) {
            *rc = halide_error_buffer_argument_is_null(uc, bufs[i].name);
            return true;
        }
        query = query || ka_is_query(bufs[i].buf);
    }
    if (query) {
        /* Bounds query: describe what the kernel needs, with dense strides.
         * The caller's dim array must hold `dims` entries. */
        ka_region(bufs, n, bounds);
        for (int i = 0; i < n; i++) {
            halide_buffer_t *b = bufs[i].buf;
            if (!ka_is_query(b)) {
                continue;
            }
            memcpy(&b->type, &bufs[i].type_word, sizeof(uint32_t));
            b->dimensions = bufs[i].dims;
            b->flags = 0;
            int32_t stride = 1;
            for (int d = 0; d < bufs[i].dims; d++) {
                b->dim[d].min = bufs[i].min[d];
                b->dim[d].extent = bufs[i].extent[d];
                b->dim[d].stride = stride;
                b->dim[d].flags = 0;
                stride *= bufs[i].extent[d];
            }
        }
        *rc = 0;
        return true;
    }
    for (int i = 0; i < n; i++) {
        uint32_t given;
        memcpy(&given, &bufs[i].buf->type, sizeof(uint32_t));
        if (given != bufs[i].type_word) {
            *rc = halide_error_bad_type(uc, bufs[i].label, given, bufs[i].type_word);
            return true;
        }
        if (bufs[i].buf->dimensions != bufs[i].dims) {
            *rc = halide_error_bad_dimensions(uc, bufs[i].label, bufs[i].buf->dimensions, bufs[i].dims);
            return true;
        }
    }
    return false;
}

static inline bool ka_check(void *uc, ka_buffer *bufs, int n, ka_bounds_fn bounds, int *rc) {
    ka_region(bufs, n, bounds);
    for (int i = 0; i < n; i++) {
        const halide_dimension_t *dim = bufs[i].buf->dim;
        for (int d = 0; d < bufs[i].dims; d++) {
            int32_t lo = bufs[i].min[d], hi = bufs[i].min[d] + bufs[i].extent[d] - 1;
            int32_t valid_lo = dim[d].min, valid_hi = dim[d].min + dim[d].extent - 1;
            if (lo < valid_lo || hi > valid_hi) {
                *rc = halide_error_access_out_of_bounds(uc, bufs[i].label, d, lo, hi, valid_lo, valid_hi);
                return true;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        const halide_dimension_t *dim = bufs[i].buf->dim;
        int64_t elements = 1;
        for (int d = 0; d < bufs[i].dims; d++) {
            if (dim[d].extent < 0) {
                *rc = halide_error_buffer_extents_negative(uc, bufs[i].name, d, dim[d].extent);
                return true;
            }
            elements *= dim[d].extent;
            if (elements > INT32_MAX) {
                *rc = halide_error_buffer_extents_too_large(uc, bufs[i].name, elements, INT32_MAX);
                return true;
            }
        }
    }
    for (int i = 0; i < n; i++) {
        if (bufs[i].buf->flags & halide_buffer_flag_device_dirty) {
            *rc = halide_error_device_dirty_with_no_device_support(uc, bufs[i].label);
            return true;
        }
    }
    for (int i = 0; i < n; i++) {
        if (bufs[i].buf->host == NULL) {
            *rc = halide_error_host_is_null(uc, bufs[i].label);
            return true;
        }
    }
    return false;
}

static inline bool ka_range_f64(void *uc, const char *name, double v, double lo, double hi, int *rc) {
    if (v < lo) {
        *rc = halide_error_param_too_small_f64(uc, name, v, lo);
        return true;
    }
    if (v > hi) {
        *rc = halide_error_param_too_large_f64(uc, name, v, hi);
        return true;
    }
    return false;
}

/* ------------------------------------------------------------------------
 * Element access: coordinates are absolute (they honour each dim's min);
 * strides are in elements and may be negative or zero.
 * ---------------------------------------------------------------------- */

static inline int64_t ka_offset2(const halide_buffer_t *b, int32_t x, int32_t y) {
    return (int64_t)(x - b->dim[0].min) * b->dim[0].stride + (int64_t)(y - b->dim[1].min) * b->dim[1].stride;
}

/* The element of type T at (x, y) of buffer b. */
#define KA_AT2(T, b, x, y) (((T *)(void *)(b)->host)[ka_offset2((b), (x), (y))])

#endif /* KERNEL_ABI_H */
