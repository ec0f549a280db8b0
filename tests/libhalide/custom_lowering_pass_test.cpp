// Pipeline::add_custom_lowering_pass: the user's IRMutator runs over the
// lowered statement of every later compile (JIT, Callable, AOT), and the
// pipeline deletes it.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "Halide.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// Turns float multiplications into additions (indices are integers: untouched).
class FloatMulToAdd : public IRMutator {
public:
    explicit FloatMulToAdd(int *destroyed = nullptr) : destroyed_(destroyed) {}
    ~FloatMulToAdd() override {
        if (destroyed_) {
            (*destroyed_)++;
        }
    }
    using IRMutator::visit;
    Expr visit(const Mul *op) override {
        if (op->type.is_float()) {
            return Add::make(mutate(op->a), mutate(op->b));
        }
        return IRMutator::visit(op);
    }

private:
    int *destroyed_;
};

// Counts the loops it sees with an IRVisitor; changes nothing.
class CountLoops : public IRMutator {
public:
    explicit CountLoops(int *loops) : loops_(loops) {}
    using IRMutator::visit;
    Stmt visit(const For *op) override {
        struct Inner : IRVisitor {
            int n = 0;
            using IRVisitor::visit;
            void visit(const For *f) override {
                n++;
                IRVisitor::visit(f);
            }
        } inner;
        inner.include(Stmt(op->body));
        *loops_ = std::max(*loops_, inner.n + 1);
        return self_stmt(op);
    }

private:
    int *loops_;
};

struct Scaled {
    Var x{"x"};
    Param<float> k{"k"};
    Func f{"f"};
    Scaled() {
        f(x) = cast<float>(x) * k;
        k.set(3.0f);
    }
};

void expect_values(Buffer<float> out, bool added) {
    for (int i = 0; i < out.width(); i++) {
        ASSERT_EQ(out(i), added ? i + 3.0f : i * 3.0f) << "at " << i;
    }
}

} // namespace

TEST(CustomLoweringPass, RewritesTheJitCodeUntilCleared) {
    Scaled s;
    Pipeline p(s.f);
    expect_values(p.realize({10})[0], false);
    int destroyed = 0;
    p.add_custom_lowering_pass(new FloatMulToAdd(&destroyed));
    ASSERT_EQ(p.custom_lowering_passes().size(), 1u);
    expect_values(p.realize({10})[0], true);
    EXPECT_NE(p.lowered_stmt().find("(float32("), std::string::npos);
    EXPECT_EQ(destroyed, 0);
    p.clear_custom_lowering_passes();
    EXPECT_EQ(destroyed, 1); // the template form deletes the pass
    EXPECT_TRUE(p.custom_lowering_passes().empty());
    expect_values(p.realize({10})[0], false);
}

TEST(CustomLoweringPass, TheDeleterRunsWhenThePipelineGoes) {
    int destroyed = 0, deleter_calls = 0;
    FloatMulToAdd *pass = new FloatMulToAdd(&destroyed);
    {
        Scaled s;
        Pipeline p(s.f);
        p.add_custom_lowering_pass(pass, [&, pass] {
            deleter_calls++;
            delete pass;
        });
        expect_values(p.realize({5})[0], true);
    }
    EXPECT_EQ(deleter_calls, 1);
    EXPECT_EQ(destroyed, 1);
}

TEST(CustomLoweringPass, OnAFunc) {
    Scaled s;
    s.f.add_custom_lowering_pass(new FloatMulToAdd());
    ASSERT_EQ(s.f.custom_lowering_passes().size(), 1u);
    expect_values(s.f.realize({8}), true);
}

TEST(CustomLoweringPass, InACallable) {
    Scaled s;
    Pipeline p(s.f);
    p.add_custom_lowering_pass(new FloatMulToAdd());
    Callable c = p.compile_to_callable({s.k});
    Buffer<float> out(6);
    ASSERT_EQ(c(3.0f, out), 0);
    expect_values(out, true);
}

TEST(CustomLoweringPass, AheadOfTimeToo) {
    Scaled s;
    Pipeline p(s.f);
    p.add_custom_lowering_pass(new FloatMulToAdd());
    std::string path = ::testing::TempDir() + "custom_pass.stmt";
    p.compile_to_lowered_stmt(path, {s.k});
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().find(") * k"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find(") + k"), std::string::npos) << text.str();
}

TEST(CustomLoweringPass, AVisitorSeesTheLoops) {
    Var x("x"), y("y");
    Func g("g");
    g(x, y) = x + y;
    int loops = 0;
    Pipeline p(g);
    p.add_custom_lowering_pass(new CountLoops(&loops));
    Buffer<int> out = p.realize({4, 3})[0];
    EXPECT_EQ(loops, 2);
    EXPECT_EQ(out(3, 2), 5);
}
