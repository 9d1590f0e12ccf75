// Targets: the seed's Target API over board values.
#include "poplar/Target.hpp"

#include <cerrno>
#include <cfloat>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>

#include "half.hpp"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"
#include "ipu_card/hw.h"

namespace poplar {

using detail::TargetValues;

namespace {
/// Recomputes the values derived from the others (after any change of bytes per tile).
void fillDerived(TargetValues &v) {
  // Targets made elsewhere (DeviceManager's device targets) get the board's nominal values and the environment's
  // options here.
  if (!v.archSet) {
    v.arch = detail::archFor(v.board);
    v.archSet = true;
  }
  if (!v.optionsSet) {
    v.options = detail::parseTargetOptions(OptionFlags());
    v.optionsSet = true;
  }
  v.memoryElementOffsets.clear();
  std::uint64_t step = v.arch.memoryElementBytes ? v.arch.memoryElementBytes : v.board.bytes_per_tile;
  for (std::uint64_t off = 0; step && off < v.board.bytes_per_tile; off += step)
    v.memoryElementOffsets.push_back(unsigned(off));
}
} // namespace

Target::Target() {}
Target::Target(const Target &o) : v_(o.v_ ? new TargetValues(*o.v_) : nullptr) {}
Target::Target(Target &&o) noexcept : v_(std::move(o.v_)) {}
Target &Target::operator=(Target &&o) noexcept {
  v_ = std::move(o.v_);
  return *this;
}
Target &Target::operator=(const Target &o) {
  if (this != &o)
    v_.reset(o.v_ ? new TargetValues(*o.v_) : nullptr);
  return *this;
}
Target::~Target() = default;
Target::Target(const TargetValues &values) : v_(new TargetValues(values)) { fillDerived(*v_); }

const TargetValues &Target::values() const {
  if (!v_)
    throw poplar_error("invalid Target: get one from Device::getTarget() or Target::createIPUTarget()");
  return *v_;
}

namespace {

/// One serialised value: its key, how to print it and how to read it back.
struct Field {
  const char *key;
  std::function<std::string(const TargetValues &)> get;
  std::function<void(TargetValues &, const std::string &)> set;
};

unsigned long long parseNumber(const std::string &key, const std::string &text) {
  char *end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || !end || *end || errno)
    throw poplar_error("Target(std::istream&): value '" + text + "' of " + key + " is not a whole number");
  return n;
}

#define POPLAR_NUM_FIELD(key, member, type)                                                                          \
  Field {                                                                                                            \
    key, [](const TargetValues &v) { return std::to_string(v.member); },                                            \
        [](TargetValues &v, const std::string &t) {                                                                  \
          unsigned long long n = parseNumber(key, t);                                                                \
          if (n > std::numeric_limits<type>::max())                                                                  \
            throw poplar_error(std::string("Target(std::istream&): ") + key + " = " + t + " is out of range");       \
          v.member = type(n);                                                                                        \
        }                                                                                                            \
  }
/// A board key as a serialised value: the board reader's table names the keys and its rules read them back, so
/// no second list of the board's keys lives here.
Field boardField(const char *key) {
  return Field{key,
               [key](const TargetValues &v) {
                 char text[IPU_BOARD_TEXT_MAX + 1];
                 ipu_board_get(&v.board, key, text, sizeof text);
                 return std::string(text);
               },
               [key](TargetValues &v, const std::string &t) {
                 char err[400];
                 if (ipu_board_set(&v.board, key, t.c_str(), "Target(std::istream&)", err, sizeof err) != 0)
                   throw poplar_error(err);
               }};
}

/// Every value of a target, in serialisation order. The first two are the device binding, which comparison and
/// hashing leave out.
const std::vector<Field> &fields() {
  static const std::vector<Field> f = [] {
    std::vector<Field> head = {
      Field{"boardSpec", [](const TargetValues &v) { return v.boardSpec; },
            [](TargetValues &v, const std::string &t) { v.boardSpec = t; }},
      POPLAR_NUM_FIELD("deviceId", deviceId, unsigned),
      Field{"type", [](const TargetValues &v) { return toString(v.type); },
            [](TargetValues &v, const std::string &t) {
              if (t == "IPU")
                v.type = TargetType::IPU;
              else if (t == "IPU_MODEL")
                v.type = TargetType::IPU_MODEL;
              else if (t == "CPU")
                v.type = TargetType::CPU;
              else
                throw poplar_error("Target(std::istream&): unknown target type '" + t + "'");
            }},
      POPLAR_NUM_FIELD("compileIPUCode", compileIPUCode, bool),
    };
    for (std::size_t i = 0; ipu_board_key_name(i); ++i)
      head.push_back(boardField(ipu_board_key_name(i)));
    const std::vector<Field> tail = {
      POPLAR_NUM_FIELD("fp8ConvUnitMaxPipelineDepth", arch.fp8ConvUnitMaxPipelineDepth, unsigned),
      POPLAR_NUM_FIELD("fp16ConvUnitMaxPipelineDepth", arch.fp16ConvUnitMaxPipelineDepth, unsigned),
      POPLAR_NUM_FIELD("fp32ConvUnitMaxPipelineDepth", arch.fp32ConvUnitMaxPipelineDepth, unsigned),
      POPLAR_NUM_FIELD("fp8ConvUnitInputLoadElemsPerCycle", arch.fp8ConvUnitInputLoadElemsPerCycle, unsigned),
      POPLAR_NUM_FIELD("fp16ConvUnitInputLoadElemsPerCycle", arch.fp16ConvUnitInputLoadElemsPerCycle, unsigned),
      POPLAR_NUM_FIELD("fp32ConvUnitInputLoadElemsPerCycle", arch.fp32ConvUnitInputLoadElemsPerCycle, unsigned),
      POPLAR_NUM_FIELD("fp8InFp16OutConvUnitsPerTile", arch.fp8InFp16OutConvUnitsPerTile, unsigned),
      POPLAR_NUM_FIELD("fp16InFp16OutConvUnitsPerTile", arch.fp16InFp16OutConvUnitsPerTile, unsigned),
      POPLAR_NUM_FIELD("fp16InFp32OutConvUnitsPerTile", arch.fp16InFp32OutConvUnitsPerTile, unsigned),
      POPLAR_NUM_FIELD("fp32InFp32OutConvUnitsPerTile", arch.fp32InFp32OutConvUnitsPerTile, unsigned),
      POPLAR_NUM_FIELD("convUnitCoeffLoadBytesPerCycle", arch.convUnitCoeffLoadBytesPerCycle, unsigned),
      POPLAR_NUM_FIELD("numTilesPerXBContext", arch.numTilesPerXBContext, unsigned),
      POPLAR_NUM_FIELD("numContextsPerXB", arch.numContextsPerXB, unsigned),
      POPLAR_NUM_FIELD("memoryElementBytes", arch.memoryElementBytes, unsigned),
      Field{"ipuLinkConfiguration",
            [](const TargetValues &v) {
              return v.options.linkConfigurationSet ? std::to_string(int(v.options.linkConfiguration))
                                                    : std::string("auto");
            },
            [](TargetValues &v, const std::string &t) {
              v.options.linkConfigurationSet = t != "auto";
              if (v.options.linkConfigurationSet) {
                unsigned long long n = parseNumber("ipuLinkConfiguration", t);
                if (n > unsigned(IpuLinkConfiguration::SlidingWindow))
                  throw poplar_error("Target(std::istream&): ipuLinkConfiguration " + t + " is out of range");
                v.options.linkConfiguration = IpuLinkConfiguration(n);
              }
            }},
      Field{"ipuLinkTopology", [](const TargetValues &v) { return std::to_string(int(v.options.linkTopology)); },
            [](TargetValues &v, const std::string &t) {
              unsigned long long n = parseNumber("ipuLinkTopology", t);
              if (n > unsigned(IpuLinkTopology::Line))
                throw poplar_error("Target(std::istream&): ipuLinkTopology " + t + " is out of range");
              v.options.linkTopology = IpuLinkTopology(n);
            }},
      Field{"syncConfiguration",
            [](const TargetValues &v) { return std::to_string(int(v.options.syncConfiguration)); },
            [](TargetValues &v, const std::string &t) {
              unsigned long long n = parseNumber("syncConfiguration", t);
              if (n > unsigned(SyncConfiguration::IpuAndAll))
                throw poplar_error("Target(std::istream&): syncConfiguration " + t + " is out of range");
              v.options.syncConfiguration = SyncConfiguration(n);
            }},
      POPLAR_NUM_FIELD("ipuLinkDomainSize", options.linkDomainSize, unsigned),
    };
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  }();
  return f;
}
#undef POPLAR_NUM_FIELD

const char kMagic[] = "poplar-target 1";
constexpr std::size_t kBindingFields = 2;

/// The compared values as one string: every field but the device binding.
std::string canonical(const TargetValues &v) {
  std::string out;
  const auto &f = fields();
  for (std::size_t i = kBindingFields; i < f.size(); ++i)
    out += std::string(f[i].key) + "=" + f[i].get(v) + "\n";
  return out;
}

} // namespace

