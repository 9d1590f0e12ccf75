// A device to run on: an IPU Model card, a card the driver found, or the CPU target.
#ifndef POPLAR_DEVICE_HPP
#define POPLAR_DEVICE_HPP

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "poplar/OptionFlags.hpp"
#include "poplar/Target.hpp"

namespace poplar {

namespace detail {
struct DeviceImpl;
}

/// One device. Movable, not copyable. Engine::load() attaches it when it is not attached yet.
class Device {
public:
  /// No device (isValid() false).
  Device();
  Device(Device &&other);
  Device &operator=(Device &&other);
  ~Device();
  /// Internal: wraps a device description.
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl);

  /// The device's target.
  const Target &getTarget() const;
  /// The device manager's id (driver card id); the IPU Model and CPU devices report theirs too.
  unsigned getId() const;
  /// Attaches exclusively. Returns false when another process holds the card (the reason goes to the log, see
  /// POPLAR_LOG_LEVEL); throws for other failures.
  bool attach() const;
  /// Detaches (the device can be attached again).
  void detach() const;
  /// Detaches for a while so that attach() can take the device back without reloading its executable: the card
  /// and the engine loaded on it are kept; until attach(), isAttached() is false and the engine's runs and tensor
  /// copies throw application_runtime_error. (On hardware another process could take the card in between; here
  /// the card stays this process's.) Throws poplar_error when the device is not attached.
  void temporarilyDetach() const;
  /// Resets the device (tiles stop, tile memory and errors clear): the recovery of a
  /// recoverable_runtime_error. Engines that were loaded on it load again on their next run. Does nothing when
  /// the device is not attached.
  void reset() const;
  /// True while attached.
  bool isAttached() const;
  /// False for a default-constructed device.
  bool isValid() const { return impl_ != 0; }
  /// The CPU device: one tile, one worker.
  static Device createCPUDevice(unsigned numIPUs = 1);
  /// A simulated card shaped as `target` (an IPU target from Target::createIPUTarget, or an IPU Model's), private
  /// to the process like an IPU Model device; the emulator's card model is the simulator. Option "debug.trace"
  /// ("true"/"false") is accepted and has no effect (the card's own trace is IPU_EMU_RECORD); any other option
  /// throws invalid_option. Throws poplar_error for a CPU target (use createCPUDevice).
  static Device createSimulatorDevice(const Target &target, const OptionFlags &opts = OptionFlags());
  /// A device of the same kind on the first `tilesPerIPU` tiles of each IPU of this one (1 .. its tiles per IPU,
  /// else poplar_error): graphs for it are built with its getTarget() and run on this device's card.
  Device createVirtualDevice(unsigned tilesPerIPU) const;
  /// The version of the driver behind the device (ipudrv's; IPU Model, simulator and CPU devices are driven by the
  /// same library), as major.minor.point.
  void getDriverVersion(unsigned &major, unsigned &minor, unsigned &point) const;
  /// Whether programs on the device can use remote buffers (Graph::addRemoteBuffer): true for IPU devices, false
  /// for the CPU device.
  bool supportsRemoteBuffers() const;
  /// False: the emulated cards sit directly on the host's bus, with no IPU-Machine gateway between.
  bool hasGateway() const;
  /// False: graph streaming (loading a graph's code in parts from host memory while it runs, an IPU-Machine
  /// feature) is not emulated; a whole graph is loaded onto the tiles by Engine::load.
  bool supportsGraphStreaming() const;
  /// The device's attributes as (name, value) pairs, like gc-info: "type" (IPU, IPU Model or CPU), "board",
  /// "transport", "location", "IPUs", "tiles per IPU", "bytes per tile", "worker contexts", "tile clock (Hz)",
  /// "driver version", "device id".
  std::vector<std::pair<std::string, std::string>> getAttributes() const;
  /// One attribute of getAttributes() by name. Throws poplar_error naming the known attributes for another name.
  std::string getAttribute(const std::string &name) const;
  /// The NUMA node of each IPU of the device, in IPU order: all 0 (an emulated card's memory is the host
  /// process's, one node).
  std::vector<unsigned> getNumaTopology() const;
  /// The NUMA nodes the device's IPUs use, each once: {0}.
  std::vector<unsigned> getNumaNodesUsedForIPUs() const;
  /// The driver ids of the device's IPUs, in IPU order: each IPU of an emulated card is driven through the
  /// card's one driver handle, so every entry is the card's driver id (getId() for IPU Model and CPU devices).
  std::vector<unsigned> getDriverIDs() const;
  /// Internal.
  detail::DeviceImpl &impl() const;
  /// Internal: the shared description (an engine loaded on the device shares it).
  std::shared_ptr<detail::DeviceImpl> implPtr() const;

private:
  Device(const Device &);
  Device &operator=(const Device &);
  std::shared_ptr<detail::DeviceImpl> impl_;
};

} // namespace poplar

#endif // POPLAR_DEVICE_HPP
