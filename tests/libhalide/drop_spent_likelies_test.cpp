// Branch marks partitioning could not use, dropped after it
// (lower/DropSpentLikelies.cpp), and index sums through let-bound sums
// (lower/CanonicalizeIndices.cpp): statements before and after, then a tiled
// matrix product whose accumulators end up in registers, its values against
// plain C++.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/DropSpentLikelies.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

Expr mark(const char *name, const Expr &e) {
    return Call::make(Int(32), name, {e}, Call::Intrinsic);
}

// f[x] = 0 with x's index wrapped as given.
Stmt store_at(const Expr &index) {
    return Store::make("f", FloatImm::make(Float(32), 0.0), index);
}

Stmt loop(const std::string &v, const Stmt &body, ForType type = ForType::Serial) {
    return For::make(v, i32(0), i32(8), type, body);
}

} // namespace

TEST(DropSpentLikelies, MarksOutsideEveryLoopGo) {
    Stmt before = Block::make(store_at(mark("likely_if_innermost", Add::make(var("m"), i32(16)))),
                              store_at(mark("likely", var("m"))));
    EXPECT_EQ(printed(before), "f[likely_if_innermost((m + 16))] = 0.0f\nf[likely(m)] = 0.0f\n");
    EXPECT_EQ(printed(drop_spent_likelies(before)), "f[(m + 16)] = 0.0f\nf[m] = 0.0f\n");
}

TEST(DropSpentLikelies, InnermostMarksGoFromLoopsWithALoopInside) {
    // y has a serial loop inside: its likely_if_innermost is spent, its
    // likely() may still partition y. x is innermost: its marks stay.
    Stmt inner = loop("x", store_at(mark("likely_if_innermost", var("x"))));
    Stmt before = loop(
        "y", Block::make({store_at(mark("likely_if_innermost", var("y"))), store_at(mark("likely", var("y"))), inner}));
    std::string after = printed(drop_spent_likelies(before));
    EXPECT_EQ(count(after, "f[y]"), 1) << after;
    EXPECT_EQ(count(after, "f[likely(y)]"), 1) << after;
    EXPECT_EQ(count(after, "f[likely_if_innermost(x)]"), 1) << after;
}

TEST(DropSpentLikelies, AVectorizedLoopInsideLeavesTheLoopInnermost) {
    // Partitioning counts a loop around vectorized ones as innermost.
    Stmt before = loop("y", Block::make(store_at(mark("likely_if_innermost", var("y"))),
                                        loop("v", store_at(var("v")), ForType::Vectorized)));
    std::string after = printed(drop_spent_likelies(before));
    EXPECT_EQ(count(after, "f[likely_if_innermost(y)]"), 1) << after;
}

TEST(CanonicalizeIndices, LetBoundSumsExpandWhereTheyCancel) {
    // m = xo * 32 bound outside: i + xo * 32 - m is i.
    Expr index = Sub::make(Add::make(var("i"), Mul::make(var("xo"), i32(32))), var("m"));
    Stmt before = LetStmt::make("m", Mul::make(var("xo"), i32(32)), store_at(index));
    std::string after = printed(canonicalize_indices(before));
    EXPECT_EQ(count(after, "f[i]"), 1) << after;
}

TEST(CanonicalizeIndices, ARowOffsetStaysATerm) {
    // row = y * w + base: expanding it would add terms, so it stays (codegen
    // makes it a row pointer).
    Expr row_value = Add::make(Mul::make(var("y"), var("w")), var("base"));
    Stmt before = LetStmt::make("row", row_value, store_at(Add::make(var("row"), var("x"))));
    std::string after = printed(canonicalize_indices(before));
    EXPECT_EQ(count(after, "f[(row + x)]"), 1) << after;
}

TEST(CanonicalizeIndices, ALetIsNotExpandedWhereWhatItReadsIsRebound) {
    // m reads a, and the loop rebinds a: inside it, m - a * 2 is not 0.
    Expr index = Sub::make(var("m"), Mul::make(var("a"), i32(2)));
    Stmt before = LetStmt::make("m", Mul::make(var("a"), i32(2)), loop("a", store_at(index)));
    std::string after = printed(canonicalize_indices(before));
    EXPECT_EQ(count(after, "f[0]"), 0) << after;
    EXPECT_EQ(count(after, "m"), 2) << after;
}

// The matrix benchmark's schedule, small: 2 vectors x 4 rows of
// accumulators per tile, the update's k innermost.
TEST(DropSpentLikelies, AnUnrolledTilesAccumulatorsStayInRegisters) {
    if (!get_host_target().has_feature(Target::AVX2)) {
        GTEST_SKIP() << "this machine has no AVX2";
    }
    const int n = 64, vec = 8, rows = 4;
    Buffer<float> a(n, n), b(n, n);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            a(x, y) = (float)((x * 7 + y * 3) % 17 - 8);
            b(x, y) = (float)((x * 5 + y * 11) % 13 - 6);
        }
    }
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, n, "k");
    Func prod("prod"), out("out");
    prod(x, y) = 0.0f;
    prod(x, y) += a(k, y) * b(x, k);
    out(x, y) = prod(x, y);
    out.tile(x, y, xi, yi, 2 * vec, rows).vectorize(xi, vec).unroll(xi).unroll(yi).parallel(y);
    prod.compute_at(out, x).vectorize(x, vec).unroll(x).unroll(y);
    prod.update(0).reorder(x, y, k).vectorize(x, vec).unroll(x).unroll(y);

    Target target("x86-64-linux-avx-avx2-fma-sse41");
    std::string path = ::testing::TempDir() + "drop_spent_likelies_tile.s";
    out.compile_to_assembly(path, {}, "tile", target);
    std::ifstream file(path);
    std::string line;
    int stack_vectors = 0;
    while (std::getline(file, line)) {
        // A vector load or store through the stack: an accumulator kept in
        // memory between the tile's zeroing, its k loop and its copy out.
        if (line.find("ymm") != std::string::npos && line.find("(%rsp") != std::string::npos) {
            stack_vectors++;
        }
    }
    EXPECT_EQ(stack_vectors, 0);

    Buffer<float> result = out.realize({n, n}, target);
    for (int y = 0; y < n; y++) {
        for (int x = 0; x < n; x++) {
            float want = 0.0f;
            for (int i = 0; i < n; i++) {
                want += a(i, y) * b(x, i);
            }
            ASSERT_EQ(result(x, y), want) << x << ", " << y;
        }
    }
}