Target::Target(std::istream &in) {
  std::string line;
  if (!std::getline(in, line) || line != kMagic)
    throw poplar_error("Target(std::istream&): the stream does not start with '" + std::string(kMagic) +
                       "'; pass what Target::serialize wrote");
  TargetValues v;
  v.archSet = v.optionsSet = true;
  const auto &f = fields();
  std::vector<bool> seen(f.size(), false);
  while (std::getline(in, line) && line != "end") {
    std::size_t sp = line.find(' ');
    std::string key = line.substr(0, sp), value = sp == std::string::npos ? "" : line.substr(sp + 1);
    std::size_t i = 0;
    while (i < f.size() && key != f[i].key)
      ++i;
    if (i == f.size())
      throw poplar_error("Target(std::istream&): unknown key '" + key + "'");
    f[i].set(v, value);
    seen[i] = true;
  }
  if (line != "end")
    throw poplar_error("Target(std::istream&): the stream ends before 'end'; it was cut short");
  for (std::size_t i = 0; i < f.size(); ++i)
    if (!seen[i])
      throw poplar_error("Target(std::istream&): key '" + std::string(f[i].key) + "' is missing");
  fillDerived(v);
  v_.reset(new TargetValues(v));
}

void Target::serialize(std::ostream &out) const {
  const TargetValues &v = values();
  out << kMagic << "\n";
  for (const Field &f : fields())
    out << f.key << " " << f.get(v) << "\n";
  out << "end\n";
}

