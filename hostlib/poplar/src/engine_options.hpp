// Internal: the Engine's option set, validated when an Engine is built (constructor options plus
// POPLAR_ENGINE_OPTIONS), so that a typo or a malformed value fails at once, naming the option and what it accepts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "poplar/OptionFlags.hpp"

namespace poplar {
class RuntimeOptions;
}

namespace poplar::detail {

/// The engine options after validation, with their defaults filled in.
struct EngineOptions {
  bool instrumentSet = false;      ///< debug.instrument or debug.instrumentCompute was given
  bool instrument = false;         ///< their value
  bool reuseMemory = true;         ///< debug.reuseMemory
  std::string dumpPath;            ///< debug.dumpCompiledGraph
  double hostSyncTimeout = 300.0;  ///< target.hostSyncTimeout, seconds
  double runTimeout = 0.0;         ///< debug.runTimeout, seconds (0: none)
  std::uint32_t watchdogKiloInsns = 0; ///< debug.watchdogKiloInsns (0: off)
  std::uint32_t replicaToProfile = 0; ///< profiler.replicaToProfile: the replica whose tile takes the cycle stamps
  bool measuredCycles = false;     ///< debug.cycleModel=measured: an IPU Model reports the tile model's cycles
};

/// `given` with the options of POPLAR_ENGINE_OPTIONS (a JSON object) set over it: what an engine runs with.
OptionFlags withEnvironmentOptions(const OptionFlags &given);
/// Validates every option of `merged`: the given options with POPLAR_ENGINE_OPTIONS applied (withEnvironmentOptions,
/// so that the environment is read once per engine or compilation). Throws
/// poplar::invalid_option naming the option, its value and what is accepted; an unknown option lists the known ones.
/// Options the SDK documents that this library does not act on yet (autoReport.*, profiler.*, opt.*, ...) are
/// accepted when their value has the documented form, and ignored.
EngineOptions parseEngineOptions(const OptionFlags &merged);
/// The options a run goes by: the engine's (withEnvironmentOptions), then those given to Engine::prepare and to
/// Engine::run (either may be null), then POPLAR_RUNTIME_OPTIONS, each set over the one before (src/RuntimeOptions.cpp).
OptionFlags withRuntimeOptions(const OptionFlags &engineOptions, const RuntimeOptions *prepared,
                               const RuntimeOptions *perRun);

/// A hash of `flags`, equal for equal option sets (std::hash of RuntimeOptions and EngineOptions).
std::size_t hashOptions(const OptionFlags &flags);

} // namespace poplar::detail
