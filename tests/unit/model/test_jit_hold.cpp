// JitHold (model/src/iss_jit.hpp): the card's round holds the JIT's lock once
// per chunk of tiles instead of at every ISS call. A hold is seen by
// jit_held_here() on its own thread only, nests, and while it lives on any
// thread the lock cannot be taken exclusively, so that a reset of the code
// memory (jit_try_reset) never drops translations a round may still run.
#include <atomic>
#include <thread>

#include "iss_jit.hpp"

// cmocka last: its macros clash with C++ headers.
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
extern "C" {
#include <cmocka.h>
}

namespace {

using ipu::model::jit_held_here;
using ipu::model::jit_lock;
using ipu::model::JitHold;

void test_hold_nests_on_its_thread(void **)
{
    assert_false(jit_held_here());
    {
        const JitHold outer;
        assert_true(jit_held_here());
        {
            const JitHold inner;
            assert_true(jit_held_here());
        }
        assert_true(jit_held_here()); // the inner hold ended, the outer one still holds
    }
    assert_false(jit_held_here());
    // Nothing is left held: the lock can be taken exclusively again.
    assert_true(jit_lock().try_lock());
    jit_lock().unlock();
}

void test_hold_keeps_reset_out(void **)
{
    std::atomic<int> step{0};
    bool seen_here = true;
    std::thread other([&] {
        const JitHold hold;
        seen_here = jit_held_here();
        step = 1;
        while (step.load() != 2)
            std::this_thread::yield();
    });
    while (step.load() != 1)
        std::this_thread::yield();
    assert_false(jit_held_here()); // another thread's hold is not this thread's
    assert_false(jit_lock().try_lock()); // a reset would wait for the other thread's round
    step = 2;
    other.join();
    assert_true(seen_here);
    assert_true(jit_lock().try_lock());
    jit_lock().unlock();
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hold_nests_on_its_thread),
        cmocka_unit_test(test_hold_keeps_reset_out),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
