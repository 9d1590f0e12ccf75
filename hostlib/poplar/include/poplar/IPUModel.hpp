// The IPU Model: the in-process card model configured like a Mk1 ("ipu1") or Mk2 ("ipu2") IPU, or any size.
#ifndef POPLAR_IPU_MODEL_HPP
#define POPLAR_IPU_MODEL_HPP

#include <string>

#include "poplar/Device.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/Target.hpp"

namespace poplar {

/// Settings of a simulated IPU. Start from a version's values, change any field, then createDevice().
struct IPUModel {
  /// Values of `ipuVersion` ("ipu1": 1216 tiles x 256 KiB, "ipu2": 1472 tiles x 624 KiB, or any board name).
  /// Throws poplar::invalid_option naming the known versions when it is unknown.
  explicit IPUModel(const char *ipuVersion = "ipu2");

  std::string IPUVersion;          ///< the board the values came from
  unsigned numIPUs;                ///< IPUs (only 1 is supported by the card model)
  unsigned tilesPerIPU;            ///< tiles on each IPU
  unsigned memoryPerTile;          ///< bytes of SRAM per tile (at most 1 MiB)
  unsigned numWorkerContexts;      ///< worker contexts per tile (at most 6)
  unsigned minIPUSyncDelay;        ///< sync delay, cycles
  unsigned globalSyncCycles;       ///< cycles added at each sync
  unsigned exchangeBytesPerCycle;  ///< exchange bandwidth per tile
  unsigned memcpyBytesPerCycle;    ///< on-tile copy bandwidth
  double tileClockFrequency;       ///< Hz
  bool compileIPUCode;             ///< kept for compatibility: code is always compiled for the tiles
  unsigned relativeSyncDelay;      ///< kept for compatibility
  bool tilesCanShareExchangeBus;   ///< kept for compatibility

  /// A device for these settings (not attached yet; Engine::load() attaches it).
  Device createDevice(const OptionFlags &opts = OptionFlags(), bool accurateHalf = false,
                      unsigned deviceManagerId = 0) const;
  /// The target these settings describe.
  Target createTarget() const;
};

} // namespace poplar

#endif // POPLAR_IPU_MODEL_HPP
