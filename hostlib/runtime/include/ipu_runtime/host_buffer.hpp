// Host memory the card can reach: a DMA buffer mapped into the card's translation table, unmapped on destruction.
#ifndef IPU_RUNTIME_HOST_BUFFER_HPP
#define IPU_RUNTIME_HOST_BUFFER_HPP

#include <cstddef>
#include <cstdint>
#include <string>

#include "ipu_runtime/device.hpp"

namespace ipu {
namespace runtime {

/// Which way the card may move data through a HostBuffer.
enum class HostAccess : unsigned {
  DeviceReads = 1,  ///< host to device (IPUDRV_MAP_READ)
  DeviceWrites = 2, ///< device to host (IPUDRV_MAP_WRITE)
  Both = 3,
};

/// The most one translation entry, and so one HostBuffer (one stream copy), can map: 128 MiB, as in the seed.
constexpr std::size_t kMaxHostBufferBytes = IPUDRV_MAP_MAX_BYTES;

/// One DMA buffer and its translation entry. The device address stays valid across Device::reset() (the driver
/// re-installs the entry) and until the buffer is destroyed. Must not outlive its Device.
class HostBuffer {
public:
  /// Allocates `bytes` (1 .. 128 MiB) of zeroed host memory and maps it for `access` at device address `devAddr`
  /// (4 KiB aligned), or wherever the driver finds room when devAddr is 0. `name` is quoted in errors.
  /// Throws application_runtime_error when bytes is 0 or above 128 MiB (split the transfer), the address is taken,
  /// or all translation entries are in use.
  HostBuffer(Device &device, std::size_t bytes, HostAccess access, std::uint32_t devAddr = 0,
             const std::string &name = "host buffer");
  ~HostBuffer();
  HostBuffer(const HostBuffer &) = delete;
  HostBuffer &operator=(const HostBuffer &) = delete;

  /// Host pointer to the first byte.
  void *data() const noexcept { return ptr_; }
  /// The size asked for (the mapping is rounded up to 4 KiB).
  std::size_t size() const noexcept { return size_; }
  /// Where the card sees the first byte (for DMA descriptors, HX descriptors and the HX_DEV_ADDR CSR).
  std::uint32_t deviceAddress() const noexcept { return devAddr_; }
  /// Which way the card may move data.
  HostAccess access() const noexcept { return access_; }

private:
  Device &device_;
  ipudrv_buffer *buf_ = nullptr;
  void *ptr_ = nullptr;
  std::size_t size_;
  HostAccess access_;
  std::uint32_t devAddr_ = 0;
};

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_HOST_BUFFER_HPP
