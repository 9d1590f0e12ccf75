// Puts a DeviceImage on a card: validate and plan first, then DMA the plan and set up every tile's entry point.
#ifndef IPU_RUNTIME_LOADER_HPP
#define IPU_RUNTIME_LOADER_HPP

#include <cstddef>
#include <cstdint>

#include "ipu_runtime/device.hpp"
#include "ipu_runtime/tile_image.hpp"

namespace ipu {
namespace runtime {

/// What a load cost.
struct LoadStats {
  std::uint64_t busBytes = 0;   ///< bytes the card read from host memory
  std::uint64_t tileBytes = 0;  ///< bytes written into tile SRAM (bus bytes times broadcast width)
  std::size_t writes = 0;       ///< DMA descriptors
  std::size_t chains = 0;       ///< DMA chains run
  double planSeconds = 0;       ///< time to validate and plan
  double uploadSeconds = 0;     ///< time to copy, DMA and set up tiles
};

/// How an upload is cut up; the defaults are the hardware limits, smaller values exist for tests.
struct LoadOptions {
  std::size_t stagingBytes = std::size_t(IPUDRV_MAP_MAX_BYTES); ///< staging window, at most one translation entry
  std::size_t maxChain = 65536;                                  ///< descriptors per DMA chain (1 .. 65536)
};

/// Loads `image` onto `device`: planUpload() validates the whole image before anything is written (so a bad image
/// leaves every tile untouched), then the plan goes out in DMA chains of up to 65536 descriptors through one
/// staging buffer of at most 128 MiB, and finally each tile of the image is enabled with its entry point and boot
/// argument while every other tile is disabled.
/// Throws application_runtime_error for a bad image or a busy card, recoverable_runtime_error(IPU_RESET) when the
/// DMA engine faults.
LoadStats loadImage(Device &device, const DeviceImage &image, const LoadOptions &options = LoadOptions());

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_LOADER_HPP
