// Func::memoize (lower/Memoize.cpp and the runtime's memoization cache):
// how often a memoized Func is really computed across realizations, counted
// by an exported C function its definition calls (the test links with
// -rdynamic so the JIT finds it); results against plain C++ references;
// eviction by cache size and by eviction key; upstream's errors; the
// statement the pass makes.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <regex>

#include "Halide.h"
#include "error_message.h"
#include "ir_text.h"
#include "lower/Function.h"
#include "lower/Lower.h"
#include "lower/Passes.h"

using namespace Halide;

namespace {

std::atomic<int> calls{0};
std::atomic<int> extern_calls{0};

// Counts each point computed through counted().
Expr counted(const Expr &e) {
    return Internal::Call::make(Int(32), "memoize_test_count", {e}, Internal::Call::Extern);
}

// f(x, y) = x + 10 * y + p, memoized; g = 2 * f + q.
struct Chain {
    Var x, y;
    Param<int> p{"p", 0}, q{"q", 0};
    int p_value = 0, q_value = 0;
    Func f{"f"}, g{"g"};
    Chain() {
        f(x, y) = counted(x + 10 * y + p);
        g(x, y) = 2 * f(x, y) + q;
        f.compute_root().memoize();
    }
    void set_p(int v) {
        p.set(v);
        p_value = v;
    }
    void set_q(int v) {
        q.set(v);
        q_value = v;
    }
    // Realizes g over w x h and checks it against the definition.
    void run(int w, int h) {
        Buffer<int> out = g.realize({w, h});
        for (int j = 0; j < h; j++) {
            for (int i = 0; i < w; i++) {
                ASSERT_EQ(out(i, j), 2 * (i + 10 * j + p_value) + q_value) << i << ", " << j;
            }
        }
    }
};

class Memoize : public ::testing::Test {
protected:
    void SetUp() override {
        halide_memoization_cache_cleanup();
        halide_memoization_cache_set_size(0);
        calls = 0;
        extern_calls = 0;
    }
    void TearDown() override {
        halide_memoization_cache_cleanup();
        halide_memoization_cache_set_size(0);
    }
};

} // namespace

extern "C" {

int memoize_test_count(int v) {
    calls++;
    return v;
}

// out(x) = k * x, counting its calls.
int memoize_test_extern(int k, halide_buffer_t *out) {
    if (out->is_bounds_query()) {
        return 0;
    }
    extern_calls++;
    for (int i = 0; i < out->dim[0].extent; i++) {
        ((int *)out->host)[i * out->dim[0].stride] = k * (out->dim[0].min + i);
    }
    return 0;
}

} // extern "C"

TEST_F(Memoize, ComputedOnceForTheSameParamsAndRegion) {
    Chain c;
    c.set_p(1);
    for (int i = 0; i < 3; i++) {
        c.run(8, 4);
    }
    EXPECT_EQ(calls, 32);
}

TEST_F(Memoize, ANewParamValueComputesAgainAndTheOldOneIsStillThere) {
    Chain c;
    c.set_p(1);
    c.run(8, 4);
    c.set_p(2);
    c.run(8, 4);
    EXPECT_EQ(calls, 64);
    c.set_p(1);
    c.run(8, 4);
    c.set_p(2);
    c.run(8, 4);
    EXPECT_EQ(calls, 64);
}

TEST_F(Memoize, AParamOnlyTheConsumerReadsIsNotInTheKey) {
    Chain c;
    c.set_p(3);
    c.set_q(1);
    c.run(8, 4);
    c.set_q(5);
    c.run(8, 4);
    EXPECT_EQ(calls, 32);
}

TEST_F(Memoize, AnotherRegionComputesAgain) {
    Chain c;
    c.run(8, 4);
    c.run(4, 4);
    EXPECT_EQ(calls, 32 + 16);
    c.run(8, 4);
    EXPECT_EQ(calls, 32 + 16);
}

TEST_F(Memoize, ParamsOfTheFuncsItCallsAreInTheKey) {
    Var x;
    Param<int> p("p", 1);
    Func h("h"), f("f"), g("g");
    h(x) = x * p;
    f(x) = counted(h(x) + 1);
    g(x) = f(x);
    h.compute_root();
    f.compute_root().memoize();
    Buffer<int> out = g.realize({5});
    EXPECT_EQ(out(4), 5);
    p.set(2);
    out = g.realize({5});
    EXPECT_EQ(out(4), 9);
    EXPECT_EQ(calls, 10);
}

