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

  /// Attaches; returns false when the card is held by another process.
  bool attach();
  void detach();
};

} // namespace poplar::detail
