// The device manager: the driver's cards (ipudrv discovery) as poplar Devices.
#include "poplar/DeviceManager.hpp"

#include "device_impl.hpp"
#include "ipudrv/ipudrv.h"
#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar {

DeviceManager DeviceManager::createDeviceManager() { return DeviceManager(); }

unsigned DeviceManager::getNumDevices() const {
  unsigned n = 0;
  if (ipudrv_device_count(&n) != 0)
    throw poplar_error(std::string("cannot list devices: ") + ipudrv_last_error(nullptr));
  return n;
}

Device DeviceManager::getDevice(unsigned id, const OptionFlags &) const {
  ipudrv_device_desc desc{};
  if (ipudrv_describe(id, &desc) != 0)
    throw poplar_error("no device " + std::to_string(id) + ": the driver lists " + std::to_string(getNumDevices()) +
                       " (ids 0..n-1; name simulated cards with IPU_EMU_DEVICES, e.g. IPU_EMU_DEVICES=ipu2)");
  auto d = std::make_shared<detail::DeviceImpl>();
  detail::TargetValues v;
  v.type = TargetType::IPU;
  v.deviceId = id;
  if (desc.board[0]) {
    v.board = detail::loadBoard(desc.board);
    v.boardSpec = desc.board;
  } else {
    // A PCI card tells its board only once attached.
    d->target = Target(v);
    d->model = false;
    d->driverId = id;
    d->id = id;
    if (!d->attach())
      throw poplar_error("device " + std::to_string(id) + " (" + desc.location + ") is held by another process, and "
                         "a PCI card tells its board only once attached; wait for it (gc-info -l shows the holder)");
    v.board = d->dev->info().board;
  }
  d->target = Target(v);
  d->model = false;
  d->driverId = id;
  d->id = id;
  return Device(d);
}

std::vector<unsigned> DeviceManager::getChildDeviceIds(unsigned parentId, unsigned numChildIpus) const {
  const unsigned ipus = getDevice(parentId).getTarget().getNumIPUs();
  if (numChildIpus == 0 || ipus % numChildIpus != 0)
    throw poplar_error("getChildDeviceIds(" + std::to_string(parentId) + ", " + std::to_string(numChildIpus) +
                       "): numChildIpus must divide the device's " + std::to_string(ipus) + " IPUs");
  std::vector<unsigned> out;
  if (numChildIpus == ipus)
    out.push_back(parentId);
  return out;
}

std::vector<Device> DeviceManager::getDevices() const {
  std::vector<Device> out;
  unsigned n = getNumDevices();
  for (unsigned i = 0; i < n; ++i)
    out.push_back(getDevice(i));
  return out;
}

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned requiredNumIPUs, const OptionFlags &) const {
  std::vector<Device> out;
  if (type != TargetType::IPU)
    return out;
  for (auto &d : getDevices())
    if (d.getTarget().getNumIPUs() == requiredNumIPUs)
      out.push_back(std::move(d));
  return out;
}

} // namespace poplar
