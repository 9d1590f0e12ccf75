// The host-serviced RTL card (CAPS.HOST_SERVICE, variant ice1: the iCE40 board's card)
// driven through its SVC_ registers by the test itself, without the driver: the
// requests a tile's host exchange, EXCHANGE and the sync's landing make, their
// completions and faults, HALT; and the SVC_ registers of a card without the service.
#include <csetjmp>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "rtl_harness.hpp"

// cmocka last: its macros clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

using ipu::test::Backend;
using ipu::test::RtlHarness;
using ipu::test::RtlRunResult;

namespace {

constexpr char kIceBoard[] = "icebreaker"; // 1 tile x 64 KiB, 2 workers: variant ice1

std::string prog(const char *name) { return RtlHarness::program(name); }

uint32_t card_state(RtlHarness &h) { return h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK; }

// Advances the running card in slices until a request waits (returns true) or the
// card stops running (false).
bool until_request(RtlHarness &h, unsigned max_slices = 2000)
{
    for (unsigned i = 0; i < max_slices; i++) {
        if (h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_PENDING_MASK)
            return true;
        if (card_state(h) != IPU_CARD_STATE_RUNNING)
            return false;
        h.advance(256);
    }
    return false;
}

uint32_t kind(RtlHarness &h) { return h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_KIND_MASK; }

// The instruction at `pc` in tile 0 is `csrw csr, rs` (csrrw x0, csr, rs).
void expect_csrw_at(RtlHarness &h, uint32_t pc, uint32_t csr)
{
    const uint32_t insn = h.read_tile_u32(0, pc);
    assert_int_equal(insn & 0x7f, 0x73);         // SYSTEM
    assert_int_equal((insn >> 12) & 7, 1);       // CSRRW
    assert_int_equal((insn >> 7) & 0x1f, 0);     // rd = x0
    assert_int_equal(insn >> 20, csr);
}

// A request appears with STATUS.SVC_PENDING and IRQ_STATUS.SERVICE (cleared first, so
// that the bit comes from this request).
void expect_request_signalled(RtlHarness &h)
{
    assert_true(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_SVC_PENDING_MASK);
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_SERVICE_MASK);
    h.set_reg(IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_SERVICE_MASK);
    assert_false(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_SERVICE_MASK);
}

void expect_no_request(RtlHarness &h)
{
    assert_int_equal(h.reg(IPU_REG_SVC_REQ), 0);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG0), 0);
    assert_false(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_SVC_PENDING_MASK);
}

void start(RtlHarness &h)
{
    h.set_reg(IPU_REG_IRQ_STATUS, ~0u);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
}

// CAPS: the iCE40 card has HOST_SERVICE, no DMA engine, and still the exchange.
void test_caps_host_service(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    const uint32_t caps = h.reg(IPU_REG_CAPS);
    assert_true(caps & IPU_REG_CAPS_HOST_SERVICE_MASK);
    assert_false(caps & IPU_REG_CAPS_DMA_MASK);
    assert_true(caps & IPU_REG_CAPS_EXCHANGE_MASK);
    assert_int_equal(h.reg(IPU_REG_NUM_WORKERS), 2);
    expect_no_request(h);
    // IRQ_MASK keeps SERVICE on this card.
    h.set_reg(IPU_REG_IRQ_MASK, ~0u);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0x3f);
}

