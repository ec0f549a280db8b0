// Tests of the runtime library (runtime/src): allocator and its hooks, print
// and error hooks, every halide_error_* helper, the thread pool behind
// halide_do_par_for, semaphores, halide_do_parallel_tasks, and the device
// entry points on host-only buffers.
//
// Every test that changes a process-wide hook restores it before returning
// (the RAII guards below do it even when an assertion fails).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <vector>

#include "HalideRuntime.h"

namespace {

// ---------------------------------------------------------------------
// Capturing hooks
// ---------------------------------------------------------------------

struct Captured {
    std::mutex mutex;
    std::vector<std::string> messages;
    std::vector<void *> user_contexts;

    void clear() {
        std::lock_guard<std::mutex> lock(mutex);
        messages.clear();
        user_contexts.clear();
    }
    void add(void *uc, const char *msg) {
        std::lock_guard<std::mutex> lock(mutex);
        messages.emplace_back(msg ? msg : "<null>");
        user_contexts.push_back(uc);
    }
};

Captured g_errors;
Captured g_prints;

void capture_error(void *uc, const char *msg) {
    g_errors.add(uc, msg);
}
void capture_print(void *uc, const char *msg) {
    g_prints.add(uc, msg);
}

// Installs the capturing error handler for the lifetime of the object.
class ErrorCapture {
public:
    ErrorCapture() {
        g_errors.clear();
        previous_ = halide_set_error_handler(capture_error);
    }
    ~ErrorCapture() { halide_set_error_handler(previous_); }
    halide_error_handler_t previous() const { return previous_; }

private:
    halide_error_handler_t previous_;
};

class PrintCapture {
public:
    PrintCapture() {
        g_prints.clear();
        previous_ = halide_set_custom_print(capture_print);
    }
    ~PrintCapture() { halide_set_custom_print(previous_); }
    halide_print_t previous() const { return previous_; }

private:
    halide_print_t previous_;
};

// Restores the thread count on exit.
class ThreadCountGuard {
public:
    ThreadCountGuard() : saved_(halide_get_num_threads()) {}
    ~ThreadCountGuard() { halide_set_num_threads(saved_); }

private:
    int saved_;
};

int g_ctx_tag = 0;
void *const kUserContext = &g_ctx_tag;

// ---------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------

TEST(Runtime, MallocIsAlignedTo64) {
    EXPECT_EQ(halide_malloc_alignment(), 64);
    for (size_t size : {size_t(1), size_t(7), size_t(63), size_t(64), size_t(65), size_t(1000), size_t(1) << 20}) {
        void *p = halide_malloc(nullptr, size);
        ASSERT_NE(p, nullptr) << size;
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << size;
        std::memset(p, 0xab, size); // the whole block is writable
        halide_free(nullptr, p);
    }
    halide_free(nullptr, nullptr); // freeing NULL is harmless
}

// The mapping of /proc/self/smaps that holds `p`: its "AnonHugePages" in kB,
// or -1 when no mapping holds p.
long anon_huge_kb_of_mapping_holding(const void *p) {
    FILE *f = std::fopen("/proc/self/smaps", "r");
    if (!f) {
        return -1;
    }
    char line[512];
    bool inside = false;
    long kb = -1;
    uintptr_t a = reinterpret_cast<uintptr_t>(p);
    while (std::fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (std::sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && std::strchr(line, '-') < std::strchr(line, ' ')) {
            inside = lo <= a && a < hi;
            continue;
        }
        long v;
        if (inside && std::sscanf(line, "AnonHugePages: %ld kB", &v) == 1) {
            kb = v;
            break;
        }
    }
    std::fclose(f);
    return kb;
}

// Transparent huge pages are on for memory that asks for them ("always" or
// "madvise"), as on Debian's kernels.
bool huge_pages_available() {
    FILE *f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    if (!f) {
        return false;
    }
    char buf[128] = {0};
    bool on = std::fgets(buf, sizeof buf, f) && !std::strstr(buf, "[never]");
    std::fclose(f);
    return on;
}

TEST(Runtime, LargeBlocksAreHugePagesAndGiveTheirMemoryBack) {
    const size_t size = size_t(64) << 20;
    auto *p = static_cast<uint8_t *>(halide_malloc(nullptr, size));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    std::memset(p, 0x5a, size);
    // A vector's worth on either side may be read by a kernel.
    volatile uint8_t before = p[-64], after = p[size + 63];
    (void)before;
    (void)after;
    EXPECT_EQ(p[0], 0x5a);
    EXPECT_EQ(p[size - 1], 0x5a);
    ASSERT_GE(anon_huge_kb_of_mapping_holding(p), 0) << "the block is in no mapping";
    if (huge_pages_available()) {
        EXPECT_GT(anon_huge_kb_of_mapping_holding(p), 0) << "a 64 MB block is not backed by huge pages";
    }
    halide_free(nullptr, p);
    // Its own mapping is gone: the memory went back to the system.
    EXPECT_EQ(anon_huge_kb_of_mapping_holding(p), -1);

    // Small blocks still come from the C heap and are freed there.
    void *q = halide_malloc(nullptr, 4096);
    ASSERT_NE(q, nullptr);
    std::memset(q, 1, 4096);
    halide_free(nullptr, q);
}

TEST(Runtime, AFreedLargeBlockIsReusedForTheNextOfItsSize) {
    if (!huge_pages_available()) {
        GTEST_SKIP() << "no transparent huge pages here: large blocks come from the C heap";
    }
    // A block allocated in every iteration of a loop: the second one reuses
    // the first one's pages instead of faulting in new ones.
    const size_t size = size_t(4) << 20;
    void *a = halide_malloc(nullptr, size);
    ASSERT_NE(a, nullptr);
    std::memset(a, 1, size);
    halide_free(nullptr, a);
    rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    void *b = halide_malloc(nullptr, size);
    ASSERT_NE(b, nullptr);
    std::memset(b, 2, size);
    getrusage(RUSAGE_SELF, &after);
#if !defined(__SANITIZE_THREAD__) // ThreadSanitizer's shadow memory faults in as the block is written
    EXPECT_EQ(after.ru_minflt - before.ru_minflt, 0) << "the second block's pages were faulted in again";
#endif
    // The same mapping, at another offset in it.
    EXPECT_LT(std::labs(static_cast<uint8_t *>(b) - static_cast<uint8_t *>(a)), 64 * 1024L);
    halide_free(nullptr, b);

    // Blocks do not all start at the same offset in a page (cache sets).
    std::set<uintptr_t> offsets;
    for (int i = 0; i < 8; i++) {
        void *p = halide_malloc(nullptr, size);
        offsets.insert(reinterpret_cast<uintptr_t>(p) % 4096);
        halide_free(nullptr, p);
    }
    EXPECT_GE(offsets.size(), 4u);
}

TEST(Runtime, LargeBlocksFromManyThreadsDoNotOverlap) {
    std::vector<std::thread> threads;
    std::atomic<int> bad{0};
    for (int t = 0; t < 6; t++) {
        threads.emplace_back([t, &bad] {
            for (int i = 0; i < 20; i++) {
                size_t size = (size_t(2 + (t + i) % 3) << 20) - 100;
                auto *p = static_cast<uint8_t *>(halide_malloc(nullptr, size));
                if (!p) {
                    bad++;
                    return;
                }
                std::memset(p, t + 1, size);
                std::this_thread::yield();
                if (p[0] != t + 1 || p[size / 2] != t + 1 || p[size - 1] != t + 1) {
                    bad++;
                }
                halide_free(nullptr, p);
            }
        });
    }
    for (auto &th : threads) {
        th.join();
    }
    EXPECT_EQ(bad.load(), 0);
}

std::atomic<int> g_malloc_calls{0};
std::atomic<int> g_free_calls{0};
std::atomic<void *> g_malloc_context{nullptr};

void *counting_malloc(void *uc, size_t size) {
    g_malloc_calls++;
    g_malloc_context = uc;
    return halide_default_malloc(uc, size);
}

void counting_free(void *uc, void *p) {
    g_free_calls++;
    halide_default_free(uc, p);
}

TEST(Runtime, CustomMallocAndFreeHooksAreCalledAndRestored) {
    g_malloc_calls = 0;
    g_free_calls = 0;
    halide_malloc_t old_malloc = halide_set_custom_malloc(counting_malloc);
    halide_free_t old_free = halide_set_custom_free(counting_free);
    EXPECT_EQ(old_malloc, halide_default_malloc);
    EXPECT_EQ(old_free, halide_default_free);

    void *p = halide_malloc(kUserContext, 100);
    EXPECT_EQ(g_malloc_calls.load(), 1);
    EXPECT_EQ(g_malloc_context.load(), kUserContext);
    halide_free(kUserContext, p);
    EXPECT_EQ(g_free_calls.load(), 1);

    EXPECT_EQ(halide_set_custom_malloc(old_malloc), counting_malloc);
    EXPECT_EQ(halide_set_custom_free(old_free), counting_free);

    p = halide_malloc(nullptr, 10);
    halide_free(nullptr, p);
    EXPECT_EQ(g_malloc_calls.load(), 1) << "restored hooks must no longer call the custom allocator";
    EXPECT_EQ(g_free_calls.load(), 1);

    // Setting NULL also brings back the default.
    halide_set_custom_malloc(counting_malloc);
    EXPECT_EQ(halide_set_custom_malloc(nullptr), counting_malloc);
    EXPECT_EQ(halide_set_custom_malloc(old_malloc), halide_default_malloc);
}

// ---------------------------------------------------------------------
// Print and error hooks
// ---------------------------------------------------------------------

TEST(Runtime, PrintGoesToTheCustomHook) {
    {
        PrintCapture capture;
        EXPECT_EQ(capture.previous(), halide_default_print);
        halide_print(kUserContext, "hello from the runtime\n");
        ASSERT_EQ(g_prints.messages.size(), 1u);
        EXPECT_EQ(g_prints.messages[0], "hello from the runtime\n");
        EXPECT_EQ(g_prints.user_contexts[0], kUserContext);
    }
    EXPECT_EQ(halide_set_custom_print(nullptr), halide_default_print) << "the guard restored the default";
}

TEST(Runtime, ErrorGoesToTheCustomHandler) {
    {
        ErrorCapture capture;
        EXPECT_EQ(capture.previous(), halide_default_error);
        halide_error(kUserContext, "something failed");
        ASSERT_EQ(g_errors.messages.size(), 1u);
        EXPECT_EQ(g_errors.messages[0], "something failed");
        EXPECT_EQ(g_errors.user_contexts[0], kUserContext);
    }
    EXPECT_EQ(halide_set_error_handler(nullptr), halide_default_error);
}

TEST(RuntimeDeathTest, DefaultErrorHandlerPrintsAndAborts) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    // The default prints "Error: <msg>" through halide_print (stdout) and
    // aborts, as upstream's does.
    EXPECT_EXIT(halide_error(nullptr, "fatal runtime problem"), ::testing::KilledBySignal(SIGABRT), "");
}

