// JITHandlers through a JITUserContext (realize, infer_input_bounds,
// Callable) and the pipeline's jit_handlers(): custom_print, custom_error,
// custom_malloc/custom_free, custom_do_par_for, custom_do_task; and
// Pipeline::get_func, trace_pipeline, get_compiled_jit_target,
// Func::realize() without sizes and with a Target. Expected values are
// written out or computed in plain C++.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "Halide.h"

using namespace Halide;

namespace {

// A context carrying its own fields, as upstream's users derive them.
struct Recorder : JITUserContext {
    std::string printed;
    std::vector<std::string> errors;
    int mallocs = 0, frees = 0, par_fors = 0;
    std::atomic<int> tasks{0};
};

void record_print(JITUserContext *ctx, const char *msg) {
    static_cast<Recorder *>(ctx)->printed += msg;
}

void record_error(JITUserContext *ctx, const char *msg) {
    static_cast<Recorder *>(ctx)->errors.emplace_back(msg);
}

std::string expected_prints(int n) {
    std::string s;
    for (int i = 0; i < n; i++) {
        s += std::to_string(i * 3) + "\n";
    }
    return s;
}

} // namespace

TEST(JITHandlers, CustomPrintThroughTheUserContext) {
    Var x("x");
    Func f("printer");
    f(x) = print(x * 3);
    Recorder r;
    r.handlers.custom_print = record_print;
    Buffer<int32_t> out = f.realize(&r, {4});
    EXPECT_EQ(r.printed, expected_prints(4));
    for (int i = 0; i < 4; i++) {
        EXPECT_EQ(out(i), i * 3);
    }
}

TEST(JITHandlers, ContextWinsOverThePipelineWhichFillsTheRest) {
    Var x("x");
    Func f("both");
    f(x) = print(x * 3);
    static std::string pipeline_printed;
    pipeline_printed.clear();
    f.jit_handlers().custom_print = [](JITUserContext *, const char *msg) { pipeline_printed += msg; };
    Recorder r;
    r.handlers.custom_print = record_print;
    f.realize(&r, {2});
    EXPECT_EQ(r.printed, expected_prints(2));
    EXPECT_EQ(pipeline_printed, "");

    // No context, or one without custom_print: the pipeline's handler.
    f.realize({3});
    EXPECT_EQ(pipeline_printed, expected_prints(3));
    pipeline_printed.clear();
    Recorder plain;
    f.realize(&plain, {1});
    EXPECT_EQ(pipeline_printed, expected_prints(1));
    EXPECT_TRUE(plain.handlers.custom_print != nullptr); // filled in, as upstream
}

// Process defaults (JITSharedRuntime::set_default_handlers) fill what
// neither the call's context nor the pipeline sets.
TEST(JITHandlers, ProcessDefaultsComeLast) {
    static std::string default_printed, pipeline_printed;
    default_printed.clear();
    pipeline_printed.clear();
    JITHandlers defaults;
    defaults.custom_print = [](JITUserContext *, const char *msg) { default_printed += msg; };
    JITHandlers old = Internal::JITSharedRuntime::set_default_handlers(defaults);
    EXPECT_TRUE(old.custom_print == nullptr);
    Var x("x");
    Func f("defaults");
    f(x) = print(x * 3);
    f.realize({2});
    EXPECT_EQ(default_printed, expected_prints(2));
    Recorder r;
    r.handlers.custom_print = record_print;
    f.realize(&r, {3});
    EXPECT_EQ(r.printed, expected_prints(3));
    f.jit_handlers().custom_print = [](JITUserContext *, const char *msg) { pipeline_printed += msg; };
    f.realize({1});
    EXPECT_EQ(pipeline_printed, expected_prints(1));
    EXPECT_EQ(default_printed, expected_prints(2));
    JITUserContext filled;
    Internal::JITSharedRuntime::populate_jit_handlers(&filled, JITHandlers{});
    EXPECT_TRUE(filled.handlers.custom_print == defaults.custom_print);
    JITHandlers back = Internal::JITSharedRuntime::set_default_handlers(old);
    EXPECT_TRUE(back.custom_print == defaults.custom_print);
}

TEST(JITHandlers, SharedRuntimeThreadCount) {
    int before = Internal::JITSharedRuntime::set_num_threads(3);
    EXPECT_GE(before, 1);
    EXPECT_EQ(Internal::JITSharedRuntime::get_num_threads(), 3);
    EXPECT_EQ(Internal::JITSharedRuntime::set_num_threads(before), 3);
    EXPECT_EQ(Internal::JITSharedRuntime::get_num_threads(), before);
    Internal::JITSharedRuntime::reuse_device_allocations(true); // no device: nothing to do
}

