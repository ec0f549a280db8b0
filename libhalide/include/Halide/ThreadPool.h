// Halide::Internal::ThreadPool<T>: a fixed set of worker threads running
// tasks that return T, as upstream's (its tests fan compilations out on it).
#ifndef HALIDE_THREAD_POOL_H
#define HALIDE_THREAD_POOL_H

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <future>
#include <mutex>
#include <queue>
#include <thread>
#include <utility>
#include <vector>

namespace Halide {
namespace Internal {

template <typename T> class ThreadPool {
public:
    static size_t num_processors_online() {
        unsigned n = std::thread::hardware_concurrency();
        return n ? n : 1;
    }

    explicit ThreadPool(size_t desired_num_threads = num_processors_online()) {
        size_t n = desired_num_threads ? desired_num_threads : 1;
        for (size_t i = 0; i < n; i++) {
            workers_.emplace_back([this] { work(); });
        }
    }

    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    // Runs the tasks already queued, then joins the workers.
    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : workers_) {
            t.join();
        }
    }

    // Queues func(args...); its result (or exception) arrives in the future.
    template <typename Func, typename... Args> std::future<T> async(Func func, Args... args) {
        auto task = std::make_shared<std::packaged_task<T()>>(
            [func = std::move(func), args...]() mutable { return func(std::move(args)...); });
        std::future<T> result = task->get_future();
        {
            std::lock_guard<std::mutex> lock(mutex_);
            queue_.emplace([task] { (*task)(); });
        }
        wake_.notify_one();
        return result;
    }

private:
    void work() {
        for (;;) {
            std::function<void()> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
                if (queue_.empty()) {
                    return;
                }
                job = std::move(queue_.front());
                queue_.pop();
            }
            job();
        }
    }

    std::vector<std::thread> workers_;
    std::queue<std::function<void()>> queue_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
};

} // namespace Internal
} // namespace Halide

#endif