// One row per helper: what it must return and a word its message must name.
struct HelperCase {
    const char *helper;
    int expected_code;
    std::function<int(void *)> call;
    std::vector<std::string> must_mention;
};

std::vector<HelperCase> helper_cases() {
    return {
        {"bounds_inference_call_failed",
         -77,
         [](void *uc) { return halide_error_bounds_inference_call_failed(uc, "ext_stage_bi", -77); },
         {"ext_stage_bi", "-77"}},
        {"extern_stage_failed",
         -123,
         [](void *uc) { return halide_error_extern_stage_failed(uc, "ext_stage_run", -123); },
         {"ext_stage_run", "-123"}},
        {"explicit_bounds_too_small",
         halide_error_code_explicit_bounds_too_small,
         [](void *uc) { return halide_error_explicit_bounds_too_small(uc, "func_ebts", "var_ebts", 0, 9, -1, 10); },
         {"func_ebts", "var_ebts"}},
        {"bad_type",
         halide_error_code_bad_type,
         [](void *uc) { return halide_error_bad_type(uc, "input_bt", 0x00012002u, 0x00010801u); },
         {"input_bt"}},
        {"bad_dimensions",
         halide_error_code_bad_dimensions,
         [](void *uc) { return halide_error_bad_dimensions(uc, "input_bd", 3, 2); },
         {"input_bd", "3", "2"}},
        {"access_out_of_bounds",
         halide_error_code_access_out_of_bounds,
         [](void *uc) { return halide_error_access_out_of_bounds(uc, "input_oob", 1, 0, 20, 0, 15); },
         {"input_oob", "20", "15"}},
        {"buffer_allocation_too_large",
         halide_error_code_buffer_allocation_too_large,
         [](void *uc) { return halide_error_buffer_allocation_too_large(uc, "buf_atl", 5000000000ull, 2147483647ull); },
         {"buf_atl", "5000000000"}},
        {"buffer_extents_negative",
         halide_error_code_buffer_extents_negative,
         [](void *uc) { return halide_error_buffer_extents_negative(uc, "buf_neg", 1, -4); },
         {"buf_neg", "-4"}},
        {"buffer_extents_too_large",
         halide_error_code_buffer_extents_too_large,
         [](void *uc) { return halide_error_buffer_extents_too_large(uc, "buf_etl", 3000000000ll, 2147483647ll); },
         {"buf_etl", "3000000000"}},
        {"constraints_make_required_region_smaller",
         halide_error_code_constraints_make_required_region_smaller,
         [](void *uc) { return halide_error_constraints_make_required_region_smaller(uc, "buf_cmr", 0, 0, 8, 0, 10); },
         {"buf_cmr"}},
        {"constraint_violated",
         halide_error_code_constraint_violated,
         [](void *uc) { return halide_error_constraint_violated(uc, "var_cv", 3, "other_cv", 4); },
         {"var_cv", "other_cv"}},
        {"param_too_small_i64",
         halide_error_code_param_too_small,
         [](void *uc) { return halide_error_param_too_small_i64(uc, "p_small_i", -5, 0); },
         {"p_small_i", "-5"}},
        {"param_too_small_u64",
         halide_error_code_param_too_small,
         [](void *uc) { return halide_error_param_too_small_u64(uc, "p_small_u", 1, 2); },
         {"p_small_u"}},
        {"param_too_small_f64",
         halide_error_code_param_too_small,
         [](void *uc) { return halide_error_param_too_small_f64(uc, "p_small_f", 0.25, 0.5); },
         {"p_small_f", "0.25"}},
        {"param_too_large_i64",
         halide_error_code_param_too_large,
         [](void *uc) { return halide_error_param_too_large_i64(uc, "p_large_i", 100, 10); },
         {"p_large_i", "100"}},
        {"param_too_large_u64",
         halide_error_code_param_too_large,
         [](void *uc) { return halide_error_param_too_large_u64(uc, "p_large_u", 18446744073709551615ull, 7); },
         {"p_large_u", "18446744073709551615"}},
        {"param_too_large_f64",
         halide_error_code_param_too_large,
         [](void *uc) { return halide_error_param_too_large_f64(uc, "p_large_f", 100.5, 10.5); },
         {"p_large_f", "100.5"}},
        {"out_of_memory", halide_error_code_out_of_memory, [](void *uc) { return halide_error_out_of_memory(uc); }, {}},
        {"buffer_argument_is_null",
         halide_error_code_buffer_argument_is_null,
         [](void *uc) { return halide_error_buffer_argument_is_null(uc, "buf_null_arg"); },
         {"buf_null_arg"}},
        {"debug_to_file_failed",
         halide_error_code_debug_to_file_failed,
         [](void *uc) { return halide_error_debug_to_file_failed(uc, "func_dtf", "/tmp/file_dtf.tmp", -5); },
         {"func_dtf", "file_dtf"}},
        {"unaligned_host_ptr",
         halide_error_code_unaligned_host_ptr,
         [](void *uc) { return halide_error_unaligned_host_ptr(uc, "func_uhp", 32); },
         {"func_uhp", "32"}},
        {"host_is_null",
         halide_error_code_host_is_null,
         [](void *uc) { return halide_error_host_is_null(uc, "func_hin"); },
         {"func_hin"}},
        {"bad_fold",
         halide_error_code_bad_fold,
         [](void *uc) { return halide_error_bad_fold(uc, "func_bf", "var_bf", "loop_bf"); },
         {"func_bf", "var_bf", "loop_bf"}},
        {"bad_extern_fold",
         halide_error_code_bad_extern_fold,
         [](void *uc) { return halide_error_bad_extern_fold(uc, "func_bef", 1, 0, 10, 0, 4); },
         {"func_bef"}},
        {"fold_factor_too_small",
         halide_error_code_fold_factor_too_small,
         [](void *uc) { return halide_error_fold_factor_too_small(uc, "func_fft", "var_fft", 2, "loop_fft", 5); },
         {"func_fft", "var_fft", "loop_fft"}},
        {"requirement_failed",
         halide_error_code_requirement_failed,
         [](void *uc) { return halide_error_requirement_failed(uc, "x_rf > 0", "message_rf"); },
         {"x_rf > 0", "message_rf"}},
        {"specialize_fail",
         halide_error_code_specialize_fail,
         [](void *uc) { return halide_error_specialize_fail(uc, "message_sf"); },
         {"message_sf"}},
        {"no_device_interface",
         halide_error_code_no_device_interface,
         [](void *uc) { return halide_error_no_device_interface(uc); },
         {}},
        {"device_interface_no_device",
         halide_error_code_device_interface_no_device,
         [](void *uc) { return halide_error_device_interface_no_device(uc); },
         {}},
        {"host_and_device_dirty",
         halide_error_code_host_and_device_dirty,
         [](void *uc) { return halide_error_host_and_device_dirty(uc); },
         {}},
        {"buffer_is_null",
         halide_error_code_buffer_is_null,
         [](void *uc) { return halide_error_buffer_is_null(uc, "routine_bin"); },
         {"routine_bin"}},
        {"device_dirty_with_no_device_support",
         halide_error_code_device_dirty_with_no_device_support,
         [](void *uc) { return halide_error_device_dirty_with_no_device_support(uc, "buf_ddnds"); },
         {"buf_ddnds"}},
        {"storage_bound_too_small",
         halide_error_code_storage_bound_too_small,
         [](void *uc) { return halide_error_storage_bound_too_small(uc, "func_sbts", "var_sbts", 4, 9); },
         {"func_sbts", "var_sbts"}},
        {"device_crop_failed",
         halide_error_code_device_crop_failed,
         [](void *uc) { return halide_error_device_crop_failed(uc); },
         {}},
        {"split_factor_not_positive",
         halide_error_code_split_factor_not_positive,
         [](void *uc) {
             return halide_error_split_factor_not_positive(uc, "func_sfnp", "x_orig", "x_outer", "x_inner", "k_factor",
                                                           0);
         },
         {"func_sfnp", "x_orig", "k_factor"}},
    };
}

