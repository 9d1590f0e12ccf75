// Bare tile programs: load, streams, run, read back (see tile_program.hpp).
#include "ipu_runtime/tile_program.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace ipu {
namespace runtime {
namespace {

std::uint32_t parseNumber(const std::string &part, const std::string &text, std::uint32_t numTiles) {
  if (part.empty() || part.size() > 9 || !std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit((unsigned char)c); }))
    throw application_runtime_error("tile list '" + text + "': '" + part +
                                    "' is not a tile number; use 'all', N, N-M or a comma-separated list of them");
  const unsigned long v = std::stoul(part);
  if (v >= numTiles)
    throw application_runtime_error("tile list '" + text + "': tile " + part + " does not exist; the card has tiles 0-" +
                                    std::to_string(numTiles - 1));
  return std::uint32_t(v);
}

} // namespace

std::vector<std::uint32_t> parseTileList(const std::string &text, std::uint32_t numTiles) {
  std::vector<std::uint32_t> out;
  if (numTiles == 0)
    throw application_runtime_error("tile list '" + text + "': the card has no tiles");
  if (text == "all") {
    for (std::uint32_t t = 0; t < numTiles; ++t)
      out.push_back(t);
    return out;
  }
  std::set<std::uint32_t> tiles;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t dash = part.find('-');
    if (dash == std::string::npos) {
      tiles.insert(parseNumber(part, text, numTiles));
    } else {
      const std::uint32_t lo = parseNumber(part.substr(0, dash), text, numTiles);
      const std::uint32_t hi = parseNumber(part.substr(dash + 1), text, numTiles);
      if (hi < lo)
        throw application_runtime_error("tile list '" + text + "': range '" + part + "' runs backwards; write " +
                                        std::to_string(hi) + "-" + std::to_string(lo));
      for (std::uint32_t t = lo; t <= hi; ++t)
        tiles.insert(t);
    }
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return std::vector<std::uint32_t>(tiles.begin(), tiles.end());
}

TileProgram::TileProgram(Device &device) : device_(device), streams_(new StreamRegistry(device)) {}

TileProgram::~TileProgram() = default;

LoadStats TileProgram::load(const std::string &path, const std::vector<std::uint32_t> &tiles) {
  return load(loadTileElf(path, device_.elfTarget()), tiles);
}

LoadStats TileProgram::load(const TileImage &image, const std::vector<std::uint32_t> &tiles) {
  std::vector<std::uint32_t> sorted = tiles;
  std::sort(sorted.begin(), sorted.end());
  DeviceImage d = DeviceImage::fromElf(image, sorted);
  for (const auto &kv : bootArgs_)
    if (std::binary_search(sorted.begin(), sorted.end(), kv.first))
      d.boot[kv.first] = TileBoot{image.entry, kv.second};
  loaded_ = false;
  const LoadStats stats = loadImage(device_, d);
  image_ = image;
  tiles_ = sorted;
  loaded_ = true;
  loadedAtReset_ = device_.resetCount();
  return stats;
}

LoadStats TileProgram::reload() {
  if (tiles_.empty())
    throw application_runtime_error("TileProgram::reload: nothing was loaded yet; call load() first");
  const TileImage image = image_;
  const std::vector<std::uint32_t> tiles = tiles_;
  return load(image, tiles);
}

HostBuffer &TileProgram::mapHostBuffer(std::size_t bytes, HostAccess access, std::uint32_t devAddr) {
  buffers_.emplace_back(new HostBuffer(device_, bytes, access, devAddr,
                                       "host-exchange buffer " + std::to_string(buffers_.size())));
  return *buffers_.back();
}

void TileProgram::setBootArg(std::uint32_t tile, std::uint32_t value) { bootArgs_[tile] = value; }

RunResult TileProgram::run(const RunOptions &options) {
  if (!loaded_)
    throw application_runtime_error("TileProgram::run: no program is loaded; call load() first");
  if (loadedAtReset_ != device_.resetCount())
    throw application_runtime_error("TileProgram::run: the device was reset after the program was loaded, which "
                                    "cleared tile memory; call reload() first");
  return runDevice(device_, tiles_, streams_.get(), options);
}

void TileProgram::read(std::uint32_t tile, std::uint32_t tileAddr, void *data, std::size_t len) {
  device_.readTile(tile, tileAddr, data, len);
}

void TileProgram::write(std::uint32_t tile, std::uint32_t tileAddr, const void *data, std::size_t len) {
  device_.writeTile(tile, tileAddr, data, len);
}

} // namespace runtime
} // namespace ipu
