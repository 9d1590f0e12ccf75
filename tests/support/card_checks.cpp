// Checks shared by the model and RTL card tests (see card_checks.hpp).
#include "card_checks.hpp"

#include <cerrno>
#include <cstdarg>
#include <cstddef>
#include <csetjmp>
#include <cstring>
#include <vector>

// cmocka last: its macros (fail, check_expected...) clash with C++ headers.
extern "C" {
#include <cmocka.h>
}

namespace ipu::test {

void expect_isa_program_passes(CardAccess &h, const std::string &elf, const AfterRun &after_run)
{
    h.load_elf(elf, {0});
    RunResult r = h.run();
    if (after_run)
        after_run();
    if (r.exit_code[0] != 0)
        print_error("%s: case %u failed\n", elf.c_str(), r.exit_code[0]);
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.errors.size(), 0);
    assert_int_equal(r.exit_code[0], 0);
}

void expect_fault_case(CardAccess &h, const std::string &faults_elf, unsigned which, uint32_t cause, const char *label,
                       uint32_t addr_expected, const AfterRun &after_run)
{
    h.set_reg(IPU_REG_WATCHDOG_INSNS, 64); // 64 Ki instructions: catches the hung tile quickly
    h.load_elf(faults_elf, {1}, which);
    const uint32_t fault_pc = label ? h.symbol(label) : 0;
    if (label)
        assert_int_not_equal(fault_pc, 0);
    RunResult r = h.run(1u << 14);
    if (after_run)
        after_run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, cause);
    assert_int_equal(r.errors[0].tile, 1);
    assert_int_equal(r.errors[0].context, 0);
    if (label)
        assert_int_equal(r.errors[0].pc, fault_pc);
    if (addr_expected != ~0u)
        assert_int_equal(r.errors[0].addr, addr_expected);
    assert_int_equal(r.tile_state[1], IPU_TILE_STATE_ERROR);
    h.set_reg(IPU_REG_TILE_SEL, 1);
    assert_int_equal(h.reg(IPU_REG_TILE_ERR_CAUSE), cause);
    // Recoverable: reset, reload, and a clean run in the same process.
    h.reset();
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_STATE_MASK, IPU_CARD_STATE_IDLE);
    h.load_elf(faults_elf, {1}, 0);
    RunResult ok = h.run();
    if (after_run)
        after_run();
    assert_int_equal(ok.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(ok.exit_code[1], 42);
}

namespace {

// One host exchange of services.S: {device address, tile address, length | TO_HOST << 31}.
struct HostExchange {
    uint32_t dev, tile_addr, length_dir;
};
constexpr uint32_t kToHost = 1u << 31;
constexpr uint32_t kListAddr = IPU_TILE_SRAM_BASE + 0xc000;

// Loads services.elf on tile 0 with these host exchanges and, when `list` is
// not empty, that exchange list (written at kListAddr), and runs it.
RunResult run_services(CardAccess &h, const std::string &elf, const std::vector<HostExchange> &hx,
                       const std::vector<uint32_t> &list)
{
    h.load_elf(elf, {0});
    const uint32_t plan = h.symbol("plan");
    assert_int_not_equal(plan, 0);
    assert_true(hx.size() <= 8);
    std::vector<uint32_t> words{static_cast<uint32_t>(hx.size()), list.empty() ? 0u : kListAddr};
    for (const HostExchange &x : hx)
        words.insert(words.end(), {x.dev, x.tile_addr, x.length_dir});
    h.write_tile(0, plan, words.data(), words.size() * 4);
    if (!list.empty())
        h.write_tile(0, kListAddr, list.data(), list.size() * 4);
    return h.run(1u << 14);
}

void expect_service_fault(CardAccess &h, const RunResult &r, uint32_t cause, const char *label, uint32_t addr,
                          uint32_t info)
{
    assert_int_equal(r.card_state, IPU_CARD_STATE_ERROR);
    assert_int_equal(r.errors.size(), 1);
    assert_int_equal(r.errors[0].cause, cause);
    assert_int_equal(r.errors[0].tile, 0);
    assert_int_equal(r.errors[0].context, 0);
    assert_int_equal(r.errors[0].pc, h.symbol(label));
    assert_int_equal(r.errors[0].addr, addr);
    assert_int_equal(r.errors[0].info, info);
    assert_int_equal(r.tile_state[0], IPU_TILE_STATE_ERROR);
}

} // namespace

