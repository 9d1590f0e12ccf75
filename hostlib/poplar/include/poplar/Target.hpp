// A target: the numbers that describe the hardware a graph is built for (tiles, memory, workers, clock, ...).
#ifndef POPLAR_TARGET_HPP
#define POPLAR_TARGET_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "poplar/GlobalExchangeConstraints.hpp"
#include "poplar/IpuLinkConfiguration.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/TargetType.hpp"
#include "poplar/Type.hpp"
#include "poplar/TypeConversion.hpp"

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
  Target(Target &&other) noexcept;
  Target &operator=(const Target &other);
  Target &operator=(Target &&other) noexcept;
  ~Target();
  /// Internal: the target with these values.
  explicit Target(const detail::TargetValues &values);
  /// A target written by serialize(); throws poplar_error naming what is wrong with the stream's contents.
  explicit Target(std::istream &in);

  /// Writes every value of the target (a text format of this library; read it back with Target(std::istream&)).
  void serialize(std::ostream &out) const;
  /// A hash of the values operator== compares.
  std::size_t hash() const;
  /// True when both targets have the same type, board values and options (not the device they came from).
  bool operator==(const Target &o) const;
  bool operator!=(const Target &o) const { return !(*this == o); }
  /// A strict order consistent with operator== (for std::map keys).
  bool operator<(const Target &o) const;

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
  /// Start offsets of the tile's memory elements (SRAM reported in 64 KiB elements; the emulated SRAM has one
  /// bank, so the elements are bookkeeping only).
  const std::vector<unsigned> &getMemoryElementOffsets() const;
  /// The first memory element of interleaved memory: 0, as every emulated SRAM byte can be read twice per cycle.
  unsigned getInterleavedMemoryElementIndex() const;
  /// Constraints on IPU-to-IPU exchange: none, as a card has one IPU.
  const std::vector<GlobalExchangeConstraint> &getGlobalExchangeConstraints() const;
  /// Convolution-unit (AMP) figures: nominal values of the IPU generation the board is sized like (the emulated
  /// tile has no AMP; poplibs planners read them). Zero where the generation lacks the unit (fp8 before ipu21).
  unsigned getFp8ConvUnitMaxPipelineDepth() const;
  unsigned getFp16ConvUnitMaxPipelineDepth() const;
  unsigned getFp32ConvUnitMaxPipelineDepth() const;
  unsigned getFp8ConvUnitInputLoadElemsPerCycle() const;
  unsigned getFp16ConvUnitInputLoadElemsPerCycle() const;
  unsigned getFp32ConvUnitInputLoadElemsPerCycle() const;
  unsigned getFp16InFp16OutConvUnitsPerTile() const;
  unsigned getFp16InFp32OutConvUnitsPerTile() const;
  unsigned getFp32InFp32OutConvUnitsPerTile() const;
  unsigned getFp8InFp16OutConvUnitsPerTile() const;
  unsigned getConvUnitCoeffLoadBytesPerCycle() const;
  /// Weights one conv unit holds for `type`: getConvUnitCoeffLoadBytesPerCycle() / size of `type`.
  unsigned getWeightsPerConvUnit(const Type &type) const;
  /// getFp16/Fp32ConvUnitInputLoadElemsPerCycle() for HALF / FLOAT; throws poplar_error for other types.
  unsigned getConvUnitInputLoadElemsPerCycle(const Type &type) const;
  /// getFp16/Fp32ConvUnitMaxPipelineDepth() for HALF / FLOAT partials; throws poplar_error for other types.
  unsigned getConvUnitMaxPipelineDepth(const Type &partialsType) const;
  /// Conv units per tile for the activation and partials types (HALF/HALF, HALF/FLOAT, FLOAT/FLOAT; 0 else).
  unsigned getNumConvUnits(const Type &activationsType, const Type &partialsType) const;
  /// getDataPathWidth() / 8 (one-byte quarter-precision elements).
  unsigned getQuarterVectorWidth() const;
  /// getDataPathWidth() / 8, as the metadata of a quarter vector is one byte.
  unsigned getQuarterMetadataVectorWidth() const;
  /// Host-exchange layout: tiles per exchange-block context and contexts per exchange block.
  unsigned getNumTilesPerXBContext() const;
  unsigned getNumContextsPerXB() const;
  /// The exchange block, the context in it, and the position in that context of `tile`; throws index_error for a
  /// tile beyond getNumTiles().
  unsigned getTileHostExchangeXB(unsigned tile) const;
  unsigned getTileHostExchangeContext(unsigned tile) const;
  unsigned getTileHostExchangeContextPosition(unsigned tile) const;
  /// The largest finite value of `type` as T (double, std::int64_t or std::uint64_t); throws poplar_error when it
  /// is not exactly representable as T (FLOAT's maximum as an integer).
  template <typename T> T getTypeLimitsMaxAs(const Type &type) const;
  /// The lowest finite value of `type` as T; throws poplar_error when it is not representable (INT's as uint64).
  template <typename T> T getTypeLimitsLowestAs(const Type &type) const;
  /// A value for the tile's floating-point control CSR (getFpIctlRegIndex(): FCSR, the RISC-V F extension's):
  /// round to nearest even with the flags clear. The RISC-V FPU never traps and has no stochastic rounding, so
  /// the five requests are accepted and have no effect; the result is 0 for every combination.
  std::uint32_t makeFpIctlValue(bool inv, bool div0, bool oflo, bool esr, bool nanoo) const;
  /// The CSR number of the tile's floating-point control register (FCSR, 0x003).
  unsigned getFpIctlRegIndex() const;
  /// The CSR number of the tile's debug-data register (the CONSOLE CSR, which carries printf output).
  unsigned getDbgDataRegIndex() const;
  /// The IPU-Link configuration (option ipuLinkConfiguration; Default up to 16 IPUs, else SlidingWindow).
  IpuLinkConfiguration getIpuLinkConfiguration() const;
  /// The IPU-Link topology (option ipuLinkTopology, default Mesh).
  IpuLinkTopology getIpuLinkTopology() const;
  /// The IPUs connected by IPU-Links (option ipuLinkDomainSize, default 64).
  unsigned getIpuLinkDomainSize() const;
  /// The sync configuration (option syncConfiguration, default IntraReplicaAndAll).
  SyncConfiguration getSyncConfiguration() const;
  /// IPUs in the instance the target describes (getNumIPUs()).
  unsigned getInstanceSize() const;
  /// False: no gateway links on an emulated card.
  bool getGatewayMode() const;
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

  /// The CPU target: one tile per IPU, one worker (runs on the "tiny" board's model).
  static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
  /// The target of an IPU system by name: an IPU version ("ipu1", "ipu2", "ipu21"), a board in boards/, or a
  /// system name ("C600" is ipu21; "IPU-POD16", "IPU-POD64", ... are ipu2) with one IPU, as a card has one.
  /// `opts` are the target options (ipuLinkConfiguration, ipuLinkTopology, syncConfiguration, ipuLinkDomainSize),
  /// overridden by the JSON object in POPLAR_TARGET_OPTIONS; an unknown option or a bad value throws
  /// poplar::invalid_option naming it.
  static Target createIPUTarget(const std::string &system, const OptionFlags &opts = OptionFlags());
  /// As above with `numIPUs` IPUs (1 .. 64) of `system`'s kind on one card; a system name of several IPUs
  /// ("IPU-POD16") gives that many without the count.
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

