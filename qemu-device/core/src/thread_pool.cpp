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
void ThreadPool::drain()
{
    std::unique_lock<std::mutex> g(mutex_);
    while (job_ && next_ < count_) {
        const size_t i = next_++;
        const auto *job = job_;
        g.unlock();
        (*job)(i);
        g.lock();
        if (++finished_ == count_)
            done_.notify_all();
    }
}

void ThreadPool::worker_loop()
{
    unsigned seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> g(mutex_);
            wake_.wait(g, [&] { return stopping_ || generation_ != seen; });
            if (stopping_)
                return;
            seen = generation_;
        }
        drain();
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
        next_ = 0;
        finished_ = 0;
        generation_++;
    }
    wake_.notify_all();
    drain();
    std::unique_lock<std::mutex> g(mutex_);
    done_.wait(g, [&] { return finished_ == count_; });
    job_ = nullptr;
}

} // namespace ipu::model
