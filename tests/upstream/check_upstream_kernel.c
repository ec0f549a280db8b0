/*
 * check_upstream_kernel.c: load kernels built by upstream Halide 14
 * (tests/upstream/build_upstream_kernels.py) through dlopen and print the
 * facts our runtime and loader depend on.
 *
 *   check_upstream_kernel OUTDIR
 *
 * - reads up_brighten_metadata() and prints every field;
 * - runs up_brighten_argv on a 64x48 image and checks each pixel;
 * - checks the error paths (type word with lanes=0, offset out of range,
 *   wrong dimensions) with an error handler installed on the library's own
 *   embedded runtime;
 * - bounds-queries up_blur for a few output regions and prints the input
 *   region and strides it asks for, then runs it and checks the result;
 * - runs up_scale_f32 once.
 *
 * Build (HalideRuntime.h includes a generated HalideRuntimeVersion.h; any
 * directory holding a small one will do):
 *   gcc -O1 -Wall -I BUILD -I runtime/include tests/upstream/check_upstream_kernel.c -ldl
 *
 * Exit status 0 when every check passed, 1 otherwise.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "HalideRuntime.h"

typedef int (*argv_fn)(void **);
typedef const halide_filter_metadata_t *(*meta_fn)(void);
typedef void (*error_handler_fn)(void *, const char *);
typedef error_handler_fn (*set_error_handler_fn)(error_handler_fn);

static int failures = 0;
static char last_error[1024];

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

static void capture_error(void *uc, const char *msg) {
    (void)uc;
    snprintf(last_error, sizeof last_error, "%s", msg);
}

static const char *kind_name(int k) {
    switch (k) {
    case halide_argument_kind_input_scalar: return "input_scalar";
    case halide_argument_kind_input_buffer: return "input_buffer";
    case halide_argument_kind_output_buffer: return "output_buffer";
    }
    return "?";
}

static uint32_t type_word(struct halide_type_t t) {
    uint32_t w;
    memcpy(&w, &t, sizeof w);
    return w;
}

static void print_scalar(const char *label, const halide_scalar_value_t *v, struct halide_type_t t) {
    if (!v) {
        printf(" %s=NULL", label);
    } else if (t.code == halide_type_float && t.bits == 32) {
        printf(" %s=%g", label, (double)v->f32);
    } else if (t.code == halide_type_float) {
        printf(" %s=%g", label, v->f64);
    } else if (t.code == halide_type_int) {
        long long x = t.bits == 8 ? v->i8 : t.bits == 16 ? v->i16 : t.bits == 32 ? v->i32 : v->i64;
        printf(" %s=%lld", label, x);
    } else {
        unsigned long long x = t.bits <= 8 ? v->u8 : t.bits == 16 ? v->u16 : t.bits == 32 ? v->u32 : v->u64;
        printf(" %s=%llu", label, x);
    }
}

static void print_metadata(const halide_filter_metadata_t *md) {
    printf("metadata: version=%d num_arguments=%d name=\"%s\"\n", md->version, md->num_arguments, md->name);
    printf("metadata: target=\"%s\"\n", md->target);
    for (int i = 0; i < md->num_arguments; i++) {
        const halide_filter_argument_t *a = &md->arguments[i];
        printf("  arg[%d] name=\"%s\" kind=%d(%s) dimensions=%d type={code=%u bits=%u lanes=%u} word=0x%08x", i,
               a->name, a->kind, kind_name(a->kind), a->dimensions, (unsigned)a->type.code, (unsigned)a->type.bits,
               (unsigned)a->type.lanes, type_word(a->type));
        if (a->kind == halide_argument_kind_input_scalar) {
            print_scalar("def", a->scalar_def, a->type);
            print_scalar("min", a->scalar_min, a->type);
            print_scalar("max", a->scalar_max, a->type);
            print_scalar("estimate", a->scalar_estimate, a->type);
        } else if (!a->buffer_estimates) {
            printf(" buffer_estimates=NULL");
        } else {
            int nonnull = 0;
            for (int d = 0; d < 2 * a->dimensions; d++) {
                nonnull += a->buffer_estimates[d] != NULL;
            }
            printf(" buffer_estimates=%d/%d non-NULL", nonnull, 2 * a->dimensions);
        }
        printf("\n");
    }
}

static void *open_lib(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/lib%s.so", dir, name);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        printf("FAIL dlopen %s: %s\n", path, dlerror());
        exit(1);
    }
    printf("loaded %s\n", path);
    /* Install a handler on this library's embedded runtime; the default one
     * prints and aborts. */
    set_error_handler_fn set = (set_error_handler_fn)dlsym(h, "halide_set_error_handler");
    CHECK(set != NULL, "halide_set_error_handler not exported by %s", path);
    if (set) {
        set(capture_error);
    }
    return h;
}

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) {
        printf("FAIL dlsym %s: %s\n", name, dlerror());
        exit(1);
    }
    return p;
}