void expect_tile_services(CardAccess &h, const std::string &elf)
{
    assert_int_equal(h.reg(IPU_REG_TILE_MEM_BYTES), 65536);
    uint8_t *a = h.alloc_host(8192), *b = h.alloc_host(4096);
    for (int i = 0; i < 8192; i++)
        a[i] = static_cast<uint8_t>(i * 5 + 1);
    for (int i = 0; i < 4096; i++)
        b[i] = static_cast<uint8_t>(i * 7);
    // Two entries contiguous in device space but not on the host, and a read-only one.
    auto map_all = [&] {
        h.reset();
        h.map(1, 0x100000, a, 4096, true, true);
        h.map(2, 0x101000, b, 4096, true, true);
        h.map(3, 0x200000, a + 4096, 4096, true, false);
    };
    const uint32_t in = IPU_TILE_SRAM_BASE + 0x8000, landed = IPU_TILE_SRAM_BASE + 0xa000;
    map_all();
    // Words into the tile across both entries; 13 bytes back to the host at odd
    // addresses; 13 bytes in at odd addresses; then two sends to tile 0 itself.
    RunResult r = run_services(h, elf,
                               {{0x100800, in, 4096}, {0x101f01, in + 1, 13 | kToHost}, {0x100003, in + 0x1001, 13}},
                               {2, 0, landed, in, 100, 0, landed + 0x101, in + 0x10, 7});
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.errors.size(), 0);
    assert_int_equal(r.exit_code[0], 42);
    std::vector<uint8_t> got(4096);
    h.read_tile(0, in, got.data(), 4096);
    assert_memory_equal(got.data(), a + 0x800, 2048);
    assert_memory_equal(got.data() + 2048, b, 2048);
    assert_memory_equal(b + 0xf01, a + 0x801, 13);
    h.read_tile(0, in + 0x1001, got.data(), 13);
    assert_memory_equal(got.data(), a + 3, 13);
    h.read_tile(0, landed, got.data(), 100); // the sends landed at the sync
    assert_memory_equal(got.data(), a + 0x800, 100);
    h.read_tile(0, landed + 0x101, got.data(), 7);
    assert_memory_equal(got.data(), a + 0x810, 7);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);

    // Faults: the tile's record, with the translation's cause and address.
    map_all();
    expect_service_fault(h, run_services(h, elf, {{0x300000, in, 64}}, {}), IPU_ERR_XLAT_MISS, "hx_insn", 0x300000, 64);
    map_all(); // runs off entry 2 into unmapped device space
    expect_service_fault(h, run_services(h, elf, {{0x101f00, in, 512}}, {}), IPU_ERR_XLAT_MISS, "hx_insn", 0x102000,
                         512);
    map_all(); // entry 3 is read-only for the card
    expect_service_fault(h, run_services(h, elf, {{0x200000, in, 64 | kToHost}}, {}), IPU_ERR_XLAT_PERMISSION,
                         "hx_insn", 0x200000, 64);
    map_all(); // a send to a tile that does not exist: its destination address, descriptor 0
    expect_service_fault(h, run_services(h, elf, {}, {1, h.num_tiles(), landed, in, 4}), IPU_ERR_BAD_EXCHANGE,
                         "xchg_insn", landed, 0);
    // The card stays usable.
    map_all();
    r = run_services(h, elf, {{0x100000, in, 64}}, {});
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(r.exit_code[0], 42);
}

