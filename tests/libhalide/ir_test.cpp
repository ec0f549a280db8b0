// Tests of the IR core: node constructors, visitor, mutator, printer and
// structural equality, and whether an expression uses some variables.
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include "Halide/Error.h"
#include "Halide/IR.h"
#include "Halide/IREquality.h"
#include "Halide/IRMutator.h"
#include "Halide/IRPrinter.h"
#include "Halide/IRVisitor.h"
#include "ir/UsesVars.h"
#include "ir_build.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

template <typename T> std::string str(const T &x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

int64_t int_value(const Expr &e) {
    const IntImm *imm = e.as<IntImm>();
    EXPECT_NE(imm, nullptr);
    return imm ? imm->value : 0;
}

uint64_t uint_value(const Expr &e) {
    const UIntImm *imm = e.as<UIntImm>();
    EXPECT_NE(imm, nullptr);
    return imm ? imm->value : 0;
}

double float_value(const Expr &e) {
    const FloatImm *imm = e.as<FloatImm>();
    EXPECT_NE(imm, nullptr);
    return imm ? imm->value : 0;
}

} // namespace

// ---------------------------------------------------------------- IR.cpp

// A node pointer is that node's handle (as upstream's); another pointer (a
// C string, say) does not quietly become Expr(bool) true.
static_assert(std::is_convertible_v<const Call *, Expr>);
static_assert(!std::is_convertible_v<const char *, Expr>);
static_assert(!std::is_convertible_v<const int *, Expr>);
static_assert(std::is_convertible_v<bool, Expr>);

TEST(IRMake, IntImmWrapsIntoItsWidth) {
    EXPECT_EQ(int_value(IntImm::make(Int(8), 200)), -56);
    EXPECT_EQ(int_value(IntImm::make(Int(8), -129)), 127);
    EXPECT_EQ(int_value(IntImm::make(Int(16), 65535)), -1);
    EXPECT_EQ(int_value(IntImm::make(Int(32), (int64_t(1) << 32) + 5)), 5);
    EXPECT_EQ(int_value(IntImm::make(Int(32), int64_t(0x80000000))), std::numeric_limits<int32_t>::min());
    EXPECT_EQ(int_value(IntImm::make(Int(64), std::numeric_limits<int64_t>::min())),
              std::numeric_limits<int64_t>::min());
    EXPECT_EQ(IntImm::make(Int(16), 3).type(), Int(16));
}

TEST(IRMake, UIntImmMasks) {
    EXPECT_EQ(uint_value(UIntImm::make(UInt(8), 300)), 44u);
    EXPECT_EQ(uint_value(UIntImm::make(UInt(16), ~uint64_t(0))), 0xffffu);
    EXPECT_EQ(uint_value(UIntImm::make(UInt(64), ~uint64_t(0))), ~uint64_t(0));
    EXPECT_EQ(uint_value(UIntImm::make(Bool(), 2)), 0u);
    EXPECT_EQ(uint_value(UIntImm::make(Bool(), 3)), 1u);
}

TEST(IRMake, FloatImmRoundsToItsPrecision) {
    EXPECT_EQ(float_value(FloatImm::make(Float(64), 0.1)), 0.1);
    EXPECT_EQ(float_value(FloatImm::make(Float(32), 0.1)), static_cast<double>(0.1f));
    // float16: 11 significant bits, max 65504, smallest subnormal 2^-24.
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 0.1)), 0.0999755859375);
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 65504.0)), 65504.0);
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 65519.0)), 65504.0);
    EXPECT_TRUE(std::isinf(float_value(FloatImm::make(Float(16), 65520.0))));
    EXPECT_EQ(float_value(FloatImm::make(Float(16), -2049.0)), -2048.0); // tie to even
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 2051.0)), 2052.0);   // tie to even
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 1e-8)), 0.0);
    EXPECT_EQ(float_value(FloatImm::make(Float(16), 4e-8)), std::ldexp(1.0, -24));
    EXPECT_TRUE(std::isnan(float_value(FloatImm::make(Float(16), NAN))));
}

