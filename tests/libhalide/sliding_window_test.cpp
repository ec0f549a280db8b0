// Sliding window (lower/SlidingWindow.cpp): the pass on hand-built
// statements (which regions slide, what the slid bound evaluates to), the
// rows a line-buffered producer computes (counted with print_when), and
// line-buffered pipelines against plain C++ references.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <vector>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "Halide/Simplify.h"
#include "HalideRuntime.h"
#include "ir/Substitute.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"
#include "pipeline_fixtures.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// A pure Func named `name` of `dims` arguments, for the environment.
Environment env_with(const std::string &name, int dims, bool with_update = false) {
    auto f = std::make_shared<FunctionContents>();
    f->name = name;
    for (int d = 0; d < dims; d++) {
        f->args.push_back("v" + std::to_string(d));
    }
    f->values = {i32(0)};
    if (with_update) {
        f->updates.emplace_back();
    }
    return {{name, f}};
}

// let f.c.min.d = min_d; let f.c.max.d = max_d; let f.c.extent.d = ... (d = 0 outermost) around body.
Stmt region_lets(const std::string &f, const std::vector<std::pair<Expr, Expr>> &dims, Stmt body) {
    for (size_t d = dims.size(); d-- > 0;) {
        std::string s = "." + std::to_string(d);
        Expr extent = Max::make(var(f + ".c.max" + s) - var(f + ".c.min" + s) + 1, 0);
        body = LetStmt::make(f + ".c.extent" + s, extent, body);
        body = LetStmt::make(f + ".c.max" + s, dims[d].second, body);
        body = LetStmt::make(f + ".c.min" + s, dims[d].first, body);
    }
    return body;
}

// The computation of f over its region and a consumer's read of it.
Stmt produce_and_consume(const std::string &f) {
    Stmt produce = For::make(f + ".s0.v1", var(f + ".c.min.1"), var(f + ".c.extent.1"), ForType::Serial,
                             Provide::make(f, {var(f + ".s0.v1")}, {i32(0), var(f + ".s0.v1")}));
    Stmt consume = Evaluate::make(Call::make(Int(32), f, {i32(0), var("y")}, Call::Halide));
    return Block::make(produce, consume);
}

// for (y, 0, 100) { region of f (dimension 1 from `dims`); produce and consume }, f stored outside.
Stmt line_buffer(const std::pair<Expr, Expr> &rows, ForType type = ForType::Serial, bool stored_outside = true) {
    Stmt body = region_lets("f", {{i32(0), i32(9)}, rows}, produce_and_consume("f"));
    auto realize = [](Stmt s) { return Realize::make("f", {Int(32)}, {{i32(0), i32(10)}, {i32(-5), i32(110)}}, s); };
    if (!stored_outside) {
        body = realize(body);
    }
    Stmt loop = For::make("y", i32(0), i32(100), type, body);
    return stored_outside ? realize(loop) : loop;
}

// The value of let `name` in s with y = `at`.
Expr let_value(const Stmt &s, const std::string &name, int at) {
    class Find : public IRVisitor {
    public:
        std::string name;
        Expr value;
        using IRVisitor::visit;
        void visit(const LetStmt *op) override {
            if (op->name == name) {
                value = op->value;
            }
            IRVisitor::visit(op);
        }
    } find;
    find.name = name;
    find.include(s);
    EXPECT_TRUE(find.value.defined()) << name;
    return simplify(substitute({{"y", i32(at)}}, find.value));
}

// The value of let `name` in s with the variables in `at` set.
Expr let_value_at(const Stmt &s, const std::string &name, const std::map<std::string, int> &at) {
    std::map<std::string, Expr> values;
    for (const auto &[v, i] : at) {
        values[v] = i32(i);
    }
    Expr found = let_value(s, name, at.count("y") ? at.at("y") : 0);
    return found.defined() ? simplify(substitute(values, found)) : found;
}

int as_int(const Expr &e) {
    const IntImm *i = e.as<IntImm>();
    EXPECT_NE(i, nullptr) << e;
    return i ? (int)i->value : -12345;
}

} // namespace

