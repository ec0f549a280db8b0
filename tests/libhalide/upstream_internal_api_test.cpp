// The Internal:: classes upstream's Halide.h exposes and its own tests use:
// Interval (its markers and set operations), Function (the queries behind
// Func::function()) and ThreadPool (its tests compile pipelines on one).
// Expected values are upstream 21's on the same calls.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <vector>

#include "Halide.h"

using namespace Halide;
using Halide::Internal::Interval;

namespace {

// Both ends structurally equal, as upstream's interval test compares them.
void expect_interval(const Interval &got, const Interval &want) {
    EXPECT_TRUE(Internal::equal(got.min, want.min) && Internal::equal(got.max, want.max))
        << "got [" << got.min << ", " << got.max << "], want [" << want.min << ", " << want.max << "]";
}

} // namespace

TEST(Interval, QueriesOfTheMarkedForms) {
    Expr x = Internal::Variable::make(Int(32), "x");
    Interval e = Interval::everything(), n = Interval::nothing();
    Interval xp{x, Interval::pos_inf()}, xn{Interval::neg_inf(), x}, xx{x, x};
    struct Row {
        const Interval &i;
        bool everything, upper, lower, empty, bounded, point;
    };
    const Row rows[] = {
        {e, true, false, false, false, false, false},  {n, false, false, false, true, false, false},
        {xp, false, false, true, false, false, false}, {xn, false, true, false, false, false, false},
        {xx, false, true, true, false, true, true},
    };
    for (const Row &r : rows) {
        SCOPED_TRACE(::testing::Message() << "[" << r.i.min << ", " << r.i.max << "]");
        EXPECT_EQ(r.i.is_everything(), r.everything);
        EXPECT_EQ(r.i.has_upper_bound(), r.upper);
        EXPECT_EQ(r.i.has_lower_bound(), r.lower);
        EXPECT_EQ(r.i.is_empty(), r.empty);
        EXPECT_EQ(r.i.is_bounded(), r.bounded);
        EXPECT_EQ(r.i.is_single_point(), r.point);
    }
    EXPECT_TRUE(xx.is_single_point(x));
    EXPECT_FALSE(xx.is_single_point(Internal::Variable::make(Int(32), "y")));
    // Ours beyond upstream: a default Interval (undefined ends) reads as everything.
    EXPECT_TRUE(Interval().is_everything());
}

TEST(Interval, UnionAndIntersectionFoldMarkersAndConstants) {
    Expr x = Internal::Variable::make(Int(32), "x");
    Expr pos = Interval::pos_inf(), neg = Interval::neg_inf();
    Interval e = Interval::everything(), n = Interval::nothing();
    Interval xp{x, pos}, xn{neg, x};
    expect_interval(Interval::make_union(xp, xn), e);
    expect_interval(Interval::make_union(e, xn), e);
    expect_interval(Interval::make_union(xn, n), xn);
    expect_interval(Interval::make_union(n, xp), xp);
    expect_interval(Interval::make_union(xp, xp), xp);
    expect_interval(Interval::make_intersection(xp, xn), Interval::single_point(x));
    expect_interval(Interval::make_intersection(e, xn), xn);
    expect_interval(Interval::make_intersection(xn, n), n);
    expect_interval(Interval::make_intersection(n, xp), n);
    expect_interval(Interval::make_union({3, pos}, {5, pos}), {3, pos});
    expect_interval(Interval::make_intersection({3, pos}, {5, pos}), {5, pos});
    expect_interval(Interval::make_union({neg, 3}, {neg, 5}), {neg, 5});
    expect_interval(Interval::make_intersection({neg, 3}, {neg, 5}), {neg, 3});
    expect_interval(Interval::make_union({3, 4}, {9, 10}), {3, 10});
    // Disjoint: the ends cross (an empty interval), as upstream leaves them.
    expect_interval(Interval::make_intersection({3, 4}, {9, 10}), {9, 4});
    expect_interval(Interval::make_intersection({3, 9}, {4, 10}), {4, 9});
    // Not constants: the min/max stays symbolic.
    Expr y = Internal::Variable::make(Int(32), "y");
    expect_interval(Interval::make_union({x, x}, {y, y}), {min(x, y), max(x, y)});
    // include() grows from nothing to the points given.
    Interval i = Interval::nothing();
    i.include(Expr(7));
    i.include(Expr(2));
    expect_interval(i, {2, 7});
    i.intersect({5, pos});
    expect_interval(i, {5, 7});
}

