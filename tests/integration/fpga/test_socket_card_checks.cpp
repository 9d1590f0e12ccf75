// The model/RTL conformance checks (tests/support/card_checks) against the
// out-of-process board simulation: ipu-board-sim (the RTL card behind the FPGA
// board top's host link) on a Unix socket, driven through libipudrv's socket
// transport by the driver harness (DriverCard). The same check functions and
// expected values as the in-process RTL test (test_rtl), in two groups: the
// 4-tile rtl-tiny card, whose DMA engine and exchange fabric serve the tiles'
// requests, and the icebreaker board's 1-tile card (CAPS.HOST_SERVICE), whose
// tile requests the driver services (host exchanges, exchange lists, landing).
//
// Not run here, because they need a hook of the in-process backend interface
// that neither the link nor libipudrv has (test_rtl and test_model run them):
// - expect_bad_bus_accesses_refused: misaligned, wrong-size, out-of-range and
//   no-such-BAR accesses (the driver refuses those before any transport);
// - expect_dma_in_slices: advance() with an exact cycle budget (the board sim
//   runs on its own clock);
// - expect_retire_observer_sees_every_instruction: the retire observer;
// - lock-step comparison with the model (after_run hooks): the board sim runs
//   the RTL alone.
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <string>

#include "card_checks.hpp"
#include "driver_card.hpp"

// cmocka last: its macros clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::DriverCard;

namespace {

const char *g_board = "rtl-tiny"; // the board shape of the running group
pid_t g_sim = -1;
char g_dir[] = "/tmp/ipu-checks-XXXXXX";
std::string g_path;

int group_setup(void **)
{
    std::strcpy(g_dir, "/tmp/ipu-checks-XXXXXX"); // mkdtemp fills in the template: renew it for each group
    if (!mkdtemp(g_dir))
        return -1;
    g_path = std::string(g_dir) + "/link";
    g_sim = fork();
    if (g_sim == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM); // a check that aborts the test must not leave the sim running
        execl(IPU_BOARD_SIM, IPU_BOARD_SIM, "--board", g_board, "--socket", g_path.c_str(),
              static_cast<char *>(nullptr));
        _exit(127);
    }
    for (int i = 0; i < 600 && access(g_path.c_str(), F_OK) != 0; i++) {
        // Probe for the socket file: a connection would be taken as the client.
        timespec ts{0, 50 * 1000 * 1000};
        nanosleep(&ts, nullptr);
    }
    return access(g_path.c_str(), F_OK);
}

int icebreaker_setup(void **state)
{
    g_board = "icebreaker";
    return group_setup(state);
}

int group_teardown(void **)
{
    if (g_sim > 0) {
        kill(g_sim, SIGTERM);
        waitpid(g_sim, nullptr, 0);
    }
    unlink(g_path.c_str());
    rmdir(g_dir);
    return 0;
}

// One connection per test (cmocka's setup and teardown, which also run when a
// check fails), on a card reset to its power-on state (the in-process tests
// make a fresh card each time).
int open_card(void **state)
{
    try {
        auto *card = new DriverCard("socket", g_path);
        *state = card;
        card->reset();
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return -1;
    }
    return 0;
}

int close_card(void **state)
{
    delete static_cast<DriverCard *>(*state);
    *state = nullptr;
    return 0;
}

DriverCard &card(void **state) { return *static_cast<DriverCard *>(*state); }

std::string prog(const char *name) { return std::string(IPU_RTL_TILE_DIR) + "/" + name + ".elf"; }