TEST(SlidingWindow, RowsAfterTheFirstIterationStartPastThePreviousMax) {
    Stmt before = line_buffer({var("y") - 1, var("y") + 1});
    Stmt after = sliding_window(before, env_with("f", 2));
    EXPECT_FALSE(after.same_as(before));
    // First iteration: the whole region [-1, 1]; then one new row each: [y + 1, y + 1].
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 0)), -1) << printed(after);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 1)), 2);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 57)), 58);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 57)), 58);
    // The other dimension does not move: untouched.
    EXPECT_EQ(as_int(let_value(after, "f.c.min.0", 57)), 0);
}

TEST(SlidingWindow, StridedRegionsSlideByTheirStride) {
    // Rows [2y - 1, 2y + 2] (a downsample's stencil): two new rows a step
    // (y = 9 computed up to row 20).
    Stmt after = sliding_window(line_buffer({var("y") * 2 - 1, var("y") * 2 + 2}), env_with("f", 2));
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 0)), -1);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 10)), 21);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 10)), 22);
}

// A vectorized producer's region widened to a vector of 4 downwards from
// its max (ScheduleFunctions): select(max >= min, min(min, max - 3), min).
std::pair<Expr, Expr> widened_to_4(const Expr &min, const Expr &max) {
    return {Select::make(GE::make(max, min), Min::make(min, Sub::make(max, i32(3))), min), max};
}

TEST(SlidingWindow, AWidenedRegionSlidesAndStaysOneVectorWide) {
    // A consumer vectorized by 4 reading f(x - 1) and f(x + 1): rows
    // [4y - 1, 4y + 4], already a vector wide. The select hid that the min
    // grows with y: nothing slid before. Now: after the first iteration,
    // the 4 new rows [4y + 1, 4y + 4].
    Stmt before = line_buffer(widened_to_4(var("y") * 4 - 1, var("y") * 4 + 4));
    Stmt after = sliding_window(before, env_with("f", 2));
    EXPECT_FALSE(after.same_as(before)) << printed(after);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 0)), -1) << printed(after);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 1)), 5);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 57)), 229);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 57)), 232);
    // A consumer moving by 2 ([2y - 1, 2y + 2]): 2 new rows, but the
    // region stays a vector of 4 wide ([2y - 1, 2y + 2] again), so the
    // producer's shifted last vector stays inside it.
    after = sliding_window(line_buffer(widened_to_4(var("y") * 2 - 1, var("y") * 2 + 2)), env_with("f", 2));
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 0)), -1) << printed(after);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 10)), 19);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 10)), 22);
    // An empty region keeps its min (the select's other side).
    after = sliding_window(line_buffer(widened_to_4(var("y") * 4 + 5, var("y") * 4 + 4)), env_with("f", 2));
    Expr empty_min = let_value(after, "f.c.min.1", 3);
    Expr empty_max = let_value(after, "f.c.max.1", 3);
    EXPECT_LT(as_int(empty_max), as_int(empty_min)) << printed(after);
    // Moving down, the max would be lowered under a min widened from the
    // max before it: left alone.
    Stmt down = line_buffer(widened_to_4(0 - var("y") * 4 - 1, 4 - var("y") * 4));
    EXPECT_TRUE(sliding_window(down, env_with("f", 2)).same_as(down));
}

TEST(SlidingWindow, DecreasingRegionsLowerTheMax) {
    Stmt after = sliding_window(line_buffer({0 - var("y") - 1, 1 - var("y")}), env_with("f", 2));
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 0)), 1);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.1", 5)), -6); // rows down to -5 were computed at y = 4
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 5)), -6);
}

