// The region of each input a pipeline reads, as AddImageChecks finds it for
// its out-of-bounds check: tight enough that a schedule reading only inside
// a constrained input is not refused, and still catching a real overrun.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

// A wrapper of the input computed per 16-wide tile of a constrained output
// and vectorized by 8, read by an update split by 2: each tile's min and max
// are 15 apart, but bounded separately over the tiles they were [0, 48] and
// [15, 63], so the wrapper's vector looked 8 before the input's start (the
// matmul benchmark's packed schedule was refused with "accessed at -8").
TEST(InputRegionChecks, TileOfConstrainedOutputStaysInsideInput) {
    const int n = 64;
    ImageParam in(Float(32), 1, "in");
    Var x("x"), xi("xi");
    Func acc("acc"), out("out");
    acc(x) = 1.0f;
    acc(x) += in(x)*2.0f;
    out(x) = acc(x);
    out.split(x, x, xi, 16);
    acc.compute_at(out, x);
    acc.update(0).unroll(x, 2);
    Func wrapper = in.in();
    wrapper.compute_at(out, x).vectorize(wrapper.args()[0], 8);
    in.dim(0).set_min(0).set_extent(n);
    out.output_buffer().dim(0).set_min(0).set_extent(n);

    Buffer<float> input(n);
    for (int i = 0; i < n; i++) {
        input(i) = 0.25f * (float)i - 3.0f;
    }
    in.set(input);
    Buffer<float> result = out.realize({n});
    for (int i = 0; i < n; i++) {
        EXPECT_EQ(result(i), 1.0f + input(i) * 2.0f) << "at " << i;
    }
}

// The same shape in two dimensions (a matrix product with B packed per
// column panel), checked against a plain loop.
TEST(InputRegionChecks, PackedMatrixProduct) {
    const int n = 64;
    ImageParam A(Float(32), 2, "A"), B(Float(32), 2, "B");
    Var x("x"), y("y"), xi("xi"), yi("yi");
    RDom k(0, n, "k");
    Func prod("prod"), out("out");
    prod(x, y) = 0.0f;
    prod(x, y) += A(k, y) * B(x, k);
    out(x, y) = prod(x, y);
    out.tile(x, y, xi, yi, 16, 6).vectorize(xi, 8).unroll(xi).unroll(yi);
    out.reorder(xi, yi, y, x).parallel(x);
    prod.compute_at(out, y).vectorize(x, 8).unroll(x).unroll(y);
    prod.update(0).reorder(x, y, k).vectorize(x, 8).unroll(x).unroll(y);
    Func packed = B.in();
    packed.compute_at(out, x).vectorize(packed.args()[0], 8);
    for (ImageParam *p : {&A, &B}) {
        p->dim(0).set_min(0).set_extent(n).dim(1).set_min(0).set_extent(n).set_stride(n);
    }
    out.output_buffer().dim(0).set_min(0).set_extent(n).dim(1).set_min(0).set_extent(n);

    // Multiples of 1/8 in [-1, 1]: every sum is exact in float32.
    Buffer<float> a(n, n), b(n, n);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            a(i, j) = (float)((i * 7 + j * 3) % 17 - 8) / 8.0f;
            b(i, j) = (float)((i * 5 + j * 11) % 15 - 7) / 8.0f;
        }
    }
    A.set(a);
    B.set(b);
    Buffer<float> result = out.realize({n, n});
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < n; i++) {
            float want = 0.0f;
            for (int kk = 0; kk < n; kk++) {
                want += a(kk, j) * b(i, kk);
            }
            ASSERT_EQ(result(i, j), want) << "at " << i << ", " << j;
        }
    }
}

// A real overrun of a constrained input is still refused, naming the input
// and the coordinate read.
TEST(InputRegionChecks, OverrunOfConstrainedInputIsRefused) {
    const int n = 64;
    ImageParam in(Float(32), 1, "in");
    Var x("x"), xi("xi");
    Func out("out");
    out(x) = in(x + 3);
    out.split(x, x, xi, 16).vectorize(xi, 8);
    in.dim(0).set_min(0).set_extent(n);
    out.output_buffer().dim(0).set_min(0).set_extent(n);
    Buffer<float> input(n);
    input.fill(1.0f);
    in.set(input);
    try {
        out.realize({n});
        FAIL() << "reading in(66) of a 64-wide input was not refused";
    } catch (const RuntimeError &e) {
        std::string what = e.what();
        EXPECT_NE(what.find("Input buffer in is accessed at 66"), std::string::npos) << what;
    }
}

} // namespace
