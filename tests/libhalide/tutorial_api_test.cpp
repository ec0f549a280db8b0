// Upstream API the tutorials (tests/tutorials) needed (issue 13):
// Halide::Buffer's shape and element helpers forwarded from Runtime::Buffer,
// Tuple(FuncRef) / FuncRef::size(), and Func::clone_in. Expected values are
// computed in plain C++.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "Halide.h"

using namespace Halide;

namespace {

TEST(BufferHelpers, ShapeMinsAndTranslate) {
    Buffer<int> b(5, 7);
    EXPECT_EQ(b.min(0), 0);
    EXPECT_EQ(b.extent(1), 7);
    EXPECT_EQ(b.stride(0), 1);
    EXPECT_EQ(b.stride(1), 5);
    b.set_min(100, 50);
    EXPECT_EQ(b.min(0), 100);
    EXPECT_EQ(b.min(1), 50);
    EXPECT_EQ(b.left(), 100);
    EXPECT_EQ(b.right(), 104);
    EXPECT_EQ(b.top(), 50);
    EXPECT_EQ(b.bottom(), 56);
    EXPECT_TRUE(b.contains(104, 56));
    EXPECT_FALSE(b.contains(105, 56));
    b.translate({-100, -50});
    EXPECT_EQ(b.min(0), 0);
    EXPECT_EQ(b.min(1), 0);
    b.translate(1, 5); // dimension 1 by 5
    EXPECT_EQ(b.min(1), 5);
    b.set_min(std::vector<int>{3, 4});
    EXPECT_EQ(b.min(1), 4);
    EXPECT_EQ(b.size_in_bytes(), 5u * 7u * sizeof(int));
}

TEST(BufferHelpers, RealizeIntoAShiftedBuffer) {
    Func f;
    Var x, y;
    f(x, y) = x * 10 + y;
    Buffer<int> b(4, 3);
    b.set_min(-2, 20);
    f.realize(b);
    for (int yy = 20; yy < 23; yy++) {
        for (int xx = -2; xx < 2; xx++) {
            EXPECT_EQ(b(xx, yy), xx * 10 + yy);
        }
    }
}

TEST(BufferHelpers, FillForEachCopyAndConvert) {
    Buffer<uint8_t> b(4, 3);
    b.fill(7);
    EXPECT_TRUE(b.all_equal(7));
    int visited = 0;
    b.for_each_element([&](int x, int y) {
        b(x, y) = (uint8_t)(x + 4 * y);
        visited++;
    });
    EXPECT_EQ(visited, 12);
    EXPECT_FALSE(b.all_equal(7));
    int total = 0;
    b.for_each_value([&](uint8_t v) { total += v; });
    EXPECT_EQ(total, 66); // 0 + 1 + ... + 11
    Buffer<uint8_t> c = b.copy();
    c(0, 0) = 99;
    EXPECT_EQ(b(0, 0), 0); // its own elements
    EXPECT_EQ(c(3, 2), 11);
    Buffer<uint8_t> d(4, 3);
    d.copy_from(c);
    EXPECT_EQ(d(0, 0), 99);
    Buffer<> untyped = b.as<void>();
    EXPECT_EQ(untyped.type(), UInt(8));
    Buffer<uint8_t> back = untyped.as<uint8_t>();
    EXPECT_EQ(back(3, 2), 11);
}

TEST(BufferHelpers, MakeInterleaved) {
    Buffer<uint8_t> b = Buffer<uint8_t>::make_interleaved(6, 4, 3);
    EXPECT_EQ(b.stride(2), 1);
    EXPECT_EQ(b.stride(0), 3);
    EXPECT_EQ(b.stride(1), 18);
    Buffer<> u = Buffer<>::make_interleaved(UInt(16), 2, 2, 4);
    EXPECT_EQ(u.type(), UInt(16));
    EXPECT_EQ(u.stride(0), 4);
    // A pipeline writes it through its strides (the output's innermost
    // stride constraint lifted).
    Func f;
    Var x, y, c;
    f(x, y, c) = cast<uint8_t>(x + 10 * y + 100 * c);
    f.output_buffer().dim(0).set_stride(Expr());
    f.realize(b);
    for (int cc = 0; cc < 3; cc++) {
        for (int yy = 0; yy < 4; yy++) {
            for (int xx = 0; xx < 6; xx++) {
                EXPECT_EQ(b(xx, yy, cc), (uint8_t)(xx + 10 * yy + 100 * cc));
                EXPECT_EQ(b.data()[yy * 18 + xx * 3 + cc], (uint8_t)(xx + 10 * yy + 100 * cc));
            }
        }
    }
}

TEST(TupleOfFuncRef, EveryValueOfACall) {
    Func f;
    Var x;
    f(x) = Tuple(x * 2, cast<float>(x) + 0.5f);
    EXPECT_EQ(f(x).size(), 2u);
    Tuple t(f(x + 1));
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].type(), Int(32));
    EXPECT_EQ(t[1].type(), Float(32));
    Func g;
    g(x) = Tuple(t[0] + 1, t[1] * 2.0f);
    Realization r = g.realize({5});
    Buffer<int> a = r[0];
    Buffer<float> b = r[1];
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(a(i), (i + 1) * 2 + 1);
        EXPECT_EQ(b(i), ((float)(i + 1) + 0.5f) * 2.0f);
    }
    Func single;
    single(x) = x;
    EXPECT_EQ(single(x).size(), 1u);
}