TEST(SlidingWindow, LeftAloneWhenNothingCanBeReused) {
    Environment env = env_with("f", 2);
    std::pair<Expr, Expr> rows{var("y") - 1, var("y") + 1};
    for (Stmt s : {line_buffer(rows, ForType::Parallel), line_buffer(rows, ForType::Vectorized),
                   line_buffer(rows, ForType::Serial, false),                   // stored inside the loop
                   line_buffer({var("y") * var("y"), var("y") * var("y") + 1}), // not provably monotonic
                   line_buffer({var("y") - 1, 5 - var("y")})}) {                // ends move apart
        Stmt after = sliding_window(s, env);
        EXPECT_TRUE(after.same_as(s)) << printed(after);
    }
    // Two dimensions moving with the loop; a Func with an update definition.
    Stmt both = Realize::make("f", {Int(32)}, {{i32(0), i32(200)}, {i32(-5), i32(110)}},
                              For::make("y", i32(0), i32(100), ForType::Serial,
                                        region_lets("f", {{var("y"), var("y") + 2}, {var("y") - 1, var("y") + 1}},
                                                    produce_and_consume("f"))));
    EXPECT_TRUE(sliding_window(both, env).same_as(both));
    Stmt s = line_buffer(rows);
    EXPECT_TRUE(sliding_window(s, env_with("f", 2, true)).same_as(s));
}

TEST(SlidingWindow, ARegionTheSameEveryIterationIsComputedByTheFirstOnly) {
    Stmt after = sliding_window(line_buffer({i32(0), i32(9)}), env_with("f", 2));
    // Dimension 0 slides past its max after the first iteration: an empty region.
    EXPECT_EQ(as_int(let_value(after, "f.c.min.0", 0)), 0);
    EXPECT_EQ(as_int(let_value(after, "f.c.max.0", 0)), 9);
    for (int y : {1, 5, 99}) {
        EXPECT_EQ(as_int(let_value(after, "f.c.min.0", y)), 10) << y;
        EXPECT_EQ(as_int(let_value(after, "f.c.max.0", y)), 9) << y;
    }
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 7)), 0); // the other dimension is left alone
}

namespace {

// f's region bound inside the consumer's loop over x (bounds that do not
// depend on y), f stored outside both: f(x - 1, y) + f(x, y) + f(x, y - 1)
// computed at x, as upstream's sliding_window test has it.
Stmt two_loops(const Expr &x_min, const Expr &x_extent, bool branch_on_y = false) {
    Stmt body = region_lets("f", {{var("x") - 1, var("x")}, {var("y") - 1, var("y")}}, produce_and_consume("f"));
    if (branch_on_y) {
        body = IfThenElse::make(var("y") < 50, body);
    }
    Stmt x_loop = For::make("x", x_min, x_extent, ForType::Serial, body);
    return Realize::make("f", {Int(32)}, {{i32(-1), i32(11)}, {i32(-1), i32(101)}},
                         For::make("y", i32(0), i32(100), ForType::Serial, x_loop));
}

} // namespace

TEST(SlidingWindow, ARegionInsideAnInnerLoopSlidesAlongBothLoops) {
    Stmt after = sliding_window(two_loops(i32(0), i32(10)), env_with("f", 2));
    // Along x within a row: the first x computes [-1, 0], the others their own column.
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.0", {{"y", 4}, {"x", 0}})), -1) << printed(after);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.0", {{"y", 4}, {"x", 6}})), 6);
    // Along y across rows (the x loop runs the same iterations every row):
    // the first row computes rows [-1, 0], the others their own row.
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"y", 0}, {"x", 3}})), -1);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"y", 7}, {"x", 3}})), 7);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.max.1", {{"y", 7}, {"x", 3}})), 7);
}

TEST(SlidingWindow, AnInnerLoopWhoseBoundsMoveWithTheOuterOneIsNotEntered) {
    // x over [y, y + 10): the columns computed differ from row to row, so
    // rows are not slid along y (x still slides within a row).
    Stmt after = sliding_window(two_loops(var("y"), i32(10)), env_with("f", 2));
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"y", 7}, {"x", 9}})), 6) << printed(after);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.0", {{"y", 7}, {"x", 9}})), 9);
    // A branch on y: the previous row may not have computed anything.
    after = sliding_window(two_loops(i32(0), i32(10), true), env_with("f", 2));
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"y", 7}, {"x", 3}})), 6) << printed(after);
}

