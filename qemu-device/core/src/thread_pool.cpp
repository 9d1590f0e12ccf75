// Thread pool used by the card's run loop (see thread_pool.hpp).
#include "thread_pool.hpp"

namespace ipu::model {

ThreadPool::ThreadPool(unsigned threads)
{
    for (unsigned i = 1; i < threads; i++)
        workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> g(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto &t : workers_)
        t.join();
}

// Takes indices until none are left; every taker counts what it finished.
void ThreadPool::drain(const std::function<void(size_t)> &fn, size_t count)
{
    for (size_t i; (i = next_.fetch_add(1, std::memory_order_relaxed)) < count;) {
        fn(i);
        if (finished_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) {
            std::lock_guard<std::mutex> g(mutex_); // the waiter checks under the lock: no lost wake-up
            done_.notify_all();
        }
    }
}

void ThreadPool::worker_loop()
{
    unsigned seen = 0;
    for (;;) {
        const std::function<void(size_t)> *job;
        size_t count;
        {
            std::unique_lock<std::mutex> g(mutex_);
            wake_.wait(g, [&] { return stopping_ || generation_ != seen; });
            if (stopping_)
                return;
            seen = generation_;
            if (!job_)
                continue; // woke after that job ended
            job = job_;
            count = count_;
            active_++;
        }
        drain(*job, count);
        std::lock_guard<std::mutex> g(mutex_);
        if (--active_ == 0)
            done_.notify_all();
    }
}

void ThreadPool::parallel_for(size_t count, const std::function<void(size_t)> &fn)
{
    if (workers_.empty() || count <= 1) {
        for (size_t i = 0; i < count; i++)
            fn(i);
        return;
    }
    {
        std::lock_guard<std::mutex> g(mutex_);
        job_ = &fn;
        count_ = count;
        next_.store(0, std::memory_order_relaxed);
        finished_.store(0, std::memory_order_relaxed);
        generation_++;
    }
    wake_.notify_all();
    drain(fn, count);
    std::unique_lock<std::mutex> g(mutex_);
    done_.wait(g, [&] { return finished_.load(std::memory_order_acquire) == count && active_ == 0; });
    job_ = nullptr;
}

} // namespace ipu::model
