// Instructions a named x86 target lets the code generator use. Every AVX2
// processor has FMA and F16C, so code for a plain avx2 target uses them as
// upstream's does (its target string still does not name them); an avx
// target uses neither. Checked in the assembly of a multiply-add and of a
// float16 conversion, and by running the multiply-add on this machine when
// it has AVX2.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

std::string file_text(const std::string &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

// out(x) = a(x) * b(x) + a(x + 1), or its float16 round trip when `half`.
std::string assembly(const Target &t, bool half) {
    ImageParam a(Float(32), 1, "a"), b(Float(32), 1, "b");
    Var x("x");
    Func out("out");
    if (half) {
        out(x) = cast<float>(cast(Float(16), a(x)));
    } else {
        out(x) = a(x) * b(x) + a(x + 1);
    }
    out.vectorize(x, 8);
    std::string path = ::testing::TempDir() + "x86_feature_codegen.s";
    out.compile_to_assembly(path, {a, b}, "out", t);
    return file_text(path);
}

bool contains(const std::string &text, const std::string &what) {
    return text.find(what) != std::string::npos;
}

} // namespace

TEST(X86FeatureCodegen, Avx2UsesFmaAndF16c) {
    Target avx2("x86-64-linux-avx2");
    EXPECT_FALSE(avx2.has_feature(Target::FMA)); // the target names only what was asked
    EXPECT_TRUE(contains(assembly(avx2, false), "vfmadd"));
    EXPECT_TRUE(contains(assembly(avx2, true), "vcvtps2ph"));
    EXPECT_TRUE(contains(assembly(avx2, true), "vcvtph2ps"));
}

TEST(X86FeatureCodegen, AvxAloneUsesNeither) {
    Target avx("x86-64-linux-avx");
    EXPECT_FALSE(contains(assembly(avx, false), "vfmadd"));
    EXPECT_FALSE(contains(assembly(avx, true), "vcvtph2ps"));
    Target avx_fma("x86-64-linux-avx-fma");
    EXPECT_TRUE(contains(assembly(avx_fma, false), "vfmadd"));
}

TEST(X86FeatureCodegen, Avx2MultiplyAddRunsOnThisMachine) {
    Target host = get_host_target();
    if (!host.has_feature(Target::AVX2)) {
        GTEST_SKIP() << "this machine has no AVX2";
    }
    ImageParam a(Float(32), 1, "a"), b(Float(32), 1, "b");
    Var x("x");
    Func out("out");
    out(x) = a(x) * b(x) + a(x + 1);
    out.vectorize(x, 8);
    Buffer<float> in_a(17), in_b(16);
    for (int i = 0; i < 17; i++) {
        in_a(i) = 0.1f * (float)i + 0.3f;
        in_b(i < 16 ? i : 0) = 1.7f - 0.05f * (float)i;
    }
    a.set(in_a);
    b.set(in_b);
    Target t("x86-64-linux-avx2");
    Buffer<float> result = out.realize({16}, t);
    for (int i = 0; i < 16; i++) {
        // Fused or not, the result is within one rounding of the exact value.
        double exact = (double)in_a(i) * (double)in_b(i) + (double)in_a(i + 1);
        EXPECT_NEAR(result(i), exact, 1e-6 * std::abs(exact) + 1e-7) << i;
    }
}
