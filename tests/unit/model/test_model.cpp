// Card model: ISA programs, tile faults, workers, sync and exchange, thread
// determinism, DMA through the translation table, registers and reset.
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <string>
#include <vector>

#include "ipu_backends/registry.h"
#include "ipu_model/inject.h"
#include "ipu_model/model.h"
#include "card_checks.hpp"
#include "tile_harness.hpp"

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::Harness;
using ipu::test::RunResult;

namespace {

std::string prog(const char *name) { return Harness::tile_binary(std::string(name) + ".elf"); }

void run_isa(const char *name)
{
    Harness h("tiny");
    ipu::test::expect_isa_program_passes(h, prog(name));
}

void test_rv32ui(void **) { run_isa("rv32ui"); }
void test_rv32um(void **) { run_isa("rv32um"); }
void test_rv32uf(void **) { run_isa("rv32uf"); }

// Case `which` of faults.elf on tile 1: the record, the registers, recovery.
void expect_fault(unsigned which, uint32_t cause, const char *label, uint32_t addr_expected = ~0u)
{
    Harness h("tiny");
    ipu::test::expect_fault_case(h, prog("faults"), which, cause, label, addr_expected);
}

void test_fault_illegal(void **) { expect_fault(1, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_1", 0xffffffffu); }
void test_fault_fetch(void **) { expect_fault(2, IPU_ERR_FETCH_FAULT, nullptr, 0x40); }
void test_fault_load_misaligned(void **) { expect_fault(3, IPU_ERR_LOAD_MISALIGNED, "fault_3", IPU_TILE_SRAM_BASE + 0x1001); }
void test_fault_load(void **) { expect_fault(4, IPU_ERR_LOAD_FAULT, "fault_4", 0x10); }
void test_fault_store_misaligned(void **) { expect_fault(5, IPU_ERR_STORE_MISALIGNED, "fault_5", IPU_TILE_SRAM_BASE + 0x1002); }
void test_fault_store(void **) { expect_fault(6, IPU_ERR_STORE_FAULT, "fault_6", 0xfffffff0u); }
void test_fault_ecall(void **) { expect_fault(7, IPU_ERR_ECALL, "fault_7"); }
void test_fault_ebreak(void **) { expect_fault(8, IPU_ERR_EBREAK, "fault_8"); }
void test_fault_bad_exchange(void **) { expect_fault(9, IPU_ERR_BAD_EXCHANGE, "fault_9"); }
void test_fault_worker_misuse(void **) { expect_fault(10, IPU_ERR_WORKER_MISUSE, "fault_15"); }
void test_fault_watchdog(void **) { expect_fault(11, IPU_ERR_WATCHDOG, nullptr); }
void test_fault_firmware_fail(void **) { expect_fault(12, IPU_ERR_VERTEX_FAILED, "fault_13"); }
void test_fault_missing_csr(void **) { expect_fault(13, IPU_ERR_ILLEGAL_INSTRUCTION, "fault_csr"); }
void test_fault_host_exchange_miss(void **) { expect_fault(14, IPU_ERR_XLAT_MISS, "fault_10", 0x40000000); }

void test_workers_join(void **)
{
    Harness h("tiny");
    h.load_elf(prog("workers"), {2});
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[2], 1u << 4);
    // The six workers ran concurrently: the tile took far less than 6x one worker.
    assert_true(r.cycles > 100 * 2 * 6);
    assert_true(r.cycles < 100 * 2 * 6 * 3);
}

void test_exchange_ring_and_host_sync(void **)
{
    Harness h("tiny");
    h.load_elf(prog("exchange"));
    std::vector<uint32_t> ids;
    RunResult r = h.run(1u << 20, 1u << 16, [&](uint32_t id) { ids.push_back(id); });
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(ids.size(), 1);
    assert_int_equal(ids[0], 7);
    for (unsigned t = 0; t < 4; t++)
        assert_int_equal(r.exit_code[t], ((t + 3) % 4) * 10 + 1);
}

// Same program, 1 and 4 host threads: identical results and cycle counts.
void test_threads_deterministic(void **)
{
    RunResult a, b;
    for (unsigned threads : {1u, 4u}) {
        Harness h("tiny", threads);
        h.load_elf(prog("compute"), {}, 20000);
        RunResult r = h.run(5000); // small rounds: many interleavings between tiles
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        (threads == 1 ? a : b) = r;
    }
    assert_true(a.exit_code == b.exit_code);
    assert_int_equal(a.cycles, b.cycles);
    Harness h("tiny", 4);
    h.load_elf(prog("exchange"));
    RunResult r = h.run(7);
    for (unsigned t = 0; t < 4; t++)
        assert_int_equal(r.exit_code[t], ((t + 3) % 4) * 10 + 1);
}

// Every ipu2 tile writes the same place on tile 0 and its neighbour's ring
// slot (landing.S): writes land in parallel by destination, yet in sender tile
// order, so 1, 2 and 3 host threads give tile 0 the last tile's bytes and
// identical cycles.
void test_exchange_landing_any_thread_count(void **)
{
    RunResult first;
    for (unsigned threads : {1u, 2u, 3u}) {
        Harness h("ipu2", threads);
        h.load_elf(prog("landing"));
        RunResult r = h.run(1000);
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        const uint32_t n = h.num_tiles();
        assert_int_equal(r.exit_code[0], n << 16 | n);
        for (uint32_t t = 1; t < n; t++)
            assert_int_equal(r.exit_code[t], t);
        if (threads == 1)
            first = r;
        assert_int_equal(r.cycles, first.cycles);
    }
}

// compute.S's exit code on tile `id` after `n` iterations.
uint32_t compute_exit(uint32_t id, uint32_t n)
{
    uint32_t h = id + 0x9e3779b9u;
    for (uint32_t i = 0; i < n; i++) {
        h ^= h << 5;
        h ^= h >> 7;
        h *= 0x9e3779b9u;
    }
    return h & 0xff;
}

// A round visits only the chunks of 16 tiles with a tile running or in a sync
// (Card::live_chunks_): tiles of a few chunks of ipu2 finish at different
// rounds, with the same results and cycles on 1 and 2 host threads; then a
// second START on the same card runs tiles of chunks the first run never
// used, which the round must visit again.
void test_round_skips_stopped_chunks(void **)
{
    RunResult first;
    for (unsigned threads : {1u, 2u}) {
        Harness h("ipu2", threads);
        // Tiles 0 and 40 stop after a few rounds; 1000 runs ten times as long.
        h.load_elf(prog("compute"), {0, 40}, 3000);
        h.load_elf(prog("compute"), {1000}, 30000);
        RunResult r = h.run(5000);
        assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
        for (unsigned t : {0u, 40u})
            assert_int_equal(r.exit_code[t], compute_exit(t, 3000));
        assert_int_equal(r.exit_code[1000], compute_exit(1000, 30000));
        if (threads == 1)
            first = r;
        assert_int_equal(r.cycles, first.cycles);
        // Every chunk has stopped; tiles 20 (chunk 1) and 700 (chunk 43) start now.
        h.load_elf(prog("compute"), {20, 700}, 3000);
        RunResult again = h.run(5000);
        assert_int_equal(again.card_state, IPU_CARD_STATE_DONE);
        for (unsigned t : {20u, 700u}) {
            assert_int_equal(again.tile_state[t], IPU_TILE_STATE_EXITED);
            assert_int_equal(again.exit_code[t], compute_exit(t, 3000));
        }
    }
}

void test_identity_registers(void **)
{
    Harness h("ipu2");
    assert_int_equal(h.reg(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    assert_int_equal(h.reg(IPU_REG_VERSION), (IPU_CONTRACT_VERSION_MAJOR << 16) | IPU_CONTRACT_VERSION_MINOR);
    assert_int_equal(h.reg(IPU_REG_NUM_TILES), 1472);
    assert_int_equal(h.reg(IPU_REG_TILE_MEM_BYTES), 624 * 1024);
    assert_int_equal(h.reg(IPU_REG_NUM_WORKERS), 6);
    assert_int_equal(h.reg(IPU_REG_XLAT_ENTRIES), 64);
    assert_true(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_FPU_MASK);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
}

void test_bad_bus_accesses_survive(void **)
{
    Harness h("tiny");
    ipu::test::expect_bad_bus_accesses_survive(h);
}

void test_reset_clears(void **)
{
    Harness h("tiny");
    const uint32_t word = 0x12345678;
    h.write_tile(0, IPU_TILE_SRAM_BASE, &word, 4);
    h.set_reg(IPU_REG_IRQ_MASK, 0x1f);
    h.map(0, 0x10000, h.alloc_host(4096), 4096, true, true);
    h.reset();
    assert_int_equal(h.read_tile_u32(0, IPU_TILE_SRAM_BASE), 0);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0);
    assert_int_equal(h.reg(IPU_REG_XLAT_BASE + IPU_XLAT_ENTRY_CTRL_OFFSET), 0);
    // A write right after a reset sticks (the RTL once lost it to the reset's last cycle).
    h.reset();
    h.set_reg(IPU_REG_IRQ_MASK, 0x3);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0x3);
}

void test_dma_through_translation(void **)
{
    Harness h("tiny");
    ipu::test::expect_dma_through_translation(h);
}

void test_dma_ignores_entry_page_offsets(void **)
{
    Harness h("tiny");
    ipu::test::expect_dma_ignores_entry_page_offsets(h);
}

void test_dma_faults(void **)
{
    Harness h("tiny");
    ipu::test::expect_dma_faults(h);
}

void test_tile_services(void **)
{
    Harness h("tiny");
    ipu::test::expect_tile_services(h, prog("services"));
}

void test_lazy_memory(void **)
{
    // An ipu2 card costs only what is touched: far below 1472 x 624 KiB.
    Harness h("ipu2");
    const uint32_t word = 1;
    h.write_tile(1471, IPU_TILE_SRAM_BASE + 624 * 1024 - 4, &word, 4);
    assert_int_equal(h.read_tile_u32(1471, IPU_TILE_SRAM_BASE + 624 * 1024 - 4), 1);
}

void test_create_rejects_bad_arguments(void **)
{
    ipu_board b;
    ipu_board_default(&b);
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    assert_int_equal(ipu_model_create(nullptr, &host, nullptr, &card), -EINVAL);
    b.bytes_per_tile = 4u << 20;
    assert_int_equal(ipu_model_create(&b, &host, nullptr, &card), -EINVAL);
    assert_null(card);
    // Issue 36: fields that wrapped a check, divided by zero or asked for 2^31 IPUs of tiles.
    ipu_board_default(&b);
    b.worker_contexts = 0xffffffffu;
    assert_int_equal(ipu_model_create(&b, &host, nullptr, &card), -EINVAL);
    ipu_board_default(&b);
    b.host_link_bytes_per_second = 0;
    assert_int_equal(ipu_model_create(&b, &host, nullptr, &card), -EINVAL);
    ipu_board_default(&b);
    b.num_ipus = 0x7fffffff;
    assert_int_equal(ipu_model_create(&b, &host, nullptr, &card), -EINVAL);
    assert_null(card);
    char why[256] = "";
    assert_int_equal(ipu_board_check(&b, "board", why, sizeof why), -EINVAL);
    assert_non_null(std::strstr(why, "key 'num_ipus' is 2147483647; expected an integer from 1 to 64"));
}

// Issue 36: $IPU_EMU_INJECT read "dma_error=012" as octal 10 and let a repeated key override the first.
void test_fault_spec_parse(void **)
{
    ipu_backend_faults f{};
    char err[400] = "";
    assert_int_equal(ipu_model_faults_parse("dma_error=12,delay_irq=0x1:5,removed", &f, err, sizeof err), 0);
    assert_int_equal(f.dma_error, 12);
    assert_int_equal(f.delay_irq_mask, 2);
    assert_int_equal(f.irq_delay, 5);
    assert_int_equal(f.removed, 1);
    assert_int_equal(ipu_model_faults_parse("dma_error=0x0c", &f, err, sizeof err), 0);
    assert_int_equal(f.dma_error, 12);
    assert_int_equal(ipu_model_faults_parse("dma_error=012", &f, err, sizeof err), -EINVAL);
    assert_non_null(std::strstr(err, "cannot use 'dma_error=012'"));
    assert_non_null(std::strstr(err, "no leading zero"));
    assert_int_equal(ipu_model_faults_parse("delay_irq=1:010", &f, err, sizeof err), -EINVAL);
    assert_int_equal(ipu_model_faults_parse("dma_error=0x", &f, err, sizeof err), -EINVAL);
    assert_int_equal(ipu_model_faults_parse("dma_error= 12", &f, err, sizeof err), -EINVAL);
    assert_int_equal(ipu_model_faults_parse("dma_error=12,dma_error=5", &f, err, sizeof err), -EINVAL);
    assert_non_null(std::strstr(err, "'dma_error' is given twice"));
    assert_int_equal(ipu_model_faults_parse("removed,removed", &f, err, sizeof err), -EINVAL);
    assert_non_null(std::strstr(err, "'removed' is given twice"));
}

// The retire observer sees exactly the instructions the card counts as retired.
void test_retire_observer(void **)
{
    Harness h("tiny", 2);
    ipu::test::expect_retire_observer_sees_every_instruction(h, prog("compute"));
}

// Writes translation entry `i` field by field (as the driver does: CTRL last).
void write_entry(Harness &h, uint32_t i, uint32_t dev_base, uint64_t bus, uint32_t pages)
{
    const uint32_t at = IPU_REG_XLAT_BASE + i * IPU_REG_XLAT_STRIDE;
    h.set_reg(at + IPU_XLAT_ENTRY_CTRL_OFFSET, 0);
    h.set_reg(at + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, dev_base);
    h.set_reg(at + IPU_XLAT_ENTRY_BUS_LO_OFFSET, static_cast<uint32_t>(bus));
    h.set_reg(at + IPU_XLAT_ENTRY_BUS_HI_OFFSET, static_cast<uint32_t>(bus >> 32));
    h.set_reg(at + IPU_XLAT_ENTRY_CTRL_OFFSET, IPU_XLAT_CTRL_VALID_MASK | IPU_XLAT_CTRL_READ_MASK |
                                                  ((pages - 1) << IPU_XLAT_CTRL_PAGES_MINUS_1_SHIFT));
}

void expect_entry_refused(Harness &h, uint32_t i, uint32_t dev_base)
{
    const uint32_t at = IPU_REG_XLAT_BASE + i * IPU_REG_XLAT_STRIDE;
    assert_int_equal(h.reg(at + IPU_XLAT_ENTRY_CTRL_OFFSET) & IPU_XLAT_CTRL_VALID_MASK, 0);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 1);
    assert_int_equal(h.reg(IPU_REG_ERR_CAUSE), IPU_ERR_XLAT_BAD_ENTRY);
    assert_int_equal(h.reg(IPU_REG_ERR_ADDR), dev_base);
    assert_int_equal(h.reg(IPU_REG_ERR_INFO), i);
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK);
    h.set_reg(IPU_REG_ERR_POP, 1);
    h.set_reg(IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_ERROR_MASK);
}

