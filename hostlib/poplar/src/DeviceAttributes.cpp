// What a Device says about itself (driver version, attributes, NUMA placement, driver ids). The emulated cards
// have no gateway and live in the host process's memory, so the hardware-only answers are fixed and documented
// in Device.hpp; the rest come from the device's target (its board values) and the driver library.
#include "poplar/Device.hpp"

#include <cstdio>
#include <sstream>

#include "device_impl.hpp"
#include "ipudrv/ipudrv.h"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar {

namespace {

std::string deviceKind(const detail::DeviceImpl &d) {
  if (d.target.getTargetType() == TargetType::CPU)
    return "CPU";
  return d.model ? "IPU Model" : "IPU";
}

std::string clockHz(double hz) {
  std::ostringstream s;
  s.precision(15);
  s << hz;
  return s.str();
}

} // namespace

void Device::getDriverVersion(unsigned &major, unsigned &minor, unsigned &point) const {
  impl();
  const char *v = ipudrv_version();
  if (std::sscanf(v, "%u.%u.%u", &major, &minor, &point) != 3)
    throw poplar_error(std::string("Device::getDriverVersion: the driver library reports version '") + v +
                       "', not major.minor.point; the installed libipudrv does not match this libpoplar");
}

bool Device::supportsRemoteBuffers() const { return impl().target.getTargetType() != TargetType::CPU; }

bool Device::hasGateway() const {
  impl();
  return false;
}

bool Device::supportsGraphStreaming() const {
  impl();
  return false;
}

std::vector<std::pair<std::string, std::string>> Device::getAttributes() const {
  const detail::DeviceImpl &d = impl();
  const Target &t = d.target;
  const ipu_board &board = t.values().board;
  std::vector<std::pair<std::string, std::string>> a;
  a.emplace_back("type", deviceKind(d));
  a.emplace_back("board", board.name);
  a.emplace_back("transport", board.transport[0] ? board.transport : "model");
  a.emplace_back("location", d.model ? std::string("model:") + board.name : "driver:" + std::to_string(d.driverId));
  a.emplace_back("IPUs", std::to_string(t.getNumIPUs()));
  a.emplace_back("tiles per IPU", std::to_string(t.getTilesPerIPU()));
  a.emplace_back("bytes per tile", std::to_string(t.getBytesPerTile()));
  a.emplace_back("worker contexts", std::to_string(t.getNumWorkerContexts()));
  a.emplace_back("tile clock (Hz)", clockHz(t.getTileClockFrequency()));
  a.emplace_back("driver version", ipudrv_version());
  a.emplace_back("device id", std::to_string(d.id));
  return a;
}

std::string Device::getAttribute(const std::string &name) const {
  std::string known;
  for (const auto &kv : getAttributes()) {
    if (kv.first == name)
      return kv.second;
    known += (known.empty() ? "" : ", ") + kv.first;
  }
  throw poplar_error("Device::getAttribute: no attribute '" + name + "'; the device has: " + known);
}

std::vector<unsigned> Device::getNumaTopology() const {
  return std::vector<unsigned>(impl().target.getNumIPUs(), 0u);
}

std::vector<unsigned> Device::getNumaNodesUsedForIPUs() const {
  impl();
  return {0u};
}

std::vector<unsigned> Device::getDriverIDs() const {
  const detail::DeviceImpl &d = impl();
  return std::vector<unsigned>(d.target.getNumIPUs(), d.model ? d.id : d.driverId);
}

} // namespace poplar