TEST(Runtime, EveryErrorHelperReturnsItsCodeAndNamesItsArgument) {
    ErrorCapture capture;
    for (const HelperCase &c : helper_cases()) {
        SCOPED_TRACE(c.helper);
        g_errors.clear();
        const int code = c.call(kUserContext);
        EXPECT_EQ(code, c.expected_code);
        ASSERT_EQ(g_errors.messages.size(), 1u) << "exactly one message per failure";
        const std::string &msg = g_errors.messages[0];
        EXPECT_FALSE(msg.empty());
        EXPECT_NE(msg.back(), '\n') << "messages reach the handler without a trailing newline";
        EXPECT_EQ(g_errors.user_contexts[0], kUserContext) << "the user context is passed through";
        for (const std::string &word : c.must_mention) {
            EXPECT_NE(msg.find(word), std::string::npos) << "message \"" << msg << "\" should mention " << word;
        }
    }
}

TEST(Runtime, ErrorHelpersTolerateNullNames) {
    ErrorCapture capture;
    EXPECT_EQ(halide_error_buffer_argument_is_null(nullptr, nullptr), halide_error_code_buffer_argument_is_null);
    EXPECT_EQ(halide_error_requirement_failed(nullptr, nullptr, nullptr), halide_error_code_requirement_failed);
    EXPECT_EQ(g_errors.messages.size(), 2u);
}

