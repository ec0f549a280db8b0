/* A multitarget library (target=avx512_skylake...,avx2...,sse41) runs the
 * best variant this CPU supports, minus the features HL_DISABLE_FEATURES
 * masks (meson runs this test with several masks). The expected variant is
 * worked out here from the CPU directly. */
#include "test_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "which_target.h"

static int masked(const char *name) {
    const char *list = getenv("HL_DISABLE_FEATURES");
    if (!list) {
        return 0;
    }
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) {
            return 1;
        }
        p += len + (end ? 1 : 0);
    }
    return 0;
}

int main(void) {
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c") &&
               __builtin_cpu_supports("avx") && __builtin_cpu_supports("sse4.1") && !masked("avx2") && !masked("fma") &&
               !masked("f16c") && !masked("avx") && !masked("sse41");
    int skylake = avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                  __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl") && !masked("avx512_skylake") && !masked("avx512");
    int expected = skylake ? 3 : (avx2 ? 2 : 1);

    int32_t in[40], out[40];
    for (int i = 0; i < 40; i++) {
        in[i] = i - 7;
    }
    halide_dimension_t din = {0, 40, 1, 0}, dout = {0, 40, 1, 0};
    halide_buffer_t bin = make_buffer((uint8_t *)in, halide_type_int, 32, &din, 1);
    halide_buffer_t bout = make_buffer((uint8_t *)out, halide_type_int, 32, &dout, 1);
    int rc = which_target(&bin, &bout);
    int bad = rc != 0;
    for (int i = 0; i < 40; i++) {
        bad += out[i] != in[i] * 10 + expected;
    }
    const char *target = which_target_metadata()->target;
    if (strcmp(target, "x86-64-linux-no_bounds_query-no_runtime-sse41") != 0) {
        printf("the wrapper's metadata target is %s\n", target);
        bad++;
    }
    printf("HL_DISABLE_FEATURES=%s: variant %d ran, expected %d (rc %d)\n",
           getenv("HL_DISABLE_FEATURES") ? getenv("HL_DISABLE_FEATURES") : "", out[0] - in[0] * 10, expected, rc);
    return bad ? 1 : 0;
}
