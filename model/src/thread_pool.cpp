// Thread pool used by the card's run loop (see thread_pool.hpp).
//
// A bulk-synchronous program gives the pool a job every few hundred
// microseconds (a round, the exchange landing, the resumes), with a few
// microseconds of serial work between. A thread that sleeps on a condition
// variable in those gaps pays a wake-up per job, and on a virtual machine that
// took 50-900 us, longer than the job: the second thread joined a third of the
// jobs at all. So a waiting thread first spins for kSpin (watching an atomic,
// no lock), and only then sleeps; the thread that posts a job or finishes one
// takes the lock and signals only when someone sleeps.
#include "thread_pool.hpp"

#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ipu::model {
namespace {

using Clock = std::chrono::steady_clock;
// Longer than the serial gaps between a superstep's jobs, short enough that an
// idle pool stops taking a core soon after the card stops.
constexpr auto kSpin = std::chrono::microseconds(50);

void relax()
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() or kSpin has passed; returns done().
template <typename Done> bool spin(Done done)
{
    const auto until = Clock::now() + kSpin;
    for (unsigned i = 1;; i++) {
        if (done())
            return true;
        relax();
        if (i % 64 == 0 && Clock::now() >= until)
            return done();
    }
}

} // namespace

ThreadPool::ThreadPool(unsigned threads) : shares_(std::make_unique<Share[]>(threads ? threads : 1))
{
    for (unsigned i = 1; i < threads; i++)
        workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> g(mutex_);
        stopping_ = true;
        generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (auto &t : workers_)
        t.join();
}

// Takes indices from the own share, then from the others' in turn; counts
// what it finished once, and wakes the caller if that ended the job.
void ThreadPool::drain(unsigned self, const std::function<void(size_t)> &fn)
{
    const unsigned n = size();
    size_t done = 0;
    for (unsigned k = 0; k < n; k++) {
        Share &s = shares_[(self + k) % n];
        for (size_t i; (i = s.next.fetch_add(1, std::memory_order_relaxed)) < s.end; done++)
            fn(i);
    }
    if (done && finished_.fetch_add(done, std::memory_order_acq_rel) + done == count_) {
        std::lock_guard<std::mutex> g(mutex_); // the caller checks under the lock: no lost wake-up
        if (caller_sleeps_)
            done_.notify_all();
    }
}

void ThreadPool::worker_loop(unsigned self)
{
    unsigned seen = 0;
    for (;;) {
        spin([&] { return generation_.load(std::memory_order_acquire) != seen; });
        const std::function<void(size_t)> *job;
        {
            std::unique_lock<std::mutex> g(mutex_);
            if (generation_.load(std::memory_order_relaxed) == seen) {
                sleepers_++;
                wake_.wait(g, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
                sleepers_--;
            }
            if (stopping_)
                return;
            seen = generation_.load(std::memory_order_relaxed);
            if (!job_)
                continue; // woke after that job ended
            job = job_;
            active_.fetch_add(1, std::memory_order_relaxed);
        }
        drain(self, *job);
        std::lock_guard<std::mutex> g(mutex_);
        if (active_.fetch_sub(1, std::memory_order_acq_rel) == 1 && caller_sleeps_)
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
    bool wake;
    {
        std::lock_guard<std::mutex> g(mutex_);
        job_ = &fn;
        count_ = count;
        for (unsigned p = 0; p < size(); p++) {
            shares_[p].next.store(share_begin(count, p), std::memory_order_relaxed);
            shares_[p].end = share_begin(count, p + 1);
        }
        finished_.store(0, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        wake = sleepers_ > 0;
    }
    if (wake)
        wake_.notify_all();
    drain(0, fn);
    auto ended = [&] {
        return finished_.load(std::memory_order_acquire) == count && active_.load(std::memory_order_acquire) == 0;
    };
    spin(ended);
    std::unique_lock<std::mutex> g(mutex_);
    if (!ended()) {
        caller_sleeps_ = true;
        done_.wait(g, ended);
        caller_sleeps_ = false;
    }
    job_ = nullptr;
}

} // namespace ipu::model