TEST(JITHandlers, CustomErrorReceivesTheMessageInsteadOfAnException) {
    Param<int32_t> p("p");
    Var x("x");
    Func f("checked");
    f(x) = x + p;
    Pipeline pipe(f);
    pipe.add_requirement(p < 5);
    p.set(7);
    Recorder r;
    r.handlers.custom_error = record_error;
    Buffer<int32_t> out(4);
    EXPECT_NO_THROW(pipe.realize(&r, out));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("Requirement Failed: (false)"), std::string::npos) << r.errors[0];
    // Without the handler: the usual RuntimeError.
    EXPECT_THROW(pipe.realize(out), RuntimeError);
    p.set(2);
    pipe.realize(&r, out);
    EXPECT_EQ(out(3), 5);
}

TEST(JITHandlers, CustomMallocAndFree) {
    Var x("x");
    Func g("heap_g"), f("heap_f");
    Param<int32_t> n("n");
    g(x) = x * 2;
    f(x) = g(x) + g(x + n);
    g.compute_root();
    n.set(1000);
    Recorder r;
    r.handlers.custom_malloc = [](JITUserContext *ctx, size_t size) -> void * {
        static_cast<Recorder *>(ctx)->mallocs++;
        return halide_default_malloc(nullptr, size);
    };
    r.handlers.custom_free = [](JITUserContext *ctx, void *ptr) {
        static_cast<Recorder *>(ctx)->frees++;
        halide_default_free(nullptr, ptr);
    };
    Buffer<int32_t> out = f.realize(&r, {16});
    EXPECT_GE(r.mallocs, 1);
    EXPECT_EQ(r.mallocs, r.frees);
    for (int i = 0; i < 16; i++) {
        EXPECT_EQ(out(i), i * 2 + (i + 1000) * 2);
    }
}

TEST(JITHandlers, CustomDoParForRunsTasksOnItsOwnThreads) {
    Var x("x"), y("y");
    Func f("par");
    f(x, y) = print(x * 3) + y * 10;
    f.parallel(y);
    Recorder r;
    r.handlers.custom_print = [](JITUserContext *ctx, const char *msg) {
        static std::mutex m;
        std::lock_guard<std::mutex> lock(m);
        static_cast<Recorder *>(ctx)->printed += msg;
    };
    r.handlers.custom_do_par_for = [](JITUserContext *ctx, int (*task)(JITUserContext *, int, uint8_t *), int min,
                                      int extent, uint8_t *closure) {
        static_cast<Recorder *>(ctx)->par_fors++;
        std::vector<std::thread> threads;
        std::vector<int> results((size_t)extent);
        for (int i = 0; i < extent; i++) {
            threads.emplace_back([=, &results] { results[(size_t)i] = task(ctx, min + i, closure); });
        }
        for (std::thread &t : threads) {
            t.join();
        }
        for (int v : results) {
            if (v) {
                return v;
            }
        }
        return 0;
    };
    Buffer<int32_t> out = f.realize(&r, {2, 3});
    EXPECT_EQ(r.par_fors, 1);
    // Each of the 3 rows prints "0" and "3", on its own thread.
    EXPECT_EQ(r.printed.size(), expected_prints(2).size() * 3);
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 2; i++) {
            EXPECT_EQ(out(i, j), i * 3 + j * 10);
        }
    }
}

TEST(JITHandlers, CustomDoTaskRunsEachIndex) {
    Var x("x"), y("y");
    Func f("tasks");
    f(x, y) = x * y;
    f.parallel(y);
    Recorder r;
    r.handlers.custom_do_task = [](JITUserContext *ctx, int (*task)(JITUserContext *, int, uint8_t *), int idx,
                                   uint8_t *closure) {
        static_cast<Recorder *>(ctx)->tasks++;
        return task(ctx, idx, closure);
    };
    Buffer<int32_t> out = f.realize(&r, {4, 7});
    EXPECT_EQ(r.tasks.load(), 7);
    for (int j = 0; j < 7; j++) {
        for (int i = 0; i < 4; i++) {
            EXPECT_EQ(out(i, j), i * j);
        }
    }
}

TEST(JITHandlers, ConcurrentCallsKeepTheirOwnHandlers) {
    Var x("x");
    Func f("shared");
    f(x) = print(x * 3);
    Callable c = f.compile_to_callable({}); // safe to call from several threads
    constexpr int kThreads = 4;
    std::vector<Recorder> recorders(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; t++) {
        recorders[(size_t)t].handlers.custom_print = record_print;
        threads.emplace_back([&, t] {
            Buffer<int32_t> out(t + 1);
            for (int k = 0; k < 5; k++) {
                c(&recorders[(size_t)t], out);
            }
        });
    }
    for (std::thread &th : threads) {
        th.join();
    }
    for (int t = 0; t < kThreads; t++) {
        std::string expected;
        for (int k = 0; k < 5; k++) {
            expected += expected_prints(t + 1);
        }
        EXPECT_EQ(recorders[(size_t)t].printed, expected) << "thread " << t;
    }
}

