// Targets: the seed's Target API over board values.
#include "poplar/Target.hpp"

#include <cstring>

#include "half.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar {

using detail::TargetValues;

Target::Target() {}
Target::Target(const Target &o) : v_(o.v_ ? new TargetValues(*o.v_) : nullptr) {}
Target &Target::operator=(const Target &o) {
  if (this != &o)
    v_.reset(o.v_ ? new TargetValues(*o.v_) : nullptr);
  return *this;
}
Target::~Target() = default;
Target::Target(const TargetValues &values) : v_(new TargetValues(values)) {}

const TargetValues &Target::values() const {
  if (!v_)
    throw poplar_error("invalid Target: get one from Device::getTarget() or Target::createIPUTarget()");
  return *v_;
}

bool Target::operator==(const Target &o) const {
  if (!v_ || !o.v_)
    return !v_ && !o.v_;
  return v_->type == o.v_->type && std::memcmp(&v_->board, &o.v_->board, sizeof v_->board) == 0;
}

TargetType Target::getTargetType() const { return values().type; }
std::string Target::getTargetSystemString() const { return values().board.name; }
std::string Target::getTargetArchString() const { return values().board.isa; }
unsigned Target::getNumIPUs() const { return values().board.num_ipus; }
unsigned Target::getTilesPerIPU() const { return values().board.tiles_per_ipu; }
unsigned Target::getNumTiles() const { return values().board.num_ipus * values().board.tiles_per_ipu; }
unsigned Target::getNumWorkerContexts() const { return values().board.worker_contexts; }
unsigned Target::getBytesPerTile() const { return values().board.bytes_per_tile; }
std::uint64_t Target::getMemoryBytes() const { return std::uint64_t(getBytesPerTile()) * getNumTiles(); }
unsigned Target::getExchangeBytesPerCycle() const { return values().board.exchange_bytes_per_cycle; }
unsigned Target::getMemcpyBytesPerCycle() const { return values().board.memcpy_bytes_per_cycle; }
unsigned Target::getMinIPUSyncDelay() const { return values().board.min_ipu_sync_delay; }
unsigned Target::getMaxIPUSyncDelay() const { return values().board.min_ipu_sync_delay + values().board.global_sync_cycles; }
unsigned Target::getGlobalSyncCycles() const { return values().board.global_sync_cycles; }
unsigned Target::getNumStrideBits() const { return values().board.num_stride_bits; }
unsigned Target::getDataPathWidth() const { return values().board.data_path_width; }
unsigned Target::getRptCountMax() const { return values().board.rpt_count_max; }
bool Target::supportsExchangeBusSharing() const { return values().board.tiles_per_shared_exchange_bus > 1; }
unsigned Target::getTilesPerSharedExchangeBus() const { return values().board.tiles_per_shared_exchange_bus; }
unsigned Target::getFloatVectorWidth() const { return getDataPathWidth() / 32; }
unsigned Target::getHalfVectorWidth() const { return getDataPathWidth() / 16; }
unsigned Target::getVectorWidth(const Type &type) const {
  return getDataPathWidth() / unsigned(8 * type.getSize());
}
double Target::getTileClockFrequency() const { return double(values().board.tile_clock_hz); }
std::size_t Target::getTypeSize(const Type &type) const { return type.getSize(); }
std::size_t Target::getAtomicStoreGranularity() const { return values().board.atomic_store_granularity; }

Target Target::createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const {
  TargetValues v = values();
  v.board.num_ipus = numIPUs;
  v.board.tiles_per_ipu = tilesPerIPU;
  return Target(v);
}

Target Target::createCPUTarget(bool, unsigned) {
  TargetValues v;
  v.type = TargetType::CPU;
  v.board = detail::loadBoard("tiny");
  std::snprintf(v.board.name, sizeof v.board.name, "cpu");
  std::snprintf(v.board.description, sizeof v.board.description, "CPU target: 1 tile, 1 worker");
  v.board.num_ipus = 1;
  v.board.tiles_per_ipu = 1;
  v.board.worker_contexts = 1;
  return Target(v);
}

Target Target::createIPUTarget(const std::string &system, const OptionFlags &opts) {
  return createIPUTarget(1, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, const std::string &system, const OptionFlags &opts) {
  ipu_board b = detail::loadBoard(system);
  return createIPUTarget(numIPUs, b.tiles_per_ipu, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, const std::string &system,
                               const OptionFlags &) {
  TargetValues v;
  v.type = TargetType::IPU;
  v.board = detail::loadBoard(system);
  v.boardSpec = system;
  if (numIPUs != 1)
    throw invalid_option("createIPUTarget: " + std::to_string(numIPUs) +
                         " IPUs asked for; the card model has one IPU per card (use numIPUs = 1)");
  v.board.tiles_per_ipu = tilesPerIPU;
  return Target(v);
}

void copyDeviceHalfToFloat(const Target &, const void *src, float *dst, std::size_t n) {
  const auto *p = static_cast<const std::uint8_t *>(src);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    dst[i] = detail::halfToFloat(h);
  }
}

void copyFloatToDeviceHalf(const Target &, const float *src, void *dst, std::size_t n) {
  auto *p = static_cast<std::uint8_t *>(dst);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint16_t h = detail::floatToHalf(src[i]);
    std::memcpy(p + 2 * i, &h, 2);
  }
}

void copyDeviceHalfToDouble(const Target &, const void *src, double *dst, std::size_t n) {
  const auto *p = static_cast<const std::uint8_t *>(src);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, p + 2 * i, 2);
    dst[i] = detail::halfToFloat(h);
  }
}

void copyDoubleToDeviceHalf(const Target &, const double *src, void *dst, std::size_t n) {
  auto *p = static_cast<std::uint8_t *>(dst);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint16_t h = detail::floatToHalf(float(src[i]));
    std::memcpy(p + 2 * i, &h, 2);
  }
}

} // namespace poplar
