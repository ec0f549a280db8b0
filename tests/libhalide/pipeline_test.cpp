// End-to-end tests of the front end, lowering and the JIT: pipelines are
// realized and compared with values computed here in plain C++.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <random>

#include "Halide.h"
#include "frontend/JITCall.h"
#include "lower/Function.h"

using namespace Halide;

TEST(Pipeline, PureDefinitionOverTwoDimensions) {
    Func f("f");
    Var x("x"), y("y");
    f(x, y) = x + y * 3;
    Buffer<int32_t> out = f.realize({7, 5});
    ASSERT_EQ(out.width(), 7);
    ASSERT_EQ(out.height(), 5);
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 7; i++) {
            EXPECT_EQ(out(i, j), i + j * 3) << i << "," << j;
        }
    }
}

TEST(Pipeline, RealizeIntoABufferWithNonZeroMin) {
    Func f;
    Var x, y;
    f(x, y) = x * 100 + y;
    Runtime::Buffer<int32_t> storage(4, 3);
    storage.set_min(10, -2);
    Buffer<int32_t> out(storage);
    f.realize(out);
    for (int j = -2; j < 1; j++) {
        for (int i = 10; i < 14; i++) {
            EXPECT_EQ(storage(i, j), i * 100 + j);
        }
    }
}

TEST(Pipeline, InlinedCallsAndComputeRoot) {
    Func a("a"), b("b"), c("c");
    Var x("x"), y("y");
    a(x, y) = x - y;
    b(x, y) = a(x + 1, y) * 2 + a(x, y - 1);
    c(x, y) = b(x, y) + b(x - 2, y + 1);
    Buffer<int32_t> inlined = c.realize({9, 6});
    a.compute_root();
    b.compute_root();
    Buffer<int32_t> rooted = c.realize({9, 6});
    auto ra = [](int i, int j) { return i - j; };
    auto rb = [&](int i, int j) { return ra(i + 1, j) * 2 + ra(i, j - 1); };
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 9; i++) {
            int expected = rb(i, j) + rb(i - 2, j + 1);
            EXPECT_EQ(inlined(i, j), expected);
            EXPECT_EQ(rooted(i, j), expected);
        }
    }
    // The compute_root Funcs are realized over the region c needs.
    std::string stmt = c.lowered_stmt();
    EXPECT_NE(stmt.find("a.s0.x"), std::string::npos) << stmt;
    EXPECT_NE(stmt.find("b.s0.x"), std::string::npos) << stmt;
}

TEST(Pipeline, BoxBlurFromAnImageParam) {
    ImageParam input(UInt(16), 2, "input");
    Func blur_x("blur_x"), blur_y("blur_y");
    Var x("x"), y("y");
    blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y)) / 3;
    blur_y(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1)) / 3;
    blur_x.compute_root();

    Runtime::Buffer<uint16_t> in(34, 22);
    in.set_min(-1, -1);
    std::mt19937 rng(7);
    in.for_each_value([&](uint16_t &v) { v = (uint16_t)(rng() % 20000); });
    input.set(Buffer<uint16_t>(in));
    Buffer<uint16_t> out = blur_y.realize({32, 20});
    for (int j = 0; j < 20; j++) {
        for (int i = 0; i < 32; i++) {
            auto bx = [&](int u, int v) { return (uint16_t)((in(u - 1, v) + in(u, v) + in(u + 1, v)) / 3); };
            uint16_t expected = (uint16_t)((bx(i, j - 1) + bx(i, j) + bx(i, j + 1)) / 3);
            ASSERT_EQ(out(i, j), expected) << i << "," << j;
        }
    }
}

TEST(Pipeline, ParamsAndRangeChecks) {
    Param<float> scale("scale", 2.0f, 0.0f, 10.0f);
    Func f;
    Var x;
    f(x) = cast<float>(x) * scale;
    Buffer<float> out = f.realize({5});
    EXPECT_FLOAT_EQ(out(4), 8.0f);
    scale.set(0.5f);
    out = f.realize({5});
    EXPECT_FLOAT_EQ(out(4), 2.0f);
    scale.set(11.0f);
    try {
        f.realize({5});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_EQ(e.code, -10);
        EXPECT_NE(std::string(e.what()).find("scale"), std::string::npos) << e.what();
    }
}

