/* Loads the shared libraries the compiler linked itself (no C compiler or
 * linker involved) with dlopen, as a C program would:
 *   - libbrighter_aot.so embeds the runtime: it loads on its own, and its
 *     copy of the runtime's hooks can be set through dlsym;
 *   - libbrighter_aot_nort.so has no runtime: dlopen must refuse it while no
 *     runtime is loaded.
 *   aot_dlopen_test DIR */
#include "test_check.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "HalideRuntime.h"

static int errors_seen = 0;
static void count_error(void *uc, const char *msg) {
    (void)uc;
    (void)msg;
    errors_seen++;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        printf("usage: %s DIR\n", argv[0]);
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/libbrighter_aot_nort.so", argv[1]);
    void *nort = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK(nort == NULL, "a no_runtime library loaded without a runtime");
    if (!nort) {
        const char *err = dlerror();
        CHECK(err && strstr(err, "halide_") != NULL, "dlopen's error names a runtime symbol: %s", err);
    }

    snprintf(path, sizeof path, "%s/libbrighter_aot.so", argv[1]);
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK(lib != NULL, "dlopen: %s", dlerror());
    if (!lib) {
        return 1;
    }
    /* POSIX: a function pointer is read from dlsym through memcpy. */
    int (*fn)(void **);
    const struct halide_filter_metadata_t *(*md)(void);
    halide_error_handler_t (*set_handler)(halide_error_handler_t);
    void *p_fn = dlsym(lib, "brighter_argv"), *p_md = dlsym(lib, "brighter_metadata");
    void *p_set = dlsym(lib, "halide_set_error_handler");
    memcpy(&fn, &p_fn, sizeof fn);
    memcpy(&md, &p_md, sizeof md);
    memcpy(&set_handler, &p_set, sizeof set_handler);
    CHECK(fn && md && set_handler, "the library exports brighter_argv, brighter_metadata and the runtime");
    if (!fn || !md || !set_handler) {
        return 1;
    }
    set_handler(count_error);
    CHECK(strcmp(md()->name, "brighter") == 0 && md()->num_arguments == 4, "metadata of %s", md()->name);

    enum { W = 50, H = 9 };
    uint8_t in[H][W], out[H][W];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            in[y][x] = (uint8_t)(x * 7 + y * 19);
        }
    }
    halide_dimension_t din[2] = {{0, W, 1, 0}, {0, H, W, 0}}, dout[2] = {{0, W, 1, 0}, {0, H, W, 0}};
    halide_buffer_t bin = make_buffer(&in[0][0], halide_type_uint, 8, din, 2);
    halide_buffer_t bout = make_buffer(&out[0][0], halide_type_uint, 8, dout, 2);
    float scale = 3.0f;
    int32_t offset = -40;
    void *args[4] = {&bin, &scale, &offset, &bout};
    int rc = fn(args);
    CHECK(rc == 0, "brighter_argv returned %d", rc);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            float v = (float)in[y][x] * 3.0f - 40.0f;
            uint8_t want = v <= 0 ? 0 : (v >= 255 ? 255 : (uint8_t)v);
            CHECK(out[y][x] == want, "at %d,%d: %d, expected %d", x, y, out[y][x], want);
        }
    }
    scale = 20.0f; /* above its range: the embedded runtime's handler hears of it */
    rc = fn(args);
    CHECK(rc == -10 && errors_seen == 1, "scale too large returned %d with %d errors reported", rc, errors_seen);
    return finish("the compiler's shared libraries load and run");
}
