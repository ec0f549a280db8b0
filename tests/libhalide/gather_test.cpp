// Vector loads at computed indices (gathers): codegen loads each lane at
// its 32-bit index taken out of the index vector, as upstream does, not
// through llvm.masked.gather (whose scalarization on x86 without AVX-512
// first widens every index to a 64-bit address in vector registers). The
// results are compared with the table read in plain C++, for float and
// int16 tables, 8 and 16 lanes (the last vector shifted inwards); the LLVM
// assembly shows which form was emitted. (A guarded tail's masked loads
// stay masked gathers: only the lanes the mask keeps may be read.)
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

int index_of(int x, int y) {
    return (x * 37 + y * 11 + (x * y) % 7) % 300;
}

std::string llvm_assembly(Func f, const std::string &name) {
    std::string path = ::testing::TempDir() + name + ".ll";
    f.compile_to_llvm_assembly(path, {}, name);
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

template <typename T> void check(int lanes) {
    const int w = 61, h = 5;
    Var x("x"), y("y"), i("i");
    Func table("table"), out("out");
    table(i) = cast<T>(i * 3 - 200);
    out(x, y) = table((x * 37 + y * 11 + (x * y) % 7) % 300) + table(x % 5);
    table.compute_root().bound(i, 0, 300);
    out.vectorize(x, lanes);
    std::string ll = llvm_assembly(out, "gather_test");
    EXPECT_EQ(ll.find("masked.gather"), std::string::npos) << "lanes " << lanes;
    Buffer<T> result = out.realize({w, h});
    for (int yy = 0; yy < h; yy++) {
        for (int xx = 0; xx < w; xx++) {
            T want = (T)((T)(index_of(xx, yy) * 3 - 200) + (T)((xx % 5) * 3 - 200));
            ASSERT_EQ(result(xx, yy), want) << xx << ", " << yy << ", lanes " << lanes;
        }
    }
}

} // namespace

TEST(Gather, FloatTableAtComputedIndices) {
    check<float>(8);
    check<float>(16);
}

TEST(Gather, Int16TableAtComputedIndices) {
    check<int16_t>(8);
    check<int16_t>(16);
}
