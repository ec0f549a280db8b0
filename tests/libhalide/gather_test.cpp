// Vector loads at computed indices (gathers): codegen loads each lane at
// its 32-bit index taken out of the index vector, as upstream does, not
// through llvm.masked.gather (whose scalarization on x86 without AVX-512
// first widens every index to a 64-bit address in vector registers). The
// results are compared with the table read in plain C++, for float and
// int16 tables, 8 and 16 lanes (the last vector shifted inwards); the LLVM
// assembly shows which form was emitted. (A guarded tail's masked loads
// stay masked gathers: only the lanes the mask keeps may be read.)
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

int index_of(int x, int y) {
    return (x * 37 + y * 11 + (x * y) % 7) % 300;
}

std::string llvm_assembly(Func f, const std::string &name, const std::vector<Argument> &args = {}) {
    std::string path = ::testing::TempDir() + name + ".ll";
    f.compile_to_llvm_assembly(path, args, name);
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

// ---- clamped reads at the edges (codegen's shifted_clamped_load)

namespace {

template <typename T> void check_clamped_edges(int lanes, bool repeat_edge_bounds) {
    ImageParam in(type_of<T>(), 2, "in");
    Param<int> width("width");
    Var x("x"), y("y");
    Func f("f");
    Expr hi = repeat_edge_bounds ? in.width() - 1 : width - 1;
    auto at = [&](int d) { return in(clamp(likely(x + d), 0, hi), y); };
    f(x, y) = at(-3) + at(-1) * 2 + at(0) * 3 + at(2) * 5 + at(7) * 7;
    f.vectorize(x, lanes);
    std::string ll = llvm_assembly(f, "clamped_edges", {in, width});
    // The lanes' run is picked by a variable permute where the target has
    // one for the type (every x86 target with AVX2), else shifted through a
    // stack array.
    if (get_host_target().has_feature(Target::AVX2)) {
        EXPECT_EQ(ll.find("clamped_lanes"), std::string::npos) << "lanes " << lanes;
        EXPECT_NE(ll.find("call <"), std::string::npos) << "lanes " << lanes;
        EXPECT_NE(ll.find("@llvm.x86."), std::string::npos) << "lanes " << lanes;
    } else {
        EXPECT_NE(ll.find("clamped_lanes"), std::string::npos) << "lanes " << lanes;
    }
    for (int w : {1, 3, lanes / 2, lanes - 1, lanes, lanes + 3, 3 * lanes + 5}) {
        const int h = 2;
        for (bool at_end : {true, false}) {
            GuardedImage<T> guarded(w, h, at_end);
            Runtime::Buffer<T> &input = guarded.buffer();
            for (int j = 0; j < h; j++) {
                for (int i = 0; i < w; i++) {
                    input(i, j) = (T)(i * 3 + j * 50 + 1);
                }
            }
            in.set(Buffer<T>(input));
            width.set(w);
            // Outputs from well left of the input to well right of it.
            for (int x0 : {-2 * lanes, -5, 0, w - lanes, w + 2}) {
                Buffer<T> out(std::max(w + 10, lanes), h);
                out.set_min(x0, 0);
                f.realize(out);
                for (int j = 0; j < h; j++) {
                    for (int i = x0; i < x0 + out.width(); i++) {
                        auto ref = [&](int d) { return input(std::min(std::max(i + d, 0), w - 1), j); };
                        T want = (T)(ref(-3) + ref(-1) * 2 + ref(0) * 3 + ref(2) * 5 + ref(7) * 7);
                        ASSERT_EQ(out(i, j), want) << "x " << i << " y " << j << " w " << w << " lanes " << lanes;
                    }
                }
            }
        }
    }
}

} // namespace

TEST(Gather, ClampedEdgeVectorsShiftTwoLoadsAndStayInTheImage) {
    // Each read clamps a few lanes at the image's edges; the edge vectors
    // load the lanes' run of elements (never beyond it: the input sits
    // against inaccessible pages) and permute it instead of gathering each lane.
    check_clamped_edges<int16_t>(16, true);
    check_clamped_edges<int16_t>(8, false);
    check_clamped_edges<float>(8, true);
    check_clamped_edges<uint8_t>(32, false);
}
