// The process-wide thread pool behind halide_do_par_for.
//
// Design: a shared stack of jobs. A job is one do_par_for call: a task and a
// range of indices that threads claim one at a time with an atomic counter.
// The calling thread works on its own job too, so nested parallel loops make
// progress without extra threads, and a caller only ever waits for
// iterations that another thread is already running. Workers take the most
// recently pushed job first, which keeps nested loops local.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "HalideRuntime.h"
#include "call_context.h"
#include "thread_pool.h"

namespace halide_runtime {
namespace {

struct Job {
    halide_task_t task;
    void *user_context;
    uint8_t *closure;
    int min, size;
    std::atomic<int> next{0};     // next unclaimed offset into [0, size)
    std::atomic<int> finished{0}; // offsets fully processed
    std::atomic<int> result{0};   // first non-zero task result
    void *call_context;           // the submitting thread's (see call_context.h)
    int borrowers = 0;            // workers holding a pointer (guarded by the pool mutex)
    Job *below = nullptr;         // next job down the stack
};

class ThreadPool {
public:
    // Runs one job to completion; returns its first error, or 0.
    int run(Job &job);
    int set_num_threads(int n);
    int num_threads();
    void shutdown();

private:
    void worker_main(int id);
    void ensure_workers_locked();
    // Claims and runs offsets of `job` until none are left.
    static void work_on(Job &job);
    void unlink_locked(Job *job);

    // Calls done() while yielding the CPU, for a bounded number of rounds;
    // returns its last answer.
    template <typename F> static bool spin_until(F done) {
        for (int i = 0; i < kSpinRounds; i++) {
            if (done()) {
                return true;
            }
            std::this_thread::yield();
        }
        return done();
    }
    static constexpr int kSpinRounds = 4096;

    std::mutex mutex_;
    std::atomic<uint64_t> pushes_{0}; // jobs ever pushed, to notice new work while spinning
    std::condition_variable work_available_;
    std::condition_variable job_finished_;
    std::vector<std::thread> workers_;
    Job *jobs_ = nullptr;
    int desired_threads_ = 0; // 0 = not yet decided
    bool shutting_down_ = false;
};

int default_thread_count() {
    for (const char *name : {"HL_NUM_THREADS", "HL_NUMTHREADS"}) {
        if (const char *value = std::getenv(name)) {
            int n = std::atoi(value);
            if (n > 0) {
                return std::min(n, kMaxThreads);
            }
        }
    }
    unsigned hw = std::thread::hardware_concurrency();
    return std::clamp((int)(hw ? hw : 1), 1, kMaxThreads);
}

void ThreadPool::work_on(Job &job) {
    for (;;) {
        int offset = job.next.fetch_add(1, std::memory_order_relaxed);
        if (offset >= job.size) {
            return;
        }
        // After a failure the remaining offsets are counted but not run.
        if (job.result.load(std::memory_order_relaxed) == 0) {
            int r = halide_do_task(job.user_context, job.task, job.min + offset, job.closure);
            if (r != 0) {
                int expected = 0;
                job.result.compare_exchange_strong(expected, r);
            }
        }
        job.finished.fetch_add(1, std::memory_order_acq_rel);
    }
}

void ThreadPool::unlink_locked(Job *job) {
    for (Job **link = &jobs_; *link; link = &(*link)->below) {
        if (*link == job) {
            *link = job->below;
            return;
        }
    }
}

void ThreadPool::ensure_workers_locked() {
    if (desired_threads_ == 0) {
        desired_threads_ = default_thread_count();
    }
    // The caller is one of the threads, so the pool needs desired - 1.
    while ((int)workers_.size() < desired_threads_ - 1) {
        int id = (int)workers_.size();
        workers_.emplace_back([this, id] { worker_main(id); });
    }
}

void ThreadPool::worker_main(int id) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        if (shutting_down_) {
            return;
        }
        Job *job = nullptr;
        if (id < desired_threads_ - 1) {
            for (Job *j = jobs_; j; j = j->below) {
                if (j->next.load(std::memory_order_relaxed) < j->size) {
                    job = j;
                    break;
                }
            }
        }
        if (!job) {
            // Pipelines often start parallel loops back to back: look for
            // new work for a moment before sleeping, which costs a wake-up.
            uint64_t seen = pushes_.load(std::memory_order_acquire);
            lock.unlock();
            bool more = spin_until([&] { return pushes_.load(std::memory_order_acquire) != seen; });
            lock.lock();
            if (!more && pushes_.load(std::memory_order_acquire) == seen && !shutting_down_) {
                work_available_.wait(lock);
            }
            continue;
        }
        job->borrowers++;
        lock.unlock();
        void *outer_context = hlrt_set_call_context(job->call_context);
        work_on(*job);
        hlrt_set_call_context(outer_context);
        lock.lock();
        unlink_locked(job); // exhausted: nobody else should pick it up
        job->borrowers--;
        job_finished_.notify_all();
    }
}

int ThreadPool::run(Job &job) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ensure_workers_locked();
        if (!workers_.empty() && job.size > 1) {
            job.below = jobs_;
            jobs_ = &job;
            pushes_.fetch_add(1, std::memory_order_release);
            work_available_.notify_all();
        }
    }
    work_on(job);
    // Other threads are finishing their last iterations: usually brief.
    spin_until([&] { return job.finished.load(std::memory_order_acquire) == job.size; });
    std::unique_lock<std::mutex> lock(mutex_);
    unlink_locked(&job);
    job_finished_.wait(lock, [&] { return job.finished.load() == job.size && job.borrowers == 0; });
    return job.result.load();
}

int ThreadPool::set_num_threads(int n) {
    std::lock_guard<std::mutex> lock(mutex_);
    int old = desired_threads_ ? desired_threads_ : default_thread_count();
    desired_threads_ = n == 0 ? default_thread_count() : std::min(n, kMaxThreads);
    // Workers are started lazily by the next parallel loop; extra workers
    // from an earlier, larger setting stay idle.
    work_available_.notify_all();
    return old;
}

int ThreadPool::num_threads() {
    std::lock_guard<std::mutex> lock(mutex_);
    return desired_threads_ ? desired_threads_ : default_thread_count();
}

void ThreadPool::shutdown() {
    std::vector<std::thread> workers;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        shutting_down_ = true;
        work_available_.notify_all();
        workers.swap(workers_);
    }
    for (auto &t : workers) {
        t.join();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    shutting_down_ = false;
}

// Never destroyed: worker threads may outlive static destructors at exit.
ThreadPool &pool() {
    static ThreadPool *instance = new ThreadPool;
    return *instance;
}

} // namespace

int run_parallel_for(void *user_context, halide_task_t task, int min, int size, uint8_t *closure) {
    if (size <= 0) {
        return 0;
    }
    Job job;
    job.task = task;
    job.user_context = user_context;
    job.closure = closure;
    job.min = min;
    job.size = size;
    job.call_context = hlrt_get_call_context();
    return pool().run(job);
}

} // namespace halide_runtime

using namespace halide_runtime;

extern "C" {

int halide_set_num_threads(int n) {
    if (n < 0) {
        halide_error(nullptr, "halide_set_num_threads: the thread count must be >= 0");
        return halide_error_code_generic_error;
    }
    return pool().set_num_threads(n);
}

int halide_get_num_threads(void) {
    return pool().num_threads();
}

void halide_shutdown_thread_pool(void) {
    pool().shutdown();
}

} // extern "C"
