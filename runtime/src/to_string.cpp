// The string builders upstream-built kernels call to format text at run
// time (a traced pipeline's "func_type_and_dim" tag, for one). Each writes
// into [dst, end), always NUL-terminates when there is room, and returns
// the position of the terminating NUL, so calls can be chained.
#include <cinttypes>
#include <cstdint>
#include <cstdio>

namespace {

char *append(char *dst, char *end, const char *text) {
    if (!dst || dst >= end) {
        return dst;
    }
    while (*text && dst + 1 < end) {
        *dst++ = *text++;
    }
    *dst = 0;
    return dst;
}

} // namespace

extern "C" {

char *halide_string_to_string(char *dst, char *end, const char *arg) {
    return append(dst, end, arg ? arg : "<NULL>");
}

// `digits`: the least number of digits, padded with leading zeros.
char *halide_int64_to_string(char *dst, char *end, int64_t arg, int digits) {
    char text[64];
    std::snprintf(text, sizeof(text), "%0*" PRId64, digits > 0 && digits < 40 ? digits + (arg < 0) : 1, arg);
    return append(dst, end, text);
}

char *halide_uint64_to_string(char *dst, char *end, uint64_t arg, int digits) {
    char text[64];
    std::snprintf(text, sizeof(text), "%0*" PRIu64, digits > 0 && digits < 40 ? digits : 1, arg);
    return append(dst, end, text);
}

} // extern "C"
