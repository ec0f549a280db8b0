/* Calls the kernels that aot_generate compiled ahead of time, from C, through
 * their plain entry points and _argv, and checks their metadata and error
 * codes. Linked with the kernels' static libraries and the runtime. */
#include "test_check.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "blur.h"
#include "brighter.h"
#include "brighter_dbg.h"
#include "brighter_nbq.h"
#include "offset_uc.h"

/* Errors are reported here instead of aborting; the kernel's return code
 * says what went wrong. */
static void *last_error_context;
static char last_error[1024];
static void record_error(void *user_context, const char *msg) {
    last_error_context = user_context;
    snprintf(last_error, sizeof last_error, "%s", msg);
}

static uint8_t saturate_u8(float v) {
    return v <= 0 ? 0 : (v >= 255 ? 255 : (uint8_t)v);
}

static void test_brighter(void) {
    enum { W = 37, H = 5 };
    uint8_t in[H][W], out[H][W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x] = (uint8_t)(x * 13 + y * 7);
        }
    }
    halide_dimension_t din[2] = {{0, W, 1, 0}, {0, H, W, 0}}, dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bin = make_buffer(in, halide_type_uint, 8, din, 2);
    halide_buffer_t bout = make_buffer(out, halide_type_uint, 8, dout, 2);

    int rc = brighter(&bin, 1.5f, -20, &bout);
    CHECK(rc == 0, "brighter returned %d (%s)", rc, last_error);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint8_t want = saturate_u8((float)in[y][x] * 1.5f + (float)-20);
            CHECK(out[y][x] == want, "brighter at %d,%d: %d, expected %d", x, y, out[y][x], want);
        }
    }

    float scale = 2.25f;
    int32_t offset = 7;
    void *args[4] = {&bin, &scale, &offset, &bout};
    rc = brighter_argv(args);
    CHECK(rc == 0, "brighter_argv returned %d", rc);
    CHECK(out[3][11] == saturate_u8((float)in[3][11] * 2.25f + 7.0f), "brighter_argv value %d", out[3][11]);

    /* A scalar above its range: param_too_large. */
    scale = 11.0f;
    rc = brighter_argv(args);
    CHECK(rc == -10, "scale above max returned %d", rc);
    CHECK(strstr(last_error, "scale") != NULL, "error message '%s' names the parameter", last_error);
    scale = 1.0f;

    /* The wrong element type: bad_type. */
    bin.type.bits = 16;
    rc = brighter_argv(args);
    CHECK(rc == -3, "a uint16 input for a uint8 parameter returned %d", rc);
    bin.type.bits = 8;

    /* An input smaller than the output: access_out_of_bounds. */
    din[0].extent = W - 1;
    rc = brighter_argv(args);
    CHECK(rc == -4, "a too small input returned %d", rc);
    din[0].extent = W;

    const struct halide_filter_metadata_t *md = brighter_metadata();
    CHECK(md->version == 1, "metadata version %d", md->version);
    CHECK(md->num_arguments == 4, "metadata has %d arguments", md->num_arguments);
    CHECK(strcmp(md->name, "brighter") == 0, "metadata name %s", md->name);
    CHECK(strncmp(md->target, "x86-64-linux", 12) == 0, "metadata target %s", md->target);
    const char *names[4] = {"input", "scale", "offset", "brighter"};
    int kinds[4] = {halide_argument_kind_input_buffer, halide_argument_kind_input_scalar,
                    halide_argument_kind_input_scalar, halide_argument_kind_output_buffer};
    int dims[4] = {2, 0, 0, 2};
    int codes[4] = {halide_type_uint, halide_type_float, halide_type_int, halide_type_uint};
    int bits[4] = {8, 32, 32, 8};
    for (int i = 0; i < 4 && i < md->num_arguments; i++) {
        const struct halide_filter_argument_t *a = &md->arguments[i];
        CHECK(strcmp(a->name, names[i]) == 0, "argument %d is %s", i, a->name);
        CHECK(a->kind == kinds[i], "argument %s kind %d", a->name, a->kind);
        CHECK(a->dimensions == dims[i], "argument %s dimensions %d", a->name, a->dimensions);
        CHECK(a->type.code == codes[i] && a->type.bits == bits[i] && a->type.lanes == 1, "argument %s type %d/%d/%d",
              a->name, a->type.code, a->type.bits, a->type.lanes);
        CHECK((a->buffer_estimates != NULL) == (kinds[i] != halide_argument_kind_input_scalar),
              "argument %s buffer_estimates %p", a->name, (const void *)a->buffer_estimates);
    }
    const int64_t *const *est = md->arguments[0].buffer_estimates;
    CHECK(est && est[0] && *est[0] == 0 && est[1] && *est[1] == 1024 && est[2] && *est[2] == 0 && est[3] &&
              *est[3] == 768,
          "input's estimates (set_estimates)");
    const struct halide_filter_argument_t *s = &md->arguments[1];
    CHECK(s->scalar_min && s->scalar_min->u.f32 == 0.0f, "scale's min");
    CHECK(s->scalar_max && s->scalar_max->u.f32 == 10.0f, "scale's max");
    CHECK(s->scalar_def == NULL && s->scalar_estimate == NULL, "scale has no default or estimate");
    CHECK(md->arguments[2].scalar_min == NULL, "offset has no range");
}

