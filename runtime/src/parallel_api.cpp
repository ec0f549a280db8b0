// The parallel entry points kernels call, with their replaceable hooks:
// do_par_for, do_task, do_loop_task, do_parallel_tasks and semaphores.
#include <atomic>
#include <cstdlib>
#include <pthread.h>
#include <sched.h>

#include "HalideRuntime.h"
#include "call_context.h"
#include "thread_pool.h"

namespace {

struct ParallelHooks {
    std::atomic<halide_do_par_for_t> do_par_for{halide_default_do_par_for};
    std::atomic<halide_do_task_t> do_task{halide_default_do_task};
    std::atomic<halide_do_loop_task_t> do_loop_task{halide_default_do_loop_task};
    std::atomic<halide_do_parallel_tasks_t> do_parallel_tasks{halide_default_do_parallel_tasks};
    std::atomic<halide_semaphore_init_t> semaphore_init{nullptr};
    std::atomic<halide_semaphore_try_acquire_t> semaphore_try_acquire{nullptr};
    std::atomic<halide_semaphore_release_t> semaphore_release{nullptr};
};

ParallelHooks hooks;

// The semaphore's count lives in the first word of its 16 opaque bytes.
int64_t *semaphore_count(halide_semaphore_t *sem) {
    return reinterpret_cast<int64_t *>(&sem->_private[0]);
}

int default_semaphore_init(halide_semaphore_t *sem, int count) {
    __atomic_store_n(semaphore_count(sem), (int64_t)count, __ATOMIC_RELEASE);
    sem->_private[1] = 0;
    return count;
}

int default_semaphore_release(halide_semaphore_t *sem, int count) {
    return (int)__atomic_add_fetch(semaphore_count(sem), (int64_t)count, __ATOMIC_ACQ_REL);
}

bool default_semaphore_try_acquire(halide_semaphore_t *sem, int count) {
    int64_t *value = semaphore_count(sem);
    int64_t current = __atomic_load_n(value, __ATOMIC_ACQUIRE);
    while (current >= count) {
        if (__atomic_compare_exchange_n(value, &current, current - count, true, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            return true;
        }
    }
    return false;
}

// Takes every semaphore a task needs for one iteration, or none of them.
bool acquire_all(halide_parallel_task_t &task) {
    for (int i = 0; i < task.num_semaphores; i++) {
        halide_semaphore_acquire_t &s = task.semaphores[i];
        if (!halide_semaphore_try_acquire(s.semaphore, s.count)) {
            for (int j = 0; j < i; j++) {
                halide_semaphore_release(task.semaphores[j].semaphore, task.semaphores[j].count);
            }
            return false;
        }
    }
    return true;
}

// Lets a parallel loop task with no semaphores run on the pool one index at a time.
struct LoopTaskClosure {
    halide_parallel_task_t *task;
    void *task_parent;
};

int run_loop_task_index(void *user_context, int idx, uint8_t *closure) {
    auto *c = reinterpret_cast<LoopTaskClosure *>(closure);
    return halide_do_loop_task(user_context, c->task->fn, idx, 1, c->task->closure, c->task_parent);
}

// One halide_do_parallel_tasks call, driven by several threads at once.
// A thread owns a task while it runs one of its iterations (or, for a task
// with no semaphores that is not serial, all of them as a parallel loop),
// so a task's iterations run one at a time and in order. Every driver
// sweeps the tasks, running whatever can take its semaphores, until all are
// done: tasks that wait on each other run concurrently on different
// threads, and a single thread interleaves them, so the set finishes with
// any number of threads.
struct TaskSet {
    void *user_context;
    int num_tasks;
    halide_parallel_task_t *tasks;
    void *task_parent;
    std::atomic<int> *done;  // iterations finished, per task
    std::atomic<int> *owned; // 1 while a driver works on the task
    std::atomic<int> remaining{0}, result{0};
    // Drivers between owning a task and finishing its iteration (acquiring
    // its semaphores included), and iterations ever finished: what tells a
    // wait from a deadlock (drive_tasks).
    std::atomic<int> running{0};
    std::atomic<uint64_t> progress{0};
};

// Works on task i if no other driver does; returns whether it ran
// anything. A task's semaphores can only be released by an iteration that
// runs, so `running` covers the whole time from before owning the task to
// the iteration's end, and `progress` counts before `running` drops.
bool try_task(TaskSet &set, int i) {
    halide_parallel_task_t &t = set.tasks[i];
    set.running.fetch_add(1); // before owning: see drive_tasks
    int expected = 0;
    if (set.done[i].load(std::memory_order_acquire) >= t.extent || !set.owned[i].compare_exchange_strong(expected, 1)) {
        set.running.fetch_sub(1);
        return false;
    }
    bool ran = false;
    int done = set.done[i].load(std::memory_order_acquire);
    if (done < t.extent) {
        int r = 0;
        if (t.num_semaphores == 0 && !t.serial) {
            LoopTaskClosure c{&t, set.task_parent};
            r = halide_do_par_for(set.user_context, run_loop_task_index, t.min + done, t.extent - done,
                                  reinterpret_cast<uint8_t *>(&c));
            done = t.extent;
            ran = true;
        } else if (acquire_all(t)) {
            r = halide_do_loop_task(set.user_context, t.fn, t.min + done, 1, t.closure, set.task_parent);
            done++;
            ran = true;
        }
        if (r != 0) {
            int zero = 0;
            set.result.compare_exchange_strong(zero, r);
        }
        if (ran) {
            set.done[i].store(done, std::memory_order_release);
            if (done >= t.extent) {
                set.remaining.fetch_sub(1, std::memory_order_acq_rel);
            }
            set.progress.fetch_add(1);
        }
    }
    set.owned[i].store(0);
    set.running.fetch_sub(1);
    return ran;
}

// The task sets this thread is driving, innermost first. Upstream's kernels
// wait on a semaphore in the middle of a task by calling
// halide_do_parallel_tasks from inside it; what releases it is another task
// of an enclosing set, running on another thread, so only the outermost set
// can tell a deadlock from a wait.
struct DriverFrame {
    TaskSet *set;
    DriverFrame *outer;
};
thread_local DriverFrame *tl_frames = nullptr;

int drive_tasks(void *, int, uint8_t *closure) {
    TaskSet &set = *reinterpret_cast<TaskSet *>(closure);
    DriverFrame frame{&set, tl_frames};
    tl_frames = &frame;
    while (set.remaining.load(std::memory_order_acquire) > 0 && set.result.load(std::memory_order_acquire) == 0) {
        // No iteration running before or after a fruitless sweep, and none
        // finished meanwhile: no semaphore can change any more, so the
        // tasks are deadlocked (progress is read first and last, so an
        // iteration that ran in between shows).
        uint64_t progress_before = set.progress.load();
        bool idle_before = set.running.load() == 0;
        bool progressed = false;
        for (int i = 0; i < set.num_tasks; i++) {
            progressed = try_task(set, i) || progressed;
        }
        if (progressed) {
            continue;
        }
        bool idle_after = set.running.load() == 0;
        if (!frame.outer && idle_before && idle_after && set.progress.load() == progress_before &&
            set.remaining.load(std::memory_order_acquire) > 0) {
            int zero = 0;
            if (set.result.compare_exchange_strong(zero, halide_error_code_generic_error)) {
                halide_error(set.user_context,
                             "halide_do_parallel_tasks: no task can acquire its semaphores (deadlock)");
            }
            break;
        }
        sched_yield();
    }
    tl_frames = frame.outer;
    return 0;
}

// A driver on a thread of its own, carrying the caller's call context.
struct ExtraDriver {
    TaskSet *set;
    void *call_context;
};

void *run_extra_driver(void *arg) {
    auto *d = static_cast<ExtraDriver *>(arg);
    hlrt_set_call_context(d->call_context);
    drive_tasks(nullptr, 0, reinterpret_cast<uint8_t *>(d->set));
    return nullptr;
}

int run_parallel_tasks(void *user_context, int num_tasks, halide_parallel_task_t *tasks, void *task_parent,
                       std::atomic<int> *counters) {
    TaskSet set;
    set.user_context = user_context;
    set.num_tasks = num_tasks;
    set.tasks = tasks;
    set.task_parent = task_parent;
    set.done = counters;
    set.owned = counters + num_tasks;
    int remaining = 0;
    for (int i = 0; i < num_tasks; i++) {
        set.done[i].store(0);
        set.owned[i].store(0);
        remaining += tasks[i].extent > 0 ? 1 : 0;
    }
    set.remaining.store(remaining);
    int drivers = num_tasks < halide_get_num_threads() ? num_tasks : halide_get_num_threads();
    // Upstream's compiler states in min_threads how many threads each task
    // needs to make progress (its tasks block inside nested calls); when
    // the pool gives fewer, the rest are threads of their own, as
    // upstream's runtime grows its pool. Our kernels leave it 0.
    int needed = 0;
    for (int i = 0; i < num_tasks; i++) {
        needed += tasks[i].min_threads > 0 ? tasks[i].min_threads : 0;
    }
    constexpr int kMaxExtra = 16;
    pthread_t extra[kMaxExtra];
    ExtraDriver extra_driver{&set, hlrt_get_call_context()};
    int num_extra = 0;
    while (drivers + num_extra < needed && num_extra < kMaxExtra &&
           pthread_create(&extra[num_extra], nullptr, run_extra_driver, &extra_driver) == 0) {
        num_extra++;
    }
    int r = halide_do_par_for(user_context, drive_tasks, 0, drivers, reinterpret_cast<uint8_t *>(&set));
    for (int i = 0; i < num_extra; i++) {
        pthread_join(extra[i], nullptr);
    }
    int result = set.result.load();
    return result != 0 ? result : r;
}

} // namespace

extern "C" {

int halide_default_do_task(void *user_context, halide_task_t task, int idx, uint8_t *closure) {
    return task(user_context, idx, closure);
}

int halide_default_do_loop_task(void *user_context, halide_loop_task_t task, int min, int extent, uint8_t *closure,
                                void *task_parent) {
    return task(user_context, min, extent, closure, task_parent);
}

int halide_default_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    return halide_runtime::run_parallel_for(user_context, task, min, size, closure);
}

// Runs a set of tasks that may wait on each other through semaphores.
int halide_default_do_parallel_tasks(void *user_context, int num_tasks, struct halide_parallel_task_t *tasks,
                                     void *task_parent) {
    if (num_tasks <= 0) {
        return 0;
    }
    // Two counters per task: on the stack for the usual few tasks.
    std::atomic<int> local[32];
    std::atomic<int> *counters = local;
    if (num_tasks > 16) {
        counters = static_cast<std::atomic<int> *>(calloc((size_t)num_tasks * 2, sizeof(std::atomic<int>)));
        if (!counters) {
            halide_error(user_context, "halide_do_parallel_tasks: out of memory");
            return halide_error_code_out_of_memory;
        }
    }
    int r = run_parallel_tasks(user_context, num_tasks, tasks, task_parent, counters);
    if (counters != local) {
        free(counters);
    }
    return r;
}

int halide_do_par_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    return hooks.do_par_for.load()(user_context, task, min, size, closure);
}

