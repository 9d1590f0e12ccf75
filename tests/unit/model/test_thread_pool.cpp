// The card model's host thread pool (model/src/thread_pool.hpp):
// every index of a job runs exactly once, for any count and thread count,
// whether the workers still spin from the last job or sleep; jobs really are
// spread over the threads; and the shares cover the indices without a gap.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

extern "C" {
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
}

#include "thread_pool.hpp"

using ipu::model::ThreadPool;

namespace {

// Runs one job of `count` indices and checks that each ran exactly once.
void check_once(ThreadPool &pool, size_t count)
{
    std::vector<std::atomic<unsigned>> hits(count);
    pool.parallel_for(count, [&](size_t i) { hits[i].fetch_add(1, std::memory_order_relaxed); });
    for (size_t i = 0; i < count; i++)
        if (hits[i].load() != 1) {
            std::fprintf(stderr, "%u threads, count %zu: index %zu ran %u times\n", pool.size(), count, i,
                         hits[i].load());
            fail();
        }
}

// Back-to-back jobs (workers still spinning) of many sizes, on 1 to 4 threads.
void test_every_index_once(void **)
{
    for (unsigned threads = 1; threads <= 4; threads++) {
        ThreadPool pool(threads);
        for (unsigned rep = 0; rep < 50; rep++)
            for (size_t count : {0, 1, 2, 3, 5, 16, 92, 1000})
                check_once(pool, count);
    }
}

// Gaps longer than the spin between jobs: the workers sleep and must be woken.
void test_jobs_after_workers_sleep(void **)
{
    ThreadPool pool(3);
    for (unsigned rep = 0; rep < 20; rep++) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        check_once(pool, 92);
    }
}

// A job of slow indices runs on more than the calling thread.
void test_work_is_spread(void **)
{
    ThreadPool pool(2);
    std::mutex m;
    std::set<std::thread::id> ran_on;
    pool.parallel_for(16, [&](size_t) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        std::lock_guard<std::mutex> g(m);
        ran_on.insert(std::this_thread::get_id());
    });
    assert_int_equal(ran_on.size(), 2);
}

// The shares split [0, count) into consecutive ranges, one per thread.
void test_shares_cover_the_indices(void **)
{
    for (unsigned threads = 1; threads <= 5; threads++) {
        ThreadPool pool(threads);
        for (size_t count : {0, 1, 4, 92, 1000}) {
            assert_int_equal(pool.share_begin(count, 0), 0);
            assert_int_equal(pool.share_begin(count, threads), count);
            for (unsigned p = 0; p < threads; p++)
                assert_true(pool.share_begin(count, p) <= pool.share_begin(count, p + 1));
        }
    }
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_index_once),
        cmocka_unit_test(test_jobs_after_workers_sleep),
        cmocka_unit_test(test_work_is_spread),
        cmocka_unit_test(test_shares_cover_the_indices),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
