// Func::async (lower/AsyncProducers.cpp, codegen/CodeGen_LLVM_Async.cpp):
// the pass on hand-built statements, async schedules against plain C++
// references, a producer that provably runs ahead of its consumer, and the
// schedules refused.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "Halide.h"
#include "HalideRuntime.h"
#include "error_message.h"
#include "ir_build.h"
#include "ir_text.h"
#include "lower/Passes.h"

using namespace Halide;
using namespace Halide::Internal;

namespace {

Environment async_env(const std::vector<std::string> &names) {
    Environment env = root_funcs(names);
    for (auto &entry : env) {
        entry.second->async = true;
    }
    return env;
}

// p computed and consumed in one loop over y inside p's storage.
Stmt line_buffered() {
    Stmt produce = Store::make("p", var("y"), var("y"));
    Stmt consume = Store::make("c", Load::make(Int(32), "p", var("y")), var("y"));
    Stmt loop = For::make("y", Expr(0), Expr(8), ForType::Serial, Block::make(produce, consume));
    return Allocate::make("p", Int(32), {Expr(2)}, loop);
}

} // namespace

TEST(AsyncProducers, ComputeRootBecomesTwoTasks) {
    Stmt produce = For::make("x", Expr(0), Expr(8), ForType::Serial, Store::make("p", var("x"), var("x")));
    Stmt consume = For::make("x", Expr(0), Expr(8), ForType::Serial,
                             Store::make("c", Load::make(Int(32), "p", var("x")), var("x")));
    Stmt before = Allocate::make("p", Int(32), {Expr(8)}, Block::make(produce, consume));
    Stmt after = fork_async_producers(before, async_env({"p"}), {});
    EXPECT_EQ(printed(after), "allocate p[int32 * 8] {\n"
                              "  let p.async_semaphore.0 = make_semaphore(0)\n"
                              "  async_fork(2)\n"
                              "  for (p.async_task, 0, 1) {\n"
                              "    task_acquires(p.async_semaphore.0)\n"
                              "    for (x, 0, 8) {\n"
                              "      c[x] = p[x]\n"
                              "    }\n"
                              "  }\n"
                              "  for (p.async_task, 0, 1) {\n"
                              "    task_acquires()\n"
                              "    for (x, 0, 8) {\n"
                              "      p[x] = x\n"
                              "    }\n"
                              "    halide_semaphore_release(p.async_semaphore.0, 1)\n"
                              "  }\n"
                              "}\n");
}

TEST(AsyncProducers, LineBufferRunsOneIterationAheadWhenFoldedForIt) {
    // Folded for async (StorageFolding): the producer's next iteration may
    // run while the consumer runs this one (the semaphore back starts at 2).
    Stmt after = fork_async_producers(line_buffered(), async_env({"p"}), {"p"});
    std::string text = printed(after);
    EXPECT_EQ(count(text, "make_semaphore(0)"), 1) << text;
    EXPECT_EQ(count(text, "make_semaphore(2)"), 1) << text;
    EXPECT_EQ(count(text, "for (y, 0, 8)"), 2) << text;
    // Not folded for it: the producer waits for the consumer's iteration.
    text = printed(fork_async_producers(line_buffered(), async_env({"p"}), {}));
    EXPECT_EQ(count(text, "make_semaphore(1)"), 1) << text;
}

TEST(AsyncProducers, OtherFuncsAreUntouched) {
    Stmt s = line_buffered();
    EXPECT_EQ(printed(fork_async_producers(s, async_env({"q"}), {})), printed(s));
}

namespace {

Var x("x"), y("y"), yo("yo"), yi("yi");

int p_ref(int i, int j) {
    return i * 3 + j * 7;
}
int q_ref(int i, int j) {
    return i - 2 * j;
}

// c(x, y) = p(x, y - 1) + p(x, y + 1) + q(x, y), checked against C++.
void check_stencil(const std::function<void(Func &, Func &, Func &)> &schedule, int w = 37, int h = 29) {
    Func p("p"), q("q"), c("c");
    p(x, y) = x * 3 + y * 7;
    q(x, y) = x - 2 * y;
    c(x, y) = p(x, y - 1) + p(x, y + 1) + q(x, y);
    schedule(p, q, c);
    Buffer<int32_t> out = c.realize({w, h});
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            ASSERT_EQ(out(i, j), p_ref(i, j - 1) + p_ref(i, j + 1) + q_ref(i, j)) << i << ", " << j;
        }
    }
}

} // namespace

TEST(Async, ComputeRoot) {
    check_stencil([](Func &p, Func &, Func &) { p.compute_root().async(); });
}

TEST(Async, ComputeAtStoreAtFolded) {
    check_stencil([](Func &p, Func &, Func &c) {
        c.split(y, yo, yi, 8);
        p.compute_at(c, yi).store_at(c, yo).async();
    });
}

TEST(Async, StoreRootComputeAtRows) {
    check_stencil([](Func &p, Func &, Func &c) { p.store_root().compute_at(c, y).async(); });
}

