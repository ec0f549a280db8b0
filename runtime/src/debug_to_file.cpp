// halide_debug_to_file (Func::debug_to_file): a buffer's values written to a
// file whose extension picks the format (HalideRuntime.h). C library only,
// as the rest of the runtime. Values are written in Halide's order (the
// first dimension fastest), whatever the buffer's strides.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "HalideRuntime.h"

namespace {

struct ScopedFile {
    FILE *f;
    explicit ScopedFile(const char *name) : f(std::fopen(name, "wb")) {}
    ~ScopedFile() {
        if (f) {
            std::fclose(f);
        }
    }
    ScopedFile(const ScopedFile &) = delete;
    ScopedFile &operator=(const ScopedFile &) = delete;
};

bool ends_with(const char *s, const char *suffix) {
    size_t n = std::strlen(s), m = std::strlen(suffix);
    if (m > n) {
        return false;
    }
    for (size_t i = 0; i < m; i++) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') {
            c = (char)(c - 'A' + 'a');
        }
        if (c != suffix[i]) {
            return false;
        }
    }
    return true;
}

size_t element_bytes(const halide_type_t &t) {
    return (size_t)((t.bits + 7) / 8) * (t.lanes ? t.lanes : 1);
}

int64_t element_count(const halide_buffer_t *buf) {
    int64_t n = 1;
    for (int d = 0; d < buf->dimensions; d++) {
        n *= buf->dim[d].extent;
    }
    return n;
}

bool write_bytes(FILE *f, const void *p, size_t n) {
    return n == 0 || std::fwrite(p, 1, n, f) == n;
}

template <typename T> bool write_pod(FILE *f, T v) {
    return write_bytes(f, &v, sizeof(v));
}

bool write_zeros(FILE *f, size_t n) {
    static const char zeros[8] = {};
    return write_bytes(f, zeros, n);
}

// Every value, first dimension fastest (rows of dimension 0 at a time).
bool write_values(FILE *f, const halide_buffer_t *buf) {
    const size_t bytes = element_bytes(buf->type);
    const int dims = buf->dimensions;
    if (element_count(buf) == 0) {
        return true;
    }
    if (dims == 0) {
        return write_bytes(f, buf->host, bytes);
    }
    int64_t *pos = static_cast<int64_t *>(std::calloc((size_t)dims, sizeof(int64_t)));
    if (!pos) {
        return false;
    }
    const halide_dimension_t &d0 = buf->dim[0];
    bool ok = true;
    while (ok) {
        int64_t offset = 0;
        for (int d = 1; d < dims; d++) {
            offset += pos[d] * buf->dim[d].stride;
        }
        const uint8_t *row = buf->host + offset * (int64_t)bytes;
        if (d0.stride == 1) {
            ok = write_bytes(f, row, bytes * (size_t)d0.extent);
        } else {
            for (int64_t i = 0; ok && i < d0.extent; i++) {
                ok = write_bytes(f, row + i * d0.stride * (int64_t)bytes, bytes);
            }
        }
        int d = 1;
        while (d < dims && ++pos[d] == buf->dim[d].extent) {
            pos[d++] = 0;
        }
        if (d == dims) {
            break;
        }
    }
    std::free(pos);
    return ok;
}

// The .tmp header's type code (ImageStack's), -1 if none.
int tmp_type_code(const halide_type_t &t) {
    switch (t.code) {
    case halide_type_float: return t.bits == 32 ? 0 : t.bits == 64 ? 1 : -1;
    case halide_type_uint: return t.bits <= 8 ? 2 : t.bits == 16 ? 4 : t.bits == 32 ? 6 : t.bits == 64 ? 8 : -1;
    case halide_type_int: return t.bits == 8 ? 3 : t.bits == 16 ? 5 : t.bits == 32 ? 7 : t.bits == 64 ? 9 : -1;
    default: return -1;
    }
}

bool write_tmp(FILE *f, const halide_buffer_t *buf) {
    int32_t header[5] = {1, 1, 1, 1, tmp_type_code(buf->type)};
    for (int d = 0; d < buf->dimensions; d++) {
        if (d < 4) {
            header[d] = buf->dim[d].extent;
        } else {
            header[3] *= buf->dim[d].extent;
        }
    }
    return write_bytes(f, header, sizeof(header)) && write_values(f, buf);
}