TEST(IRMake, ResultTypes) {
    Expr x = var("x"), y = var("y");
    EXPECT_EQ(Add::make(x, y).type(), Int(32));
    EXPECT_EQ(LT::make(x, y).type(), Bool());
    Expr vx = var("vx", Int(16, 8));
    EXPECT_EQ(EQ::make(vx, vx).type(), Bool(8));
    Expr c = LT::make(x, y);
    EXPECT_EQ(And::make(c, c).type(), Bool());
    EXPECT_EQ(Not::make(c).type(), Bool());
    EXPECT_EQ(Select::make(c, x, y).type(), Int(32));
    EXPECT_EQ(Cast::make(Float(32), x).type(), Float(32));
    EXPECT_EQ(Let::make("t", FloatImm::make(Float(32), 1.0), var("t", Float(32))).type(), Float(32));
    EXPECT_EQ(StringImm::make("hi").type(), Handle());
}

TEST(IRMake, InvariantsAreChecked) {
    Expr x = var("x"), s = var("s", Int(16));
    Expr c = LT::make(x, x);
    EXPECT_THROW(Add::make(x, s), InternalError);
    EXPECT_THROW(LT::make(x, s), InternalError);
    EXPECT_THROW(And::make(x, x), InternalError);
    EXPECT_THROW(Not::make(x), InternalError);
    EXPECT_THROW(Select::make(x, x, x), InternalError);
    EXPECT_THROW(Select::make(c, x, s), InternalError);
    EXPECT_THROW(Cast::make(Int(32, 4), x), InternalError);
    EXPECT_THROW(Add::make(x, Expr()), InternalError);
    EXPECT_THROW(IntImm::make(UInt(8), 1), InternalError);
    EXPECT_THROW(For::make("x", i32(0), i32(10), ForType::Serial, Stmt()), InternalError);
}

TEST(IRMake, BlockSkipsUndefined) {
    Stmt a = Evaluate::make(i32(1)), b = Evaluate::make(i32(2)), c = Evaluate::make(i32(3));
    EXPECT_FALSE(Block::make(std::vector<Stmt>{}).defined());
    EXPECT_FALSE(Block::make(std::vector<Stmt>{Stmt(), Stmt()}).defined());
    EXPECT_TRUE(Block::make(a, Stmt()).same_as(a));
    EXPECT_TRUE(Block::make(Stmt(), b).same_as(b));
    EXPECT_TRUE(Block::make(std::vector<Stmt>{Stmt(), a, Stmt()}).same_as(a));

    Stmt abc = Block::make(std::vector<Stmt>{a, Stmt(), b, c});
    const Block *outer = abc.as<Block>();
    ASSERT_NE(outer, nullptr);
    EXPECT_TRUE(outer->first.same_as(a));
    const Block *inner = outer->rest.as<Block>();
    ASSERT_NE(inner, nullptr);
    EXPECT_TRUE(inner->first.same_as(b));
    EXPECT_TRUE(inner->rest.same_as(c));
}

// ---------------------------------------------------------------- visitor

namespace {

class CountVariables : public IRVisitor {
public:
    std::map<std::string, int> counts;
    void visit(const Variable *op) override { counts[op->name]++; }
};

} // namespace

TEST(IRVisitor, VisitsEveryChild) {
    Expr x = var("x"), y = var("y");
    Stmt body = Provide::make("f", {Add::make(x, Mul::make(y, x))}, {x, y});
    Stmt loop =
        For::make("y", i32(0), var("h"), ForType::Serial, For::make("x", i32(0), var("w"), ForType::Parallel, body));
    Stmt s = Block::make(LetStmt::make("w", i32(10), loop),
                         IfThenElse::make(LT::make(x, y), Store::make("buf", y, x),
                                          Evaluate::make(Call::make(Int(32), "g", {x}, Call::Extern))));
    CountVariables v;
    v.include(s);
    EXPECT_EQ(v.counts["x"], 6);
    EXPECT_EQ(v.counts["y"], 4);
    EXPECT_EQ(v.counts["w"], 1);
    EXPECT_EQ(v.counts["h"], 1);

    CountVariables none;
    none.include(Expr());
    none.include(Stmt());
    EXPECT_TRUE(none.counts.empty());
}

// ---------------------------------------------------------------- mutator

namespace {

class Rename : public IRMutator {
public:
    Rename(std::string from, Expr to) : from_(std::move(from)), to_(std::move(to)) {}
    using IRMutator::visit;
    Expr visit(const Variable *op) override { return op->name == from_ ? to_ : IRMutator::visit(op); }

private:
    std::string from_;
    Expr to_;
};

// Drops every Evaluate.
class DropEvaluates : public IRMutator {
public:
    using IRMutator::visit;
    Stmt visit(const Evaluate *) override { return Stmt(); }
};

// Calls the base visit after mutating a child itself, and on a fresh node.
class Tricky : public IRMutator {
public:
    using IRMutator::visit;
    Expr visit(const Add *op) override {
        Expr a = mutate(op->a);
        (void)a;
        return IRMutator::visit(op);
    }
    Expr visit(const Sub *op) override {
        Expr fresh = Sub::make(op->a, op->b);
        return IRMutator::visit(fresh.as<Sub>());
    }
};

} // namespace