TEST(JITHandlers, CallableTakesAContextFirst) {
    Param<int32_t> p("p");
    Var x("x");
    Func f("callable_print");
    f(x) = print(x * p);
    Callable c = f.compile_to_callable({p});
    Recorder r;
    r.handlers.custom_print = record_print;
    Buffer<int32_t> out(3);
    EXPECT_EQ(c(&r, 3, out), 0);
    EXPECT_EQ(r.printed, expected_prints(3));
    EXPECT_EQ(c(3, out), 0); // no context: still fine
    EXPECT_EQ(out(2), 6);

    // call_argv_fast: argv[0] points to the JITUserContext *.
    r.printed.clear();
    JITUserContext *ctx = &r;
    int32_t pv = 3;
    const void *argv[] = {&ctx, &pv, out.raw_buffer()};
    EXPECT_EQ(c.call_argv_fast(3, argv), 0);
    EXPECT_EQ(r.printed, expected_prints(3));

    // With custom_error, a failure is the returned code.
    Buffer<float> wrong(3);
    Recorder e;
    e.handlers.custom_error = record_error;
    const void *bad[] = {nullptr, &pv, wrong.raw_buffer()};
    JITUserContext *ectx = &e;
    bad[0] = &ectx;
    EXPECT_NE(c.call_argv_fast(3, bad), 0);
    EXPECT_EQ(e.errors.size(), 1u);
}

TEST(JITHandlers, InferInputBoundsWithAContext) {
    ImageParam in(Int(32), 1, "in");
    Var x("x");
    Func f("shifted");
    f(x) = in(x + 2) + in(x - 1);
    JITUserContext ctx;
    f.infer_input_bounds(&ctx, {10});
    Buffer<int32_t> b = in.get();
    EXPECT_EQ(b.min(0), -1);
    EXPECT_EQ(b.extent(0), 13);
}

TEST(PipelineAPI, GetFuncIsRealizationOrder) {
    Var x("x");
    Func a("gf_a"), b("gf_b"), c("gf_c");
    a(x) = x;
    b(x) = a(x) + 1;
    c(x) = b(x) * a(x);
    Pipeline p(c);
    EXPECT_EQ(p.get_func(0).name(), "gf_a");
    EXPECT_EQ(p.get_func(1).name(), "gf_b");
    EXPECT_EQ(p.get_func(2).name(), "gf_c");
    EXPECT_THROW(p.get_func(3), CompileError);
}

TEST(PipelineAPI, TracePipelineReportsBeginAndEnd) {
    Var x("x");
    Func f("traced_pipeline");
    f(x) = x;
    Pipeline p(f);
    static std::vector<int> events;
    events.clear();
    p.jit_handlers().custom_trace = [](JITUserContext *, const halide_trace_event_t *e) -> int32_t {
        events.push_back(e->event);
        return 1;
    };
    p.realize({2});
    EXPECT_TRUE(events.empty());
    p.trace_pipeline();
    p.realize({2});
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0], halide_trace_begin_pipeline);
    EXPECT_EQ(events[1], halide_trace_end_pipeline);
}

TEST(PipelineAPI, CompiledJITTarget) {
    Var x("x");
    Func f("jit_target");
    f(x) = x;
    Pipeline p(f);
    EXPECT_EQ(p.get_compiled_jit_target(), Target());
    p.compile_jit();
    EXPECT_EQ(p.get_compiled_jit_target(), get_jit_target_from_environment());
}

TEST(FuncRealize, ZeroDimensionalWithoutSizesAndWithATarget) {
    Func f("scalar_func");
    f() = 42;
    Buffer<int32_t> b = f.realize();
    EXPECT_EQ(b(), 42);
    Var x("x");
    Func g("targeted");
    g(x) = x * 5;
    Buffer<int32_t> out = g.realize({4}, get_host_target());
    EXPECT_EQ(out(3), 15);
    Target other = get_host_target();
    other.arch = other.arch == Target::ARM ? Target::X86 : Target::ARM;
    EXPECT_THROW(g.realize({4}, other), CompileError);
    Buffer<int32_t> into(4);
    g.realize(into, get_host_target());
    EXPECT_EQ(into(2), 10);
}
