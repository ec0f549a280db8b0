// halide_do_parallel_tasks (runtime/src/parallel_api.cpp): tasks that wait
// on each other through semaphores run concurrently on several threads, and
// still finish on one thread; a real deadlock is reported, not hung on.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "HalideRuntime.h"

namespace {

// Two tasks of one iteration each that can only both finish when they run
// at the same time: each waits (a bounded while) for the other to start.
struct Rendezvous {
    std::atomic<int> started{0};
    std::atomic<int> met{0};
};

int meet(void *, int, int, uint8_t *closure, void *) {
    auto *r = reinterpret_cast<Rendezvous *>(closure);
    r->started++;
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (r->started.load() < 2 && std::chrono::steady_clock::now() < give_up) {
        std::this_thread::yield();
    }
    if (r->started.load() == 2) {
        r->met++;
    }
    return 0;
}

halide_parallel_task_t serial_task(halide_loop_task_t fn, void *closure, int extent,
                                   halide_semaphore_acquire_t *sems = nullptr, int num_sems = 0) {
    halide_parallel_task_t t = {};
    t.fn = fn;
    t.closure = reinterpret_cast<uint8_t *>(closure);
    t.name = "task";
    t.semaphores = sems;
    t.num_semaphores = num_sems;
    t.min = 0;
    t.extent = extent;
    t.serial = true;
    return t;
}

// A producer filling a two-slot ring and a consumer emptying it: the
// producer waits for space the consumer releases, the consumer for data.
struct Ring {
    halide_semaphore_t space, ready;
    int slots[2] = {0, 0};
    std::atomic<int> wrong{0};
    long sum = 0;
};

int produce(void *, int min, int extent, uint8_t *closure, void *) {
    auto *r = reinterpret_cast<Ring *>(closure);
    for (int i = min; i < min + extent; i++) {
        r->slots[i % 2] = i + 1;
        halide_semaphore_release(&r->ready, 1);
    }
    return 0;
}

int consume(void *, int min, int extent, uint8_t *closure, void *) {
    auto *r = reinterpret_cast<Ring *>(closure);
    for (int i = min; i < min + extent; i++) {
        if (r->slots[i % 2] != i + 1) {
            r->wrong++;
        }
        r->sum += r->slots[i % 2];
        halide_semaphore_release(&r->space, 1);
    }
    return 0;
}

int run_ring(int iterations) {
    Ring r;
    halide_semaphore_init(&r.space, 2);
    halide_semaphore_init(&r.ready, 0);
    halide_semaphore_acquire_t needs_space{&r.space, 1}, needs_data{&r.ready, 1};
    // The consumer first, so the scheduler has to skip a task that can't start.
    halide_parallel_task_t tasks[2] = {serial_task(consume, &r, iterations, &needs_data, 1),
                                       serial_task(produce, &r, iterations, &needs_space, 1)};
    int rc = halide_do_parallel_tasks(nullptr, 2, tasks, nullptr);
    EXPECT_EQ(r.wrong.load(), 0);
    EXPECT_EQ(r.sum, (long)iterations * (iterations + 1) / 2);
    return rc;
}

std::string g_error;
void capture_error(void *, const char *msg) {
    g_error = msg;
}

} // namespace

TEST(ParallelTasks, TasksRunConcurrentlyOnSeveralThreads) {
    int old = halide_set_num_threads(4);
    Rendezvous r;
    halide_parallel_task_t tasks[2] = {serial_task(meet, &r, 1), serial_task(meet, &r, 1)};
    EXPECT_EQ(halide_do_parallel_tasks(nullptr, 2, tasks, nullptr), 0);
    EXPECT_EQ(r.met.load(), 2) << "the two tasks never ran at the same time";
    halide_set_num_threads(old);
}

TEST(ParallelTasks, ProducerWaitingOnItsConsumerFinishesOnAnyThreadCount) {
    for (int threads : {1, 2, 4}) {
        int old = halide_set_num_threads(threads);
        EXPECT_EQ(run_ring(1000), 0) << threads << " threads";
        halide_set_num_threads(old);
    }
}

TEST(ParallelTasks, ARealDeadlockIsAnError) {
    halide_semaphore_t never;
    halide_semaphore_init(&never, 0);
    halide_semaphore_acquire_t needs{&never, 1};
    Rendezvous r;
    halide_parallel_task_t task = serial_task(meet, &r, 1, &needs, 1);
    halide_error_handler_t previous = halide_set_error_handler(capture_error);
    EXPECT_NE(halide_do_parallel_tasks(nullptr, 1, &task, nullptr), 0);
    halide_set_error_handler(previous);
    EXPECT_NE(g_error.find("deadlock"), std::string::npos) << g_error;
    EXPECT_EQ(r.started.load(), 0);
}

// Upstream's kernels wait in the middle of a task: the task calls
// halide_do_parallel_tasks for the rest of its work, with the semaphore a
// task of the outer set releases, and each outer task says in min_threads
// how many threads it needs. The consumer here runs one iteration that
// waits, row by row, for rows the producer (one iteration, never waiting)
// releases; it finishes whatever the thread count, and the nested wait is
// not taken for a deadlock.
struct Rows {
    halide_semaphore_t ready;
    std::atomic<int> produced{0};
    std::atomic<int> wrong{0};
    int row = 0;
};

int consume_row(void *, int, int, uint8_t *closure, void *) {
    auto *r = reinterpret_cast<Rows *>(closure);
    if (r->produced.load() <= r->row) {
        r->wrong++;
    }
    return 0;
}

int consume_rows_waiting_inside(void *, int, int, uint8_t *closure, void *parent) {
    auto *r = reinterpret_cast<Rows *>(closure);
    for (r->row = 0; r->row < 50; r->row++) {
        halide_semaphore_acquire_t needs_row{&r->ready, 1};
        halide_parallel_task_t rest = serial_task(consume_row, r, 1, &needs_row, 1);
        rest.min_threads = 1;
        int rc = halide_do_parallel_tasks(nullptr, 1, &rest, parent);
        if (rc != 0) {
            return rc;
        }
    }
    return 0;
}

int produce_rows(void *, int, int, uint8_t *closure, void *) {
    auto *r = reinterpret_cast<Rows *>(closure);
    for (int i = 0; i < 50; i++) {
        r->produced++;
        halide_semaphore_release(&r->ready, 1);
        std::this_thread::yield();
    }
    return 0;
}

TEST(ParallelTasks, AWaitInsideATaskIsWaitedForOnAnyThreadCount) {
    for (int threads : {1, 2, 4}) {
        int old = halide_set_num_threads(threads);
        Rows r;
        halide_semaphore_init(&r.ready, 0);
        // The consumer first: on one pool thread it starts and waits, and
        // the producer runs on a thread min_threads asked for.
        halide_parallel_task_t tasks[2] = {serial_task(consume_rows_waiting_inside, &r, 1),
                                           serial_task(produce_rows, &r, 1)};
        tasks[0].min_threads = 1;
        tasks[1].min_threads = 1;
        g_error.clear();
        halide_error_handler_t previous = halide_set_error_handler(capture_error);
        EXPECT_EQ(halide_do_parallel_tasks(nullptr, 2, tasks, nullptr), 0) << threads << " threads: " << g_error;
        halide_set_error_handler(previous);
        EXPECT_EQ(r.wrong.load(), 0) << threads << " threads";
        EXPECT_EQ(r.produced.load(), 50) << threads << " threads";
        halide_set_num_threads(old);
    }
}
