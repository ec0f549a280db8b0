// LoopLevel (Schedule.h) and Stage::compute_with (lower/ComputeWith.cpp):
// the pass on a hand-built statement, fused pipelines against plain C++
// references and the unfused pipeline, the fused loop in the lowered
// statement, and upstream 21's errors.
#include <gtest/gtest.h>

#include <string>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "error_message.h"
#include "ir_text.h"
#include "lower/Function.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// ---- LoopLevel

TEST(LoopLevel, InspectingNeedsALockedLevel) {
    Func f("ll_f");
    Var x("x"), y("y");
    f(x, y) = x + y;
    LoopLevel a(f, x);
    EXPECT_NE(message_of([&] { (void)a.func(); }).find("Cannot inspect an unlocked LoopLevel: ll_f.x"),
              std::string::npos);
    EXPECT_FALSE(a.locked());
    LoopLevel b = a; // copies share the level
    a.lock();
    EXPECT_TRUE(b.locked());
    EXPECT_EQ(b.func(), "ll_f");
    EXPECT_EQ(b.var().name(), "x");
    EXPECT_EQ(b.stage_index(), -1);
    EXPECT_FALSE(b.is_root());
    EXPECT_FALSE(b.is_inlined());
    EXPECT_EQ(b.to_string(), "ll_f.x");
    EXPECT_TRUE(b.match("ll_f.s0.x"));
    EXPECT_FALSE(b.match("ll_f.s0.y"));
    EXPECT_NE(message_of([&] { b.set(LoopLevel::root()); }).find("Cannot call set() on a locked LoopLevel"),
              std::string::npos);

    LoopLevel r = LoopLevel::root();
    r.lock();
    EXPECT_TRUE(r.is_root());
    EXPECT_EQ(r.to_string(), ".__root");
    EXPECT_TRUE(r == LoopLevel::root().lock());
    EXPECT_FALSE(r == LoopLevel::inlined().lock());
    EXPECT_TRUE(LoopLevel::inlined().lock().is_inlined());
    EXPECT_FALSE(LoopLevel().defined());
    EXPECT_TRUE(LoopLevel::root().defined());
    LoopLevel s(f, y, 0);
    EXPECT_EQ(s.lock().to_string(), "ll_f.s0.y");
    EXPECT_TRUE(s.match("ll_f.s0.y"));
}

// g(x, y) = h(x, y) + 1 with h(x, y) = x * y, h at a level set after the schedule call.
TEST(LoopLevel, ASetAfterTheScheduleCallCounts) {
    Var x("x"), y("y");
    Func h("ll_h"), k("ll_k");
    h(x, y) = x * y;
    k(x, y) = h(x, y) + 1;
    LoopLevel level;
    h.compute_at(level);
    level.set(LoopLevel(k, y));
    Buffer<int> out = k.realize({5, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 5; i++) {
            ASSERT_EQ(out(i, j), i * j + 1);
        }
    }
    // h is computed inside k's y loop (its loop nest is in k's).
    std::string text = k.lowered_stmt();
    size_t ky = text.find("for (ll_k.s0.y"), hy = text.find("for (ll_h.s0.y");
    ASSERT_NE(ky, std::string::npos) << text;
    ASSERT_NE(hy, std::string::npos) << text;
    EXPECT_LT(ky, hy) << text;
    EXPECT_TRUE(level.locked()); // compiling locked it
}

TEST(LoopLevel, UndefinedAtLoweringIsUpstreamsError) {
    Var x("x");
    Func h("ll_h2"), k("ll_k2");
    h(x) = x;
    k(x) = h(x);
    LoopLevel undefined;
    h.compute_at(undefined);
    EXPECT_NE(message_of([&] { k.realize({3}); })
                  .find("There should be no undefined LoopLevels at the start of lowering. (Did you mean to use "
                        "LoopLevel::inlined() instead of LoopLevel() ?)"),
              std::string::npos);
}

