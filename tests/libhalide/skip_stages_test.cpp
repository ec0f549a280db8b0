// Producers computed only where used (lower/SkipStages.cpp): the pass on
// hand-built statements (what is guarded, what is left alone), then
// upstream's programs, with the allocation and call counts upstream 21
// gives for them and values against plain C++.
#include <gtest/gtest.h>

#include <cstdlib>

#include "Halide.h"
#include "Halide/IRPrinter.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

// for (x, 0, n) { name[x] = value }
Stmt loop(const std::string &name, const Expr &value) {
    return For::make("x", i32(0), var("n"), ForType::Serial, Store::make(name, value, var("x")));
}

Expr load_f() {
    return Load::make(Int(32), "f", var("x"));
}

Expr param() {
    return Variable::make(Bool(), "p");
}

} // namespace

TEST(SkipStages, AProducerReadOnlyInOneBranchIsComputedAndSizedOnlyThere) {
    // allocate f[n] { f[x] = x; if (p) { out[x] = f[x] } else { out[x] = 0 } }
    Stmt uses = IfThenElse::make(param(), loop("out", load_f()), loop("out", i32(0)));
    Stmt before = Allocate::make("f", Int(32), {var("n")}, Block::make(loop("f", var("x")), uses));
    std::string text = printed(skip_stages(before, root_funcs({"f"})));
    // After: allocate f[select(p, n, 0)] { if (p) { f[x] = x }; if (p) ... }
    EXPECT_NE(text.find("select(p, n, 0)"), std::string::npos) << text;
    EXPECT_LT(text.find("if (p)"), text.find("f[x] = x")) << text;
    EXPECT_EQ(count(text, "if (p)"), 2) << text;
    // A select on the Param picks the same way.
    Stmt select_use = loop("out", Select::make(Not::make(param()), i32(0), load_f()));
    Stmt s2 = Allocate::make("f", Int(32), {var("n")}, Block::make(loop("f", var("x")), select_use));
    std::string text2 = printed(skip_stages(s2, root_funcs({"f"})));
    EXPECT_LT(text2.find("if (p)"), text2.find("f[x] = x")) << text2;
}

TEST(SkipStages, ConditionsThatVaryOrAreUnknownBeforeTheProductionAreLeftAlone) {
    Environment env = root_funcs({"f"});
    Stmt production = loop("f", var("x"));
    auto alloc = [&](const Stmt &uses) {
        return Allocate::make("f", Int(32), {var("n")}, Block::make(production, uses));
    };
    // Read under a condition on the loop's variable: read somewhere.
    Stmt per_x = loop("out", Select::make(LT::make(var("x"), i32(3)), load_f(), i32(0)));
    Stmt a = alloc(per_x);
    EXPECT_TRUE(skip_stages(a, env).same_as(a)) << printed(skip_stages(a, env));
    // Read everywhere.
    Stmt b = alloc(loop("out", load_f()));
    EXPECT_TRUE(skip_stages(b, env).same_as(b));
    // Under a condition read from memory.
    Stmt c = alloc(IfThenElse::make(EQ::make(Load::make(Int(32), "flags", i32(0)), i32(1)), loop("out", load_f())));
    EXPECT_TRUE(skip_stages(c, env).same_as(c)) << printed(skip_stages(c, env));
    // A production writing another buffer too (compute_with: one loop).
    Stmt both = For::make("x", i32(0), var("n"), ForType::Serial,
                          Block::make(Store::make("f", var("x"), var("x")), Store::make("g", var("x"), var("x"))));
    Stmt d =
        Allocate::make("f", Int(32), {var("n")}, Block::make(both, IfThenElse::make(param(), loop("out", load_f()))));
    EXPECT_TRUE(skip_stages(d, env).same_as(d)) << printed(skip_stages(d, env));
    // Not a Func (no entry in the environment).
    Stmt e = alloc(IfThenElse::make(param(), loop("out", load_f())));
    EXPECT_TRUE(skip_stages(e, Environment()).same_as(e));
}