// ---------------------------------------------------------------------
// Thread pool: halide_do_par_for
// ---------------------------------------------------------------------

struct CountingClosure {
    int min;
    std::vector<std::atomic<int>> *counts;
};

int count_task(void *, int idx, uint8_t *closure) {
    auto *c = reinterpret_cast<CountingClosure *>(closure);
    (*c->counts)[(size_t)(idx - c->min)]++;
    return 0;
}

void expect_each_index_once(int min, int size) {
    std::vector<std::atomic<int>> counts((size_t)(size > 0 ? size : 1));
    for (auto &a : counts) {
        a = 0;
    }
    CountingClosure closure{min, &counts};
    EXPECT_EQ(halide_do_par_for(nullptr, count_task, min, size, reinterpret_cast<uint8_t *>(&closure)), 0);
    if (size <= 0) {
        EXPECT_EQ(counts[0].load(), 0) << "size " << size << " must run nothing";
        return;
    }
    for (int i = 0; i < size; i++) {
        ASSERT_EQ(counts[(size_t)i].load(), 1) << "index " << (min + i) << " of " << size;
    }
}

TEST(Runtime, ParForRunsEveryIndexExactlyOnce) {
    expect_each_index_once(0, 0);
    expect_each_index_once(0, -3);
    expect_each_index_once(0, 1);
    expect_each_index_once(0, 1000);
    expect_each_index_once(-500, 1000);
    expect_each_index_once(17, 3);
}

