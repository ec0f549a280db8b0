// Func::prefetch (lower/Prefetch.cpp, codegen/CodeGen_LLVM_Prefetch.cpp):
// the pass on hand-built statements (where the prefetch goes, the region it
// names, evaluated at chosen points, under each strategy), then whole
// pipelines: prefetcht0 in the x86 assembly, and results equal to plain C++
// with every strategy, where the prefetched rows run past the input's edge.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "Halide/Simplify.h"
#include "ir/Substitute.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Prefetch.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Func f with one prefetch of `name` in its schedule.
Environment env_with_prefetch(const std::string &name, const std::string &at, const std::string &from, int offset,
                              PrefetchBoundStrategy strategy) {
    auto f = std::make_shared<FunctionContents>();
    f->name = "f";
    f->args = {"x", "y"};
    f->values = {i32(0)};
    f->prefetches.push_back({0, name, at, from, i32(offset), strategy});
    return {{"f", f}};
}

// for y: for x: f(x, y) = g(x, y) + g(x + 1, y), g an input buffer.
Stmt rows_reading_g() {
    Expr x = var("f.s0.x"), y = var("f.s0.y");
    Expr g0 = Call::make(Float(32), "g", {x, y}, Call::Image);
    Expr g1 = Call::make(Float(32), "g", {x + 1, y}, Call::Image);
    Stmt inner =
        For::make("f.s0.x", var("f.min.0"), var("f.extent.0"), ForType::Serial, Provide::make("f", {g0 + g1}, {x, y}));
    return For::make("f.s0.y", var("f.min.1"), var("f.extent.1"), ForType::Serial, inner);
}

// The prefetch calls in s, and the conditions guarding them.
struct Found : IRVisitor {
    std::vector<const Call *> prefetches;
    std::vector<Expr> guards;
    std::vector<std::string> loops; // the loops around the first prefetch, outermost first
    using IRVisitor::visit;
    void visit(const For *op) override {
        around.push_back(op->name);
        IRVisitor::visit(op);
        around.pop_back();
    }
    void visit(const IfThenElse *op) override {
        guards.push_back(op->condition);
        IRVisitor::visit(op);
    }
    void visit(const Call *op) override {
        if (op->call_type == Call::Intrinsic && op->name == kPrefetchIntrinsic) {
            if (prefetches.empty()) {
                loops = around;
            }
            prefetches.push_back(op);
        }
        IRVisitor::visit(op);
    }
    std::vector<std::string> around;
};

Found find(const Stmt &s) {
    Found f;
    s.accept(&f);
    return f;
}

// e at the given values of its variables, which must make it a constant.
int64_t at(const Expr &e, const std::map<std::string, Expr> &values) {
    Expr v = simplify(substitute(values, e));
    const int64_t *c = as_const_int(v);
    if (!c && v.type().is_bool()) {
        // A condition: true or false.
        if (is_const_one(v)) {
            return 1;
        }
        if (is_const_zero(v)) {
            return 0;
        }
    }
    EXPECT_TRUE(c != nullptr) << e << " is not constant at those values: " << v;
    return c ? *c : -999999;
}

// A 16 x 10 output reading a 17 x 10 input g (x + 1 reaches its last column).
std::map<std::string, Expr> sizes(int y, int x = 0) {
    return {{"f.min.0", i32(0)}, {"f.extent.0", i32(16)}, {"f.min.1", i32(0)}, {"f.extent.1", i32(10)},
            {"g.min.0", i32(0)}, {"g.extent.0", i32(17)}, {"g.min.1", i32(0)}, {"g.extent.1", i32(10)},
            {"f.s0.y", i32(y)},  {"f.s0.x", i32(x)}};
}

} // namespace

