// A fixed pool of host threads for simulating tiles in parallel between syncs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ipu::model {

class ThreadPool {
public:
    explicit ThreadPool(unsigned threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    unsigned size() const { return static_cast<unsigned>(workers_.size()) + 1; }
    // Calls fn(i) for every i in [0, count), spread over the pool and the
    // calling thread; returns when all calls have returned.
    void parallel_for(size_t count, const std::function<void(size_t)> &fn);

private:
    void worker_loop();
    void drain(const std::function<void(size_t)> &fn, size_t count);

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    // Guarded by mutex_: the job, and the workers inside it (a job ends only
    // when none is left, so none can take an index of the next job).
    const std::function<void(size_t)> *job_ = nullptr;
    size_t count_ = 0;
    unsigned active_ = 0;
    unsigned generation_ = 0;
    bool stopping_ = false;
    // Indices are handed out and counted without the lock: with ipu2's 1472
    // tiles per round, a lock per index was a serial phase.
    std::atomic<size_t> next_{0}, finished_{0};
};

} // namespace ipu::model
