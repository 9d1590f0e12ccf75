// RuntimeOptions: the engine options that may change from one run to the next (target.hostSyncTimeout, the sync
// and stream-callback options), given to Engine::prepare or Engine::run over the engine's own options.
#ifndef POPLAR_RUNTIME_OPTIONS_HPP
#define POPLAR_RUNTIME_OPTIONS_HPP

#include <cstddef>
#include <functional>

#include "poplar/OptionFlags.hpp"

namespace poplar {

/// A set of run-time options, checked when built: each name must be one of target.syncMethod,
/// target.syncPollPeriodUs, target.exceptionPollPeriodUs, target.hostSyncTimeout, streamCallbacks.multiThreadMode,
/// streamCallbacks.numaAware, streamCallbacks.numWorkerThreads (others throw poplar::invalid_option naming them),
/// and each value must have the form the engine option takes. POPLAR_RUNTIME_OPTIONS (a JSON object, e.g.
/// '{"target.hostSyncTimeout": "10"}') is applied over them, and is checked the same way, where they are used.
/// Of these only target.hostSyncTimeout changes what the emulator does; the others tune host threads and polling
/// that it does not have (hostlib/poplar/README.md, "Engine options").
class RuntimeOptions {
public:
  /// No options: the engine's own apply.
  RuntimeOptions();
  /// The options of `flags`; throws poplar::invalid_option for a name that is not a run-time option or a malformed
  /// value.
  RuntimeOptions(const OptionFlags &flags);
  RuntimeOptions(const RuntimeOptions &other);
  RuntimeOptions &operator=(const RuntimeOptions &other);
  ~RuntimeOptions();
  /// The options as given (without POPLAR_RUNTIME_OPTIONS).
  const OptionFlags &getFlags() const { return flags_; }
  bool operator==(const RuntimeOptions &other) const { return flags_ == other.flags_; }
  bool operator!=(const RuntimeOptions &other) const { return !(*this == other); }

private:
  OptionFlags flags_;
};

} // namespace poplar

namespace std {
template <> struct hash<poplar::RuntimeOptions> {
  /// Equal option sets hash equal.
  size_t operator()(const poplar::RuntimeOptions &options) const;
};
} // namespace std

#endif // POPLAR_RUNTIME_OPTIONS_HPP
