// Behaviour that programs written for upstream Halide rely on, found by
// running such programs against ours (issue 13). Each expected value is
// computed here in plain C++, never taken from our compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

// C functions the pipelines below call (found by the JIT in this process).
extern "C" HALIDE_EXPORT_SYMBOL float upstream_programs_scale(int x, float y) {
    return (float)x * y;
}
HalideExtern_2(float, upstream_programs_scale, int, float);

extern "C" HALIDE_EXPORT_SYMBOL int upstream_programs_pick(int which, int a, int b) {
    return which ? a : b;
}
HalidePureExtern_3(int, upstream_programs_pick, int, int, int);

namespace {

TEST(UpstreamPrograms, HalideExternCallsTheCFunction) {
    Var x("x"), y("y");
    Func f("f");
    f(x, y) = upstream_programs_scale(x, cast<float>(y));
    f.vectorize(x, 4);
    Buffer<float> out = f.realize({9, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 9; i++) {
            EXPECT_EQ(out(i, j), (float)(i * j)) << "at " << i << ", " << j;
        }
    }
    Func g("g");
    g(x) = upstream_programs_pick(x % 2, x, -x);
    Buffer<int32_t> picked = g.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(picked(i), i % 2 ? i : -i);
    }
}

TEST(UpstreamPrograms, HalideExternChecksArgumentTypes) {
    std::string msg = message_of([] { upstream_programs_scale(Expr(1.5f), Expr(2.0f)); });
    EXPECT_NE(msg.find("Type mismatch for argument 1 to extern function upstream_programs_scale"), std::string::npos)
        << msg;
}

TEST(UpstreamPrograms, EvaluateMayGpuEvaluatesOnTheJitTarget) {
    Var x("x");
    Func f("f");
    f(x) = x * x;
    RDom r(0, 10);
    EXPECT_EQ(evaluate_may_gpu<int32_t>(sum(f(r))), 285);
    int32_t a = 0;
    float b = 0;
    evaluate_may_gpu(Tuple(Expr(7) * 6, Expr(1.5f) * 2), &a, &b);
    EXPECT_EQ(a, 42);
    EXPECT_EQ(b, 3.0f);
}

TEST(UpstreamPrograms, InputBufferUsedOnlyThroughItsBounds) {
    // `in` is an argument whose min and max are read, but never its pixels.
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = select(x < in.left(), -1, select(x > in.right(), 1, 0)) * x;
    Buffer<int32_t> input(5);
    input.set_min({4});
    input.fill(0);
    in.set(input);
    Buffer<int32_t> out(10);
    out.set_min({1});
    f.realize(out);
    for (int i = 1; i <= 10; i++) {
        int sign = i < 4 ? -1 : (i > 8 ? 1 : 0);
        EXPECT_EQ(out(i), sign * i) << "at " << i;
    }
}

TEST(UpstreamPrograms, ClampToANarrowParamExpressionBoundsTheRead) {
    // The clamp's upper end is a 16-bit expression of a Param: it is the
    // same value wherever it is evaluated, so the read stays within it.
    Param<int16_t> bound("bound");
    ImageParam in(UInt(8), 1, "in");
    Var x("x");
    Func f("f");
    f(x) = in(clamp(x, 0, bound * 2 - 1));
    Buffer<uint8_t> input(10);
    for (int i = 0; i < 10; i++) {
        input(i) = (uint8_t)(i * 3 + 1);
    }
    in.set(input);
    bound.set(5);
    Buffer<uint8_t> out = f.realize({200});
    for (int i = 0; i < 200; i++) {
        EXPECT_EQ(out(i), input(std::min(i, 9))) << "at " << i;
    }
}

TEST(UpstreamPrograms, ComputeAtOutermostOfAConsumer) {
    // A blur whose horizontal pass is computed at the outermost level of the
    // vertical one, itself computed per fused tile of the output.
    Var x("x"), y("y"), xi("xi"), yi("yi"), t("t");
    Func in("in"), blurx("blurx"), blury("blury"), out("out");
    in(x, y) = 3 * x + 5 * y;
    blurx(x, y) = in(x - 1, y) + in(x, y) + in(x + 1, y);
    blury(x, y) = blurx(x, y - 1) + blurx(x, y) + blurx(x, y + 1);
    out(x, y) = blury(x, y) / 9;
    blurx.compute_at(blury, Var::outermost());
    out.tile(x, y, xi, yi, 16, 16).fuse(x, y, t).parallel(t);
    blury.compute_at(out, t);
    Buffer<int32_t> result = out.realize({40, 35});
    for (int j = 0; j < 35; j++) {
        for (int i = 0; i < 40; i++) {
            EXPECT_EQ(result(i, j), 3 * i + 5 * j) << "at " << i << ", " << j;
        }
    }

    // Stored at the outermost level of a Func with an update, computed at its rows.
    Func p("p"), q("q");
    p(x, y) = x * y;
    q(x, y) = p(x, y) + p(x, y + 1);
    q(x, y) += 1;
    p.store_at(q, Var::outermost()).compute_at(q, y);
    Buffer<int32_t> qb = q.realize({8, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 8; i++) {
            EXPECT_EQ(qb(i, j), i * j + i * (j + 1) + 1) << "at " << i << ", " << j;
        }
    }
}

} // namespace