// Entries whose ranges wrap are refused when they are written (issue 18): a bus
// range past 2^64 used to reach low host memory, a device range across 4 GiB
// let an access cross 2^32.
void test_xlat_entry_ranges_checked(void **)
{
    Harness h("tiny");
    write_entry(h, 3, 0x10000, 0xfffffffffffff000ull, 2); // bus wraps
    expect_entry_refused(h, 3, 0x10000);
    write_entry(h, 5, 0xfffff000u, 0x100000, 2); // device range crosses 4 GiB
    expect_entry_refused(h, 5, 0xfffff000u);
    // A valid entry whose high word is rewritten to wrap is refused too.
    write_entry(h, 7, 0x20000, 0xffffffff00000000ull, 1);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
    h.set_reg(IPU_REG_XLAT_BASE + 7 * IPU_REG_XLAT_STRIDE + IPU_XLAT_ENTRY_BUS_LO_OFFSET, 0xfffff000u);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0); // ends exactly at 2^64: fine
    write_entry(h, 7, 0x20000, 0xfffffffffffff000ull, 2);
    expect_entry_refused(h, 7, 0x20000);
    // The largest entries that fit are accepted.
    write_entry(h, 9, 0xfffff000u, 0xfffffffffffff000ull, 1);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
    assert_true(h.reg(IPU_REG_XLAT_BASE + 9 * IPU_REG_XLAT_STRIDE + IPU_XLAT_ENTRY_CTRL_OFFSET) &
                IPU_XLAT_CTRL_VALID_MASK);
}