TEST(Runtime, ParForPassesUserContextAndClosure) {
    struct Seen {
        std::atomic<int> wrong{0};
        int tag = 1234;
    } seen;
    auto task = [](void *uc, int, uint8_t *closure) -> int {
        auto *s = reinterpret_cast<Seen *>(closure);
        if (uc != kUserContext || s->tag != 1234) {
            s->wrong++;
        }
        return 0;
    };
    EXPECT_EQ(halide_do_par_for(kUserContext, task, 0, 100, reinterpret_cast<uint8_t *>(&seen)), 0);
    EXPECT_EQ(seen.wrong.load(), 0);
}

int failing_task(void *, int idx, uint8_t *) {
    return idx == 500 ? -1234 : 0;
}

int failing_many(void *, int idx, uint8_t *) {
    return idx % 100 == 7 ? -(idx + 1) : 0;
}

TEST(Runtime, ParForReturnsAFailingTasksCode) {
    EXPECT_EQ(halide_do_par_for(nullptr, failing_task, 0, 1000, nullptr), -1234);
    EXPECT_EQ(halide_do_par_for(nullptr, failing_task, 500, 1, nullptr), -1234);
    const int r = halide_do_par_for(nullptr, failing_many, 0, 1000, nullptr);
    EXPECT_LT(r, 0);
    EXPECT_EQ((-r - 1) % 100, 7) << "the result is one of the failing tasks' codes, got " << r;
    // The pool still works afterwards.
    expect_each_index_once(0, 200);
}

struct NestedClosure {
    std::vector<std::atomic<int>> *counts;
    std::atomic<int> inner_failures{0};
};

constexpr int kOuter = 8, kInner = 100;

int nested_inner(void *, int idx, uint8_t *closure) {
    auto *c = reinterpret_cast<NestedClosure *>(closure);
    (*c->counts)[(size_t)idx]++;
    return 0;
}

int nested_outer(void *uc, int outer, uint8_t *closure) {
    auto *c = reinterpret_cast<NestedClosure *>(closure);
    if (halide_do_par_for(uc, nested_inner, outer * kInner, kInner, closure) != 0) {
        c->inner_failures++;
    }
    return 0;
}

TEST(Runtime, NestedParForWorks) {
    ThreadCountGuard guard;
    for (int threads : {1, 2, 4}) {
        SCOPED_TRACE(threads);
        halide_set_num_threads(threads);
        std::vector<std::atomic<int>> counts(kOuter * kInner);
        for (auto &a : counts) {
            a = 0;
        }
        NestedClosure closure;
        closure.counts = &counts;
        EXPECT_EQ(halide_do_par_for(nullptr, nested_outer, 0, kOuter, reinterpret_cast<uint8_t *>(&closure)), 0);
        EXPECT_EQ(closure.inner_failures.load(), 0);
        for (int i = 0; i < kOuter * kInner; i++) {
            ASSERT_EQ(counts[(size_t)i].load(), 1) << i;
        }
    }
}

TEST(Runtime, SetNumThreadsReturnsPreviousAndRejectsNegative) {
    ThreadCountGuard guard;
    halide_set_num_threads(3);
    EXPECT_EQ(halide_get_num_threads(), 3);
    EXPECT_EQ(halide_set_num_threads(5), 3);
    EXPECT_EQ(halide_set_num_threads(2), 5);
    EXPECT_EQ(halide_get_num_threads(), 2);

    {
        ErrorCapture capture;
        const int r = halide_set_num_threads(-1);
        EXPECT_LT(r, 0) << "a negative count is an error";
        EXPECT_EQ(r, halide_error_code_generic_error);
        EXPECT_EQ(g_errors.messages.size(), 1u) << "and is reported through halide_error";
    }
    EXPECT_EQ(halide_get_num_threads(), 2) << "a rejected call changes nothing";

    // 0 means the default count, which is at least one thread.
    EXPECT_EQ(halide_set_num_threads(0), 2);
    EXPECT_GE(halide_get_num_threads(), 1);
    EXPECT_LE(halide_get_num_threads(), 256);
    expect_each_index_once(0, 300);
}

