// Device images and their upload plans (see tile_image.hpp).
#include "ipu_runtime/tile_image.hpp"

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>
#include <unordered_map>
#define XXH_INLINE_ALL // header-only: no library to link (libxxhash-dev)
#include <xxhash.h>

namespace ipu {
namespace runtime {
namespace {

// The DMA descriptor's TILE_COUNT field is 16 bits.
constexpr std::uint32_t kMaxBroadcastTiles = 0xffff;
constexpr std::uint64_t kPayloadAlign = 8;

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string where(const char *kind, std::int64_t tile, std::size_t index) {
  return tile < 0 ? std::string(kind) + " segment " + std::to_string(index)
                  : std::string(kind) + " segment " + std::to_string(index) + " of tile " + std::to_string(tile);
}

// Validates one tile's segments (shared ones first, then that tile's own) against the target. `tile` < 0 checks
// the shared segments alone.
void checkSegments(const std::vector<const TileSegment *> &segs, const std::vector<const char *> &kinds,
                   const std::vector<std::size_t> &indices, const ElfTarget &target, std::int64_t tile) {
  const std::uint64_t sramEnd = std::uint64_t(target.sramBase) + target.sramBytes;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    const TileSegment &s = *segs[i];
    const std::string at = where(kinds[i], tile, indices[i]);
    if (s.bytes.size() > s.memsz)
      throw application_runtime_error(at + ": " + std::to_string(s.bytes.size()) + " bytes of data exceed memsz " +
                                      std::to_string(s.memsz) + "; set memsz >= bytes.size()");
    if (s.memsz == 0)
      continue;
    if (s.vaddr < target.sramBase || s.end() > sramEnd)
      throw application_runtime_error(at + ": [" + hex(s.vaddr) + ", " + hex(s.end()) +
                                      ") is not inside tile SRAM [" + hex(target.sramBase) + ", " + hex(sramEnd) +
                                      ")");
    for (const MemoryRange &r : target.reserved)
      if (r.size != 0 && s.vaddr < std::uint64_t(r.base) + r.size && r.base < s.end())
        throw application_runtime_error(at + ": [" + hex(s.vaddr) + ", " + hex(s.end()) + ") overlaps the reserved " +
                                        r.name + " [" + hex(r.base) + ", " + hex(std::uint64_t(r.base) + r.size) +
                                        ")");
    order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return segs[a]->vaddr < segs[b]->vaddr; });
  for (std::size_t k = 1; k < order.size(); ++k) {
    const TileSegment &p = *segs[order[k - 1]], &c = *segs[order[k]];
    if (p.end() > c.vaddr)
      throw application_runtime_error(where(kinds[order[k]], tile, indices[order[k]]) + " at [" + hex(c.vaddr) +
                                      ", " + hex(c.end()) + ") overlaps " +
                                      where(kinds[order[k - 1]], tile, indices[order[k - 1]]) + " at [" +
                                      hex(p.vaddr) + ", " + hex(p.end()) + ")");
  }
}

// Interns payloads so that identical bytes are stored (and sent) once.
class PayloadPool {
public:
  explicit PayloadPool(std::vector<std::uint8_t> &bytes) : bytes_(bytes) {}
  std::uint64_t intern(const std::vector<std::uint8_t> &data) {
    const std::uint64_t h = XXH3_64bits(data.data(), data.size());
    auto &candidates = index_[h];
    for (std::uint64_t off : candidates)
      if (std::equal(data.begin(), data.end(), bytes_.begin() + std::ptrdiff_t(off)))
        return off;
    const std::uint64_t off = append(data.data(), data.size());
    candidates.push_back(off);
    return off;
  }
  std::uint64_t append(const std::uint8_t *p, std::size_t n) {
    while (bytes_.size() % kPayloadAlign)
      bytes_.push_back(0);
    const std::uint64_t off = bytes_.size();
    if (p)
      bytes_.insert(bytes_.end(), p, p + n);
    else
      bytes_.resize(bytes_.size() + n, 0);
    return off;
  }

private:
  std::vector<std::uint8_t> &bytes_;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> index_;
};

// Adds writes of (addr, length, hostOffset) to each run of consecutive tiles in sorted `tiles`.
void addRuns(std::vector<TileWrite> &out, const std::vector<std::uint32_t> &tiles, std::uint32_t addr,
             std::uint32_t length, std::uint64_t hostOffset) {
  if (length == 0)
    return;
  std::size_t i = 0;
  while (i < tiles.size()) {
    std::size_t j = i + 1;
    while (j < tiles.size() && tiles[j] == tiles[j - 1] + 1 && j - i < kMaxBroadcastTiles)
      ++j;
    out.push_back(TileWrite{tiles[i], std::uint32_t(j - i), addr, length, hostOffset});
    i = j;
  }
}

} // namespace

DeviceImage DeviceImage::fromElf(const TileImage &elf, const std::vector<std::uint32_t> &tiles) {
  DeviceImage d;
  d.tiles = tiles;
  d.shared = elf.segments;
  d.defaultBoot.entry = elf.entry;
  return d;
}