TEST(SlidingWindow, ALoopOfOneIterationIsTheLetOfItsMin) {
    // f computed at g's x, g computed at h's x (g's loop: [hx, hx]): f
    // slides along h's loop, as upstream's (101 values of f for 100 of h).
    Stmt body = region_lets("f", {{i32(0), i32(9)}, {var("gx") - 1, var("gx")}}, produce_and_consume("f"));
    Stmt g_loop = For::make("gx", var("hx"), i32(1), ForType::Serial, body);
    Stmt s = Realize::make("f", {Int(32)}, {{i32(0), i32(10)}, {i32(-1), i32(101)}},
                           For::make("hx", i32(0), i32(100), ForType::Serial, g_loop));
    Stmt after = sliding_window(s, env_with("f", 2));
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"hx", 0}, {"gx", 0}})), -1) << printed(after);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"hx", 5}, {"gx", 5}})), 5);
    // More than one iteration: g's loop is entered only when its bounds do not move with h's.
    Stmt wide = Realize::make(
        "f", {Int(32)}, {{i32(0), i32(10)}, {i32(-1), i32(101)}},
        For::make("hx", i32(0), i32(100), ForType::Serial, For::make("gx", var("hx"), i32(2), ForType::Serial, body)));
    after = sliding_window(wide, env_with("f", 2));
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"hx", 5}, {"gx", 6}})), 6) << printed(after);
    EXPECT_EQ(as_int(let_value_at(after, "f.c.min.1", {{"hx", 5}, {"gx", 5}})), 4); // first gx: not slid along hx
}

namespace {

// f with one update definition whose dimension-1 argument is `row` (and
// which reads f at `read_row` there).
Environment env_with_update(const Expr &row, const Expr &read_row) {
    Environment env = env_with("f", 2);
    UpdateDefinition u;
    u.args = {var("r"), row};
    const Variable *v = row.as<Variable>();
    u.pure_vars = {"", v && v->name == "v1" ? "v1" : ""};
    u.values = {Call::make(Int(32), "f", {var("r"), read_row}, Call::Halide) + 1};
    env["f"]->updates.push_back(u);
    return env;
}

} // namespace

TEST(SlidingWindow, UpdatesThatKeepRowsApartSlide) {
    std::pair<Expr, Expr> rows{var("y") - 1, var("y")};
    Stmt s = line_buffer(rows);
    // f(r, y) = f(r, y) + 1: each stage computes only the new row.
    Stmt after = sliding_window(s, env_with_update(var("v1"), var("v1")));
    EXPECT_FALSE(after.same_as(s));
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 0)), -1) << printed(after);
    EXPECT_EQ(as_int(let_value(after, "f.c.min.1", 8)), 8);
    // Reading another row, or writing at a row that is not the pure Var: left alone.
    EXPECT_TRUE(sliding_window(s, env_with_update(var("v1"), var("v1") - 1)).same_as(s));
    EXPECT_TRUE(sliding_window(s, env_with_update(var("r"), var("r"))).same_as(s));
}

// ----- pipelines -----

namespace {

int lines_printed = 0;
void count_print(void *, const char *) {
    lines_printed++;
}

} // namespace

