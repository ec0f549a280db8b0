// The IR API that upstream's custom lowering passes use: Expr and Stmt made
// from node pointers (the same node back), accept() on handles and nodes,
// IRMutator::mutate overridden (virtual), the produce/consume marks of the
// lowered statement (ProducerConsumer), Atomic::mutex_name and string Exprs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "Halide.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

TEST(IRHandles, ExprAndStmtFromANodePointerAreTheSameNode) {
    Expr sum = Add::make(Variable::make(Int(32), "a"), 3);
    const Add *node = sum.as<Add>();
    ASSERT_NE(node, nullptr);
    Expr again(node);
    EXPECT_TRUE(again.same_as(sum));
    Expr implicit = static_cast<const BaseExprNode *>(node);
    EXPECT_TRUE(implicit.same_as(sum));

    Stmt s = Evaluate::make(sum);
    Stmt s_again(s.as<Evaluate>());
    EXPECT_TRUE(s_again.same_as(s));
    EXPECT_FALSE(Expr(static_cast<const BaseExprNode *>(nullptr)).defined());
}

// Counts nodes by kind through accept(), as upstream's visitors do.
class Counter : public IRVisitor {
public:
    using IRVisitor::visit;
    void visit(const Add *op) override {
        adds++;
        op->a.accept(this);
        op->b.accept(this);
    }
    void visit(const Variable *) override { variables++; }
    int adds = 0, variables = 0;
};

TEST(IRHandles, AcceptVisitsHandlesAndNodes) {
    Expr a = Variable::make(Int(32), "a");
    Expr e = Add::make(Add::make(a, a), 1);
    Counter c;
    e.accept(&c);
    EXPECT_EQ(c.adds, 2);
    EXPECT_EQ(c.variables, 2);

    Counter on_stmt;
    Stmt s = Evaluate::make(e);
    s.accept(&on_stmt);
    s.get()->accept(&on_stmt);
    EXPECT_EQ(on_stmt.adds, 4);

    Counter none;
    Stmt().accept(&none); // an undefined handle visits nothing
    EXPECT_EQ(none.adds, 0);
}

// Overrides mutate itself: every Expr is seen before its visit runs.
class SeeEveryExpr : public IRMutator {
public:
    using IRMutator::mutate;
    Expr mutate(const Expr &e) override {
        seen++;
        if (const IntImm *i = e.as<IntImm>(); i && i->value == 7) {
            return IntImm::make(i->type, 8);
        }
        return IRMutator::mutate(e);
    }
    int seen = 0;
};

TEST(IRHandles, MutateIsVirtual) {
    Expr a = Variable::make(Int(32), "a");
    Expr e = Mul::make(Add::make(a, 7), 7);
    SeeEveryExpr m;
    IRMutator &base = m;
    Expr out = base.mutate(e);
    EXPECT_EQ(m.seen, 5); // Mul, Add, a, 7, 7
    const Mul *mul = out.as<Mul>();
    ASSERT_NE(mul, nullptr);
    EXPECT_EQ(mul->b.as<IntImm>()->value, 8);
    EXPECT_EQ(mul->a.as<Add>()->b.as<IntImm>()->value, 8);

    auto [list, changed] = m.mutate_with_changes({a, Expr(7)});
    EXPECT_TRUE(changed);
    EXPECT_TRUE(list[0].same_as(a));
    EXPECT_EQ(m.mutate(std::vector<Expr>{a}).size(), 1u);
}

// Records each produce/consume mark with the producers around it.
class Marks : public IRVisitor {
public:
    using IRVisitor::visit;
    void visit(const ProducerConsumer *op) override {
        std::string where;
        for (const std::string &p : producers_) {
            where += p + "/";
        }
        seen.push_back(where + (op->is_producer ? "produce " : "consume ") + op->name);
        if (op->is_producer) {
            producers_.push_back(op->name);
        }
        IRVisitor::visit(op);
        if (op->is_producer) {
            producers_.pop_back();
        }
    }
    std::vector<std::string> seen;

private:
    std::vector<std::string> producers_;
};

TEST(IRHandles, LoweredStatementsMarkProducersAndConsumers) {
    Var x("x"), y("y");
    Func f("pc_f"), g("pc_g"), h("pc_h");
    f(x, y) = x + y;
    g(x, y) = f(x, y) * 2;
    h(x, y) = g(x, y) + g(x + 1, y);
    f.compute_at(g, y);
    g.compute_root();
    Module m = h.compile_to_module(h.infer_arguments());
    Marks marks;
    m.functions().front().body.accept(&marks);
    std::vector<std::string> expected = {"produce pc_g", "pc_g/produce pc_f", "pc_g/consume pc_f", "consume pc_g",
                                         "produce pc_h"};
    EXPECT_EQ(marks.seen, expected);
    // The marks change nothing: the values are h's.
    Buffer<int> out = h.realize({5, 4});
    for (int yy = 0; yy < 4; yy++) {
        for (int xx = 0; xx < 5; xx++) {
            EXPECT_EQ(out(xx, yy), 2 * (xx + yy) + 2 * (xx + 1 + yy));
        }
    }
}

TEST(IRHandles, ProducerConsumerNodes) {
    Stmt body = Evaluate::make(0);
    Stmt p = ProducerConsumer::make_produce("f", body);
    Stmt c = ProducerConsumer::make_consume("f", body);
    ASSERT_NE(p.as<ProducerConsumer>(), nullptr);
    EXPECT_TRUE(p.as<ProducerConsumer>()->is_producer);
    EXPECT_FALSE(c.as<ProducerConsumer>()->is_producer);
    EXPECT_EQ(c.as<ProducerConsumer>()->name, "f");
    EXPECT_TRUE(ProducerConsumer::make("f", true, body).as<ProducerConsumer>()->body.same_as(body));
    EXPECT_NE(Stmt(p).get(), nullptr);
    EXPECT_TRUE(equal(p, ProducerConsumer::make_produce("f", body)));
    EXPECT_FALSE(equal(p, c));
}

TEST(IRHandles, AtomicKeepsItsMutexName) {
    Stmt body = Evaluate::make(0);
    EXPECT_EQ(Atomic::make("f", body).as<Atomic>()->mutex_name, "");
    const Atomic *a = Atomic::make("f", "f.mutex", body).as<Atomic>();
    EXPECT_EQ(a->producer_name, "f");
    EXPECT_EQ(a->mutex_name, "f.mutex");
}

TEST(IRHandles, StringsAreStringImmExprs) {
    Expr from_string = std::string("some text");
    Expr from_literal("a literal");
    ASSERT_NE(from_string.as<StringImm>(), nullptr);
    EXPECT_EQ(from_string.as<StringImm>()->value, "some text");
    EXPECT_EQ(from_literal.as<StringImm>()->value, "a literal");
    EXPECT_TRUE(from_literal.type().is_handle());
}

} // namespace