namespace {

void expect_tiny_shape(CardAccess &h)
{
    assert_int_equal(h.reg(IPU_REG_NUM_TILES), 4);
    assert_int_equal(h.reg(IPU_REG_TILE_MEM_BYTES), 65536);
}

// Lets the card's DMA engine run until the chain ends; returns DMA_STATUS.
uint32_t wait_chain(CardAccess &h)
{
    for (int i = 0; i < 1 << 20 && (h.reg(IPU_REG_DMA_STATUS) & IPU_REG_DMA_STATUS_BUSY_MASK); i++)
        h.advance(1u << 12);
    return h.reg(IPU_REG_DMA_STATUS);
}

// Runs a DMA chain of `descs` placed at device address 0; returns DMA_STATUS.
uint32_t run_chain(CardAccess &h, ipu_dma_desc *ring, const std::vector<ipu_dma_desc> &descs)
{
    std::memcpy(ring, descs.data(), descs.size() * sizeof(ipu_dma_desc));
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0);
    h.set_reg(IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    return wait_chain(h);
}

ipu_dma_desc desc(uint32_t dev, uint32_t tile_addr, uint32_t len, uint16_t tile, uint16_t count, uint32_t flags)
{
    return ipu_dma_desc{dev, tile_addr, len, tile, count, flags, 0, 0, 0};
}

void expect_dma_error(CardAccess &h, ipu_dma_desc *ring, const ipu_dma_desc &d, uint32_t cause, uint32_t addr)
{
    assert_int_equal(run_chain(h, ring, {d}), IPU_REG_DMA_STATUS_ERROR_MASK);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 1);
    assert_int_equal(h.reg(IPU_REG_ERR_CAUSE), cause);
    assert_int_equal(h.reg(IPU_REG_ERR_TILE), 0xffffffffu);
    assert_int_equal(h.reg(IPU_REG_ERR_ADDR), addr);
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK);
    h.set_reg(IPU_REG_ERR_POP, 1);
    h.set_reg(IPU_REG_IRQ_STATUS, IPU_REG_IRQ_STATUS_ERROR_MASK);
    assert_int_equal(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_ERROR_MASK, 0);
}

} // namespace

void expect_bad_bus_accesses_refused(Harness &h)
{
    expect_tiny_shape(h);
    ipu_backend *c = h.card();
    uint64_t v = 0;
    assert_int_equal(c->ops->bar_read(c, 0, 2, 4, &v), -EINVAL); // misaligned
    assert_true(v == ~0ull);
    assert_int_equal(c->ops->bar_read(c, 0, 0, 2, &v), -EINVAL);       // wrong size
    assert_int_equal(c->ops->bar_read(c, 0, 0x10000, 4, &v), -EINVAL); // past BAR0
    assert_int_equal(c->ops->bar_write(c, 2, 65536, 4, 1), -EINVAL);   // past tile SRAM
    assert_int_equal(c->ops->bar_read(c, 7, 0, 4, &v), -EINVAL);       // no such BAR
    // Offsets near 2^64: `offset + size` wrapped and the write landed 8 bytes before the window's tile (issue 36).
    const uint64_t before = 0x1122334455667788ull;
    h.write_tile(0, IPU_TILE_SRAM_BASE + 65536 - 8, &before, 8);
    h.set_reg(IPU_REG_TILEMEM_WINDOW_TILE, 1); // after write_tile, which moves the window
    assert_int_equal(c->ops->bar_write(c, 2, UINT64_MAX - 7, 8, 0), -EINVAL);
    assert_int_equal(c->ops->bar_write(c, 2, UINT64_MAX, 1, 0), -EINVAL);
    assert_int_equal(c->ops->bar_read(c, 2, UINT64_MAX - 3, 4, &v), -EINVAL);
    assert_int_equal(c->ops->bar_read(c, 2, 65536 - 8, 8, &v), 0); // the last word of a tile is still in range
    uint64_t after = 0;
    h.read_tile(0, IPU_TILE_SRAM_BASE + 65536 - 8, &after, 8);
    assert_true(after == before);
    h.set_reg(IPU_REG_TILEMEM_WINDOW_TILE, 0);
    const uint32_t word = 0xa5a5a5a5u;
    h.write_tile(3, IPU_TILE_SRAM_BASE + 400, &word, 4);
    assert_int_equal(c->ops->bar_read(c, 2, 401, 1, &v), 0); // a byte read of the window
    assert_int_equal(v, 0xa5);
}