TEST(Async, ExplicitFold) {
    check_stencil([](Func &p, Func &, Func &c) { p.store_root().compute_at(c, y).fold_storage(y, 8).async(); });
}

TEST(Async, ParallelConsumer) {
    check_stencil([](Func &p, Func &, Func &c) {
        p.compute_root().async();
        c.parallel(y);
    });
}

TEST(Async, ComputeAtParallelLoop) {
    // The fork runs inside each parallel iteration.
    check_stencil([](Func &p, Func &q, Func &c) {
        c.parallel(y);
        p.compute_at(c, y).async();
        q.compute_at(c, y).async();
    });
}

TEST(Async, TwoAsyncProducersRoot) {
    check_stencil([](Func &p, Func &q, Func &) {
        p.compute_root().async();
        q.compute_root().async();
    });
}

TEST(Async, TwoAsyncProducersLineBuffered) {
    check_stencil([](Func &p, Func &q, Func &c) {
        c.split(y, yo, yi, 8);
        p.compute_at(c, yi).store_at(c, yo).async();
        q.compute_at(c, yi).store_at(c, yo).async();
    });
}

TEST(Async, VectorizedProducerAndConsumer) {
    check_stencil([](Func &p, Func &, Func &c) {
        c.vectorize(x, 8);
        p.store_root().compute_at(c, y).vectorize(x, 8).async();
    });
}

TEST(Async, ChainOfAsyncProducers) {
    Func a("a"), b("b"), c("c");
    a(x, y) = x + y;
    b(x, y) = a(x, y) * 2 + a(x + 1, y);
    c(x, y) = b(x, y - 1) + b(x, y + 1);
    a.compute_root().async();
    b.store_root().compute_at(c, y).async();
    Buffer<int32_t> out = c.realize({20, 20});
    auto b_ref = [](int i, int j) { return (i + j) * 2 + (i + 1 + j); };
    for (int j = 0; j < 20; j++) {
        for (int i = 0; i < 20; i++) {
            ASSERT_EQ(out(i, j), b_ref(i, j - 1) + b_ref(i, j + 1)) << i << ", " << j;
        }
    }
}

TEST(Async, TupleValuedProducer) {
    for (bool line_buffered : {false, true}) {
        Func p("p"), c("c");
        p(x, y) = Tuple(x + y, x * y);
        c(x, y) = p(x, y - 1)[0] + p(x, y + 1)[1];
        if (line_buffered) {
            p.store_root().compute_at(c, y).async();
        } else {
            p.compute_root().async();
        }
        Buffer<int32_t> out = c.realize({13, 11});
        for (int j = 0; j < 11; j++) {
            for (int i = 0; i < 13; i++) {
                ASSERT_EQ(out(i, j), (i + j - 1) + i * (j + 1)) << i << ", " << j << " " << line_buffered;
            }
        }
    }
}

TEST(Async, ProducerWithAnUpdate) {
    Func p("p"), c("c");
    p(x, y) = x;
    p(x, y) += y * 2;
    c(x, y) = p(x, y) + p(x + 1, y);
    p.compute_root().async();
    c.parallel(y);
    Buffer<int32_t> out = c.realize({9, 7});
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 9; i++) {
            ASSERT_EQ(out(i, j), (i + 2 * j) + (i + 1 + 2 * j));
        }
    }
}

TEST(Async, OneThreadDoesNotDeadlock) {
    int old = halide_set_num_threads(1);
    check_stencil([](Func &p, Func &q, Func &c) {
        c.split(y, yo, yi, 8);
        p.compute_at(c, yi).store_at(c, yo).async();
        q.compute_root().async();
    });
    halide_set_num_threads(old);
}

TEST(Async, RingBufferOfHoistedStorage) {
    check_stencil([](Func &p, Func &, Func &c) { p.compute_at(c, y).hoist_storage_root().ring_buffer(2).async(); });
    check_stencil([](Func &p, Func &q, Func &c) {
        c.split(y, yo, yi, 4);
        p.compute_at(c, yi).hoist_storage(c, yo).ring_buffer(3).async();
        q.compute_at(c, yi).async();
    });
}

TEST(Async, InlinedOrOutputAsyncIsIgnoredAsUpstream) {
    check_stencil([](Func &p, Func &, Func &c) {
        p.async();
        c.async();
    });
}

// The producer provably runs ahead: the consumer, while computing row 0,
// waits until the producer has computed row 2 (which a synchronous schedule
// only computes after row 0 of the consumer is done). The wait gives up
// after a while so that a failure fails instead of hanging.
namespace {
std::atomic<int> highest_row{-1};
std::atomic<bool> saw_run_ahead{false};
} // namespace

extern "C" {

int async_test_produced(int row) {
    int seen = highest_row.load();
    while (row > seen && !highest_row.compare_exchange_weak(seen, row)) {
    }
    return 0;
}

int async_test_consume(int col, int row) {
    if (col == 0 && row == 0) {
        auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (highest_row.load() < 2 && std::chrono::steady_clock::now() < give_up) {
            std::this_thread::yield();
        }
        saw_run_ahead = highest_row.load() >= 2;
    }
    return 0;
}

} // extern "C"

