// Upstream's schedule directives that shape regions and storage or only
// annotate: align_extent, bound_extent, align_storage, ring_buffer,
// prefetch, copy_to_host/copy_to_device, Stage::unscheduled and
// dump_argument_list, Func::values and debug_to_file. Regions are checked
// through what an extern stage (defined below, exported: the test links
// with -rdynamic) is asked to produce; values against plain C++.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "Halide.h"
#include "error_message.h"

using namespace Halide;

namespace {

// What the extern stage was asked for in its last real call.
std::vector<halide_dimension_t> last_dims;

// Collects warnings; errors are thrown as the default reporter does.
struct Collector : CompileTimeErrorReporter {
    std::vector<std::string> warnings;
    void warning(const char *msg) override { warnings.emplace_back(msg); }
    [[noreturn]] void error(const char *msg) override { throw CompileError(msg); }
};

struct ScopedReporter {
    Collector collector;
    ScopedReporter() { set_custom_compile_time_error_reporter(&collector); }
    ~ScopedReporter() { set_custom_compile_time_error_reporter(nullptr); }
};

int producer(int x, int y) {
    return x * 2 + y * 100;
}

} // namespace

extern "C" {

// out(x[, y]) = producer(x, y) over the region asked for, which it records.
int directive_fill(halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        return 0;
    }
    last_dims.assign(out->dim, out->dim + out->dimensions);
    const halide_dimension_t *d = out->dim;
    int rows = out->dimensions > 1 ? d[1].extent : 1;
    int row_min = out->dimensions > 1 ? d[1].min : 0;
    int row_stride = out->dimensions > 1 ? d[1].stride : 0;
    for (int y = row_min; y < row_min + rows; y++) {
        for (int x = d[0].min; x < d[0].min + d[0].extent; x++) {
            ((int32_t *)out->host)[(x - d[0].min) * d[0].stride + (y - row_min) * row_stride] = producer(x, y);
        }
    }
    return 0;
}

} // extern "C"

namespace {

// f(x) = g(x + 1) + g(x + 3) with g the extern stage, computed at root: g's
// region is [1, w + 2] before any directive.
struct ExternConsumer {
    Var x{"x"};
    Func g{"g"}, f{"f"};
    ExternConsumer() {
        g.define_extern("directive_fill", {}, Int(32), {x});
        f(x) = g(x + 1) + g(x + 3);
        g.compute_root();
    }
    void expect_values(int w) {
        Buffer<int> out = f.realize({w});
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(out(i), producer(i + 1, 0) + producer(i + 3, 0)) << "at " << i;
        }
    }
};

} // namespace

TEST(AlignExtent, RoundsTheExtentUpKeepingTheMin) {
    ExternConsumer p;
    p.expect_values(5);
    ASSERT_EQ(last_dims.size(), 1u);
    EXPECT_EQ(last_dims[0].min, 1);
    EXPECT_EQ(last_dims[0].extent, 7);
    for (int modulus : {4, 5, 7}) {
        ExternConsumer q;
        q.g.align_extent(q.x, modulus);
        q.expect_values(5);
        EXPECT_EQ(last_dims[0].min, 1) << modulus;
        EXPECT_EQ(last_dims[0].extent, (7 + modulus - 1) / modulus * modulus) << modulus;
    }
}

TEST(BoundExtent, FixesTheExtentFromTheMinNeeded) {
    ExternConsumer p;
    p.g.bound_extent(p.x, 12);
    p.expect_values(5);
    EXPECT_EQ(last_dims[0].min, 1);
    EXPECT_EQ(last_dims[0].extent, 12);
    ExternConsumer q;
    q.g.bound_extent(q.x, 4);
    std::string msg = message_of([&] { q.f.realize({5}); });
    EXPECT_NE(msg.find("Bounds given for " + q.g.name() +
                       " in x (from 1 to 4) do not cover required region (from 1 "
                       "to 7)"),
              std::string::npos)
        << msg;
}