// NumPy's dtype string, or null.
const char *npy_descr(const halide_type_t &t) {
    switch (t.code) {
    case halide_type_uint:
        return t.bits == 1    ? "|b1"
               : t.bits == 8  ? "|u1"
               : t.bits == 16 ? "<u2"
               : t.bits == 32 ? "<u4"
               : t.bits == 64 ? "<u8"
                              : nullptr;
    case halide_type_int:
        return t.bits == 8 ? "|i1" : t.bits == 16 ? "<i2" : t.bits == 32 ? "<i4" : t.bits == 64 ? "<i8" : nullptr;
    case halide_type_float: return t.bits == 16 ? "<f2" : t.bits == 32 ? "<f4" : t.bits == 64 ? "<f8" : nullptr;
    default: return nullptr;
    }
}

// NumPy format 1.0: magic, version, header length, then a Python dict
// padded with spaces and ended by a newline so the data starts at a
// multiple of 64 bytes. C order, shape in Halide's dimension order (as
// upstream writes it).
bool write_npy(FILE *f, const halide_buffer_t *buf) {
    char dict[1024];
    int n =
        std::snprintf(dict, sizeof(dict), "{'descr': '%s', 'fortran_order': False, 'shape': (", npy_descr(buf->type));
    for (int d = 0; d < buf->dimensions && n > 0 && n < (int)sizeof(dict); d++) {
        n += std::snprintf(dict + n, sizeof(dict) - (size_t)n, "%s%d%s", d ? " " : "", (int)buf->dim[d].extent,
                           (d + 1 < buf->dimensions || buf->dimensions == 1) ? "," : "");
    }
    if (n <= 0 || n + 8 >= (int)sizeof(dict)) {
        return false;
    }
    n += std::snprintf(dict + n, sizeof(dict) - (size_t)n, "), }");
    const size_t prefix = 10; // magic (6), version (2), header length (2)
    size_t total = prefix + (size_t)n + 1;
    size_t padded = (total + 63) / 64 * 64;
    uint16_t header_len = (uint16_t)(padded - prefix);
    const char magic[8] = {'\x93', 'N', 'U', 'M', 'P', 'Y', 1, 0};
    if (!write_bytes(f, magic, 8) || !write_pod(f, header_len) || !write_bytes(f, dict, (size_t)n)) {
        return false;
    }
    for (size_t i = total; i < padded; i++) {
        if (std::fputc(' ', f) == EOF) {
            return false;
        }
    }
    return std::fputc('\n', f) != EOF && write_values(f, buf);
}

// MATLAB level 5: the class and data type of a numeric array, or false.
bool mat_types(const halide_type_t &t, uint32_t *mx_class, uint32_t *mi_type) {
    struct Row {
        uint8_t code, bits;
        uint32_t mx, mi;
    };
    static const Row rows[] = {
        {halide_type_float, 64, 6, 9}, {halide_type_float, 32, 7, 7},  {halide_type_int, 8, 8, 1},
        {halide_type_uint, 8, 9, 2},   {halide_type_uint, 1, 9, 2},    {halide_type_int, 16, 10, 3},
        {halide_type_uint, 16, 11, 4}, {halide_type_int, 32, 12, 5},   {halide_type_uint, 32, 13, 6},
        {halide_type_int, 64, 14, 12}, {halide_type_uint, 64, 15, 13},
    };
    for (const Row &r : rows) {
        if (r.code == t.code && r.bits == t.bits) {
            *mx_class = r.mx;
            *mi_type = r.mi;
            return true;
        }
    }
    return false;
}

size_t pad8(size_t n) {
    return (n + 7) / 8 * 8;
}