TEST_F(Memoize, LeastRecentlyUsedEntriesGoWhenTheCacheIsFull) {
    Chain c;
    // One 8 x 4 int32 result is 128 bytes: room for one only.
    halide_memoization_cache_set_size(200);
    for (int v : {1, 2, 1, 2}) {
        c.set_p(v);
        c.run(8, 4);
    }
    EXPECT_EQ(calls, 4 * 32);
    // Room for two: the last two values stay.
    halide_memoization_cache_set_size(300);
    calls = 0;
    for (int v : {1, 2, 1, 2, 1}) {
        c.set_p(v);
        c.run(8, 4);
    }
    EXPECT_EQ(calls, 32); // 2 was still cached from the loop above; 1 once more
    // Three values through room for two, least recently used first out.
    calls = 0;
    c.set_p(3);
    c.run(8, 4); // evicts 2 (1 was used last)
    c.set_p(1);
    c.run(8, 4); // still there
    EXPECT_EQ(calls, 32);
    c.set_p(2);
    c.run(8, 4); // gone
    EXPECT_EQ(calls, 64);
}

TEST_F(Memoize, EvictionKeyDropsItsEntries) {
    Var x;
    Param<int> p("p", 1);
    Param<uint64_t> key("key", 7);
    Func f("f"), g("g");
    f(x) = counted(x + p);
    g(x) = f(x);
    f.compute_root().memoize(EvictionKey(key));
    g.realize({6});
    g.realize({6});
    EXPECT_EQ(calls, 6);
    halide_memoization_cache_evict(nullptr, 8); // another key
    g.realize({6});
    EXPECT_EQ(calls, 6);
    halide_memoization_cache_evict(nullptr, 7);
    Buffer<int> out = g.realize({6});
    EXPECT_EQ(calls, 12);
    EXPECT_EQ(out(5), 6);
}

// The same through upstream's JIT interface, and release_all empties the
// cache.
TEST_F(Memoize, JITSharedRuntimeEvictsAndReleases) {
    Var x;
    Param<int> p("p", 1);
    Param<uint64_t> key("key", 9);
    Func f("f"), g("g");
    f(x) = counted(x + p);
    g(x) = f(x);
    f.compute_root().memoize(EvictionKey(key));
    Internal::JITSharedRuntime::memoization_cache_set_size(1 << 20);
    g.realize({4});
    g.realize({4});
    EXPECT_EQ(calls, 4);
    Internal::JITSharedRuntime::memoization_cache_evict(10); // another key
    g.realize({4});
    EXPECT_EQ(calls, 4);
    Internal::JITSharedRuntime::memoization_cache_evict(9);
    g.realize({4});
    EXPECT_EQ(calls, 8);
    Internal::JITSharedRuntime::release_all();
    Buffer<int> out = g.realize({4});
    EXPECT_EQ(calls, 12);
    EXPECT_EQ(out(3), 4);
}

TEST_F(Memoize, TuplesAndUpdatesAreCachedWhole) {
    Var x;
    RDom r(0, 4);
    Param<int> p("p", 2);
    Func f("f"), g("g");
    f(x) = Tuple(counted(x), x * p);
    f(x) = Tuple(f(x)[0] + r, f(x)[1] + p);
    g(x) = f(x)[0] * 100 + f(x)[1];
    f.compute_root().memoize();
    for (int i = 0; i < 3; i++) {
        Buffer<int> out = g.realize({5});
        for (int k = 0; k < 5; k++) {
            EXPECT_EQ(out(k), (k + 0 + 1 + 2 + 3) * 100 + (k * 2 + 4 * 2));
        }
    }
    EXPECT_EQ(calls, 5);
}

TEST_F(Memoize, ComputeAtALoopKeysEachIterationsRegion) {
    Var x, y;
    Param<int> p("p", 1);
    Func f("f"), g("g");
    f(x, y) = counted(x * y + p);
    g(x, y) = f(x, y) + f(x + 1, y);
    f.compute_at(g, y).memoize();
    for (int i = 0; i < 2; i++) {
        Buffer<int> out = g.realize({6, 3});
        for (int j = 0; j < 3; j++) {
            for (int k = 0; k < 6; k++) {
                ASSERT_EQ(out(k, j), (k * j + 1) + ((k + 1) * j + 1));
            }
        }
    }
    EXPECT_EQ(calls, 7 * 3);
}

TEST_F(Memoize, ExternStages) {
    Var x;
    Param<int> k("k", 3);
    Func f("f"), g("g");
    f.define_extern("memoize_test_extern", {k}, Int(32), 1);
    g(x) = f(x) + 1;
    f.compute_root().memoize();
    for (int i = 0; i < 3; i++) {
        Buffer<int> out = g.realize({10});
        EXPECT_EQ(out(9), 28);
    }
    EXPECT_EQ(extern_calls, 1);
    k.set(4);
    Buffer<int> again = g.realize({10});
    EXPECT_EQ(again(9), 37);
    EXPECT_EQ(extern_calls, 2);
}