TEST(Pipeline, InputTooSmallIsARuntimeError) {
    ImageParam input(Int(32), 1, "small_input");
    Func f;
    Var x;
    f(x) = input(x + 1);
    input.set(Buffer<int32_t>(4));
    try {
        f.realize({4});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_EQ(e.code, -4);
        EXPECT_NE(std::string(e.what()).find("small_input"), std::string::npos) << e.what();
    }
}

TEST(Pipeline, WrongBufferTypeIsAnError) {
    ImageParam input(Float(32), 1, "typed_input");
    Func f;
    Var x;
    f(x) = input(x);
    EXPECT_THROW(input.set(Buffer<int32_t>(4)), CompileError);
}

TEST(Errors, CallingAnUndefinedFunc) {
    Func f("undefined_f"), g;
    Var x;
    try {
        g(x) = f(x) + 1;
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("undefined_f"), std::string::npos);
    }
}

TEST(Errors, VarUsedTwiceInADefinition) {
    Func f;
    Var x("x");
    EXPECT_THROW(f(x, x) = x, CompileError);
}

TEST(Errors, UndefinedVariableInADefinition) {
    Func f;
    Var x("x"), y("y_free");
    try {
        f(x) = x + y;
        FAIL();
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("y_free"), std::string::npos);
    }
}

TEST(Errors, WrongNumberOfSizes) {
    Func f;
    Var x, y;
    f(x, y) = 0;
    EXPECT_THROW(f.realize({3}), CompileError);
}

TEST(Errors, UnboundedRegionOfAComputeRootFunc) {
    ImageParam im(Int(32), 1, "im");
    Func lut("lut"), f;
    Var x("x");
    lut(x) = x * 2;
    lut.compute_root();
    // A coordinate read from an int32 image could be anything: bounds
    // inference cannot size lut (upstream: "calls function lut in an
    // unbounded way"). A float Param times x is bounded, as upstream's.
    f(x) = lut(im(x));
    EXPECT_THROW(f.compile_jit(), CompileError);
}

// bound() fixes the region computed, but, as upstream's, does not excuse an
// unbounded access: an update writing at coordinates read from an image, or
// a consumer calling at them, is still refused (upstream 21's words for the
// update: "f is accessed over an unbounded domain in dimension x").
TEST(Errors, BoundDoesNotExcuseAnUnboundedAccess) {
    Var x("x");
    RDom r(0, 100, "r");
    for (int at : {0, 1}) {
        ImageParam in(Int(32), 1, "in");
        Func f("f"), g("g");
        f(x) = x;
        f(in(r)) = 1;
        g(x) = f(x);
        if (at == 0) {
            f.compute_root().bound(x, 0, 10);
        } else {
            f.compute_at(g, x).bound(x, 0, 10);
        }
        std::string msg;
        try {
            g.compile_jit();
        } catch (const CompileError &e) {
            msg = e.what();
        }
        EXPECT_NE(msg.find("f is accessed over an unbounded domain in dimension x"), std::string::npos) << msg;
    }
    ImageParam in(Int(32), 1, "in");
    Func f("f"), g("g");
    f(x) = x;
    g(x) = f(in(x));
    f.compute_root().bound(x, 0, 10);
    EXPECT_THROW(g.compile_jit(), CompileError);

    // A clamped write is bounded: accepted, and computed over the bound.
    Func h("h"), k("k");
    h(x) = x;
    h(clamp(in(r), 0, 9)) = -1;
    k(x) = h(x);
    h.compute_root().bound(x, 0, 10);
    Buffer<int> input(100);
    for (int i = 0; i < 100; i++) {
        input(i) = (i * 7) % 13;
    }
    in.set(input);
    Buffer<int> out = k.realize({10});
    for (int i = 0; i < 10; i++) {
        bool written = false;
        for (int j = 0; j < 100; j++) {
            written = written || std::min(std::max((j * 7) % 13, 0), 9) == i;
        }
        EXPECT_EQ(out(i), written ? -1 : i) << i;
    }
}