void test_dma_in_slices(void **)
{
    Harness h("tiny");
    ipu::test::expect_dma_in_slices(h);
}

// Tiles never run while a chain is in flight, and a chain never starts while tiles run.
void test_dma_and_run_exclude_each_other(void **)
{
    Harness h("tiny");
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *data = h.alloc_host(65536);
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, data, 65536, true, false);
    ring[0] = ipu_dma_desc{0x100000, IPU_TILE_SRAM_BASE + 0x8000, 32768, 0, 4, IPU_DMA_FLAGS_LAST_MASK, 0, 0, 0};
    h.load_elf(prog("compute"), {0}, 10);
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0);
    h.set_reg(IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK); // refused: the chain is in flight
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0x5000); // ignored while busy
    assert_int_equal(h.reg(IPU_REG_DMA_DESC_ADDR), 0);
    ipu_backend *c = h.card();
    while (c->ops->advance(c, 64) == 1) {
    }
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_DONE_MASK);
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
}

// The block cache keeps decoded code across runs and host syncs and drops it
// only when its bytes are written: a DMA chain that loads new code over old
// code between two runs must run the new code, on every tile it broadcasts to.
void test_dma_over_code_between_runs(void **)
{
    Harness h("tiny");
    // li a0, K; csrw EXIT, a0: the tile exits with K.
    auto program = [](uint32_t k) { return std::vector<uint32_t>{(k << 20) | 0x513u, (IPU_CSR_EXIT << 20) | 0x51073u}; };
    const std::vector<uint32_t> first = program(1), second = program(2);
    for (unsigned t : {0u, 1u}) {
        h.write_tile(t, IPU_TILE_SRAM_BASE, first.data(), 4 * first.size());
        h.setup_tile(t, IPU_TILE_SRAM_BASE, 0);
    }
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 1);
    assert_int_equal(r.exit_code[1], 1);

    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *data = h.alloc_host(4096);
    std::memcpy(data, second.data(), 4 * second.size());
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, data, 4096, true, false);
    ring[0] = ipu_dma_desc{0x100000, IPU_TILE_SRAM_BASE, static_cast<uint32_t>(4 * second.size()), 0, 2,
                           IPU_DMA_FLAGS_LAST_MASK, 0, 0, 0};
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0);
    h.set_reg(IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    ipu_backend *c = h.card();
    while (c->ops->advance(c, 64) == 1) {
    }
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_DONE_MASK);
    r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 2);
    assert_int_equal(r.exit_code[1], 2);
}

