// RTL card: registers, the ISA, fault and worker programs in lock-step with the
// functional model, console from every tile and context, reset and halt.
#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstring>
#include <string>
#include <vector>

#include "ipu_rtl/rtl.h"
#include "card_checks.hpp"
#include "rtl_harness.hpp"

// cmocka last: its macros clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::Backend;
using ipu::test::RtlHarness;
using ipu::test::RtlRunResult;

namespace {

std::string prog(const char *name) { return RtlHarness::program(name); }

void expect_no_divergence(RtlHarness &h)
{
    const std::string d = h.divergence();
    if (!d.empty())
        print_error("%s", d.c_str());
    assert_true(d.empty());
}

// A self-checking ISA program on tile 0 in lock-step: every case passes, no divergence.
void run_isa(const char *name)
{
    RtlHarness h(Backend::Lockstep);
    ipu::test::expect_isa_program_passes(h, prog(name), [&] { expect_no_divergence(h); });
    assert_true(h.compared() > 100);
}

void test_rv32ui_lockstep(void **) { run_isa("rv32ui"); }
void test_rv32um_lockstep(void **) { run_isa("rv32um"); }

// Case `which` of faults.elf on tile 1 in lock-step: the record, the registers, recovery.
void expect_fault(unsigned which, uint32_t cause, const char *label, uint32_t addr_expected = ~0u)
{
    RtlHarness h(Backend::Lockstep);
    ipu::test::expect_fault_case(h, prog("faults"), which, cause, label, addr_expected,
                                 [&] { expect_no_divergence(h); });
}

void test_fault_illegal(void **) { expect_fault(1, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_1", 0xffffffffu); }
void test_fault_fetch(void **) { expect_fault(2, IPU_ERR_FETCH_FAULT, nullptr, 0x40); }
void test_fault_load_misaligned(void **) { expect_fault(3, IPU_ERR_LOAD_MISALIGNED, "fault_3", IPU_TILE_SRAM_BASE + 0x1001); }
void test_fault_load(void **) { expect_fault(4, IPU_ERR_LOAD_FAULT, "fault_4", 0x10); }
void test_fault_store_misaligned(void **) { expect_fault(5, IPU_ERR_STORE_MISALIGNED, "fault_5", IPU_TILE_SRAM_BASE + 0x1002); }
void test_fault_store(void **) { expect_fault(6, IPU_ERR_STORE_FAULT, "fault_6", 0xfffffff0u); }
void test_fault_ecall(void **) { expect_fault(7, IPU_ERR_ECALL, "fault_7"); }
void test_fault_ebreak(void **) { expect_fault(8, IPU_ERR_EBREAK, "fault_8"); }
void test_fault_bad_exchange(void **) { expect_fault(9, IPU_ERR_BAD_EXCHANGE, "fault_9", IPU_TILE_SRAM_BASE); }
void test_fault_worker_misuse(void **) { expect_fault(10, IPU_ERR_WORKER_MISUSE, "fault_15", 7); }
void test_fault_watchdog(void **) { expect_fault(11, IPU_ERR_WATCHDOG, nullptr); }
// The watchdog's record: the budget it took at START, in units (the count that exceeded
// it, shifted down), and the PC the spinning context would run next as both pc and addr.
void test_fault_watchdog_record(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 3);
    h.load_elf(prog("faults"), {1}, 11);
    RtlRunResult r = h.run(1u << 14);
    expect_no_divergence(h);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, IPU_ERR_WATCHDOG);
    assert_int_equal(r.errors[0].info, 3);
    assert_int_equal(r.errors[0].addr, r.errors[0].pc);
}
void test_fault_firmware_fail(void **) { expect_fault(12, IPU_ERR_VERTEX_FAILED, "fault_13"); }
void test_fault_missing_csr(void **) { expect_fault(13, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_csr"); }
void test_fault_host_exchange_miss(void **) { expect_fault(14, IPU_ERR_XLAT_MISS, "fault_10", 0x40000000); }
// The tile's own range check (the core checks it a turn ahead, off the clock's critical path).
void test_fault_host_exchange_range(void **)
{
    expect_fault(15, IPU_ERR_HOST_EXCHANGE, "fault_16", IPU_TILE_SRAM_BASE + 0x1000);
}

void test_workers_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("workers"), {2});
    RtlRunResult r = h.run();
    expect_no_divergence(h);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[2], 1u << 4);
}

