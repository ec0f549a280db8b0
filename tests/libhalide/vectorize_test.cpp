// Vector code generation: each vectorized pipeline is compared with values
// computed here in plain C++, and its lowered statement is checked for the
// shape it should have (vector ramps, or a serial fallback).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

bool has(const std::string &text, const std::string &what) {
    return text.find(what) != std::string::npos;
}

Buffer<int32_t> ramp_input(int w, int h = 1) {
    Runtime::Buffer<int32_t> b = h == 1 ? Runtime::Buffer<int32_t>(w) : Runtime::Buffer<int32_t>(w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            b(x, y) = (x * 37 + y * 101) % 1000 - 300;
        }
    }
    return Buffer<int32_t>(b);
}

} // namespace

TEST(Vectorize, GatherThroughAComputedIndex) {
    ImageParam in(Int(32), 1);
    Buffer<int32_t> data = ramp_input(64);
    in.set(data);
    Func f;
    Var x;
    f(x) = in((x * 7) % 64) * 2;
    f.vectorize(x, 8);
    ASSERT_TRUE(has(f.lowered_stmt(), "ramp("));
    Buffer<int32_t> out = f.realize({61});
    for (int i = 0; i < 61; i++) {
        EXPECT_EQ(out(i), data((i * 7) % 64) * 2) << i;
    }
}

TEST(Vectorize, StridedLoads) {
    ImageParam in(Int(32), 1);
    Buffer<int32_t> data = ramp_input(200);
    in.set(data);
    Func f;
    Var x;
    f(x) = in(2 * x) - in(2 * x + 1) + in(3 * x);
    f.vectorize(x, 8);
    ASSERT_TRUE(has(f.lowered_stmt(), "ramp("));
    Buffer<int32_t> out = f.realize({60});
    for (int i = 0; i < 60; i++) {
        EXPECT_EQ(out(i), data(2 * i) - data(2 * i + 1) + data(3 * i)) << i;
    }
}

// Reads through clamped coordinates: dense loads inside the image, the
// clamped path at both edges (the image is narrower than a few vectors).
TEST(Vectorize, ClampedEdgesMatchAtEveryPosition) {
    const int W = 37, H = 5;
    ImageParam in(Int(32), 2);
    Buffer<int32_t> data = ramp_input(W, H);
    in.set(data);
    Func f;
    Var x, y;
    f(x, y) = in(clamp(x - 2, 0, W - 1), y) + in(clamp(x + 3, 0, W - 1), y) * 3 + in(clamp(x, 0, W - 1), y);
    f.vectorize(x, 8);
    ASSERT_TRUE(has(f.lowered_stmt(), "ramp("));
    Runtime::Buffer<int32_t> storage(W + 12, H);
    storage.set_min(-6, 0);
    Buffer<int32_t> out(storage);
    f.realize(out);
    auto at = [&](int i, int j) { return data(std::clamp(i, 0, W - 1), j); };
    for (int j = 0; j < H; j++) {
        for (int i = -6; i < W + 6; i++) {
            EXPECT_EQ(storage(i, j), at(i - 2, j) + at(i + 3, j) * 3 + at(i, j)) << i << "," << j;
        }
    }
}

// Vectorizing y: each lane is a different row, so stores are scatters.
TEST(Vectorize, AcrossRowsScattersAndGathers) {
    ImageParam in(Int(32), 2);
    Buffer<int32_t> data = ramp_input(9, 16);
    in.set(data);
    Func f;
    Var x, y;
    f(x, y) = in(x, y) + in(8 - x, 15 - y);
    f.vectorize(y, 4);
    ASSERT_TRUE(has(f.lowered_stmt(), "ramp("));
    Buffer<int32_t> out = f.realize({9, 16});
    for (int j = 0; j < 16; j++) {
        for (int i = 0; i < 9; i++) {
            EXPECT_EQ(out(i, j), data(i, j) + data(8 - i, 15 - j)) << i << "," << j;
        }
    }
}