TEST(Dumps, LoweredStmtIrAndAssembly) {
    Func f("dumped");
    Var x("x");
    f(x) = x * 2;
    EXPECT_NE(f.lowered_stmt().find("for"), std::string::npos);
    EXPECT_NE(f.llvm_ir().find("define"), std::string::npos);
    EXPECT_FALSE(f.assembly().empty());
}

TEST(Schedules, VectorizeEmitsPackedFloatInstructions) {
    ImageParam in(Float(32), 2, "vec_in");
    Func f("vec_f");
    Var x("x"), y("y");
    f(x, y) = in(x, y) * 2.0f + 1.0f;
    f.vectorize(x, 8);
    std::string asm_text = f.assembly();
    // Packed single-precision arithmetic on SSE/AVX registers.
    bool packed = asm_text.find("ps\t%xmm") != std::string::npos || asm_text.find("ps\t%ymm") != std::string::npos ||
                  asm_text.find("ps\t%zmm") != std::string::npos;
    EXPECT_TRUE(packed) << asm_text;
    Runtime::Buffer<float> data(19, 5);
    data.for_each_element([&](int i, int j) { data(i, j) = (float)(i * 10 + j); });
    in.set(Buffer<float>(data));
    Buffer<float> out = f.realize({19, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 19; i++) {
            EXPECT_EQ(out(i, j), data(i, j) * 2.0f + 1.0f);
        }
    }
}

TEST(Schedules, ParallelRunsOnMoreThanOneThread) {
    halide_set_num_threads(4);
    Func f("par_f");
    Var x("x"), y("y");
    // Enough work per row that every worker gets some.
    Expr v = cast<float>(x + y);
    for (int i = 0; i < 20; i++) {
        v = sqrt(v + 1.0f);
    }
    f(x, y) = v;
    f.parallel(y);
    std::string stmt = f.lowered_stmt();
    EXPECT_NE(stmt.find("parallel for"), std::string::npos) << stmt;
    auto threads = [] {
        int n = 0;
        for ([[maybe_unused]] const auto &entry : std::filesystem::directory_iterator("/proc/self/task")) {
            n++;
        }
        return n;
    };
    int before = threads();
    Buffer<float> out = f.realize({256, 64});
    EXPECT_GT(threads(), before) << "no worker thread was started";
    float expected = 3.0f;
    for (int i = 0; i < 20; i++) {
        expected = std::sqrt(expected + 1.0f);
    }
    EXPECT_NEAR(out(1, 2), expected, 1e-4f);
}

TEST(Schedules, ComputeAtInsideSplitLoopsWithClampedReads) {
    const int W = 37, H = 9;
    ImageParam in(Int(32), 2, "clamp_in");
    Func clamped("clamped"), blur("blur"), out("clamp_out");
    Var x("x"), y("y"), xo("xo"), xi("xi");
    clamped(x, y) = in(clamp(x, 0, W - 1), clamp(y, 0, H - 1));
    blur(x, y) = clamped(x - 2, y) + clamped(x + 3, y - 1);
    out(x, y) = blur(x, y) * 2;
    out.split(x, xo, xi, 8);
    blur.compute_at(out, xo);
    clamped.compute_at(out, xo);
    Runtime::Buffer<int32_t> data(W, H);
    data.for_each_element([&](int i, int j) { data(i, j) = i * 100 + j; });
    in.set(Buffer<int32_t>(data));
    Buffer<int32_t> result = out.realize({W, H});
    auto c = [&](int i, int j) { return data(std::clamp(i, 0, W - 1), std::clamp(j, 0, H - 1)); };
    for (int j = 0; j < H; j++) {
        for (int i = 0; i < W; i++) {
            ASSERT_EQ(result(i, j), (c(i - 2, j) + c(i + 3, j - 1)) * 2) << i << "," << j;
        }
    }
}

