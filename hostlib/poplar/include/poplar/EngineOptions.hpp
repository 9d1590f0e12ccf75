// EngineOptions: a set of engine options (the compile, target, debug and profiling options of poplar::Engine)
// checked when it is built, as RuntimeOptions checks the run-time ones. It goes wherever the SDK takes the
// engine's OptionFlags (Engine constructors, compileGraph, compileModule): it converts to them.
#ifndef POPLAR_ENGINE_OPTIONS_HPP
#define POPLAR_ENGINE_OPTIONS_HPP

#include <cstddef>
#include <functional>
#include <string>

#include "poplar/OptionFlags.hpp"

namespace poplar {

/// Engine options whose names and values were checked as the Engine constructor checks them (see Engine.hpp for
/// the names): an unknown name or a malformed value throws poplar::invalid_option naming the option and what it
/// accepts. POPLAR_ENGINE_OPTIONS is not read here; the Engine applies it over these options, as it does over
/// plain OptionFlags.
class EngineOptions {
public:
  /// No options: every engine option at its default.
  EngineOptions();
  /// The options of `flags`; throws poplar::invalid_option for an unknown name or a malformed value.
  EngineOptions(const OptionFlags &flags);
  EngineOptions(const EngineOptions &other);
  EngineOptions &operator=(const EngineOptions &other);
  ~EngineOptions();
  /// Sets one option after checking it as the constructor does (the set is unchanged when it throws).
  void set(const std::string &option, const std::string &value);
  /// The options as given.
  const OptionFlags &getFlags() const { return flags_; }
  /// The options as the OptionFlags an Engine, compileGraph or compileModule takes.
  operator const OptionFlags &() const { return flags_; }
  bool operator==(const EngineOptions &other) const { return flags_ == other.flags_; }
  bool operator!=(const EngineOptions &other) const { return !(*this == other); }

private:
  OptionFlags flags_;
};

} // namespace poplar

namespace std {
template <> struct hash<poplar::EngineOptions> {
  /// Equal option sets hash equal.
  size_t operator()(const poplar::EngineOptions &options) const;
};
} // namespace std

#endif // POPLAR_ENGINE_OPTIONS_HPP