TEST(BoundExtent, OfAnOutputComputesThatExtentFromTheBufferMin) {
    Var x("x");
    Func h("h");
    h(x) = x * 5;
    h.bound_extent(x, 4);
    Buffer<int> out(4);
    h.realize(out);
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), i * 5) << i;
    }
    // As upstream: an output buffer wider than the bound, or narrower than it, is an error.
    Buffer<int> wide(8), small(3);
    EXPECT_NE(message_of([&] { h.realize(wide); })
                  .find("Bounds given for " + h.name() +
                        " in x (from 0 to 3) do not cover required region (from 0 "
                        "to 7)"),
              std::string::npos);
    EXPECT_NE(message_of([&] { h.realize(small); }).find("Output buffer " + h.name() + " is accessed at 3"),
              std::string::npos);
    // realize(sizes) narrower than the bound computes the bound and keeps the request.
    Buffer<int> three = h.realize({3});
    ASSERT_EQ(three.width(), 3);
    EXPECT_EQ(three(2), 10);
    EXPECT_NE(message_of([&] { h.realize({8}); }), "");
}

TEST(BoundExtent, ComputedFuncsKeepTheirValues) {
    Var x("x");
    Func g("g"), f("f");
    g(x) = x * x;
    f(x) = g(x) + g(x + 2);
    g.compute_root().bound_extent(x, 16);
    Buffer<int> out = f.realize({10});
    for (int i = 0; i < 10; i++) {
        EXPECT_EQ(out(i), i * i + (i + 2) * (i + 2));
    }
}

TEST(AlignStorage, PadsTheStrideOfTheDimensionsOutside) {
    Var x("x"), y("y");
    for (int alignment : {0, 16, 8}) {
        Func g("g"), f("f");
        g.define_extern("directive_fill", {}, Int(32), {x, y});
        f(x, y) = g(x, y) + 1;
        g.compute_root();
        if (alignment) {
            g.align_storage(x, alignment);
        }
        Buffer<int> out = f.realize({5, 3});
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 5; i++) {
                ASSERT_EQ(out(i, j), producer(i, j) + 1);
            }
        }
        ASSERT_EQ(last_dims.size(), 2u);
        EXPECT_EQ(last_dims[0].extent, 5);
        EXPECT_EQ(last_dims[1].stride, alignment ? alignment : 5) << alignment;
    }
}

TEST(AlignStorage, OfAnOrdinaryFuncKeepsItsValues) {
    Var x("x"), y("y");
    Func g("g"), f("f");
    g(x, y) = x + y * 7;
    f(x, y) = g(x, y) * 2 + g(x + 1, y);
    g.compute_root().align_storage(x, 16);
    Buffer<int> out = f.realize({13, 4});
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 13; i++) {
            ASSERT_EQ(out(i, j), (i + j * 7) * 2 + (i + 1 + j * 7));
        }
    }
}

TEST(Values, AreThePureDefinitionsValues) {
    Var x("x");
    Func t("t"), u("u"), v("v");
    t(x) = Tuple(x, cast<float>(x) * 2.0f);
    u(x) = x * 3;
    Tuple tv = t.values(), uv = u.values();
    ASSERT_EQ(tv.size(), 2u);
    EXPECT_EQ(tv[0].type(), Int(32));
    EXPECT_EQ(tv[1].type(), Float(32));
    ASSERT_EQ(uv.size(), 1u);
    EXPECT_TRUE(uv[0].same_as(u.value()));
    EXPECT_NE(message_of([&] { v.values(); }).find("Can't call Func::values() on an undefined Func"),
              std::string::npos);
}

