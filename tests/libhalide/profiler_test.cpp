// The `profile` target feature from C++: the JIT's report goes through the
// pipeline's print handler after each realization; an AOT-style reader sees
// the statistics through upstream's halide_profiler_* API. Expected byte
// counts come from the buffer shapes.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "Halide.h"
#include "HalideRuntime.h"

using namespace Halide;

namespace {

// Upstream 21's layouts (its HalideRuntime.h compiled on this machine): the
// structs are read by programs written against it.
static_assert(sizeof(halide_profiler_func_stats) == 72 && offsetof(halide_profiler_func_stats, name) == 56);
static_assert(sizeof(halide_profiler_pipeline_stats) == 88 && offsetof(halide_profiler_pipeline_stats, funcs) == 56);
static_assert(sizeof(halide_profiler_instance_state) == 112 &&
              offsetof(halide_profiler_instance_state, current_func) == 88);
static_assert(sizeof(halide_profiler_state) == 48 && offsetof(halide_profiler_state, sleep_time) == 40);

std::string printed;

Func two_stage(const std::string &name) {
    Var x("x"), y("y");
    Func g(name + "_in"), f(name);
    g(x, y) = cast<float>(x + y);
    f(x, y) = g(x, y) * 2 + g(x + 1, y);
    g.compute_root();
    return f;
}

} // namespace

TEST(Profiler, JITReportThroughThePrintHandler) {
    Func f = two_stage("cxx_prof");
    printed.clear();
    f.jit_handlers().custom_print = [](JITUserContext *, const char *msg) { printed += msg; };
    Buffer<float> out = f.realize({100, 50}, get_jit_target_from_environment().with_feature(Target::Profile));
    EXPECT_EQ(out(3, 4), 7.0f * 2 + 8.0f);
    EXPECT_EQ(printed.rfind("cxx_prof\n total time: ", 0), 0u) << printed;
    EXPECT_NE(printed.find(" runs: 1 "), std::string::npos) << printed;
    // cxx_prof_in: 101 x 50 floats.
    EXPECT_NE(printed.find("heap allocations: 1  peak heap usage: 20200 bytes"), std::string::npos) << printed;
    EXPECT_NE(printed.find("    cxx_prof_in:"), std::string::npos) << printed;
    // Reset after the report: nothing is left to read.
    EXPECT_EQ(halide_profiler_get_pipeline_state("cxx_prof"), nullptr);
}

TEST(Profiler, NoProfilingBillsAFuncToTheOneAroundIt) {
    Var x("x"), y("y");
    Func f = two_stage("cxx_listed");
    Func inner("cxx_unlisted"), out("cxx_listed_out");
    inner(x, y) = x + y;
    out(x, y) = f(x, y) + cast<float>(inner(x, y));
    inner.compute_at(out, y).no_profiling();
    f.compute_root();
    printed.clear();
    out.jit_handlers().custom_print = [](JITUserContext *, const char *msg) { printed += msg; };
    out.realize({32, 16}, get_jit_target_from_environment().with_feature(Target::Profile));
    EXPECT_NE(printed.find("    cxx_listed_out:"), std::string::npos) << printed;
    EXPECT_NE(printed.find("    cxx_listed_in:"), std::string::npos) << printed;
    EXPECT_EQ(printed.find("cxx_unlisted"), std::string::npos) << printed;
}

TEST(Profiler, NoReportWithoutTheFeature) {
    Func f = two_stage("cxx_unprof");
    printed.clear();
    f.jit_handlers().custom_print = [](JITUserContext *, const char *msg) { printed += msg; };
    f.realize({10, 10});
    EXPECT_EQ(printed, "");
}

TEST(Profiler, StatisticsThroughUpstreamsAPI) {
    halide_profiler_state *s = halide_profiler_get_state();
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->sleep_time, 1000);
    halide_profiler_lock(s);
    halide_profiler_unlock(s);
    // A kernel call made by hand through the entry points our kernels use.
    halide_profiler_instance_state *i =
        halide_profiler_instance_start(nullptr, "by_hand", 4, "overhead\nhalide_malloc\nhalide_free\nstage\n");
    ASSERT_NE(i, nullptr);
    halide_profiler_set_current_func(i, 3);
    halide_profiler_memory_allocate(nullptr, i, 3, 1000);
    halide_profiler_memory_allocate(nullptr, i, 3, 500);
    halide_profiler_memory_free(nullptr, i, 3, 500);
    halide_profiler_memory_free(nullptr, i, 3, 1000);
    halide_profiler_instance_end(nullptr, i);
    halide_profiler_pipeline_stats *p = halide_profiler_get_pipeline_state("by_hand");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->runs, 1);
    EXPECT_EQ(p->num_funcs, 4);
    EXPECT_STREQ(p->funcs[3].name, "stage");
    EXPECT_EQ(p->funcs[3].memory_peak, 1500u);
    EXPECT_EQ(p->funcs[3].num_allocs, 2);
    EXPECT_EQ(p->memory_peak, 1500u);
    EXPECT_EQ(p->memory_total, 1500u);
    halide_profiler_reset();
    EXPECT_EQ(halide_profiler_get_pipeline_state("by_hand"), nullptr);
}
