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
  detail::ArchValues a = detail::archFor(b);
  numIPUs = b.num_ipus;
  tilesPerIPU = b.tiles_per_ipu;
  memoryPerTile = b.bytes_per_tile;
  numWorkerContexts = b.worker_contexts;
  dataPathWidth = b.data_path_width;
  minIPUSyncDelay = b.min_ipu_sync_delay;
  globalSyncCycles = b.global_sync_cycles;
  relativeSyncDelay = RelativeSyncDelayType::NO_DELAY;
  exchangeBytesPerCycle = b.exchange_bytes_per_cycle;
  memcpyBytesPerCycle = b.memcpy_bytes_per_cycle;
  tileClockFrequency = double(b.tile_clock_hz);
  tilesCanShareExchangeBus = b.tiles_per_shared_exchange_bus > 1;
  tilesPerSharedExchangeBus = b.tiles_per_shared_exchange_bus;
  numStrideBits = b.num_stride_bits;
  rptCountMax = b.rpt_count_max;
  fp8ConvUnitMaxPipelineDepth = a.fp8ConvUnitMaxPipelineDepth;
  fp16ConvUnitMaxPipelineDepth = a.fp16ConvUnitMaxPipelineDepth;
  fp32ConvUnitMaxPipelineDepth = a.fp32ConvUnitMaxPipelineDepth;
  fp8ConvUnitInputLoadElemsPerCycle = a.fp8ConvUnitInputLoadElemsPerCycle;
  fp16ConvUnitInputLoadElemsPerCycle = a.fp16ConvUnitInputLoadElemsPerCycle;
  fp32ConvUnitInputLoadElemsPerCycle = a.fp32ConvUnitInputLoadElemsPerCycle;
  fp8InFp16OutConvUnitsPerTile = a.fp8InFp16OutConvUnitsPerTile;
  fp16InFp16OutConvUnitsPerTile = a.fp16InFp16OutConvUnitsPerTile;
  fp16InFp32OutConvUnitsPerTile = a.fp16InFp32OutConvUnitsPerTile;
  fp32InFp32OutConvUnitsPerTile = a.fp32InFp32OutConvUnitsPerTile;
  convUnitCoeffLoadBytesPerCycle = a.convUnitCoeffLoadBytesPerCycle;
  compileIPUCode = true;
  tilesPerSuperTile = tilesPerSharedExchangeBus;
  memoryBytesPerTile = memoryPerTile;
  supportsSuperTileSendReceive = tilesCanShareExchangeBus;
  atomicStoreGranularity = b.atomic_store_granularity;
  interleavedMemoryElementIndex = a.interleavedMemoryElementIndex;
  instructionBytes = 4;
  globalExchangePacketBytes = 256;
  tileLocalSyncSyncDelay = numWorkerContexts;
  tileLocalSyncExitDelay = numWorkerContexts;
  supervisorInstrFetchDelay = dataPathWidth / 8;
  workerInstrFetchDelay = dataPathWidth / 8;
}

namespace {
// The value of a field that has two names (ours and the SDK 2.x one): the one that differs from the version's
// value `board`; both differing must agree.
template <typename T>
T eitherName(const char *ours, T oursValue, const char *sdk2, T sdk2Value, T board) {
  if (oursValue != board && sdk2Value != board && oursValue != sdk2Value)
    throw invalid_option(std::string("IPUModel.") + ours + " = " + std::to_string(oursValue) + " and IPUModel." +
                         sdk2 + " = " + std::to_string(sdk2Value) +
                         " name the same setting with different values; set one of them");
  return oursValue != board ? oursValue : sdk2Value;
}

void checkRange(const char *field, double value, double lo, double hi, const std::string &why) {
  if (!(value >= lo && value <= hi))
    throw invalid_option(std::string("IPUModel.") + field + " = " + std::to_string(value) + ": must be " +
                         std::to_string(lo) + " .. " + std::to_string(hi) + " (" + why + ")");
}
} // namespace

