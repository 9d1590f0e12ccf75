// Simulation speed of the RTL card: simulated tile-cycles per second for 1 and 4
// tiles, and the cost of lock-step mode. Usage: ipu_rtl_bench COMPUTE_ELF [ITERATIONS]
// (COMPUTE_ELF: the rv32im build of tests/unit/isa/compute.S). Prints one line per case.
#include <elf.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "ipu_rtl/rtl.h"

namespace {

// Loads the PT_LOAD segments of `elf` onto every tile through BAR2 and enables them.
bool load(ipu_backend *card, const std::vector<uint8_t> &elf, unsigned tiles, uint32_t arg)
{
    Elf32_Ehdr eh;
    std::memcpy(&eh, elf.data(), sizeof eh);
    for (unsigned t = 0; t < tiles; t++) {
        ipu_backend_write32(card, IPU_REG_TILEMEM_WINDOW_TILE, t);
        for (unsigned i = 0; i < eh.e_phnum; i++) {
            Elf32_Phdr ph;
            std::memcpy(&ph, elf.data() + eh.e_phoff + i * sizeof ph, sizeof ph);
            if (ph.p_type != PT_LOAD)
                continue;
            for (uint32_t off = 0; off < ph.p_filesz; off += 4) {
                uint32_t w = 0;
                std::memcpy(&w, elf.data() + ph.p_offset + off, std::min<uint32_t>(4, ph.p_filesz - off));
                card->ops->bar_write(card, IPU_BAR_TILEMEM, ph.p_paddr - IPU_TILE_SRAM_BASE + off, 4, w);
            }
        }
        ipu_backend_write32(card, IPU_REG_TILE_SEL, t);
        ipu_backend_write32(card, IPU_REG_TILE_ENTRY, eh.e_entry);
        ipu_backend_write32(card, IPU_REG_TILE_BOOT_ARG, arg);
        ipu_backend_write32(card, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    }
    return true;
}

void bench(const char *label, ipu_board board, unsigned tiles, bool lockstep, const std::vector<uint8_t> &elf,
           uint32_t iterations)
{
    board.tiles_per_ipu = tiles;
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    const int rc = lockstep ? ipu_rtl_lockstep_create(&board, &host, nullptr, &card)
                            : ipu_rtl_create(&board, &host, nullptr, &card);
    if (rc != 0) {
        std::printf("%-28s no RTL build for %u tiles\n", label, tiles);
        return;
    }
    load(card, elf, tiles, iterations);
    ipu_backend_write32(card, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    const auto t0 = std::chrono::steady_clock::now();
    while (card->ops->advance(card, 1u << 20)) {
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint32_t lo = 0, hi = 0, state = 0;
    ipu_backend_read32(card, IPU_REG_CARD_CYCLES_LO, &lo);
    ipu_backend_read32(card, IPU_REG_CARD_CYCLES_HI, &hi);
    ipu_backend_read32(card, IPU_REG_STATUS, &state);
    const double cycles = static_cast<double>((uint64_t{hi} << 32) | lo);
    std::printf("%-28s %u tile(s): %.0f cycles in %.3f s = %.2f M cycles/s, %.2f M tile-cycles/s%s\n", label, tiles,
                cycles, s, cycles / s / 1e6, cycles * tiles / s / 1e6,
                (state & IPU_REG_STATUS_STATE_MASK) == IPU_CARD_STATE_DONE ? "" : " (did not finish)");
    card->ops->destroy(card);
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s COMPUTE_ELF [ITERATIONS]\n", argv[0]);
        return 2;
    }
    std::ifstream f(argv[1], std::ios::binary);
    std::vector<uint8_t> elf((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (elf.size() < sizeof(Elf32_Ehdr)) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    const uint32_t iterations = argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 200000;
    ipu_board board;
    char err[256];
    if (ipu_board_load("rtl-tiny", &board, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    bench("rtl", board, 1, false, elf, iterations);
    bench("rtl", board, 4, false, elf, iterations);
    bench("rtl lock-step", board, 1, true, elf, iterations / 4);
    bench("rtl lock-step", board, 4, true, elf, iterations / 4);
    return 0;
}
