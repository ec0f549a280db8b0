/*
 * invert: output(x, y) = 255 - input(x, y), uint8, rows in parallel.
 *
 *   int invert(halide_buffer_t *input, halide_buffer_t *output);
 */
#include "kernel_abi.h"

typedef struct invert_closure {
    const halide_buffer_t *input, *output;
} invert_closure;

/* One row y of the output; halide_do_par_for calls it for every y. */
static int invert_row(void *uc, int y, uint8_t *closure) {
    const invert_closure *c = (const invert_closure *)(void *)closure;
    (void)uc;
    const halide_dimension_t *xd = &c->output->dim[0];
    for (int32_t x = xd->min; x < xd->min + xd->extent; x++) {
        KA_AT2(uint8_t, c->output, x, y) = (uint8_t)(255 - KA_AT2(uint8_t, c->input, x, y));
    }
    return 0;
}

/* The input is read exactly where the output is written. */
static void invert_bounds(ka_buffer *bufs) {
    for (int d = 0; d < 2; d++) {
        bufs[0].min[d] = bufs[1].min[d];
        bufs[0].extent[d] = bufs[1].extent[d];
    }
}

int invert(halide_buffer_t *input, halide_buffer_t *output) {
    void *uc = NULL;
    ka_buffer bufs[] = {
        KA_INPUT("input", input, halide_type_uint, 8, 2),
        KA_OUTPUT("output", output, halide_type_uint, 8, 2),
    };
    int rc;
    if (ka_prologue(uc, bufs, KA_COUNT(bufs), invert_bounds, &rc) ||
        ka_check(uc, bufs, KA_COUNT(bufs), invert_bounds, &rc)) {
        return rc;
    }
    invert_closure c = {input, output};
    return halide_do_par_for(uc, invert_row, output->dim[1].min, output->dim[1].extent, (uint8_t *)&c);
}

int invert_argv(void **args) {
    return invert((halide_buffer_t *)args[0], (halide_buffer_t *)args[1]);
}

static const halide_filter_argument_t invert_arguments[] = {
    KA_META_INPUT("input", 2, halide_type_uint, 8),
    KA_META_OUTPUT("output", 2, halide_type_uint, 8),
};

static const halide_filter_metadata_t invert_meta = {
    .version = halide_filter_metadata_version,
    .num_arguments = KA_COUNT(invert_arguments),
    .arguments = invert_arguments,
    .target = KA_TARGET,
    .name = "invert",
};

const halide_filter_metadata_t *invert_metadata(void) {
    return &invert_meta;
}
