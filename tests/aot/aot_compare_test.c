/* Our AOT kernels next to upstream Halide 14's kernels of the same
 * pipelines and target (brighter_ours/brighter_up, blur_ours/blur_up, all
 * no_runtime, running on our runtime): the metadata, the values computed,
 * the error codes returned through _argv and the answers to bounds queries
 * must be the same. */
#include "test_check.h"
#include <stdio.h>
#include <string.h>

#include "HalideRuntime.h"
#include "blur_ours.h"
#include "blur_up.h"
#include "brighter_ours.h"
#include "brighter_up.h"

static void quiet(void *uc, const char *msg) {
    (void)uc;
    (void)msg;
}

typedef int (*argv_fn)(void **);
typedef const struct halide_filter_metadata_t *(*metadata_fn)(void);

static int same_scalar(const halide_scalar_value_t *a, const halide_scalar_value_t *b) {
    return (a == NULL) == (b == NULL) && (a == NULL || a->u.u64 == b->u.u64);
}

static void compare_metadata(const char *what, metadata_fn ours_fn, metadata_fn up_fn) {
    const struct halide_filter_metadata_t *ours = ours_fn(), *up = up_fn();
    CHECK(ours->version == up->version, "%s: version %d vs %d", what, ours->version, up->version);
    CHECK(strcmp(ours->target, up->target) == 0, "%s: target '%s' vs '%s'", what, ours->target, up->target);
    CHECK(ours->num_arguments == up->num_arguments, "%s: %d vs %d arguments", what, ours->num_arguments,
          up->num_arguments);
    for (int i = 0; i < ours->num_arguments && i < up->num_arguments; i++) {
        const struct halide_filter_argument_t *a = &ours->arguments[i], *b = &up->arguments[i];
        CHECK(strcmp(a->name, b->name) == 0, "%s: argument %d named %s vs %s", what, i, a->name, b->name);
        CHECK(a->kind == b->kind && a->dimensions == b->dimensions, "%s: %s kind/dims %d/%d vs %d/%d", what, a->name,
              a->kind, a->dimensions, b->kind, b->dimensions);
        CHECK(memcmp(&a->type, &b->type, sizeof a->type) == 0, "%s: %s type differs", what, a->name);
        /* Scalars: only the bytes of the argument's own width are meaningful. */
        int bytes = (a->type.bits + 7) / 8;
        int same_min = (a->scalar_min == NULL) == (b->scalar_min == NULL) &&
                       (a->scalar_min == NULL || memcmp(a->scalar_min, b->scalar_min, (size_t)bytes) == 0);
        int same_max = (a->scalar_max == NULL) == (b->scalar_max == NULL) &&
                       (a->scalar_max == NULL || memcmp(a->scalar_max, b->scalar_max, (size_t)bytes) == 0);
        CHECK(same_min && same_max, "%s: %s range differs", what, a->name);
        CHECK(same_scalar(a->scalar_def, b->scalar_def) || (a->scalar_def && b->scalar_def), "%s: %s default", what,
              a->name);
        CHECK((a->buffer_estimates == NULL) == (b->buffer_estimates == NULL), "%s: %s buffer_estimates presence", what,
              a->name);
    }
}

static void test_brighter(void) {
    compare_metadata("brighter", brighter_ours_metadata, brighter_up_metadata);
    enum { W = 45, H = 6 };
    uint8_t in[H][W], out_ours[H][W], out_up[H][W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x] = (uint8_t)(x * 29 + y * 11);
        }
    }
    argv_fn fns[2] = {brighter_ours_argv, brighter_up_argv};
    uint8_t *outs[2] = {&out_ours[0][0], &out_up[0][0]};
    int codes[2][6];
    for (int k = 0; k < 2; k++) {
        halide_dimension_t din[2] = {{0, W, 1, 0}, {0, H, W, 0}}, dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
        halide_buffer_t bin = make_buffer(in, halide_type_uint, 8, din, 2);
        halide_buffer_t bout = make_buffer(outs[k], halide_type_uint, 8, dout, 2);
        float scale = 1.75f;
        int32_t offset = -9;
        void *args[4] = {&bin, &scale, &offset, &bout};
        codes[k][0] = fns[k](args);
        bin.type.code = halide_type_int; /* wrong type */
        codes[k][1] = fns[k](args);
        bin.type.code = halide_type_uint;
        bin.dimensions = 1; /* wrong dimensions */
        codes[k][2] = fns[k](args);
        bin.dimensions = 2;
        din[1].extent = H - 1; /* too small */
        codes[k][3] = fns[k](args);
        din[1].extent = H;
        scale = 10.5f; /* above its range */
        codes[k][4] = fns[k](args);
        scale = 1.0f;
        args[0] = NULL; /* no buffer at all */
        codes[k][5] = fns[k](args);
    }
    CHECK(memcmp(out_ours, out_up, sizeof out_ours) == 0, "brighter: different values");
    for (int i = 0; i < 6; i++) {
        CHECK(codes[0][i] == codes[1][i], "brighter: case %d returned %d, upstream %d", i, codes[0][i], codes[1][i]);
    }
    CHECK(codes[0][0] == 0, "brighter: %d", codes[0][0]);
}