TEST(Unscheduled, WarnsAboutAForgottenUpdateAsUpstream) {
    Var x("x");
    ScopedReporter r;
    Func f("fw");
    f(x) = x;
    f(x) += 1;
    f.vectorize(x, 4);
    Buffer<int> out = f.realize({8});
    EXPECT_EQ(out(5), 6);
    ASSERT_EQ(r.collector.warnings.size(), 1u);
    EXPECT_NE(r.collector.warnings[0].find("Update definition 0 of function fw has not been scheduled, even though "
                                           "some other definitions have been."),
              std::string::npos)
        << r.collector.warnings[0];
    EXPECT_NE(r.collector.warnings[0].find("call fw.update(0).unscheduled() to suppress this warning"),
              std::string::npos);

    Func g("gw");
    g(x) = x;
    g(x) += 2;
    g.vectorize(x, 4);
    g.update(0).unscheduled();
    r.collector.warnings.clear();
    out = g.realize({8});
    EXPECT_EQ(out(5), 7);
    EXPECT_TRUE(r.collector.warnings.empty());

    // Nothing scheduled at all: no warning.
    Func h("hw");
    h(x) = x;
    h(x) += 2;
    h.realize({8});
    EXPECT_TRUE(r.collector.warnings.empty());
}

TEST(Unscheduled, OfAScheduledStageIsAnError) {
    Var x("x");
    Func f("f"), g("g");
    f(x) = x;
    f(x) += 2;
    f.update(0).vectorize(x, 4);
    EXPECT_NE(message_of([&] {
                  f.update(0).unscheduled();
              }).find("Stage::unscheduled called on an update definition with a schedule"),
              std::string::npos);
    g(x) = x;
    g(x) += 2;
    g.update(0).unscheduled();
    EXPECT_NE(message_of([&] { g.update(0).unscheduled(); }), "");
}

TEST(DumpArgumentList, ListsTheLoopsInnermostFirst) {
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f("f");
    f(x, y) = x + y;
    f(x, y) += 1;
    EXPECT_EQ(Stage(f).dump_argument_list(), "Vars: x y __outermost\n");
    f.split(y, yo, yi, 2);
    EXPECT_EQ(Stage(f).dump_argument_list(), "Vars: x yi yo __outermost\n");
    f.update(0).reorder(y, x);
    EXPECT_EQ(f.update(0).dump_argument_list(), "Vars: y x __outermost\n");
}

TEST(DebugToFile, WritesTheTmpFormat) {
    // Header: four int32 extents (x, y, then 1s) and the type code (int32
    // is 7), then the values with x fastest.
    Var x("x"), y("y");
    Func f("dumped"), g("reader");
    f(x, y) = x * 10 + y;
    g(x, y) = f(x, y) + 1;
    f.compute_root();
    std::string path = testing::TempDir() + "dumped_f.tmp";
    f.debug_to_file(path);
    g.realize({3, 2});
    FILE *file = std::fopen(path.c_str(), "rb");
    ASSERT_NE(file, nullptr);
    int32_t words[5 + 6] = {};
    size_t got = std::fread(words, sizeof(int32_t), 11, file);
    EXPECT_EQ(std::fgetc(file), EOF);
    std::fclose(file);
    ASSERT_EQ(got, 11u);
    const int32_t header[5] = {3, 2, 1, 1, 7};
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(words[i], header[i]) << i;
    }
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 3; i++) {
            EXPECT_EQ(words[5 + j * 3 + i], i * 10 + j);
        }
    }
    EXPECT_THROW(f.debug_to_file(""), CompileError);
}

