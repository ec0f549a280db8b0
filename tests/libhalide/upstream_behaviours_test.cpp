// Behaviours matched to upstream 21's, each against a plain C++ reference:
// compute_with at Var::outermost(), fuse of loops that are not adjacent,
// reads bounded by the values a Func can produce, print's line limit, the
// alignment of string constants, a producer computed at a loop fused from
// split RVars, the input bounds of a fused loop inside a one-wide region.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

TEST(UpstreamBehaviours, ComputeWithAtOutermostFusesNoLoop) {
    Var x("x"), y("y");
    Func f("ub_cw_f"), g("ub_cw_g"), h("ub_cw_h");
    f(x, y) = x + 10 * y;
    g(x, y) = x * y - 3;
    h(x, y) = f(x, y) + g(x + 1, y);
    f.compute_root();
    g.compute_root();
    g.compute_with(f, Var::outermost());
    Buffer<int> out = h.realize({9, 7});
    for (int yy = 0; yy < 7; yy++) {
        for (int xx = 0; xx < 9; xx++) {
            EXPECT_EQ(out(xx, yy), (xx + 10 * yy) + ((xx + 1) * yy - 3));
        }
    }
}

TEST(UpstreamBehaviours, FuseOfLoopsThatAreNotAdjacent) {
    Var x("x"), y("y"), z("z"), t("t");
    for (bool inner_first : {true, false}) {
        Func f(inner_first ? "ub_fuse_xz" : "ub_fuse_zx");
        f(x, y, z) = x + 10 * y + 100 * z;
        if (inner_first) {
            f.fuse(x, z, t); // t stands where x was, z's loop goes
        } else {
            f.fuse(z, x, t); // t stands where z was, x's loop goes
        }
        Buffer<int> out = f.realize({3, 4, 5});
        for (int k = 0; k < 5; k++) {
            for (int j = 0; j < 4; j++) {
                for (int i = 0; i < 3; i++) {
                    EXPECT_EQ(out(i, j, k), i + 10 * j + 100 * k) << inner_first;
                }
            }
        }
        std::string loops = f.lowered_stmt();
        EXPECT_EQ(loops.find(".z\""), std::string::npos);
    }
}

TEST(UpstreamBehaviours, AReadIsBoundedByTheValuesAFuncProduces) {
    Var x("x");
    ImageParam in(Float(32), 1, "ub_vb_in");
    Param<int> p("ub_vb_p");
    Func f("ub_vb_f"), g("ub_vb_g");
    f(x) = clamp(x, 10, p);
    f.compute_root();
    g(x) = in(f(x));
    p.set(20);
    Buffer<float> output(64);
    g.infer_input_bounds(output);
    Buffer<float> in_buf = in.get();
    EXPECT_EQ(in_buf.dim(0).min(), 10);
    EXPECT_EQ(in_buf.dim(0).extent(), 11);

    // Transitively, through a chain of Funcs.
    Func a("ub_vb_a"), b("ub_vb_b"), c("ub_vb_c");
    a(x) = min(x, 100);
    a.compute_root();
    b(x) = max(a(x) - 10, 0);
    b.compute_root();
    ImageParam in2(Float(32), 1, "ub_vb_in2");
    c(x) = in2(b(b(x)));
    c.infer_input_bounds(output);
    EXPECT_EQ(in2.get().dim(0).min(), 0);
    EXPECT_EQ(in2.get().dim(0).extent(), 91);
}

TEST(UpstreamBehaviours, AnUpdateAtAFuncsValues) {
    Var x("x");
    RDom r(0, 10);
    Func g("ub_up_g"), f("ub_up_f"), h("ub_up_h");
    g(x) = clamp(x * 3, 0, 9);
    g.compute_root();
    f(x) = 0;
    f(g(r)) = r + 1;
    f.compute_root();
    h(x) = f(x);
    Buffer<int> out = h.realize({10});
    int expected[10] = {};
    for (int i = 0; i < 10; i++) {
        expected[std::min(std::max(i * 3, 0), 9)] = i + 1;
    }
    for (int i = 0; i < 10; i++) {
        EXPECT_EQ(out(i), expected[i]) << i;
    }

    // Through a uint8 Func: any of its 256 values.
    Func u("ub_up_u"), k("ub_up_k"), m("ub_up_m");
    u(x) = cast<uint8_t>(x * 37);
    u.compute_root();
    k(x) = 0;
    k(u(r)) += 1;
    k.compute_root();
    m(x) = k(x);
    Buffer<int> counts = m.realize({256});
    int expected_counts[256] = {};
    for (int i = 0; i < 10; i++) {
        expected_counts[(i * 37) & 255]++;
    }
    for (int i = 0; i < 256; i++) {
        EXPECT_EQ(counts(i), expected_counts[i]) << i;
    }
}

std::string printed;
void capture_print(JITUserContext *, const char *text) {
    printed += text;
}

TEST(UpstreamBehaviours, APrintLineIsCutAt8191Characters) {
    Var x("x");
    Func f("ub_print");
    f(x) = print(x, std::string(9000, 'a'), 7);
    f.jit_handlers().custom_print = capture_print;
    printed.clear();
    f.realize({1});
    ASSERT_EQ(printed.size(), 8191u);
    EXPECT_EQ(printed.substr(0, 3), "0 a");
    EXPECT_EQ(printed.back(), 'a'); // the rest, newline and all, is gone

    Func g("ub_print_short");
    g(x) = print(x, "short");
    g.jit_handlers().custom_print = capture_print;
    printed.clear();
    g.realize({1});
    EXPECT_EQ(printed, "0 short\n");
}