// Starts `elf` on every tile and advances it at most `rounds` rounds of
// `budget` (releasing host syncs); returns the rounds it ran.
unsigned run_partly(Harness &h, const char *elf, uint32_t boot_arg, uint64_t budget, unsigned rounds)
{
    h.load_elf(prog(elf), {}, boot_arg);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    unsigned i = 0;
    for (; i < rounds; i++) {
        ipu_backend *c = h.card();
        c->ops->advance(c, budget);
        const uint32_t state = h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK;
        if (state == IPU_CARD_STATE_HOST_SYNC)
            h.set_reg(IPU_REG_HSYNC_RELEASE, 1);
        else if (state != IPU_CARD_STATE_RUNNING)
            break;
    }
    return i;
}

// Save halfway, restore into a fresh card, finish there: the same result and
// cycle count as a run that was never interrupted.
void test_save_restore_round_trip(void **)
{
    for (const char *elf : {"exchange", "compute"}) {
        const uint32_t arg = std::string(elf) == "compute" ? 3000 : 0;
        Harness whole("tiny");
        whole.load_elf(prog(elf), {}, arg);
        const RunResult want = whole.run(7);
        assert_int_equal(want.card_state, IPU_CARD_STATE_DONE);

        Harness count("tiny");
        const unsigned rounds = run_partly(count, elf, arg, 7, 1u << 20);
        assert_true(rounds > 4);
        Harness first("tiny");
        run_partly(first, elf, arg, 7, rounds / 2);
        assert_int_equal(first.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_RUNNING);
        ipu_backend *a = first.card();
        const size_t size = a->ops->save_size(a);
        assert_true(size > 4 * 65536); // every tile's SRAM is in it
        std::vector<uint8_t> snap(size);
        assert_int_equal(a->ops->save(a, snap.data(), snap.size() - 1), -ENOSPC);
        assert_int_equal(a->ops->save(a, snap.data(), snap.size()), 0);

        Harness second("tiny");
        ipu_backend *b = second.card();
        assert_int_equal(b->ops->restore(b, snap.data(), snap.size()), 0);
        assert_int_equal(b->ops->save_size(b), size);
        const RunResult got = second.resume(7);
        assert_int_equal(got.card_state, IPU_CARD_STATE_DONE);
        assert_true(got.exit_code == want.exit_code);
        assert_int_equal(got.cycles, want.cycles);
        // The original, finished after the save, agrees too.
        const RunResult orig = first.resume(7);
        assert_true(orig.exit_code == want.exit_code);
        assert_int_equal(orig.cycles, want.cycles);
    }
}

