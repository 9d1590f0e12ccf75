// The card model's ISS modes (IPU_EMU_ISS=interp|fast|jit|native|background; the
// default is jit): code written
// after it was decoded or compiled, faults in the middle of a block, and
// identical results and cycle counts for every mode and host thread count.
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

#include "tile_harness.hpp"

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::Harness;
using ipu::test::RunResult;

namespace {

// native with IPU_EMU_ISS_HOT=200 (set in main): every case is translated before the part under test.
const char *const kModes[] = {"interp", "fast", "jit", "native"};
constexpr unsigned kModeCount = sizeof kModes / sizeof kModes[0];

std::string prog(const char *name) { return Harness::tile_binary(std::string(name) + ".elf"); }

// Runs case `which` of iss_modes.elf on tile 1 of `h`.
RunResult run_case(Harness &h, unsigned which)
{
    h.load_elf(prog("iss_modes"), {1}, which);
    return h.run(1u << 14, 1u << 10, [&h](uint32_t id) {
        // Case 3: rewrite host_patched_fn while the tile waits at the sync.
        assert_int_equal(id, 9);
        const uint32_t word = h.read_tile_u32(1, h.symbol("host_patch_50"));
        h.write_tile(1, h.symbol("host_patched_fn"), &word, 4);
    });
}

void expect_exit(unsigned which, uint32_t value)
{
    for (const char *mode : kModes) {
        setenv("IPU_EMU_ISS", mode, 1);
        Harness h("tiny");
        RunResult r = run_case(h, which);
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        assert_int_equal(r.exit_code[1], value);
    }
}

// A store over an instruction of a block that already ran: the next call runs the new one.
void test_store_into_executed_block(void **) { expect_exit(1, 150 + 150 * 100); }
// A store over the next instruction of its own block.
void test_store_into_own_block(void **) { expect_exit(2, 7); }
// The host rewrites code through BAR2 during an external sync.
void test_host_rewrites_code(void **) { expect_exit(3, 1 + 50); }

// A fault in the middle of a block names the faulting instruction; the cycle
// count is the same in both modes (the instructions before it retired).
void expect_mid_block_fault(unsigned which, uint32_t cause, const char *label)
{
    uint64_t cycles[kModeCount] = {};
    for (unsigned m = 0; m < kModeCount; m++) {
        setenv("IPU_EMU_ISS", kModes[m], 1);
        Harness h("tiny");
        RunResult r = run_case(h, which);
        assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
        assert_int_equal(r.errors.size(), 1);
        assert_int_equal(r.errors[0].cause, cause);
        assert_int_equal(r.errors[0].tile, 1);
        assert_int_equal(r.errors[0].pc, h.symbol(label));
        cycles[m] = r.cycles;
    }
    for (unsigned m = 1; m < kModeCount; m++)
        assert_int_equal(cycles[0], cycles[m]);
}

void test_load_fault_mid_block(void **) { expect_mid_block_fault(4, IPU_ERR_LOAD_FAULT, "mid_4"); }
void test_stack_overflow_mid_block(void **) { expect_mid_block_fault(5, IPU_ERR_STACK_OVERFLOW, "mid_5"); }
void test_bad_rounding_mode_mid_block(void **)
{
    expect_mid_block_fault(6, IPU_ERR_ILLEGAL_INSTRUCTION, "mid_6");
}

// One multi-tile program in every mode, 1 and 2 host threads, with a round
// budget that ends rounds in the middle of blocks: every run must give the
// same exit codes and card cycles.
void expect_modes_agree(const std::string &elf, uint32_t boot_arg, uint64_t budget)
{
    std::vector<RunResult> runs;
    for (const char *mode : kModes)
        for (unsigned threads : {1u, 2u}) {
            setenv("IPU_EMU_ISS", mode, 1);
            Harness h("tiny", threads);
            h.load_elf(elf, {}, boot_arg);
            RunResult r = h.run(budget, 1u << 20);
            assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
            runs.push_back(r);
        }
    for (const RunResult &r : runs) {
        assert_true(r.exit_code == runs[0].exit_code);
        assert_int_equal(r.cycles, runs[0].cycles);
        assert_int_equal(r.host_syncs, runs[0].host_syncs);
    }
}

void test_modes_agree_compute(void **) { expect_modes_agree(prog("compute"), 3000, 777); }
void test_modes_agree_workers(void **) { expect_modes_agree(prog("workers"), 0, 101); }
void test_modes_agree_exchange(void **) { expect_modes_agree(prog("exchange"), 0, 13); }
// Compiled C (sorting, CRC32, float matrix multiply: calls, loads, stores, FP).
void test_modes_agree_c_kernel(void **) { expect_modes_agree(IPU_TEST_ISS_KERNEL_ELF, 2, 1009); }

// The opt-in background mode (IPU_EMU_ISS=background) compiles hot code in
// the background into a fresh cache and switches it in when ready: runs
// before and after give the reference's exit codes and cycles. Runs first in
// this program, so that no earlier native run has compiled the same code.
void test_background_mode_builds_native(void **)
{
    char dir[] = "/tmp/ipu-iss-bg-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old = std::getenv("IPU_EMU_ISS_CACHE");
    const std::string old_cache = old ? old : "";
    setenv("IPU_EMU_ISS_CACHE", dir, 1);
    auto run = [](const char *mode) {
        setenv("IPU_EMU_ISS", mode, 1);
        Harness h("tiny");
        h.load_elf(IPU_TEST_ISS_KERNEL_ELF, {}, 2);
        RunResult r = h.run(1009, 1u << 20);
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        return r;
    };
    const RunResult ref = run("interp");
    const std::string built = std::string("ls ") + dir + "/*.so >/dev/null 2>&1";
    assert_int_not_equal(std::system(built.c_str()), 0);
    // The first run's card, when destroyed, waits for the compile it started: its object is in the cache then,
    // and the second run loads it from there.
    for (int i = 0; i < 2; i++) {
        const RunResult r = run("background");
        assert_true(r.exit_code == ref.exit_code);
        assert_int_equal(r.cycles, ref.cycles);
        assert_int_equal(std::system(built.c_str()), 0);
    }
    // Nothing writes into the cache any more and no build folder is left in it: removed at the first try.
    const std::string leftovers = std::string("ls -d ") + dir + "/tmp-* >/dev/null 2>&1";
    assert_int_not_equal(std::system(leftovers.c_str()), 0);
    assert_int_equal(std::system((std::string("rm -r ") + dir).c_str()), 0);
    if (old)
        setenv("IPU_EMU_ISS_CACHE", old_cache.c_str(), 1);
    else
        unsetenv("IPU_EMU_ISS_CACHE");
}

// The default (IPU_EMU_ISS unset) is the JIT, in the process: however hot the code, it
// compiles nothing and starts no process, so its cache stays empty.
void test_default_mode_compiles_nothing(void **)
{
    char dir[] = "/tmp/ipu-iss-default-XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *old = std::getenv("IPU_EMU_ISS_CACHE");
    const std::string old_cache = old ? old : "";
    setenv("IPU_EMU_ISS_CACHE", dir, 1);
    unsetenv("IPU_EMU_ISS");
    Harness h("tiny");
    h.load_elf(IPU_TEST_ISS_KERNEL_ELF, {}, 2);
    const RunResult r = h.run(1009, 1u << 20); // far more than IPU_EMU_ISS_HOT instructions
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(rmdir(dir), 0); // empty: nothing was built, no build folder was made
    if (old)
        setenv("IPU_EMU_ISS_CACHE", old_cache.c_str(), 1);
    else
        unsetenv("IPU_EMU_ISS_CACHE");
}

// An unknown mode is reported and the default runs.
void test_unknown_mode_runs_default(void **)
{
    setenv("IPU_EMU_ISS", "turbo", 1);
    Harness h("tiny");
    RunResult r = run_case(h, 1);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[1], 150 + 150 * 100);
}

} // namespace

int main()
{
    setenv("IPU_EMU_ISS_HOT", "200", 1);
    const CMUnitTest tests[] = {
        cmocka_unit_test(test_background_mode_builds_native),
        cmocka_unit_test(test_default_mode_compiles_nothing),
        cmocka_unit_test(test_store_into_executed_block),
        cmocka_unit_test(test_store_into_own_block),
        cmocka_unit_test(test_host_rewrites_code),
        cmocka_unit_test(test_load_fault_mid_block),
        cmocka_unit_test(test_stack_overflow_mid_block),
        cmocka_unit_test(test_bad_rounding_mode_mid_block),
        cmocka_unit_test(test_modes_agree_compute),
        cmocka_unit_test(test_modes_agree_workers),
        cmocka_unit_test(test_modes_agree_exchange),
        cmocka_unit_test(test_modes_agree_c_kernel),
        cmocka_unit_test(test_unknown_mode_runs_default),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
