// Vector loads whose lanes read a short run of elements in any order
// (codegen's span_load, CodeGen_LLVM_Permute.cpp): an image read through
// mirror_interior or mirror_image, whose edge vectors read the elements
// next to the edge twice. Where the lanes' smallest and largest index are
// at most lanes - 1 and at least lanes / 2 - 1 apart, the run is read by
// two loads of half a vector inside it and each lane picked with a
// variable permute (vpermw / vpermb / vpermd with AVX-512, vpermd or pshufb
// with AVX2, pshufb with SSE4.1); other runs are gathered as before.
//
// The values are checked against the mirrored image read in plain C++ for
// 8-, 16- and 32-bit integers and floats, tables of 16, 32 and 64 bytes,
// images narrower than half a vector, of exactly a vector and wider, output
// windows well outside the image and at both of its ends, on the AVX2,
// SSE4.1 and host targets, with the image against inaccessible pages (a
// load outside the run faults). The three taps x - 3, x and x + 4 are one
// load of lanes + 7 lanes (lower/ShareShiftedGathers.cpp), widened to the
// next power of two of lanes. The assembly shows the permutes.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "Halide.h"
#include "guarded_array.h"

using namespace Halide;

namespace {

const char *kAvx2 = "x86-64-linux-avx-avx2-f16c-fma-sse41";
const char *kSse41 = "x86-64-linux-sse41";
const char *kAvx512 = "x86-64-linux-avx-avx2-avx512-avx512_skylake-avx512_cannonlake-f16c-fma-sse41";

// Where mirror_interior (interior) or mirror_image reads coordinate i of an
// image of width w.
int mirrored(int i, int w, bool interior) {
    if (interior) {
        if (w == 1) {
            return 0;
        }
        int period = 2 * (w - 1), m = ((i % period) + period) % period;
        return m <= w - 1 ? m : period - m;
    }
    int period = 2 * w, m = ((i % period) + period) % period;
    return m < w ? m : period - 1 - m;
}

struct Pipeline1 {
    ImageParam in;
    Func f;
};

// Three taps (one tap: m(x - 3, y) alone).
template <typename T> Pipeline1 mirrored_taps(int lanes, bool interior, bool one_tap = false) {
    ImageParam in(type_of<T>(), 2, "in");
    Var x("x"), y("y");
    Func m = interior ? BoundaryConditions::mirror_interior(in) : BoundaryConditions::mirror_image(in);
    Func f("f");
    f(x, y) = one_tap ? m(x - 3, y) : m(x - 3, y) + m(x, y) * 2 + m(x + 4, y);
    f.vectorize(x, lanes);
    return {in, f};
}

template <typename T> void check_mirrored(int lanes, const Target &target) {
    for (bool interior : {true, false}) {
        Pipeline1 p = mirrored_taps<T>(lanes, interior);
        p.f.compile_jit(target);
        for (int w : {1, 2, 3, lanes / 2 - 1, lanes / 2, lanes - 1, lanes, lanes + 3, 3 * lanes + 5}) {
            if (w < 1) {
                continue;
            }
            const int h = 2;
            for (bool at_end : {true, false}) {
                GuardedImage<T> guarded(w, h, at_end);
                Runtime::Buffer<T> &input = guarded.buffer();
                for (int j = 0; j < h; j++) {
                    for (int i = 0; i < w; i++) {
                        input(i, j) = (T)((i * 7 + j * 3) % 31);
                    }
                }
                p.in.set(Buffer<T>(input));
                for (int x0 : {-2 * lanes, -5, 0, w - lanes, w + 2}) {
                    Buffer<T> out(std::max(w + 10, lanes), h);
                    out.set_min(x0, 0);
                    p.f.realize(out, target);
                    for (int j = 0; j < h; j++) {
                        for (int i = x0; i < x0 + out.width(); i++) {
                            auto ref = [&](int d) { return input(mirrored(i + d, w, interior), j); };
                            T want = (T)(ref(-3) + ref(0) * 2 + ref(4));
                            ASSERT_EQ(out(i, j), want)
                                << "x " << i << " y " << j << " w " << w << " lanes " << lanes
                                << (interior ? " mirror_interior " : " mirror_image ") << target.to_string();
                        }
                    }
                }
            }
        }
    }
}

template <typename T> void check_widths(const Target &target, int bytes_from, int bytes_to) {
    for (int bytes = bytes_from; bytes <= bytes_to; bytes *= 2) {
        check_mirrored<T>(bytes / (int)sizeof(T), target);
    }
}

std::string assembly(int lanes, const Target &target, bool one_tap = false) {
    Pipeline1 p = mirrored_taps<uint16_t>(lanes, true, one_tap);
    std::string path = ::testing::TempDir() + "span_load_" + std::to_string(lanes) + (one_tap ? "_one" : "") + ".s";
    p.f.compile_to_assembly(path, {p.in}, "span_load", target);
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

bool host_has(Target::Feature f) {
    return get_host_target().has_feature(f);
}

} // namespace

TEST(SpanLoad, MirroredEdgesMatchTheImageWithAVX2) {
    if (!host_has(Target::AVX2)) {
        GTEST_SKIP() << "this machine has no AVX2";
    }
    Target t(kAvx2);
    check_widths<uint8_t>(t, 16, 64);
    check_widths<int8_t>(t, 32, 32);
    check_widths<int16_t>(t, 16, 64);
    check_widths<uint16_t>(t, 32, 32);
    check_widths<int32_t>(t, 16, 64);
    check_widths<float>(t, 16, 64);
}

TEST(SpanLoad, MirroredEdgesMatchTheImageWithSSE41) {
    if (!host_has(Target::SSE41)) {
        GTEST_SKIP() << "this machine has no SSE4.1";
    }
    Target t(kSse41);
    check_widths<uint8_t>(t, 16, 32);
    check_widths<int16_t>(t, 16, 32);
    check_widths<float>(t, 16, 32);
}

TEST(SpanLoad, MirroredEdgesMatchTheImageOnTheHost) {
    // With AVX-512 (BW, VBMI) here: vpermb, vpermw and vpermd.
    Target t = get_jit_target_from_environment();
    check_widths<uint8_t>(t, 16, 64);
    check_widths<int16_t>(t, 16, 64);
    check_widths<int32_t>(t, 16, 64);
    check_widths<float>(t, 32, 64);
}

TEST(SpanLoad, EdgeVectorsPermuteInsteadOfGathering) {
    // The 16-bit edge vectors of one mirrored tap: pshufb on both halves of
    // the run with AVX2, one vpermw with AVX-512BW; the smallest and largest
    // index (the run's ends) come from min / max reductions.
    std::string avx2 = assembly(16, Target(kAvx2), true);
    EXPECT_NE(avx2.find("vpshufb"), std::string::npos);
    EXPECT_EQ(avx2.find("vpermw"), std::string::npos);
    std::string avx512 = assembly(16, Target(kAvx512), true);
    EXPECT_NE(avx512.find("vpermw"), std::string::npos);
    std::string sse = assembly(8, Target(kSse41), true);
    EXPECT_NE(sse.find("pshufb"), std::string::npos);
    EXPECT_NE(sse.find("pminsd"), std::string::npos);
    // Three taps are one load of 16 + 7 lanes (lower/ShareShiftedGathers.cpp)
    // widened to 32: one vpermw with AVX-512BW; with AVX2 a table of two
    // registers, looked up with vpshufb.
    EXPECT_NE(assembly(16, Target(kAvx512)).find("vpermw"), std::string::npos);
    EXPECT_NE(assembly(16, Target(kAvx2)).find("vpshufb"), std::string::npos);
}

// A lookup whose index is computed from loaded values (a bin of each
// pixel's value, as bilateral_grid's slicing reads its grid at each
// pixel's intensity): the index comes through a let bound to the load, and
// such lanes are seldom a short run. It is gathered without the run test
// (no `_span` block in the LLVM IR: its two reductions and branch cost a
// fifth of bilateral_grid's time), and reads the table right.
TEST(SpanLoad, AnIndexComputedFromLoadedValuesIsGathered) {
    ImageParam in(Float(32), 1, "in"), tbl(Float(32), 1, "tbl");
    Var x("x");
    Func f("f");
    Expr v = in(x);
    Expr bin = clamp(cast<int>(v * 4.0f), 0, 14);
    f(x) = tbl(bin) * (1.0f - v) + tbl(bin + 1) * v;
    f.vectorize(x, 8);
    const std::string path = ::testing::TempDir() + "span_load_data.ll";
    f.compile_to_llvm_assembly(path, {in, tbl}, "span_load_data", Target(kAvx512));
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_NE(text.str().find("define"), std::string::npos);
    EXPECT_EQ(text.str().find("tbl_span"), std::string::npos);

    Buffer<float> input(37), table(16);
    for (int i = 0; i < 37; i++) {
        input(i) = float((i * 5) % 17) / 4.0f; // bins 0 to 16, clamped to 14
    }
    for (int i = 0; i < 16; i++) {
        table(i) = float(i * i) - 3.0f;
    }
    in.set(input);
    tbl.set(table);
    Buffer<float> out = f.realize({37});
    for (int i = 0; i < 37; i++) {
        int b = std::min(std::max((int)(input(i) * 4.0f), 0), 14);
        float want = table(b) * (1.0f - input(i)) + table(b + 1) * input(i);
        EXPECT_EQ(out(i), want) << "x " << i;
    }
}