TEST(Schedules, GuardWithIfHandlesAnyExtent) {
    Func f("guarded");
    Var x("x"), xo("xo"), xi("xi");
    f(x) = x * 3;
    f.split(x, xo, xi, 8, TailStrategy::GuardWithIf);
    Buffer<int32_t> out = f.realize({5});
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(out(i), i * 3);
    }
}

TEST(Schedules, ShiftInwardsNeedsOneFactorOfOutput) {
    Func f("shifted");
    Var x("x");
    f(x) = x;
    f.vectorize(x, 8);
    // realize(sizes) allocates what the pipeline writes (one vector) and
    // returns the requested part, as upstream; a given narrower buffer is an error.
    Buffer<int32_t> narrow = f.realize({5});
    ASSERT_EQ(narrow.width(), 5);
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(narrow(i), i);
    }
    EXPECT_THROW(f.realize(Buffer<int32_t>(5)), RuntimeError);
    Buffer<int32_t> out = f.realize({13});
    EXPECT_EQ(out(12), 12);
}

TEST(Errors, ScheduleNamingAVarTheFuncDoesNotHave) {
    Func f("sched_f");
    Var x("x"), y("y"), z("z_missing");
    f(x, y) = x + y;
    try {
        f.parallel(z);
        FAIL();
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("z_missing"), std::string::npos) << e.what();
    }
    EXPECT_THROW(f.split(z, x, y, 4), CompileError);
    f.unroll(x); // a loop of non-constant extent: refused when compiled
    EXPECT_THROW(f.compile_jit(), CompileError);
}

TEST(Errors, ComputeAtALoopOutsideTheConsumer) {
    Func a("prod_a"), b("cons_b"), c("out_c");
    Var x("x"), y("y");
    a(x, y) = x + y;
    b(x, y) = a(x, y) + 1;
    c(x, y) = b(x, y) * 2;
    b.compute_root();
    a.compute_at(c, y); // but b, computed outside c's loops, needs a
    EXPECT_THROW(c.compile_jit(), CompileError);
}

TEST(Schedules, BoundAlignBoundsAndReorderStorage) {
    Func g("bounded_g"), h("aligned_h"), out("bounded_out");
    Var x("x"), y("y");
    g(x, y) = x * 7 + y;
    h(x, y) = x - 3 * y;
    out(x, y) = g(x + 1, y) + h(x - 1, y + 1);
    g.compute_root().bound(x, 0, 16).bound(y, 0, 8).reorder_storage(y, x);
    h.compute_root().align_bounds(x, 8).reorder_storage(y, x);
    Buffer<int32_t> result = out.realize({12, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 12; i++) {
            ASSERT_EQ(result(i, j), (i + 1) * 7 + j + (i - 1) - 3 * (j + 1)) << i << "," << j;
        }
    }
    std::string stmt = out.lowered_stmt();
    // g is realized over exactly its bound (16 x 8), stored with y innermost:
    // x steps over whole columns of 8.
    EXPECT_NE(stmt.find("allocate bounded_g[int32 * 16 * 8]"), std::string::npos) << stmt;
    EXPECT_NE(stmt.find("bounded_g[((bounded_g.s0.x * 8) + bounded_g.s0.y)]"), std::string::npos) << stmt;
    // The consumer now needs more of g than bound() allows.
    try {
        out.realize({20, 6});
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_EQ(e.code, -2) << e.what();
        EXPECT_NE(std::string(e.what()).find("bounded_g"), std::string::npos) << e.what();
    }
}