// A snapshot only loads into the same embodiment and board shape, and a bad
// one leaves the card as it was.
void test_restore_rejects_foreign_snapshots(void **)
{
    Harness tiny("tiny");
    ipu_backend *c = tiny.card();
    std::vector<uint8_t> snap(c->ops->save_size(c));
    assert_int_equal(c->ops->save(c, snap.data(), snap.size()), 0);
    Harness other("ipu1");
    ipu_backend *o = other.card();
    assert_int_equal(o->ops->restore(o, snap.data(), snap.size()), -EINVAL); // another shape
    tiny.set_reg(IPU_REG_IRQ_MASK, 0x3);
    assert_int_equal(c->ops->restore(c, snap.data(), snap.size() - 1), -EINVAL); // truncated
    std::vector<uint8_t> bad = snap;
    bad[0] ^= 0xff;
    assert_int_equal(c->ops->restore(c, bad.data(), bad.size()), -EINVAL); // not a snapshot
    assert_int_equal(tiny.reg(IPU_REG_IRQ_MASK), 0x3);                      // unchanged
    assert_int_equal(c->ops->restore(c, snap.data(), snap.size()), 0);
    assert_int_equal(tiny.reg(IPU_REG_IRQ_MASK), 0);
}

// The registry: every entry is listed, the model entry makes a model card,
// unknown names are NULL, and a board that does not fit says why.
void test_registry(void **)
{
    const char *names[] = {"model", "rtl", "lockstep"};
    const ipu_backend_factory *const *all = ipu_backend_factories();
    for (unsigned i = 0; i < 3; i++) {
        assert_non_null(all[i]);
        assert_string_equal(all[i]->name, names[i]);
        assert_ptr_equal(ipu_backend_find(names[i]), all[i]);
    }
    assert_null(all[3]);
    assert_null(ipu_backend_find("verilog"));
    ipu_board b;
    ipu_board_default(&b);
    assert_string_equal(ipu_backend_default_for(&b), "model");
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    char err[512] = "";
    assert_int_equal(ipu_backend_find("model")->create(&b, &host, nullptr, &card, err, sizeof err), 0);
    assert_string_equal(card->ops->name, "model");
    card->ops->destroy(card);
    b.bytes_per_tile = 64u << 20;
    card = nullptr;
    assert_int_equal(ipu_backend_find("model")->create(&b, &host, nullptr, &card, err, sizeof err), -EINVAL);
    assert_null(card);
    assert_non_null(std::strstr(err, "key 'bytes_per_tile' is 67108864; expected an integer from 4096"));
    // The RTL refuses an rv32imf board (or, without Verilator, says how to get it).
    ipu_board_default(&b);
    assert_true(ipu_backend_find("rtl")->create(&b, &host, nullptr, &card, err, sizeof err) < 0);
    assert_non_null(std::strstr(err, ipu_backend_find("rtl")->available ? "rv32im" : "make deps"));
}

