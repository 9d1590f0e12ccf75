// Lists the devices the driver finds (simulated cards named in IPU_EMU_DEVICES, then PCI cards) and hands them out.
#ifndef POPLAR_DEVICE_MANAGER_HPP
#define POPLAR_DEVICE_MANAGER_HPP

#include <vector>

#include "poplar/Device.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/TargetType.hpp"

namespace poplar {

/// The host's devices.
class DeviceManager {
public:
  DeviceManager() {}
  /// The device manager (cheap; devices are discovered on each call).
  static DeviceManager createDeviceManager();
  /// Every device the driver lists.
  std::vector<Device> getDevices() const;
  /// Devices of `type` (IPU: the driver's cards) with `requiredNumIPUs` IPUs.
  std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                 const OptionFlags &opts = OptionFlags()) const;
  /// Device `deviceManagerId`; throws poplar::poplar_error naming the ids that exist when there is none.
  Device getDevice(unsigned deviceManagerId, const OptionFlags &opts = OptionFlags()) const;
  /// The ids of the devices of `numChildIpus` IPUs each that make up device `parentId`. Each emulated card is a
  /// device of its own, not built from separately listed smaller devices, so this is {parentId} when the device
  /// has `numChildIpus` IPUs and empty when it has more. Throws poplar_error for an unknown id or when
  /// numChildIpus is 0 or does not divide the device's IPUs.
  std::vector<unsigned> getChildDeviceIds(unsigned parentId, unsigned numChildIpus = 1) const;
  /// Number of devices the driver lists.
  unsigned getNumDevices() const;
};

} // namespace poplar

#endif // POPLAR_DEVICE_MANAGER_HPP