TEST(PrefetchPass, NonFaultingPrefetchesTheRowTwoIterationsAhead) {
    Stmt before = rows_reading_g();
    Stmt after = inject_prefetches(before, env_with_prefetch("g", "y", "y", 2, PrefetchBoundStrategy::NonFaulting));
    Found f = find(after);
    ASSERT_EQ(f.prefetches.size(), 1u) << after;
    EXPECT_TRUE(f.guards.empty()) << after;
    // In the loop over y, before (outside) the loop over x.
    EXPECT_EQ(f.loops, std::vector<std::string>{"f.s0.y"}) << after;
    const Block *body = after.as<For>()->body.as<Block>();
    ASSERT_TRUE(body && body->first.as<Evaluate>()) << after;
    // prefetch(g(x0, y0), width, height): row y + 2, columns [f.min.0, f.max.0 + 1].
    const Call *p = f.prefetches[0];
    ASSERT_EQ(p->args.size(), 3u) << after;
    const Call *start = p->args[0].as<Call>();
    ASSERT_TRUE(start && start->name == "g" && start->call_type == Call::Image) << after;
    EXPECT_EQ(p->type, Float(32));
    EXPECT_EQ(at(start->args[0], sizes(3)), 0);
    EXPECT_EQ(at(start->args[1], sizes(3)), 5);
    EXPECT_EQ(at(p->args[1], sizes(3)), 17);
    EXPECT_EQ(at(p->args[2], sizes(3)), 1);
    // Past the edge (row 11 of 10) it stays as it is: prefetches do not fault.
    EXPECT_EQ(at(start->args[1], sizes(9)), 11);
    EXPECT_EQ(at(p->args[2], sizes(9)), 1);
}

TEST(PrefetchPass, GuardWithIfSkipsRegionsOutsideTheBuffer) {
    Stmt after =
        inject_prefetches(rows_reading_g(), env_with_prefetch("g", "y", "y", 2, PrefetchBoundStrategy::GuardWithIf));
    Found f = find(after);
    ASSERT_EQ(f.prefetches.size(), 1u) << after;
    ASSERT_EQ(f.guards.size(), 1u) << after;
    EXPECT_EQ(at(f.guards[0], sizes(7)), 1) << f.guards[0]; // row 9: the last one
    EXPECT_EQ(at(f.guards[0], sizes(8)), 0) << f.guards[0]; // row 10: outside
    // A buffer one column short of what the row reads: outside too.
    auto narrow = sizes(0);
    narrow["g.extent.0"] = i32(16);
    EXPECT_EQ(at(f.guards[0], narrow), 0) << f.guards[0];
    // A buffer starting at row 3: rows 1 and 2 are outside.
    auto later = sizes(0);
    later["g.min.1"] = i32(3);
    EXPECT_EQ(at(f.guards[0], later), 0) << f.guards[0];
    later["f.s0.y"] = i32(1);
    EXPECT_EQ(at(f.guards[0], later), 1) << f.guards[0];
}

TEST(PrefetchPass, ClampCutsTheRegionToTheBuffer) {
    Stmt after = inject_prefetches(rows_reading_g(), env_with_prefetch("g", "y", "y", 1, PrefetchBoundStrategy::Clamp));
    Found f = find(after);
    ASSERT_EQ(f.prefetches.size(), 1u) << after;
    EXPECT_TRUE(f.guards.empty()) << after;
    const Call *p = f.prefetches[0];
    const Call *start = p->args[0].as<Call>();
    ASSERT_TRUE(start) << after;
    // Row 4 whole (17 columns); row 10 (from the last iteration) is empty.
    EXPECT_EQ(at(start->args[1], sizes(3)), 4);
    EXPECT_EQ(at(p->args[1], sizes(3)), 17);
    EXPECT_EQ(at(p->args[2], sizes(3)), 1);
    EXPECT_LE(at(p->args[2], sizes(9)), 0);
    // A buffer of 12 columns from column 2: columns [2, 13] only.
    auto cut = sizes(3);
    cut["g.min.0"] = i32(2);
    cut["g.extent.0"] = i32(12);
    EXPECT_EQ(at(start->args[0], cut), 2);
    EXPECT_EQ(at(p->args[1], cut), 12);
}