TEST(IRMutator, ReplacesAVariable) {
    Expr x = var("x"), y = var("y"), z = var("z");
    Expr e = Add::make(Mul::make(x, i32(2)), Min::make(y, z));
    Expr r = Rename("x", var("k")).mutate(e);
    EXPECT_FALSE(r.same_as(e));
    EXPECT_TRUE(equal(r, Add::make(Mul::make(var("k"), i32(2)), Min::make(y, z))));
    // The untouched half is shared, not copied.
    EXPECT_TRUE(r.as<Add>()->b.same_as(e.as<Add>()->b));
}

TEST(IRMutator, LeavesUntouchedTreesIdentical) {
    Expr x = var("x"), y = var("y");
    Expr e =
        Select::make(LT::make(x, y), Cast::make(Int(32), FloatImm::make(Float(32), 1.5)),
                     Let::make("t", Load::make(Int(32), "buf", x), Call::make(Int(32), "f", {x, y}, Call::Halide)));
    Rename r("nothing", i32(0));
    EXPECT_TRUE(r.mutate(e).same_as(e));

    Stmt s = Allocate::make(
        "buf", Int(32), {i32(10), var("n")},
        Realize::make("f", {Int(32)}, {Range{i32(0), i32(10)}},
                      Block::make({AssertStmt::make(LT::make(x, y), i32(-1)),
                                   For::make("x", i32(0), i32(10), ForType::Vectorized, Provide::make("f", {x}, {x})),
                                   IfThenElse::make(LT::make(x, y), Store::make("buf", x, y))})));
    EXPECT_TRUE(r.mutate(s).same_as(s));
    EXPECT_FALSE(r.mutate(Stmt()).defined());
}

TEST(IRMutator, RemovedStatementsDisappear) {
    Stmt store = Store::make("buf", i32(1), i32(0));
    Stmt s = Block::make({Evaluate::make(i32(1)), store, Evaluate::make(i32(2))});
    EXPECT_TRUE(DropEvaluates().mutate(s).same_as(store));
    Stmt loop = For::make("x", i32(0), i32(4), ForType::Serial, Evaluate::make(var("x")));
    EXPECT_FALSE(DropEvaluates().mutate(loop).defined());
    Stmt branch = IfThenElse::make(LT::make(var("x"), i32(0)), Evaluate::make(i32(0)), store);
    Stmt flipped = DropEvaluates().mutate(branch);
    EXPECT_TRUE(equal(flipped, IfThenElse::make(Not::make(LT::make(var("x"), i32(0))), store)));
}

TEST(IRMutator, BaseVisitOnOtherNodes) {
    Expr x = var("x"), y = var("y");
    Expr add = Add::make(Mul::make(x, y), y);
    EXPECT_TRUE(Tricky().mutate(add).same_as(add));
    Expr sub = Sub::make(x, y);
    Expr r = Tricky().mutate(sub);
    EXPECT_TRUE(equal(r, sub)); // a copy: the node came from outside mutate
}

// ---------------------------------------------------------------- printer

