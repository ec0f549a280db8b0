/* What the C tests of ahead-of-time kernels share: CHECK (counts failures
 * and says what failed), a buffer over caller memory, and the exit code. */
#ifndef HALIDE_TEST_CHECK_H
#define HALIDE_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

#include "HalideRuntime.h"

static int failures = 0;

#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            failures++;                                                                                                \
            printf("FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond);                                                   \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
        }                                                                                                              \
    } while (0)

#ifndef __cplusplus
/* A dense buffer of `n` dimensions over `host`, its shape in `dims` (C++
 * tests use Halide::Runtime::Buffer). */
static inline halide_buffer_t make_buffer(void *host, int code, int bits, halide_dimension_t *dims, int n) {
    halide_buffer_t b;
    memset(&b, 0, sizeof b);
    b.host = (uint8_t *)host;
    b.type.code = (uint8_t)code;
    b.type.bits = (uint8_t)bits;
    b.type.lanes = 1;
    b.dimensions = n;
    b.dim = dims;
    return b;
}
#endif

#ifdef __cplusplus
#include <string>
/* CHECK for C++ tests that build their messages as strings. */
static inline void check(bool ok, const std::string &what) {
    CHECK(ok, "%s", what.c_str());
}
#endif

/* The exit code of main: 0 when every CHECK held. */
static inline int finish(const char *success) {
    if (failures) {
        printf("%d checks failed\n", failures);
        return 1;
    }
    printf("%s\n", success);
    return 0;
}

#endif