TEST(SlidingWindow, ALineBufferComputesEachRowOnce) {
    // blur_x prints once per row it computes (at x == 0): h + 2 rows slid,
    // 3h without sliding.
    const int w = 20, h = 30;
    Buffer<int32_t> in = ramp_input(w + 2, h + 2);
    in->set_min(-1, -1);
    Var x("x"), y("y");
    Func blur_x("blur_x"), out("out");
    blur_x(x, y) = print_when(x == 0, in(x - 1, y) + in(x, y) + in(x + 1, y), "row", y);
    out(x, y) = blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1);
    blur_x.store_root().compute_at(out, y);
    halide_print_t old = halide_set_custom_print(count_print);
    lines_printed = 0;
    Buffer<int32_t> result = out.realize({w, h});
    halide_set_custom_print(old);
    EXPECT_EQ(lines_printed, h + 2);
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            int ref = 0;
            for (int dy = -1; dy <= 1; dy++) {
                ref += in(i - 1, j + dy) + in(i, j + dy) + in(i + 1, j + dy);
            }
            ASSERT_EQ(result(i, j), ref) << i << ", " << j;
        }
    }
    // Computed where it is stored: every row three times.
    Func blur_x2("blur_x2"), out2("out2");
    blur_x2(x, y) = print_when(x == 0, in(x, y), "row", y);
    out2(x, y) = blur_x2(x, y - 1) + blur_x2(x, y) + blur_x2(x, y + 1);
    blur_x2.compute_at(out2, y);
    old = halide_set_custom_print(count_print);
    lines_printed = 0;
    out2.realize({w, h});
    halide_set_custom_print(old);
    EXPECT_EQ(lines_printed, 3 * h);
}

// A producer stored outside the consumer's loop whose region does not
// depend on it (upstream's test sliding_window: g(x) = f(0) + f(5)) is
// computed once, by the first iteration.
TEST(SlidingWindow, AFixedFootprintIsComputedOnce) {
    Var x("x");
    Func f("fixed_footprint"), g("fixed_footprint_reader");
    f(x) = print_when(x >= 0, x * 7, "computed", x);
    g(x) = f(0) + f(5) + x;
    f.store_root().compute_at(g, x);
    halide_print_t old = halide_set_custom_print(count_print);
    lines_printed = 0;
    Buffer<int32_t> out = g.realize({100});
    halide_set_custom_print(old);
    EXPECT_EQ(lines_printed, 6);
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(out(i), 0 + 35 + i) << i;
    }
}

TEST(SlidingWindow, SplitConsumerSlidesWithinEachStrip) {
    // compute_at the inner loop of a split of 8: each strip starts with the
    // full 3 rows, then one per row: (8 + 2) per strip of 8 rows.
    const int w = 16, h = 32;
    Buffer<int32_t> in = ramp_input(w, h + 2);
    in->set_min(0, -1);
    Var x("x"), y("y"), yo("yo"), yi("yi");
    Func f("f"), out("out");
    f(x, y) = print_when(x == 0, in(x, y) * 3, "row", y);
    out(x, y) = f(x, y - 1) + 2 * f(x, y) + f(x, y + 1);
    out.split(y, yo, yi, 8).vectorize(x, 8);
    f.store_root().compute_at(out, yi);
    halide_print_t old = halide_set_custom_print(count_print);
    lines_printed = 0;
    Buffer<int32_t> result = out.realize({w, h});
    halide_set_custom_print(old);
    EXPECT_EQ(lines_printed, (h / 8) * 10);
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(result(i, j), 3 * (in(i, j - 1) + 2 * in(i, j) + in(i, j + 1))) << i << ", " << j;
        }
    }
}

TEST(SlidingWindow, ChainsOfLineBuffersWithBoundaryConditions) {
    // Two line-buffered stages over a repeat_edge input, vectorized, at
    // several sizes (including fewer rows than the stencil).
    ImageParam im(Int(32), 2, "im");
    Var x("x"), y("y");
    Func c = BoundaryConditions::repeat_edge(im);
    Func a("a"), b("b"), out("out");
    a(x, y) = c(x, y - 1) + c(x, y) * 2 + c(x, y + 1);
    b(x, y) = a(x - 1, y) + a(x + 1, y) + a(x, y + 2);
    out(x, y) = b(x, y - 1) - b(x, y + 1);
    out.vectorize(x, 8, TailStrategy::GuardWithIf);
    b.store_root().compute_at(out, y).vectorize(x, 8);
    a.store_root().compute_at(out, y).vectorize(x, 8);
    for (auto [w, h] : {std::pair{37, 23}, std::pair{8, 1}, std::pair{3, 2}}) {
        Buffer<int32_t> in = ramp_input(w, h);
        im.set(in);
        auto at = [&](int i, int j) { return in(clampi(i, 0, w - 1), clampi(j, 0, h - 1)); };
        auto ra = [&](int i, int j) { return at(i, j - 1) + at(i, j) * 2 + at(i, j + 1); };
        auto rb = [&](int i, int j) { return ra(i - 1, j) + ra(i + 1, j) + ra(i, j + 2); };
        Buffer<int32_t> result = out.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(result(i, j), rb(i, j - 1) - rb(i, j + 1)) << i << ", " << j << " of " << w << "x" << h;
            }
        }
    }
}

