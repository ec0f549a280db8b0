// The process-wide thread pool behind halide_do_par_for.
//
// Design: a shared stack of jobs. A job is one do_par_for call: a task and a
// range of indices that threads claim one at a time with an atomic counter.
// The calling thread works on its own job too, so nested parallel loops make
// progress without extra threads, and a caller only ever waits for
// iterations that another thread is already running. Workers take the most
// recently pushed job first, which keeps nested loops local.
//
// Written against POSIX threads and the C library only (no std::thread,
// std::mutex or std::vector): kernels carry this runtime into C programs and
// other languages' FFIs, which do not link the C++ standard library.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

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

// Holds a pthread mutex for a scope.
class Lock {
public:
    explicit Lock(pthread_mutex_t &m) : m_(m) { pthread_mutex_lock(&m_); }
    ~Lock() { pthread_mutex_unlock(&m_); }
    Lock(const Lock &) = delete;
    Lock &operator=(const Lock &) = delete;

private:
    pthread_mutex_t &m_;
};

class ThreadPool {
public:
    // Runs one job to completion; returns its first error, or 0.
    int run(Job &job);
    int set_num_threads(int n);
    int num_threads();
    void shutdown();

private:
    static void *worker_entry(void *id);
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
            sched_yield();
        }
        return done();
    }
    static constexpr int kSpinRounds = 4096;

    // Every member is constant-initialized: the pool works before static
    // constructors run and needs no destructor at exit.
    pthread_mutex_t mutex_ = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t work_available_ = PTHREAD_COND_INITIALIZER;
    pthread_cond_t job_finished_ = PTHREAD_COND_INITIALIZER;
    std::atomic<uint64_t> pushes_{0}; // jobs ever pushed, to notice new work while spinning
    pthread_t workers_[kMaxThreads] = {};
    int num_workers_ = 0;
    Job *jobs_ = nullptr;
    int desired_threads_ = 0; // 0 = not yet decided
    bool shutting_down_ = false;
};

int clamp_threads(long n) {
    return n < 1 ? 1 : n > kMaxThreads ? kMaxThreads : (int)n;
}

int default_thread_count() {
    for (const char *name : {"HL_NUM_THREADS", "HL_NUMTHREADS"}) {
        if (const char *value = getenv(name)) {
            int n = atoi(value);
            if (n > 0) {
                return clamp_threads(n);
            }
        }
    }
    return clamp_threads(sysconf(_SC_NPROCESSORS_ONLN));
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
    // The caller is one of the threads, so the pool needs desired - 1. A
    // thread that cannot be started leaves the pool smaller, not broken.
    while (num_workers_ < desired_threads_ - 1) {
        if (pthread_create(&workers_[num_workers_], nullptr, worker_entry,
                           reinterpret_cast<void *>(static_cast<intptr_t>(num_workers_))) != 0) {
            break;
        }
        num_workers_++;
    }
}

void ThreadPool::worker_main(int id) {
    pthread_mutex_lock(&mutex_);
    for (;;) {
        if (shutting_down_) {
            break;
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
            pthread_mutex_unlock(&mutex_);
            bool more = spin_until([&] { return pushes_.load(std::memory_order_acquire) != seen; });
            pthread_mutex_lock(&mutex_);
            if (!more && pushes_.load(std::memory_order_acquire) == seen && !shutting_down_) {
                pthread_cond_wait(&work_available_, &mutex_);
            }
            continue;
        }
        job->borrowers++;
        pthread_mutex_unlock(&mutex_);
        void *outer_context = hlrt_set_call_context(job->call_context);
        work_on(*job);
        hlrt_set_call_context(outer_context);
        pthread_mutex_lock(&mutex_);
        unlink_locked(job); // exhausted: nobody else should pick it up
        job->borrowers--;
        pthread_cond_broadcast(&job_finished_);
    }
    pthread_mutex_unlock(&mutex_);
}

int ThreadPool::run(Job &job) {
    {
        Lock lock(mutex_);
        ensure_workers_locked();
        if (num_workers_ > 0 && job.size > 1) {
            job.below = jobs_;
            jobs_ = &job;
            pushes_.fetch_add(1, std::memory_order_release);
            pthread_cond_broadcast(&work_available_);
        }
    }
    work_on(job);
    // Other threads are finishing their last iterations: usually brief.
    spin_until([&] { return job.finished.load(std::memory_order_acquire) == job.size; });
    Lock lock(mutex_);
    unlink_locked(&job);
    while (job.finished.load() != job.size || job.borrowers != 0) {
        pthread_cond_wait(&job_finished_, &mutex_);
    }
    return job.result.load();
}

int ThreadPool::set_num_threads(int n) {
    Lock lock(mutex_);
    int old = desired_threads_ ? desired_threads_ : default_thread_count();
    desired_threads_ = n == 0 ? default_thread_count() : clamp_threads(n);
    // Workers are started lazily by the next parallel loop; extra workers
    // from an earlier, larger setting stay idle.
    pthread_cond_broadcast(&work_available_);
    return old;
}

int ThreadPool::num_threads() {
    Lock lock(mutex_);
    return desired_threads_ ? desired_threads_ : default_thread_count();
}

void ThreadPool::shutdown() {
    pthread_t workers[kMaxThreads];
    int count;
    {
        Lock lock(mutex_);
        shutting_down_ = true;
        pthread_cond_broadcast(&work_available_);
        count = num_workers_;
        for (int i = 0; i < count; i++) {
            workers[i] = workers_[i];
        }
        num_workers_ = 0;
    }
    for (int i = 0; i < count; i++) {
        pthread_join(workers[i], nullptr);
    }
    Lock lock(mutex_);
    shutting_down_ = false;
}

// Never destroyed (its destructor is trivial): worker threads may outlive
// static destructors at exit.
ThreadPool the_pool;

ThreadPool &pool() {
    return the_pool;
}

void *ThreadPool::worker_entry(void *id) {
    pool().worker_main(static_cast<int>(reinterpret_cast<intptr_t>(id)));
    return nullptr;
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