int halide_do_task(void *user_context, halide_task_t task, int idx, uint8_t *closure) {
    return hooks.do_task.load()(user_context, task, idx, closure);
}

int halide_do_loop_task(void *user_context, halide_loop_task_t task, int min, int extent, uint8_t *closure,
                        void *task_parent) {
    return hooks.do_loop_task.load()(user_context, task, min, extent, closure, task_parent);
}

int halide_do_parallel_tasks(void *user_context, int num_tasks, struct halide_parallel_task_t *tasks,
                             void *task_parent) {
    return hooks.do_parallel_tasks.load()(user_context, num_tasks, tasks, task_parent);
}

int halide_semaphore_init(struct halide_semaphore_t *sem, int count) {
    halide_semaphore_init_t custom = hooks.semaphore_init.load();
    return custom ? custom(sem, count) : default_semaphore_init(sem, count);
}

int halide_semaphore_release(struct halide_semaphore_t *sem, int count) {
    halide_semaphore_release_t custom = hooks.semaphore_release.load();
    return custom ? custom(sem, count) : default_semaphore_release(sem, count);
}

bool halide_semaphore_try_acquire(struct halide_semaphore_t *sem, int count) {
    halide_semaphore_try_acquire_t custom = hooks.semaphore_try_acquire.load();
    return custom ? custom(sem, count) : default_semaphore_try_acquire(sem, count);
}