namespace {

int computed = 0;
void count_computed(JITUserContext *, const char *) {
    computed++;
}

} // namespace

TEST(SlidingWindow, AnUnrolledProducerSlidesUnderGuards) {
    // Sliding makes the first strip's loop over f one longer than the
    // others (11, then 10): unrolled to 11 copies, each under
    // `if (i < extent)`, as upstream 21 does (ours refused: "Can only unroll
    // a loop of constant extent"). Values computed as upstream counts them:
    // w + 1, or the whole first strip's 11 for a narrower output.
    Var x("x"), xi("xi");
    for (auto [w, expected] : {std::pair{100, 101}, std::pair{95, 96}, std::pair{7, 11}}) {
        Func f("unrolled_f"), g("unrolled_g");
        f(x) = print_when(x >= -1000, x * x, "computed", x);
        g(x) = f(x) + f(x - 1);
        g.split(x, x, xi, 10);
        f.store_root().compute_at(g, x).unroll(x);
        g.jit_handlers().custom_print = count_computed;
        computed = 0;
        Buffer<int32_t> out = g.realize({w});
        EXPECT_EQ(computed, expected) << w;
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(out(i), i * i + (i - 1) * (i - 1)) << w << ": " << i;
        }
    }
}

// ----- counts of upstream's sliding_window test -----
// Each program below is a block of upstream's test (its producer counts
// its calls through an extern); the counts are the ones upstream 21
// passes with. Values against plain C++.

namespace {

int producer_calls = 0;

} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int sliding_window_counted(int x, int y) {
    producer_calls++;
    return x * 3 + y * 1000;
}
HalideExtern_2(int, sliding_window_counted, int, int);

TEST(SlidingWindow, AProducerStoredOutsideItsConsumersLoopSlidesAlongTheLoopAround) {
    // g computed at h's x (its own loop over one point), f stored at root
    // and computed at g's x: f slides along h's loop.
    Var x("x");
    Func f("nested_f"), g("nested_g"), h("nested_h");
    f(x) = sliding_window_counted(x, 0);
    g(x) = f(x) + f(x - 1);
    h(x) = g(x);
    f.store_root().compute_at(g, x);
    g.compute_at(h, x);
    producer_calls = 0;
    Buffer<int32_t> out = h.realize({100});
    EXPECT_EQ(producer_calls, 101);
    for (int i = 0; i < 100; i++) {
        ASSERT_EQ(out(i), i * 3 + (i - 1) * 3) << i;
    }
}

TEST(SlidingWindow, AProducerWithAnUpdateComputesOnlyTheNewRows) {
    // f(r, y) writes and reads its row only: both stages slide along g's y.
    Var x("x"), y("y");
    RDom r(0, 100);
    Func f("updated_f"), g("updated_g");
    f(x, y) = 0;
    f(r, y) = f(r, y) + sliding_window_counted(r, y);
    f.store_root().compute_at(g, y);
    g(x, y) = f(x, y) + f(x, y - 1);
    producer_calls = 0;
    Buffer<int32_t> out = g.realize({10, 10});
    EXPECT_EQ(producer_calls, 100 * 11);
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) {
            ASSERT_EQ(out(i, j), (i * 3 + j * 1000) + (i * 3 + (j - 1) * 1000)) << i << ", " << j;
        }
    }
}