void expect_bad_register_writes_ignored(CardAccess &h)
{
    expect_tiny_shape(h);
    h.set_reg(IPU_REG_TILE_SEL, 99); // ignored
    assert_int_equal(h.reg(IPU_REG_TILE_SEL), 0);
    h.set_reg(IPU_REG_RESET, 1234); // no key: ignored
    assert_int_equal(h.reg(IPU_REG_ID), IPU_REG_ID_RESET_VALUE);
    const uint32_t word = 0xa5a5a5a5u;
    h.write_tile(3, IPU_TILE_SRAM_BASE + 400, &word, 4);
    assert_int_equal(h.read_tile_u32(3, IPU_TILE_SRAM_BASE + 400), word);
    const uint8_t byte = 0x5a; // sub-word writes keep the rest of the word
    h.write_tile(3, IPU_TILE_SRAM_BASE + 401, &byte, 1);
    assert_int_equal(h.read_tile_u32(3, IPU_TILE_SRAM_BASE + 400), 0xa5a55aa5u);
    uint8_t got = 0;
    h.read_tile(3, IPU_TILE_SRAM_BASE + 401, &got, 1);
    assert_int_equal(got, 0x5a);
}

void expect_bad_bus_accesses_survive(Harness &h)
{
    expect_bad_bus_accesses_refused(h);
    expect_bad_register_writes_ignored(h);
}

void expect_dma_through_translation(CardAccess &h)
{
    expect_tiny_shape(h);
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *a = h.alloc_host(8192), *b = h.alloc_host(8192);
    h.map(0, 0x0, ring, 4096, true, false);
    // Two entries, contiguous in device space but not on the host: one transfer crosses them.
    h.map(1, 0x100000, a, 4096, true, true);
    h.map(2, 0x101000, b, 4096, true, true);
    for (int i = 0; i < 4096; i++) {
        a[i] = static_cast<uint8_t>(i);
        b[i] = static_cast<uint8_t>(i * 7);
    }
    const uint32_t sram = IPU_TILE_SRAM_BASE + 0x2000;
    uint32_t st = run_chain(h, ring, {desc(0x100800, sram, 4096, 0, 4, IPU_DMA_FLAGS_LAST_MASK)});
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    for (unsigned t = 0; t < 4; t++) { // the broadcast reached every tile
        uint8_t got[4096];
        h.read_tile(t, sram, got, sizeof got);
        assert_memory_equal(got, a + 0x800, 2048);
        assert_memory_equal(got + 2048, b, 2048);
    }
    // Back to the host, into the second half of entry 2.
    st = run_chain(h, ring, {desc(0x101800, sram, 1024, 3, 1, IPU_DMA_FLAGS_TO_HOST_MASK | IPU_DMA_FLAGS_LAST_MASK)});
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    assert_memory_equal(b + 0x800, a + 0x800, 1024);
    // Unaligned: bytes rather than words, both directions, a two-descriptor chain.
    st = run_chain(h, ring, {desc(0x100003, sram + 1, 13, 1, 1, 0),
                             desc(0x101f01, sram + 1, 13, 1, 1, IPU_DMA_FLAGS_TO_HOST_MASK | IPU_DMA_FLAGS_LAST_MASK)});
    assert_int_equal(st, IPU_REG_DMA_STATUS_DONE_MASK);
    assert_memory_equal(b + 0xf01, a + 3, 13);
    assert_int_equal(h.reg(IPU_REG_DMA_COMPLETED), 2);
    assert_int_equal(h.reg(IPU_REG_DMA_BYTES_LO), 4096 + 1024 + 26);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
}

