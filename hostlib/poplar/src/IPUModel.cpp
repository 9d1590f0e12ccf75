// The IPU Model: board values the user can change, turned into a private simulated card.
#include "poplar/IPUModel.hpp"

#include <cstdio>
#include <cstring>

#include "device_impl.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar {

IPUModel::IPUModel(const char *ipuVersion) : IPUVersion(ipuVersion ? ipuVersion : "ipu2") {
  ipu_board b = detail::loadBoard(IPUVersion);
  numIPUs = b.num_ipus;
  tilesPerIPU = b.tiles_per_ipu;
  memoryPerTile = b.bytes_per_tile;
  numWorkerContexts = b.worker_contexts;
  minIPUSyncDelay = b.min_ipu_sync_delay;
  globalSyncCycles = b.global_sync_cycles;
  exchangeBytesPerCycle = b.exchange_bytes_per_cycle;
  memcpyBytesPerCycle = b.memcpy_bytes_per_cycle;
  tileClockFrequency = double(b.tile_clock_hz);
  compileIPUCode = true;
  relativeSyncDelay = 0;
  tilesCanShareExchangeBus = b.tiles_per_shared_exchange_bus > 1;
}

Target IPUModel::createTarget() const {
  detail::TargetValues v;
  v.type = TargetType::IPU_MODEL;
  v.board = detail::loadBoard(IPUVersion);
  ipu_board &b = v.board;
  if (numIPUs != 1)
    throw invalid_option("IPUModel.numIPUs = " + std::to_string(numIPUs) +
                         ": the card model simulates one IPU per card; set numIPUs = 1");
  if (memoryPerTile == 0 || memoryPerTile > 1024u * 1024u)
    throw invalid_option("IPUModel.memoryPerTile = " + std::to_string(memoryPerTile) +
                         ": must be 1 .. 1048576 bytes (the tile address map has 1 MiB of SRAM at most)");
  if (numWorkerContexts == 0 || numWorkerContexts > 6)
    throw invalid_option("IPUModel.numWorkerContexts = " + std::to_string(numWorkerContexts) + ": must be 1 .. 6");
  bool changed = b.tiles_per_ipu != tilesPerIPU || b.bytes_per_tile != memoryPerTile ||
                 b.worker_contexts != numWorkerContexts;
  b.num_ipus = numIPUs;
  b.tiles_per_ipu = tilesPerIPU;
  b.bytes_per_tile = memoryPerTile;
  b.worker_contexts = numWorkerContexts;
  b.min_ipu_sync_delay = minIPUSyncDelay;
  b.global_sync_cycles = globalSyncCycles;
  b.exchange_bytes_per_cycle = exchangeBytesPerCycle;
  b.memcpy_bytes_per_cycle = memcpyBytesPerCycle;
  b.tile_clock_hz = std::uint64_t(tileClockFrequency);
  if (changed)
    std::snprintf(b.description, sizeof b.description, "IPU Model from %s: %u tiles x %u bytes", IPUVersion.c_str(),
                  tilesPerIPU, memoryPerTile);
  v.boardSpec = IPUVersion;
  return Target(v);
}

Device IPUModel::createDevice(const OptionFlags &, bool, unsigned deviceManagerId) const {
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = createTarget();
  d->model = true;
  d->id = deviceManagerId;
  return Device(d);
}

} // namespace poplar