static halide_buffer_t make_buf(struct halide_type_t t, void *host, halide_dimension_t *dim, int dims) {
    halide_buffer_t b;
    memset(&b, 0, sizeof b);
    b.host = (uint8_t *)host;
    b.type = t;
    b.dimensions = dims;
    b.dim = dim;
    return b;
}

/* ------------------------------------------------------------------------ */

static void check_brighten(const char *dir) {
    void *h = open_lib(dir, "up_brighten");
    meta_fn md_fn = (meta_fn)sym(h, "up_brighten_metadata");
    argv_fn run = (argv_fn)sym(h, "up_brighten_argv");
    sym(h, "up_brighten");
    const halide_filter_metadata_t *md = md_fn();
    print_metadata(md);

    CHECK(md->version == 1, "version %d", md->version);
    CHECK(md->num_arguments == 3, "num_arguments %d", md->num_arguments);
    CHECK(strcmp(md->name, "up_brighten") == 0, "name %s", md->name);
    CHECK(strcmp(md->arguments[0].name, "input") == 0, "arg0 %s", md->arguments[0].name);
    CHECK(strcmp(md->arguments[1].name, "offset") == 0, "arg1 %s", md->arguments[1].name);
    CHECK(strcmp(md->arguments[2].name, "up_brighten") == 0, "arg2 %s", md->arguments[2].name);
    CHECK(type_word(md->arguments[0].type) == 0x00010801u, "input word 0x%08x", type_word(md->arguments[0].type));
    CHECK(type_word(md->arguments[1].type) == 0x00012000u, "offset word 0x%08x", type_word(md->arguments[1].type));
    CHECK(md->arguments[1].scalar_min && md->arguments[1].scalar_min->i32 == -255, "offset min");
    CHECK(md->arguments[1].scalar_max && md->arguments[1].scalar_max->i32 == 255, "offset max");

    enum { W = 64, H = 48 };
    static uint8_t in[H][W], out[H][W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x] = (uint8_t)(x * 3 + y * 5);
        }
    }
    halide_dimension_t din[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_dimension_t dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bin = make_buf(md->arguments[0].type, in, din, 2);
    halide_buffer_t bout = make_buf(md->arguments[2].type, out, dout, 2);
    static const int offsets[] = {100, -100, 0, 255, -255};
    for (unsigned k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
        int32_t offset = offsets[k];
        void *args[3] = {&bin, &offset, &bout};
        memset(out, 0xAB, sizeof out);
        int rc = run(args);
        int bad = 0;
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                int e = in[y][x] + offset;
                e = e < 0 ? 0 : e > 255 ? 255 : e;
                bad += out[y][x] != e;
            }
        }
        printf("up_brighten_argv 64x48 offset=%d: rc=%d mismatches=%d out(0,0)=%d out(63,47)=%d out_flags=%llu\n",
               offset, rc, bad, out[0][0], out[H - 1][W - 1], (unsigned long long)bout.flags);
        CHECK(rc == 0 && bad == 0, "brighten offset=%d rc=%d bad=%d", offset, rc, bad);
    }

    /* Error paths, through the handler installed on the embedded runtime. */
    {
        int32_t offset = 300;
        void *args[3] = {&bin, &offset, &bout};
        last_error[0] = 0;
        int rc = run(args);
        printf("offset=300: rc=%d error=\"%s\"\n", rc, last_error);
        CHECK(rc == halide_error_code_param_too_large, "offset=300 rc=%d", rc);
    }
    {
        int32_t offset = 1;
        halide_buffer_t b0 = bin;
        b0.type.lanes = 0; /* the main-branch convention */
        void *args[3] = {&b0, &offset, &bout};
        last_error[0] = 0;
        int rc = run(args);
        printf("input type word 0x%08x (lanes=0): rc=%d error=\"%s\"\n", type_word(b0.type), rc, last_error);
        CHECK(rc == halide_error_code_bad_type, "lanes=0 rc=%d", rc);
    }
    {
        int32_t offset = 1;
        halide_buffer_t b3 = bin;
        b3.dimensions = 3;
        halide_dimension_t d3[3] = {{0, W, 1, 0}, {0, H, W, 0}, {0, 1, W * H, 0}};
        b3.dim = d3;
        void *args[3] = {&b3, &offset, &bout};
        last_error[0] = 0;
        int rc = run(args);
        printf("input dimensions=3: rc=%d error=\"%s\"\n", rc, last_error);
        CHECK(rc == halide_error_code_bad_dimensions, "dims=3 rc=%d", rc);
    }
    {
        /* An input narrower than the output. */
        int32_t offset = 1;
        halide_dimension_t dsmall[2] = {{0, W - 1, 1, 0}, {0, H, W, 0}};
        halide_buffer_t bs = make_buf(md->arguments[0].type, in, dsmall, 2);
        void *args[3] = {&bs, &offset, &bout};
        last_error[0] = 0;
        int rc = run(args);
        printf("input 63x48 for output 64x48: rc=%d error=\"%s\"\n", rc, last_error);
        CHECK(rc == halide_error_code_access_out_of_bounds, "small input rc=%d", rc);
    }
    {
        /* A narrow output (smaller than the vector width 16). The default
         * tail strategy for an output split is ShiftInwards: the last vector
         * is shifted back to end at the output max, so a 5-wide output is
         * written at x in [-11, 4] and the kernel rejects the call (-4)
         * before touching memory. Outputs (and inputs) must be >= 16 wide. */
        int32_t offset = 7;
        static uint8_t o2[H][W];
        halide_dimension_t dnarrow[2] = {{0, 5, 1, 0}, {0, 3, W, 0}};
        halide_buffer_t bn = make_buf(md->arguments[2].type, o2, dnarrow, 2);
        memset(o2, 0, sizeof o2);
        void *args[3] = {&bin, &offset, &bn};
        last_error[0] = 0;
        int rc = run(args);
        int bad = 0;
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < W; x++) {
                bad += o2[y][x] != 0;
            }
        }
        printf("output 5x3 (narrower than vector): rc=%d bytes_written=%d error=\"%s\"\n", rc, bad, last_error);
        CHECK(rc == halide_error_code_access_out_of_bounds && bad == 0, "narrow output rc=%d bad=%d", rc, bad);
    }
    {
        /* Bounds query on the brighten output. */
        int32_t offset = 0;
        halide_dimension_t qi[2] = {{0}}, qo[2] = {{0, 5, 0, 0}, {0, 3, 0, 0}};
        halide_buffer_t bi = make_buf((struct halide_type_t){0}, NULL, qi, 0);
        halide_buffer_t bo = make_buf((struct halide_type_t){0}, NULL, qo, 0);
        void *args[3] = {&bi, &offset, &bo};
        int rc = run(args);
        printf("up_brighten query out 5x3: rc=%d input type=0x%08x dims=%d region x[%d,+%d,s%d] y[%d,+%d,s%d]; "
               "output x[%d,+%d,s%d] y[%d,+%d,s%d]\n",
               rc, type_word(bi.type), bi.dimensions, qi[0].min, qi[0].extent, qi[0].stride, qi[1].min, qi[1].extent,
               qi[1].stride, qo[0].min, qo[0].extent, qo[0].stride, qo[1].min, qo[1].extent, qo[1].stride);
        CHECK(rc == 0, "brighten query rc=%d", rc);
    }
}