template <> double Target::getTypeLimitsMaxAs<double>(const Type &type) const;
template <> std::int64_t Target::getTypeLimitsMaxAs<std::int64_t>(const Type &type) const;
template <> std::uint64_t Target::getTypeLimitsMaxAs<std::uint64_t>(const Type &type) const;
template <> double Target::getTypeLimitsLowestAs<double>(const Type &type) const;
template <> std::int64_t Target::getTypeLimitsLowestAs<std::int64_t>(const Type &type) const;
template <> std::uint64_t Target::getTypeLimitsLowestAs<std::uint64_t>(const Type &type) const;

/// Converts `numElements` device HALF values at `src` to floats (IEEE binary16, as the tiles store HALF).
void copyDeviceHalfToFloat(const Target &target, const void *src, float *dst, std::size_t numElements);
/// Converts floats to device HALF values, rounding to nearest even.
void copyFloatToDeviceHalf(const Target &target, const float *src, void *dst, std::size_t numElements);
/// As copyDeviceHalfToFloat, to doubles.
void copyDeviceHalfToDouble(const Target &target, const void *src, double *dst, std::size_t numElements);
/// As copyFloatToDeviceHalf, from doubles.
void copyDoubleToDeviceHalf(const Target &target, const double *src, void *dst, std::size_t numElements);

} // namespace poplar

namespace std {
/// Hashes a Target by its values (Target::hash()), so targets can key unordered containers.
template <> struct hash<poplar::Target> {
  size_t operator()(const poplar::Target &t) const { return t.hash(); }
};
} // namespace std

#endif // POPLAR_TARGET_HPP
