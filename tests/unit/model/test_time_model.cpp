// The card model's time model for host transfers: a DMA chain and a tile's host
// exchange each advance the card's cycle count by the board's link latency plus
// bytes / bandwidth (at the board's tile clock), and tiles share the link.
#include <cstddef>
#include <cstdint>
#include <csetjmp>
#include <cstdarg>
#include <string>
#include <vector>

#include "tile_harness.hpp"

extern "C" {
#include <cmocka.h>
}

using ipu::test::Harness;
using ipu::test::RunResult;

namespace {

// What the link should cost, worked out here from the board file's figures:
// each part rounded up to a whole cycle (the sizes used keep the products small).
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t expected_cycles(const ipu_board &b, uint64_t bytes)
{
    return ceil_div(b.host_link_latency_ns * b.tile_clock_hz, 1000000000ull) +
           ceil_div(bytes * b.tile_clock_hz, b.host_link_bytes_per_second);
}

uint64_t card_cycles(Harness &h)
{
    return h.reg(IPU_REG_CARD_CYCLES_LO) | (uint64_t(h.reg(IPU_REG_CARD_CYCLES_HI)) << 32);
}

// One descriptor of `bytes` from the host into tile 0; returns CARD_CYCLES after it.
uint64_t dma_cycles(Harness &h, uint32_t bytes)
{
    h.reset();
    auto *ring = reinterpret_cast<ipu_dma_desc *>(h.alloc_host(4096));
    uint8_t *data = h.alloc_host(bytes);
    h.map(0, 0x0, ring, 4096, true, false);
    h.map(1, 0x100000, data, bytes, true, false);
    ring[0] = ipu_dma_desc{0x100000, IPU_TILE_SRAM_BASE, bytes, 0, 1, IPU_DMA_FLAGS_LAST_MASK, 0, 0, 0};
    h.set_reg(IPU_REG_DMA_DESC_ADDR, 0);
    h.set_reg(IPU_REG_DMA_CTRL, IPU_REG_DMA_CTRL_START_MASK);
    ipu_backend *c = h.card();
    for (unsigned i = 0; i < 1u << 20 && c->ops->advance(c, 1u << 16) == 1; i++) {
    }
    assert_int_equal(h.reg(IPU_REG_DMA_STATUS), IPU_REG_DMA_STATUS_DONE_MASK);
    return card_cycles(h);
}

// Runs tests/unit/isa/hostx.S on `tiles` tiles, each moving `bytes` from the host.
RunResult host_exchange(Harness &h, uint32_t bytes, std::vector<unsigned> tiles)
{
    uint8_t *data = h.alloc_host(bytes);
    h.map(2, 0x200000, data, bytes, true, false);
    h.load_elf(Harness::tile_binary("hostx.elf"), tiles, bytes);
    RunResult r = h.run();
    assert_int_equal(r.card_state, IPU_CARD_STATE_DONE);
    return r;
}

// Two sizes on two boards (different clocks): the DMA engine's cycles are the link's.
void test_dma_follows_link(void **)
{
    for (const char *board : {"tiny", "ipu1"}) {
        Harness h(board);
        for (uint32_t bytes : {25000u, 250000u}) {
            if (bytes > h.board().bytes_per_tile)
                bytes = h.board().bytes_per_tile;
            assert_int_equal(dma_cycles(h, bytes), expected_cycles(h.board(), bytes));
        }
    }
    // The figures by hand for tiny (1.33 GHz, 25 GB/s, 1 us): 1330 + 25000 * 1.33 / 25.
    Harness h("tiny");
    assert_int_equal(dma_cycles(h, 25000), 1330 + 1330);
}

// A tile's host exchange waits latency + bytes / bandwidth; the difference of two
// sizes is exactly the bandwidth part. Two boards.
void test_host_exchange_follows_link(void **)
{
    for (const char *board : {"tiny", "ipu1"}) {
        Harness h(board);
        const uint32_t small = 4096, large = 32768;
        const uint32_t waited_small = host_exchange(h, small, {0}).exit_code[0];
        const uint32_t waited_large = host_exchange(h, large, {0}).exit_code[0];
        const uint64_t link_small = expected_cycles(h.board(), small), link_large = expected_cycles(h.board(), large);
        // The wait is the transfer plus the issue slots of the CSR accesses around it.
        assert_true(waited_small >= link_small && waited_small <= link_small + 2 * h.board().worker_contexts);
        assert_int_equal(waited_large - waited_small, link_large - link_small);
    }
}

// Four tiles moving 32 KiB each share the link: the run lasts as long as 128 KiB
// take over it, not as long as one tile's 32 KiB.
void test_tiles_share_the_link(void **)
{
    Harness h("tiny");
    const uint32_t bytes = 32768;
    RunResult r = host_exchange(h, bytes, {0, 1, 2, 3});
    assert_int_equal(r.cycles, expected_cycles(h.board(), 4 * bytes));
    assert_true(r.exit_code[0] < r.cycles / 2); // each tile waited for its own bytes only
}

} // namespace

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dma_follows_link),
        cmocka_unit_test(test_host_exchange_follows_link),
        cmocka_unit_test(test_tiles_share_the_link),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