// Upstream's memoize test, block 8: g vectorized by 8 at h's loop loads
// f over a storage wider than the region it needs (f(4) and f(index)),
// which is what f computes. That region is the key, as upstream's realized
// bounds: index 2 computes f(2..4), index 4 only f(4) (a miss, one point:
// upstream 21 counts 3 then 4), index 2 again hits.
TEST_F(Memoize, TheRegionComputedIsTheKeyNotTheStorage) {
    Param<int32_t> index("index");
    Func f("f"), g("g"), h("h");
    Var x("x");
    f(x) = counted(x * 3);
    g(x) = f(x);
    h(x) = g(4) + g(index);
    f.compute_root().memoize();
    g.vectorize(x, 8).compute_at(h, x);
    const int expected_calls[3] = {3, 4, 4};
    const int indices[3] = {2, 4, 2};
    for (int i = 0; i < 3; i++) {
        index.set(indices[i]);
        Buffer<int> out = h.realize({1});
        EXPECT_EQ(out(0), 3 * 4 + 3 * indices[i]) << i;
        EXPECT_EQ(calls, expected_calls[i]) << "after realization " << i;
    }
}

TEST_F(Memoize, ParallelConsumers) {
    Var x, y;
    Param<int> p("p", 5);
    Func f("f"), g("g");
    f(x, y) = counted(x - y + p);
    g(x, y) = f(x, y) * 3;
    f.compute_root().memoize();
    g.parallel(y);
    for (int i = 0; i < 4; i++) {
        Buffer<int> out = g.realize({16, 16});
        ASSERT_EQ(out(15, 3), (15 - 3 + 5) * 3);
    }
    EXPECT_EQ(calls, 256);
}

// memoize_tag(e): the key holds e's value, not the Params it reads, so
// Param values giving the same e share a cached result.
TEST_F(Memoize, MemoizeTagOfOneValueKeysOnItsValue) {
    Var x;
    Param<float> scale("scale", 1.0f);
    Func f("f"), g("g");
    Expr quantized = memoize_tag(cast<int>(scale * 2));
    f(x) = counted(x + quantized);
    g(x) = f(x);
    f.compute_root().memoize();
    auto run = [&](float s) {
        scale.set(s);
        Buffer<int> out = g.realize({10});
        for (int i = 0; i < 10; i++) {
            ASSERT_EQ(out(i), i + (int)(s * 2)) << s;
        }
    };
    run(1.0f);
    run(1.2f); // the same quantized value: cached
    EXPECT_EQ(calls, 10);
    run(1.5f);
    EXPECT_EQ(calls, 20);
    run(1.0f);
    EXPECT_EQ(calls, 20);
}

// memoize_tag(e, keys...): the keys stand for e's dependencies, so a
// memoized Func may read an input buffer the caller identifies by a key.
TEST_F(Memoize, MemoizeTagWithKeysAllowsAnInputBuffer) {
    Var x;
    ImageParam im(Int(32), 1, "im");
    Param<int> version("version", 0);
    Func f("f"), g("g");
    f(x) = counted(memoize_tag(im(x) * 2, version));
    g(x) = f(x);
    f.compute_root().memoize();
    Buffer<int> in(8);
    in.for_each_element([&](int i) { in(i) = i * i; });
    im.set(in);
    Buffer<int> out = g.realize({8});
    Buffer<int> again = g.realize({8});
    EXPECT_EQ(calls, 8);
    for (int i = 0; i < 8; i++) {
        EXPECT_EQ(out(i), 2 * i * i);
        EXPECT_EQ(again(i), 2 * i * i);
    }
    in.fill(1); // the caller says the contents changed
    version.set(1);
    out = g.realize({8});
    EXPECT_EQ(calls, 16);
    EXPECT_EQ(out(3), 2);
    EXPECT_EQ(memoize_tag(Expr(1) + x, version).type(), Int(32));
}

TEST_F(Memoize, UpstreamsErrors) {
    Var x;
    Param<float> fp("fp");
    ImageParam im(Int(32), 1, "im");
    {
        Func h("h");
        h(x) = x;
        h.memoize();
        EXPECT_EQ(message_of([&] { h.realize({4}); }),
                  "Can't compile Pipeline with memoized output Func: h. Memoization is valid only on intermediate "
                  "Funcs because it takes control of buffer allocation.");
    }
    {
        Func f("f"), g("g");
        f(x) = x;
        g(x) = f(x);
        f.memoize();
        EXPECT_EQ(message_of([&] { g.realize({4}); }),
                  "Cannot memoize function f because the function is scheduled inline.");
    }
    {
        Var y;
        Func f("f"), g("g");
        f(x, y) = x;
        g(x, y) = f(x, y);
        f.store_root().compute_at(g, y).memoize();
        EXPECT_EQ(message_of([&] {
                      g.realize({4, 4});
                  }),
                  "Function f cannot be memoized because it has compute and storage scheduled at different loop "
                  "levels.");
    }
    {
        Func f("f"), g("g");
        f(x) = x;
        g(x) = f(x);
        f.compute_root().memoize(EvictionKey(fp));
        EXPECT_EQ(message_of([&] { g.compile_jit(); }),
                  "Can't use floating-point types as a memoization eviction key. Expression is: fp");
    }
    {
        Func f("f"), g("g");
        f(x) = im(x) + 1;
        g(x) = f(x);
        f.compute_root().memoize();
        EXPECT_EQ(message_of([&] { g.compile_jit(); }),
                  "Buffer parameter im encountered in computed_cached computation.\n"
                  "Computations which depend on buffer parameters cannot be scheduled compute_cached.\n"
                  "Use memoize_tag to provide cache key information for buffer.");
    }
}

