// Stream callbacks: host code that produces (host to device) or consumes (device to host) a stream's data.
#ifndef POPLAR_STREAM_CALLBACK_HPP
#define POPLAR_STREAM_CALLBACK_HPP

#include <functional>

namespace poplar {

/// Serves one stream. For host to device: prefetch() may fill the buffer early, fetch() must fill it, complete()
/// says the device took it. For device to host: fetch() receives the data, then complete().
class StreamCallback {
public:
  /// Whether prefetch() produced data.
  enum class Result { Success, NotAvailable };
  virtual ~StreamCallback();
  /// Host to device: fill `p` now for the next copy if the data is ready, else return NotAvailable.
  virtual Result prefetch(void *p) = 0;
  /// Host to device: fill `p`. Device to host: `p` holds the data.
  virtual void fetch(void *p) = 0;
  /// The copy is finished.
  virtual void complete() = 0;
  /// Prefetched data will not be used.
  virtual void invalidatePrefetched() {}
};

/// A StreamCallback that serves each copy in fetch() alone (no prefetch): derive from it and override fetch(), as
/// with the SDK, or build it from one function that fills (host to device) or reads (device to host) the buffer.
class LegacyStreamCallback : public StreamCallback {
public:
  /// For a derived class that overrides fetch(); fetch() of this class itself throws poplar_error.
  LegacyStreamCallback();
  explicit LegacyStreamCallback(std::function<void(void *)> f);
  Result prefetch(void *p);
  void fetch(void *p);
  void complete();

private:
  std::function<void(void *)> f_;
};

} // namespace poplar

#endif // POPLAR_STREAM_CALLBACK_HPP