TEST(LoopLevel, RootInlinedStoreAtAndHoistStorage) {
    Var x("x"), y("y");
    for (int mode = 0; mode < 4; mode++) {
        Func h("ll_h3"), k("ll_k3");
        h(x, y) = x + 2 * y;
        k(x, y) = h(x, y) + h(x + 1, y);
        switch (mode) {
        case 0: h.compute_at(LoopLevel::root()); break;
        case 1: h.compute_at(LoopLevel::inlined()); break;
        case 2: h.compute_at(LoopLevel(k, x)).store_at(LoopLevel(k, y)); break;
        case 3: h.compute_at(LoopLevel(k, x)).hoist_storage(LoopLevel::root()); break;
        }
        Buffer<int> out = k.realize({6, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 6; i++) {
                ASSERT_EQ(out(i, j), (i + 2 * j) + (i + 1 + 2 * j)) << "mode " << mode;
            }
        }
        std::string text = k.lowered_stmt();
        EXPECT_EQ(count(text, "for (ll_h3.s0.x"), mode == 1 ? 0 : 1) << text;
    }
}

TEST(LoopLevel, AStageIndexNamesThatStagesLoopOnly) {
    Var x("x"), y("y");
    Func h("ll_h4"), k("ll_k4");
    h(x, y) = x - y;
    k(x, y) = 0;
    k(x, y) += h(x, y);
    h.compute_at(LoopLevel(k, y, 1));
    Buffer<int> out = k.realize({4, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            ASSERT_EQ(out(i, j), i - j);
        }
    }
    std::string text = k.lowered_stmt();
    EXPECT_EQ(count(text, "for (ll_h4.s0.y"), 1) << text;
    size_t update = text.find("for (ll_k4.s1.y"), hy = text.find("for (ll_h4.s0.y");
    EXPECT_LT(update, hy) << text;
}

// ---- compute_with

struct Pair2D {
    Var x{"x"}, y{"y"};
    Func f, g, h;
    explicit Pair2D(const std::string &tag) : f("cw_f" + tag), g("cw_g" + tag), h("cw_h" + tag) {
        f(x, y) = x + y;
        g(x, y) = x - y;
        h(x, y) = f(x - 1, y + 1) + g(x + 2, y - 2);
        f.compute_root();
        g.compute_root();
    }
    static int expected(int x, int y) { return ((x - 1) + (y + 1)) + ((x + 2) - (y - 2)); }
};

void expect_pair_correct(Func h, int w, int ht) {
    Buffer<int> out = h.realize({w, ht});
    for (int y = 0; y < ht; y++) {
        for (int x = 0; x < w; x++) {
            ASSERT_EQ(out(x, y), Pair2D::expected(x, y)) << "at " << x << ", " << y;
        }
    }
}

TEST(ComputeWith, FusedAtYForEachAlignment) {
    int n = 0;
    for (LoopAlignStrategy a : {LoopAlignStrategy::Auto, LoopAlignStrategy::NoAlign, LoopAlignStrategy::AlignStart,
                                LoopAlignStrategy::AlignEnd}) {
        Pair2D p("a" + std::to_string(n++));
        p.g.compute_with(p.f, p.y, a);
        SCOPED_TRACE((int)a);
        expect_pair_correct(p.h, 13, 9);
        std::string text = p.h.lowered_stmt();
        // One y loop runs both: f's; g keeps its x loop inside it.
        EXPECT_EQ(count(text, "for (" + p.f.name() + ".s0.y,"), 1) << text;
        EXPECT_EQ(count(text, "for (" + p.g.name() + ".s0.y,"), 0) << text;
        EXPECT_EQ(count(text, "for (" + p.g.name() + ".s0.x,"), 1) << text;
        size_t fy = text.find("for (" + p.f.name() + ".s0.y"), gx = text.find("for (" + p.g.name() + ".s0.x");
        EXPECT_LT(fy, gx) << text;
    }
}

TEST(ComputeWith, FusedAtXMatchesTheUnfusedPipeline) {
    Pair2D unfused("u");
    Buffer<int> want = unfused.h.realize({11, 7});
    for (LoopAlignStrategy a :
         {LoopAlignStrategy::NoAlign, LoopAlignStrategy::AlignStart, LoopAlignStrategy::AlignEnd}) {
        Pair2D p("x" + std::to_string((int)a));
        p.f.split(p.x, p.x, Var("xi"), 4);
        p.g.split(p.x, p.x, Var("xi"), 4);
        p.g.compute_with(p.f, p.x, a);
        Buffer<int> got = p.h.realize({11, 7});
        for (int y = 0; y < 7; y++) {
            for (int x = 0; x < 11; x++) {
                ASSERT_EQ(got(x, y), want(x, y)) << "at " << x << ", " << y;
            }
        }
        std::string text = p.h.lowered_stmt();
        EXPECT_EQ(count(text, "for (" + p.g.name() + ".s0.x,"), 0) << text;
        EXPECT_EQ(count(text, "for (" + p.g.name() + ".s0.y,"), 0) << text;
        EXPECT_EQ(count(text, "for (" + p.g.name() + ".s0.xi,"), 1) << text;
    }
}

