// Internal: the values behind a Target (a board description plus the target type).
#pragma once

#include <cstdint>
#include <string>

#include "poplar/Target.hpp"
#include "ipu_board.h"

namespace poplar::detail {

struct TargetValues {
  TargetType type = TargetType::IPU_MODEL;
  ipu_board board{};           ///< every board value (tiles, memory, workers, clock, ISA, ...)
  std::string boardSpec;       ///< board name or path the values came from
  unsigned deviceId = 0;       ///< driver id for TargetType::IPU
};

/// Loads board `name` (a name in boards/ or a path); throws invalid_option with the board reader's message.
ipu_board loadBoard(const std::string &name);
/// Writes `board` as a board TOML under the cache and returns its path (same content, same path).
std::string writeBoardFile(const ipu_board &board);
/// ~/.cache/ipu-emu (or $IPU_EMU_CACHE), created if missing.
std::string cacheDir();
/// 64-bit FNV-1a of `data`, as 16 hex digits.
std::string contentHash(const std::string &data);

} // namespace poplar::detail