TileBoot DeviceImage::bootOf(std::uint32_t tile) const {
  auto it = boot.find(tile);
  return it == boot.end() ? defaultBoot : it->second;
}

std::uint64_t UploadPlan::busBytes() const noexcept {
  std::uint64_t n = 0;
  for (const TileWrite &w : writes)
    n += w.length;
  return n;
}

std::uint64_t UploadPlan::tileBytes() const noexcept {
  std::uint64_t n = 0;
  for (const TileWrite &w : writes)
    n += std::uint64_t(w.length) * w.tileCount;
  return n;
}

UploadPlan planUpload(const DeviceImage &image, const ElfTarget &target, std::uint32_t numTiles) {
  // Validate everything first: a plan is only returned for an image that can be written completely.
  if (image.tiles.empty())
    throw application_runtime_error("device image: no tiles selected; name at least one tile");
  std::vector<std::uint32_t> tiles = image.tiles;
  std::sort(tiles.begin(), tiles.end());
  for (std::size_t i = 0; i < tiles.size(); ++i) {
    if (tiles[i] >= numTiles)
      throw application_runtime_error("device image: tile " + std::to_string(tiles[i]) + " does not exist; the card has " +
                                      std::to_string(numTiles) + " tiles (0.." + std::to_string(numTiles - 1) + ")");
    if (i && tiles[i] == tiles[i - 1])
      throw application_runtime_error("device image: tile " + std::to_string(tiles[i]) +
                                      " is listed twice; list each tile once");
  }
  const std::set<std::uint32_t> tileSet(tiles.begin(), tiles.end());
  for (const auto &kv : image.boot)
    if (!tileSet.count(kv.first))
      throw application_runtime_error("device image: a boot entry names tile " + std::to_string(kv.first) +
                                      ", which is not in the image's tile list; add it or drop the entry");
  {
    std::vector<const TileSegment *> segs;
    std::vector<const char *> kinds;
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < image.shared.size(); ++i) {
      segs.push_back(&image.shared[i]);
      kinds.push_back("shared");
      idx.push_back(i);
    }
    checkSegments(segs, kinds, idx, target, -1);
    for (const auto &kv : image.perTile) {
      if (!tileSet.count(kv.first))
        throw application_runtime_error("device image: per-tile data for tile " + std::to_string(kv.first) +
                                        ", which is not in the image's tile list; add the tile or drop the data");
      std::vector<const TileSegment *> all = segs;
      std::vector<const char *> allKinds = kinds;
      std::vector<std::size_t> allIdx = idx;
      for (std::size_t i = 0; i < kv.second.size(); ++i) {
        all.push_back(&kv.second[i]);
        allKinds.push_back("per-tile");
        allIdx.push_back(i);
      }
      checkSegments(all, allKinds, allIdx, target, kv.first);
    }
  }

  UploadPlan plan;
  PayloadPool pool(plan.hostBytes);
  std::uint32_t maxZeros = 0;
  // The pool's bytes at most (before interning merges payloads), reserved at once: grown by doubling, the pool
  // copied and faulted in its bytes again at each step (a fifth of tutorial 7's load phase on ipu2).
  std::size_t most = kPayloadAlign;
  auto bssOf = [](const TileSegment &s) { return s.memsz - std::uint32_t(s.bytes.size()); };
  auto count = [&](const TileSegment &s) {
    maxZeros = std::max(maxZeros, bssOf(s));
    most += s.bytes.size() + kPayloadAlign;
  };
  for (const TileSegment &s : image.shared)
    count(s);
  for (const auto &kv : image.perTile)
    for (const TileSegment &s : kv.second)
      count(s);
  plan.hostBytes.reserve(most + maxZeros);
  // One block of zeros serves every bss tail: DMA descriptors may read the same host bytes.
  const std::uint64_t zeros = pool.append(nullptr, maxZeros);

  for (const TileSegment &s : image.shared) {
    if (s.memsz == 0)
      continue;
    if (!s.bytes.empty())
      addRuns(plan.writes, tiles, s.vaddr, std::uint32_t(s.bytes.size()), pool.intern(s.bytes));
    addRuns(plan.writes, tiles, s.vaddr + std::uint32_t(s.bytes.size()), bssOf(s), zeros);
  }
  // Per-tile segments: group tiles by (address, length, payload) so that identical data on consecutive tiles
  // becomes one broadcast.
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, std::vector<std::uint32_t>> groups;
  for (const auto &kv : image.perTile) {
    for (const TileSegment &s : kv.second) {
      if (s.memsz == 0)
        continue;
      if (!s.bytes.empty())
        groups[std::make_tuple(s.vaddr, std::uint32_t(s.bytes.size()), pool.intern(s.bytes))].push_back(kv.first);
      if (bssOf(s))
        groups[std::make_tuple(s.vaddr + std::uint32_t(s.bytes.size()), bssOf(s), zeros)].push_back(kv.first);
    }
  }
  for (auto &g : groups) {
    std::sort(g.second.begin(), g.second.end());
    addRuns(plan.writes, g.second, std::get<0>(g.first), std::get<1>(g.first), std::get<2>(g.first));
  }
  return plan;
}

} // namespace runtime
} // namespace ipu