TEST(ComputeWith, PerVarAlignmentsLoopLevelAndParallel) {
    Pair2D p("v");
    p.f.parallel(p.y);
    p.g.parallel(p.y); // (a parallel loop fused with a serial one is upstream's error)
    p.g.compute_with(LoopLevel(p.f, p.x), {{p.y, LoopAlignStrategy::AlignEnd}, {p.x, LoopAlignStrategy::AlignStart}});
    expect_pair_correct(p.h, 10, 10);
    std::string text = p.h.lowered_stmt();
    EXPECT_EQ(count(text, "parallel for (" + p.f.name() + ".s0.y,"), 1) << text;
    EXPECT_EQ(count(text, p.g.name() + ".s0.y"), 0) << text;
}

TEST(ComputeWith, UpdateStagesAndOutputs) {
    Var x("x"), y("y");
    // Two outputs of one pipeline, each with an update; the updates fused.
    Func a("cw_out_a"), b("cw_out_b");
    a(x, y) = x * 2;
    a(x, y) += y;
    b(x, y) = y * 3;
    b(x, y) += x;
    b.compute_with(a, y);
    b.update(0).compute_with(a.update(0), y);
    Pipeline p({a, b});
    Realization r = p.realize({8, 6});
    Buffer<int> ra = r[0], rb = r[1];
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 8; i++) {
            ASSERT_EQ(ra(i, j), i * 2 + j);
            ASSERT_EQ(rb(i, j), j * 3 + i);
        }
    }
}

TEST(ComputeWith, AChainOfThree) {
    Var x("x"), y("y");
    Func p("cw_p"), c("cw_c"), d("cw_d"), o("cw_o");
    p(x, y) = x;
    c(x, y) = y;
    d(x, y) = x * y;
    o(x, y) = p(x, y) + c(x + 1, y) + d(x, y - 1);
    p.compute_root();
    c.compute_root();
    d.compute_root();
    c.compute_with(p, y);
    d.compute_with(c, y);
    Buffer<int> out = o.realize({5, 5});
    for (int j = 0; j < 5; j++) {
        for (int i = 0; i < 5; i++) {
            ASSERT_EQ(out(i, j), i + j + i * (j - 1));
        }
    }
    std::string text = o.lowered_stmt();
    EXPECT_EQ(count(text, "for (cw_p.s0.y,"), 1) << text;
    EXPECT_EQ(count(text, "for (cw_c.s0.y,"), 0) << text;
    EXPECT_EQ(count(text, "for (cw_d.s0.y,"), 0) << text;
}

TEST(ComputeWith, ComputedAtTheSameLoop) {
    Var x("x"), y("y");
    Func f("cw_f9"), g("cw_g9"), h("cw_h9");
    f(x, y) = x + y;
    g(x, y) = x * 2;
    h(x, y) = g(x, y) + f(x, y);
    f.compute_at(h, y);
    g.compute_at(h, y);
    g.compute_with(f, x);
    Buffer<int> out = h.realize({6, 6});
    for (int j = 0; j < 6; j++) {
        for (int i = 0; i < 6; i++) {
            ASSERT_EQ(out(i, j), i * 2 + i + j);
        }
    }
    EXPECT_EQ(count(h.lowered_stmt(), "for (cw_g9.s0.x,"), 0);
}