TEST(Runtime, DefaultThreadCountFollowsEnvironment) {
    ThreadCountGuard guard;
    const char *saved = std::getenv("HL_NUM_THREADS");
    const std::string saved_value = saved ? saved : "";
    setenv("HL_NUM_THREADS", "3", 1);
    halide_set_num_threads(0);
    EXPECT_EQ(halide_get_num_threads(), 3);
    setenv("HL_NUM_THREADS", "100000", 1);
    halide_set_num_threads(0);
    EXPECT_EQ(halide_get_num_threads(), 256) << "clamped to the maximum";
    if (saved) {
        setenv("HL_NUM_THREADS", saved_value.c_str(), 1);
    } else {
        unsetenv("HL_NUM_THREADS");
    }
}

TEST(Runtime, ThreadPoolCanBeShutDownAndReused) {
    ThreadCountGuard guard;
    halide_set_num_threads(3);
    expect_each_index_once(0, 500);
    halide_shutdown_thread_pool();
    halide_shutdown_thread_pool(); // a second shutdown is harmless
    expect_each_index_once(0, 500);
    EXPECT_EQ(halide_get_num_threads(), 3) << "shutdown keeps the configured count";
}

struct ThreadIdClosure {
    std::mutex mutex;
    std::set<std::thread::id> ids;
};

int sleepy_task(void *, int, uint8_t *closure) {
    auto *c = reinterpret_cast<ThreadIdClosure *>(closure);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::lock_guard<std::mutex> lock(c->mutex);
    c->ids.insert(std::this_thread::get_id());
    return 0;
}

TEST(Runtime, WorkSpreadsOverSeveralThreads) {
    ThreadCountGuard guard;
    halide_set_num_threads(4);
    ThreadIdClosure closure;
    EXPECT_EQ(halide_do_par_for(nullptr, sleepy_task, 0, 64, reinterpret_cast<uint8_t *>(&closure)), 0);
    EXPECT_GT(closure.ids.size(), 1u) << "tasks that sleep should be picked up by more than one thread";
    EXPECT_LE(closure.ids.size(), 4u) << "no more threads than requested";
}

std::atomic<int> g_custom_par_for_calls{0};

int custom_par_for(void *uc, halide_task_t task, int min, int size, uint8_t *closure) {
    g_custom_par_for_calls++;
    for (int i = min; i < min + size; i++) {
        int r = halide_do_task(uc, task, i, closure);
        if (r) {
            return r;
        }
    }
    return 0;
}

TEST(Runtime, CustomDoParForHookIsUsedAndRestored) {
    g_custom_par_for_calls = 0;
    halide_do_par_for_t old = halide_set_custom_do_par_for(custom_par_for);
    EXPECT_EQ(old, halide_default_do_par_for);
    expect_each_index_once(3, 50);
    EXPECT_EQ(g_custom_par_for_calls.load(), 1);
    EXPECT_EQ(halide_set_custom_do_par_for(old), custom_par_for);
    expect_each_index_once(3, 50);
    EXPECT_EQ(g_custom_par_for_calls.load(), 1);
}

// ---------------------------------------------------------------------
// Semaphores and halide_do_parallel_tasks
// ---------------------------------------------------------------------

TEST(Runtime, SemaphoreSemantics) {
    halide_semaphore_t sem;
    EXPECT_EQ(halide_semaphore_init(&sem, 0), 0);
    EXPECT_FALSE(halide_semaphore_try_acquire(&sem, 1)) << "nothing to take at zero";
    EXPECT_EQ(halide_semaphore_release(&sem, 2), 2) << "release returns the new count";
    EXPECT_FALSE(halide_semaphore_try_acquire(&sem, 3)) << "cannot take more than is there";
    EXPECT_TRUE(halide_semaphore_try_acquire(&sem, 1));
    EXPECT_TRUE(halide_semaphore_try_acquire(&sem, 1));
    EXPECT_FALSE(halide_semaphore_try_acquire(&sem, 1));
    EXPECT_EQ(halide_semaphore_release(&sem, 1), 1);
    EXPECT_TRUE(halide_semaphore_try_acquire(&sem, 1));

    EXPECT_EQ(halide_semaphore_init(&sem, 5), 5);
    EXPECT_TRUE(halide_semaphore_try_acquire(&sem, 5));
    EXPECT_FALSE(halide_semaphore_try_acquire(&sem, 1));
    EXPECT_TRUE(halide_semaphore_try_acquire(&sem, 0)) << "taking zero always succeeds";
}

TEST(Runtime, SemaphoreIsThreadSafe) {
    halide_semaphore_t sem;
    halide_semaphore_init(&sem, 0);
    constexpr int kPerThread = 10000;
    std::atomic<int> taken{0};
    std::thread producer([&] {
        for (int i = 0; i < kPerThread * 2; i++) {
            halide_semaphore_release(&sem, 1);
        }
    });
    std::vector<std::thread> consumers;
    for (int t = 0; t < 2; t++) {
        consumers.emplace_back([&] {
            int mine = 0;
            while (mine < kPerThread) {
                if (halide_semaphore_try_acquire(&sem, 1)) {
                    mine++;
                }
            }
            taken += mine;
        });
    }
    producer.join();
    for (auto &t : consumers) {
        t.join();
    }
    EXPECT_EQ(taken.load(), 2 * kPerThread);
    EXPECT_FALSE(halide_semaphore_try_acquire(&sem, 1)) << "every release was consumed exactly once";
}