// The pass on a flattened statement: storage from the cache, production on a miss.
TEST(MemoizePass, StorageFromTheCacheAndProductionOnAMiss) {
    using namespace Halide::Internal;
    auto f = std::make_shared<FunctionContents>();
    f->name = "f";
    f->args = {"x"};
    f->values = {Add::make(Variable::make(Int(32), "x"), Variable::make(Int(32), "p"))};
    f->compute = ComputeLevel::Root;
    f->memoized = true;
    Environment env = {{"f", f}};
    LoweredPipeline pipe;
    pipe.func.name = "pipe";
    auto param = std::make_shared<ParamContents>();
    param->name = "p";
    param->type = Int(32);
    pipe.func.args.push_back({"p", LoweredArgument::Scalar, Int(32), 0});
    ArgumentSource src;
    src.param = param;
    pipe.sources.push_back(src);

    Expr fx = Variable::make(Int(32), "f.s0.x");
    Stmt produce =
        For::make("f.s0.x", Variable::make(Int(32), "f.min.0"), Variable::make(Int(32), "f.extent.0"), ForType::Serial,
                  Store::make("f", Add::make(fx, Variable::make(Int(32), "p")),
                              Sub::make(fx, Variable::make(Int(32), "f.min.0"))));
    Stmt consume = Store::make("out", Load::make(Int(32), "f", IntImm::make(Int(32), 0)), IntImm::make(Int(32), 0));
    Stmt before = LetStmt::make(
        "f.stride.0", IntImm::make(Int(32), 1),
        Allocate::make("f", Int(32), {Variable::make(Int(32), "f.extent.0")}, Block::make(produce, consume)));
    std::string after = printed(inject_memoization(before, env, pipe));
    std::smatch id;
    ASSERT_TRUE(std::regex_search(after, id, std::regex("\\(uint64\\)([0-9]+)")));
    // The key's 24 bytes: a C struct of a string pointer, the uint64
    // compilation id and the int32 p, padded to 8.
    std::string expected =
        "let f.stride.0 = 1\n"
        "let f.memo.buffer.0 = buffer_make(0, 0, 0, 32, 1, 1, f.min.0, f.extent.0, f.stride.0)\n"
        "let f.memo.bounds = buffer_make(0, 0, 3, 64, 1, 1, f.min.0, f.extent.0, 0)\n"
        "let f.memo.key = make_struct(\"4:pipe1:f\", (uint64)" +
        id[1].str() +
        ", p)\n"
        "let f.memo.buffers = make_struct(f.memo.buffer.0)\n"
        "let f.memo.result = halide_memoization_cache_lookup(__user_context, f.memo.key, 24, f.memo.bounds, 1, "
        "f.memo.buffers)\n";
    ASSERT_EQ(after.substr(0, expected.size()), expected) << after;
    EXPECT_NE(after.find("assert((f.memo.result != -1), halide_error_out_of_memory(__user_context))"),
              std::string::npos)
        << after;
    EXPECT_NE(after.find("custom_new { buffer_get_host(f.memo.buffer.0) }"), std::string::npos) << after;
    EXPECT_NE(after.find("custom_delete { halide_memoization_cache_release(f); }"), std::string::npos) << after;
    // The production and the store only on a miss; the consumer always.
    size_t miss = after.find("if ((f.memo.result == 1))");
    size_t loop = after.find("for (f.s0.x");
    size_t store = after.find("halide_memoization_cache_store(__user_context, f.memo.key, 24, f.memo.bounds, 1, "
                              "f.memo.buffers, false, (uint64)0)");
    size_t consumer = after.find("out[0] = f[0]");
    ASSERT_NE(miss, std::string::npos) << after;
    EXPECT_LT(miss, loop);
    EXPECT_LT(loop, store);
    EXPECT_LT(store, consumer);
    EXPECT_NE(consumer, std::string::npos);
}
