// Storage folding (lower/StorageFolding.cpp): the pass on hand-built
// statements, Func::fold_storage's checks, and folded pipelines against
// plain C++ references.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "Halide.h"
#include "Halide/IRMutator.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

Environment env_with(const std::string &name, int dims) {
    auto f = std::make_shared<FunctionContents>();
    f->name = name;
    for (int d = 0; d < dims; d++) {
        f->args.push_back("v" + std::to_string(d));
    }
    f->values = {i32(0)};
    return {{name, f}};
}

Expr read_f(const Expr &x, const Expr &y) {
    return Call::make(Int(32), "f", {x, y}, Call::Halide);
}

// realize f { for (y, 0, 100) { f(0, <row written>) = 1; consume f(0, y - 1) + f(0, y + 1) } }
Stmt line_buffer(const Expr &written, const std::vector<Stmt> &more = {}) {
    std::vector<Stmt> body = {Provide::make("f", {i32(1)}, {i32(0), written}),
                              Evaluate::make(read_f(i32(0), var("y") - 1) + read_f(i32(0), var("y") + 1))};
    Stmt loop = For::make("y", i32(0), i32(100), ForType::Serial, Block::make(body));
    std::vector<Stmt> all = {loop};
    all.insert(all.end(), more.begin(), more.end());
    return Realize::make("f", {Int(32)}, {{var("f.min.0"), var("f.extent.0")}, {var("f.min.1"), var("f.extent.1")}},
                         Block::make(all));
}

} // namespace

TEST(StorageFolding, RowsReadWithinALoopFoldToAPowerOfTwo) {
    // Each iteration touches rows [y - 1, y + 1]: 3 rows, stored in 4.
    Stmt after = storage_folding(line_buffer(var("y") + 1), env_with("f", 2));
    std::string text = printed(after);
    EXPECT_NE(text.find("let f.extent.1 = 4"), std::string::npos) << text;
    EXPECT_NE(text.find("let f.min.1 = 0"), std::string::npos) << text;
    EXPECT_EQ(count(text, "), 3))"), 3) << text; // the write and both reads, bitwise_and(row, 3)
    EXPECT_EQ(count(text, "bitwise_and("), 3) << text;
    EXPECT_EQ(count(text, "f.extent.0"), 1) << text; // dimension 0 is not folded
}

TEST(StorageFolding, LeftAloneWhenTheSpanIsNotBoundedOrAccessesAreElsewhere) {
    Environment env = env_with("f", 2);
    Stmt outside = line_buffer(var("y") + 1, {Evaluate::make(read_f(i32(0), i32(3)))}); // read after the loop
    Stmt unbounded = line_buffer(var("y") * var("y"));                                  // span grows with y
    Stmt still = Realize::make("f", {Int(32)}, {{i32(0), i32(10)}, {i32(0), i32(10)}},
                               For::make("y", i32(0), i32(100), ForType::Serial,
                                         Provide::make("f", {i32(1)}, {i32(0), i32(4)}))); // the same row each time
    for (const Stmt &s : {outside, unbounded, still}) {
        EXPECT_TRUE(storage_folding(s, env).same_as(s)) << printed(s);
    }
    Stmt parallel = line_buffer(var("y") + 1);
    struct MakeParallel : public IRMutator {
        using IRMutator::visit;
        Stmt visit(const For *op) override {
            return For::make(op->name, op->min, op->extent, ForType::Parallel, op->body);
        }
    };
    parallel = MakeParallel().mutate(parallel);
    EXPECT_TRUE(storage_folding(parallel, env).same_as(parallel));
}

TEST(StorageFolding, ExplicitFoldsAreCheckedAndKeptAsGiven) {
    Environment env = env_with("f", 2);
    FunctionContents &f = *env.at("f");
    f.storage_folds["v1"] = {i32(3), true}; // exactly the 3 rows: modulo 3, not rounded
    std::string text = printed(storage_folding(line_buffer(var("y") + 1), env));
    EXPECT_NE(text.find("let f.extent.1 = 3"), std::string::npos) << text;
    EXPECT_EQ(count(text, " % 3"), 3) << text;
    f.storage_folds["v1"] = {i32(2), true}; // too small for 3 rows: fails at run time, as upstream's
    text = printed(storage_folding(line_buffer(var("y") + 1), env));
    EXPECT_NE(text.find("halide_error_fold_factor_too_small"), std::string::npos) << text;
    f.storage_folds["v1"] = {i32(4), false}; // the rows move forwards
    EXPECT_THROW(storage_folding(line_buffer(var("y") + 1), env), CompileError);
    // A span that is not a constant: checked in each iteration.
    f.storage_folds["v1"] = {i32(8), true};
    Stmt s = line_buffer(var("y") + var("k"));
    text = printed(storage_folding(s, env));
    EXPECT_NE(text.find("halide_error_fold_factor_too_small"), std::string::npos) << text;
}

