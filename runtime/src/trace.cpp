// Tracing: halide_trace and its default handler, which prints one line per
// event in upstream Halide's text format (or writes binary packets to a
// trace file), plus halide_trace_helper for kernels built by upstream.
#include <atomic>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "HalideRuntime.h"

namespace {

std::atomic<halide_trace_t> trace_hook{halide_default_trace};
std::atomic<int32_t> next_id{1};

// The trace file: -1 until the first event looks at HL_TRACE_FILE.
pthread_mutex_t file_mutex = PTHREAD_MUTEX_INITIALIZER;

// Holds file_mutex for a scope (no std::mutex: this runtime needs libc only).
struct FileLock {
    FileLock() { pthread_mutex_lock(&file_mutex); }
    ~FileLock() { pthread_mutex_unlock(&file_mutex); }
};
int trace_fd = -1;
bool own_fd = false;

const char *const event_names[] = {"Load",        "Store",   "Begin realization", "End realization", "Produce",
                                   "End produce", "Consume", "End consume",       "Begin pipeline",  "End pipeline",
                                   "Tag"};

// Appends printf-style text to a fixed line, truncating when it is full.
struct Line {
    char text[8192];
    size_t used = 0;
    Line() { text[0] = 0; }
    void add(const char *format, ...) __attribute__((format(printf, 2, 3))) {
        if (used + 1 >= sizeof(text)) {
            return;
        }
        va_list args;
        va_start(args, format);
        int n = std::vsnprintf(text + used, sizeof(text) - used, format, args);
        va_end(args);
        if (n > 0) {
            used = used + (size_t)n < sizeof(text) ? used + (size_t)n : sizeof(text) - 1;
        }
    }
};

double half_to_double(uint16_t h) {
    int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double v;
    if (exponent == 0) {
        v = std::ldexp((double)mantissa, -24);
    } else if (exponent == 31) {
        v = mantissa ? NAN : INFINITY;
    } else {
        v = std::ldexp((double)(mantissa | 0x400), exponent - 25);
    }
    return sign ? -v : v;
}

// One element of a traced value, as upstream prints it: integers in
// decimal, 32-bit floats as %f, other floats as %e.
void add_element(Line &line, const halide_type_t &t, const void *value, int i) {
    const char *p = (const char *)value + (size_t)i * (size_t)t.bytes();
    if (t.code == halide_type_float || t.code == halide_type_bfloat) {
        double d;
        bool fixed = false;
        if (t.code == halide_type_bfloat) {
            uint16_t b;
            std::memcpy(&b, p, 2);
            uint32_t u = (uint32_t)b << 16;
            float f;
            std::memcpy(&f, &u, 4);
            d = f;
        } else if (t.bits == 16) {
            uint16_t b;
            std::memcpy(&b, p, 2);
            d = half_to_double(b);
        } else if (t.bits == 32) {
            float f;
            std::memcpy(&f, p, 4);
            d = f;
            fixed = true;
        } else {
            std::memcpy(&d, p, 8);
        }
        if (std::isnan(d)) {
            line.add("nan");
        } else if (std::isinf(d)) {
            line.add(d < 0 ? "-inf" : "inf");
        } else {
            line.add(fixed ? "%f" : "%e", d);
        }
    } else if (t.code == halide_type_handle) {
        void *h;
        std::memcpy(&h, p, sizeof(h));
        line.add("%p", h);
    } else if (t.code == halide_type_int) {
        long long v = t.bits <= 8    ? (long long)*(const int8_t *)p
                      : t.bits == 16 ? (long long)*(const int16_t *)p
                      : t.bits == 32 ? (long long)*(const int32_t *)p
                                     : (long long)*(const int64_t *)p;
        line.add("%lld", v);
    } else {
        unsigned long long v = t.bits <= 8    ? (unsigned long long)*(const uint8_t *)p
                               : t.bits == 16 ? (unsigned long long)*(const uint16_t *)p
                               : t.bits == 32 ? (unsigned long long)*(const uint32_t *)p
                                              : (unsigned long long)*(const uint64_t *)p;
        line.add("%llu", t.bits == 1 ? (v & 1) : v);
    }
}

void print_event(void *user_context, const halide_trace_event_t *e) {
    Line line;
    int code = (int)e->event;
    line.add("%s %s.%d(", code >= 0 && code <= 10 ? event_names[code] : "Unknown event", e->func ? e->func : "",
             (int)e->value_index);
    bool access = e->event == halide_trace_load || e->event == halide_trace_store;
    int lanes = access && e->type.lanes > 1 ? e->type.lanes : 1;
    if (e->coordinates) {
        for (int i = 0; i < e->dimensions; i++) {
            if (i > 0) {
                line.add(", ");
            }
            if (lanes > 1 && i % lanes == 0) {
                line.add("<");
            }
            line.add("%d", (int)e->coordinates[i]);
            if (lanes > 1 && i % lanes == lanes - 1) {
                line.add(">");
            }
        }
    }
    line.add(")");
    if (access && e->value) {
        line.add(" = ");
        if (lanes > 1) {
            line.add("<");
        }
        for (int i = 0; i < lanes; i++) {
            if (i > 0) {
                line.add(", ");
            }
            add_element(line, e->type, e->value, i);
        }
        if (lanes > 1) {
            line.add(">");
        }
    }
    if (e->event == halide_trace_tag) {
        line.add(" tag = \"%s\"", e->trace_tag ? e->trace_tag : "");
    }
    line.add("\n");
    halide_print(user_context, line.text);
}

bool write_all(int fd, const void *data, size_t size) {
    const char *p = (const char *)data;
    while (size > 0) {
        ssize_t n = write(fd, p, size);
        if (n <= 0) {
            return false;
        }
        p += n;
        size -= (size_t)n;
    }
    return true;
}

// A binary packet: header, coordinates, value (type.lanes x type.bytes(),
// zeros when the event has none), func name, tag, padding to 4 bytes.
int write_packet(int fd, int32_t id, const halide_trace_event_t *e) {
    size_t coords = e->coordinates ? (size_t)e->dimensions * 4 : 0;
    size_t value = (size_t)e->type.lanes * (size_t)e->type.bytes();
    const char *func = e->func ? e->func : "";
    const char *tag = e->trace_tag ? e->trace_tag : "";
    size_t func_len = std::strlen(func) + 1, tag_len = std::strlen(tag) + 1;
    size_t size = (sizeof(halide_trace_packet_t) + coords + value + func_len + tag_len + 3) & ~(size_t)3;
    char stack[4096];
    char *buf = size <= sizeof(stack) ? stack : (char *)std::malloc(size);
    if (!buf) {
        return halide_error_code_out_of_memory;
    }
    std::memset(buf, 0, size);
    halide_trace_packet_t header;
    header.size = (uint32_t)size;
    header.id = id;
    header.type = e->type;
    header.event = e->event;
    header.parent_id = e->parent_id;
    header.value_index = e->value_index;
    header.dimensions = e->coordinates ? e->dimensions : 0;
    char *p = buf;
    std::memcpy(p, &header, sizeof(header));
    p += sizeof(header);
    if (coords) {
        std::memcpy(p, e->coordinates, coords);
    }
    p += coords;
    if (e->value) {
        std::memcpy(p, e->value, value);
    }
    p += value;
    std::memcpy(p, func, func_len);
    std::memcpy(p + func_len, tag, tag_len);
    int result;
    {
        FileLock lock;
        result = write_all(fd, buf, size) ? 0 : halide_error_code_trace_failed;
    }
    if (buf != stack) {
        std::free(buf);
    }
    return result;
}

} // namespace

