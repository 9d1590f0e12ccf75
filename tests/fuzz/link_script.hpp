// The host side of the link fuzz target: the fixed series of requests link_fuzz makes while the fuzz input plays
// the card's byte stream. Shared with the seed generator, which writes the answers a well-behaved card gives.
#pragma once
#include <cstdint>

#include "ipu_card/hw.h"

namespace ipu::fuzz {

/// The input's first byte: bit 0 set makes the end of the input a gone peer (-ENODEV) instead of silence;
/// bits 1-3 pick how many bytes one port read returns at most (kLinkChunks), so split frames are tried too.
constexpr std::uint32_t kLinkChunks[8] = {1, 2, 3, 7, 16, 64, 255, 512};

struct LinkStep {
  enum Op { RegRead, RegWrite, WindowRead, WindowWrite, Wait } op;
  std::uint32_t offset; ///< register offset or window byte offset
  std::uint32_t arg;    ///< value written, or window bytes read or written
};

/// Registers, the tile window at unaligned offsets and lengths (single-word and block frames, merged partial
/// words), a reset (which reads a word after its ACK), a wait for IRQ frames, and a last read.
constexpr LinkStep kLinkScript[] = {
    {LinkStep::RegRead, IPU_REG_ID, 0},
    {LinkStep::RegWrite, IPU_REG_IRQ_MASK, 0xffffffffu},
    {LinkStep::WindowRead, 2, 10},  // BLOCK_READ of 3 words
    {LinkStep::WindowWrite, 1, 6},  // MEM_READ of words 0 and 1, then BLOCK_WRITE of 2
    {LinkStep::WindowRead, 0, 300}, // BLOCK_READ of 63 words, then of 12
    {LinkStep::RegWrite, IPU_REG_RESET, IPU_RESET_KEY}, // ACK, then a MEM_READ of word 0
    {LinkStep::Wait, 0, 0},
    {LinkStep::RegRead, IPU_REG_VERSION, 0},
};

/// The host memory block the harness allocates first: the card's DMA_REQ frames may address it.
constexpr std::uint32_t kLinkDmaBytes = 8192;
constexpr std::uint64_t kLinkDmaBus = 0x100000000ull; ///< the link's first bus address

} // namespace ipu::fuzz