TEST(StorageFolding, InnerLoopsFoldWhenOuterIterationsAreDisjoint) {
    // realize f(x, y, c) { for c { for y { for x { f(x, y + 1, c) = 1; f(x - 1, y - 1, c) } } } }
    // Each iteration of c touches only channel c (nothing lives on to the
    // next): channel folded to 1, and within it the rows [y - 1, y + 1] of
    // each y to 4. Before, only the loop directly inside (c) was looked at.
    Environment env = env_with("f", 3);
    Expr read = Call::make(Int(32), "f", {var("x") - 1, var("y") - 1, var("c")}, Call::Halide);
    Stmt inner = Block::make(Provide::make("f", {i32(1)}, {var("x"), var("y") + 1, var("c")}), Evaluate::make(read));
    Stmt loops = For::make("x", i32(0), i32(100), ForType::Serial, inner);
    loops = For::make("y", i32(0), i32(1000), ForType::Serial, loops);
    loops = For::make("c", i32(0), i32(3), ForType::Serial, loops);
    std::vector<Range> bounds;
    for (int d = 0; d < 3; d++) {
        bounds.push_back({var("f.min." + std::to_string(d)), var("f.extent." + std::to_string(d))});
    }
    Stmt before = Realize::make("f", {Int(32)}, bounds, loops);
    std::string text = printed(storage_folding(before, env));
    EXPECT_NE(text.find("let f.extent.2 = 1"), std::string::npos) << text;
    EXPECT_NE(text.find("let f.extent.1 = 4"), std::string::npos) << text;
    EXPECT_EQ(count(text, "f.extent.0"), 1) << text; // the columns are not folded
    EXPECT_EQ(count(text, "bitwise_and(c, 0)"), 2) << text;
    EXPECT_EQ(count(text, "bitwise_and((y + 1), 3)"), 1) << text;
    EXPECT_EQ(count(text, "bitwise_and((y - 1), 3)"), 1) << text;
    // The same nest under a parallel c: iterations may run together, nothing folds.
    Stmt parallel =
        Realize::make("f", {Int(32)}, bounds, For::make("c", i32(0), i32(3), ForType::Parallel, loops.as<For>()->body));
    EXPECT_TRUE(storage_folding(parallel, env).same_as(parallel));
    // Rows kept across channels (f(x, y - 1, 0) read in every channel):
    // the channel's iterations share data, so the rows of an inner loop
    // can't be folded either.
    Expr shared = Call::make(Int(32), "f", {var("x"), var("y") - 1, i32(0)}, Call::Halide);
    Stmt sharing =
        Block::make(Provide::make("f", {i32(1)}, {var("x"), var("y") + 1, var("c")}), Evaluate::make(shared));
    sharing = For::make(
        "c", i32(0), i32(3), ForType::Serial,
        For::make("y", i32(0), i32(1000), ForType::Serial, For::make("x", i32(0), i32(100), ForType::Serial, sharing)));
    text = printed(storage_folding(Realize::make("f", {Int(32)}, bounds, sharing), env));
    EXPECT_EQ(text.find("let f.extent.1"), std::string::npos) << text;
}

// ----- pipelines -----

TEST(StorageFolding, LineBufferedBlurIsFoldedAndCorrect) {
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(im);
    Func bx("bx"), out("out");
    bx(x, y) = c(x - 1, y) + 2 * c(x, y) + c(x + 1, y);
    out(x, y) = bx(x, y - 1) + bx(x, y) * 3 + bx(x, y + 1);
    out.vectorize(x, 8, TailStrategy::GuardWithIf);
    bx.store_root().compute_at(out, y).vectorize(x, 8);
    std::string text = lowered(out, {im}, "folded_blur");
    EXPECT_NE(text.find("bitwise_and((out.s0.y + 1), 3)"), std::string::npos) << text; // 3 rows live, stored in 4
    for (auto [w, h] : {std::pair{45, 17}, std::pair{8, 1}, std::pair{2, 5}}) {
        Buffer<int32_t> in = ramp_input(w, h);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), clampi(j, 0, h - 1)); };
        auto rbx = [&](int i, int j) { return at(i - 1, j) + 2 * at(i, j) + at(i + 1, j); };
        Buffer<int32_t> result = out.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(result(i, j), rbx(i, j - 1) + rbx(i, j) * 3 + rbx(i, j + 1)) << i << ", " << j;
            }
        }
    }
}

