// Puts a tile program on a card the way the driver's loader does, through the card's BARs:
// shared by the RTL benchmark (bench/rtl_bench.cpp) and the profile-training run of the
// Verilated model (rtl_pgo_train.cpp), so that both time the same start.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>

#include "ipu_board.h"
#include "ipu_card/backend.h"
#include "ipu_card/hw.h"
#include "ipu_runtime/elf_image.hpp"

namespace ipu::rtl {

// Loads the segments of `image` (bss as zeros) onto tiles 0..tiles-1 through BAR2 and enables them
// with `arg` as their boot argument.
inline void load_tiles(ipu_backend *card, const ipu::runtime::TileImage &image, unsigned tiles, uint32_t arg)
{
    for (unsigned t = 0; t < tiles; t++) {
        ipu_backend_write32(card, IPU_REG_TILEMEM_WINDOW_TILE, t);
        for (const ipu::runtime::TileSegment &seg : image.segments)
            for (uint32_t off = 0; off < seg.memsz; off += 4) {
                uint32_t w = 0;
                if (off < seg.bytes.size())
                    std::memcpy(&w, seg.bytes.data() + off, std::min<size_t>(4, seg.bytes.size() - off));
                card->ops->bar_write(card, IPU_BAR_TILEMEM, seg.vaddr - IPU_TILE_SRAM_BASE + off, 4, w);
            }
        ipu_backend_write32(card, IPU_REG_TILE_SEL, t);
        ipu_backend_write32(card, IPU_REG_TILE_ENTRY, image.entry);
        ipu_backend_write32(card, IPU_REG_TILE_BOOT_ARG, arg);
        ipu_backend_write32(card, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    }
}

// Reads rtl-tiny's board and the tile program at `elf_path` for it; prints why on failure.
inline bool read_board_and_program(const char *elf_path, ipu_board &board, ipu::runtime::TileImage &elf)
{
    char err[256];
    if (ipu_board_load("rtl-tiny", &board, err, sizeof err) != 0) {
        std::fprintf(stderr, "%s\n", err);
        return false;
    }
    try {
        elf = ipu::runtime::loadTileElf(elf_path, ipu::runtime::ElfTarget::fromBoard(board));
    } catch (const std::exception &e) {
        std::fprintf(stderr, "%s\n", e.what());
        return false;
    }
    return true;
}

} // namespace ipu::rtl