// A Bool Func stored and read back as vectors (bools are bytes in memory).
TEST(Vectorize, BoolValuesThroughMemory) {
    ImageParam in(Int(32), 1);
    Buffer<int32_t> data = ramp_input(50);
    in.set(data);
    Func b, f;
    Var x;
    b(x) = in(x) > 100 && in(x) < 500;
    f(x) = select(b(x), in(x), -1);
    b.compute_root().vectorize(x, 16);
    f.vectorize(x, 8);
    Buffer<int32_t> out = f.realize({50});
    for (int i = 0; i < 50; i++) {
        EXPECT_EQ(out(i), data(i) > 100 && data(i) < 500 ? data(i) : -1) << i;
    }
}

// A guarded tail (GuardWithIf) vectorizes: whole vectors where every lane
// is inside, lane by lane in the last one; any width works, even less than
// one vector.
TEST(Vectorize, GuardedTailRunsWholeVectorsThenLanes) {
    for (int width : {13, 5, 16}) {
        Func f;
        Var x;
        f(x) = x * x - 3;
        f.vectorize(x, 8, TailStrategy::GuardWithIf);
        std::string stmt = f.lowered_stmt();
        EXPECT_TRUE(has(stmt, "ramp(")) << stmt;
        Buffer<int32_t> out = f.realize({width});
        for (int i = 0; i < width; i++) {
            EXPECT_EQ(out(i), i * i - 3) << i << " of " << width;
        }
    }
}

// A per-lane condition that is not a guard keeps the loop serial.
TEST(Vectorize, OtherPerLaneBranchesFallBackToASerialLoop) {
    ImageParam in(Int(32), 1);
    Buffer<int32_t> data = ramp_input(40);
    in.set(data);
    Func f;
    Var x;
    f(x) = print_when(in(x) > 500, in(x), "big");
    f.vectorize(x, 8);
    std::string stmt = f.lowered_stmt();
    EXPECT_FALSE(has(stmt, "ramp(")) << stmt;
    Buffer<int32_t> out = f.realize({40});
    for (int i = 0; i < 40; i++) {
        EXPECT_EQ(out(i), data(i)) << i;
    }
}

// The inner loop of a tiled, vectorized blur: dense vector loads and stores,
// no min/max left in the index of the innermost loop.
TEST(Vectorize, TiledBlurInnerLoopIsPlainVectorCode) {
    ImageParam in(UInt(16), 2, "input");
    Func bx("bx"), by("by");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    bx(x, y) = (in(x - 1, y) + in(x, y) + in(x + 1, y)) / 3;
    by(x, y) = (bx(x, y - 1) + bx(x, y) + bx(x, y + 1)) / 3;
    by.tile(x, y, xi, yi, 64, 8).vectorize(xi, 8);
    bx.compute_at(by, x).vectorize(x, 8);
    std::string stmt = by.lowered_stmt();
    // bx's region is one tile plus a row above and below, known at compile time.
    EXPECT_TRUE(has(stmt, "allocate bx[uint16 * 64 * 10]")) << stmt;
    EXPECT_TRUE(has(stmt, "for (bx.s0.x$o, 0, 8)")) << stmt;

    Runtime::Buffer<uint16_t> src(130, 34);
    src.set_min(-1, -1);
    for (int j = -1; j < 33; j++) {
        for (int i = -1; i < 129; i++) {
            src(i, j) = uint16_t(((i + 1) * 31 + (j + 1) * 17) % 4000);
        }
    }
    in.set(Buffer<uint16_t>(src));
    Buffer<uint16_t> out = by.realize({128, 32});
    for (int j = 0; j < 32; j++) {
        for (int i = 0; i < 128; i++) {
            auto row = [&](int r) { return (src(i - 1, r) + src(i, r) + src(i + 1, r)) / 3; };
            EXPECT_EQ(out(i, j), (row(j - 1) + row(j) + row(j + 1)) / 3) << i << "," << j;
        }
    }
}