// Upstream's compute_with_in test: one.in(three), fused with two, and one
// computed in two's loops that the wrapper shares. `mode` picks the fused
// level and where one is computed; out(x, y) = 2 * (x + y) + 5.
struct WrapperFusedWithAReader {
    Var x{"x"}, y{"y"}, xi{"xi"};
    Func one, two, three, out, wrapper;
    explicit WrapperFusedWithAReader(int mode)
        : one("one" + std::to_string(mode)), two("two" + std::to_string(mode)), three("three" + std::to_string(mode)),
          out("out" + std::to_string(mode)) {
        one(x, y) = x + y;
        two(x, y) = one(x, y) + 2;
        three(x, y) = one(x, y) + 3;
        out(x, y) = two(x, y) + three(x, y);
        two.compute_root();
        wrapper = one.in(three);
        wrapper.compute_root();
        switch (mode) {
        case 0: // upstream's test
            wrapper.compute_with(two, Var::outermost());
            one.compute_root();
            one.compute_at(two, Var::outermost());
            break;
        case 1: wrapper.compute_with(two, y), one.compute_at(two, y); break;
        case 2: wrapper.compute_with(two, x), one.compute_at(two, x); break;
        case 3: wrapper.compute_with(two, y), one.compute_at(two, Var::outermost()); break;
        case 4: wrapper.compute_with(two, y, LoopAlignStrategy::AlignStart), one.compute_at(two, y); break;
        case 5:
            two.split(x, x, xi, 4);
            wrapper.split(x, x, xi, 4).compute_with(two, x);
            one.compute_at(two, x);
            break;
        // Where upstream 21 refuses it: inside two's loops only, or in the
        // wrapper's (the child's), which two does not run in.
        case 6: wrapper.compute_with(two, y), one.compute_at(two, x); break;
        case 7: wrapper.compute_with(two, y), one.compute_at(wrapper, y); break;
        case 8: wrapper.compute_with(two, Var::outermost()), one.compute_at(wrapper, Var::outermost()); break;
        }
    }
};

TEST(ComputeWith, AFuncComputedInTheLoopsAParentSharesServesItsChildToo) {
    // Ours refused these ("Func "one" is computed at the following invalid
    // location"): one was placed in two's loop before the wrapper's loops
    // joined it. Upstream 21 runs each.
    for (int mode = 0; mode <= 5; mode++) {
        WrapperFusedWithAReader p(mode);
        Buffer<int> got = p.out.realize({13, 7});
        for (int j = 0; j < 7; j++) {
            for (int i = 0; i < 13; i++) {
                ASSERT_EQ(got(i, j), 2 * (i + j) + 5) << "mode " << mode << " at " << i << ", " << j;
            }
        }
        // one is computed in two's loop, around both stages' loops.
        std::string text = p.out.lowered_stmt();
        EXPECT_EQ(count(text, "produce " + p.one.name() + " {"), 1) << text;
        EXPECT_EQ(count(text, "for (" + p.wrapper.name() + ".s0.y,"), mode == 0 ? 1 : 0) << text;
    }
}

TEST(ComputeWith, AFuncComputedInOnlyOneFusedStagesLoopIsUpstreamsError) {
    std::vector<std::string> want = {"compute_at(two6, x);", "compute_at(one7_in_three7, y);",
                                     "compute_at(one8_in_three8, Var::outermost());"};
    for (int mode = 6; mode <= 8; mode++) {
        WrapperFusedWithAReader p(mode);
        std::string m = message_of([&] { p.out.realize({13, 7}); });
        EXPECT_NE(m.find("Func \"" + p.one.name() + "\" is computed at the following invalid location:"),
                  std::string::npos)
            << m;
        EXPECT_NE(m.find(want[(size_t)mode - 6]), std::string::npos) << m;
    }
}

TEST(ComputeWith, FuncsComputedInTheFusedLoopsOfEitherStage) {
    // q read by the parent a, r by the child b: computed at a's fused loop
    // (both stages in it), or r at b's (within b's part), as upstream 21
    // runs them. Ours refused the first kind.
    for (int mode = 0; mode < 5; mode++) {
        Var x("x"), y("y"), xi("xi");
        std::string n = std::to_string(mode);
        Func q("fq" + n), r("fr" + n), a("fa" + n), b("fb" + n), out("fo" + n);
        q(x, y) = x * y;
        r(x, y) = x - y;
        a(x, y) = q(x, y) + 1;
        b(x, y) = r(x, y) * 2;
        out(x, y) = a(x, y) + b(x, y);
        a.compute_root();
        b.compute_root();
        switch (mode) {
        case 0: b.compute_with(a, y), q.compute_at(a, y), r.compute_at(a, y); break;
        case 1: b.compute_with(a, y), r.compute_at(a, Var::outermost()); break;
        case 2: b.compute_with(a, y), q.compute_at(a, y), r.compute_at(b, y); break;
        case 3:
            b.compute_with(a, y, LoopAlignStrategy::AlignEnd), q.compute_at(a, y), r.compute_at(b, y);
            out.bound(x, 0, 8).bound(y, 0, 6);
            break;
        case 4:
            a.split(x, x, xi, 4);
            b.split(x, x, xi, 4);
            b.compute_with(a, x), q.compute_at(a, y), r.compute_at(b, x);
            break;
        }
        Buffer<int> got = out.realize({8, 6});
        for (int j = 0; j < 6; j++) {
            for (int i = 0; i < 8; i++) {
                ASSERT_EQ(got(i, j), i * j + 1 + 2 * (i - j)) << "mode " << mode << " at " << i << ", " << j;
            }
        }
    }
}