// (a) hx.elf: 64 bytes to the host, then 64 bytes from it; the host moves them through
// the window and completes each with SVC_DONE; the tile exits with the sum it fetched.
void test_host_exchange_serviced(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    h.load_elf(prog("hx"));
    start(h);
    assert_true(until_request(h));
    expect_request_signalled(h);
    assert_int_equal(kind(h), IPU_SVC_KIND_HOST_EXCHANGE);
    assert_true(h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_TO_HOST_MASK);
    assert_int_equal(h.reg(IPU_REG_SVC_TILE), 0);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG0), 0x10000);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG1), h.symbol("out"));
    assert_int_equal(h.reg(IPU_REG_SVC_ARG2), 64);
    assert_int_equal(card_state(h), IPU_CARD_STATE_RUNNING);
    // The tile waits: it stays stalled however long the host takes.
    h.advance(5000);
    assert_true(h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_PENDING_MASK);
    uint32_t out[16];
    h.read_tile(0, h.reg(IPU_REG_SVC_ARG1), out, sizeof out);
    for (uint32_t i = 0; i < 16; i++)
        assert_int_equal(out[i], 3 * i);
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);

    assert_true(until_request(h));
    expect_request_signalled(h);
    assert_int_equal(kind(h), IPU_SVC_KIND_HOST_EXCHANGE);
    assert_false(h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_TO_HOST_MASK);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG0), 0x20000);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG1), h.symbol("in"));
    assert_int_equal(h.reg(IPU_REG_SVC_ARG2), 64);
    uint32_t in[16];
    for (uint32_t i = 0; i < 16; i++)
        in[i] = 100 * i + 7;
    h.write_tile(0, h.reg(IPU_REG_SVC_ARG1), in, sizeof in);
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);
    expect_no_request(h);

    RtlRunResult r = h.resume(4096, 256);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 100 * 120 + 16 * 7);
    assert_true(r.errors.empty());
    expect_no_request(h);
}

// (b) A host exchange completed with a fault: the tile's record has the host's cause and
// address, its context, the HX_START's PC and the length; the card stops in ERROR.
void test_host_exchange_fault(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    h.load_elf(prog("hostx"), {0}, 24);
    start(h);
    assert_true(until_request(h));
    assert_int_equal(kind(h), IPU_SVC_KIND_HOST_EXCHANGE);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG2), 24);
    h.set_reg(IPU_REG_SVC_FAULT_CAUSE, IPU_ERR_XLAT_PERMISSION);
    h.set_reg(IPU_REG_SVC_FAULT_ADDR, 0x200010);
    expect_no_request(h);

    RtlRunResult r = h.resume(4096, 64);
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    const auto &e = r.errors[0];
    assert_int_equal(e.cause, IPU_ERR_XLAT_PERMISSION);
    assert_int_equal(e.tile, 0);
    assert_int_equal(e.context, 0);
    assert_int_equal(e.addr, 0x200010);
    assert_int_equal(e.info, 24);
    expect_csrw_at(h, e.pc, IPU_CSR_HX_START);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    assert_int_equal(h.reg(IPU_REG_TILE_ERR_CAUSE), IPU_ERR_XLAT_PERMISSION);
    assert_int_equal(h.reg(IPU_REG_TILE_ERR_ADDR), 0x200010);
}

// exchange.elf on one tile: an EXCHANGE (a send to itself), a sync, an external sync 7,
// then an exit with the word that landed. Returns at the EXCHANGE's request.
void start_exchange(RtlHarness &h)
{
    h.load_elf(prog("exchange"));
    start(h);
    assert_true(until_request(h));
    expect_request_signalled(h);
    assert_int_equal(kind(h), IPU_SVC_KIND_EXCHANGE);
    assert_int_equal(h.reg(IPU_REG_SVC_TILE), 0);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG0), h.symbol("xlist"));
    assert_int_equal(h.reg(IPU_REG_SVC_ARG1), 0);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG2), 0);
    // The list the tile holds: one send of outgoing (1) to incoming on tile 0.
    const uint32_t list = h.reg(IPU_REG_SVC_ARG0);
    assert_int_equal(h.read_tile_u32(0, list), 1);
    assert_int_equal(h.read_tile_u32(0, list + 8), h.symbol("incoming"));
    assert_int_equal(h.read_tile_u32(0, h.read_tile_u32(0, list + 12)), 1);
}