// Fault injection and recording through the backend interface alone: a model
// card made by ipu_backend_create with a record path is wrapped in the
// recorder, which passes inject/injected to the model (surprise removal: reads
// answer all ones, and clearing it brings the card back); the RTL and
// lock-step cards refuse injection with -ENOTSUP.
void test_inject_and_record_through_the_interface(void **)
{
    ipu_board b;
    ipu_board_default(&b);
    ipu_backend_host host{};
    char err[512] = "";
    char path[] = "/tmp/ipu-test-record-XXXXXX";
    const int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    ipu_backend_options options{};
    options.record_path = path;
    ipu_backend *card = nullptr;
    assert_int_equal(ipu_backend_create(ipu_backend_find("model"), &b, &host, &options, &card, err, sizeof err), 0);
    assert_string_equal(card->ops->name, "record");
    uint32_t id = 0, gone = 0;
    assert_int_equal(ipu_backend_read32(card, IPU_REG_ID, &id), 0);
    assert_int_not_equal(id, 0xffffffffu);
    ipu_backend_faults faults{};
    faults.removed = 1;
    assert_int_equal(ipu_backend_inject(card, &faults), 0);
    ipu_backend_read32(card, IPU_REG_ID, &gone);
    assert_int_equal(gone, 0xffffffffu);
    ipu_backend_faults armed{};
    assert_int_equal(ipu_backend_injected(card, &armed), 0);
    assert_int_equal(armed.removed, 1);
    faults.dma_error = 256; // not an ERR_* code
    assert_int_equal(ipu_backend_inject(card, &faults), -EINVAL);
    faults = ipu_backend_faults{};
    assert_int_equal(ipu_backend_inject(card, &faults), 0);
    assert_int_equal(ipu_backend_read32(card, IPU_REG_ID, &gone), 0);
    assert_int_equal(gone, id);
    assert_int_equal(ipu_backend_inject(nullptr, &faults), -EINVAL);
    card->ops->destroy(card);
    std::FILE *trace = std::fopen(path, "rb");
    assert_non_null(trace);
    std::fseek(trace, 0, SEEK_END);
    assert_true(std::ftell(trace) > 0); // the session was recorded
    std::fclose(trace);
    std::remove(path);
    if (ipu_backend_find("rtl")->available) {
        ipu_board rb;
        assert_int_equal(ipu_board_load("rtl-tiny", &rb, err, sizeof err), 0);
        for (const char *name : {"rtl", "lockstep"}) {
            card = nullptr;
            assert_int_equal(ipu_backend_create(ipu_backend_find(name), &rb, &host, nullptr, &card, err, sizeof err),
                             0);
            assert_int_equal(ipu_backend_inject(card, &faults), -ENOTSUP);
            assert_int_equal(ipu_backend_injected(card, &faults), -ENOTSUP);
            card->ops->destroy(card);
        }
    }
}

} // namespace

