// Hardened loader for tile ELF binaries: bytes in, a fully validated TileImage out, or an elf_error naming the field.
#ifndef IPU_RUNTIME_ELF_IMAGE_HPP
#define IPU_RUNTIME_ELF_IMAGE_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ipu_runtime/errors.hpp"

struct ipu_board;

namespace ipu {
namespace runtime {

/// A named range of tile addresses [base, base + size).
struct MemoryRange {
  std::uint32_t base;
  std::uint32_t size;
  std::string name; ///< Quoted in error messages, e.g. "host-exchange area".
};

/// What a tile accepts. Build it with fromBoard(); add reserved ranges that the runtime keeps for itself.
struct ElfTarget {
  std::uint32_t sramBase = 0;       ///< First SRAM address (IPU_TILE_SRAM_BASE).
  std::uint32_t sramBytes = 0;      ///< SRAM per tile (the board's bytes_per_tile).
  bool compressed = false;          ///< The ISA has the C extension, so EF_RISCV_RVC is allowed and code is 2-aligned.
  bool embedded = false;            ///< The ABI is ilp32e, so EF_RISCV_RVE is required.
  std::uint32_t floatAbi = 0;       ///< The EF_RISCV_FLOAT_ABI bits the ABI demands (0 soft, 2 single, 4 double).
  std::vector<MemoryRange> reserved; ///< Tile ranges no segment may touch.
  std::uint32_t maxSegments = 64;   ///< Upper bound on e_phnum, so that a hostile header cannot make us loop long.
  std::uint64_t maxFileBytes = 256u << 20; ///< Larger files are rejected before anything is read.
  std::string isa;                  ///< The board's ISA string, for messages.
  std::string abi;                  ///< The board's ABI string, for messages.

  /// The target for tiles of `board`: its SRAM, its ISA ("rv32imf") and ABI ("ilp32f").
  /// Throws application_runtime_error if the board's ISA or ABI is not one a tile ELF can be checked against.
  static ElfTarget fromBoard(const ipu_board &board);
};

/// One loadable segment of a validated image: `bytes` go to [vaddr, vaddr + bytes.size()), then zeros up to memsz.
struct TileSegment {
  std::uint32_t vaddr = 0;
  std::uint32_t memsz = 0;
  std::uint32_t flags = 0; ///< ELF PF_R (4), PF_W (2), PF_X (1).
  std::vector<std::uint8_t> bytes;

  /// True when the segment holds code (PF_X).
  bool executable() const noexcept { return (flags & 1u) != 0; }
  /// One past the last address the segment covers (64-bit so that it cannot wrap).
  std::uint64_t end() const noexcept { return std::uint64_t(vaddr) + memsz; }
};

/// A tile program that passed every check of parseTileElf(): segments sorted by address, inside tile SRAM,
/// disjoint and clear of reserved ranges; the entry point inside the file bytes of an executable segment.
struct TileImage {
  std::string name;                  ///< Where the image came from (a path or "tile ELF"), for messages.
  std::uint32_t entry = 0;           ///< e_entry: where the supervisor starts.
  std::uint32_t flags = 0;           ///< e_flags (RVC, float ABI, RVE).
  std::vector<TileSegment> segments; ///< PT_LOAD segments with memsz > 0, by ascending vaddr.

  /// Bytes that a load writes to one tile (sum of memsz).
  std::uint64_t loadBytes() const noexcept;
};

/// Parses and validates a tile ELF held in memory. Nothing outside the returned value is touched, so a caller
/// that writes tiles only after this returns never writes a partial image.
/// Throws elf_error naming the first field that fails and its value (see docs in elf_image.cpp for the order).
TileImage parseTileElf(const void *data, std::size_t size, const ElfTarget &target,
                       const std::string &name = "tile ELF");

/// Reads `path` and parses it with parseTileElf(). Throws application_runtime_error if the file cannot be read.
TileImage loadTileElf(const std::string &path, const ElfTarget &target);

/// The symbols of a tile ELF's symbol tables (SHT_SYMTAB): name -> st_value, for tests and tools that look up a
/// label of a program they load. Every section, table and name offset is range-checked against the file; throws
/// elf_error naming the field that does not fit. An ELF without a symbol table gives an empty map.
std::map<std::string, std::uint32_t> tileElfSymbols(const void *data, std::size_t size,
                                                    const std::string &name = "tile ELF");

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_ELF_IMAGE_HPP