/* ------------------------------------------------------------------------ */

static void blur_query(argv_fn run, const halide_filter_metadata_t *md, int ox, int oy, int ow, int oh,
                       halide_dimension_t qi[2], halide_dimension_t qo[2]) {
    memset(qi, 0, 2 * sizeof *qi);
    memset(qo, 0, 2 * sizeof *qo);
    qo[0].min = ox;
    qo[0].extent = ow;
    qo[1].min = oy;
    qo[1].extent = oh;
    halide_buffer_t bi = make_buf(md->arguments[0].type, NULL, qi, md->arguments[0].dimensions);
    halide_buffer_t bo = make_buf(md->arguments[1].type, NULL, qo, md->arguments[1].dimensions);
    void *args[2] = {&bi, &bo};
    last_error[0] = 0;
    int rc = run(args);
    printf("up_blur query out x[%d,+%d] y[%d,+%d]: rc=%d -> input x{min=%d,extent=%d,stride=%d} "
           "y{min=%d,extent=%d,stride=%d} type=0x%08x dims=%d host=%p flags=%llu; "
           "output x{%d,%d,%d} y{%d,%d,%d}%s%s\n",
           ox, ow, oy, oh, rc, qi[0].min, qi[0].extent, qi[0].stride, qi[1].min, qi[1].extent, qi[1].stride,
           type_word(bi.type), bi.dimensions, (void *)bi.host, (unsigned long long)bi.flags, qo[0].min, qo[0].extent,
           qo[0].stride, qo[1].min, qo[1].extent, qo[1].stride, last_error[0] ? " error=" : "", last_error);
    CHECK(rc == 0, "blur query rc=%d", rc);
}