TEST(PrefetchPass, FromAnOuterLoopShiftsTheLetsBetween) {
    // for xo: let base = f.min.0 + xo * 8; for xi in [0, 8): f(base + xi) = g(base + xi)
    Expr base = var("f.s0.x.base"), xi = var("f.s0.xi");
    Stmt inner = For::make("f.s0.xi", i32(0), i32(8), ForType::Serial,
                           Provide::make("f", {Call::make(Int(32), "g", {base + xi}, Call::Image)}, {base + xi}));
    Stmt s = For::make("f.s0.xo", i32(0), i32(4), ForType::Serial,
                       LetStmt::make("f.s0.x.base", var("f.min.0") + var("f.s0.xo") * 8, inner));
    Stmt after = inject_prefetches(s, env_with_prefetch("g", "xi", "xo", 1, PrefetchBoundStrategy::NonFaulting));
    Found f = find(after);
    ASSERT_EQ(f.prefetches.size(), 1u) << after;
    EXPECT_EQ(f.loops, (std::vector<std::string>{"f.s0.xo", "f.s0.xi"})) << after;
    // In iteration (xo, xi) the element base + xi of the next xo: min + (xo + 1) * 8 + xi.
    const Call *start = f.prefetches[0]->args[0].as<Call>();
    ASSERT_TRUE(start) << after;
    std::map<std::string, Expr> point = {{"f.min.0", i32(5)}, {"f.s0.xo", i32(2)}, {"f.s0.xi", i32(3)}};
    EXPECT_EQ(at(start->args[0], point), 5 + 24 + 3) << after;
    EXPECT_EQ(at(f.prefetches[0]->args[1], point), 1) << after;
}

TEST(PrefetchPass, FromInsideAtIsAnError) {
    Stmt s = rows_reading_g();
    try {
        inject_prefetches(s, env_with_prefetch("g", "y", "x", 1, PrefetchBoundStrategy::GuardWithIf));
        FAIL() << "expected a CompileError";
    } catch (const CompileError &e) {
        EXPECT_NE(std::string(e.what()).find("Prefetch 'from' variable 'x' could not be found in an active loop"),
                  std::string::npos)
            << e.what();
    }
}

TEST(PrefetchPass, NothingWhereTheLoopIsMissingOrDoesNotRead) {
    Stmt s = rows_reading_g();
    // No loop z (as upstream: ignored).
    Stmt a = inject_prefetches(s, env_with_prefetch("g", "z", "z", 1, PrefetchBoundStrategy::GuardWithIf));
    EXPECT_TRUE(find(a).prefetches.empty()) << a;
    // h is not read in the loop (a warning, no prefetch).
    Stmt b = inject_prefetches(s, env_with_prefetch("h", "y", "y", 1, PrefetchBoundStrategy::GuardWithIf));
    EXPECT_TRUE(find(b).prefetches.empty()) << b;
}

