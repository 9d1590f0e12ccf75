// Simulation speed of the RTL card: simulated tile-cycles per second for 1 and 4
// tiles against the card as built before its falling-edge input stage (rtl/sim/ipu_card_sim.sv;
// runs alternating between the two, so that a change in the machine's load hits both alike), and the cost of
// lock-step mode. Usage: ipu_rtl_bench COMPUTE_ELF [ITERATIONS [ROUNDS]]
// (COMPUTE_ELF: the rv32im build of tests/unit/isa/compute.S). Prints one line
// per run, then per size the median, min and max of each build and the ratio
// of the medians (bench_stats.hpp); the lock-step lines end with their ratio to the card alone.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_stats.hpp"
#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "ipu_backends/registry.h"
#include "ipu_rtl/rtl.h"
#include "ipu_runtime/elf_image.hpp"
#include "rtl_card.hpp"
#include "rtl_load.hpp"

namespace ipu::rtl {
// rtl-tiny's card in 1 and 4 tiles with ipu_card itself as the Verilated top, as built
// before the input stage (IPU_RTL_BASELINE in rtl/cmake/ipu_rtl.cmake): variants linked
// into this benchmark only (not in kVariants).
std::unique_ptr<CardIf> make_base1(const ipu_board &, const ipu_backend_host &, const ipu_backend_options &);
std::unique_ptr<CardIf> make_base4(const ipu_board &, const ipu_backend_host &, const ipu_backend_options &);
} // namespace ipu::rtl

namespace {

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

// The baseline card of the board's size.
int create_baseline(const ipu_board *board, const ipu_backend_host *host, const ipu_backend_options *options,
                    ipu_backend **out)
{
    static const ipu::rtl::Variant one{1, 65536, 6, false, ipu::rtl::make_base1};
    static const ipu::rtl::Variant four{4, 65536, 6, false, ipu::rtl::make_base4};
    return ipu::rtl::create_variant(ipu_board_num_tiles(board) == 1 ? one : four, *board, *host, options, out);
}

// Runs `elf` on `tiles` tiles of a card from `create` for at most `max_s` seconds
// and prints one line; `base` (tile-cycles per second of the case to compare
// with, 0: none) adds the ratio. Returns the tile-cycles per second (0 when the
// card could not be created).
double run(const char *label, ipu_board board, unsigned tiles, CreateFn create, const ipu::runtime::TileImage &elf,
             uint32_t iterations, double max_s, double base = 0, const char *base_label = "")
{
    board.tiles_per_ipu = tiles;
    ipu_backend_host host{};
    ipu_backend *card = nullptr;
    if (create(&board, &host, nullptr, &card) != 0) {
        std::printf("%-28s no RTL build for %u tiles\n", label, tiles);
        return 0;
    }
    std::vector<ipu::rtl::LoadSegment> segs;
    for (const ipu::runtime::TileSegment &seg : elf.segments)
        segs.push_back({seg.vaddr, seg.bytes.data(), seg.bytes.size(), seg.memsz});
    ipu::rtl::load_tiles(card, segs.data(), segs.size(), elf.entry, tiles, iterations);
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
    const uint32_t iterations = argc > 2 ? static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 0)) : 20000;
    ipu_board board;
    char err[256];
    if (ipu_board_load("rtl-tiny", &board, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    ipu::runtime::TileImage elf;
    try {
        elf = ipu::runtime::loadTileElf(argv[1], ipu::runtime::ElfTarget::fromBoard(board));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    // Each size: ROUNDS pairs of runs, the baseline and today's card alternating
    // (after one warm-up pair, thrown away).
    const int rounds = argc > 3 ? std::atoi(argv[3]) : 5;
    double today[2] = {0, 0};
    for (unsigned size = 0; size < 2; size++) {
        const unsigned tiles = size ? 4 : 1;
        const bench::Pair p = bench::alternate(
            rounds, [&] { return run("rtl without input stage", board, tiles, create_baseline, elf, iterations, 60); },
            [&] { return run("rtl", board, tiles, ipu_rtl_create, elf, iterations, 60); });
        std::printf("rtl %u tile(s) without input stage: %s\n", tiles,
                    bench::format(p.baseline, 1e-6, "M tile-cycles/s", 2).c_str());
        std::printf("rtl %u tile(s) now:                  %s = %.2fx\n", tiles,
                    bench::format(p.subject, 1e-6, "M tile-cycles/s", 2).c_str(), p.ratio());
        today[size] = p.subject.median();
    }
    run("rtl lock-step", board, 1, create_lockstep, elf, iterations / 4, 60, today[0], "without lock-step");
    run("rtl lock-step", board, 4, create_lockstep, elf, iterations / 4, 60, today[1], "without lock-step");
    return 0;
}
