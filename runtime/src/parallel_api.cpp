// The parallel entry points kernels call, with their replaceable hooks:
// do_par_for, do_task, do_loop_task, do_parallel_tasks and semaphores.
#include <atomic>
#include <cstdlib>

#include "HalideRuntime.h"
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

// halide_default_do_parallel_tasks with `done` (iterations done per task,
// zeroed) provided: tasks without semaphores that are not serial run as
// parallel loops; the others are interleaved one iteration at a time, in the
// order their semaphores allow, on the calling thread.
int run_parallel_tasks(void *user_context, int num_tasks, halide_parallel_task_t *tasks, void *task_parent, int *done) {
    int remaining = 0;
    for (int i = 0; i < num_tasks; i++) {
        remaining += tasks[i].extent > 0 ? 1 : 0;
    }
    while (remaining > 0) {
        bool progressed = false;
        for (int i = 0; i < num_tasks; i++) {
            halide_parallel_task_t &t = tasks[i];
            if (done[i] >= t.extent) {
                continue;
            }
            if (t.num_semaphores == 0 && !t.serial) {
                LoopTaskClosure c{&t, task_parent};
                int r = halide_do_par_for(user_context, run_loop_task_index, t.min + done[i], t.extent - done[i],
                                          reinterpret_cast<uint8_t *>(&c));
                if (r != 0) {
                    return r;
                }
                done[i] = t.extent;
            } else {
                if (!acquire_all(t)) {
                    continue;
                }
                int r = halide_do_loop_task(user_context, t.fn, t.min + done[i], 1, t.closure, task_parent);
                if (r != 0) {
                    return r;
                }
                done[i]++;
            }
            progressed = true;
            if (done[i] >= t.extent) {
                remaining--;
            }
        }
        if (!progressed) {
            halide_error(user_context, "halide_do_parallel_tasks: no task can acquire its semaphores (deadlock)");
            return halide_error_code_generic_error;
        }
    }
    return 0;
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
    // Iterations done per task: on the stack for the usual few tasks.
    int local_done[16] = {};
    int *done = local_done;
    if (num_tasks > 16) {
        done = static_cast<int *>(calloc((size_t)num_tasks, sizeof(int)));
        if (!done) {
            halide_error(user_context, "halide_do_parallel_tasks: out of memory");
            return halide_error_code_out_of_memory;
        }
    }
    int r = run_parallel_tasks(user_context, num_tasks, tasks, task_parent, done);
    if (done != local_done) {
        free(done);
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