// A pipeline with an async producer: the producer fills slot i and releases
// the semaphore once per iteration; consumer iteration i must acquire one
// count first, so it only runs after producer iterations 0..i.
constexpr int kPipelineLength = 100;

struct PipelineState {
    halide_semaphore_t ready;
    std::atomic<int> produced[kPipelineLength];
    int consumed[kPipelineLength];
    std::atomic<int> order_violations{0};
    std::atomic<int> producer_calls{0}, consumer_calls{0};
    void *task_parent_seen = nullptr;
};

int producer_fn(void *, int min, int extent, uint8_t *closure, void *) {
    auto *s = reinterpret_cast<PipelineState *>(closure);
    s->producer_calls++;
    for (int i = min; i < min + extent; i++) {
        s->produced[i].store(i * 3 + 1, std::memory_order_release);
        halide_semaphore_release(&s->ready, 1);
    }
    return 0;
}

int consumer_fn(void *, int min, int extent, uint8_t *closure, void *task_parent) {
    auto *s = reinterpret_cast<PipelineState *>(closure);
    s->consumer_calls++;
    s->task_parent_seen = task_parent;
    for (int i = min; i < min + extent; i++) {
        const int v = s->produced[i].load(std::memory_order_acquire);
        if (v == 0) {
            s->order_violations++;
        }
        s->consumed[i] = v * 2;
    }
    return 0;
}

TEST(Runtime, ParallelTasksProducerConsumerThroughSemaphore) {
    PipelineState state;
    for (int i = 0; i < kPipelineLength; i++) {
        state.produced[i] = 0;
        state.consumed[i] = -1;
    }
    halide_semaphore_init(&state.ready, 0);

    halide_semaphore_acquire_t consumer_needs[1] = {{&state.ready, 1}};
    halide_parallel_task_t tasks[2] = {};
    // The consumer is listed first, so the scheduler must cope with a task
    // that cannot start yet.
    tasks[0].fn = consumer_fn;
    tasks[0].closure = reinterpret_cast<uint8_t *>(&state);
    tasks[0].name = "consumer";
    tasks[0].semaphores = consumer_needs;
    tasks[0].num_semaphores = 1;
    tasks[0].min = 0;
    tasks[0].extent = kPipelineLength;
    tasks[0].min_threads = 0;
    tasks[0].serial = false;
    tasks[1].fn = producer_fn;
    tasks[1].closure = reinterpret_cast<uint8_t *>(&state);
    tasks[1].name = "producer";
    tasks[1].semaphores = nullptr;
    tasks[1].num_semaphores = 0;
    tasks[1].min = 0;
    tasks[1].extent = kPipelineLength;
    tasks[1].min_threads = 0;
    tasks[1].serial = true; // iterations in order, so count k means slots 0..k-1 are ready

    int parent_tag = 0;
    EXPECT_EQ(halide_do_parallel_tasks(nullptr, 2, tasks, &parent_tag), 0);
    EXPECT_EQ(state.order_violations.load(), 0) << "a consumer iteration ran before its producer iteration";
    for (int i = 0; i < kPipelineLength; i++) {
        ASSERT_EQ(state.consumed[i], (i * 3 + 1) * 2) << i;
    }
    EXPECT_GE(state.producer_calls.load(), 1);
    EXPECT_GE(state.consumer_calls.load(), 1);
    EXPECT_EQ(state.task_parent_seen, &parent_tag);
    EXPECT_FALSE(halide_semaphore_try_acquire(&state.ready, 1)) << "the consumer took every count";
}

int failing_loop_task(void *, int min, int extent, uint8_t *, void *) {
    return (min <= 5 && 5 < min + extent) ? -55 : 0;
}

TEST(Runtime, ParallelTasksPropagateFailure) {
    halide_parallel_task_t task = {};
    task.fn = failing_loop_task;
    task.name = "fails_at_5";
    task.min = 0;
    task.extent = 10;
    task.serial = true;
    EXPECT_EQ(halide_do_parallel_tasks(nullptr, 1, &task, nullptr), -55);
    task.serial = false;
    EXPECT_EQ(halide_do_parallel_tasks(nullptr, 1, &task, nullptr), -55);
    EXPECT_EQ(halide_do_parallel_tasks(nullptr, 0, nullptr, nullptr), 0) << "no tasks: nothing to do";
}

// ---------------------------------------------------------------------
// Device entry points on host-only buffers
// ---------------------------------------------------------------------