int main()
{
    const CMUnitTest tests[] = {
        cmocka_unit_test(test_rv32ui),
        cmocka_unit_test(test_rv32um),
        cmocka_unit_test(test_rv32uf),
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
        cmocka_unit_test(test_fault_firmware_fail),
        cmocka_unit_test(test_fault_missing_csr),
        cmocka_unit_test(test_fault_host_exchange_miss),
        cmocka_unit_test(test_workers_join),
        cmocka_unit_test(test_exchange_ring_and_host_sync),
        cmocka_unit_test(test_threads_deterministic),
        cmocka_unit_test(test_exchange_landing_any_thread_count),
        cmocka_unit_test(test_round_skips_stopped_chunks),
        cmocka_unit_test(test_identity_registers),
        cmocka_unit_test(test_bad_bus_accesses_survive),
        cmocka_unit_test(test_reset_clears),
        cmocka_unit_test(test_dma_through_translation),
        cmocka_unit_test(test_dma_ignores_entry_page_offsets),
        cmocka_unit_test(test_dma_faults),
        cmocka_unit_test(test_tile_services),
        cmocka_unit_test(test_lazy_memory),
        cmocka_unit_test(test_create_rejects_bad_arguments),
        cmocka_unit_test(test_fault_spec_parse),
        cmocka_unit_test(test_retire_observer),
        cmocka_unit_test(test_dma_in_slices),
        cmocka_unit_test(test_xlat_entry_ranges_checked),
        cmocka_unit_test(test_dma_and_run_exclude_each_other),
        cmocka_unit_test(test_dma_over_code_between_runs),
        cmocka_unit_test(test_save_restore_round_trip),
        cmocka_unit_test(test_restore_rejects_foreign_snapshots),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_inject_and_record_through_the_interface),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