// A string constant cast to a handle points at the string, aligned to at
// least 4 bytes, as upstream's (its correctness test `handle` checks both).
TEST(UpstreamBehaviours, AStringCastToAHandleIsAnAlignedPointerToIt) {
    Var x("x");
    Func f("ub_handle");
    f(x) = cast<char *>(std::string("hello!\n"));
    f.compute_root().vectorize(x, 4);
    Func g("ub_handle_out");
    g(x) = f(x);
    Buffer<char *> im = g.realize({16});
    for (int i = 0; i < 16; i++) {
        ASSERT_EQ(im(i), im(0)) << i;
    }
    EXPECT_EQ(reinterpret_cast<uintptr_t>(im(0)) % 4, 0u) << (void *)im(0);
    EXPECT_EQ(std::string(im(0)), "hello!\n");
}

int fused_rvar_stores = 0;
int count_fused_rvar_stores(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store) {
        fused_rvar_stores += e->type.lanes;
    }
    return 0;
}

TEST(UpstreamBehaviours, AProducerAtALoopFusedFromSplitRVarsComputesEachPointOnce) {
    // Each iteration of the fused loop reads the points of f its inner loops
    // cover: upstream 21 stores 20 values of f in all (observed), once each.
    // Ours stored the whole range of fused % 4 each iteration (80) with one
    // split, and 160 with two (the divisor, a split's extent, unsimplified).
    for (bool two_splits : {false, true}) {
        Func f("ub_fr_f"), g("ub_fr_g");
        Var x("x");
        RDom r(0, 20, "ub_fr_r");
        RVar ro("ro"), ri("ri"), rio("rio"), rii("rii"), fused("fused");
        f(x) = x * 3;
        g(x) = 0;
        g(r) = f(r) + g(r);
        if (two_splits) {
            g.update().split(r, ro, ri, 4).split(ri, rio, rii, 2).fuse(rio, ro, fused);
        } else {
            g.update().split(r, ro, ri, 4).fuse(ri, ro, fused);
        }
        f.compute_at(g, fused);
        f.trace_stores();
        g.jit_handlers().custom_trace = count_fused_rvar_stores;
        fused_rvar_stores = 0;
        Buffer<int> out = g.realize({20});
        for (int i = 0; i < 20; i++) {
            EXPECT_EQ(out(i), 3 * i) << i;
        }
        EXPECT_EQ(fused_rvar_stores, 20) << (two_splits ? "two splits" : "one split");
    }
}

// A Func computed at the innermost loop of its consumer (one column per
// iteration: its region is `f2.min.0 = x + 1` to `f2.max.0 = x + 1`), with
// its two dimensions fused and vectorized, reading an input directly.
// Bounds inference took the one-wide column as [1 - 34, 34] (two lets of
// one variable bounded apart), the fused loop as that many rows, and
// refused the input: "Input buffer ... is accessed at -12" (differential
// seed 85, pipeline 15). Upstream 21 runs it.
TEST(UpstreamBehaviours, AFusedLoopInAOneWideRegionReadsOnlyItsRows) {
    // Inputs over [0, 448) read 191 to 194 points in, as the tester's.
    Buffer<uint64_t> a(448, 448), b(448, 448);
    Buffer<int32_t> c(448, 448);
    a.for_each_element([&](int x, int y) { a(x, y) = (uint64_t)((x * 37 + y * 11) % 400); });
    b.for_each_element([&](int x, int y) { b(x, y) = (uint64_t)((x * 13 + y * 7) % 300); });
    c.for_each_element([&](int x, int y) { c(x, y) = (x * 29 + y * 5) % 41 - 20; });
    Var x("x"), y("y");
    Func f0("ub_fl_f0"), f1("ub_fl_f1"), f2("ub_fl_f2"), f3("ub_fl_f3");
    // b / 0 is 0 (Halide's division by zero): f0 and f1 are 0 everywhere,
    // but their reads of a and b stay in what bounds inference sees.
    f0(x, y) = a(x + 192, y + 191) *
               (select(a(x + 191, y + 193) < Expr((uint64_t)200), a(x + 194, y + 192), b(x + 191, y + 192)) /
                (b(x + 192, y + 194) / Expr((uint64_t)0)));
    f1(x, y) = cast<int32_t>(select(f0(x, y) != Expr((uint64_t)0), absd(cast<float>(f0(x - 2, y)), 23.0f), 0.5f));
    f2(x, y) = absd(f1(x, y - 2), c(x + 192, y + 192));
    f3(x, y) = cast<double>(f2(x + 1, y));
    Var o1("o1"), i2("i2"), o3("o3"), i4("i4"), fused("fused"), i6("i6");
    Var xi("xi"), yi("yi"), xo("xo"), yo("yo");
    f3.split(y, o1, i2, 3, TailStrategy::GuardWithIf).reorder(o1, x, i2);
    f3.split(i2, o3, i4, 8, TailStrategy::Predicate);
    f2.fuse(x, y, fused).vectorize(fused, 2).split(fused, fused, i6, 5, TailStrategy::GuardWithIf);
    f2.compute_at(f3, o1);
    f1.tile(x, y, xo, yo, xi, yi, 2, 2, TailStrategy::ShiftInwards).parallel(xo);
    f1.vectorize(yi, 8, TailStrategy::ShiftInwards).compute_at(f2, fused);
    Buffer<double> out = f3.realize({34, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 34; i++) {
            ASSERT_EQ(out(i, j), (double)std::abs(c(i + 193, j + 192))) << i << ", " << j;
        }
    }
}

} // namespace