TEST(IRPrinter, Expressions) {
    Expr x = var("x"), y = var("y");
    EXPECT_EQ(str(Add::make(x, i32(1))), "(x + 1)");
    EXPECT_EQ(str(Mul::make(Sub::make(x, y), Div::make(x, Mod::make(y, i32(3))))), "((x - y) * (x / (y % 3)))");
    EXPECT_EQ(str(Min::make(x, Max::make(y, i32(-2)))), "min(x, max(y, -2))");
    EXPECT_EQ(str(Select::make(And::make(LE::make(x, y), Not::make(EQ::make(x, i32(0)))), x, y)),
              "select(((x <= y) && !(x == 0)), x, y)");
    EXPECT_EQ(str(Or::make(GT::make(x, y), Or::make(GE::make(x, y), NE::make(x, y)))),
              "((x > y) || ((x >= y) || (x != y)))");
    EXPECT_EQ(str(Cast::make(Int(32), FloatImm::make(Float(32), 3.5))), "int32(3.5f)");
    EXPECT_EQ(str(FloatImm::make(Float(32), 1.0)), "1.0f");
    EXPECT_EQ(str(FloatImm::make(Float(32), 0.1)), "0.1f");
    EXPECT_EQ(str(FloatImm::make(Float(64), 2.5)), "2.5");
    EXPECT_EQ(str(FloatImm::make(Float(64), 0.1)), "0.1");
    EXPECT_EQ(str(UIntImm::make(UInt(8), 5)), "(uint8)5");
    EXPECT_EQ(str(IntImm::make(Int(64), -3)), "(int64)-3");
    EXPECT_EQ(str(UIntImm::make(Bool(), 1)), "true");
    EXPECT_EQ(str(StringImm::make("a\"b\n")), "\"a\\\"b\\n\"");
    EXPECT_EQ(str(Load::make(Float(32), "buf", Add::make(x, i32(1)))), "buf[(x + 1)]");
    EXPECT_EQ(str(Call::make(Float(32), "sqrtf", {FloatImm::make(Float(32), 2.0)}, Call::Extern)), "sqrtf(2.0f)");
    EXPECT_EQ(str(Call::make(Int(32), "f", {x, y}, Call::Halide, 1)), "f.1(x, y)");
    EXPECT_EQ(str(Let::make("t", i32(4), Add::make(var("t"), x))), "(let t = 4 in (t + x))");
    EXPECT_EQ(str(Expr()), "<undefined>");
    EXPECT_EQ(str(Float(32, 8)), type_to_string(Float(32, 8)));
}

TEST(IRPrinter, LoopNest) {
    Expr x = var("x"), y = var("y");
    Stmt inner = For::make("x", i32(0), i32(10), ForType::Parallel,
                           Provide::make("f", {Mul::make(Add::make(x, y), i32(2))}, {x, y}));
    Stmt nest = Realize::make("f", {Int(32)}, {Range{i32(0), i32(10)}, Range{i32(0), i32(20)}},
                              For::make("y", i32(0), i32(20), ForType::Serial, inner));
    EXPECT_EQ(str(nest), "realize f([0, 10], [0, 20]) {\n"
                         "  for (y, 0, 20) {\n"
                         "    parallel for (x, 0, 10) {\n"
                         "      f(x, y) = ((x + y) * 2)\n"
                         "    }\n"
                         "  }\n"
                         "}\n");
}

TEST(IRPrinter, FlatStatements) {
    Expr x = var("x"), n = var("n");
    Stmt body = Block::make(
        {AssertStmt::make(GT::make(n, i32(0)), Call::make(Int(32), "halide_error_bad", {n}, Call::Extern)),
         For::make("x", i32(0), n, ForType::Vectorized, Store::make("buf", Cast::make(UInt(8), x), x)),
         IfThenElse::make(EQ::make(n, i32(1)), Evaluate::make(i32(1)),
                          IfThenElse::make(EQ::make(n, i32(2)), Evaluate::make(i32(2)), Evaluate::make(i32(3))))});
    Stmt s = LetStmt::make("n", i32(8), Allocate::make("buf", UInt(8), {n, i32(4)}, body));
    EXPECT_EQ(str(s), "let n = 8\n"
                      "allocate buf[uint8 * n * 4] {\n"
                      "  assert((n > 0), halide_error_bad(n))\n"
                      "  vectorized for (x, 0, n) {\n"
                      "    buf[x] = uint8(x)\n"
                      "  }\n"
                      "  if ((n == 1)) {\n"
                      "    1\n"
                      "  } else if ((n == 2)) {\n"
                      "    2\n"
                      "  } else {\n"
                      "    3\n"
                      "  }\n"
                      "}\n");
    Stmt tuple = Provide::make("g", {x, Cast::make(Float(32), x)}, {x});
    EXPECT_EQ(str(tuple), "g(x) = {x, float32(x)}\n");
    EXPECT_EQ(str(For::make("i", i32(0), i32(2), ForType::Unrolled, Evaluate::make(x))),
              "unrolled for (i, 0, 2) {\n  x\n}\n");
}

// ---------------------------------------------------------------- equality