void expect_dma_ignores_entry_page_offsets(CardAccess &h)
{
    expect_tiny_shape(h);
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *a = h.alloc_host(4096);
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, a, 4096, true, true);
    for (int i = 0; i < 4096; i++)
        a[i] = static_cast<uint8_t>(i * 3 + 1);
    const uint32_t entry = IPU_REG_XLAT_BASE + 1 * IPU_REG_XLAT_STRIDE;
    h.set_reg(entry + IPU_XLAT_ENTRY_DEV_BASE_OFFSET, 0x100000 | 0x123);
    h.set_reg(entry + IPU_XLAT_ENTRY_BUS_LO_OFFSET, static_cast<uint32_t>(h.bus_address(a)) | 0x456);
    const uint32_t sram = IPU_TILE_SRAM_BASE + 0x3000;
    const uint32_t last = IPU_DMA_FLAGS_LAST_MASK;
    assert_int_equal(run_chain(h, ring, {desc(0x100010, sram, 64, 0, 1, last)}), IPU_REG_DMA_STATUS_DONE_MASK);
    uint8_t got[64];
    h.read_tile(0, sram, got, sizeof got);
    assert_memory_equal(got, a + 0x10, sizeof got);
    // Below the written DEV_BASE but in its page: still the entry's.
    assert_int_equal(run_chain(h, ring, {desc(0x100000, sram, 16, 0, 1, last | IPU_DMA_FLAGS_TO_HOST_MASK)}),
                     IPU_REG_DMA_STATUS_DONE_MASK);
    assert_memory_equal(a, a + 0x10, 16);
    assert_int_equal(h.reg(IPU_REG_ERR_COUNT), 0);
}

void expect_dma_faults(CardAccess &h)
{
    expect_tiny_shape(h);
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *a = h.alloc_host(4096);
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, a, 4096, true, false); // the card may read, not write
    const uint32_t sram = IPU_TILE_SRAM_BASE;
    const uint32_t last = IPU_DMA_FLAGS_LAST_MASK;
    expect_dma_error(h, ring, desc(0x200000, sram, 64, 0, 1, last), IPU_ERR_XLAT_MISS, 0x200000);
    expect_dma_error(h, ring, desc(0x100f00, sram, 512, 0, 1, last), IPU_ERR_XLAT_MISS, 0x101000); // runs off the end
    expect_dma_error(h, ring, desc(0x100000, sram, 64, 0, 1, last | IPU_DMA_FLAGS_TO_HOST_MASK), IPU_ERR_XLAT_PERMISSION,
                     0x100000);
    expect_dma_error(h, ring, desc(0x100000, sram + 65536 - 8, 64, 0, 1, last), IPU_ERR_DMA_BAD_DESCRIPTOR, 0);
    expect_dma_error(h, ring, desc(0x100000, sram, 64, 3, 2, last), IPU_ERR_DMA_BAD_DESCRIPTOR, 0); // tiles 3..4
    // The card stays usable: a good transfer still works.
    assert_int_equal(run_chain(h, ring, {desc(0x100000, sram, 64, 0, 1, last)}), IPU_REG_DMA_STATUS_DONE_MASK);
    // The IOMMU (the harness) refusing a bus address is a fault, not a crash.
    h.map(2, 0x300000, reinterpret_cast<void *>(uintptr_t{0x1000}), 4096, true, true);
    expect_dma_error(h, ring, desc(0x300000, sram, 64, 0, 1, last), IPU_ERR_XLAT_MISS, 0x300000);
}