std::map<std::string, int> stores;
int32_t count_stores(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_store) {
        stores[e->func] += e->type.lanes;
    }
    return 0;
}

TEST(CloneIn, TheCloneIsComputedIndependently) {
    Func f("f"), g("g"), h("h"), out("out");
    Var x("x"), y("y");
    f(x, y) = x + 2 * y;
    g(x, y) = f(x, y) + 1;
    h(x, y) = f(x + 1, y) * 3;
    out(x, y) = g(x, y) + h(x, y);
    f.compute_root();
    g.compute_root();
    h.compute_root();
    Func clone = f.clone_in(h);
    EXPECT_EQ(clone.name(), "f_clone_in_h");
    EXPECT_EQ(f.clone_in(h).name(), clone.name()); // the same clone again
    clone.compute_at(h, y);
    f.trace_stores();
    clone.trace_stores();
    out.jit_handlers().custom_trace = count_stores;
    stores.clear();
    Buffer<int> result = out.realize({6, 4});
    for (int yy = 0; yy < 4; yy++) {
        for (int xx = 0; xx < 6; xx++) {
            EXPECT_EQ(result(xx, yy), (xx + 2 * yy + 1) + (xx + 1 + 2 * yy) * 3);
        }
    }
    // f is computed for g only (6 x 4), the clone per row of h (6 x 4).
    EXPECT_EQ(stores["f"], 24);
    EXPECT_EQ(stores["f_clone_in_h"], 24);
}

TEST(CloneIn, KeepsUpdateDefinitions) {
    Func f("fu"), g("gu"), h("hu"), out("outu");
    Var x("x");
    RDom r(0, 4);
    f(x) = x;
    f(r) = f(r) * 10 + r;
    g(x) = f(x) + 1;
    h(x) = f(x) - 1;
    out(x) = g(x) * h(x);
    f.compute_root();
    g.compute_root();
    f.clone_in({g}).compute_at(g, x);
    Buffer<int> result = out.realize({7});
    for (int i = 0; i < 7; i++) {
        int fv = i < 4 ? i * 10 + i : i;
        EXPECT_EQ(result(i), (fv + 1) * (fv - 1));
    }
}

TEST(CloneIn, Errors) {
    Func f("fe"), g("ge");
    Var x;
    try {
        f.clone_in(g);
        FAIL() << "cloning an undefined Func";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Can't clone Func 'fe' before it is defined"), std::string::npos)
            << e.what();
    }
    f(x) = x;
    try {
        f.clone_in(f);
        FAIL() << "cloning a Func for itself";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("can't be cloned for itself"), std::string::npos) << e.what();
    }
}

TEST(CloneIn, AConsumerThatDoesNotCallTheFuncIsUpstreamsError) {
    // Upstream 21's message, observed on the same programs (differential
    // seed 131, pipeline 55: a wrapper for a consumer that reads the Func
    // only through a boundary condition). Ours ran, the wrapper unused.
    Var x("x");
    Func f0("wf0"), h("wh"), f1("wf1"), f2("wf2");
    f0(x) = x;
    h(x) = f0(x) + 1;
    f1(x) = h(x) * 2;
    f2(x) = f1(x) + f0(x);
    f0.in(f1).compute_root();
    h.compute_root();
    try {
        f2.realize({4});
        FAIL() << "a wrapper for a Func that does not call wf0";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Cannot wrap \"wf0\" in \"wf1\" because \"wf1\" does not call "
                                             "\"wf0\"\nDirect callees of \"wf1\" are:\n  wh\n"),
                  std::string::npos)
            << e.what();
    }
    Func a("ca"), b("cb"), c("cc");
    a(x) = x;
    b(x) = a(x) + 1;
    c(x) = b(x) * 3;
    a.clone_in(c);
    try {
        c.realize({4});
        FAIL() << "a clone for a Func that does not call ca";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Cannot wrap \"ca\" in \"cc\" because \"cc\" does not call \"ca\""),
                  std::string::npos)
            << e.what();
    }
    // A clone of a clone for a consumer that calls the original serves it
    // (upstream's func_clone test: e calls a; a's clone for e has its own
    // clone for e).
    Func ka("ka"), kb("kb"), ke("ke");
    ka(x) = x + 1;
    kb(x) = ka(x) * 2;
    ke(x) = ka(x) + kb(x);
    Func first = ka.clone_in({kb, ke}).compute_root();
    first.clone_in(ke).compute_root();
    Buffer<int> both = ke.realize({5});
    EXPECT_EQ(both(4), 5 + 10);
    // A consumer outside the pipeline is no error (as upstream's), and a
    // consumer that does call the Func gets its wrapper.
    Func p("pp"), q("pq"), unused("punused");
    p(x) = x * 5;
    q(x) = p(x) + 1;
    unused(x) = 3;
    p.in(unused);
    p.in(q).compute_root();
    Buffer<int> out = q.realize({4});
    EXPECT_EQ(out(3), 16);
}

} // namespace