static void test_blur(void) {
    enum { W = 70, H = 21 };
    static uint16_t in[H + 2][W + 2], out[H][W];
    for (int y = 0; y < H + 2; y++) {
        for (int x = 0; x < W + 2; x++) {
            in[y][x] = (uint16_t)((x * 31 + y * 17) % 4000);
        }
    }
    halide_dimension_t din[2] = {{-1, W + 2, 1, 0}, {-1, H + 2, W + 2, 0}}, dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bin = make_buffer(in, halide_type_uint, 16, din, 2);
    halide_buffer_t bout = make_buffer(out, halide_type_uint, 16, dout, 2);
    int rc = blur(&bin, &bout);
    CHECK(rc == 0, "blur returned %d (%s)", rc, last_error);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int rows[3];
            for (int k = 0; k < 3; k++) {
                int r = y + k; /* row y - 1 + k of the image, + 1 for its min of -1 */
                rows[k] = (in[r][x] + in[r][x + 1] + in[r][x + 2]) / 3;
            }
            int want = (rows[0] + rows[1] + rows[2]) / 3;
            CHECK(out[y][x] == want, "blur at %d,%d: %d, expected %d", x, y, out[y][x], want);
        }
    }
}

static void test_user_context(void) {
    int32_t values[10], out[10];
    for (int i = 0; i < 10; i++) {
        values[i] = i * i;
    }
    halide_dimension_t din[1] = {{0, 10, 1, 0}}, dout[1] = {{0, 10, 1, 0}};
    halide_buffer_t bin = make_buffer(values, halide_type_int, 32, din, 1);
    halide_buffer_t bout = make_buffer(out, halide_type_int, 32, dout, 1);
    int marker = 42;
    int rc = offset_uc(&marker, &bin, -5, &bout);
    CHECK(rc == 0, "offset_uc returned %d", rc);
    CHECK(out[9] == 76, "offset_uc value %d", out[9]);

    const struct halide_filter_metadata_t *md = offset_uc_metadata();
    CHECK(md->num_arguments == 4, "offset_uc has %d arguments", md->num_arguments);
    CHECK(strcmp(md->arguments[0].name, "__user_context") == 0 && md->arguments[0].kind == 0 &&
              md->arguments[0].type.code == halide_type_handle && md->arguments[0].type.bits == 64,
          "first argument %s", md->arguments[0].name);
    CHECK(strstr(md->target, "user_context") != NULL, "target %s", md->target);

    /* The context reaches the error handler. */
    void *uc = &marker;
    int32_t delta = 1;
    bin.type.bits = 16;
    void *args[4] = {&uc, &bin, &delta, &bout};
    last_error_context = NULL;
    rc = offset_uc_argv(args);
    CHECK(rc == -3, "offset_uc with a bad type returned %d", rc);
    CHECK(last_error_context == &marker, "the error handler got user_context %p", last_error_context);
}

static char printed[4096];
static void record_print(void *user_context, const char *msg) {
    (void)user_context;
    strncat(printed, msg, sizeof printed - strlen(printed) - 1);
}

static void test_target_flags(void) {
    uint8_t in[2][16] = {{0}}, out[2][16];
    halide_dimension_t din[2] = {{0, 16, 1, 0}, {0, 2, 16, 0}}, dout[2] = {{0, 16, 1, 0}, {0, 2, 16, 0}};
    halide_buffer_t bin = make_buffer(in, halide_type_uint, 8, din, 2);
    halide_buffer_t bout = make_buffer(out, halide_type_uint, 8, dout, 2);

    /* no_bounds_query: a buffer without memory is host_is_null (-34), not a query. */
    halide_buffer_t query = bin;
    query.host = NULL;
    int rc = brighter_nbq(&query, 1.0f, 0, &bout);
    CHECK(rc == -34, "no_bounds_query with a NULL host returned %d", rc);
    rc = brighter(&query, 1.0f, 0, &bout);
    CHECK(rc == 0 && query.host == NULL, "without no_bounds_query it is a bounds query (%d)", rc);

    /* debug: entry and exit are reported through halide_print. */
    halide_print_t old = halide_set_custom_print(record_print);
    printed[0] = 0;
    rc = brighter_dbg(&bin, 1.0f, 0, &bout);
    halide_set_custom_print(old);
    CHECK(rc == 0, "brighter_dbg returned %d", rc);
    CHECK(strstr(printed, "Entering Pipeline brighter_dbg") && strstr(printed, "Exiting Pipeline brighter_dbg"),
          "debug output: '%s'", printed);
}

int main(void) {
    halide_set_error_handler(record_error);
    test_target_flags();
    test_brighter();
    test_blur();
    test_user_context();
    return finish("all AOT checks passed");
}
