/* Calls kernels built by the generator executable (example_generators) from
 * C and checks their values and metadata, including what the command line
 * set: GeneratorParams, an alias's parameters, a scalar Input's default. */
#include "test_check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "add_buffers.h"
#include "brighten.h"
#include "brighten_f.h"
#include "negative.h"

static void quiet(void *user_context, const char *msg) {
    (void)user_context;
    (void)msg;
}

int main(void) {
    halide_set_error_handler(quiet);
    enum { W = 21, H = 4 };
    uint8_t in[H][W], out8[H][W];
    float outf[H][W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x] = (uint8_t)(x * 9 + y * 5);
        }
    }
    halide_dimension_t d2[2] = {{0, W, 1, 0}, {0, H, W, 0}}, o2[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_dimension_t f2[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bin = make_buffer(in, halide_type_uint, 8, d2, 2);
    halide_buffer_t bout = make_buffer(out8, halide_type_uint, 8, o2, 2);
    halide_buffer_t bf = make_buffer(outf, halide_type_float, 32, f2, 2);

    /* brighten: gain=2 and rounding=nearest from the command line. */
    /* Its requirement (offset > -256, from add_requirement in generate()). */
    int rc = brighten(&bin, 1.3f, -300, &bout);
    CHECK(rc == halide_error_code_requirement_failed, "brighten with offset -300 returned %d", rc);
    rc = brighten(&bin, 1.3f, -7, &bout);
    CHECK(rc == 0, "brighten returned %d", rc);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float v = nearbyintf((float)in[y][x] * 1.3f * 2.0f + (float)-7);
            uint8_t want = v <= 0 ? 0 : (v >= 255 ? 255 : (uint8_t)v);
            CHECK(out8[y][x] == want, "brighten at %d,%d: %d, expected %d", x, y, out8[y][x], want);
        }
    }
    const struct halide_filter_metadata_t *md = brighten_metadata();
    CHECK(md->num_arguments == 4 && strcmp(md->arguments[1].name, "scale") == 0, "brighten's arguments");
    const struct halide_filter_argument_t *scale = &md->arguments[1], *offset = &md->arguments[2];
    CHECK(scale->scalar_def && scale->scalar_def->u.f32 == 2.5f, "scale's default (set by scale=2.5)");
    CHECK(scale->scalar_min && scale->scalar_min->u.f32 == 0.0f && scale->scalar_max &&
              scale->scalar_max->u.f32 == 10.0f,
          "scale's range");
    CHECK(scale->scalar_estimate && scale->scalar_estimate->u.f32 == 2.0f, "scale's estimate (set_estimate)");
    CHECK(offset->scalar_def && offset->scalar_def->u.i32 == 0 && offset->scalar_min == NULL, "offset's default");
    CHECK(offset->scalar_estimate == NULL, "offset has no estimate");
    CHECK(strcmp(md->arguments[3].name, "output") == 0 && md->arguments[3].type.code == halide_type_uint,
          "output is uint8");

    /* brighten_float: the alias sets output_type=float32; built with no_runtime. */
    rc = brighten_f(&bin, 0.5f, 3, &bf);
    CHECK(rc == 0, "brighten_f returned %d", rc);
    CHECK(outf[2][7] == (float)in[2][7] * 0.5f + 3.0f, "brighten_f value %f", outf[2][7]);
    CHECK(brighten_f_metadata()->arguments[3].type.code == halide_type_float &&
              brighten_f_metadata()->arguments[3].type.bits == 32,
          "brighten_f's output is float32");
    CHECK(strstr(brighten_f_metadata()->target, "no_runtime") != NULL, "brighten_f target %s",
          brighten_f_metadata()->target);

    /* add_buffers: types and dimensions from a.type=int16 a.dim=1 ... */
    int16_t a[10], b[10], s[10];
    for (int i = 0; i < 10; i++) {
        a[i] = (int16_t)(i * 1000);
        b[i] = (int16_t)(-i * 7);
    }
    halide_dimension_t da[1] = {{0, 10, 1, 0}}, db[1] = {{0, 10, 1, 0}}, ds[1] = {{0, 10, 1, 0}};
    halide_buffer_t ba = make_buffer(a, halide_type_int, 16, da, 1), bb = make_buffer(b, halide_type_int, 16, db, 1);
    halide_buffer_t bs = make_buffer(s, halide_type_int, 16, ds, 1);
    rc = add_buffers(&ba, &bb, &bs);
    CHECK(rc == 0 && s[9] == 9000 - 63, "add_buffers returned %d, s[9] = %d", rc, s[9]);
    CHECK(add_buffers_metadata()->arguments[0].dimensions == 1 && add_buffers_metadata()->arguments[0].type.bits == 16,
          "add_buffers' a is int16, 1-D");

    /* negative: a Tuple output, one buffer per value. */
    uint8_t neg[H][W];
    float frac[H][W];
    halide_dimension_t n2[2] = {{0, W, 1, 0}, {0, H, W, 0}}, r2[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bneg = make_buffer(neg, halide_type_uint, 8, n2, 2);
    halide_buffer_t bfrac = make_buffer(frac, halide_type_float, 32, r2, 2);
    rc = negative(&bin, &bneg, &bfrac);
    CHECK(rc == 0, "negative returned %d", rc);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            /* As upstream, x / 255.0f is compiled as x times the reciprocal. */
            CHECK(neg[y][x] == 255 - in[y][x] && frac[y][x] == (float)in[y][x] * (1.0f / 255.0f), "negative at %d,%d",
                  x, y);
        }
    }
    const struct halide_filter_metadata_t *nmd = negative_metadata();
    CHECK(nmd->num_arguments == 3 && strcmp(nmd->arguments[1].name, "negative.0") == 0 &&
              strcmp(nmd->arguments[2].name, "negative.1") == 0 && nmd->arguments[2].kind == 2 &&
              nmd->arguments[2].type.code == halide_type_float,
          "negative's outputs are negative.0 (uint8) and negative.1 (float32)");
    /* The buffers of a Tuple must share their region. */
    r2[0].extent = W - 1;
    rc = negative(&bin, &bneg, &bfrac);
    CHECK(rc == -8, "Tuple buffers of different sizes returned %d", rc);

    return finish("generator kernels as expected");
}