// TILE_CTX_PC / TILE_CTX_INSTRET read the context TILE_CTX_SEL names with the model's
// values, on the first read right after it changes (the register block reads them a cycle
// or two after the write: a copy the barrel refreshes once a turn would be stale).
void test_ctx_readout_follows_ctx_sel(void **)
{
    RtlHarness h(Backend::Lockstep), m(Backend::Model);
    h.load_elf(prog("workers"), {2});
    m.load_elf(prog("workers"), {2});
    assert_int_equal(h.run().card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(m.run().card_state, IPU_CARD_STATE_DONE);
    expect_no_divergence(h);
    h.set_reg(IPU_REG_TILE_SEL, 2);
    m.set_reg(IPU_REG_TILE_SEL, 2);
    const uint32_t workers = h.reg(IPU_REG_NUM_WORKERS);
    assert_true(workers >= 2);
    for (uint32_t c = 0; c <= workers; c++) {
        h.set_reg(IPU_REG_TILE_CTX_SEL, c);
        m.set_reg(IPU_REG_TILE_CTX_SEL, c);
        assert_int_equal(h.reg(IPU_REG_TILE_CTX_PC), m.reg(IPU_REG_TILE_CTX_PC));
        assert_int_equal(h.reg(IPU_REG_TILE_CTX_INSTRET), m.reg(IPU_REG_TILE_CTX_INSTRET));
    }
}

// CSR INSTRET/INSTRETH in every context at once, in lock-step (the RTL keeps the high
// words in block RAM, read a cycle ahead for the context EX runs next), over two runs:
// START sweeps the high words and the low words' ring to zero.
void test_instret_csrs_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep), m(Backend::Model);
    h.load_elf(prog("instret"), {0});
    m.load_elf(prog("instret"), {0});
    for (int round = 0; round < 2; round++) {
        RtlRunResult r = h.run();
        RtlRunResult mr = m.run();
        expect_no_divergence(h);
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        assert_true(r.exit_code == mr.exit_code);
        assert_true(r.exit_code[0] > 10u && r.exit_code[0] < 999u);  // retirements, INSTRETH zero
    }
}

void test_compute_all_tiles_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("compute"), {}, 3000);
    RtlRunResult r = h.run(1000);
    expect_no_divergence(h);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    RtlHarness m(Backend::Model);
    m.load_elf(prog("compute"), {}, 3000);
    RtlRunResult mr = m.run();
    assert_true(r.exit_code == mr.exit_code);
}

// Exchange ring: writes land at the internal sync, then an external sync (id 7).
void test_exchange_ring_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("exchange"));
    RtlRunResult r = h.run(64);
    expect_no_divergence(h);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.host_syncs, 1);
    for (unsigned t = 0; t < 4; t++)
        assert_int_equal(r.exit_code[t], ((t + 3) % 4) * 10 + 1);
    assert_int_equal(h.reg(IPU_REG_HSYNC_ID), 7);
}

// Host exchange through the translation table, both directions, every tile, in lock-step.
void test_host_exchange_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    uint8_t *to_host = h.alloc_host(4096), *from_host = h.alloc_host(4096);
    for (uint32_t i = 0; i < 16; i++) {
        const uint32_t v = i + 1;
        std::memcpy(from_host + 4 * i, &v, 4);
    }
    h.map(0, 0x10000, to_host, 4096, false, true);
    h.map(1, 0x20000, from_host, 4096, true, false);
    h.load_elf(prog("hx"));
    RtlRunResult r = h.run(64);
    expect_no_divergence(h);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    for (unsigned t = 0; t < 4; t++) {
        assert_int_equal(r.exit_code[t], 136);
        for (uint32_t i = 0; i < 16; i++) {
            uint32_t v;
            std::memcpy(&v, to_host + 64 * t + 4 * i, 4);
            assert_int_equal(v, 3 * i + t);
        }
    }
}

// Console bytes from every tile and every context reach the host, as on the model.
void test_console_every_tile(void **)
{
    RtlHarness h(Backend::Rtl), m(Backend::Model);
    h.load_elf(prog("console"));
    m.load_elf(prog("console"));
    RtlRunResult r = h.run(), mr = m.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    for (unsigned t = 0; t < h.num_tiles(); t++) {
        std::string want = "hello from tile " + std::to_string(t) + "\n";
        for (unsigned w = 1; w <= 6; w++)
            want += "w" + std::to_string(w) + "\n";
        assert_string_equal(r.console[t].c_str(), want.c_str());
        assert_string_equal(mr.console[t].c_str(), want.c_str());
        assert_int_equal(r.exit_code[t], t);
    }
}