static void check_blur(const char *dir) {
    void *h = open_lib(dir, "up_blur");
    meta_fn md_fn = (meta_fn)sym(h, "up_blur_metadata");
    argv_fn run = (argv_fn)sym(h, "up_blur_argv");
    const halide_filter_metadata_t *md = md_fn();
    print_metadata(md);
    CHECK(md->num_arguments == 2, "blur num_arguments %d", md->num_arguments);

    halide_dimension_t qi[2], qo[2];
    blur_query(run, md, 0, 0, 64, 48, qi, qo);
    CHECK(qi[0].min == -1 && qi[0].extent == 66 && qi[0].stride == 1, "blur input x");
    CHECK(qi[1].min == -1 && qi[1].extent == 50 && qi[1].stride == 66, "blur input y");
    blur_query(run, md, 10, 20, 100, 70, qi, qo);
    /* Smaller than one 64x32 tile: ShiftInwards moves the tile back, so the
     * query enlarges and shifts the output region too. */
    blur_query(run, md, 0, 0, 8, 8, qi, qo);
    CHECK(qo[0].min == -56 && qo[0].extent == 64 && qo[1].min == -24 && qo[1].extent == 32, "blur 8x8 output");

    /* Run on the region the query asked for: output 100x70 at (10,20). */
    int ox = 10, oy = 20, ow = 100, oh = 70;
    blur_query(run, md, ox, oy, ow, oh, qi, qo);
    size_t n = (size_t)qi[0].extent * qi[1].extent;
    uint16_t *in = malloc(n * sizeof *in);
    for (int y = 0; y < qi[1].extent; y++) {
        for (int x = 0; x < qi[0].extent; x++) {
            int gx = x + qi[0].min, gy = y + qi[1].min;
            in[(size_t)y * qi[1].stride + x] = (uint16_t)((gx * 37 + gy * 101) % 4000);
        }
    }
    uint16_t *out = malloc((size_t)ow * oh * sizeof *out);
    halide_dimension_t din[2] = {qi[0], qi[1]};
    halide_dimension_t dout[2] = {{ox, ow, 1, 0}, {oy, oh, ow, 0}};
    halide_buffer_t bi = make_buf(md->arguments[0].type, in, din, 2);
    halide_buffer_t bo = make_buf(md->arguments[1].type, out, dout, 2);
    void *args[2] = {&bi, &bo};
    int rc = run(args);
#define IN(gx, gy) in[(size_t)((gy)-qi[1].min) * qi[1].stride + ((gx)-qi[0].min)]
    int bad = 0;
    for (int y = oy; y < oy + oh; y++) {
        for (int x = ox; x < ox + ow; x++) {
            uint16_t bx[3];
            for (int k = -1; k <= 1; k++) {
                bx[k + 1] = (uint16_t)((uint16_t)(IN(x - 1, y + k) + IN(x, y + k) + IN(x + 1, y + k)) / 3);
            }
            uint16_t e = (uint16_t)((uint16_t)(bx[0] + bx[1] + bx[2]) / 3);
            bad += out[(size_t)(y - oy) * ow + (x - ox)] != e;
        }
    }
    printf("up_blur_argv out 100x70 at (10,20): rc=%d mismatches=%d\n", rc, bad);
    CHECK(rc == 0 && bad == 0, "blur rc=%d bad=%d", rc, bad);

    /* Input exactly the size of the output (no halo) must fail. */
    halide_dimension_t dtight[2] = {{ox, ow, 1, 0}, {oy, oh, ow, 0}};
    halide_buffer_t bt = make_buf(md->arguments[0].type, in, dtight, 2);
    void *args2[2] = {&bt, &bo};
    last_error[0] = 0;
    rc = run(args2);
    printf("up_blur_argv with input == output region: rc=%d error=\"%s\"\n", rc, last_error);
    CHECK(rc == halide_error_code_access_out_of_bounds, "blur tight rc=%d", rc);
    free(in);
    free(out);
}