Target IPUModel::createTarget(const OptionFlags &opts) const {
  detail::TargetValues v;
  v.type = TargetType::IPU_MODEL;
  v.board = detail::loadBoard(IPUVersion);
  ipu_board &b = v.board;
  detail::checkNumIPUs("IPUModel.numIPUs", numIPUs, tilesPerIPU);
  const ipu_board version = b;
  const unsigned tileBytes =
      eitherName("memoryPerTile", memoryPerTile, "memoryBytesPerTile", memoryBytesPerTile,
                 unsigned(version.bytes_per_tile));
  const unsigned busTiles =
      eitherName("tilesPerSharedExchangeBus", tilesPerSharedExchangeBus, "tilesPerSuperTile",
                 tilesPerSuperTile, unsigned(version.tiles_per_shared_exchange_bus));
  const bool versionShares = version.tiles_per_shared_exchange_bus > 1;
  const bool busShared =
      eitherName("tilesCanShareExchangeBus", tilesCanShareExchangeBus, "supportsSuperTileSendReceive",
                 supportsSuperTileSendReceive, versionShares);
  if (tileBytes == 0 || tileBytes > 1024u * 1024u)
    throw invalid_option("IPUModel.memoryPerTile (or memoryBytesPerTile) = " + std::to_string(tileBytes) +
                         ": must be 1 .. 1048576 bytes (the tile address map has 1 MiB of SRAM at most)");
  if (atomicStoreGranularity == 0 || atomicStoreGranularity > 64 ||
      (atomicStoreGranularity & (atomicStoreGranularity - 1)) != 0)
    throw invalid_option("IPUModel.atomicStoreGranularity = " + std::to_string(atomicStoreGranularity) +
                         ": must be a power of two from 1 to 64 bytes (what the tile stores at once)");
  checkRange("instructionBytes", instructionBytes, 1, 4096, "accepted without effect, see docs/ipu-model.md");
  checkRange("globalExchangePacketBytes", globalExchangePacketBytes, 1, 4096,
             "accepted without effect, see docs/ipu-model.md");
  checkRange("tileLocalSyncSyncDelay", tileLocalSyncSyncDelay, 1, 4096, "accepted without effect");
  checkRange("tileLocalSyncExitDelay", tileLocalSyncExitDelay, 1, 4096, "accepted without effect");
  checkRange("supervisorInstrFetchDelay", supervisorInstrFetchDelay, 1, 4096, "accepted without effect");
  checkRange("workerInstrFetchDelay", workerInstrFetchDelay, 1, 4096, "accepted without effect");
  if (numWorkerContexts == 0 || numWorkerContexts > 6)
    throw invalid_option("IPUModel.numWorkerContexts = " + std::to_string(numWorkerContexts) + ": must be 1 .. 6");
  if (relativeSyncDelay != RelativeSyncDelayType::NO_DELAY && relativeSyncDelay != RelativeSyncDelayType::AUTO)
    throw invalid_option("IPUModel.relativeSyncDelay: not a RelativeSyncDelayType; use NO_DELAY or AUTO");
  checkRange("tilesPerIPU", tilesPerIPU, 1, 4096, "the card model's tile count");
  checkRange("dataPathWidth", dataPathWidth, 32, 1024, "bits, as boards/README.md gives");
  checkRange("tileClockFrequency", tileClockFrequency, 1e3, 1e10, "Hz");
  checkRange("exchangeBytesPerCycle", exchangeBytesPerCycle, 1, 1024, "bytes per cycle");
  checkRange("memcpyBytesPerCycle", memcpyBytesPerCycle, 1, 1024, "bytes per cycle");
  checkRange("numStrideBits", numStrideBits, 1, 32, "bits");
  checkRange("rptCountMax", rptCountMax, 1, 4294967295.0, "repeat count");
  bool changed = b.tiles_per_ipu != tilesPerIPU || b.bytes_per_tile != tileBytes ||
                 b.worker_contexts != numWorkerContexts;
  b.num_ipus = numIPUs;
  b.tiles_per_ipu = tilesPerIPU;
  b.bytes_per_tile = tileBytes;
  b.worker_contexts = numWorkerContexts;
  b.data_path_width = dataPathWidth;
  b.min_ipu_sync_delay = minIPUSyncDelay;
  b.global_sync_cycles = globalSyncCycles;
  b.exchange_bytes_per_cycle = exchangeBytesPerCycle;
  b.memcpy_bytes_per_cycle = memcpyBytesPerCycle;
  b.tile_clock_hz = std::uint64_t(tileClockFrequency);
  b.tiles_per_shared_exchange_bus = busShared ? (busTiles > 1 ? busTiles : 2) : 1;
  b.num_stride_bits = numStrideBits;
  b.rpt_count_max = rptCountMax;
  b.atomic_store_granularity = atomicStoreGranularity;
  if (changed)
    std::snprintf(b.description, sizeof b.description, "IPU Model from %s: %u tiles x %u bytes", IPUVersion.c_str(),
                  tilesPerIPU, tileBytes);
  detail::ArchValues &a = v.arch;
  a = detail::archFor(b);
  a.fp8ConvUnitMaxPipelineDepth = fp8ConvUnitMaxPipelineDepth;
  a.fp16ConvUnitMaxPipelineDepth = fp16ConvUnitMaxPipelineDepth;
  a.fp32ConvUnitMaxPipelineDepth = fp32ConvUnitMaxPipelineDepth;
  a.fp8ConvUnitInputLoadElemsPerCycle = fp8ConvUnitInputLoadElemsPerCycle;
  a.fp16ConvUnitInputLoadElemsPerCycle = fp16ConvUnitInputLoadElemsPerCycle;
  a.fp32ConvUnitInputLoadElemsPerCycle = fp32ConvUnitInputLoadElemsPerCycle;
  a.fp8InFp16OutConvUnitsPerTile = fp8InFp16OutConvUnitsPerTile;
  a.fp16InFp16OutConvUnitsPerTile = fp16InFp16OutConvUnitsPerTile;
  a.fp16InFp32OutConvUnitsPerTile = fp16InFp32OutConvUnitsPerTile;
  a.fp32InFp32OutConvUnitsPerTile = fp32InFp32OutConvUnitsPerTile;
  a.convUnitCoeffLoadBytesPerCycle = convUnitCoeffLoadBytesPerCycle;
  a.interleavedMemoryElementIndex = interleavedMemoryElementIndex;
  v.archSet = true;
  for (std::size_t i = 0; i < globalExchangeConstraints.size(); ++i) {
    const GlobalExchangeConstraint &c = globalExchangeConstraints[i];
    const std::string where = "IPUModel.globalExchangeConstraints[" + std::to_string(i) + "]";
    if (!(c.bandwidth > 0))
      throw invalid_option(where + ".bandwidth = " + std::to_string(c.bandwidth) + ": must be above 0 (bits per second)");
    for (const GlobalExchangeFlow &f : c.flows)
      if (f.src >= numIPUs || f.dst >= numIPUs)
        throw invalid_option(where + ": flow " + std::to_string(f.src) + " -> " + std::to_string(f.dst) +
                             " names an IPU the model does not have (numIPUs = " + std::to_string(numIPUs) + ")");
  }
  v.globalExchangeConstraints = globalExchangeConstraints;
  v.options = detail::parseTargetOptions(opts);
  v.optionsSet = true;
  v.compileIPUCode = compileIPUCode;
  v.boardSpec = IPUVersion;
  return Target(v);
}