TEST(StorageFolding, AVectorizedProducerFoldsAsFoldStorageAsks) {
    // Upstream 21 runs these; ours refused them ("do not move towards larger
    // values"): the region, widened to whole vectors, subtracts its own ends,
    // which the monotonicity check judged only once simplified.
    Var x("x");
    for (int factor : {8, 16}) {
        Func f("f"), g("g");
        f(x) = x * 3 + 1;
        g(x) = f(x + 1) + f(x - 1);
        f.store_root().compute_at(g, x).vectorize(x, 4).fold_storage(x, factor);
        g.vectorize(x, 4);
        std::string text = lowered(g, {}, "folded_vectors");
        EXPECT_NE(text.find("allocate f[int32 * " + std::to_string(factor) + "]"), std::string::npos) << text;
        EXPECT_NE(text.find("x4(" + std::to_string(factor - 1) + "))"), std::string::npos) << text; // the fold's mask
        for (int w : {100, 101, 5}) {
            Buffer<int32_t> out = g.realize({w});
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(out(i), (i + 1) * 3 + 1 + (i - 1) * 3 + 1) << factor << ", " << w << ": " << i;
            }
        }
    }
}

TEST(StorageFolding, FoldStorageByHand) {
    // Explicit folds: exact (3 rows), larger (8), backwards over a flipped
    // consumer, and too small (an error naming the fold when it runs).
    const int w = 12, h = 20;
    Buffer<int32_t> in = ramp_input(w, h + 2);
    in->set_min(0, -1);
    Var x("x"), y("y");
    for (int factor : {3, 8}) {
        Func f("f"), out("out");
        f(x, y) = in(x, y) * 2 + 1;
        out(x, y) = f(x, y - 1) + f(x, y + 1) - f(x, y);
        f.store_root().compute_at(out, y).fold_storage(y, factor);
        Buffer<int32_t> result = out.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(result(i, j), in(i, j - 1) * 2 + 1 + in(i, j + 1) * 2 + 1 - (in(i, j) * 2 + 1))
                    << factor << ": " << i << ", " << j;
            }
        }
    }
    {
        // out(x, y) reads f at h - 1 - y: the rows move backwards as y grows.
        Func f("f"), out("out");
        f(x, y) = in(x, y) + 7;
        out(x, y) = f(x, (h - 1) - y) + f(x, h - y);
        f.store_root().compute_at(out, y).fold_storage(y, 2, false);
        Buffer<int32_t> result = out.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(result(i, j), in(i, h - 1 - j) + 7 + in(i, h - j) + 7) << i << ", " << j;
            }
        }
    }
    Func f("f"), out("out");
    f(x, y) = in(x, y);
    out(x, y) = f(x, y - 1) + f(x, y + 1);
    f.store_root().compute_at(out, y).fold_storage(y, 2);
    try {
        out.realize({w, h});
        FAIL() << "a fold of 2 rows for 3 was accepted";
    } catch (const RuntimeError &e) { // upstream 21: a RuntimeError too
        EXPECT_NE(std::string(e.what()).find("fold factor (2)"), std::string::npos) << e.what();
    }
    EXPECT_THROW(f.fold_storage(y, 0), CompileError);
    EXPECT_THROW(f.fold_storage(Var("z"), 4), CompileError);
}

// ----- allocation sizes, as upstream 21 allocates for the same programs -----

namespace {

std::multiset<size_t> heap_sizes;

void *counting_malloc(JITUserContext *, size_t n) {
    heap_sizes.insert(n);
    return malloc(n);
}

void counting_free(JITUserContext *, void *p) {
    free(p);
}

// g realized over `shape`, with the sizes of the heap allocations it made.
Buffer<int32_t> realize_counting(Func g, const std::vector<int> &shape) {
    heap_sizes.clear();
    g.jit_handlers().custom_malloc = counting_malloc;
    g.jit_handlers().custom_free = counting_free;
    return g.realize(shape);
}

} // namespace

TEST(StorageFolding, StoredAtRootComputedPerPixelFoldsItsChannelAndRows) {
    // Upstream 21 allocates 101 x 4 ints (1616 bytes): channel folded to 1,
    // rows [y - 1, y + 1] to 4. We allocated the whole 101 x 1002 x 3.
    Var x("x"), y("y"), c("c");
    Func f("f"), g("g");
    f(x, y, c) = x + y * 3 + c * 1000;
    g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
    f.store_root().compute_at(g, x);
    Buffer<int32_t> out = realize_counting(g, {100, 1000, 3});
    EXPECT_EQ(heap_sizes, (std::multiset<size_t>{1616}));
    auto rf = [](int i, int j, int k) { return i + j * 3 + k * 1000; };
    for (int k = 0; k < 3; k++) {
        for (int j = 0; j < 1000; j++) {
            for (int i = 0; i < 100; i++) {
                ASSERT_EQ(out(i, j, k), rf(i - 1, j + 1, k) + rf(i, j - 1, k)) << i << ", " << j << ", " << k;
            }
        }
    }
}