TEST(IREquality, Expressions) {
    auto build = [](const std::string &v) {
        return Select::make(LT::make(var(v), i32(3)), Call::make(Int(32), "f", {var(v), i32(1)}, Call::Halide),
                            Load::make(Int(32), "buf", var(v)));
    };
    EXPECT_TRUE(equal(build("x"), build("x")));
    EXPECT_FALSE(equal(build("x"), build("y")));
    EXPECT_TRUE(equal(Expr(), Expr()));
    EXPECT_FALSE(equal(var("x"), Expr()));
    EXPECT_FALSE(equal(Add::make(var("x"), i32(1)), Sub::make(var("x"), i32(1))));
    EXPECT_FALSE(equal(var("x"), var("x", Int(16))));
    EXPECT_FALSE(equal(IntImm::make(Int(32), 1), IntImm::make(Int(64), 1)));
    EXPECT_FALSE(equal(Call::make(Int(32), "f", {}, Call::Halide), Call::make(Int(32), "f", {}, Call::Extern)));
    EXPECT_FALSE(equal(Call::make(Int(32), "f", {}, Call::Halide), Call::make(Int(32), "f", {}, Call::Halide, 1)));
    EXPECT_TRUE(equal(FloatImm::make(Float(64), NAN), FloatImm::make(Float(64), NAN)));
    EXPECT_FALSE(equal(FloatImm::make(Float(64), 0.0), FloatImm::make(Float(64), -0.0)));
}

TEST(IREquality, Statements) {
    auto build = [](ForType t, int extent) {
        Expr x = var("x");
        return Block::make(For::make("x", i32(0), i32(extent), t, Store::make("b", x, x)),
                           IfThenElse::make(LT::make(x, i32(1)), Evaluate::make(x)));
    };
    EXPECT_TRUE(equal(build(ForType::Serial, 4), build(ForType::Serial, 4)));
    EXPECT_FALSE(equal(build(ForType::Serial, 4), build(ForType::Parallel, 4)));
    EXPECT_FALSE(equal(build(ForType::Serial, 4), build(ForType::Serial, 5)));
    EXPECT_TRUE(equal(Stmt(), Stmt()));
    Stmt r1 = Realize::make("f", {Int(32)}, {Range{i32(0), i32(4)}}, Evaluate::make(i32(0)));
    Stmt r2 = Realize::make("f", {Float(32)}, {Range{i32(0), i32(4)}}, Evaluate::make(i32(0)));
    EXPECT_FALSE(equal(r1, r2));
}

TEST(IREquality, OrderKeysAMap) {
    std::map<Expr, int, ExprCompare> m;
    m[Add::make(var("x"), i32(1))] = 1;
    m[Add::make(var("x"), i32(2))] = 2;
    m[Add::make(var("x"), i32(1))] = 3; // same key, built again
    EXPECT_EQ(m.size(), 2u);
    EXPECT_EQ(m[Add::make(var("x"), i32(1))], 3);
    Expr a = var("a"), b = var("b");
    EXPECT_EQ(deep_compare(a, b), -deep_compare(b, a));
    EXPECT_NE(deep_compare(a, b), 0);
}

// ---------------------------------------------------------------- UsesVars.cpp

TEST(UsesVars, FindsNamesAnywhereInTheExpression) {
    Expr x = var("x"), y = var("y");
    Expr e = Select::make(LT::make(x, i32(3)), Load::make(Int(32), "buf", Add::make(y, i32(1))), i32(0));
    EXPECT_TRUE(expr_uses_any_var(e, {"y"}));
    EXPECT_TRUE(expr_uses_any_var(e, {"z", "x"}));
    EXPECT_FALSE(expr_uses_any_var(e, {"z"}));
    EXPECT_FALSE(expr_uses_any_var(e, {}));
    EXPECT_FALSE(expr_uses_any_var(e, {"buf"})); // a buffer's name is not a variable
    // A Let's own name counts too (these helpers do not scope).
    EXPECT_TRUE(expr_uses_any_var(Let::make("t", x, Add::make(var("t"), i32(1))), {"t"}));
    EXPECT_TRUE(expr_uses_var_if(e, [](const std::string &n) { return n.size() == 1 && n[0] > 'x'; }));
    EXPECT_FALSE(expr_uses_var_if(e, [](const std::string &n) { return n == "w"; }));
}

TEST(UsesVars, SharedSubtreesAreVisitedOnce) {
    // e_k = e_{k-1} + e_{k-1}: a tree of 2^60 leaves, a graph of 61 nodes.
    Expr e = var("x");
    for (int k = 0; k < 60; k++) {
        e = Add::make(e, e);
    }
    int asked = 0;
    EXPECT_FALSE(expr_uses_var_if(e, [&](const std::string &) {
        asked++;
        return false;
    }));
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(expr_uses_any_var(e, {"x"}));
}