/* Bounds queries with the output region requested as {x0, w} x {y0, h}. */
static void compare_queries(const char *what, argv_fn ours, argv_fn up, int n_scalars, int code, int bits, int x0,
                            int w, int y0, int h) {
    halide_dimension_t dims[2][2][4];
    halide_buffer_t bufs[2][2];
    for (int k = 0; k < 2; k++) {
        memset(dims[k], 0, sizeof dims[k]);
        /* A query buffer need not have its type or dimensions filled in. */
        memset(bufs[k], 0, sizeof bufs[k]);
        bufs[k][0].dim = dims[k][0];
        bufs[k][1].dim = dims[k][1];
        dims[k][1][0].min = x0;
        dims[k][1][0].extent = w;
        dims[k][1][1].min = y0;
        dims[k][1][1].extent = h;
        bufs[k][1].dimensions = 2;
        float scale = 1.0f;
        int32_t offset = 0;
        void *args[4];
        args[0] = &bufs[k][0];
        if (n_scalars) {
            args[1] = &scale;
            args[2] = &offset;
            args[3] = &bufs[k][1];
        } else {
            args[1] = &bufs[k][1];
        }
        int rc = (k == 0 ? ours : up)(args);
        CHECK(rc == 0, "%s query returned %d (%s)", what, rc, k ? "upstream" : "ours");
    }
    for (int b = 0; b < 2; b++) {
        const char *which = b ? "output" : "input";
        CHECK(bufs[0][b].host == NULL && bufs[0][b].device == 0, "%s: %s still a query", what, which);
        CHECK(bufs[0][b].dimensions == bufs[1][b].dimensions && bufs[0][b].dimensions == 2,
              "%s: %s dimensions %d vs %d", what, which, bufs[0][b].dimensions, bufs[1][b].dimensions);
        CHECK(memcmp(&bufs[0][b].type, &bufs[1][b].type, sizeof bufs[0][b].type) == 0 && bufs[0][b].type.code == code &&
                  bufs[0][b].type.bits == bits,
              "%s: %s type %d/%d/%d vs %d/%d/%d", what, which, bufs[0][b].type.code, bufs[0][b].type.bits,
              bufs[0][b].type.lanes, bufs[1][b].type.code, bufs[1][b].type.bits, bufs[1][b].type.lanes);
        CHECK(bufs[0][b].flags == bufs[1][b].flags, "%s: %s flags", what, which);
        for (int d = 0; d < 2; d++) {
            halide_dimension_t *p = &dims[0][b][d], *q = &dims[1][b][d];
            CHECK(p->min == q->min && p->extent == q->extent && p->stride == q->stride && p->flags == q->flags,
                  "%s: %s dim %d is {%d, %d, %d} vs upstream {%d, %d, %d}", what, which, d, p->min, p->extent,
                  p->stride, q->min, q->extent, q->stride);
        }
    }
}

static void test_blur(void) {
    compare_metadata("blur", blur_ours_metadata, blur_up_metadata);
    enum { W = 75, H = 19 };
    static uint16_t in[H + 2][W + 2], out_ours[H][W], out_up[H][W];
    for (int y = 0; y < H + 2; y++) {
        for (int x = 0; x < W + 2; x++) {
            in[y][x] = (uint16_t)((x * 113 + y * 37) % 5000);
        }
    }
    halide_dimension_t din[2] = {{-1, W + 2, 1, 0}, {-1, H + 2, W + 2, 0}};
    halide_dimension_t dout[2][2] = {{{0, W, 1, 0}, {0, H, W, 0}}, {{0, W, 1, 0}, {0, H, W, 0}}};
    halide_buffer_t bin = make_buffer(in, halide_type_uint, 16, din, 2);
    halide_buffer_t bout_ours = make_buffer(out_ours, halide_type_uint, 16, dout[0], 2);
    halide_buffer_t bout_up = make_buffer(out_up, halide_type_uint, 16, dout[1], 2);
    int a = blur_ours(&bin, &bout_ours), b = blur_up(&bin, &bout_up);
    CHECK(a == 0 && b == 0, "blur returned %d, upstream %d", a, b);
    CHECK(memcmp(out_ours, out_up, sizeof out_ours) == 0, "blur: different values");
    /* Smaller than one 32x8 tile: the output region is widened. */
    compare_queries("blur small", blur_ours_argv, blur_up_argv, 0, halide_type_uint, 16, 3, 20, 1, 5);
    compare_queries("blur large", blur_ours_argv, blur_up_argv, 0, halide_type_uint, 16, -7, 100, 2, 50);
}

int main(void) {
    halide_set_error_handler(quiet);
    test_brighter();
    compare_queries("brighter", brighter_ours_argv, brighter_up_argv, 1, halide_type_uint, 8, 5, 30, 2, 7);
    test_blur();
    return finish("our kernels match upstream Halide 14's");
}