void test_console_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("console"));
    RtlRunResult r = h.run(64);
    expect_no_divergence(h);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.console.size(), 4);
}

// The comparison can fail: a program whose path depends on CYCLE diverges, and
// lock-step stops at the first differing instruction with both sides' state.
void test_lockstep_detects_divergence(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("timing"), {0});
    RtlRunResult r = h.run(64);
    const std::string d = h.divergence();
    assert_false(d.empty());
    assert_non_null(std::strstr(d.c_str(), "tile 0 context 0"));
    assert_non_null(std::strstr(d.c_str(), "rtl:"));
    assert_non_null(std::strstr(d.c_str(), "model:"));
    assert_non_null(std::strstr(d.c_str(), "ctx 0: state"));
    assert_int_not_equal(r.card_state, IPU_CARD_STATE_RUNNING);
    assert_true(h.compared() > 10);
}

// Issue 18: a divergence is the pair's fault, not a quiet report. The card
// reads ERROR with an ERR_LOCKSTEP_DIVERGENCE record first (so the driver and
// gc-run fail the run), the RTL stops for good (further register accesses and
// advances retire nothing), and RESET puts the pair back in step.
void test_lockstep_divergence_is_an_error_and_stops_both_cards(void **)
{
    RtlHarness h(Backend::Lockstep);
    h.load_elf(prog("timing"), {0});
    RtlRunResult r = h.run(64);
    assert_false(h.divergence().empty());
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_true(r.errors.size() >= 1);
    assert_int_equal(r.errors[0].cause, IPU_ERR_LOCKSTEP_DIVERGENCE);
    assert_int_equal(r.errors[0].tile, 0);
    assert_int_equal(r.errors[0].context, 0);
    assert_int_not_equal(r.errors[0].pc, r.errors[0].addr); // the RTL's and the model's pc
    assert_true(r.errors[0].info > 10);                     // instructions compared
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK);
    // Stopped: the RTL's instruction count stays where it is.
    h.set_reg(IPU_REG_TILE_SEL, 0);
    h.set_reg(IPU_REG_TILE_CTX_SEL, 0);
    const uint32_t instret = h.reg(IPU_REG_TILE_CTX_INSTRET);
    for (int i = 0; i < 8; i++)
        assert_int_equal(h.card()->ops->advance(h.card(), 1u << 12), 0);
    for (int i = 0; i < 64; i++)
        h.reg(IPU_REG_STATUS);
    assert_int_equal(h.reg(IPU_REG_TILE_CTX_INSTRET), instret);
    // START is refused until RESET; RESET clears the divergence.
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_ERROR);
    h.reset();
    assert_true(h.divergence().empty());
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
}

