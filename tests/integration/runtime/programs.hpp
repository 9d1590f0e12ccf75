// Hand-assembled bare tile programs for the runtime's integration tests, so that they need no tile toolchain.
#ifndef IPU_RUNTIME_TEST_PROGRAMS_HPP
#define IPU_RUNTIME_TEST_PROGRAMS_HPP

#include <cstdint>
#include <vector>

#include "elf_builder.hpp"
#include "ipu_card/hw.h"

namespace programs {

using namespace ipu::runtime::testing;
using rv::Asm;

constexpr std::uint32_t kBase = IPU_TILE_SRAM_BASE;
constexpr std::uint32_t kData = kBase + 0x1000;          // 16-byte stream buffer in every program
constexpr std::uint32_t kInDev = 0x10000000u;            // device address of the input stream's staging buffer
constexpr std::uint32_t kOutDev = 0x10001000u;           // ... and of the output stream's
constexpr std::uint32_t kInStream = 1, kOutStream = 2;   // stream ids (= host sync ids)

inline std::uint32_t syncWord(std::uint32_t id) { return (id << 8) | IPU_SYNC_KIND_EXTERNAL; }

inline void putChar(Asm &a, char c) {
  a << rv::addi(rv::t1, rv::zero, c) << rv::csrw(IPU_CSR_CONSOLE, rv::t1);
}

inline void exitWith(Asm &a, std::uint32_t reg) { a << rv::csrw(IPU_CSR_EXIT, reg) << rv::jal(rv::zero, 0); }

inline std::vector<std::uint8_t> image(const Asm &a) {
  ElfBuilder e;
  e.entry = kBase;
  e.code(kBase, a.words);
  e.data(kData, {}, 64);
  return e.build();
}

/// Every tile prints "hi <tile>\n" and exits 0.
inline std::vector<std::uint8_t> hello() {
  Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID);
  putChar(a, 'h');
  putChar(a, 'i');
  putChar(a, ' ');
  a << rv::addi(rv::t1, rv::t0, '0') << rv::csrw(IPU_CSR_CONSOLE, rv::t1);
  putChar(a, '\n');
  exitWith(a, rv::zero);
  return image(a);
}

/// Tile t exits with code 3 * t (tile 0 exits 0).
inline std::vector<std::uint8_t> exitCodes() {
  Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID) << rv::addi(rv::t1, rv::zero, 0);
  a << rv::add(rv::t1, rv::t1, rv::t0) << rv::add(rv::t1, rv::t1, rv::t0) << rv::add(rv::t1, rv::t1, rv::t0);
  exitWith(a, rv::t1);
  return image(a);
}

/// Tiles whose boot argument (a0) is non-zero load from address 0 and fault (LOAD_FAULT); the others exit 0.
inline std::vector<std::uint8_t> faultIfArg() {
  Asm a;
  a << rv::beq(rv::a0, rv::zero, 8) << rv::lw(rv::t2, rv::zero, 0);
  exitWith(a, rv::zero);
  return image(a);
}

/// Tile 2 spins forever; the others exit 0.
inline std::vector<std::uint8_t> hangOnTile2() {
  Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID) << rv::addi(rv::t1, rv::zero, 2) << rv::bne(rv::t0, rv::t1, 8)
    << rv::jal(rv::zero, 0);
  exitWith(a, rv::zero);
  return image(a);
}

/// Every tile stores (tile id + 100) at kData and sends that word by host exchange straight to host memory at
/// device address a0 + 4 * tile (no host sync), then exits 0.
inline std::vector<std::uint8_t> hostExchangeIds() {
  Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID) << rv::addi(rv::t2, rv::t0, 100);
  a.li(rv::t1, kData);
  a << rv::sw(rv::t2, rv::t1, 0) << rv::csrw(IPU_CSR_HX_TILE_ADDR, rv::t1);
  a << rv::slli(rv::t0, rv::t0, 2) << rv::add(rv::t0, rv::t0, rv::a0) << rv::csrw(IPU_CSR_HX_DEV_ADDR, rv::t0);
  a.csrwi32(IPU_CSR_HX_START, 4u | 0x80000000u);
  exitWith(a, rv::zero);
  return image(a);
}

/// Tile t reads 16 bytes by host exchange from device address a0 + 16 * t to kData, writes them back to
/// a0 + 4096 + 16 * t, then exits 0: every tile's read falls in one round of the card, its write in the next.
inline std::vector<std::uint8_t> hostExchangeEcho() {
  Asm a;
  a << rv::csrr(rv::t0, IPU_CSR_TILE_ID) << rv::slli(rv::t0, rv::t0, 4) << rv::add(rv::t0, rv::t0, rv::a0);
  a.li(rv::t1, kData);
  a << rv::csrw(IPU_CSR_HX_TILE_ADDR, rv::t1) << rv::csrw(IPU_CSR_HX_DEV_ADDR, rv::t0);
  a.csrwi32(IPU_CSR_HX_START, 16);
  a.li(rv::t2, 4096);
  a << rv::add(rv::t0, rv::t0, rv::t2) << rv::csrw(IPU_CSR_HX_DEV_ADDR, rv::t0);
  a.csrwi32(IPU_CSR_HX_START, 16u | 0x80000000u);
  exitWith(a, rv::zero);
  return image(a);
}

/// a0 times: a stream copy in (stream 1, 16 bytes, to kData), add 1 to each of the 4 words, a stream copy out
/// (stream 2, 16 bytes, from kData); then exit 0. Meant for one tile. If `firstSync` is given, the first sync uses
/// it instead of stream 1's id (to provoke an undeclared-stream error).
inline std::vector<std::uint8_t> echoPlusOne(std::uint32_t firstSync = kInStream) {
  Asm a;
  a << rv::addi(rv::s1, rv::a0, 0);
  const std::int32_t loop = a.here();
  a.csrwi32(IPU_CSR_SYNC, syncWord(firstSync));
  a.csrwi32(IPU_CSR_HX_DEV_ADDR, kInDev);
  a.li(rv::t1, kData);
  a << rv::csrw(IPU_CSR_HX_TILE_ADDR, rv::t1);
  a.csrwi32(IPU_CSR_HX_START, 16);
  a.csrwi32(IPU_CSR_SYNC, syncWord(kInStream | 0x800000u));
  for (int w = 0; w < 4; ++w)
    a << rv::lw(rv::t2, rv::t1, 4 * w) << rv::addi(rv::t2, rv::t2, 1) << rv::sw(rv::t2, rv::t1, 4 * w);
  a.csrwi32(IPU_CSR_SYNC, syncWord(kOutStream));
  a.csrwi32(IPU_CSR_HX_DEV_ADDR, kOutDev);
  a << rv::csrw(IPU_CSR_HX_TILE_ADDR, rv::t1);
  a.csrwi32(IPU_CSR_HX_START, 16u | 0x80000000u);
  a.csrwi32(IPU_CSR_SYNC, syncWord(kOutStream | 0x800000u));
  a << rv::addi(rv::s1, rv::s1, -1);
  a << rv::bne(rv::s1, rv::zero, (loop - a.here()) * 4);
  exitWith(a, rv::zero);
  return image(a);
}

} // namespace programs

#endif // IPU_RUNTIME_TEST_PROGRAMS_HPP
