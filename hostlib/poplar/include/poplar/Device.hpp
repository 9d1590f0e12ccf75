// A device to run on: an IPU Model card, a card the driver found, or the CPU target.
#ifndef POPLAR_DEVICE_HPP
#define POPLAR_DEVICE_HPP

#include <memory>

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
