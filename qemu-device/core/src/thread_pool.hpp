// A fixed pool of host threads for simulating tiles in parallel between syncs.
#pragma once
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
    void drain();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(size_t)> *job_ = nullptr;
    size_t count_ = 0, next_ = 0, finished_ = 0;
    unsigned generation_ = 0;
    bool stopping_ = false;
};

} // namespace ipu::model
