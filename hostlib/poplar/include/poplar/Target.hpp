// A target: the numbers that describe the hardware a graph is built for (tiles, memory, workers, clock, ...).
#ifndef POPLAR_TARGET_HPP
#define POPLAR_TARGET_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "poplar/OptionFlags.hpp"
#include "poplar/TargetType.hpp"
#include "poplar/Type.hpp"

namespace poplar {

namespace detail {
struct TargetValues;
}

/// What a graph is compiled for. The values come from a board description (boards/*.toml): ipu1, ipu2, tiny,
/// a board the user configured through IPUModel, or the card the driver found.
class Target {
public:
  /// An invalid target.
  Target();
  Target(const Target &other);
  Target &operator=(const Target &other);
  ~Target();
  /// Internal: the target with these values.
  explicit Target(const detail::TargetValues &values);

  bool operator==(const Target &o) const;
  bool operator!=(const Target &o) const { return !(*this == o); }

  /// IPU, IPU_MODEL or CPU.
  TargetType getTargetType() const;
  /// The board name ("ipu2", "tiny", "cpu").
  std::string getTargetSystemString() const;
  /// The tile ISA ("rv32imf").
  std::string getTargetArchString() const;
  unsigned getNumIPUs() const;
  unsigned getTilesPerIPU() const;
  /// Tiles in total (tiles per IPU times IPUs).
  unsigned getNumTiles() const;
  /// Worker contexts per tile (6 on IPU boards, 1 for the CPU target).
  unsigned getNumWorkerContexts() const;
  unsigned getBytesPerTile() const;
  /// Bytes of tile memory in total.
  std::uint64_t getMemoryBytes() const;
  unsigned getExchangeBytesPerCycle() const;
  unsigned getMemcpyBytesPerCycle() const;
  unsigned getMinIPUSyncDelay() const;
  unsigned getMaxIPUSyncDelay() const;
  unsigned getGlobalSyncCycles() const;
  unsigned getNumStrideBits() const;
  unsigned getDataPathWidth() const;
  unsigned getRptCountMax() const;
  bool supportsExchangeBusSharing() const;
  unsigned getTilesPerSharedExchangeBus() const;
  /// getDataPathWidth() / 32.
  unsigned getFloatVectorWidth() const;
  /// getDataPathWidth() / 16.
  unsigned getHalfVectorWidth() const;
  /// getDataPathWidth() / (8 * size of `type`).
  unsigned getVectorWidth(const Type &type) const;
  /// Tile clock in Hz.
  double getTileClockFrequency() const;
  /// Bytes per element of `type` on the device.
  std::size_t getTypeSize(const Type &type) const;
  std::size_t getAtomicStoreGranularity() const;
  /// A target with the same tiles' values but `numIPUs` x `tilesPerIPU` tiles.
  Target createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const;

  /// The CPU target: one tile, one worker (runs on the "tiny" board's model with one tile enabled).
  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
  /// The target of an IPU system by name ("ipu1", "ipu2", any board in boards/).
  static Target createIPUTarget(const std::string &system, const OptionFlags &opts = OptionFlags());
  /// As above with `numIPUs` IPUs.
  static Target createIPUTarget(unsigned numIPUs, const std::string &system,
                                const OptionFlags &opts = OptionFlags());
  /// As above with `tilesPerIPU` tiles on each IPU.
  static Target createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, const std::string &system,
                                const OptionFlags &opts = OptionFlags());

  /// Internal: every value.
  const detail::TargetValues &values() const;

private:
  std::unique_ptr<detail::TargetValues> v_;
};

/// Converts `numElements` device HALF values at `src` to floats (IEEE binary16, as the tiles store HALF).
void copyDeviceHalfToFloat(const Target &target, const void *src, float *dst, std::size_t numElements);
/// Converts floats to device HALF values, rounding to nearest even.
void copyFloatToDeviceHalf(const Target &target, const float *src, void *dst, std::size_t numElements);
/// As copyDeviceHalfToFloat, to doubles.
void copyDeviceHalfToDouble(const Target &target, const void *src, double *dst, std::size_t numElements);
/// As copyFloatToDeviceHalf, from doubles.
void copyDoubleToDeviceHalf(const Target &target, const double *src, void *dst, std::size_t numElements);

} // namespace poplar

#endif // POPLAR_TARGET_HPP