// (c) EXCHANGE done without LAND_DUE: the sync goes on with no request; nothing lands.
void test_exchange_without_land(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    start_exchange(h);
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);
    // The run reaches the external sync with no other request on the way.
    for (unsigned i = 0; i < 200 && card_state(h) == IPU_CARD_STATE_RUNNING; i++) {
        assert_false(h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_PENDING_MASK);
        h.advance(64);
    }
    assert_int_equal(card_state(h), IPU_CARD_STATE_HOST_SYNC);
    assert_int_equal(h.reg(IPU_REG_HSYNC_ID), 7);
    RtlRunResult r = h.resume(4096, 64);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 0); // nothing landed
    // This card reads the id from the tiles while the host sync waits, 0 after it.
    assert_int_equal(h.reg(IPU_REG_HSYNC_ID), 0);
}

// (c) EXCHANGE done with LAND_DUE: the sync raises LAND, the tile waits in the sync until
// the host has written the send and SVC_DONE; then the run goes on with what landed.
void test_exchange_land(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    start_exchange(h);
    const uint32_t src = h.read_tile_u32(0, h.reg(IPU_REG_SVC_ARG0) + 12);
    const uint32_t kept = h.read_tile_u32(0, src); // read at EXCHANGE time, as the model does
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK | IPU_REG_SVC_DONE_LAND_DUE_MASK);
    assert_true(until_request(h));
    expect_request_signalled(h);
    assert_int_equal(kind(h), IPU_SVC_KIND_LAND);
    assert_int_equal(h.reg(IPU_REG_SVC_TILE), 0);
    assert_int_equal(h.reg(IPU_REG_SVC_ARG0), 0);
    h.advance(5000); // the tile stays in the sync while the host lands
    assert_int_equal(card_state(h), IPU_CARD_STATE_RUNNING);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    assert_int_equal(h.reg(IPU_REG_TILE_STATE), IPU_TILE_STATE_SYNC_WAIT);
    assert_true(h.reg(IPU_REG_SVC_REQ) & IPU_REG_SVC_REQ_PENDING_MASK);
    h.write_tile(0, h.symbol("incoming"), &kept, 4);
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);
    expect_no_request(h);
    RtlRunResult r = h.resume(4096, 64);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.host_syncs, 1);
    assert_int_equal(r.exit_code[0], 1);
    expect_no_request(h); // LAND_DUE was used up: the external sync raised no LAND
}

// (c) An EXCHANGE completed with a fault: BAD_EXCHANGE with the host's address and info.
void test_exchange_fault(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    start_exchange(h);
    h.set_reg(IPU_REG_SVC_FAULT_INFO, 5);
    h.set_reg(IPU_REG_SVC_FAULT_ADDR, 0x12345678);
    RtlRunResult r = h.resume(4096, 64);
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    const auto &e = r.errors[0];
    assert_int_equal(e.cause, IPU_ERR_BAD_EXCHANGE);
    assert_int_equal(e.tile, 0);
    assert_int_equal(e.context, 0);
    assert_int_equal(e.addr, 0x12345678);
    assert_int_equal(e.info, 5);
    expect_csrw_at(h, e.pc, IPU_CSR_EXCHANGE);
    expect_no_request(h);
}

// (d) HALT drops a waiting request (it is not offered again); a new run works.
void test_halt_drops_request(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    h.load_elf(prog("hostx"), {0}, 8);
    start(h);
    assert_true(until_request(h));
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    expect_no_request(h);
    h.advance(2000);
    expect_no_request(h);
    assert_int_equal(card_state(h), IPU_CARD_STATE_IDLE);
    // SVC_DONE with nothing waiting is ignored.
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);
    expect_no_request(h);

    start(h);
    assert_true(until_request(h));
    assert_int_equal(kind(h), IPU_SVC_KIND_HOST_EXCHANGE);
    h.set_reg(IPU_REG_SVC_DONE, IPU_REG_SVC_DONE_DONE_MASK);
    RtlRunResult r = h.resume(4096, 64);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_true(r.errors.empty());
}

// (d) RESET drops a waiting request and LAND_DUE.
void test_reset_drops_request(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    start_exchange(h);
    h.reset();
    h.advance(100);
    expect_no_request(h);
    assert_int_equal(card_state(h), IPU_CARD_STATE_IDLE);
}