// Upstream 21's words for the compute_with it refuses.
TEST(ComputeWith, UpstreamsErrors) {
    Var x("x"), y("y"), z("z");
    auto error = [&](int which) {
        return message_of([&] {
            std::string n = std::to_string(which);
            Func f("ef" + n), g("eg" + n), h("eh" + n);
            f(x, y) = x + y;
            g(x, y) = which == 0 || which == 1 ? f(x, y) * 2 : x * 2;
            h(x, y) = g(x, y) + f(x, y);
            f.compute_root();
            g.compute_root();
            switch (which) {
            case 0: g.compute_with(f, y); break; // g reads f
            case 1: f.compute_with(g, y); break; // f's parent reads it
            case 2:
                g.compute_at(h, y);
                g.compute_with(f, y);
                break;
            case 3:
                g.compute_inline();
                g.compute_with(f, y);
                break;
            case 4: g.compute_with(f, z); break;
            case 5:
                g.reorder(y, x);
                g.compute_with(f, x);
                break;
            case 6: {
                Param<bool> pb("pb");
                g.compute_with(f, y);
                g.specialize(pb);
                break;
            }
            }
            h.realize({4, 4});
        });
    };
    std::vector<std::string> want = {
        "Invalid compute_with: there is dependency between ef0 and eg0",
        "Invalid compute_with: there is dependency between eg1 and ef1",
        "Invalid compute_with: the compute levels of ef2.s0 (computed at .__root) and eg2.s0 (eh2.y) do not match.",
        "Invalid compute_with: eg3.s0 is scheduled inline.",
        "Invalid compute_with: cannot find z in ef4.s0",
        "Invalid compute_with: # of fused dims of ef5.s0 and eg5.s0 do not match.",
        "Func eg6 is scheduled to be computed with ef6, so it must not have any specializations.",
    };
    for (int which = 0; which < (int)want.size(); which++) {
        std::string got = error(which);
        EXPECT_NE(got.find(want[which]), std::string::npos) << got;
    }
    std::string names = message_of([&] {
        Func f("nf"), g("ng"), h("nh");
        Var yo("yo"), yi("yi"), ya("ya"), yb("yb");
        f(x, y) = x + y;
        g(x, y) = x - y;
        h(x, y) = f(x, y) + g(x, y);
        f.compute_root().split(y, yo, yi, 2);
        g.compute_root().split(y, ya, yb, 2);
        g.compute_with(f, x);
        h.realize({4, 4});
    });
    EXPECT_NE(names.find("Invalid compute_with: names of dim 1 of nf.s0(y.yi) and ng.s0(y.yb) do not match."),
              std::string::npos)
        << names;
    std::string unused = message_of([&] {
        Func f("uf"), g("ug"), h("uh");
        f(x, y) = x + y;
        g(x, y) = x - y;
        h(x, y) = g(x, y) + 1;
        f.compute_root();
        g.compute_root();
        g.compute_with(f, y);
        h.realize({4, 4});
    });
    EXPECT_NE(unused.find("Illegal compute_with: \"ug\" is scheduled to be computed with \"uf\" which is not used "
                          "anywhere."),
              std::string::npos)
        << unused;
    // A parallel loop fused with a serial one, as upstream 21 words it (the
    // dims counted from the innermost fused one); a vectorized one is fine.
    auto for_types = [&](int which) {
        return message_of([&] {
            std::string n = std::to_string(which);
            Var xi("xi");
            Func f("tf" + n), g("tg" + n), h("th" + n);
            f(x, y) = x + y;
            g(x, y) = x - y;
            h(x, y) = f(x, y) + g(x, y);
            f.compute_root();
            g.compute_root();
            switch (which) {
            case 0: f.parallel(y), g.compute_with(f, x); break;
            case 1: g.parallel(y), g.compute_with(f, y); break;
            case 2:
                f.split(x, x, xi, 4).parallel(x);
                g.split(x, x, xi, 4);
                g.compute_with(f, xi);
                break;
            case 3: f.vectorize(x, 4), g.compute_with(f, x); break;
            }
            h.realize({8, 8});
        });
    };
    EXPECT_EQ(for_types(0), "Invalid compute_with: for types of dim 1 of tf0.s0(y is parallel) and tg0.s0(y is for) do "
                            "not match.");
    EXPECT_EQ(for_types(1), "Invalid compute_with: for types of dim 0 of tf1.s0(y is for) and tg1.s0(y is parallel) do "
                            "not match.");
    EXPECT_EQ(for_types(2), "Invalid compute_with: for types of dim 1 of tf2.s0(x.x is parallel) and tg2.s0(x.x is "
                            "for) do not match.");
    EXPECT_EQ(for_types(3), "");
    std::string self = message_of([&] {
        Func ff("eff");
        ff(x, y) = x + y;
        ff(x, y) += 2;
        ff.update(0).compute_with(ff, x);
    });
    EXPECT_NE(self.find("Cannot schedule eff.update(0) to be computed with eff.s0.x"), std::string::npos) << self;
    std::string crossing = message_of([&] {
        Func f("xf"), g("xg");
        f(x, y) = x + y;
        f(x, y) += 1;
        g(x, y) = x - y;
        g(x, y) += 1;
        f.compute_with(g.update(0), y);
        f.update(0).compute_with(g, y);
        Pipeline({f, g}).realize({20, 20});
    });
    EXPECT_NE(crossing.find("Invalid compute_with: impossible to establish correct stage order between xf.s0 with "
                            "xg.s1 and xf.s1 with xg.s0"),
              std::string::npos)
        << crossing;
}