extern "C" {

int32_t halide_default_trace(void *user_context, const halide_trace_event_t *e) {
    int32_t id = next_id.fetch_add(1);
    int fd = halide_get_trace_file(user_context);
    if (fd > 0) {
        if (write_packet(fd, id, e) != 0) {
            halide_error(user_context, "halide_trace: could not write to the trace file\n");
            return -1;
        }
    } else {
        print_event(user_context, e);
    }
    return id;
}

int32_t halide_trace(void *user_context, const halide_trace_event_t *event) {
    return trace_hook.load()(user_context, event);
}

halide_trace_t halide_set_custom_trace(halide_trace_t trace) {
    return trace_hook.exchange(trace ? trace : halide_default_trace);
}

int32_t halide_trace_helper(void *user_context, const char *func, void *value, int32_t *coords, int type_code,
                            int type_bits, int type_lanes, int event, int parent_id, int value_index, int dimensions,
                            const char *trace_tag) {
    halide_trace_event_t e;
    e.func = func;
    e.value = value;
    e.coordinates = coords;
    e.trace_tag = trace_tag;
    e.type.code = (halide_type_code_t)type_code;
    e.type.bits = (uint8_t)type_bits;
    e.type.lanes = (uint16_t)type_lanes;
    e.event = (halide_trace_event_code_t)event;
    e.parent_id = parent_id;
    e.value_index = value_index;
    e.dimensions = dimensions;
    return halide_trace(user_context, &e);
}

void halide_set_trace_file(int fd) {
    FileLock lock;
    if (own_fd && trace_fd > 0 && trace_fd != fd) {
        close(trace_fd);
    }
    own_fd = false;
    trace_fd = fd;
}

int halide_get_trace_file(void * /*user_context*/) {
    FileLock lock;
    if (trace_fd < 0) {
        trace_fd = 0;
        const char *name = std::getenv("HL_TRACE_FILE");
        if (name && *name) {
            int fd = open(name, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd > 0) {
                trace_fd = fd;
                own_fd = true;
            }
        }
    }
    return trace_fd;
}

int halide_shutdown_trace(void) {
    FileLock lock;
    int result = 0;
    if (own_fd && trace_fd > 0) {
        result = close(trace_fd) == 0 ? 0 : halide_error_code_trace_failed;
    }
    own_fd = false;
    trace_fd = -1;
    return result;
}

} // extern "C"