TEST(Schedules, BoundOnAnOutput) {
    Func f("bounded_output");
    Var x("x");
    f(x) = x * 2;
    f.bound(x, 0, 8);
    Buffer<int32_t> out = f.realize({8});
    EXPECT_EQ(out(7), 14);
    Buffer<int32_t> part = f.realize({6}); // computed over the bound region, as upstream
    ASSERT_EQ(part.width(), 6);
    EXPECT_EQ(part(5), 10);
    EXPECT_THROW(f.realize(Buffer<int32_t>(6)), RuntimeError); // this buffer cannot hold the bound region
    EXPECT_THROW(f.bound(Var("not_an_arg"), 0, 4), CompileError);
}

namespace {
std::vector<std::string> printed_lines;
void capture_print(void *, const char *line) {
    printed_lines.emplace_back(line);
}
} // namespace

TEST(Debugging, PrintAndPrintWhen) {
    Func f("printed"), g("printed_when");
    Var x("x");
    f(x) = print(x * 2, "is twice", x, 0.5f, cast<double>(x * 3) / 4); // doubles as %e, as upstream
    g(x) = print_when(x == 2, x + 100, "hit at", x);
    halide_print_t old = halide_set_custom_print(capture_print);
    printed_lines.clear();
    Buffer<int32_t> a = f.realize({3});
    std::vector<std::string> f_lines = printed_lines;
    printed_lines.clear();
    Buffer<int32_t> b = g.realize({4});
    std::vector<std::string> g_lines = printed_lines;
    halide_set_custom_print(old);
    EXPECT_EQ(a(2), 4);
    EXPECT_EQ(b(3), 103);
    ASSERT_EQ(f_lines.size(), 3u);
    EXPECT_EQ(f_lines[1], "2 is twice 1 0.500000 7.500000e-01\n");
    ASSERT_EQ(g_lines.size(), 1u);
    EXPECT_EQ(g_lines[0], "102 hit at 2\n");
    EXPECT_THROW(print_when(x, x), CompileError); // the condition must be a bool
}

TEST(Pipeline, SeveralOutputsRealizedTogether) {
    Func shared("shared_producer"), sum("out_sum"), diff("out_diff");
    Var x("x"), y("y");
    shared(x, y) = x * 10 + y;
    shared.compute_root();
    sum(x, y) = shared(x, y) + shared(x + 1, y);
    diff(x, y) = cast<float>(shared(x, y + 1) - shared(x, y));
    Pipeline p({sum, diff});
    Realization r = p.realize({6, 4});
    ASSERT_EQ(r.size(), 2u);
    Buffer<int32_t> s = r[0];
    Buffer<float> d = r[1];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 6; i++) {
            EXPECT_EQ(s(i, j), (i * 10 + j) + ((i + 1) * 10 + j));
            EXPECT_EQ(d(i, j), 1.0f);
        }
    }
    EXPECT_THROW(p.realize(Realization({Buffer<>(r[0])})), CompileError); // one buffer for two outputs
}

// An output that other outputs read is produced first, whatever the order
// the Pipeline lists them in (upstream's correctness test multiple_outputs).
TEST(Pipeline, OutputsReadByOtherOutputsAreProducedFirst) {
    Func f("read_output"), h("pair_output"), g("triple_output");
    Var x("x"), y("y");
    f(x) = x * 3 - 1;
    h(x) = {f(x) + 17, f(x) - 17};
    g(x, y) = {f(x + y) * 2, h(x)[0] * y, h(x)[1] - 2};
    Buffer<int32_t> f_im(100), g0(20, 20), g1(20, 20), g2(20, 20), h0(50), h1(50);
    f_im.fill(-1000);
    Pipeline({h, g, f}).realize(Realization({h0, h1, g0, g1, g2, f_im}));
    auto fv = [](int i) { return i * 3 - 1; };
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(f_im(i), fv(i)) << i;
    }
    for (int i = 0; i < 50; i++) {
        ASSERT_EQ(h0(i), fv(i) + 17) << i;
        ASSERT_EQ(h1(i), fv(i) - 17) << i;
    }
    for (int j = 0; j < 20; j++) {
        for (int i = 0; i < 20; i++) {
            ASSERT_EQ(g0(i, j), fv(i + j) * 2) << i << "," << j;
            ASSERT_EQ(g1(i, j), (fv(i) + 17) * j) << i << "," << j;
            ASSERT_EQ(g2(i, j), fv(i) - 17 - 2) << i << "," << j;
        }
    }
}

