// Device images: code shared by a set of tiles plus per-tile data, turned into a DMA upload plan that sends
// each distinct payload over the bus once and broadcasts it to runs of consecutive tiles.
#ifndef IPU_RUNTIME_TILE_IMAGE_HPP
#define IPU_RUNTIME_TILE_IMAGE_HPP

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ipu_runtime/elf_image.hpp"

namespace ipu {
namespace runtime {

/// Where each tile starts and what it gets in a0.
struct TileBoot {
  std::uint32_t entry = 0;
  std::uint32_t bootArg = 0;
};

/// Everything that goes onto a device before a run.
struct DeviceImage {
  /// Tiles that take part (any order, no duplicates). Other tiles are left disabled.
  std::vector<std::uint32_t> tiles;
  /// Segments identical on every tile in `tiles` (the program's code and constants): uploaded once per run of
  /// consecutive tiles, not once per tile.
  std::vector<TileSegment> shared;
  /// Segments for single tiles (control programs, initial tensor values). Identical per-tile segments on
  /// consecutive tiles are merged into one broadcast too. They must not overlap `shared`.
  std::map<std::uint32_t, std::vector<TileSegment>> perTile;
  /// Entry and boot argument used for every tile without an entry in `boot`.
  TileBoot defaultBoot;
  /// Per-tile overrides of defaultBoot.
  std::map<std::uint32_t, TileBoot> boot;

  /// The image that runs `elf` on `tiles`, entry e_entry, boot argument 0.
  static DeviceImage fromElf(const TileImage &elf, const std::vector<std::uint32_t> &tiles);
  /// Entry and boot argument of `tile`.
  TileBoot bootOf(std::uint32_t tile) const;
};

/// One broadcast write: `length` bytes from `hostOffset` in UploadPlan::hostBytes to `tileAddr` on tiles
/// firstTile .. firstTile + tileCount - 1.
struct TileWrite {
  std::uint32_t firstTile = 0;
  std::uint32_t tileCount = 1;
  std::uint32_t tileAddr = 0;
  std::uint32_t length = 0;
  std::uint64_t hostOffset = 0;
};

/// A validated upload: the distinct payloads (including one block of zeros that every bss write shares) and
/// the writes that place them.
struct UploadPlan {
  std::vector<std::uint8_t> hostBytes;
  std::vector<TileWrite> writes;

  /// Bytes read from host memory over the bus (each write once, whatever its tile count).
  std::uint64_t busBytes() const noexcept;
  /// Bytes that land in tile memory (each write times its tile count).
  std::uint64_t tileBytes() const noexcept;
};

/// Checks `image` against `target` and a card of `numTiles` tiles and plans its upload. Throws
/// application_runtime_error naming the tile and segment when a tile is out of range or duplicated, a segment
/// leaves SRAM, touches a reserved range, or overlaps another segment of the same tile. Writes nothing.
UploadPlan planUpload(const DeviceImage &image, const ElfTarget &target, std::uint32_t numTiles);

/// Replays a plan on plain memory: calls write(tile, tileAddr, data, length) for every tile of every write.
/// Used by tests and by transports without DMA.
template <typename Fn> void forEachTileWrite(const UploadPlan &plan, Fn &&write) {
  for (const TileWrite &w : plan.writes)
    for (std::uint32_t t = 0; t < w.tileCount; ++t)
      write(w.firstTile + t, w.tileAddr, plan.hostBytes.data() + w.hostOffset, w.length);
}

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_TILE_IMAGE_HPP
