// target_arch_is, target_bits, target_os_is, target_has_feature and
// target_natural_vector_size in JIT-compiled pipelines: each is the answer
// for the JIT target, which the test reads from the Target itself (plain
// C++), never from a pipeline. The pass alone: lower_passes_test.cpp.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

TEST(TargetQueries, TypesAreUpstreams) {
    EXPECT_EQ(target_arch_is(Target::X86).type(), Bool());
    EXPECT_EQ(target_os_is(Target::Linux).type(), Bool());
    EXPECT_EQ(target_has_feature(Target::AVX2).type(), Bool());
    EXPECT_EQ(target_bits().type(), Int(32));
    EXPECT_EQ(target_natural_vector_size<uint8_t>().type(), Int(32));
}

TEST(TargetQueries, JITPipelineSeesTheJITTarget) {
    Target t = get_jit_target_from_environment();
    Var x("x");
    Func f("f");
    f(x) = {select(target_arch_is(Target::X86), 1, 0),
            select(target_arch_is(Target::ARM), 1, 0),
            select(target_os_is(t.os), 1, 0),
            select(target_os_is(Target::Windows), 1, 0),
            target_bits(),
            select(target_has_feature(Target::AVX2), 1, 0),
            target_natural_vector_size<float>() + x,
            target_natural_vector_size(UInt(16))};
    Realization r = f.realize({3});
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(Buffer<int>(r[0])(i), t.arch == Target::X86);
        EXPECT_EQ(Buffer<int>(r[1])(i), t.arch == Target::ARM);
        EXPECT_EQ(Buffer<int>(r[2])(i), 1);
        EXPECT_EQ(Buffer<int>(r[3])(i), t.os == Target::Windows);
        EXPECT_EQ(Buffer<int>(r[4])(i), t.bits);
        EXPECT_EQ(Buffer<int>(r[5])(i), t.has_feature(Target::AVX2));
        EXPECT_EQ(Buffer<int>(r[6])(i), t.natural_vector_size(Float(32)) + i);
        EXPECT_EQ(Buffer<int>(r[7])(i), t.natural_vector_size(UInt(16)));
    }
}

// Folded before bounds inference: a query may size what a Func reads.
TEST(TargetQueries, UsableInIndicesAndRDomBounds) {
    Target t = get_jit_target_from_environment();
    int n = t.natural_vector_size(Float(32));
    Var x("x");
    Func in("in"), out("out");
    in(x) = x * 3;
    in.compute_root();
    RDom r(0, target_natural_vector_size<float>());
    out(x) = 0;
    out(x) += in(x + r);
    Buffer<int> got = out.realize({5});
    for (int i = 0; i < 5; i++) {
        int expected = 0;
        for (int k = 0; k < n; k++) {
            expected += (i + k) * 3;
        }
        EXPECT_EQ(got(i), expected) << i;
    }
}

// Another target: the lowered statement of a pipeline compiled for 32-bit
// ARM says so.
TEST(TargetQueries, AheadOfTimeTargetDecides) {
    Var x("x");
    Func f("f");
    f(x) = target_bits() * 1000 + select(target_arch_is(Target::ARM), 7, 9);
    std::string file = ::testing::TempDir() + "target_queries_arm.stmt";
    f.compile_to_lowered_stmt(file, {}, StmtOutputFormat::Text, Target("arm-32-linux"));
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("32007"), std::string::npos) << text;
    EXPECT_EQ(text.find("target_"), std::string::npos) << text;
}

} // namespace