TEST(SkipStages, ALetTheConditionNeedsMovesBeforeTheAllocate) {
    // A memoized consumer's lookup: let r = lookup() after the production,
    // the consumer's production under (r == 1).
    Expr lookup = Call::make(Int(32), "lookup", {}, Call::Extern);
    Stmt uses = LetStmt::make("r", lookup, IfThenElse::make(EQ::make(var("r"), i32(1)), loop("out", load_f())));
    Stmt before = Allocate::make("f", Int(32), {var("n")}, Block::make(loop("f", var("x")), uses));
    std::string text = printed(skip_stages(before, root_funcs({"f"})));
    size_t let = text.find("let r = lookup()"), alloc = text.find("allocate f"), guard = text.find("if ((r == 1))");
    ASSERT_NE(let, std::string::npos) << text;
    EXPECT_LT(let, alloc) << text;
    EXPECT_LT(alloc, guard) << text;
    EXPECT_LT(guard, text.find("f[x] = x")) << text;
}

namespace {

int empty_allocs = 0, nonempty_allocs = 0, frees = 0;
void *counting_malloc(JITUserContext *, size_t size) {
    (size == 0 ? empty_allocs : nonempty_allocs)++;
    return malloc(size);
}
void counting_free(JITUserContext *, void *p) {
    frees++;
    free(p);
}

int extern_calls = 0;

} // namespace

extern "C" HALIDE_EXPORT_SYMBOL int skip_stages_count_calls(halide_buffer_t *out) {
    if (!out->is_bounds_query()) {
        extern_calls++;
        Halide::Runtime::Buffer<uint8_t>(*out).fill(42);
    }
    return 0;
}

TEST(SkipStages, ProducersOfTheOtherSpecializationAreNeitherComputedNorGivenMemory) {
    // Upstream's specialize test: f1 and g1 feed the p branch, f2 (through
    // g2, inlined) the other. Upstream 21's allocator sees, with p true, one
    // empty and two non-empty allocations; with p false two and one.
    Func f1, f2, g1, g2, out;
    Var x;
    f1(x) = x + 7;
    g1(x) = f1(x) + f1(x + 1);
    f2(x) = x * 34;
    g2(x) = f2(x) + f2(x - 1);
    Param<bool> p;
    out(x) = select(p, g1(x), g2(x));
    f1.compute_root();
    g1.compute_root();
    f2.compute_root();
    out.specialize(p);
    out.jit_handlers().custom_malloc = counting_malloc;
    out.jit_handlers().custom_free = counting_free;
    for (bool value : {true, false}) {
        empty_allocs = nonempty_allocs = frees = 0;
        p.set(value);
        Buffer<int> result = out.realize({100});
        EXPECT_EQ(empty_allocs, value ? 1 : 2) << "p=" << value;
        EXPECT_EQ(nonempty_allocs, value ? 2 : 1) << "p=" << value;
        EXPECT_EQ(frees, 3) << "p=" << value;
        for (int i = 0; i < 100; i++) {
            int expected = value ? (i + 7) + (i + 8) : i * 34 + (i - 1) * 34;
            ASSERT_EQ(result(i), expected) << "p=" << value << " x=" << i;
        }
    }
}

TEST(SkipStages, AnExternProducerOfAMemoizedFuncRunsOnlyOnACacheMiss) {
    // Upstream's memoize test: the extern stage runs once for two realizations.
    Func ext, m, f;
    ext.define_extern("skip_stages_count_calls", {}, UInt(8), 2);
    m() = ext(0, 0);
    f() = m();
    m.compute_root().memoize();
    extern_calls = 0;
    Buffer<uint8_t> first = f.realize();
    Buffer<uint8_t> second = f.realize();
    EXPECT_EQ(first(), 42);
    EXPECT_EQ(second(), 42);
    EXPECT_EQ(extern_calls, 1);
    // Keyed on a Param: once per value.
    Param<int32_t> coord;
    Func ext2, m2, g;
    Var x, y;
    ext2.define_extern("skip_stages_count_calls", {}, UInt(8), 2);
    m2() = ext2(coord, coord);
    m2.compute_root().memoize();
    g(x, y) = m2();
    extern_calls = 0;
    for (int c : {0, 0, 1, 1}) {
        coord.set(c);
        Buffer<uint8_t> out = g.realize({16, 16});
        EXPECT_EQ(out(3, 5), 42);
    }
    EXPECT_EQ(extern_calls, 2);
}
