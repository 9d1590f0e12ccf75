// Puts a tile program on a card the way the driver's loader does, through the card's BARs:
// shared by the RTL benchmark (bench/rtl_bench.cpp) and the profile-training run of the
// Verilated model (rtl_pgo_train.cpp), so that both time the same start. It takes the program
// as plain segments: how they were read (an ELF in the bench, a raw image in the training run)
// is the caller's business, so that rtl/ needs no ELF reader from the layers above it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ipu_card/backend.h"
#include "ipu_card/hw.h"

namespace ipu::rtl {

// One loadable piece of a tile program: `size` bytes at `vaddr`, then zeros up to `memsz`.
struct LoadSegment {
    uint32_t vaddr;
    const uint8_t *bytes;
    size_t size;
    uint32_t memsz;
};

// Loads `count` segments onto tiles 0..tiles-1 through BAR2 and enables each tile at `entry`
// with `arg` as its boot argument.
inline void load_tiles(ipu_backend *card, const LoadSegment *segs, size_t count, uint32_t entry, unsigned tiles,
                       uint32_t arg)
{
    for (unsigned t = 0; t < tiles; t++) {
        ipu_backend_write32(card, IPU_REG_TILEMEM_WINDOW_TILE, t);
        for (size_t i = 0; i < count; i++) {
            const LoadSegment &seg = segs[i];
            for (uint32_t off = 0; off < seg.memsz; off += 4) {
                uint32_t w = 0;
                if (off < seg.size)
                    std::memcpy(&w, seg.bytes + off, std::min<size_t>(4, seg.size - off));
                card->ops->bar_write(card, IPU_BAR_TILEMEM, seg.vaddr - IPU_TILE_SRAM_BASE + off, 4, w);
            }
        }
        ipu_backend_write32(card, IPU_REG_TILE_SEL, t);
        ipu_backend_write32(card, IPU_REG_TILE_ENTRY, entry);
        ipu_backend_write32(card, IPU_REG_TILE_BOOT_ARG, arg);
        ipu_backend_write32(card, IPU_REG_TILE_CTRL, IPU_REG_TILE_CTRL_ENABLE_MASK);
    }
}

} // namespace ipu::rtl