// An output is computed over its buffer only: another output reading past
// it is upstream's run-time error, and an unbounded read a compile error.
TEST(Errors, OutputReadBeyondItsBufferByAnotherOutput) {
    Func f("small_output"), g("reader_output");
    Var x("x");
    f(x) = x;
    g(x) = f(x + 5) * 2;
    Buffer<int32_t> f_small(10), g_im(10);
    try {
        Pipeline({g, f}).realize(Realization({g_im, f_small}));
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_NE(
            std::string(e.what()).find("Output buffer small_output is accessed at 14, which is beyond the max (9) "
                                       "in dimension 0"),
            std::string::npos)
            << e.what();
    }
    Buffer<int32_t> f_big(15);
    Pipeline({g, f}).realize(Realization({g_im, f_big}));
    for (int i = 0; i < 10; i++) {
        EXPECT_EQ(g_im(i), 2 * (i + 5));
    }

    // A Tuple-valued output: its first buffer is named, as upstream's.
    Func t("tuple_small_output"), u("tuple_reader_output");
    t(x) = {x, x * 2};
    u(x) = t(x + 2)[1];
    try {
        Pipeline({u, t}).realize(Realization({Buffer<int32_t>(4), Buffer<int32_t>(4), Buffer<int32_t>(4)}));
        FAIL() << "expected a RuntimeError";
    } catch (const RuntimeError &e) {
        EXPECT_NE(std::string(e.what()).find("Output buffer tuple_small_output.0 is accessed at 5, which is beyond the "
                                             "max (3) in dimension 0"),
                  std::string::npos)
            << e.what();
    }

    ImageParam index(Int(32), 1, "index_input");
    Func k("gathering_output");
    k(x) = f(index(x));
    index.set(Buffer<int32_t>(3));
    EXPECT_THROW(Pipeline({f, k}).realize(Realization({Buffer<int32_t>(10), Buffer<int32_t>(3)})), CompileError);
}

// store_root()/store_at() put the storage further out than the computation:
// one allocation holds every row computed, results are unchanged.
TEST(Schedules, StoreRootComputeAtARow) {
    ImageParam in(Int(32), 2, "in");
    Runtime::Buffer<int32_t> src(20, 12);
    for (int j = 0; j < 12; j++) {
        for (int i = 0; i < 20; i++) {
            src(i, j) = i * 7 - j * 13;
        }
    }
    in.set(Buffer<int32_t>(src));
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = in(x, y) * 2;
    g(x, y) = f(x, y) + f(x, y + 1) + f(x, y + 2);
    f.store_root().compute_at(g, y);
    std::string stmt = g.lowered_stmt();
    size_t alloc = stmt.find("allocate f["), loop = stmt.find("for (g.s0.y");
    ASSERT_NE(alloc, std::string::npos) << stmt;
    ASSERT_NE(loop, std::string::npos) << stmt;
    EXPECT_LT(alloc, loop) << "f's storage should be outside g's row loop:\n" << stmt;
    // Sliding window: after g's first row, each row computes only the one new row of f it
    // reads; storage folding keeps 4 rows of f (3 live, rounded up to a power of two).
    EXPECT_NE(stmt.find("let f.c.min.1 = select((g.s0.y > g.min.1), (g.s0.y + 2), g.s0.y)"), std::string::npos) << stmt;
    EXPECT_NE(stmt.find("allocate f[int32 * f.extent.0 * 4]"), std::string::npos) << stmt;
    Buffer<int32_t> out = g.realize({20, 10});
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 20; i++) {
            EXPECT_EQ(out(i, j), 2 * (src(i, j) + src(i, j + 1) + src(i, j + 2))) << i << "," << j;
        }
    }
}