std::size_t Target::hash() const {
  if (!v_)
    return 0;
  return std::hash<std::string>()(canonical(*v_));
}

bool Target::operator==(const Target &o) const {
  if (!v_ || !o.v_)
    return !v_ && !o.v_;
  return canonical(*v_) == canonical(*o.v_);
}

bool Target::operator<(const Target &o) const {
  if (!v_ || !o.v_)
    return !v_ && o.v_;
  return canonical(*v_) < canonical(*o.v_);
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

const std::vector<unsigned> &Target::getMemoryElementOffsets() const { return values().memoryElementOffsets; }

unsigned Target::getInterleavedMemoryElementIndex() const { return values().arch.interleavedMemoryElementIndex; }

const std::vector<GlobalExchangeConstraint> &Target::getGlobalExchangeConstraints() const {
  return values().globalExchangeConstraints;
}

unsigned Target::getFp8ConvUnitMaxPipelineDepth() const { return values().arch.fp8ConvUnitMaxPipelineDepth; }
unsigned Target::getFp16ConvUnitMaxPipelineDepth() const { return values().arch.fp16ConvUnitMaxPipelineDepth; }
unsigned Target::getFp32ConvUnitMaxPipelineDepth() const { return values().arch.fp32ConvUnitMaxPipelineDepth; }
unsigned Target::getFp8ConvUnitInputLoadElemsPerCycle() const {
  return values().arch.fp8ConvUnitInputLoadElemsPerCycle;
}
unsigned Target::getFp16ConvUnitInputLoadElemsPerCycle() const {
  return values().arch.fp16ConvUnitInputLoadElemsPerCycle;
}
unsigned Target::getFp32ConvUnitInputLoadElemsPerCycle() const {
  return values().arch.fp32ConvUnitInputLoadElemsPerCycle;
}
unsigned Target::getFp16InFp16OutConvUnitsPerTile() const { return values().arch.fp16InFp16OutConvUnitsPerTile; }
unsigned Target::getFp16InFp32OutConvUnitsPerTile() const { return values().arch.fp16InFp32OutConvUnitsPerTile; }
unsigned Target::getFp32InFp32OutConvUnitsPerTile() const { return values().arch.fp32InFp32OutConvUnitsPerTile; }
unsigned Target::getFp8InFp16OutConvUnitsPerTile() const { return values().arch.fp8InFp16OutConvUnitsPerTile; }
unsigned Target::getConvUnitCoeffLoadBytesPerCycle() const { return values().arch.convUnitCoeffLoadBytesPerCycle; }

unsigned Target::getWeightsPerConvUnit(const Type &type) const {
  if (!type.isValid())
    throw poplar_error("Target::getWeightsPerConvUnit: invalid type");
  return getConvUnitCoeffLoadBytesPerCycle() / unsigned(type.getSize());
}

unsigned Target::getConvUnitInputLoadElemsPerCycle(const Type &type) const {
  if (type == HALF)
    return getFp16ConvUnitInputLoadElemsPerCycle();
  if (type == FLOAT)
    return getFp32ConvUnitInputLoadElemsPerCycle();
  throw poplar_error("Target::getConvUnitInputLoadElemsPerCycle: conv units take half or float, not " +
                     type.toString());
}

unsigned Target::getConvUnitMaxPipelineDepth(const Type &partialsType) const {
  if (partialsType == HALF)
    return getFp16ConvUnitMaxPipelineDepth();
  if (partialsType == FLOAT)
    return getFp32ConvUnitMaxPipelineDepth();
  throw poplar_error("Target::getConvUnitMaxPipelineDepth: partials are half or float, not " +
                     partialsType.toString());
}

unsigned Target::getNumConvUnits(const Type &activations, const Type &partials) const {
  if (activations == HALF && partials == HALF)
    return getFp16InFp16OutConvUnitsPerTile();
  if (activations == HALF && partials == FLOAT)
    return getFp16InFp32OutConvUnitsPerTile();
  if (activations == FLOAT && partials == FLOAT)
    return getFp32InFp32OutConvUnitsPerTile();
  return 0;
}

unsigned Target::getQuarterVectorWidth() const { return getDataPathWidth() / 8; }
unsigned Target::getQuarterMetadataVectorWidth() const { return getDataPathWidth() / 8; }
unsigned Target::getNumTilesPerXBContext() const { return values().arch.numTilesPerXBContext; }
unsigned Target::getNumContextsPerXB() const { return values().arch.numContextsPerXB; }

namespace {
void checkTile(const Target &t, unsigned tile, const char *what) {
  if (tile >= t.getNumTiles())
    throw index_error(std::string("Target::") + what + "(" + std::to_string(tile) + "): the target has " +
                      std::to_string(t.getNumTiles()) + " tiles");
}
} // namespace

unsigned Target::getTileHostExchangeXB(unsigned tile) const {
  checkTile(*this, tile, "getTileHostExchangeXB");
  return tile / (getNumTilesPerXBContext() * getNumContextsPerXB());
}

unsigned Target::getTileHostExchangeContext(unsigned tile) const {
  checkTile(*this, tile, "getTileHostExchangeContext");
  return (tile / getNumTilesPerXBContext()) % getNumContextsPerXB();
}

unsigned Target::getTileHostExchangeContextPosition(unsigned tile) const {
  checkTile(*this, tile, "getTileHostExchangeContextPosition");
  return tile % getNumTilesPerXBContext();
}

namespace {

/// The largest and lowest finite values of a type, exactly, as long double (every limit of the nine types fits).
void typeLimits(const Type &t, long double &lowest, long double &max) {
  if (t == FLOAT) {
    max = FLT_MAX;
    lowest = -FLT_MAX;
  } else if (t == HALF) {
    max = 65504;
    lowest = -65504;
  } else if (t == INT) {
    max = 2147483647.0L;
    lowest = -2147483648.0L;
  } else if (t == UNSIGNED_INT) {
    max = 4294967295.0L;
    lowest = 0;
  } else if (t == SHORT) {
    max = 32767;
    lowest = -32768;
  } else if (t == UNSIGNED_SHORT) {
    max = 65535;
    lowest = 0;
  } else if (t == CHAR) {
    max = 127;
    lowest = -128;
  } else if (t == UNSIGNED_CHAR) {
    max = 255;
    lowest = 0;
  } else if (t == BOOL) {
    max = 1;
    lowest = 0;
  } else {
    throw poplar_error("Target::getTypeLimits: invalid type");
  }
}

template <typename T> T limitAs(const Type &t, bool wantMax, const char *asName) {
  long double lo, hi;
  typeLimits(t, lo, hi);
  long double x = wantMax ? hi : lo;
  bool fits = x >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
              x <= static_cast<long double>(std::numeric_limits<T>::max());
  if (!fits || static_cast<long double>(static_cast<T>(x)) != x)
    throw poplar_error(std::string("Target::getTypeLimits") + (wantMax ? "Max" : "Lowest") + "As<" + asName +
                       ">(" + t.toString() + "): the value is not exactly representable as " + asName);
  return static_cast<T>(x);
}

} // namespace

template <> double Target::getTypeLimitsMaxAs<double>(const Type &t) const { return limitAs<double>(t, true, "double"); }
template <> std::int64_t Target::getTypeLimitsMaxAs<std::int64_t>(const Type &t) const {
  return limitAs<std::int64_t>(t, true, "int64_t");
}
template <> std::uint64_t Target::getTypeLimitsMaxAs<std::uint64_t>(const Type &t) const {
  return limitAs<std::uint64_t>(t, true, "uint64_t");
}
template <> double Target::getTypeLimitsLowestAs<double>(const Type &t) const {
  return limitAs<double>(t, false, "double");
}
template <> std::int64_t Target::getTypeLimitsLowestAs<std::int64_t>(const Type &t) const {
  return limitAs<std::int64_t>(t, false, "int64_t");
}
template <> std::uint64_t Target::getTypeLimitsLowestAs<std::uint64_t>(const Type &t) const {
  return limitAs<std::uint64_t>(t, false, "uint64_t");
}

std::uint32_t Target::makeFpIctlValue(bool, bool, bool, bool, bool) const {
  values();
  return 0;
}
unsigned Target::getFpIctlRegIndex() const { return IPU_CSR_FCSR; }
unsigned Target::getDbgDataRegIndex() const { return IPU_CSR_CONSOLE; }

IpuLinkConfiguration Target::getIpuLinkConfiguration() const {
  const TargetValues &v = values();
  if (v.options.linkConfigurationSet)
    return v.options.linkConfiguration;
  return getNumIPUs() <= 16 ? IpuLinkConfiguration::Default : IpuLinkConfiguration::SlidingWindow;
}
IpuLinkTopology Target::getIpuLinkTopology() const { return values().options.linkTopology; }
unsigned Target::getIpuLinkDomainSize() const { return values().options.linkDomainSize; }
SyncConfiguration Target::getSyncConfiguration() const { return values().options.syncConfiguration; }
unsigned Target::getInstanceSize() const { return getNumIPUs(); }
bool Target::getGatewayMode() const {
  values();
  return false;
}

Target Target::createVirtualTarget(unsigned numIPUs, unsigned tilesPerIPU) const {
  detail::checkNumIPUs("createVirtualTarget", numIPUs, tilesPerIPU);
  TargetValues v = values();
  v.board.num_ipus = numIPUs;
  v.board.tiles_per_ipu = tilesPerIPU;
  return Target(v);
}

Target Target::createCPUTarget(bool, unsigned numIPUs) {
  detail::checkNumIPUs("createCPUTarget", numIPUs, 1);
  TargetValues v;
  v.type = TargetType::CPU;
  v.board = detail::loadBoard("tiny");
  detail::setBoardValue(v.board, "name", "cpu");
  detail::setBoardValue(v.board, "description", "CPU target: 1 tile, 1 worker");
  v.board.num_ipus = numIPUs;
  v.board.tiles_per_ipu = 1;
  v.board.worker_contexts = 1;
  return Target(v);
}

namespace {

/// A system name of the API reference: the IPU version its IPUs are and how many IPUs it has.
struct SystemName {
  const char *name;
  const char *version;
  unsigned ipus;
};
const SystemName kSystems[] = {{"C600", "ipu21", 2},          {"IPU-POD4-DA", "ipu2", 4},
                               {"IPU-POD16", "ipu2", 16},     {"IPU-POD16-DA", "ipu2", 16},
                               {"IPU-POD64", "ipu2", 64},     {"IPU-POD128", "ipu2", 128},
                               {"IPU-POD256", "ipu2", 256}};

const SystemName *findSystem(const std::string &name) {
  for (const SystemName &s : kSystems)
    if (name == s.name)
      return &s;
  return nullptr;
}

std::string boardOf(const std::string &system) {
  const SystemName *s = findSystem(system);
  return s ? s->version : system;
}

} // namespace

Target Target::createIPUTarget(const std::string &system, const OptionFlags &opts) {
  const SystemName *s = findSystem(system);
  return createIPUTarget(s ? s->ipus : 1, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, const std::string &system, const OptionFlags &opts) {
  ipu_board b = detail::loadBoard(boardOf(system));
  return createIPUTarget(numIPUs, b.tiles_per_ipu, system, opts);
}

Target Target::createIPUTarget(unsigned numIPUs, unsigned tilesPerIPU, const std::string &system,
                               const OptionFlags &opts) {
  TargetValues v;
  v.type = TargetType::IPU;
  v.board = detail::loadBoard(boardOf(system));
  v.boardSpec = boardOf(system);
  detail::checkNumIPUs("createIPUTarget", numIPUs, tilesPerIPU);
  v.board.num_ipus = numIPUs;
  if (tilesPerIPU == 0 || tilesPerIPU > v.board.tiles_per_ipu)
    throw invalid_option("createIPUTarget: " + std::to_string(tilesPerIPU) + " tiles per IPU asked for; " +
                         system + " has 1 .. " + std::to_string(v.board.tiles_per_ipu));
  v.board.tiles_per_ipu = tilesPerIPU;
  v.options = detail::parseTargetOptions(opts);
  v.optionsSet = true;
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
    std::uint16_t h = detail::doubleToHalf(src[i]); // one rounding, not two through float
    std::memcpy(p + 2 * i, &h, 2);
  }
}

} // namespace poplar