TEST(Runtime, DeviceCallsOnHostBuffers) {
    ErrorCapture capture; // the NULL cases report an error
    std::vector<float> storage(12);
    halide_dimension_t dims[2] = {{0, 4, 1}, {0, 3, 4}};
    halide_buffer_t buf = {};
    buf.host = reinterpret_cast<uint8_t *>(storage.data());
    buf.type = halide_type_t(halide_type_float, 32);
    buf.dimensions = 2;
    buf.dim = dims;
    buf.set_host_dirty();

    EXPECT_EQ(halide_copy_to_host(nullptr, &buf), 0);
    EXPECT_EQ(halide_device_sync(nullptr, &buf), 0);
    EXPECT_EQ(halide_device_free(nullptr, &buf), 0);
    EXPECT_EQ(buf.host, reinterpret_cast<uint8_t *>(storage.data())) << "host memory is left alone";
    EXPECT_TRUE(buf.host_dirty()) << "host dirty survives device_free";
    EXPECT_EQ(buf.device, 0u);
    EXPECT_EQ(g_errors.messages.size(), 0u) << "host-only calls succeed silently";

    EXPECT_EQ(halide_copy_to_device(nullptr, &buf, nullptr), halide_error_code_no_device_interface);

    g_errors.clear();
    EXPECT_EQ(halide_copy_to_host(nullptr, nullptr), halide_error_code_buffer_is_null);
    EXPECT_EQ(halide_device_free(nullptr, nullptr), halide_error_code_buffer_is_null);
    EXPECT_EQ(halide_device_sync(nullptr, nullptr), halide_error_code_buffer_is_null);
    EXPECT_EQ(halide_device_malloc(nullptr, nullptr, nullptr), halide_error_code_buffer_is_null);
    EXPECT_EQ(g_errors.messages.size(), 4u);
    if (g_errors.messages.size() >= 2) {
        EXPECT_NE(g_errors.messages[0].find("halide_copy_to_host"), std::string::npos) << g_errors.messages[0];
        EXPECT_NE(g_errors.messages[1].find("halide_device_free"), std::string::npos) << g_errors.messages[1];
    }

    halide_device_free_as_destructor(nullptr, &buf); // must not crash
}

} // namespace

// halide_can_use_target_features: non-CPU feature bits say nothing, a
// feature masked by HL_DISABLE_FEATURES is absent.
TEST(TargetFeatures, MaskedFeaturesAreAbsent) {
    uint64_t none[2] = {0, 0};
    EXPECT_EQ(halide_can_use_target_features(2, none), 1);
    uint64_t no_runtime[2] = {uint64_t(1) << halide_target_feature_no_runtime, 0};
    EXPECT_EQ(halide_can_use_target_features(2, no_runtime), 1);
    uint64_t sse41[2] = {uint64_t(1) << 5,
                         0}; // halide_target_feature_sse41 (upstream 21's number), on every x86-64 CPU of this kind
    setenv("HL_DISABLE_FEATURES", "avx2,sse41", 1);
    EXPECT_EQ(halide_can_use_target_features(2, sse41), 0);
    setenv("HL_DISABLE_FEATURES", "avx2", 1);
    EXPECT_EQ(halide_can_use_target_features(2, sse41), __builtin_cpu_supports("sse4.1") ? 1 : 0);
    unsetenv("HL_DISABLE_FEATURES");
}

// avxvnni, avx512_zen4, avx512_zen5 and avx512_sapphirerapids are checked against the CPU: a
// kernel built for one runs only where its instructions are, which gcc's
// __builtin_cpu_supports (its own cpuid reading) tells independently.
// Zen 4: Cannon Lake's AVX-512 plus VNNI, BF16, VBMI2, BITALG, VPOPCNTDQ;
// Zen 5: those plus AVX-VNNI and VP2INTERSECT.
TEST(TargetFeatures, NewerX86FeaturesFollowTheCpu) {
    __builtin_cpu_init();
    const bool avxvnni = __builtin_cpu_supports("avxvnni");
    const bool zen4 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512ifma") &&
                      __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512vnni") &&
                      __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512vbmi2") &&
                      __builtin_cpu_supports("avx512bitalg") && __builtin_cpu_supports("avx512vpopcntdq");
    const bool zen5 = zen4 && avxvnni && __builtin_cpu_supports("avx512vp2intersect");
    // Upstream 21's sapphirerapids code may use AVX512-FP16 and AVX-VNNI,
    // which Zen 4 and 5 (BF16 and VNNI) lack or half lack.
    const bool sapphirerapids = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
                                __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                                __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bf16") &&
                                __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512fp16") && avxvnni;
    auto bits = [](int feature) {
        std::vector<uint64_t> b(2, 0);
        b[(size_t)feature >> 6] |= uint64_t(1) << (feature & 63);
        return b;
    };
    // upstream 21's numbers: avxvnni 8, avx512_zen4 44, avx512_zen5 45
    EXPECT_EQ(halide_target_feature_avxvnni, 8);
    EXPECT_EQ(halide_target_feature_avx512_zen4, 44);
    EXPECT_EQ(halide_target_feature_avx512_zen5, 45);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avxvnni).data()), avxvnni ? 1 : 0);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avx512_zen4).data()), zen4 ? 1 : 0);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avx512_zen5).data()), zen5 ? 1 : 0);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avx512_sapphirerapids).data()),
              sapphirerapids ? 1 : 0);
    // Masked, each is absent (the weaker CPU's answer, whatever this one has).
    setenv("HL_DISABLE_FEATURES", "avxvnni,avx512_zen4,avx512_zen5", 1);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avxvnni).data()), 0);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avx512_zen4).data()), 0);
    EXPECT_EQ(halide_can_use_target_features(2, bits(halide_target_feature_avx512_zen5).data()), 0);
    unsetenv("HL_DISABLE_FEATURES");
}