TEST(SlidingWindow, AnUpdateSplitAlongTheSlidingDimensionSlides) {
    // f(x, y) += ... with the update's y split by 2 (its tail guarded):
    // each stage computes only the new row, 11 rows of 12 points, as upstream
    // 21 counts them (132; was 330, every row of the 3-row window each time).
    Var x("x"), y("y"), yi("yi");
    Func f("split_update_f"), g("split_update_g");
    f(x, y) = sliding_window_counted(x, y);
    f(x, y) += 1;
    g(x, y) = f(x, y - 1) + f(x, y + 1) + f(x + 1, y);
    f.update().split(y, y, yi, 2);
    f.store_root().compute_at(g, y);
    producer_calls = 0;
    Buffer<int32_t> out = g.realize({10, 10});
    EXPECT_EQ(producer_calls, 132);
    auto ref = [](int i, int j) { return i * 3 + j * 1000 + 1; };
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) {
            ASSERT_EQ(out(i, j), ref(i, j - 1) + ref(i, j + 1) + ref(i + 1, j)) << i << ", " << j;
        }
    }
}

TEST(SlidingWindow, ATwoDimensionalStencilComputedPerPointSlidesAlongBothLoops) {
    // f stored at root, computed at g's x: along x within a row, along y
    // across rows; every point of f's 11x11 region once.
    Var x("x"), y("y");
    Func f("per_point_f"), g("per_point_g");
    f(x, y) = sliding_window_counted(x, y);
    g(x, y) = f(x - 1, y) + f(x, y) + f(x, y - 1);
    f.store_root().compute_at(g, x);
    producer_calls = 0;
    Buffer<int32_t> out = g.realize({10, 10});
    EXPECT_EQ(producer_calls, 11 * 11);
    auto ref = [](int i, int j) { return i * 3 + j * 1000; };
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) {
            ASSERT_EQ(out(i, j), ref(i - 1, j) + ref(i, j) + ref(i, j - 1)) << i << ", " << j;
        }
    }
    // A split and reordered consumer (strips of 5 columns outermost): the
    // values as before, computed no more often than upstream 21 computes
    // them (385 times; ours slides along x within a strip and along y, and
    // recomputes the column before each strip: 132).
    Var xo("xo"), xi("xi");
    Func f2("per_point_f2"), g2("per_point_g2");
    f2(x, y) = sliding_window_counted(x, y);
    g2(x, y) = f2(x - 1, y) + f2(x, y) + f2(x, y - 1);
    g2.split(x, xo, xi, 5).reorder(xi, y, xo);
    f2.store_root().compute_at(g2, xi);
    producer_calls = 0;
    out = g2.realize({10, 10});
    EXPECT_LE(producer_calls, 385);
    for (int j = 0; j < 10; j++) {
        for (int i = 0; i < 10; i++) {
            ASSERT_EQ(out(i, j), ref(i - 1, j) + ref(i, j) + ref(i, j - 1)) << i << ", " << j;
        }
    }
}

namespace {

// The coordinates (min, extent per dimension) of each produce event of `func`.
std::vector<std::vector<int>> produced_regions;
std::string traced_func;
int record_produce(JITUserContext *, const halide_trace_event_t *e) {
    if (e->event == halide_trace_produce && traced_func == e->func) {
        produced_regions.emplace_back(e->coordinates, e->coordinates + e->dimensions);
    }
    return 0;
}

} // namespace