// p(x, y) = x + y and c(x, y) = p(x, y) + p(x, y + 1) with the probes,
// p scheduled by `schedule`: true when the producer ran ahead.
bool producer_ran_ahead(const std::function<void(Func &, Func &)> &schedule) {
    highest_row = -1;
    saw_run_ahead = false;
    int old = halide_set_num_threads(4);
    Func p("p"), c("c");
    p(x, y) = x + y + Call::make(Int(32), "async_test_produced", {y}, Call::Extern);
    c(x, y) = p(x, y) + p(x, y + 1) + Call::make(Int(32), "async_test_consume", {x, y}, Call::Extern);
    schedule(p, c);
    Buffer<int32_t> out = c.realize({16, 16});
    halide_set_num_threads(old);
    for (int j = 0; j < 16; j++) {
        for (int i = 0; i < 16; i++) {
            EXPECT_EQ(out(i, j), 2 * (i + j) + 1);
        }
    }
    return saw_run_ahead;
}

TEST(Async, ProducerRunsAheadOfItsConsumer) {
    // A line buffer folded for two iterations: row 2 is computed by the
    // producer's iteration 1.
    EXPECT_TRUE(producer_ran_ahead([](Func &p, Func &c) { p.store_root().compute_at(c, y).async(); }))
        << "the consumer's row 0 finished before the producer computed row 2";
}

TEST(Async, RingBufferLetsTheProducerRunAhead) {
    // Each consumer row computes its own two producer rows (no sliding:
    // the storage is hoisted, not stored outside); with two copies the
    // producer computes row 1's rows while the consumer is in row 0.
    EXPECT_TRUE(producer_ran_ahead([](Func &p, Func &c) {
        p.compute_at(c, y).hoist_storage_root().ring_buffer(2).async();
    })) << "the consumer's row 0 finished before the producer computed row 2";
}

TEST(AsyncErrors, ComputedBetweenStoreAndComputeOfAnAsyncConsumer) {
    // Upstream's example (issue 5201): p1 is computed at the loop p2 is
    // computed at, but stored inside p2's storage.
    Func p1("p1"), p2("p2"), c("c");
    p1(x, y) = x + y;
    p2(x, y) = p1(x, y);
    c(x, y) = p1(x, y - 1) + p2(x, y + 1);
    p1.compute_at(c, y).async();
    p2.store_root().compute_at(c, y).async();
    std::string msg = message_of([&] { c.realize({8, 8}); });
    EXPECT_NE(msg.find("The Func p1 is consumed by async Func p2 and has a compute_at location in between the "
                       "store_at location and the compute_at location of p2. This is only legal when p1 is both "
                       "async and has a store_at location outside the store_at location of the consumer."),
              std::string::npos)
        << msg;
}

TEST(AsyncErrors, LegalWhenTheInBetweenFuncIsAsyncAndStoredOutside) {
    Func p1("p1"), p2("p2"), c("c");
    p1(x, y) = x + y;
    p2(x, y) = p1(x, y);
    c(x, y) = p1(x, y - 1) + p2(x, y + 1);
    p1.store_root().compute_at(c, y).async();
    p2.store_root().compute_at(c, y).async();
    Buffer<int32_t> out = c.realize({8, 8});
    for (int j = 0; j < 8; j++) {
        for (int i = 0; i < 8; i++) {
            ASSERT_EQ(out(i, j), (i + j - 1) + (i + j + 1));
        }
    }
}

TEST(AsyncErrors, SyncFuncComputedInBetweenIsRefused) {
    Func f("f"), g("g"), h("h");
    f(x) = cast<uint8_t>(x + 7);
    g(x) = f(x);
    h(x) = g(x);
    f.store_root().compute_at(h, x);
    g.store_root().compute_at(h, x).async();
    std::string msg = message_of([&] { h.realize({32}); });
    EXPECT_NE(msg.find("The Func f is consumed by async Func g"), std::string::npos) << msg;
}

TEST(AsyncErrors, StoredMoreThanOneLoopOutsideIsNotSupported) {
    Var z("z");
    Func p("p"), c("c");
    p(x, y, z) = x + y + z;
    c(x, y, z) = p(x, y - 1, z) + p(x, y + 1, z);
    p.store_root().compute_at(c, y).async();
    std::string msg = message_of([&] { c.realize({5, 6, 3}); });
    EXPECT_NE(msg.find("Func p is scheduled async() and computed more than one loop inside its storage"),
              std::string::npos)
        << msg;
}

TEST(AsyncErrors, RingBufferNeedsHoistedStorage) {
    Func p("p"), c("c");
    p(x, y) = x + y;
    c(x, y) = p(x, y);
    p.compute_root().ring_buffer(2).async();
    std::string msg = message_of([&] { c.realize({8, 8}); });
    EXPECT_NE(msg.find("is scheduled with ring_buffer(), but has matching store_at and hoist_storage levels"),
              std::string::npos)
        << msg;
}