TEST(Function, AnswersForTheFuncItHandles) {
    Var x("x"), y("y");
    ImageParam im(Int(32), 2, "im");
    Func from_param = im;
    EXPECT_EQ(from_param.function().required_types(), std::vector<Type>{Int(32)});
    EXPECT_EQ(from_param.function().required_dimensions(), 2);

    Func typed({UInt(8), Float(32)}, 3, "typed");
    Internal::Function tf = typed.function();
    EXPECT_TRUE(tf.defined());
    EXPECT_FALSE(tf.has_pure_definition());
    EXPECT_EQ(tf.name(), "typed");
    EXPECT_EQ(tf.outputs(), 2);
    EXPECT_EQ(tf.required_dimensions(), 3);

    Func f("f");
    f(x, y) = cast<int16_t>(x + y);
    f(x, 0) += cast<int16_t>(1);
    Internal::Function ff = f.function();
    EXPECT_TRUE(ff.has_pure_definition());
    EXPECT_TRUE(ff.has_update_definition());
    EXPECT_FALSE(ff.has_extern_definition());
    EXPECT_EQ(ff.dimensions(), 2);
    EXPECT_EQ(ff.args(), (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(ff.output_types(), std::vector<Type>{Int(16)});
    EXPECT_TRUE(ff.required_types().empty());
    EXPECT_EQ(ff.required_dimensions(), -1);
    EXPECT_TRUE(ff.same_as(f.function()));
    EXPECT_FALSE(ff.same_as(tf));
    // A Func made from the handle is the same Func.
    Func again(ff);
    Buffer<int16_t> out = again.realize({3, 2});
    EXPECT_EQ(out(2, 0), 3);
    EXPECT_EQ(out(2, 1), 3);
}

TEST(ThreadPool, RunsEveryTaskAndCarriesExceptions) {
    std::atomic<int> ran{0};
    std::vector<std::future<int>> results;
    {
        Internal::ThreadPool<int> pool(3);
        for (int i = 0; i < 20; i++) {
            results.push_back(pool.async(
                [&ran](int k, int m) {
                    ran++;
                    return k * m;
                },
                i, 3));
        }
        auto failed = pool.async([] { return std::stoi("not a number"); });
        EXPECT_THROW(failed.get(), std::invalid_argument);
    }
    EXPECT_EQ(ran.load(), 20);
    for (int i = 0; i < 20; i++) {
        EXPECT_EQ(results[(size_t)i].get(), 3 * i);
    }
    EXPECT_GE(Internal::ThreadPool<int>::num_processors_online(), 1u);
}

TEST(ThreadPool, CompilesAndRunsPipelinesConcurrently) {
    // As upstream's vector_cast test: each task builds, JIT-compiles and
    // runs its own pipeline.
    Internal::ThreadPool<bool> pool;
    std::vector<std::future<bool>> done;
    for (int width = 1; width <= 32; width *= 2) {
        done.push_back(pool.async([width] {
            Var x("x");
            Func f("f"), g("g");
            f(x) = cast<float>(x) * 0.5f;
            g(x) = cast<int16_t>(f(x) * 4) + cast<int16_t>(width);
            if (width > 1) {
                g.vectorize(x, width);
            }
            Buffer<int16_t> out = g.realize({64});
            for (int i = 0; i < 64; i++) {
                if (out(i) != (int16_t)(i * 2 + width)) {
                    return false;
                }
            }
            return true;
        }));
    }
    for (auto &d : done) {
        EXPECT_TRUE(d.get());
    }
}