void expect_dma_in_slices(Harness &h)
{
    expect_tiny_shape(h);
    h.reset(); // no DMA_DONE left over from earlier checks
    ipu_backend *c = h.card();
    constexpr uint32_t kLen = 32 * 1024, kSlice = 16; // budget of one small advance()
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *data = h.alloc_host(kLen);
    for (uint32_t i = 0; i < kLen; i++)
        data[i] = static_cast<uint8_t>(i * 13 + 1);
    const uint32_t sram = IPU_TILE_SRAM_BASE + 0x1000;
    auto start = [&] {
        h.map(0, 0x0, ring, 4096, true, false);
        h.map(1, 0x100000, data, kLen, true, false);
        ring[0] = desc(0x100000, sram, kLen, 0, 4, IPU_DMA_FLAGS_LAST_MASK); // 128 KiB onto the card
        h.set_reg(IPU_REG_DMA_DESC_ADDR, 0);
        h.set_reg(IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    };
    start();
    // START only starts the chain: the card itself says it is busy.
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_BUSY_MASK);
    assert_true(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_DMA_BUSY_MASK);
    assert_false(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    // One small slice moves a bounded number of bytes and leaves it in flight.
    assert_int_equal(c->ops->advance(c, kSlice), 1);
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_BUSY_MASK);
    assert_true(h.reg(IPU_REG_DMA_BYTES_LO) <= kSlice * IPU_BACKEND_DMA_BYTES_PER_BUDGET);
    unsigned slices = 1;
    while (c->ops->advance(c, kSlice) == 1 && slices < 1u << 20)
        slices++;
    assert_true(slices > 8); // 128 KiB cannot go in a few 1 KiB slices
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_DONE_MASK);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_DMA_BUSY_MASK, 0);
    assert_true(h.reg(IPU_REG_IRQ_STATUS) & IPU_REG_IRQ_STATUS_DMA_DONE_MASK);
    assert_int_equal(h.reg(IPU_REG_DMA_COMPLETED), 1);
    std::vector<uint8_t> got(kLen);
    for (unsigned t = 0; t < 4; t++) {
        h.read_tile(t, sram, got.data(), kLen);
        assert_memory_equal(got.data(), data, kLen);
    }
    // A reset in the middle of a chain stops it: no more bytes, no DMA_DONE.
    h.reset();
    start();
    assert_int_equal(c->ops->advance(c, kSlice), 1);
    h.reset();
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), 0);
    assert_int_equal(h.reg(IPU_REG_STATUS) & IPU_REG_STATUS_DMA_BUSY_MASK, 0);
    assert_int_equal(c->ops->advance(c, kSlice), 0);
    assert_int_equal(h.reg(IPU_REG_DMA_BYTES_LO), 0);
    assert_int_equal(h.reg(IPU_REG_IRQ_STATUS), 0);
    assert_int_equal(h.read_tile_u32(3, sram), 0);
    // And the card works after it (the reset cleared the translation table).
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, data, kLen, true, false);
    assert_int_equal(run_chain(h, ring, {desc(0x100000, sram, 64, 2, 1, IPU_DMA_FLAGS_LAST_MASK)}),
                     IPU_REG_DMA_STATUS_DONE_MASK);
}

void expect_retire_observer_sees_every_instruction(Harness &h, const std::string &elf)
{
    struct Seen {
        uint64_t count = 0;
        uint32_t last_pc = 0;
        uint64_t last_cycle = 0;
        bool ordered = true;
    } seen;
    ipu_backend *c = h.card();
    assert_int_equal(c->ops->set_retire_observer(
                         c,
                         [](void *o, const ipu_retire_event *e) {
                             auto *s = static_cast<Seen *>(o);
                             if (e->tile == 0 && e->context == 0) {
                                 s->ordered &= s->count == 0 || e->cycle > s->last_cycle;
                                 s->count++;
                                 s->last_pc = e->pc;
                                 s->last_cycle = e->cycle;
                             }
                             return 0;
                         },
                         &seen),
                     0);
    h.load_elf(elf, {0}, 10);
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    h.set_reg(IPU_REG_TILE_SEL, 0);
    h.set_reg(IPU_REG_TILE_CTX_SEL, 0);
    assert_int_equal(seen.count, h.reg(IPU_REG_TILE_CTX_INSTRET));
    assert_true(seen.ordered);
    assert_int_equal(seen.last_pc + 4, h.reg(IPU_REG_TILE_CTX_PC)); // the EXIT write was last
    // Cleared: the next run is not observed.
    assert_int_equal(c->ops->set_retire_observer(c, nullptr, nullptr), 0);
    const uint64_t before = seen.count;
    h.load_elf(elf, {0}, 10);
    assert_int_equal(h.run().card_state, IPU_CARD_STATE_DONE);
    assert_int_equal(seen.count, before);
}

} // namespace ipu::test