/* ------------------------------------------------------------------------ */

static void check_scale(const char *dir) {
    void *h = open_lib(dir, "up_scale_f32");
    meta_fn md_fn = (meta_fn)sym(h, "up_scale_f32_metadata");
    argv_fn run = (argv_fn)sym(h, "up_scale_f32_argv");
    const halide_filter_metadata_t *md = md_fn();
    print_metadata(md);
    enum { W = 7, H = 5, C = 3 };
    static float in[C][H][W], out[C][H][W];
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                in[c][y][x] = (float)(x + 10 * y + 100 * c) * 0.5f;
    halide_dimension_t d[3] = {{0, W, 1, 0}, {0, H, W, 0}, {0, C, W * H, 0}};
    halide_buffer_t bi = make_buf(md->arguments[0].type, in, d, 3);
    halide_buffer_t bo = make_buf(md->arguments[2].type, out, d, 3);
    float scale = 1.5f;
    void *args[3] = {&bi, &scale, &bo};
    int rc = run(args);
    int bad = 0;
    for (int c = 0; c < C; c++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                bad += out[c][y][x] != in[c][y][x] * 1.5f;
    printf("up_scale_f32_argv 7x5x3 scale=1.5: rc=%d mismatches=%d out(6,4,2)=%g\n", rc, bad,
           (double)out[C - 1][H - 1][W - 1]);
    CHECK(rc == 0 && bad == 0, "scale rc=%d bad=%d", rc, bad);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
        return 2;
    }
    check_brighten(argv[1]);
    check_blur(argv[1]);
    check_scale(argv[1]);
    printf("%s (%d failure%s)\n", failures ? "FAILED" : "OK", failures, failures == 1 ? "" : "s");
    return failures ? 1 : 0;
}
