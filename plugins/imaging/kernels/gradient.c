/*
 * gradient: output(x, y) = ax * x + ay * y at every coordinate of the output
 * (so a buffer whose min is not 0 gets the values of its own coordinates);
 * float32, rows in parallel. Scalars: ax (default 1), ay (default 0, in
 * [-1000, 1000]).
 *
 *   int gradient(float ax, float ay, halide_buffer_t *output);
 */
#include "kernel_abi.h"

typedef struct gradient_closure {
    const halide_buffer_t *output;
    float ax, ay;
} gradient_closure;

static int gradient_row(void *uc, int y, uint8_t *closure) {
    const gradient_closure *c = (const gradient_closure *)(void *)closure;
    (void)uc;
    const halide_dimension_t *xd = &c->output->dim[0];
    for (int32_t x = xd->min; x < xd->min + xd->extent; x++) {
        KA_AT2(float, c->output, x, y) = c->ax * (float)x + c->ay * (float)y;
    }
    return 0;
}

int gradient(float ax, float ay, halide_buffer_t *output) {
    void *uc = NULL;
    ka_buffer bufs[] = {KA_OUTPUT("output", output, halide_type_float, 32, 2)};
    int rc;
    /* No inputs, so no bounds rule (NULL). Scalar ranges come last. */
    if (ka_prologue(uc, bufs, KA_COUNT(bufs), NULL, &rc) || ka_check(uc, bufs, KA_COUNT(bufs), NULL, &rc) ||
        ka_range_f64(uc, "ay", ay, -1000.0, 1000.0, &rc)) {
        return rc;
    }
    gradient_closure c = {output, ax, ay};
    return halide_do_par_for(uc, gradient_row, output->dim[1].min, output->dim[1].extent, (uint8_t *)&c);
}

/* Scalars arrive as pointers to their storage (4 bytes for float32). */
int gradient_argv(void **args) {
    return gradient(*(const float *)args[0], *(const float *)args[1], (halide_buffer_t *)args[2]);
}

static const halide_scalar_value_t gradient_ax_def = {.u.f32 = 1.0f};
static const halide_scalar_value_t gradient_ay_def = {.u.f32 = 0.0f};
static const halide_scalar_value_t gradient_ay_min = {.u.f32 = -1000.0f};
static const halide_scalar_value_t gradient_ay_max = {.u.f32 = 1000.0f};

static const halide_filter_argument_t gradient_arguments[] = {
    KA_META_SCALAR("ax", halide_type_float, 32, &gradient_ax_def, NULL, NULL),
    KA_META_SCALAR("ay", halide_type_float, 32, &gradient_ay_def, &gradient_ay_min, &gradient_ay_max),
    KA_META_OUTPUT("output", 2, halide_type_float, 32),
};

static const halide_filter_metadata_t gradient_meta = {
    .version = halide_filter_metadata_version,
    .num_arguments = KA_COUNT(gradient_arguments),
    .arguments = gradient_arguments,
    .target = KA_TARGET,
    .name = "gradient",
};

const halide_filter_metadata_t *gradient_metadata(void) {
    return &gradient_meta;
}