bool write_mat(FILE *f, const halide_buffer_t *buf, const char *filename) {
    uint32_t mx_class = 0, mi_type = 0;
    mat_types(buf->type, &mx_class, &mi_type);
    // The variable's name: the file's base name without its extension.
    const char *base = std::strrchr(filename, '/');
    base = base ? base + 1 : filename;
    size_t name_len = std::strlen(base);
    const char *dot = std::strrchr(base, '.');
    if (dot) {
        name_len = (size_t)(dot - base);
    }
    if (name_len == 0) {
        base = "data";
        name_len = 4;
    }
    int dims = buf->dimensions < 2 ? 2 : buf->dimensions;
    uint64_t data_bytes = (uint64_t)element_count(buf) * element_bytes(buf->type);
    uint64_t body = 16 + 8 + pad8((size_t)dims * 4) + 8 + pad8(name_len) + 8 + pad8((size_t)data_bytes);
    if (body > 0xffffffffull) {
        return false;
    }
    char text[116];
    std::memset(text, ' ', sizeof(text));
    const char *banner = "MATLAB 5.0 MAT-file, written by halide_debug_to_file";
    std::memcpy(text, banner, std::strlen(banner));
    bool ok = write_bytes(f, text, sizeof(text)) && write_zeros(f, 8) && write_pod<uint16_t>(f, 0x0100) &&
              write_bytes(f, "IM", 2);
    ok = ok && write_pod<uint32_t>(f, 14) && write_pod<uint32_t>(f, (uint32_t)body);
    // Array flags, dimensions, name, real part.
    ok = ok && write_pod<uint32_t>(f, 6) && write_pod<uint32_t>(f, 8) && write_pod<uint32_t>(f, mx_class) &&
         write_pod<uint32_t>(f, 0);
    ok = ok && write_pod<uint32_t>(f, 5) && write_pod<uint32_t>(f, (uint32_t)dims * 4);
    for (int d = 0; ok && d < dims; d++) {
        ok = write_pod<int32_t>(f, d < buf->dimensions ? buf->dim[d].extent : 1);
    }
    ok = ok && write_zeros(f, pad8((size_t)dims * 4) - (size_t)dims * 4);
    ok = ok && write_pod<uint32_t>(f, 1) && write_pod<uint32_t>(f, (uint32_t)name_len) &&
         write_bytes(f, base, name_len) && write_zeros(f, pad8(name_len) - name_len);
    ok = ok && write_pod<uint32_t>(f, mi_type) && write_pod<uint32_t>(f, (uint32_t)data_bytes) &&
         write_values(f, buf) && write_zeros(f, pad8((size_t)data_bytes) - (size_t)data_bytes);
    return ok;
}

int fail(void *user_context, const char *filename, const char *why) {
    char message[1024];
    std::snprintf(message, sizeof(message), "halide_debug_to_file: %s: %s", filename, why);
    halide_error(user_context, message);
    return halide_error_code_debug_to_file_failed;
}

} // namespace

extern "C" int32_t halide_debug_to_file(void *user_context, const char *filename, struct halide_buffer_t *buf) {
    if (!filename || !buf) {
        return fail(user_context, filename ? filename : "(null)", "no file name or no buffer");
    }
    if (buf->device_dirty()) {
        int r = halide_copy_to_host(user_context, buf);
        if (r != 0) {
            return r;
        }
    }
    if (!buf->host && element_count(buf) > 0) {
        return fail(user_context, filename, "the buffer has no host memory");
    }
    enum { Tmp, Npy, Mat } format = Tmp;
    if (ends_with(filename, ".npy")) {
        format = Npy;
    } else if (ends_with(filename, ".mat")) {
        format = Mat;
    } else if (ends_with(filename, ".tif") || ends_with(filename, ".tiff")) {
        return fail(user_context, filename, "TIFF files are not supported by this runtime (use .npy, .mat or .tmp)");
    }
    uint32_t unused_class = 0, unused_type = 0;
    bool typed = format == Npy   ? npy_descr(buf->type) != nullptr
                 : format == Mat ? mat_types(buf->type, &unused_class, &unused_type)
                                 : tmp_type_code(buf->type) >= 0;
    if (!typed || buf->type.lanes > 1) {
        return fail(user_context, filename, "this element type can't be written in this format");
    }
    ScopedFile file(filename);
    if (!file.f) {
        return halide_error_code_debug_to_file_failed;
    }
    bool ok = format == Npy   ? write_npy(file.f, buf)
              : format == Mat ? write_mat(file.f, buf, filename)
                              : write_tmp(file.f, buf);
    return ok ? 0 : halide_error_code_debug_to_file_failed;
}