// ---- The pass on a hand-built statement.

Expr v(const std::string &name) {
    return Variable::make(Int(32), name);
}
Expr i32(int k) {
    return IntImm::make(Int(32), k);
}

FunctionPtr func_1d(const std::string &name) {
    auto f = std::make_shared<FunctionContents>();
    f->name = name;
    f->args = {"x"};
    f->values = {i32(0)};
    f->compute = ComputeLevel::Root;
    LoopDim d;
    d.name = "x";
    d.var = "x";
    f->dims = {d};
    return f;
}

TEST(ComputeWithPass, TwoLoopsBecomeOne) {
    Environment env{{"pf", func_1d("pf")}, {"pg", func_1d("pg")}};
    env.at("pg")->fuse.parent_func = "pf";
    env.at("pg")->fuse.var = "x";
    env.at("pg")->fuse.all = LoopAlignStrategy::AlignStart;
    // for pf.s0.x in [0, 10): pf(x) = x;  for pg.s0.x in [3, 5): pg(x) = x * 2
    Stmt f_loop =
        For::make("pf.s0.x", i32(0), i32(10), ForType::Serial, Provide::make("pf", {v("pf.s0.x")}, {v("pf.s0.x")}));
    Stmt g_loop =
        For::make("pg.s0.x", i32(3), i32(5), ForType::Serial, Provide::make("pg", {v("pg.s0.x") * 2}, {v("pg.s0.x")}));
    Stmt before = Block::make(mark_compute_with_stage(*env.at("pf"), 0, f_loop),
                              mark_compute_with_stage(*env.at("pg"), 0, g_loop));
    std::string text = printed(fuse_compute_with(before, env));
    // One loop over f's range (g's 5 iterations start with f's first), each body guarded.
    EXPECT_EQ(count(text, "for ("), 1) << text;
    EXPECT_EQ(count(text, "for (pf.s0.x"), 1) << text;
    EXPECT_EQ(count(text, "compute_with_stage"), 0) << text;
    EXPECT_EQ(count(text, "pg.s0.x"), 0) << text; // g's loop variable is f's, shifted
    EXPECT_NE(text.find("pg(((pf.s0.x - 0) + 3))"), std::string::npos) << text;
    EXPECT_LT(text.find("pf(pf.s0.x)"), text.find("pg(")) << text; // the parent's body first
}

} // namespace
