// Shared by the tutorial programs: mismatch counting against a plain C++
// reference, and deterministic test images made in code (no image files).
// Only needs HalideBuffer.h, so the AOT runners (lessons 10, 15, 16, 21)
// can use it without Halide.h.
#ifndef TUTORIAL_CHECK_H
#define TUTORIAL_CHECK_H

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "HalideRuntime.h"

namespace tutorial {

inline int &failure_count() {
    static int n = 0;
    return n;
}

// Records a mismatch (printing the first few) and returns false.
inline bool fail(const char *fmt, ...) {
    if (failure_count()++ < 20) {
        va_list args;
        va_start(args, fmt);
        std::vfprintf(stderr, fmt, args);
        va_end(args);
        std::fputc('\n', stderr);
    }
    return false;
}

inline bool check(bool ok, const char *what) {
    return ok || fail("check failed: %s", what);
}

// Exit status of the lesson: 0 if every check held.
inline int finish(const char *lesson) {
    if (failure_count() != 0) {
        std::fprintf(stderr, "%s: %d mismatches\n", lesson, failure_count());
        return 1;
    }
    std::printf("%s: Success!\n", lesson);
    return 0;
}

// Compares every element of a 2-D or 3-D buffer with ref(x, y, c).
template <typename B, typename F> bool check_image(const char *what, const B &b, F ref, double tolerance = 0) {
    int before = failure_count();
    const int dims = b.dimensions();
    const int c0 = dims > 2 ? b.dim(2).min() : 0, c1 = dims > 2 ? c0 + b.dim(2).extent() : 1;
    const int y0 = dims > 1 ? b.dim(1).min() : 0, y1 = dims > 1 ? y0 + b.dim(1).extent() : 1;
    const int x0 = b.dim(0).min(), x1 = x0 + b.dim(0).extent();
    for (int c = c0; c < c1; c++) {
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                double got = dims > 2 ? (double)b(x, y, c) : (dims > 1 ? (double)b(x, y) : (double)b(x));
                double want = (double)ref(x, y, c);
                if (!(std::fabs(got - want) <= tolerance)) {
                    fail("%s(%d, %d, %d) = %.9g instead of %.9g", what, x, y, c, got, want);
                }
            }
        }
    }
    return failure_count() == before;
}

// Ahead-of-time kernels report errors through halide_error, whose default
// handler (like upstream's) prints the message and aborts. The runners that
// expect a kernel to fail install this handler instead: the kernel then
// returns its error code, and the message is kept.
inline char *last_error() {
    static char message[1024];
    return message;
}
inline void record_error(void *, const char *message) {
    std::snprintf(last_error(), 1024, "%s", message);
}
inline void capture_errors() {
    halide_set_error_handler(record_error);
}

// A deterministic 8-bit test "photograph": smooth gradients plus a
// hashed texture, different in each channel.
inline uint8_t test_pixel(int x, int y, int c) {
    // Unsigned arithmetic: the products wrap (a signed overflow would be undefined).
    uint32_t h = ((uint32_t)x * 73856093u) ^ ((uint32_t)y * 19349663u) ^ ((uint32_t)c * 83492791u);
    h = (h ^ (h >> 13)) * 0x5bd1e995u;
    int smooth = (x * 3 + y * 2 + c * 60) & 0xff;
    return (uint8_t)((smooth * 3 + (int)((h >> 8) & 0x3f)) / 4 + 20);
}

template <typename B> void fill_test_image(B &b) {
    const int dims = b.dimensions();
    const int channels = dims > 2 ? b.dim(2).extent() : 1;
    for (int c = 0; c < channels; c++) {
        for (int y = 0; y < b.dim(1).extent(); y++) {
            for (int x = 0; x < b.dim(0).extent(); x++) {
                if (dims > 2) {
                    b(b.dim(0).min() + x, b.dim(1).min() + y, b.dim(2).min() + c) = test_pixel(x, y, c);
                } else {
                    b(b.dim(0).min() + x, b.dim(1).min() + y) = test_pixel(x, y, c);
                }
            }
        }
    }
}

} // namespace tutorial

#endif
