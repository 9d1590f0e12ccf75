// Internal: a device description and, while attached, the runtime's handle to the card.
#pragma once

#include <memory>
#include <string>

#include "ipu_runtime/device.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

struct DeviceImpl {
  Target target;
  bool model = true;       ///< an IPU Model or CPU card created for this process (else a driver card)
  unsigned driverId = 0;   ///< driver id of a driver card
  unsigned id = 0;         ///< what getId() reports
  std::unique_ptr<ipu::runtime::Device> dev;
  const void *loadedBy = nullptr; ///< the engine whose graph the card holds (an EngineImpl), or null
  bool faulted = false;           ///< the last run faulted: the card needs a reset before the next load

  /// Attaches; returns false when the card is held by another process.
  bool attach();
  void detach();
  /// Resets the card when attached (tiles stop, memory clears, errors clear); every engine loads again on its
  /// next use.
  void reset();
};

} // namespace poplar::detail
