// Behaviour that programs written for upstream Halide rely on, found by
// running such programs against ours (issue 13). Each expected value is
// computed here in plain C++, never taken from our compiler.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <utility>

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

    // The argmax of r * (20 - r) over [0, 10), through a call of a Tuple-valued Func.
    Func best("best");
    best() = Tuple(0, f(0));
    best() = select(r * (20 - r) > best()[1], Tuple(r, r * (20 - r)), Tuple(best()[0], best()[1]));
    int32_t at = -1, value = -1;
    evaluate_may_gpu(best(), &at, &value);
    EXPECT_EQ(at, 9);
    EXPECT_EQ(value, 99);
    evaluate(best(), &at, &value);
    EXPECT_EQ(at, 9);
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

// The region of `in` that realizing f over [-1234, 11110] reads.
std::pair<int, int> region_read(Func f, ImageParam in) {
    Buffer<int32_t> out(12345);
    out.set_min({-1234});
    in.reset();
    f.infer_input_bounds(out);
    Buffer<int32_t> b = in.get();
    return {b.min(0), b.extent(0)};
}

TEST(UpstreamPrograms, AbsBoundsTheRegionRead) {
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    // abs of an int8 is at most 128; of an int16, 32768.
    EXPECT_EQ(region_read(lambda(x, in(abs(cast<int8_t>(x)))), in), std::make_pair(0, 129));
    EXPECT_EQ(region_read(lambda(x, in(abs(cast<int16_t>(x)))), in), std::make_pair(0, 32769));
    // A float: x in [-1234, 11110] gives |x| in [0, 11110].
    EXPECT_EQ(region_read(lambda(x, in(cast<int32_t>(abs(cast<float>(x))))), in), std::make_pair(0, 11111));
    // A reflection between 0 and 100.
    EXPECT_EQ(region_read(lambda(x, in(100 - cast<int32_t>(abs(100 - x % 200)))), in), std::make_pair(0, 101));
    // Unbounded below and above, then clamped: abs is still at least 0.
    EXPECT_EQ(region_read(lambda(x, in(cast<int32_t>(clamp(abs(1.0f / (x + 0.1f)), -50, 50)))), in),
              std::make_pair(0, 51));
}

TEST(UpstreamPrograms, LambdaWithThePlaceholderAmongItsVars) {
    Var x("x"), y("y"), z("z");
    Func h("h");
    h(x, y, z) = x + y * y + z * z * z;
    Buffer<int32_t> out = lambda(_, z, h(_, z)).realize({4, 5, 6});
    for (int k = 0; k < 6; k++) {
        for (int j = 0; j < 5; j++) {
            for (int i = 0; i < 4; i++) {
                EXPECT_EQ(out(i, j, k), i + j * j + k * k * k);
            }
        }
    }
}

TEST(UpstreamPrograms, SelectOfTuples) {
    Var x("x"), y("y");
    Func f("f"), g("g"), h("h");
    f(x, y) = select(x + y < 30, Tuple(x, y), Tuple(x - 1, y - 2));
    g(x, y) = select(Tuple(x < 30, y < 30), Tuple(x, y), Tuple(x < 100, y < 100), Tuple(x - 1, y - 2),
                     Tuple(x - 100, y - 200));
    h(x, y) = select(x + y < 30, Tuple(x, y), x + y < 100, Tuple(x - 1, y - 2), Tuple(x - 100, y - 200));
    Realization rf = f.realize({120, 110}), rg = g.realize({120, 110}), rh = h.realize({120, 110});
    for (int j = 0; j < 110; j++) {
        for (int i = 0; i < 120; i++) {
            EXPECT_EQ(Buffer<int32_t>(rf[0])(i, j), i + j < 30 ? i : i - 1);
            EXPECT_EQ(Buffer<int32_t>(rf[1])(i, j), i + j < 30 ? j : j - 2);
            EXPECT_EQ(Buffer<int32_t>(rg[0])(i, j), i < 30 ? i : (i < 100 ? i - 1 : i - 100));
            EXPECT_EQ(Buffer<int32_t>(rg[1])(i, j), j < 30 ? j : (j < 100 ? j - 2 : j - 200));
            EXPECT_EQ(Buffer<int32_t>(rh[0])(i, j), i + j < 30 ? i : (i + j < 100 ? i - 1 : i - 100));
            EXPECT_EQ(Buffer<int32_t>(rh[1])(i, j), i + j < 30 ? j : (i + j < 100 ? j - 2 : j - 200));
        }
    }
    std::string msg = message_of([] { select(Expr(true), Tuple(1, 2), Tuple(Expr(1), Expr(2), Expr(3))); });
    EXPECT_NE(msg.find("same size"), std::string::npos) << msg;
}

TEST(UpstreamPrograms, UndefInsideASelectSkipsTheStore) {
    // In place: the even points set to 1, the others left as they were.
    Var x("x"), y("y");
    Func h("h");
    h(x) = select(x % 2 == 0, 1.0f, undef<float>());
    h.vectorize(x, 4);
    Buffer<float> data(100);
    for (int i = 0; i < 100; i++) {
        data(i) = 0.5f + i;
    }
    h.realize(data);
    for (int i = 0; i < 100; i++) {
        EXPECT_EQ(data(i), i % 2 == 0 ? 1.0f : 0.5f + i) << "at " << i;
    }

    // A Tuple update: the first value left alone, the second set where x < 20.
    Func f("f");
    f(x, y) = Tuple(x, y);
    f(x, y) = Tuple(undef<int>(), select(x < 20, 20 * x, undef<int>()));
    Realization r = f.realize({30, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 30; i++) {
            EXPECT_EQ(Buffer<int32_t>(r[0])(i, j), i);
            EXPECT_EQ(Buffer<int32_t>(r[1])(i, j), i < 20 ? 20 * i : j);
        }
    }

    // A coordinate undef for most of the RDom: only two updates happen.
    Func g("g");
    g(x, y) = Tuple(0, 0);
    RDom rd(0, 10);
    Expr at_x = clamp(select(rd.x < 2, 13, undef<int>()), 0, 100);
    Expr at_y = clamp(select(rd.x < 2, 23, undef<int>()), 0, 100);
    g(at_x, at_y) = Tuple(g(at_x, at_y)[0] + 10, g(at_x, at_y)[1] + 5);
    Realization gr = g.realize({30, 30});
    for (int j = 0; j < 30; j++) {
        for (int i = 0; i < 30; i++) {
            bool hit = i == 13 && j == 23;
            EXPECT_EQ(Buffer<int32_t>(gr[0])(i, j), hit ? 20 : 0);
            EXPECT_EQ(Buffer<int32_t>(gr[1])(i, j), hit ? 10 : 0);
        }
    }
}

TEST(UpstreamPrograms, InternalStringHelpers) {
    EXPECT_EQ(Internal::replace_all("a:b::c", ":", "(colon)"), "a(colon)b(colon)(colon)c");
    EXPECT_EQ(Internal::replace_all("aaa", "aa", "b"), "ba");
    EXPECT_EQ(Internal::replace_all("abc", "", "x"), "abc");
    std::string t1 = Internal::unique_name('t'), t2 = Internal::unique_name('t');
    EXPECT_EQ(t1[0], 't');
    EXPECT_NE(t1, t2);
}

} // namespace
