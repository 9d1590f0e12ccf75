// Internal: a device description and, while attached, the runtime's handle to the card.
#pragma once

#include <memory>
#include <string>

#include "ipu_runtime/device.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

/// What a device knows of the engine loaded on it: enough to take that engine off the card. An engine holds
/// translation entries on the card (its streams' staging buffers, at the addresses its graph was compiled for), so
/// a second engine cannot be mapped beside it, and a detached card must not outlive them.
class LoadedEngine {
public:
  /// The card no longer holds this engine: release what the engine keeps on it (its stream mappings). The engine
  /// loads itself again on its next use. Never throws (it runs from destructors and error paths).
  virtual void unloaded() noexcept = 0;

protected:
  ~LoadedEngine() = default;
};

struct DeviceImpl {
  Target target;
  bool model = true;       ///< an IPU Model or CPU card created for this process (else a driver card)
  unsigned driverId = 0;   ///< driver id of a driver card
  unsigned id = 0;         ///< what getId() reports
  std::unique_ptr<ipu::runtime::Device> dev;
  LoadedEngine *loadedBy = nullptr; ///< the engine whose graph the card holds, or null
  bool faulted = false;           ///< the last run faulted: the card needs a reset before the next load
  /// Device::temporarilyDetach(): the card and the engine on it stay, but the device counts as detached (no run,
  /// no tensor I/O) until attach() takes it back without reloading.
  bool temporarilyDetached = false;

  /// Takes the loaded engine, if any, off the card (LoadedEngine::unloaded()). Every path that ends a load (another
  /// engine's load, reset, detach, a run that stopped mid-program, the engine's end) goes through here, so that
  /// no engine's mappings stay behind.
  void unload() noexcept;
  /// Attaches; returns false when the card is held by another process.
  bool attach();
  void detach();
  /// Resets the card when attached (tiles stop, memory clears, errors clear); every engine loads again on its
  /// next use.
  void reset();
};

} // namespace poplar::detail
