// A fixed pool of host threads for simulating tiles in parallel between syncs.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
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
    // calling thread; returns when all calls have returned. Thread p (the
    // caller is 0) starts on its own share of the indices, [share_begin(count,
    // p), share_begin(count, p + 1)), the same share for the same count every
    // call, so that a thread finds the state of "its" tiles in its own cache;
    // then it takes what is left of the other shares (a thread that is late,
    // or whose tiles finish early, does not hold the others up).
    void parallel_for(size_t count, const std::function<void(size_t)> &fn);
    // First index of thread p's share of `count` indices (p <= size()).
    size_t share_begin(size_t count, unsigned p) const { return count * p / size(); }

private:
    // One thread's share of the current job; on its own cache line, since its
    // owner takes from it at every index.
    struct alignas(64) Share {
        std::atomic<size_t> next{0};
        size_t end = 0;
    };
    void worker_loop(unsigned self);
    void drain(unsigned self, const std::function<void(size_t)> &fn);

    std::vector<std::thread> workers_;
    std::unique_ptr<Share[]> shares_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    // Guarded by mutex_: the job, and how many threads sleep on wake_ / done_.
    // A job ends only when no worker is inside it (active_), so none can take
    // an index of the next job.
    const std::function<void(size_t)> *job_ = nullptr;
    unsigned sleepers_ = 0;
    bool caller_sleeps_ = false;
    bool stopping_ = false;
    // Changed under mutex_, read without it by threads that spin.
    std::atomic<unsigned> generation_{0};
    std::atomic<unsigned> active_{0};
    // Indices finished in the current job, counted once per thread and job.
    alignas(64) std::atomic<size_t> finished_{0};
    size_t count_ = 0;
};

} // namespace ipu::model
