// user_context_value(): under the JIT, the JITUserContext * of the call
// (the one given to realize or a Callable), as C functions called from the
// pipeline (HalideExtern, define_extern) receive it, on every thread.
#include <gtest/gtest.h>

#include <atomic>

#include "Halide.h"

using namespace Halide;

namespace {
std::atomic<void *> seen{nullptr};
std::atomic<int> mismatches{0};
} // namespace

// Returns 3 * x; records the context it was given.
extern "C" HALIDE_EXPORT_SYMBOL int uc_record(void *uc, int x) {
    void *first = seen.exchange(uc);
    if (first != nullptr && first != uc) {
        mismatches++;
    }
    return 3 * x;
}
HalideExtern_2(int, uc_record, void *, int);

// An extern stage: out(x) = x + 100 (int32); records the context it was given.
extern "C" HALIDE_EXPORT_SYMBOL int uc_stage(void *uc, halide_buffer_t *out) {
    seen = uc;
    if (out->host == nullptr) {
        return 0; // a bounds query: it reads nothing
    }
    for (int i = 0; i < out->dim[0].extent; i++) {
        reinterpret_cast<int32_t *>(out->host)[i * out->dim[0].stride] = out->dim[0].min + i + 100;
    }
    return 0;
}

TEST(UserContext, IsAHandle) {
    Expr uc = user_context_value();
    EXPECT_TRUE(uc.type().is_handle());
}

TEST(UserContext, RealizeGivesItsContextToExternCalls) {
    Var x;
    Func f("uc_f");
    f(x) = uc_record(user_context_value(), x);
    JITUserContext ctx;
    seen = nullptr;
    Buffer<int> out = f.realize(&ctx, {5});
    EXPECT_EQ(seen.load(), static_cast<void *>(&ctx));
    for (int i = 0; i < 5; i++) {
        EXPECT_EQ(out(i), 3 * i);
    }
    // Without one, the call's own context: not null.
    seen = nullptr;
    f.realize({5});
    EXPECT_NE(seen.load(), nullptr);
    EXPECT_NE(seen.load(), static_cast<void *>(&ctx));
}

TEST(UserContext, ParallelTasksReceiveTheSameContext) {
    Var x;
    Func f("uc_par");
    f(x) = uc_record(user_context_value(), x);
    f.parallel(x);
    JITUserContext ctx;
    seen = nullptr;
    mismatches = 0;
    Buffer<int> out = f.realize(&ctx, {64});
    EXPECT_EQ(seen.load(), static_cast<void *>(&ctx));
    EXPECT_EQ(mismatches.load(), 0);
    EXPECT_EQ(out(63), 189);
}

TEST(UserContext, CallableGivesItsContextToExternCalls) {
    Param<int> k("uc_k");
    Var x;
    Func f("uc_callable");
    f(x) = uc_record(user_context_value(), x) + k;
    Callable c = f.compile_to_callable({k});
    JITUserContext ctx;
    Buffer<int> out(4);
    seen = nullptr;
    ASSERT_EQ(c(&ctx, 10, out), 0);
    EXPECT_EQ(seen.load(), static_cast<void *>(&ctx));
    EXPECT_EQ(out(2), 16);
}

TEST(UserContext, ExternStagesReceiveItAsAnArgument) {
    Var x;
    Func g("uc_stage_f");
    g.define_extern("uc_stage", {user_context_value()}, Int(32), 1);
    Func h("uc_stage_h");
    h(x) = g(x) * 2;
    JITUserContext ctx;
    seen = nullptr;
    Buffer<int> out = h.realize(&ctx, {6});
    EXPECT_EQ(seen.load(), static_cast<void *>(&ctx));
    for (int i = 0; i < 6; i++) {
        EXPECT_EQ(out(i), 2 * (i + 100));
    }
}

TEST(UserContext, HandlersReceiveTheContextThePipelineSees) {
    // The print handler's context and the one extern calls get are the same.
    static void *printed_with = nullptr;
    Var x;
    Func f("uc_print");
    f(x) = print(uc_record(user_context_value(), x));
    JITUserContext ctx;
    ctx.handlers.custom_print = [](JITUserContext *uc, const char *) { printed_with = uc; };
    seen = nullptr;
    f.realize(&ctx, {2});
    EXPECT_EQ(printed_with, static_cast<void *>(&ctx));
    EXPECT_EQ(seen.load(), static_cast<void *>(&ctx));
}

TEST(UserContext, EvaluateRunsWithTheContextGiven) {
    // Upstream's evaluate(JITUserContext *, ...): the pipeline's handlers
    // are the context's.
    static std::string printed;
    JITUserContext ctx;
    ctx.handlers.custom_print = [](JITUserContext *, const char *msg) { printed += msg; };
    printed.clear();
    EXPECT_EQ(evaluate<int>(&ctx, print(Expr(20) + 22)), 42);
    EXPECT_EQ(printed, "42\n");
    int a = 0;
    float b = 0;
    printed.clear();
    evaluate(&ctx, Tuple(print(Expr(7)), Expr(1.5f)), &a, &b);
    EXPECT_EQ(a, 7);
    EXPECT_EQ(b, 1.5f);
    EXPECT_EQ(printed, "7\n");
}
