// Internal: links the shared tile code (runtime + codelets) for a board and reads back its symbols.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ipu_board.h"
#include "ipu_runtime/elf_image.hpp"

namespace poplar::detail {

struct LinkedImage {
  std::string path;                            ///< the linked ELF (in the cache)
  ipu::runtime::TileImage image;               ///< its validated segments
  std::uint32_t freeStart = 0, freeEnd = 0;    ///< the free region for per-tile data
  std::map<std::string, std::uint32_t> symbols; ///< global symbols
  std::uint64_t codeBytes = 0;                 ///< bytes of the image on each tile (code, data, bss, heap)
};

/// Links crt0, the tile runtime and `objects` (.gp files) for `board` with a fixed heap of `heapBytes` (0: no heap,
/// for images without malloc), cached by content. Only what `keepSymbols` and the runtime's dispatch reach is linked
/// (--gc-sections). Throws graph_program_compilation_error with the linker's output.
LinkedImage linkTileImage(const std::vector<std::string> &objects, const ipu_board &board,
                          const std::vector<std::string> &keepSymbols, std::uint32_t heapBytes);

} // namespace poplar::detail
