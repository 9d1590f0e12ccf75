// The training run of profile-guided optimization (rtl/cmake/ipu_rtl_pgo.cmake): runs a tile
// program to its end on a Verilated card built with -fprofile-generate, so that the compiler
// learns which branches of the generated model the card takes while tiles compute, and lays
// the model out for them when the build compiles it again with -fprofile-use.
// Usage: ipu_rtl_pgo_train_NAME IMAGE ADDRESS ENTRY ITERATIONS, IMAGE being the raw bytes of a
// tile program (bss included) to load at ADDRESS: the build makes it from the program's ELF with
// objcopy (cmake/ipu_rtl_pgo_run.cmake), so that rtl/ reads no ELF itself. The run is a fixed
// program, not timed, so that the profile (and with it the optimized objects ccache keeps) is
// the same every build.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "ipu_board.h"
#include "ipu_card/hw.h"
#include "rtl_card.hpp"
#include "rtl_load.hpp"

namespace ipu::rtl {
// The instrumented configuration (IPU_RTL_TRAIN_MAKE) as the one variant of this program.
std::unique_ptr<CardIf> IPU_RTL_TRAIN_MAKE(const ipu_board &, const ipu_backend_host &, const ipu_backend_options &);
const Variant kVariants[] = {{IPU_RTL_TRAIN_TILES, 65536, 6, false, IPU_RTL_TRAIN_MAKE}};
const unsigned kNumVariants = 1;
} // namespace ipu::rtl

int main(int argc, char **argv)
{
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s IMAGE ADDRESS ENTRY ITERATIONS\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::vector<uint8_t> image;
    if (in)
        image.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (image.empty() || image.size() > UINT32_MAX) {
        std::fprintf(stderr, "%s: cannot read the tile program image %s: rebuild it (ipu_rtl_pgo_run.cmake)\n",
                     argv[0], argv[1]);
        return 1;
    }
    ipu_board board;
    char err[256];
    if (ipu_board_load("rtl-tiny", &board, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return 1;
    }
    board.tiles_per_ipu = IPU_RTL_TRAIN_TILES;
    const ipu_backend_host host{};
    ipu_backend *card = nullptr;
    if (ipu::rtl::create_variant(ipu::rtl::kVariants[0], board, host, nullptr, &card) != 0) {
        std::fprintf(stderr, "%s: rtl-tiny with %u tiles does not fit the trained configuration\n", argv[0],
                     IPU_RTL_TRAIN_TILES);
        return 1;
    }
    const auto number = [&](int i) { return static_cast<uint32_t>(std::strtoul(argv[i], nullptr, 0)); };
    const ipu::rtl::LoadSegment seg{number(2), image.data(), image.size(), static_cast<uint32_t>(image.size())};
    ipu::rtl::load_tiles(card, &seg, 1, number(3), IPU_RTL_TRAIN_TILES, number(4));
    ipu_backend_write32(card, IPU_REG_RUN_CTRL, IPU_REG_RUN_CTRL_START_MASK);
    while (card->ops->advance(card, 1u << 12)) {
    }
    uint32_t state = 0;
    ipu_backend_read32(card, IPU_REG_STATUS, &state);
    card->ops->destroy(card);
    if ((state & IPU_REG_STATUS_STATE_MASK) != IPU_CARD_STATE_DONE) {
        std::fprintf(stderr, "%s: the training program did not finish (status %#x)\n", argv[0], state);
        return 1;
    }
    return 0;
}
