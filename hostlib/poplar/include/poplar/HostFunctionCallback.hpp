// The host side of a host function (Graph::addHostFunction): the HostCallback a program's Call of the function runs
// on the host, and the HostCallbackHandle Engine::connectHostFunction takes.
#ifndef POPLAR_HOST_FUNCTION_CALLBACK_HPP
#define POPLAR_HOST_FUNCTION_CALLBACK_HPP

#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "poplar/ArrayRef.hpp"

namespace poplar {

/// Called when a program reaches a program::Call of a host function: `inputs` holds one pointer per input argument
/// (the device's data, already on the host), `outputs` one per output argument, each to be filled with the
/// argument's bytes. The pointers are valid for the call only.
class HostCallback {
public:
  virtual ~HostCallback();
  virtual void operator()(ArrayRef<const void *> inputs, ArrayRef<void *> outputs) = 0;
};

namespace detail {
/// Whether F can be called as a HostCallback is (a lambda, a function, a std::function). C++11 SFINAE, so the
/// public header stays C++11.
template <class F> struct is_host_function {
  template <class G>
  static auto test(int) -> decltype(std::declval<G &>()(std::declval<ArrayRef<const void *>>(),
                                                        std::declval<ArrayRef<void *>>()),
                                    std::true_type());
  template <class G> static std::false_type test(...);
  static const bool value = decltype(test<typename std::decay<F>::type>(0))::value;
};
} // namespace detail

/// What Engine::connectHostFunction takes: a HostCallback object (std::unique_ptr to any class derived from
/// HostCallback) or a function of (ArrayRef<const void *>, ArrayRef<void *>). Move-only and never empty: a null
/// pointer or an empty function throws poplar_error where the handle is made.
class HostCallbackHandle {
public:
  template <class Impl, typename = typename std::enable_if<std::is_base_of<HostCallback, Impl>::value>::type>
  HostCallbackHandle(std::unique_ptr<Impl> callback) : callback_(nonNull(std::move(callback))) {}
  template <class F, typename = typename std::enable_if<detail::is_host_function<F>::value>::type>
  HostCallbackHandle(F &&f)
      : callback_(fromFunction(std::function<void(ArrayRef<const void *>, ArrayRef<void *>)>(std::forward<F>(f)))) {}
  HostCallbackHandle(const HostCallbackHandle &) = delete;
  HostCallbackHandle(HostCallbackHandle &&) = default;
  /// Takes the callback out of the handle (the engine keeps it).
  operator std::unique_ptr<HostCallback>() && { return std::move(callback_); }

private:
  static std::unique_ptr<HostCallback> nonNull(std::unique_ptr<HostCallback> callback);
  static std::unique_ptr<HostCallback>
  fromFunction(std::function<void(ArrayRef<const void *>, ArrayRef<void *>)> f);
  std::unique_ptr<HostCallback> callback_;
};

} // namespace poplar

#endif // POPLAR_HOST_FUNCTION_CALLBACK_HPP