void test_identity_registers(void **)
{
    RtlHarness h(Backend::Rtl);
    assert_int_equal(h.reg(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_int_equal(h.reg(IPU_REG_VERSION), (IPU_CONTRACT_VERSION_MAJOR << 16) | IPU_CONTRACT_VERSION_MINOR);
    assert_int_equal(h.reg(IPU_REG_NUM_TILES), 4);
    assert_int_equal(h.reg(IPU_REG_TILE_MEM_BYTES), 65536);
    assert_int_equal(h.reg(IPU_REG_NUM_WORKERS), 6);
    assert_int_equal(h.reg(IPU_REG_XLAT_ENTRIES), 64);
    assert_int_equal(h.reg(IPU_REG_TILE_CLOCK_KHZ), 1330000);
    assert_true(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_RTL_MASK);
    assert_false(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_FPU_MASK);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    assert_string_equal(h.card()->ops->name, "rtl");
}

void test_bad_bus_accesses_survive(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_bad_bus_accesses_survive(h);
}

void test_reset_clears(void **)
{
    RtlHarness h(Backend::Rtl);
    // INSTRET (block RAM, swept after a reset) reads 0 for every context after a run.
    h.load_elf(prog("workers"), {0});
    assert_int_equal(h.run().card_state, IPU_CARD_STATE_DONE);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    h.set_reg(IPU_REG_TILE_CTX_SEL, 0);
    assert_true(h.reg(IPU_REG_TILE_CTX_INSTRET) > 0);
    h.reset();
    for (uint32_t c = 0; c <= h.reg(IPU_REG_NUM_WORKERS); c++) {
        h.set_reg(IPU_REG_TILE_CTX_SEL, c);
        assert_int_equal(h.reg(IPU_REG_TILE_CTX_INSTRET), 0);
    }
    const uint32_t word = 0x12345678;
    h.write_tile(0, IPU_TILE_SRAM_BASE, &word, 4);
    h.set_reg(IPU_REG_IRQ_MASK, 0x1f);
    h.set_reg(IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET, 0x7);
    assert_int_equal(h.reg(IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET), 0x7);
    h.reset();
    assert_int_equal(h.read_tile_u32(0, IPU_TILE_SRAM_BASE), 0);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0);
    assert_int_equal(h.reg(IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
    // A write right after a reset sticks (the RTL once lost it to the reset's last cycle).
    h.reset();
    h.set_reg(IPU_REG_IRQ_MASK, 0x3);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0x3);
}

// The host-written 32-bit registers read back from a block-RAM copy (ipu_card_regs): each
// tile's own TILE_ENTRY/TILE_BOOT_ARG, writes ignored while running, zero after a reset.
void test_setup_registers_read_back(void **)
{
    RtlHarness h(Backend::Rtl);
    for (uint32_t t = 0; t < 4; t++) {
        h.set_reg(IPU_REG_TILE_SEL, t);
        h.set_reg(IPU_REG_TILE_ENTRY, 0x1000u + t);
        h.set_reg(IPU_REG_TILE_BOOT_ARG, 0xb0070000u + t);
    }
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 0x89abcdefu);
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0x76543210u);
    for (uint32_t t = 0; t < 4; t++) {
        h.set_reg(IPU_REG_TILE_SEL, t);
        assert_int_equal(h.reg(IPU_REG_TILE_ENTRY), 0x1000u + t);
        assert_int_equal(h.reg(IPU_REG_TILE_BOOT_ARG), 0xb0070000u + t);
    }
    assert_int_equal(h.reg(IPU_REG_WATCHDOG_INSNS), 0x89abcdefu);
    assert_int_equal(h.reg(IPU_REG_DMA_DESC_ADDR), 0x76543210u);
    // Back to back: each read returns its own register, not the one before.
    assert_int_equal(h.reg(IPU_REG_NUM_TILES), 4);
    assert_int_equal(h.reg(IPU_REG_TILE_BOOT_ARG), 0xb0070003u);
    assert_int_equal(h.reg(IPU_REG_TILE_SEL), 3);

    h.load_elf(prog("compute"), {0}, 1000000);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    const uint32_t entry = h.reg(IPU_REG_TILE_ENTRY);
    h.set_reg(IPU_REG_TILE_ENTRY, entry + 4);  // ignored while the card runs
    assert_int_equal(h.reg(IPU_REG_TILE_ENTRY), entry);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);

    h.reset();
    h.set_reg(IPU_REG_TILE_SEL, 0);
    assert_int_equal(h.reg(IPU_REG_TILE_ENTRY), 0);
    assert_int_equal(h.reg(IPU_REG_TILE_BOOT_ARG), 0);
    assert_int_equal(h.reg(IPU_REG_WATCHDOG_INSNS), 0);
    assert_int_equal(h.reg(IPU_REG_DMA_DESC_ADDR), 0);
}

void test_halt_and_restart(void **)
{
    RtlHarness h(Backend::Rtl);
    h.load_elf(prog("compute"), {0}, 1000000);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    assert_int_equal(h.card()->ops->advance(h.card(), 1000), 1);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    assert_int_equal(h.reg(IPU_REG_TILE_STATE), IPU_TILE_STATE_READY);
    h.set_reg(IPU_REG_TILE_CTX_SEL, 0);
    assert_true(h.reg(IPU_REG_TILE_CTX_INSTRET) >= 900);
    h.set_reg(IPU_REG_TILE_BOOT_ARG, 10);
    RtlRunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
}

void test_dma_through_translation(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_dma_through_translation(h);
}

void test_dma_ignores_entry_page_offsets(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_dma_ignores_entry_page_offsets(h);
}

void test_dma_faults(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_dma_faults(h);
}

