// Stream callbacks: host code that produces (host to device) or consumes (device to host) a stream's data.
//
// The order of calls, for one stream copy (the engine's host side, hostlib/runtime streams.hpp):
//   host to device: fetch(p) fills the buffer unless the previous copy's prefetch(p) returned Success; when the
//     device has taken the data, complete(); then prefetch(p) for the next copy. A run that ends with prefetched
//     data unused calls invalidatePrefetched(), and so does unloading the engine (another engine's load, a reset).
//   device to host: fetch(p) with the data, then complete().
// This emulator prefetches only in that one place (after complete(), one copy ahead); engine options such as
// exchange.enablePrefetch or a FIFO's bufferingDepth do not add more.
#ifndef POPLAR_STREAM_CALLBACK_HPP
#define POPLAR_STREAM_CALLBACK_HPP

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "poplar/Quarter.hpp"

namespace poplar {

/// What every stream callback has, whatever its data: the end of a copy and the dropping of prefetched data.
class StreamCallbackBase {
public:
  /// Whether prefetch() produced data.
  enum class Result { Success, NotAvailable };
  virtual ~StreamCallbackBase();
  /// The copy is finished: the device took the data (host to device) or fetch() has had it (device to host).
  virtual void complete() = 0;
  /// Data prefetch() produced will not be used: the next copy calls fetch() (or prefetch()) again.
  virtual void invalidatePrefetched() = 0;
};

/// Serves one stream whose type needs no metadata. prefetch() may fill the buffer early (host to device only);
/// fetch() must fill it (host to device) or receives it (device to host).
class StreamCallback : public StreamCallbackBase {
public:
  /// Host to device: fill `p` now for the next copy if the data is ready (Success), else return NotAvailable
  /// (not ready yet, or the stream has no more data); fetch() then follows if the copy happens.
  virtual Result prefetch(void *p) = 0;
  /// Host to device: fill `p`. Device to host: `p` holds the data.
  virtual void fetch(void *p) = 0;
  /// By default prefetched data needs no clean-up.
  void invalidatePrefetched() override {}
};

/// A StreamCallback for a stream of a type that needs metadata (QUARTER): the callback also says which metadata
/// (format and scale) its data has. The emulated engine has no QUARTER streams yet (QUARTER data moves with
/// Engine::writeTensor/readTensor and a QuarterMetadata), so such a callback serves its data like any other.
class StreamCallbackWithMetadata : public StreamCallback {
public:
  /// The metadata of the data this callback produces (host to device) or receives (device to host).
  explicit StreamCallbackWithMetadata(const QuarterMetadata &metadata = QuarterMetadata());
  /// The metadata given at construction or by setMetadata().
  QuarterMetadata getMetadata() const;

protected:
  /// For a callback whose data changes format or scale between copies.
  void setMetadata(const QuarterMetadata &metadata);

private:
  QuarterMetadata metadata_;
};

/// A StreamCallback whose fetch() can wait for something else (another thread, another stream's callback) to let
/// it go on: inside a callback, wait() suspends it until notify(). A notify() that comes before the wait() is kept,
/// so that wait() then returns at once.
class ResumableStreamCallback : public StreamCallback {
public:
  ResumableStreamCallback();
  ~ResumableStreamCallback();
  /// Lets the waiting callback go on (from another thread); with no callback waiting, the next wait() returns at
  /// once.
  void notify();
  /// Whether a callback is inside wait() now.
  bool isAwaiting() const;

protected:
  /// Suspends the calling callback until notify(). Only this callback's own functions may call it.
  void wait();

private:
  struct State;
  std::unique_ptr<State> state_;
};

/// A StreamCallback that serves each copy in fetch() alone: it never prefetches, so complete() and
/// invalidatePrefetched() have nothing to do. Derive from it and override fetch(), as with the SDK, or build it
/// from one function that fills (host to device) or reads (device to host) the buffer.
class LegacyStreamCallback : public StreamCallback {
public:
  /// For a derived class that overrides fetch(); fetch() of this class itself throws poplar_error.
  LegacyStreamCallback();
  explicit LegacyStreamCallback(std::function<void(void *)> f);
  /// Always NotAvailable: the data comes from fetch().
  Result prefetch(void *p) final override;
  void fetch(void *p) override;
  /// Nothing to do.
  void complete() final override;
  /// Nothing to do: nothing is ever prefetched.
  void invalidatePrefetched() final override;

private:
  std::function<void(void *)> f_;
};

namespace detail {
/// Whether F can be called with a void * (a lambda, a function, a std::function): what StreamCallbackHandle
/// wraps in a LegacyStreamCallback. C++11 SFINAE, so the public header stays C++11.
template <class F> struct is_stream_function {
  template <class G> static auto test(int) -> decltype(std::declval<G &>()(static_cast<void *>(0)), std::true_type());
  template <class G> static std::false_type test(...);
  static const bool value = decltype(test<typename std::decay<F>::type>(0))::value;
};
} // namespace detail

/// What Engine::connectStreamToCallback takes: one stream callback, given either as a StreamCallback object
/// (std::unique_ptr to any class derived from StreamCallback) or as a function of the buffer (void *), which
/// becomes a LegacyStreamCallback. A handle can only be moved, and it is never empty: a null pointer or an empty
/// function throws poplar_error when the handle is made, so the mistake is reported where it is written.
class StreamCallbackHandle {
public:
  template <class Impl, typename = typename std::enable_if<std::is_base_of<StreamCallback, Impl>::value>::type>
  StreamCallbackHandle(std::unique_ptr<Impl> callback) : callback_(nonNull(std::move(callback))) {}
  template <class F, typename = typename std::enable_if<detail::is_stream_function<F>::value>::type>
  StreamCallbackHandle(F &&f) : callback_(fromFunction(std::function<void(void *)>(std::forward<F>(f)))) {}
  StreamCallbackHandle(const StreamCallbackHandle &) = delete;
  StreamCallbackHandle(StreamCallbackHandle &&) = default;
  /// Takes the callback out of the handle (the engine keeps it).
  operator std::unique_ptr<StreamCallback>() && { return std::move(callback_); }

private:
  static std::unique_ptr<StreamCallback> nonNull(std::unique_ptr<StreamCallback> callback);
  static std::unique_ptr<StreamCallback> fromFunction(std::function<void(void *)> f);
  std::unique_ptr<StreamCallback> callback_;
};

} // namespace poplar

#endif // POPLAR_STREAM_CALLBACK_HPP
