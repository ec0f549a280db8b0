/*
 * box_blur: output(x, y) = sum of input(x+i, y+j) for i, j in {-1, 0, 1},
 * divided by 9; float32, rows in parallel. There is no boundary handling:
 * the input must cover one more pixel than the output on every side, which
 * is what the bounds query reports.
 *
 *   int box_blur(halide_buffer_t *input, halide_buffer_t *output);
 */
#include "kernel_abi.h"

typedef struct box_blur_closure {
    const halide_buffer_t *input, *output;
} box_blur_closure;

static int box_blur_row(void *uc, int y, uint8_t *closure) {
    const box_blur_closure *c = (const box_blur_closure *)(void *)closure;
    (void)uc;
    const halide_dimension_t *xd = &c->output->dim[0];
    for (int32_t x = xd->min; x < xd->min + xd->extent; x++) {
        float sum = 0.0f;
        for (int32_t j = -1; j <= 1; j++) {
            for (int32_t i = -1; i <= 1; i++) {
                sum += KA_AT2(float, c->input, x + i, y + j);
            }
        }
        KA_AT2(float, c->output, x, y) = sum / 9.0f;
    }
    return 0;
}

/* The input needs [min - 1, max + 1] of the output's region in both dims. */
static void box_blur_bounds(ka_buffer *bufs) {
    for (int d = 0; d < 2; d++) {
        bufs[0].min[d] = bufs[1].min[d] - 1;
        bufs[0].extent[d] = bufs[1].extent[d] + 2;
    }
}

int box_blur(halide_buffer_t *input, halide_buffer_t *output) {
    void *uc = NULL;
    ka_buffer bufs[] = {
        KA_INPUT("input", input, halide_type_float, 32, 2),
        KA_OUTPUT("output", output, halide_type_float, 32, 2),
    };
    int rc;
    if (ka_prologue(uc, bufs, KA_COUNT(bufs), box_blur_bounds, &rc) ||
        ka_check(uc, bufs, KA_COUNT(bufs), box_blur_bounds, &rc)) {
        return rc;
    }
    box_blur_closure c = {input, output};
    return halide_do_par_for(uc, box_blur_row, output->dim[1].min, output->dim[1].extent, (uint8_t *)&c);
}

int box_blur_argv(void **args) {
    return box_blur((halide_buffer_t *)args[0], (halide_buffer_t *)args[1]);
}

static const halide_filter_argument_t box_blur_arguments[] = {
    KA_META_INPUT("input", 2, halide_type_float, 32),
    KA_META_OUTPUT("output", 2, halide_type_float, 32),
};

static const halide_filter_metadata_t box_blur_meta = {
    .version = halide_filter_metadata_version,
    .num_arguments = KA_COUNT(box_blur_arguments),
    .arguments = box_blur_arguments,
    .target = KA_TARGET,
    .name = "box_blur",
};

const halide_filter_metadata_t *box_blur_metadata(void) {
    return &box_blur_meta;
}
