// Simulation speed of the RTL card: simulated tile-cycles per second for 1 and 4
// tiles, for 4 tiles also on the card Verilated with Verilator threads, and the
// cost of lock-step mode. Usage: ipu_rtl_bench COMPUTE_ELF [ITERATIONS]
// (COMPUTE_ELF: the rv32im build of tests/unit/isa/compute.S). Prints one line
// per case; the threaded and lock-step lines end with their speed as a ratio
// to the single-threaded card of the same size, measured in the same run.
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
#include "ipu_backends/registry.h"
#include "ipu_rtl/rtl.h"
#include "rtl_card.hpp"

namespace ipu::rtl {
// rtl-tiny Verilated with IPU_RTL_BENCH_THREADS Verilator threads: a variant of
// rtl/CMakeLists.txt linked into this benchmark only (not in kVariants).
std::unique_ptr<CardIf> make_bench_mt(const ipu_board &, const ipu_backend_host &, const ipu_backend_options &);
} // namespace ipu::rtl

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

using CreateFn = int (*)(const ipu_board *, const ipu_backend_host *, const ipu_backend_options *, ipu_backend **);

// The registry's lock-step card (backends/lockstep): the RTL with the model beside it.
int create_lockstep(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                    ipu_backend **out)
{
    char err[512] = "";
    const int rc = ipu_backend_find("lockstep")->create(board, host, options, out, err, sizeof err);
    if (rc)
        std::fprintf(stderr, "%s\n", err);
    return rc;
}

int create_threaded(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                    ipu_backend **out)
{
    static const ipu::rtl::Variant variant{IPU_RTL_BENCH_SHAPE, false, ipu::rtl::make_bench_mt};
    return ipu::rtl::create_variant(variant, *board, *host, options, out);
}

// Runs `elf` on `tiles` tiles of a card from `create` for at most `max_s` seconds
// and prints one line; `base` (tile-cycles per second of the case to compare
// with, 0: none) adds the ratio. Returns the tile-cycles per second (0 when the
// card could not be created).
double bench(const char *label, ipu_board board, unsigned tiles, CreateFn create, const std::vector<uint8_t> &elf,
             uint32_t iterations, double max_s, double base = 0, const char *base_label = "")
{
    board.tiles_per_ipu = tiles;
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    if (create(&board, &host, nullptr, &card) != 0) {
        std::printf("%-28s no RTL build for %u tiles\n", label, tiles);
        return 0;
    }
    load(card, elf, tiles, iterations);
    ipu_backend_write32(card, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    const auto t0 = std::chrono::steady_clock::now();
    double s = 0;
    bool timed_out = false;
    while (card->ops->advance(card, 1u << 12)) {
        s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (s > max_s) {
            timed_out = true;
            break;
        }
    }
    s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint32_t lo = 0, hi = 0, state = 0;
    ipu_backend_read32(card, IPU_REG_CARD_CYCLES_LO, &lo);
    ipu_backend_read32(card, IPU_REG_CARD_CYCLES_HI, &hi);
    ipu_backend_read32(card, IPU_REG_STATUS, &state);
    const double cycles = static_cast<double>((uint64_t{hi} << 32) | lo);
    const double rate = cycles * tiles / s;
    std::string ratio;
    if (base > 0) {
        char buf[96];
        std::snprintf(buf, sizeof buf, " = %.2fx %s", rate / base, base_label);
        ratio = buf;
    }
    std::printf("%-28s %u tile(s): %.0f cycles in %.3f s = %.2f M cycles/s, %.2f M tile-cycles/s%s%s\n", label, tiles,
                cycles, s, cycles / s / 1e6, rate / 1e6, ratio.c_str(),
                timed_out                                                    ? " (stopped at the time limit)"
                : (state & IPU_REG_STATUS_STATE_MASK) == IPU_CARD_STATE_DONE ? ""
                                                                             : " (did not finish)");
    card->ops->destroy(card);
    return rate;
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
    const uint32_t iterations = argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 100000;
    ipu_board board;
    char err[256];
    if (ipu_board_load("rtl-tiny", &board, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    // The whole run stays well under 30 s: Verilator's worker threads spin, so the
    // threaded card crawls when the machine is busy; it gets a tenth of the work
    // and a time limit (its rate is measured over what it ran).
    const double one = bench("rtl", board, 1, ipu_rtl_create, elf, iterations, 60);
    const double four = bench("rtl", board, 4, ipu_rtl_create, elf, iterations, 60);
    char threaded[32];
    std::snprintf(threaded, sizeof threaded, "rtl %d Verilator threads", IPU_RTL_BENCH_THREADS);
    bench(threaded, board, 4, create_threaded, elf, iterations / 10, 4, four, "single-threaded");
    bench("rtl lock-step", board, 1, create_lockstep, elf, iterations / 4, 60, one, "without lock-step");
    bench("rtl lock-step", board, 4, create_lockstep, elf, iterations / 4, 60, four, "without lock-step");
    return 0;
}
