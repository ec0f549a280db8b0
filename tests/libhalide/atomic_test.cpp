// Stage::atomic(): updates whose parallel or vectorized RVar may hit the
// same point are atomic read-modify-writes (lower/AddAtomics.cpp,
// codegen/CodeGen_LLVM_Atomics.cpp). Expected values are counted here in
// plain C++.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

std::vector<int> counts(const Buffer<uint8_t> &in, int bins) {
    std::vector<int> c(bins, 0);
    for (int i = 0; i < in.width(); i++) {
        c[std::min<int>(in(i), bins - 1)]++;
    }
    return c;
}

Buffer<uint8_t> input(int n, int modulus) {
    Buffer<uint8_t> in(n);
    uint32_t s = 12345;
    for (int i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        in(i) = (uint8_t)((s >> 16) % modulus);
    }
    return in;
}

std::string read(const std::string &path) {
    std::ifstream f(path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

TEST(Atomic, ParallelAndVectorizedHistogram) {
    Buffer<uint8_t> in = input(1 << 17, 16);
    Var x("x");
    RDom r(Region{{0, in.width()}}, "r");
    RVar ro("ro"), ri("ri");
    Func hist("hist");
    hist(x) = 0;
    hist(clamp(cast<int>(in(r)), 0, 15)) += 1;
    hist.update().atomic().split(r, ro, ri, 256).parallel(ro).vectorize(ri, 8);
    Buffer<int32_t> out = hist.realize({16});
    std::vector<int> expected = counts(in, 16);
    for (int b = 0; b < 16; b++) {
        EXPECT_EQ(out(b), expected[b]) << "bin " << b;
    }
}

TEST(Atomic, IntegerAddIsAnAtomicRmwAndFloatAddACompareAndSwap) {
    ImageParam in(UInt(8), 1, "in");
    Var x("x");
    RDom r(Region{{0, in.width()}}, "r");
    Func hist("hist"), sum("sum");
    hist(x) = 0;
    hist(clamp(cast<int>(in(r)), 0, 255)) += 1;
    hist.update().atomic().parallel(r);
    sum(x) = 0.0f;
    sum(clamp(cast<int>(in(r)), 0, 255)) += cast<float>(in(r)) * 0.5f;
    sum.update().atomic().parallel(r);
    std::string dir = ::testing::TempDir();
    hist.compile_to_llvm_assembly(dir + "/atomic_hist.ll", {in}, "atomic_hist");
    sum.compile_to_llvm_assembly(dir + "/atomic_sum.ll", {in}, "atomic_sum");
    std::string h = read(dir + "/atomic_hist.ll"), s = read(dir + "/atomic_sum.ll");
    EXPECT_NE(h.find("atomicrmw add"), std::string::npos) << h;
    EXPECT_EQ(h.find("cmpxchg"), std::string::npos);
    EXPECT_NE(s.find("cmpxchg"), std::string::npos) << s;

    Buffer<uint8_t> data = input(1 << 16, 256);
    in.set(data);
    Buffer<int32_t> ho = hist.realize({256});
    Buffer<float> so = sum.realize({256});
    std::vector<int> expected = counts(data, 256);
    for (int b = 0; b < 256; b++) {
        EXPECT_EQ(ho(b), expected[b]) << "bin " << b;
        // Every term is b / 2 exactly, so any order of additions is exact.
        EXPECT_EQ(so(b), expected[b] * (b * 0.5f)) << "bin " << b;
    }
}

TEST(Atomic, MinMaxAndUnsignedTypes) {
    Buffer<uint8_t> in = input(1 << 16, 200);
    Var x("x");
    RDom r(Region{{0, in.width()}}, "r");
    Func lo("lo"), hi("hi");
    Expr bin = cast<int>(in(r)) % 4;
    lo(x) = cast<uint16_t>(65535);
    lo(bin) = min(lo(bin), cast<uint16_t>(in(r)) * 300);
    hi(x) = cast<int8_t>(-128);
    hi(bin) = max(hi(bin), cast<int8_t>(cast<int>(in(r)) - 100));
    lo.update().atomic().parallel(r);
    hi.update().atomic().vectorize(r, 16).parallel(r);
    Buffer<uint16_t> lo_out = lo.realize({4});
    Buffer<int8_t> hi_out = hi.realize({4});
    for (int b = 0; b < 4; b++) {
        int mn = 65535, mx = -128;
        for (int i = 0; i < in.width(); i++) {
            if (in(i) % 4 == b) {
                mn = std::min(mn, (int)(uint16_t)(in(i)*300));
                mx = std::max(mx, (int)(int8_t)(in(i)-100));
            }
        }
        EXPECT_EQ(lo_out(b), mn) << "bin " << b;
        EXPECT_EQ(hi_out(b), mx) << "bin " << b;
    }
}

TEST(Atomic, RacyTupleUpdateIsRefused) {
    Var x("x");
    RDom r(Region{{0, 10}}, "r");
    Func f("f");
    f(x) = Tuple(0, 0);
    f(r % 3) = Tuple(f(r % 3)[0] + 1, f(r % 3)[1] + r);
    f.update().atomic().parallel(r);
    std::string m = message_of([&] { f.realize({3}); });
    EXPECT_NE(m.find("atomic() with RVar r"), std::string::npos) << m;
    EXPECT_NE(m.find("Tuple-valued update"), std::string::npos) << m;
}

} // namespace