TEST(SlidingWindow, ProduceEventsGiveTheRegionComputedInEachIteration) {
    // The programs above at a small size, traced: each produce event of f
    // has the region computed in that iteration, as upstream 21 traces them
    // (upstream starts the loop one iteration early to compute the first
    // part, f over [-1, 0], in two events, (-1, 1) and (0, 1); ours
    // computes it in the first iteration).
    Var x("x"), y("y");
    Func f("traced_f"), g("traced_g"), h("traced_h");
    f(x) = sliding_window_counted(x, 0);
    g(x) = f(x) + f(x - 1);
    h(x) = g(x);
    f.store_root().compute_at(g, x).trace_realizations();
    g.compute_at(h, x);
    h.jit_handlers().custom_trace = record_produce;
    traced_func = "traced_f";
    produced_regions.clear();
    h.realize({5});
    EXPECT_EQ(produced_regions, (std::vector<std::vector<int>>{{-1, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 1}}));

    Func f2("traced_f2"), g2("traced_g2");
    f2(x, y) = sliding_window_counted(x, y);
    g2(x, y) = f2(x - 1, y) + f2(x, y) + f2(x, y - 1);
    f2.store_root().compute_at(g2, x).trace_realizations();
    g2.jit_handlers().custom_trace = record_produce;
    traced_func = "traced_f2";
    produced_regions.clear();
    g2.realize({3, 3});
    // Upstream 21 traces (-1, 1, y, 1) then (x, 1, y, 1) for each x in each
    // row y >= 0, after a row y = -1 of (x, 1, -1, 1): the same events from
    // x = 1 on, the first of each row (and the first row) the union of its
    // first ones.
    EXPECT_EQ(produced_regions, (std::vector<std::vector<int>>{{-1, 2, -1, 2},
                                                               {1, 1, -1, 2},
                                                               {2, 1, -1, 2},
                                                               {-1, 2, 1, 1},
                                                               {1, 1, 1, 1},
                                                               {2, 1, 1, 1},
                                                               {-1, 2, 2, 1},
                                                               {1, 1, 2, 1},
                                                               {2, 1, 2, 1}}));
}

// Upstream's test sliding_window, the vectorized case: f stored at root and
// computed per vector of g, both vectorized by 4. Each vector of g needs 6
// points of f, 4 of them new. Counts as upstream 21's: 8 for the first
// vector, then 4 each (200 before: every point computed twice); g split or
// guarded instead of vectorized, f unrolled instead, and a tail that
// shifts inwards (101 wide: the last vector recomputes 4) alike.
TEST(SlidingWindow, AVectorizedProducerAtAVectorizedConsumerComputesEachVectorOnce) {
    struct Case {
        const char *what;
        int width, calls;
        std::function<void(Func &, Func &, Var &)> schedule;
    };
    std::vector<Case> cases = {
        {"both vectorized", 100, 104,
         [](Func &f, Func &g, Var &x) {
             f.store_root().compute_at(g, x).vectorize(x, 4);
             g.vectorize(x, 4);
         }},
        {"a tail shifted inwards", 101, 108,
         [](Func &f, Func &g, Var &x) {
             f.store_root().compute_at(g, x).vectorize(x, 4);
             g.vectorize(x, 4);
         }},
        {"g split by 8, f at its outer loop", 100, 104,
         [](Func &f, Func &g, Var &x) {
             Var xo("xo"), xi("xi");
             g.split(x, xo, xi, 8);
             f.store_root().compute_at(g, xo).vectorize(x, 4);
         }},
        {"f unrolled by 4", 100, 104,
         [](Func &f, Func &g, Var &x) {
             Var xo("xo"), xi("xi");
             f.store_root().compute_at(g, x).split(x, xo, xi, 4).unroll(xi);
             g.vectorize(x, 4);
         }},
        {"g guarded", 99, 104,
         [](Func &f, Func &g, Var &x) {
             f.store_root().compute_at(g, x).vectorize(x, 4);
             g.vectorize(x, 4, TailStrategy::GuardWithIf);
         }},
    };
    for (const Case &c : cases) {
        Var x("x");
        Func f("counted"), g("reader");
        f(x) = sliding_window_counted(x, 0);
        g(x) = f(x + 1) + f(x - 1);
        c.schedule(f, g, x);
        producer_calls = 0;
        Buffer<int32_t> out = g.realize({c.width});
        EXPECT_EQ(producer_calls, c.calls) << c.what;
        for (int i = 0; i < c.width; i++) {
            ASSERT_EQ(out(i), (i + 1) * 3 + (i - 1) * 3) << c.what << ": " << i;
        }
    }
}