TEST(Schedules, StoreAtAnOuterLoopOfASplit) {
    Func f("f"), g("g");
    Var x("x"), y("y"), yo("yo"), yi("yi");
    f(x, y) = x * 3 + y * y;
    g(x, y) = f(x, y) - f(x + 1, y + 1);
    g.split(y, yo, yi, 4);
    f.store_at(g, yo).compute_at(g, yi).vectorize(x, 4);
    Buffer<int32_t> out = g.realize({9, 11});
    for (int j = 0; j < 11; j++) {
        for (int i = 0; i < 9; i++) {
            EXPECT_EQ(out(i, j), (i * 3 + j * j) - ((i + 1) * 3 + (j + 1) * (j + 1))) << i << "," << j;
        }
    }
}

TEST(Errors, StoreAtInsideTheComputeLevel) {
    Func f("f"), g("g");
    Var x("x"), y("y");
    f(x, y) = x + y;
    g(x, y) = f(x, y) * 2;
    f.compute_at(g, y).store_at(g, x);
    try {
        g.realize({4, 4});
        FAIL() << "expected an error";
    } catch (const CompileError &e) {
        std::string msg = e.what();
        // Upstream 21's words (observed): the placement and the legal locations.
        EXPECT_EQ(msg.find("Error: Func \"f\" is computed at the following invalid location:\n"
                           "  f.store_at(g, x).compute_at(g, y);\n"
                           "Legal locations for this function are:\n"),
                  0u)
            << msg;
    }
}

// Names of destroyed Funcs leave the front end's registry (swept as it grows),
// and a destroyed Func's name can be used again without a suffix.
TEST(Pipeline, RegistryForgetsDestroyedFuncs) {
    for (int i = 0; i < 6000; i++) {
        Func f("temporary_" + std::to_string(i));
        Var x;
        f(x) = x + i;
    }
    EXPECT_LT(Internal::registered_name_count(), 4000u);
    Func again("temporary_7");
    EXPECT_EQ(again.name(), "temporary_7");
}

// The JIT cache is per pipeline: a change recompiles the pipelines that
// reach the changed Func, not every pipeline in the process.
TEST(Pipeline, RecompilesOnlyThePipelinesAnEditReaches) {
    Var x("x");
    Func f("cache_f"), g("cache_g"), h("cache_h");
    f(x) = x * 3;
    g(x) = x + 7;
    h(x) = f(x) + 1;
    auto realize_and_check = [&](Func &which, int (*expected)(int)) {
        Buffer<int32_t> out = which.realize({16});
        for (int i = 0; i < 16; i++) {
            EXPECT_EQ(out(i), expected(i)) << which.name() << " at " << i;
        }
    };
    auto f_of = [](int i) { return i * 3; };
    auto g_of = [](int i) { return i + 7; };
    auto h_of = [](int i) { return i * 3 + 1; };
    realize_and_check(f, f_of);
    realize_and_check(g, g_of);
    realize_and_check(h, h_of);
    const uint64_t compiled = Internal::jit_compilation_count();

    g.vectorize(x, 4); // reached by g's pipeline only
    realize_and_check(f, f_of);
    realize_and_check(h, h_of);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled);
    realize_and_check(g, g_of);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled + 1);

    f.compute_root(); // reached by f's and h's
    realize_and_check(g, g_of);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled + 1);
    realize_and_check(h, h_of);
    realize_and_check(f, f_of);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled + 3);

    // Unchanged since: every pipeline is current.
    realize_and_check(f, f_of);
    realize_and_check(g, g_of);
    realize_and_check(h, h_of);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled + 3);
}