TEST(StorageFolding, SpecializedConsumersFoldOnlyWhenAsked) {
    // A specialized consumer computes f in two places: upstream folds it
    // only by fold_storage() (101 x 3 ints), else keeps the whole
    // 101 x 1002 x 3. Ours refused fold_storage here ("not accessed within
    // a single loop").
    Var x("x"), y("y"), c("c");
    auto rf = [](int i, int j) { return i * 5 - j; };
    {
        Func f("f"), g("g");
        f(x, y, c) = x * 5 - y;
        g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
        f.store_root().compute_at(g, x);
        g.specialize(g.output_buffer().width() > 4).vectorize(x, 4);
        Buffer<int32_t> out = realize_counting(g, {100, 1000, 3});
        EXPECT_EQ(heap_sizes, (std::multiset<size_t>{101 * 1002 * 3 * 4}));
        ASSERT_EQ(out(7, 9, 2), rf(6, 10) + rf(7, 8));
    }
    for (int w : {100, 3}) {
        Func f("f"), g("g");
        f(x, y) = x * 5 - y;
        g(x, y) = f(x - 1, y + 1) + f(x, y - 1);
        f.store_root().compute_at(g, y).fold_storage(y, 3);
        g.specialize(g.output_buffer().width() > 4).vectorize(x, 4);
        Buffer<int32_t> out = realize_counting(g, {w, 1000});
        EXPECT_EQ(heap_sizes, (std::multiset<size_t>{size_t(w + 1) * 3 * 4})) << w;
        for (int j = 0; j < 1000; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(out(i, j), rf(i - 1, j + 1) + rf(i, j - 1)) << w << ": " << i << ", " << j;
            }
        }
    }
}

TEST(StorageFolding, FoldStorageInsideAnOuterChannelLoop) {
    // fold_storage(y, 3) with the channels outside the rows: upstream folds
    // the rows (and the channel to 1) where ours reported a fold factor too
    // small for the whole image (1002 rows). Channels innermost (interleaved
    // storage) keep all 3 channels.
    Var x("x"), y("y"), c("c");
    for (bool interleave : {false, true}) {
        Func f("f"), g("g");
        f(x, y, c) = x + 2 * y + 7 * c;
        g(x, y, c) = f(x - 1, y + 1, c) + f(x, y - 1, c);
        f.store_root().compute_at(g, y).fold_storage(y, 3);
        if (interleave) {
            f.reorder(c, x, y).reorder_storage(c, x, y);
            g.reorder(c, x, y).reorder_storage(c, x, y);
        }
        Buffer<int32_t> out = realize_counting(g, {100, 1000, 3});
        EXPECT_EQ(heap_sizes, (std::multiset<size_t>{size_t(101 * 3 * (interleave ? 3 : 1) * 4)})) << interleave;
        auto rf = [](int i, int j, int k) { return i + 2 * j + 7 * k; };
        for (int k = 0; k < 3; k++) {
            for (int j = 0; j < 1000; j += 37) {
                for (int i = 0; i < 100; i++) {
                    ASSERT_EQ(out(i, j, k), rf(i - 1, j + 1, k) + rf(i, j - 1, k)) << i << ", " << j << ", " << k;
                }
            }
        }
    }
}

TEST(StorageFolding, DisjointFootprintsFoldToAConstantSizeOffTheHeap) {
    // Each pixel of f reads a 2 x 2 (or 4 x 2) block of g that no other
    // pixel reads: upstream folds both dimensions and allocates nothing on
    // the heap; ours kept whole rows (16000 and 8024 bytes).
    Var x("x"), y("y");
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(2 * x, 2 * y) + g(2 * x + 1, 2 * y + 1);
        g.compute_at(f, x).store_root();
        Buffer<int32_t> out = realize_counting(f, {1000, 1000});
        EXPECT_TRUE(heap_sizes.empty()) << *heap_sizes.begin();
        for (int j = 0; j < 1000; j += 7) {
            for (int i = 0; i < 1000; i++) {
                ASSERT_EQ(out(i, j), (2 * i) * (2 * j) + (2 * i + 1) * (2 * j + 1)) << i << ", " << j;
            }
        }
    }
    {
        Func f("f"), g("g");
        g(x, y) = x * y;
        f(x, y) = g(x, 2 * y) + g(x + 3, 2 * y + 1);
        g.compute_at(f, x).store_root();
        Buffer<int32_t> out = realize_counting(f, {1000, 1000});
        EXPECT_TRUE(heap_sizes.empty()) << *heap_sizes.begin();
        for (int j = 0; j < 1000; j += 7) {
            for (int i = 0; i < 1000; i++) {
                ASSERT_EQ(out(i, j), i * (2 * j) + (i + 3) * (2 * j + 1)) << i << ", " << j;
            }
        }
    }
}