Device IPUModel::createDevice(const OptionFlags &opts, bool, unsigned deviceManagerId) const {
  auto d = std::make_shared<detail::DeviceImpl>();
  d->target = createTarget(opts);
  d->model = true;
  d->id = deviceManagerId;
  return Device(d);
}

// Every public field, in declaration order (the header's list; keep the two together).
bool operator==(const IPUModel &a, const IPUModel &b) {
  return a.IPUVersion == b.IPUVersion &&
         a.numIPUs == b.numIPUs &&
         a.tilesPerIPU == b.tilesPerIPU &&
         a.memoryPerTile == b.memoryPerTile &&
         a.numWorkerContexts == b.numWorkerContexts &&
         a.dataPathWidth == b.dataPathWidth &&
         a.minIPUSyncDelay == b.minIPUSyncDelay &&
         a.globalSyncCycles == b.globalSyncCycles &&
         a.relativeSyncDelay == b.relativeSyncDelay &&
         a.exchangeBytesPerCycle == b.exchangeBytesPerCycle &&
         a.memcpyBytesPerCycle == b.memcpyBytesPerCycle &&
         a.tileClockFrequency == b.tileClockFrequency &&
         a.tilesCanShareExchangeBus == b.tilesCanShareExchangeBus &&
         a.tilesPerSharedExchangeBus == b.tilesPerSharedExchangeBus &&
         a.numStrideBits == b.numStrideBits &&
         a.rptCountMax == b.rptCountMax &&
         a.fp8ConvUnitMaxPipelineDepth == b.fp8ConvUnitMaxPipelineDepth &&
         a.fp16ConvUnitMaxPipelineDepth == b.fp16ConvUnitMaxPipelineDepth &&
         a.fp32ConvUnitMaxPipelineDepth == b.fp32ConvUnitMaxPipelineDepth &&
         a.fp8ConvUnitInputLoadElemsPerCycle == b.fp8ConvUnitInputLoadElemsPerCycle &&
         a.fp16ConvUnitInputLoadElemsPerCycle == b.fp16ConvUnitInputLoadElemsPerCycle &&
         a.fp32ConvUnitInputLoadElemsPerCycle == b.fp32ConvUnitInputLoadElemsPerCycle &&
         a.fp8InFp16OutConvUnitsPerTile == b.fp8InFp16OutConvUnitsPerTile &&
         a.fp16InFp16OutConvUnitsPerTile == b.fp16InFp16OutConvUnitsPerTile &&
         a.fp16InFp32OutConvUnitsPerTile == b.fp16InFp32OutConvUnitsPerTile &&
         a.fp32InFp32OutConvUnitsPerTile == b.fp32InFp32OutConvUnitsPerTile &&
         a.convUnitCoeffLoadBytesPerCycle == b.convUnitCoeffLoadBytesPerCycle &&
         a.globalExchangeConstraints == b.globalExchangeConstraints &&
         a.compileIPUCode == b.compileIPUCode &&
         a.tilesPerSuperTile == b.tilesPerSuperTile &&
         a.memoryBytesPerTile == b.memoryBytesPerTile &&
         a.supportsSuperTileSendReceive == b.supportsSuperTileSendReceive &&
         a.atomicStoreGranularity == b.atomicStoreGranularity &&
         a.interleavedMemoryElementIndex == b.interleavedMemoryElementIndex &&
         a.instructionBytes == b.instructionBytes &&
         a.globalExchangePacketBytes == b.globalExchangePacketBytes &&
         a.tileLocalSyncSyncDelay == b.tileLocalSyncSyncDelay &&
         a.tileLocalSyncExitDelay == b.tileLocalSyncExitDelay &&
         a.supervisorInstrFetchDelay == b.supervisorInstrFetchDelay &&
         a.workerInstrFetchDelay == b.workerInstrFetchDelay;
}

bool operator!=(const IPUModel &a, const IPUModel &b) { return !(a == b); }

} // namespace poplar