// (f) The one-tile card takes TILE_BOOT_ARG and WATCHDOG_INSNS from a block RAM of their
// own after START (not from flip-flops): faults.elf runs the case its boot argument names
// (0: EXIT 42; 7: ECALL; 11: spin until the watchdog's budget is spent, the record's info
// being the budget). A START after a finished run takes the values written since; after
// a RESET both read and act as zero (case 11 then runs past the old budget, no fault).
void expect_watchdog_fault(RtlHarness &h, uint32_t budget)
{
    const RtlRunResult r = h.run(1u << 14);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, IPU_ERR_WATCHDOG);
    assert_int_equal(r.errors[0].info, budget);
}

void test_start_values_from_block_ram(void **)
{
    RtlHarness h(Backend::Rtl, kIceBoard);
    h.load_elf(prog("faults"), {0}, 0);
    RtlRunResult r = h.run(1u << 14);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 42);
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 3);
    h.set_reg(IPU_REG_TILE_BOOT_ARG, 11);
    expect_watchdog_fault(h, 3);

    h.reset();
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 5);
    h.load_elf(prog("faults"), {0}, 11);
    expect_watchdog_fault(h, 5);

    h.reset();
    h.load_elf(prog("faults"), {0}, 7);
    r = h.run(1u << 14);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, IPU_ERR_ECALL);

    h.reset();
    assert_int_equal(h.reg(IPU_REG_WATCHDOG_INSNS), 0);
    assert_int_equal(h.reg(IPU_REG_TILE_BOOT_ARG), 0);
    h.load_elf(prog("faults"), {0}, 11);
    start(h);
    h.advance(8u * 5u * 1024u * 3u); // 8 times the last budget's instructions, 3 cycles each
    assert_int_equal(card_state(h), IPU_CARD_STATE_RUNNING);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
    h.set_reg(IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_HALT_MASK);
    assert_int_equal(card_state(h), IPU_CARD_STATE_IDLE);
}

// (e) A card without the service (tiny4): CAPS.HOST_SERVICE = 0, the SVC_ registers
// read 0 and their writes do nothing, during a host exchange too.
void test_tiny4_has_no_service(void **)
{
    RtlHarness h(Backend::Rtl);
    assert_false(h.reg(IPU_REG_CAPS) & IPU_REG_CAPS_HOST_SERVICE_MASK);
    h.set_reg(IPU_REG_IRQ_MASK, ~0u);
    assert_int_equal(h.reg(IPU_REG_IRQ_MASK), 0x1f);
    uint8_t *to_host = h.alloc_host(4096), *from_host = h.alloc_host(4096);
    std::memset(from_host, 0, 4096);
    h.map(0, 0x10000, to_host, 4096, false, true);
    h.map(1, 0x20000, from_host, 4096, true, false);
    h.load_elf(prog("hx"));
    start(h);
    for (unsigned i = 0; i < 40 && card_state(h) == IPU_CARD_STATE_RUNNING; i++) {
        for (uint32_t off = IPU_REG_SVC_REQ; off <= IPU_REG_SVC_ARG2; off += 4)
            assert_int_equal(h.reg(off), 0);
        assert_false(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_SVC_PENDING_MASK);
        assert_false(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_SERVICE_MASK);
        h.set_reg(IPU_REG_SVC_FAULT_ADDR, 0x1234); // ignored
        h.advance(64);
    }
    RtlRunResult r = h.resume(4096, 256);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_true(r.errors.empty());
    for (unsigned t = 0; t < 4; t++)
        assert_int_equal(r.exit_code[t], 0);
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caps_host_service),
        cmocka_unit_test(test_host_exchange_serviced),
        cmocka_unit_test(test_host_exchange_fault),
        cmocka_unit_test(test_exchange_without_land),
        cmocka_unit_test(test_exchange_land),
        cmocka_unit_test(test_exchange_fault),
        cmocka_unit_test(test_halt_drops_request),
        cmocka_unit_test(test_reset_drops_request),
        cmocka_unit_test(test_start_values_from_block_ram),
        cmocka_unit_test(test_tiny4_has_no_service),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
