// Storage folding (lower/StorageFolding.cpp): the pass on hand-built
// statements, Func::fold_storage's checks, and folded pipelines against
// plain C++ references.
#include <gtest/gtest.h>

#include <algorithm>

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

Expr i32(int v) {
    return IntImm::make(Int(32), v);
}

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
    f.storage_folds["v1"] = {i32(2), true}; // too small for 3 rows
    EXPECT_THROW(storage_folding(line_buffer(var("y") + 1), env), CompileError);
    f.storage_folds["v1"] = {i32(4), false}; // the rows move forwards
    EXPECT_THROW(storage_folding(line_buffer(var("y") + 1), env), CompileError);
    // A span that is not a constant: checked in each iteration.
    f.storage_folds["v1"] = {i32(8), true};
    Stmt s = line_buffer(var("y") + var("k"));
    text = printed(storage_folding(s, env));
    EXPECT_NE(text.find("halide_error_fold_factor_too_small"), std::string::npos) << text;
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

TEST(StorageFolding, FoldStorageByHand) {
    // Explicit folds: exact (3 rows), larger (8), backwards over a flipped
    // consumer, and too small (a compile error naming the fold).
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
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("fold factor (2)"), std::string::npos) << e.what();
    }
    EXPECT_THROW(f.fold_storage(y, 0), CompileError);
    EXPECT_THROW(f.fold_storage(Var("z"), 4), CompileError);
}
