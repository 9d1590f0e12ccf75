// Data streams between host and tiles: a registry keyed by stream id that answers the card's host sync requests.
//
// A stream copy on the tiles (the control program's STREAM_COPY, or a bare program doing the same by hand) is:
//   1. external sync with id S        -> the host prepares host-to-device data in the stream's staging buffer
//   2. the tiles move their parts by host exchange through the staging buffer's device address
//   3. external sync with id S|0x800000 -> the host consumes device-to-host data from the staging buffer
// where S is the stream's id (0 .. 0x7fffff). The registry does the host's half of steps 1 and 3.
//
// Host side of one copy, per connection kind and direction (the documented callback order):
//   buffer [begin, end), host to device: at 1, copy the next `bytes` from the circular position, then advance.
//   buffer [begin, end), device to host: at 3, copy `bytes` to the circular position, then advance.
//     The position wraps to begin at end; it persists across runs and restarts at begin on connect().
//   StreamCallback, host to device: at 1, fetch(p) unless the previous copy's prefetch(p) returned Success;
//     at 3, complete(), then prefetch(p) for the next copy. At the end of a run that did not use a successful
//     prefetch: invalidatePrefetched().
//   StreamCallback, device to host: at 3, fetch(p) with the data, then complete().
//   std::function<void(void*)>: host to device at 1 (fill p), device to host at 3 (read p).
#ifndef IPU_RUNTIME_STREAMS_HPP
#define IPU_RUNTIME_STREAMS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ipu_runtime/device.hpp"
#include "ipu_runtime/host_buffer.hpp"

namespace ipu {
namespace runtime {

/// Direction of a stream.
enum class StreamDirection { HostToDevice, DeviceToHost };

/// The bit that marks the second host sync of a stream copy (device-to-host data ready).
constexpr std::uint32_t kStreamSyncConsume = 0x800000u;
/// Largest stream id: sync ids are 24 bits and the top one marks the second sync.
constexpr std::uint32_t kMaxStreamId = 0x7fffffu;

/// The seed's stream callback interface (see the order at the top of this file).
class StreamCallback {
public:
  /// Whether prefetch() produced data.
  enum class Result { Success, NotAvailable };
  virtual ~StreamCallback();
  /// Host to device: may fill `p` early for the next copy; return NotAvailable when the data is not ready yet.
  virtual Result prefetch(void *p) = 0;
  /// Host to device: fill `p` now. Device to host: `p` holds the copy's data.
  virtual void fetch(void *p) = 0;
  /// The copy's data has been consumed by the device (host to device) or by fetch() (device to host).
  virtual void complete() = 0;
  /// Prefetched data will not be used (end of run, reconnect); the next copy calls fetch() or prefetch() again.
  virtual void invalidatePrefetched() {}
};

/// The streams of one loaded program. Not thread-safe against itself: connect streams before run(), not during.
class StreamRegistry {
public:
  explicit StreamRegistry(Device &device);
  ~StreamRegistry();
  StreamRegistry(const StreamRegistry &) = delete;
  StreamRegistry &operator=(const StreamRegistry &) = delete;

  /// Declares stream `id` named `name`, moving `bytes` per copy in `direction`, and maps its staging buffer at
  /// device address `devAddr` (0: anywhere). Returns the device address tiles must use for the copy.
  /// Throws application_runtime_error for a duplicate id or name, an id above kMaxStreamId, 0 bytes, or more than
  /// 128 MiB per copy (the translation entry limit; split the copy).
  std::uint32_t declare(std::uint32_t id, const std::string &name, StreamDirection direction, std::size_t bytes,
                        std::uint32_t devAddr = 0);

  /// Connects the stream to the circular buffer [begin, end), whose size must be a non-zero multiple of the
  /// stream's bytes per copy. The memory must stay valid while runs use it.
  void connect(const std::string &name, void *begin, void *end);
  /// Connects the stream to a StreamCallback (the registry owns it).
  void connect(const std::string &name, std::unique_ptr<StreamCallback> callback);
  /// Connects the stream to a plain function, called with the staging buffer (see the order above).
  void connect(const std::string &name, std::function<void(void *)> function);
  /// Leaves the stream unconnected (a copy through it is an error).
  void disconnect(const std::string &name);

  /// The id of a declared stream; throws application_runtime_error naming the declared streams if unknown.
  std::uint32_t idOf(const std::string &name) const;
  /// The staging buffer's device address of a declared stream.
  std::uint32_t deviceAddressOf(const std::string &name) const;
  /// Copies through the stream since declare().
  std::uint64_t copiesOf(const std::string &name) const;

  /// Serves host sync `syncId` (called by the run loop while the tiles wait). Throws application_runtime_error when
  /// the id belongs to no declared stream, the stream is unconnected, or a callback throws (the message names the
  /// stream and the callback).
  void serve(std::uint32_t syncId);
  /// Ends a run: drops unused prefetched data (invalidatePrefetched()).
  void endRun();

private:
  struct Stream;
  Stream &find(const std::string &name);
  const Stream &find(const std::string &name) const;
  Device &device_;
  std::map<std::uint32_t, std::unique_ptr<Stream>> streams_;
  std::map<std::string, std::uint32_t> names_;
};

} // namespace runtime
} // namespace ipu

#endif // IPU_RUNTIME_STREAMS_HPP
