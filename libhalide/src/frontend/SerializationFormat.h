// The byte stream of serialized pipelines (Serialization.h): a magic, a
// format version, then little-endian integers, length-prefixed strings and
// expressions in prefix order. Readers check every length against what is
// left, so truncated or corrupt data is an error, never a crash.
#ifndef HALIDE_FRONTEND_SERIALIZATION_FORMAT_H
#define HALIDE_FRONTEND_SERIALIZATION_FORMAT_H

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "Halide/Error.h"
#include "Halide/Type.h"

namespace Halide {
namespace Internal {
namespace Serial {

constexpr char kMagic[8] = {'H', 'C', 'P', 'I', 'P', 'E', '\n', '\0'};
// Bumped on every change of the layout; other versions are refused.
constexpr uint32_t kVersion = 2; // 2: a Param's has_value

// Expression node tags: kNoExpr for an undefined Expr, else 1 + IRNodeType.
constexpr uint8_t kNoExpr = 0;

class Writer {
public:
    std::vector<uint8_t> bytes;

    void u8(uint8_t v) { bytes.push_back(v); }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; i++) {
            bytes.push_back(uint8_t(v >> (8 * i)));
        }
    }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; i++) {
            bytes.push_back(uint8_t(v >> (8 * i)));
        }
    }
    void i32(int32_t v) { u32((uint32_t)v); }
    void i64(int64_t v) { u64((uint64_t)v); }
    void f64(double v) {
        uint64_t b;
        std::memcpy(&b, &v, sizeof(b));
        u64(b);
    }
    void boolean(bool b) { u8(b ? 1 : 0); }
    void str(const std::string &s) {
        u32((uint32_t)s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
    }
    void raw(const void *p, size_t n) {
        const uint8_t *b = (const uint8_t *)p;
        bytes.insert(bytes.end(), b, b + n);
    }
    void type(const Type &t) {
        u8((uint8_t)t.code());
        u8((uint8_t)t.bits());
        u32((uint32_t)t.lanes());
    }
};

class Reader {
public:
    Reader(const uint8_t *data, size_t size) : p_(data), end_(data + size) {}

    uint8_t u8() {
        need(1);
        return *p_++;
    }
    uint32_t u32() {
        need(4);
        uint32_t v = 0;
        for (int i = 0; i < 4; i++) {
            v |= uint32_t(*p_++) << (8 * i);
        }
        return v;
    }
    uint64_t u64() {
        need(8);
        uint64_t v = 0;
        for (int i = 0; i < 8; i++) {
            v |= uint64_t(*p_++) << (8 * i);
        }
        return v;
    }
    int32_t i32() { return (int32_t)u32(); }
    int64_t i64() { return (int64_t)u64(); }
    double f64() {
        uint64_t b = u64();
        double v;
        std::memcpy(&v, &b, sizeof(v));
        return v;
    }
    bool boolean() {
        uint8_t b = u8();
        check(b <= 1, "a boolean is neither 0 nor 1");
        return b == 1;
    }
    std::string str() {
        uint32_t n = u32();
        need(n);
        std::string s((const char *)p_, n);
        p_ += n;
        return s;
    }
    void raw(void *out, size_t n) {
        need(n);
        std::memcpy(out, p_, n);
        p_ += n;
    }
    // A count of items each at least `min_item_bytes` long: refused when
    // the data left cannot hold them (a corrupt count).
    uint32_t count(size_t min_item_bytes = 1) {
        uint32_t n = u32();
        check((uint64_t)n * min_item_bytes <= (uint64_t)(end_ - p_), "a count is larger than the data left");
        return n;
    }
    Type type() {
        uint8_t code = u8();
        uint8_t bits = u8();
        uint32_t lanes = u32();
        check(code <= 3 && bits > 0 && lanes > 0 && lanes < 65536, "an invalid type");
        return Type((halide_type_code_t)code, bits, (int)lanes);
    }
    bool at_end() const { return p_ == end_; }
    void check(bool ok, const char *what) const {
        user_assert(ok) << "deserialize_pipeline: the serialized pipeline is corrupt (" << what << ")";
    }

private:
    void need(size_t n) const {
        user_assert((size_t)(end_ - p_) >= n)
            << "deserialize_pipeline: the serialized pipeline is truncated (it ends before its data does)";
    }
    const uint8_t *p_;
    const uint8_t *end_;
};

} // namespace Serial
} // namespace Internal
} // namespace Halide

#endif
