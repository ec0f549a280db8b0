// The sampling profiler behind the `profile` target feature.
//
// A profiled kernel call registers an instance (halide_profiler_instance_start)
// and says which Func it is computing as it goes (set_current_func). A
// thread started on first use wakes every sleep_time microseconds and bills
// the time since its last wake to each running instance's current Func, with
// the number of threads working on it. When the call ends, its statistics
// are scaled to its wall time and merged into its pipeline's, which persist
// (by pipeline name) until a reset. halide_profiler_report prints them in
// upstream's layout; they are also printed at exit.
//
// C library and POSIX threads only, as the rest of the runtime.
#include <atomic>
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "HalideRuntime.h"
#include "profiler.h"

namespace {

uint64_t now_ns() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

std::atomic<uintptr_t> &word(halide_mutex *m) {
    static_assert(sizeof(std::atomic<uintptr_t>) == sizeof(m->_private), "a halide_mutex is one word");
    return *reinterpret_cast<std::atomic<uintptr_t> *>(m->_private);
}

halide_profiler_state the_state = {{{0}}, nullptr, nullptr, nullptr, nullptr, 1000, 0};
pthread_t sampler;
bool sampler_running = false;

class Lock {
public:
    Lock() { halide_mutex_lock(&the_state.lock); }
    ~Lock() { halide_mutex_unlock(&the_state.lock); }
    Lock(const Lock &) = delete;
    Lock &operator=(const Lock &) = delete;
};

void *sampler_main(void *) {
    uint64_t prev = now_ns();
    for (;;) {
        int sleep_us;
        {
            Lock lock;
            if (the_state.shutdown) {
                return nullptr;
            }
            halide_profiler_sample(&the_state, &prev);
            sleep_us = the_state.sleep_time > 0 ? the_state.sleep_time : 1000;
        }
        usleep((useconds_t)sleep_us);
    }
}

void stop_sampler() {
    bool join;
    {
        Lock lock;
        the_state.shutdown = 1;
        join = sampler_running;
        sampler_running = false;
    }
    if (join) {
        pthread_join(sampler, nullptr);
    }
}

void start_sampler_locked() {
    if (sampler_running) {
        return;
    }
    the_state.shutdown = 0;
    sampler_running = pthread_create(&sampler, nullptr, sampler_main, nullptr) == 0;
}

// At exit (or when a kernel library is unloaded): a destructor, since
// kernels are linked without the C library's atexit wrapper.
// Stops the sampling thread without waiting for running kernels (a thread
// still computing must not hang the exit).
__attribute__((destructor)) void report_at_exit() {
    halide_profiler_report(nullptr);
    stop_sampler();
}

// The stats of the pipeline named `name`, made with these Func names if new.
halide_profiler_pipeline_stats *find_or_add_pipeline_locked(const char *name, int num_funcs, const char *func_names) {
    for (auto *p = the_state.pipelines; p; p = static_cast<halide_profiler_pipeline_stats *>(p->next)) {
        if (p->num_funcs == num_funcs && strcmp(p->name, name) == 0) {
            return p;
        }
    }
    // One block: the stats, the Func stats, then the names (a kernel's
    // strings may go away with its JIT module; these stay until a reset).
    size_t names_bytes = strlen(func_names) + 1, name_bytes = strlen(name) + 1;
    size_t bytes = sizeof(halide_profiler_pipeline_stats) + num_funcs * sizeof(halide_profiler_func_stats) +
                   names_bytes + name_bytes;
    auto *p = static_cast<halide_profiler_pipeline_stats *>(calloc(1, bytes));
    if (!p) {
        return nullptr;
    }
    p->funcs = reinterpret_cast<halide_profiler_func_stats *>(p + 1);
    char *names = reinterpret_cast<char *>(p->funcs + num_funcs);
    memcpy(names, func_names, names_bytes);
    char *own_name = names + names_bytes;
    memcpy(own_name, name, name_bytes);
    p->name = own_name;
    p->num_funcs = num_funcs;
    for (int i = 0; i < num_funcs; i++) {
        p->funcs[i].name = names;
        char *end = strchr(names, '\n');
        if (!end) {
            // Fewer names than Funcs: the rest are unnamed.
            for (int j = i + 1; j < num_funcs; j++) {
                p->funcs[j].name = "";
            }
            break;
        }
        *end = '\0';
        names = end + 1;
    }
    p->next = the_state.pipelines;
    the_state.pipelines = p;
    return p;
}

void add_func_stats(halide_profiler_func_stats &to, const halide_profiler_func_stats &from) {
    to.time += from.time;
    to.memory_peak = to.memory_peak > from.memory_peak ? to.memory_peak : from.memory_peak;
    to.memory_total += from.memory_total;
    to.stack_peak = to.stack_peak > from.stack_peak ? to.stack_peak : from.stack_peak;
    to.active_threads_numerator += from.active_threads_numerator;
    to.active_threads_denominator += from.active_threads_denominator;
    to.num_allocs += from.num_allocs;
}

// Waits until no profiled kernel is running; returns holding the lock.
void wait_for_instances_locked() {
    while (the_state.instances) {
        halide_mutex_unlock(&the_state.lock);
        usleep(100);
        halide_mutex_lock(&the_state.lock);
    }
}

using PrintFn = void (*)(void *, const char *);

void print_line(PrintFn print, void *user_context, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void print_line(PrintFn print, void *user_context, const char *fmt, ...) {
    char line[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(line, sizeof(line), fmt, args);
    va_end(args);
    print(user_context, line);
}

double threads_used(uint64_t numerator, uint64_t denominator) {
    return denominator ? (double)numerator / (double)denominator : 0.0;
}

} // namespace

extern "C" {

void halide_mutex_lock(halide_mutex *mutex) {
    std::atomic<uintptr_t> &w = word(mutex);
    for (;;) {
        uintptr_t expected = 0;
        if (w.compare_exchange_weak(expected, 1, std::memory_order_acquire)) {
            return;
        }
        sched_yield();
    }
}

void halide_mutex_unlock(halide_mutex *mutex) {
    word(mutex).store(0, std::memory_order_release);
}

halide_profiler_state *halide_profiler_get_state(void) {
    return &the_state;
}

void halide_profiler_lock(halide_profiler_state *s) {
    halide_mutex_lock(&s->lock);
}

void halide_profiler_unlock(halide_profiler_state *s) {
    halide_mutex_unlock(&s->lock);
}

halide_profiler_pipeline_stats *halide_profiler_get_pipeline_state(const char *pipeline_name) {
    Lock lock;
    for (auto *p = the_state.pipelines; p; p = static_cast<halide_profiler_pipeline_stats *>(p->next)) {
        if (strcmp(p->name, pipeline_name) == 0) {
            return p;
        }
    }
    return nullptr;
}

int halide_profiler_sample(halide_profiler_state *s, uint64_t *prev_t) {
    uint64_t t = now_ns();
    uint64_t dt = t - *prev_t;
    *prev_t = t;
    for (halide_profiler_instance_state *i = s->instances; i; i = i->next) {
        int f = __atomic_load_n(&i->current_func, __ATOMIC_RELAXED);
        int threads = __atomic_load_n(&i->active_threads, __ATOMIC_RELAXED);
        if (f < 0 || f >= i->pipeline_stats->num_funcs) {
            continue;
        }
        i->funcs[f].time += dt;
        i->funcs[f].active_threads_numerator += (uint64_t)(threads > 0 ? threads : 0);
        i->funcs[f].active_threads_denominator++;
        i->active_threads_numerator += (uint64_t)(threads > 0 ? threads : 0);
        i->active_threads_denominator++;
        i->billed_time += dt;
        i->samples++;
    }
    return 0;
}

halide_profiler_instance_state *halide_profiler_instance_start(void *, const char *pipeline_name, int num_funcs,
                                                               const char *func_names) {
    size_t bytes = sizeof(halide_profiler_instance_state) + (size_t)num_funcs * sizeof(halide_profiler_func_stats);
    auto *i = static_cast<halide_profiler_instance_state *>(calloc(1, bytes));
    if (!i) {
        return nullptr;
    }
    i->funcs = reinterpret_cast<halide_profiler_func_stats *>(i + 1);
    i->active_threads = 1;
    // Set by the first Func computed: a bounds query computes none and
    // does not count as a run.
    i->should_collect_statistics = 0;
    Lock lock;
    i->pipeline_stats = find_or_add_pipeline_locked(pipeline_name, num_funcs, func_names);
    if (!i->pipeline_stats) {
        free(i);
        return nullptr;
    }
    i->next = the_state.instances;
    i->prev_next = &the_state.instances;
    if (i->next) {
        i->next->prev_next = &i->next;
    }
    the_state.instances = i;
    start_sampler_locked();
    i->start_time = now_ns();
    return i;
}

void halide_profiler_instance_end(void *, halide_profiler_instance_state *i) {
    if (!i) {
        return;
    }
    uint64_t wall = now_ns() - i->start_time;
    Lock lock;
    *i->prev_next = i->next;
    if (i->next) {
        i->next->prev_next = i->prev_next;
    }
    halide_profiler_pipeline_stats *p = i->pipeline_stats;
    if (!__atomic_load_n(&i->should_collect_statistics, __ATOMIC_RELAXED)) {
        free(i);
        return;
    }
    // Samples cover the call's time in steps of sleep_time: scaled to its
    // wall time, the Funcs' times add up to it.
    double scale = i->billed_time ? (double)wall / (double)i->billed_time : 0.0;
    for (int f = 0; f < p->num_funcs; f++) {
        i->funcs[f].time = (uint64_t)((double)i->funcs[f].time * scale);
        add_func_stats(p->funcs[f], i->funcs[f]);
    }
    p->time += wall;
    p->memory_peak = p->memory_peak > i->memory_peak ? p->memory_peak : i->memory_peak;
    p->memory_total += i->memory_total;
    p->active_threads_numerator += i->active_threads_numerator;
    p->active_threads_denominator += i->active_threads_denominator;
    p->runs++;
    p->samples += i->samples;
    p->num_allocs += i->num_allocs;
    free(i);
}

int halide_profiler_set_current_func(halide_profiler_instance_state *instance, int func) {
    if (instance) {
        __atomic_store_n(&instance->current_func, func, __ATOMIC_RELAXED);
        if (func != 0) {
            __atomic_store_n(&instance->should_collect_statistics, 1, __ATOMIC_RELAXED);
        }
    }
    return 0;
}

int halide_profiler_incr_active_threads(halide_profiler_instance_state *instance, int delta) {
    if (instance) {
        __atomic_fetch_add(&instance->active_threads, delta, __ATOMIC_RELAXED);
    }
    return 0;
}

int halide_profiler_memory_allocate(void *, halide_profiler_instance_state *i, int func, uint64_t bytes) {
    if (!i || func < 0 || func >= i->pipeline_stats->num_funcs) {
        return 0;
    }
    Lock lock; // (rare next to the work between allocations)
    halide_profiler_func_stats &f = i->funcs[func];
    f.memory_current += bytes;
    f.memory_total += bytes;
    f.num_allocs++;
    f.memory_peak = f.memory_peak > f.memory_current ? f.memory_peak : f.memory_current;
    i->memory_current += bytes;
    i->memory_total += bytes;
    i->num_allocs++;
    i->memory_peak = i->memory_peak > i->memory_current ? i->memory_peak : i->memory_current;
    return 0;
}

int halide_profiler_memory_free(void *, halide_profiler_instance_state *i, int func, uint64_t bytes) {
    if (!i || func < 0 || func >= i->pipeline_stats->num_funcs) {
        return 0;
    }
    Lock lock;
    i->funcs[func].memory_current -= bytes;
    i->memory_current -= bytes;
    return 0;
}

void halide_profiler_report(void *user_context) {
    hlrt_profiler_report(user_context, halide_print);
}

void hlrt_profiler_report(void *user_context, PrintFn print) {
    Lock lock;
    for (auto *p = the_state.pipelines; p; p = static_cast<halide_profiler_pipeline_stats *>(p->next)) {
        if (p->runs == 0) {
            continue;
        }
        double total_ms = (double)p->time / 1e6;
        print_line(print, user_context, "%s\n total time: %f ms  samples: %d  runs: %d  time per run: %f ms\n", p->name,
                   total_ms, p->samples, p->runs, total_ms / p->runs);
        print_line(print, user_context, " average threads used: %f\n",
                   threads_used(p->active_threads_numerator, p->active_threads_denominator));
        print_line(print, user_context, " heap allocations: %d  peak heap usage: %" PRIu64 " bytes\n", p->num_allocs,
                   p->memory_peak);
        size_t width = 0;
        for (int f = 0; f < p->num_funcs; f++) {
            size_t n = strlen(p->funcs[f].name);
            width = n > width ? n : width;
        }
        for (int f = 0; f < p->num_funcs; f++) {
            const halide_profiler_func_stats &s = p->funcs[f];
            if (f == 0 && s.time == 0) {
                continue; // no overhead measured
            }
            double ms = (double)s.time / 1e6 / p->runs;
            double percent = p->time ? 100.0 * (double)s.time / (double)p->time : 0.0;
            char memory[160] = "";
            if (s.num_allocs) {
                snprintf(memory, sizeof(memory), "  peak: %" PRIu64 " num: %d avg: %" PRIu64, s.memory_peak,
                         s.num_allocs, s.memory_total / (uint64_t)s.num_allocs);
            }
            print_line(print, user_context, "    %s:%*s %10.3fms (%4.1f%%)   threads: %.3f%s\n", s.name,
                       (int)(width - strlen(s.name)), "", ms, percent,
                       threads_used(s.active_threads_numerator, s.active_threads_denominator), memory);
        }
    }
}

void halide_profiler_reset(void) {
    Lock lock;
    wait_for_instances_locked();
    while (the_state.pipelines) {
        auto *next = static_cast<halide_profiler_pipeline_stats *>(the_state.pipelines->next);
        free(the_state.pipelines);
        the_state.pipelines = next;
    }
}

void halide_profiler_shutdown(void) {
    halide_profiler_reset();
    stop_sampler();
}

} // extern "C"
