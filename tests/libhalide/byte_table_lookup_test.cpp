// Lookups in a 256-entry byte table at 8-bit indices (lut(i32(in(x, y)))),
// which the x86 code generator emits as pshufb lookups in 16 rows of the
// table (CodeGen_LLVM_Lookup.cpp) instead of one load per lane. Each result
// is compared with the table read in plain C++, for vector widths that take
// one, two, three and four shuffles per vector, with AVX2 and with SSSE3
// only; the assembly shows which instruction was used.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

// Every index 0-255 at least once, in an order that mixes the table's rows.
Buffer<uint8_t> indices(int w, int h) {
    Buffer<uint8_t> b(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            b(x, y) = (uint8_t)((x * 97 + y * 31 + (x * y) / 7) & 255);
        }
    }
    return b;
}

uint8_t table_value(int i) {
    return (uint8_t)((i * i * 7 + 13) >> 3);
}

// out(x, y) = lut(in(x, y)) with lut a Func of 256 entries computed once.
Func lookup(ImageParam in, Type t, int vector) {
    Var x("x"), y("y"), i("i");
    Func lut("lut"), out("out");
    lut(i) = cast(t, (i * i * 7 + 13) >> 3);
    out(x, y) = lut(cast<int32_t>(in(x, y)));
    lut.compute_root().bound(i, 0, 256);
    out.vectorize(x, vector, TailStrategy::GuardWithIf);
    return out;
}

std::string file_text(const std::string &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string assembly(Func f, ImageParam in, const Target &t) {
    std::string path = ::testing::TempDir() + "byte_table_lookup.s";
    f.compile_to_assembly(path, {in}, "byte_table_lookup", t);
    return file_text(path);
}

void check(const Target &target, Type t, int vector) {
    ImageParam in(UInt(8), 2, "in");
    Buffer<uint8_t> data = indices(133, 5);
    in.set(data);
    Pipeline p(lookup(in, t, vector));
    Buffer<> out = p.realize({133, 5}, target)[0];
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 133; x++) {
            uint8_t got = t.is_int() ? (uint8_t)Buffer<int8_t>(out)(x, y) : Buffer<uint8_t>(out)(x, y);
            ASSERT_EQ(got, table_value(data(x, y)))
                << target.to_string() << " " << t << " x" << vector << " at " << x << ", " << y;
        }
    }
}

} // namespace

TEST(ByteTableLookup, MatchesTheTableAtEveryWidth) {
    Target host = get_host_target();
    for (int vector : {16, 32, 48, 64}) {
        check(host, UInt(8), vector);
        check(host, Int(8), vector);
    }
}

TEST(ByteTableLookup, MatchesTheTableWithSSSE3Only) {
    Target host = get_host_target();
    if (!host.has_feature(Target::SSE41)) {
        GTEST_SKIP() << "no SSE4.1 on this host";
    }
    Target sse = host.without_feature(Target::AVX512_Skylake)
                     .without_feature(Target::AVX512)
                     .without_feature(Target::AVX2)
                     .without_feature(Target::AVX);
    for (int vector : {16, 32}) {
        check(sse, UInt(8), vector);
    }
}

TEST(ByteTableLookup, UsesPshufbWhereTheTargetHasIt) {
    ImageParam in(UInt(8), 2, "in");
    Func f = lookup(in, UInt(8), 32);
    EXPECT_NE(assembly(f, in, Target("x86-64-linux-sse41-avx-avx2")).find("vpshufb"), std::string::npos);
    EXPECT_NE(assembly(f, in, Target("x86-64-linux-sse41")).find("pshufb"), std::string::npos);
    // Without SSSE3: one load per lane, as any other gather.
    EXPECT_EQ(assembly(f, in, Target("x86-64-linux")).find("pshufb"), std::string::npos);
}