TEST(DebugToFile, TiffIsARuntimeError) {
    Var x("x");
    Func f("tiff_dump");
    f(x) = x;
    f.debug_to_file(testing::TempDir() + "f.tiff");
    std::string msg = message_of([&] { f.realize({4}); });
    EXPECT_NE(msg.find("TIFF"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Failed to dump function tiff_dump"), std::string::npos) << msg;
}

namespace {

// c(x) = b(x) + 1 where b is a plain copy of a(x) = x * 3.
struct CopyChain {
    Var x{"x"};
    Func a{"a"}, b{"b"}, c{"c"};
    CopyChain() {
        a(x) = x * 3;
        b(x) = a(x);
        c(x) = b(x) + 1;
    }
};

} // namespace

TEST(CopyToHost, OfAPlainCopyComputesTheSameValues) {
    CopyChain chain;
    Var x = chain.x;
    Func a = chain.a, b = chain.b, c = chain.c;
    b.copy_to_host();
    EXPECT_NE(message_of([&] { c.realize({4}); })
                  .find("Func a cannot be scheduled to be computed inline, because it is used in the "
                        "externally-computed function b"),
              std::string::npos);
    a.compute_root();
    b.compute_root();
    Buffer<int> out = c.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(out(i), i * 3 + 1);
    }
    Func d("d");
    d(x) = x * 3;
    EXPECT_NE(message_of([&] { d.copy_to_host(); }).find("is scheduled as copy_to_host/device, but has value"),
              std::string::npos);
    Func e("e");
    e(x) = a(x + 1);
    EXPECT_NE(message_of([&] { e.copy_to_device(DeviceAPI::Host); }), "");
}

TEST(CopyToDevice, IsRefusedWhenCompiledForTheHost) {
    CopyChain chain;
    Func a = chain.a, b = chain.b, c = chain.c;
    b.copy_to_device();
    a.compute_root();
    b.compute_root();
    EXPECT_NE(message_of([&] { c.realize({4}); })
                  .find("Func " + b.name() +
                        " has an extern definition that may leave the output with a dirty <Default_GPU> device "
                        "allocation, but no compatible target feature is enabled in target"),
              std::string::npos);
}

TEST(Prefetch, ChangesNoResult) {
    Var x("x"), y("y");
    Func p("p"), q("q");
    p(x, y) = x + y * 10;
    q(x, y) = p(x, y) * 2 + p(x + 1, y);
    p.compute_root();
    q.prefetch(p, y, y, 2, PrefetchBoundStrategy::NonFaulting);
    ImageParam im(Int(32), 2, "im");
    Func r("r");
    r(x, y) = im(x, y) + 1;
    r.prefetch(im, y, y);
    r.prefetch(im.parameter(), x, y, 1, PrefetchBoundStrategy::Clamp);
    Stage(r).prefetch(im, y, y, 3, PrefetchBoundStrategy::GuardWithIf);
    Buffer<int> in(4, 4);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            in(i, j) = i * j;
        }
    }
    im.set(in);
    Buffer<int> out_q = q.realize({5, 3}), out_r = r.realize({4, 4});
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 5; i++) {
            EXPECT_EQ(out_q(i, j), (i + j * 10) * 2 + (i + 1 + j * 10));
        }
    }
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(out_r(i, j), i * j + 1);
        }
    }
}

TEST(RingBuffer, NeedsAHoistedStorageLevel) {
    Var x("x");
    Func r("r"), o("o");
    r(x) = x * 7;
    o(x) = r(x) + r(x + 1);
    r.compute_at(o, x).ring_buffer(2);
    EXPECT_NE(message_of([&] { o.realize({4}); })
                  .find("Func \"" + r.name() +
                        "\" is scheduled with ring_buffer(), but has matching store_at and hoist_storage "
                        "levels. Add an explicit hoist_storage directive to the schedule to fix the issue."),
              std::string::npos);
    r.hoist_storage_root();
    Buffer<int> out = o.realize({6});
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(out(i), i * 7 + (i + 1) * 7);
    }
}

TEST(AtomicAndRaces, OnTheFuncAreAccepted) {
    Var x("x");
    RDom r(0, 10);
    Func f("f");
    f(x) = 0;
    f(r.x % 3) += 1;
    f.atomic().allow_race_conditions();
    f.update(0).unscheduled(); // as upstream, the pure definition counts as scheduled now
    Buffer<int> out = f.realize({3});
    EXPECT_EQ(out(0), 4);
    EXPECT_EQ(out(1), 3);
    EXPECT_EQ(out(2), 3);
}