halide_do_par_for_t halide_set_custom_do_par_for(halide_do_par_for_t do_par_for) {
    return hooks.do_par_for.exchange(do_par_for ? do_par_for : halide_default_do_par_for);
}

halide_do_task_t halide_set_custom_do_task(halide_do_task_t do_task) {
    return hooks.do_task.exchange(do_task ? do_task : halide_default_do_task);
}

void halide_set_custom_parallel_runtime(halide_do_par_for_t do_par_for, halide_do_task_t do_task,
                                        halide_do_loop_task_t do_loop_task,
                                        halide_do_parallel_tasks_t do_parallel_tasks,
                                        halide_semaphore_init_t semaphore_init,
                                        halide_semaphore_try_acquire_t semaphore_try_acquire,
                                        halide_semaphore_release_t semaphore_release) {
    hooks.do_par_for = do_par_for ? do_par_for : halide_default_do_par_for;
    hooks.do_task = do_task ? do_task : halide_default_do_task;
    hooks.do_loop_task = do_loop_task ? do_loop_task : halide_default_do_loop_task;
    hooks.do_parallel_tasks = do_parallel_tasks ? do_parallel_tasks : halide_default_do_parallel_tasks;
    hooks.semaphore_init = semaphore_init;
    hooks.semaphore_try_acquire = semaphore_try_acquire;
    hooks.semaphore_release = semaphore_release;
}

} // extern "C"