void test_shape_over_the_socket(void **state)
{
    DriverCard &h = card(state);
    assert_int_equal(h.num_tiles(), 4);
    assert_int_equal(h.reg(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_true(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_RTL_MASK);
    assert_false(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_FPU_MASK);
}

// The icebreaker board's card: one tile, no DMA engine, the driver services the tiles' requests.
void test_icebreaker_shape(void **state)
{
    DriverCard &h = card(state);
    assert_int_equal(h.num_tiles(), 1);
    const uint32_t caps = h.reg(IPU_REG_CAPS);
    assert_true(caps & IPU_REG_CAPS_RTL_MASK);
    assert_true(caps & IPU_REG_CAPS_HOST_SERVICE_MASK);
    assert_false(caps & IPU_REG_CAPS_DMA_MASK);
    assert_int_equal(h.reg(IPU_REG_SVC_REQ), 0);
}

void test_tile_services(void **state) { ipu::test::expect_tile_services(card(state), prog("services")); }

void test_bad_register_writes_ignored(void **state) { ipu::test::expect_bad_register_writes_ignored(card(state)); }

void test_dma_through_translation(void **state) { ipu::test::expect_dma_through_translation(card(state)); }

void test_dma_faults(void **state) { ipu::test::expect_dma_faults(card(state)); }

void test_rv32ui(void **state) { ipu::test::expect_isa_program_passes(card(state), prog("rv32ui")); }
void test_rv32um(void **state) { ipu::test::expect_isa_program_passes(card(state), prog("rv32um")); }

void expect_fault(void **state, unsigned which, uint32_t cause, const char *label, uint32_t addr_expected = ~0u)
{
    ipu::test::expect_fault_case(card(state), prog("faults"), which, cause, label, addr_expected);
}

void test_fault_illegal(void **state) { expect_fault(state, 1, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_1", 0xffffffffu); }
void test_fault_fetch(void **state) { expect_fault(state, 2, IPU_ERR_FETCH_FAULT, nullptr, 0x40); }
void test_fault_load_misaligned(void **state) { expect_fault(state, 3, IPU_ERR_LOAD_MISALIGNED, "fault_3", IPU_TILE_SRAM_BASE + 0x1001); }
void test_fault_load(void **state) { expect_fault(state, 4, IPU_ERR_LOAD_FAULT, "fault_4", 0x10); }
void test_fault_store_misaligned(void **state) { expect_fault(state, 5, IPU_ERR_STORE_MISALIGNED, "fault_5", IPU_TILE_SRAM_BASE + 0x1002); }
void test_fault_store(void **state) { expect_fault(state, 6, IPU_ERR_STORE_FAULT, "fault_6", 0xfffffff0u); }
void test_fault_ecall(void **state) { expect_fault(state, 7, IPU_ERR_ECALL, "fault_7"); }
void test_fault_ebreak(void **state) { expect_fault(state, 8, IPU_ERR_EBREAK, "fault_8"); }
void test_fault_bad_exchange(void **state) { expect_fault(state, 9, IPU_ERR_BAD_EXCHANGE, "fault_9", IPU_TILE_SRAM_BASE); }
void test_fault_worker_misuse(void **state) { expect_fault(state, 10, IPU_ERR_WORKER_MISUSE, "fault_15", 7); }
void test_fault_watchdog(void **state) { expect_fault(state, 11, IPU_ERR_WATCHDOG, nullptr); }
void test_fault_firmware_fail(void **state) { expect_fault(state, 12, IPU_ERR_VERTEX_FAILED, "fault_13"); }
void test_fault_missing_csr(void **state) { expect_fault(state, 13, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_csr"); }
void test_fault_host_exchange_miss(void **state) { expect_fault(state, 14, IPU_ERR_XLAT_MISS, "fault_10", 0x40000000); }

} // namespace

int main()
{
    const CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_shape_over_the_socket, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_bad_register_writes_ignored, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_dma_through_translation, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_dma_faults, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_tile_services, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_rv32ui, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_rv32um, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_illegal, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_fetch, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_load_misaligned, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_load, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_store_misaligned, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_store, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_ecall, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_ebreak, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_bad_exchange, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_worker_misuse, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_watchdog, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_firmware_fail, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_missing_csr, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_fault_host_exchange_miss, open_card, close_card),
    };
    const CMUnitTest icebreaker[] = {
        cmocka_unit_test_setup_teardown(test_icebreaker_shape, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_rv32ui, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_rv32um, open_card, close_card),
        cmocka_unit_test_setup_teardown(test_tile_services, open_card, close_card),
    };
#ifdef IPU_CHECKS_ICEBREAKER_ONLY
    // The netlist simulation (ipu-board-netlist-sim) is the icebreaker card alone, and slow (gate-level cells,
    // the board's 91-clock UART bit): IPU_NETLIST_CHECKS=all runs the whole group (about 3 minutes; ctest's
    // fpga_netlist_card_checks sets it), else the link and the card's registers (the shape check).
    (void)tests;
    const char *all = std::getenv("IPU_NETLIST_CHECKS");
    if (all && std::strcmp(all, "all") == 0)
        return cmocka_run_group_tests(icebreaker, icebreaker_setup, group_teardown);
    return _cmocka_run_group_tests("icebreaker netlist: shape", icebreaker, 1, icebreaker_setup, group_teardown);
#else
    const int failed = cmocka_run_group_tests(tests, group_setup, group_teardown);
    return failed + cmocka_run_group_tests(icebreaker, icebreaker_setup, group_teardown);
#endif
}
