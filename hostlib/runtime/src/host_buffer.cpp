// Host buffers mapped into the card's translation table (see host_buffer.hpp).
#include "ipu_runtime/host_buffer.hpp"

#include <cstdio>

namespace ipu {
namespace runtime {

HostBuffer::HostBuffer(Device &device, std::size_t bytes, HostAccess access, std::uint32_t devAddr,
                       const std::string &name)
    : device_(device), size_(bytes), access_(access) {
  if (bytes == 0)
    throw application_runtime_error(name + ": size 0; a host buffer needs at least one byte");
  if (bytes > kMaxHostBufferBytes)
    throw application_runtime_error(name + ": " + std::to_string(bytes) + " bytes exceed the 128 MiB (" +
                                    std::to_string(kMaxHostBufferBytes) +
                                    " bytes) one translation entry can map; split the transfer into copies of at "
                                    "most 128 MiB separated by syncs");
  if (devAddr % IPUDRV_PAGE_SIZE != 0) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", devAddr);
    throw application_runtime_error(name + ": device address " + buf + " is not 4 KiB aligned");
  }
  device_.check(ipudrv_buffer_alloc(device_.handle(), bytes, &buf_), name + ": allocate a DMA buffer");
  try {
    device_.check(ipudrv_map(device_.handle(), buf_, 0, ipudrv_buffer_size(buf_), static_cast<unsigned>(access),
                             devAddr, &devAddr_),
                  name + ": map into the translation table");
  } catch (...) {
    ipudrv_buffer_free(device_.handle(), buf_);
    throw;
  }
  ptr_ = ipudrv_buffer_ptr(buf_);
}

HostBuffer::~HostBuffer() {
  // Freeing the buffer also removes its translation entry.
  ipudrv_buffer_free(device_.handle(), buf_);
}

} // namespace runtime
} // namespace ipu