// Host exchanges, an exchange to itself and their faults on tile 0, in lock-step with the model.
void test_tile_services_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    ipu::test::expect_tile_services(h, prog("services"));
    expect_no_divergence(h);
}

void test_dma_in_slices(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_dma_in_slices(h);
}

// Lock-step drives the model's DMA engine beside the RTL's and compares how both chains end.
void test_dma_lockstep(void **)
{
    RtlHarness h(Backend::Lockstep);
    ipu::test::expect_dma_through_translation(h);
    ipu::test::expect_dma_in_slices(h);
    expect_no_divergence(h);
}

// The RTL's retire trace through the contract's observer: every instruction of
// tile 0's supervisor, with the clock cycle it retired in.
void test_retire_observer(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu::test::expect_retire_observer_sees_every_instruction(h, prog("compute"));
}

// The RTL offers no snapshot, and says so through the operations table.
void test_save_not_supported(void **)
{
    RtlHarness h(Backend::Rtl);
    ipu_backend *c = h.card();
    uint8_t buf[16] = {};
    assert_int_equal(c->ops->save_size(c), 0);
    assert_int_equal(c->ops->save(c, buf, sizeof buf), -ENOTSUP);
    assert_int_equal(c->ops->restore(c, buf, sizeof buf), -ENOTSUP);
}

void test_create_rejects_boards_without_rtl(void **)
{
    ipu_board b;
    ipu_board_default(&b); // tiny: rv32imf, which the RTL tiles do not implement yet
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    assert_int_equal(ipu_rtl_create(&b, &host, nullptr, &card), -EINVAL);
    assert_int_equal(ipu_rtl_create(nullptr, &host, nullptr, &card), -EINVAL);
    assert_null(card);
}

} // namespace

int main()
{
    const CMUnitTest tests[] = {
        cmocka_unit_test(test_identity_registers),
        cmocka_unit_test(test_bad_bus_accesses_survive),
        cmocka_unit_test(test_reset_clears),
        cmocka_unit_test(test_create_rejects_boards_without_rtl),
        cmocka_unit_test(test_dma_through_translation),
        cmocka_unit_test(test_dma_ignores_entry_page_offsets),
        cmocka_unit_test(test_dma_faults),
        cmocka_unit_test(test_tile_services_lockstep),
        cmocka_unit_test(test_dma_in_slices),
        cmocka_unit_test(test_dma_lockstep),
        cmocka_unit_test(test_retire_observer),
        cmocka_unit_test(test_save_not_supported),
        cmocka_unit_test(test_rv32ui_lockstep),
        cmocka_unit_test(test_rv32um_lockstep),
        cmocka_unit_test(test_fault_illegal),
        cmocka_unit_test(test_fault_fetch),
        cmocka_unit_test(test_fault_load_misaligned),
        cmocka_unit_test(test_fault_load),
        cmocka_unit_test(test_fault_store_misaligned),
        cmocka_unit_test(test_fault_store),
        cmocka_unit_test(test_fault_ecall),
        cmocka_unit_test(test_fault_ebreak),
        cmocka_unit_test(test_fault_bad_exchange),
        cmocka_unit_test(test_fault_worker_misuse),
        cmocka_unit_test(test_fault_watchdog),
        cmocka_unit_test(test_fault_watchdog_record),
        cmocka_unit_test(test_fault_firmware_fail),
        cmocka_unit_test(test_fault_missing_csr),
        cmocka_unit_test(test_fault_host_exchange_miss),
        cmocka_unit_test(test_fault_host_exchange_range),
        cmocka_unit_test(test_workers_lockstep),
        cmocka_unit_test(test_ctx_readout_follows_ctx_sel),
        cmocka_unit_test(test_instret_csrs_lockstep),
        cmocka_unit_test(test_compute_all_tiles_lockstep),
        cmocka_unit_test(test_exchange_ring_lockstep),
        cmocka_unit_test(test_host_exchange_lockstep),
        cmocka_unit_test(test_console_every_tile),
        cmocka_unit_test(test_console_lockstep),
        cmocka_unit_test(test_setup_registers_read_back),
        cmocka_unit_test(test_halt_and_restart),
        cmocka_unit_test(test_lockstep_detects_divergence),
        cmocka_unit_test(test_lockstep_divergence_is_an_error_and_stops_both_cards),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