// Func::compile_jit(target), as upstream's: the pipeline is compiled for
// that target, so realizing for it afterwards compiles nothing more. With
// strict_float, x / 3.0f stays a division (the simplifier otherwise
// multiplies by 1 / 3), checked against plain C++ division.
TEST(Pipeline, FuncCompileJitUsesItsTarget) {
    ImageParam in(Float(32), 1, "cj_in");
    Var x("x");
    Func f("cj_f");
    f(x) = in(x) / 3.0f;
    const int n = 256;
    Buffer<float> input(n);
    int differ = 0;
    const float third = (float)(1.0 / 3.0);
    for (int i = 0; i < n; i++) {
        input(i) = 1.0f + (float)i * 0.37f;
        volatile float product = input(i) * third;
        differ += product != input(i) / 3.0f;
    }
    ASSERT_GT(differ, 0); // the inputs tell a division from a multiplication
    in.set(input);
    Target strict = get_jit_target_from_environment().with_feature(Target::StrictFloat);
    f.compile_jit(strict);
    const uint64_t compiled = Internal::jit_compilation_count();
    Buffer<float> out = f.realize({n}, strict);
    EXPECT_EQ(Internal::jit_compilation_count(), compiled);
    for (int i = 0; i < n; i++) {
        ASSERT_EQ(out(i), input(i) / 3.0f) << "at " << i;
    }
}

// A Func, ImageParam or Param used in a definition may go out of scope
// before the pipeline is compiled, as in helper functions and generate().
Func blurred_twice(const ImageParam &in) {
    Var x("x");
    Func step("step"), again("again");
    Param<int32_t> bias("bias");
    bias.set(3);
    step(x) = in(x) + in(x + 1) + bias;
    again(x) = step(x) * 2;
    return again; // step and bias are destroyed here
}

TEST(Pipeline, IntermediateFuncsAndParamsOutliveTheirHandles) {
    ImageParam in(Int(32), 1, "in");
    Runtime::Buffer<int32_t> data(12);
    for (int i = 0; i < 12; i++) {
        data(i) = i * i;
    }
    in.set(Buffer<int32_t>(data));
    Func f = blurred_twice(in);
    Buffer<int32_t> out = f.realize({11});
    for (int i = 0; i < 11; i++) {
        EXPECT_EQ(out(i), (data(i) + data(i + 1) + 3) * 2) << i;
    }
}

// Tuples: several values per point, read back by index, as an inlined
// producer, as a computed one, and as an output (one buffer per value).
TEST(Tuples, ProducedConsumedAndRealized) {
    Var x("x"), y("y");
    for (int schedule = 0; schedule < 3; schedule++) {
        Func f("f"), g("g");
        f(x, y) = Tuple(x + y * 10, cast<float>(x) * 0.5f);
        g(x, y) = f(x, y)[0] * 2 + cast<int32_t>(f(x + 1, y)[1] * 4.0f);
        if (schedule == 1) {
            f.compute_root().vectorize(x, 4);
        } else if (schedule == 2) {
            g.split(y, y, Var("yi"), 2);
            f.compute_at(g, y);
        }
        Buffer<int32_t> out = g.realize({9, 5});
        for (int j = 0; j < 5; j++) {
            for (int i = 0; i < 9; i++) {
                EXPECT_EQ(out(i, j), (i + j * 10) * 2 + (i + 1) * 2) << i << "," << j << " schedule " << schedule;
            }
        }
    }
    Func h("h");
    h(x, y) = Tuple(cast<uint8_t>(x * 3 + y), cast<double>(y) - Expr(0.25));
    h.vectorize(x, 4);
    Realization r = h.realize({10, 3});
    ASSERT_EQ(r.size(), 2u);
    Buffer<uint8_t> first = r[0];
    Buffer<double> second = r[1];
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 10; i++) {
            EXPECT_EQ(first(i, j), uint8_t(i * 3 + j));
            EXPECT_EQ(second(i, j), j - 0.25);
        }
    }
}

TEST(Errors, TupleFuncCalledWithoutAnIndex) {
    Func f("f");
    Var x("x");
    f(x) = Tuple(x, x * 2);
    try {
        Expr e = f(x);
        FAIL() << "expected an error";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("f(...)[i]"), std::string::npos) << e.what();
    }
    EXPECT_THROW(f(x)[2], CompileError);
}
