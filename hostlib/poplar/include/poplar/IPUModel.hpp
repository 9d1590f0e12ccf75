// The IPU Model: the in-process card model configured like a Mk1 ("ipu1") or Mk2 ("ipu2") IPU, or any size.
#ifndef POPLAR_IPU_MODEL_HPP
#define POPLAR_IPU_MODEL_HPP

#include <string>
#include <vector>

#include "poplar/Device.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Target.hpp"

namespace poplar {

/// Settings of a simulated IPU. Start from a version's values, change any field, then createDevice().
/// Fields that shape the card (tiles, memory, workers) are checked by createTarget(); the timing fields feed the
/// card model's cycle counts; the convolution-unit fields are what Target reports (the tile has no AMP unit).
struct IPUModel {
  /// How the model delays a tile's sync relative to the fastest tile.
  enum class RelativeSyncDelayType {
    NO_DELAY, ///< every tile syncs after minIPUSyncDelay cycles
    AUTO      ///< the delay grows with the tile's distance from the sync controller
  };

  /// Values of `ipuVersion` ("ipu1": 1216 tiles x 256 KiB, "ipu2": 1472 tiles x 624 KiB, "ipu21": ipu2 with fp8
  /// conv units, or any board name). Throws poplar::invalid_option naming the known versions when it is unknown.
  explicit IPUModel(const char *ipuVersion = "ipu2");

  std::string IPUVersion;          ///< the board the values came from
  unsigned numIPUs;                ///< IPUs (1 .. 64): tiles ipu * tilesPerIPU .. of one card, joined by IPU-Links
  unsigned tilesPerIPU;            ///< tiles on each IPU
  unsigned memoryPerTile;          ///< bytes of SRAM per tile (at most 1 MiB)
  unsigned numWorkerContexts;      ///< worker contexts per tile (at most 6)
  unsigned dataPathWidth;          ///< bits of the load/store path (Target::getDataPathWidth)
  unsigned minIPUSyncDelay;        ///< sync delay of the tile nearest the sync controller, cycles
  unsigned globalSyncCycles;       ///< cycles added at each sync
  RelativeSyncDelayType relativeSyncDelay; ///< kept for the API: the card model syncs every tile alike (NO_DELAY)
  unsigned exchangeBytesPerCycle;  ///< exchange bandwidth per tile
  unsigned memcpyBytesPerCycle;    ///< on-tile copy bandwidth
  double tileClockFrequency;       ///< Hz
  bool tilesCanShareExchangeBus;   ///< Target::supportsExchangeBusSharing
  unsigned tilesPerSharedExchangeBus; ///< Target::getTilesPerSharedExchangeBus when sharing
  unsigned numStrideBits;          ///< Target::getNumStrideBits
  unsigned rptCountMax;            ///< Target::getRptCountMax
  unsigned fp8ConvUnitMaxPipelineDepth;       ///< Target::getFp8ConvUnitMaxPipelineDepth
  unsigned fp16ConvUnitMaxPipelineDepth;      ///< Target::getFp16ConvUnitMaxPipelineDepth
  unsigned fp32ConvUnitMaxPipelineDepth;      ///< Target::getFp32ConvUnitMaxPipelineDepth
  unsigned fp8ConvUnitInputLoadElemsPerCycle; ///< Target::getFp8ConvUnitInputLoadElemsPerCycle
  unsigned fp16ConvUnitInputLoadElemsPerCycle; ///< Target::getFp16ConvUnitInputLoadElemsPerCycle
  unsigned fp32ConvUnitInputLoadElemsPerCycle; ///< Target::getFp32ConvUnitInputLoadElemsPerCycle
  unsigned fp8InFp16OutConvUnitsPerTile;      ///< Target::getFp8InFp16OutConvUnitsPerTile
  unsigned fp16InFp16OutConvUnitsPerTile;     ///< Target::getFp16InFp16OutConvUnitsPerTile
  unsigned fp16InFp32OutConvUnitsPerTile;     ///< Target::getFp16InFp32OutConvUnitsPerTile
  unsigned fp32InFp32OutConvUnitsPerTile;     ///< Target::getFp32InFp32OutConvUnitsPerTile
  unsigned convUnitCoeffLoadBytesPerCycle;    ///< Target::getConvUnitCoeffLoadBytesPerCycle
  /// Bandwidth limits between IPUs that Target::getGlobalExchangeConstraints reports (flows name IPUs below
  /// numIPUs; bandwidth > 0). The card's IPU-Link timing itself comes from the board's link figures.
  std::vector<GlobalExchangeConstraint> globalExchangeConstraints;
  /// Whether the memory profile counts the tiles' code. Tile code is always compiled (the card model runs it);
  /// false only leaves code out of Engine::printProfileSummary's memory figures, as the SDK's model reports
  /// memory without code. Default true, so profiles show what the tiles hold.
  bool compileIPUCode;

  // The SDK 2.x names of IPUModel's fields (docs/ipu-model.md, "SDK 2.x fields"). Three are other names of fields
  // above: when only one of a pair differs from the version's value, that one is used; when both do and they
  // disagree, createTarget() throws invalid_option naming both.
  unsigned tilesPerSuperTile;             ///< = tilesPerSharedExchangeBus (ipu2: 2)
  unsigned memoryBytesPerTile;            ///< = memoryPerTile (ipu2: 638976): sets the tiles' memory
  bool supportsSuperTileSendReceive;      ///< = tilesCanShareExchangeBus (ipu2: true)
  unsigned atomicStoreGranularity;        ///< Target::getAtomicStoreGranularity: a power of two, 1 .. 64 (ipu2: 4)
  unsigned interleavedMemoryElementIndex; ///< Target::getInterleavedMemoryElementIndex (0: all memory interleaved)
  // Accepted, checked (1 .. 4096) and without effect: the card model has no such timing (docs/ipu-model.md).
  unsigned instructionBytes;              ///< 4: the tile ISA's instruction size
  unsigned globalExchangePacketBytes;     ///< 256
  unsigned tileLocalSyncSyncDelay;        ///< cycles; one barrel round (numWorkerContexts)
  unsigned tileLocalSyncExitDelay;        ///< cycles; one barrel round (numWorkerContexts)
  unsigned supervisorInstrFetchDelay;     ///< bytes fetched ahead; one load/store path (dataPathWidth / 8)
  unsigned workerInstrFetchDelay;         ///< bytes fetched ahead; one load/store path (dataPathWidth / 8)

  /// A device for these settings (not attached yet; Engine::load() attaches it). `opts` are target options as
  /// Target::createIPUTarget takes them; `accurateHalf` is accepted (HALF is always IEEE binary16 here).
  Device createDevice(const OptionFlags &opts = OptionFlags(), bool accurateHalf = false,
                      unsigned deviceManagerId = 0) const;
  /// The target these settings describe, with target options `opts`.
  Target createTarget(const OptionFlags &opts = OptionFlags()) const;
};

/// Whether two models have the same values in every field.
bool operator==(const IPUModel &a, const IPUModel &b);
/// !(a == b).
bool operator!=(const IPUModel &a, const IPUModel &b);

} // namespace poplar

#endif // POPLAR_IPU_MODEL_HPP