namespace {

// f(x, y) = g(x, y) + 2 g(x + 1, y) + h(x, y + 1) with h(x, y) = g(x, y) * 3
// computed at root, over a w x h output from a (w + 1) x (h + 1) input.
struct Prefetching {
    ImageParam g{Int(32), 2, "g"};
    Var x{"x"}, y{"y"};
    Func h{"h"}, f{"f"};
    Prefetching(PrefetchBoundStrategy s, bool parallel, bool prefetch = true) {
        h(x, y) = g(x, y) * 3;
        f(x, y) = g(x, y) + 2 * g(x + 1, y) + h(x, y + 1);
        h.compute_root();
        f.vectorize(x, 8);
        if (parallel) {
            f.parallel(y);
        }
        if (prefetch) {
            f.prefetch(g, y, y, 2, s); // two rows ahead: runs past the input's last rows
            f.prefetch(h, x, y, 1, s); // the next row of h, from inside the loop over x
            h.prefetch(g, y, y, 3, s); // and g's rows from h's loop
        }
    }
};

Buffer<int32_t> reference(const Buffer<int32_t> &in, int w, int hgt) {
    Buffer<int32_t> out(w, hgt);
    for (int yy = 0; yy < hgt; yy++) {
        for (int xx = 0; xx < w; xx++) {
            out(xx, yy) = in(xx, yy) + 2 * in(xx + 1, yy) + in(xx, yy + 1) * 3;
        }
    }
    return out;
}

std::string text_of(const std::string &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

} // namespace

TEST(PrefetchCodegen, AssemblyHasPrefetcht0) {
    Prefetching p(PrefetchBoundStrategy::GuardWithIf, false);
    std::string path = ::testing::TempDir() + "prefetch_test.s";
    p.f.compile_to_assembly(path, {p.g}, "f", Target("x86-64-linux-sse41-avx-avx2"));
    std::string s = text_of(path);
    EXPECT_NE(s.find("prefetcht0"), std::string::npos);
    // Without the schedule's prefetches, none.
    Prefetching plain(PrefetchBoundStrategy::GuardWithIf, false, false);
    plain.f.compile_to_assembly(path, {plain.g}, "f", Target("x86-64-linux-sse41-avx-avx2"));
    EXPECT_EQ(text_of(path).find("prefetcht0"), std::string::npos);
}

TEST(PrefetchCodegen, ResultsUnchangedWithEveryStrategy) {
    const int w = 37, hgt = 13;
    Buffer<int32_t> in = ramp_input(w + 1, hgt + 1);
    Buffer<int32_t> want = reference(in, w, hgt);
    for (auto s :
         {PrefetchBoundStrategy::GuardWithIf, PrefetchBoundStrategy::Clamp, PrefetchBoundStrategy::NonFaulting}) {
        for (bool parallel : {false, true}) {
            Prefetching p(s, parallel);
            p.g.set(in);
            Buffer<int32_t> out = p.f.realize({w, hgt});
            for (int yy = 0; yy < hgt; yy++) {
                for (int xx = 0; xx < w; xx++) {
                    ASSERT_EQ(out(xx, yy), want(xx, yy))
                        << "strategy " << (int)s << (parallel ? " parallel" : "") << " at " << xx << ", " << yy;
                }
            }
            std::string stmt = lowered(p.f, {p.g}, "prefetch_test");
            EXPECT_GE(count(stmt, "prefetch(g.host"), 2) << stmt;
            EXPECT_GE(count(stmt, "prefetch(h.host"), 1) << stmt;
        }
    }
}

TEST(PrefetchCodegen, CBackendPrefetchesToo) {
    Prefetching p(PrefetchBoundStrategy::Clamp, false);
    std::string path = ::testing::TempDir() + "prefetch_test.cpp";
    p.f.compile_to_c(path, {p.g}, "f");
    std::string c = text_of(path);
    EXPECT_NE(c.find("h_prefetch((const char *)"), std::string::npos);
    EXPECT_NE(c.find("__builtin_prefetch"), std::string::npos);
}

TEST(PrefetchCodegen, AtAVectorizedLoopCoversEveryLane) {
    const int n = 64;
    Buffer<int32_t> in(n + 3);
    for (int i = 0; i < n + 3; i++) {
        in(i) = i * 7 - 100;
    }
    for (auto s :
         {PrefetchBoundStrategy::GuardWithIf, PrefetchBoundStrategy::Clamp, PrefetchBoundStrategy::NonFaulting}) {
        ImageParam g(Int(32), 1, "g");
        Var x("x"), xo("xo"), xi("xi");
        Func f("f");
        f(x) = g(x) + g(x + 3);
        f.split(x, xo, xi, 8).vectorize(xi);
        f.prefetch(g, xi, xo, 2, s);
        g.set(in);
        Buffer<int32_t> out = f.realize({n});
        for (int i = 0; i < n; i++) {
            ASSERT_EQ(out(i), in(i) + in(i + 3)) << (int)s << " at " << i;
        }
        std::string stmt = lowered(f, {g}, "prefetch_vectorized");
        if (s == PrefetchBoundStrategy::NonFaulting) {
            // Before the vector loop: elements [x + 16, x + 16 + 7 + 3], 11 of them.
            EXPECT_GE(count(stmt, ", 11, 1)"), 1) << stmt;
        }
        EXPECT_GE(count(stmt, "prefetch(g.host"), 1) << stmt; // in each part partition_loops makes
    }
}
