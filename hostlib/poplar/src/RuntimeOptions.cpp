// RuntimeOptions: a checked subset of the engine options, and how a run combines them with the engine's own.
#include "poplar/RuntimeOptions.hpp"

#include <cstdlib>
#include <string>

#include "engine_options.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {

// The engine options the SDK lets a run change (its RuntimeOptions reference).
const char *const kRuntimeNames[] = {
    "target.syncMethod",       "target.syncPollPeriodUs",          "target.exceptionPollPeriodUs",
    "target.hostSyncTimeout",  "streamCallbacks.multiThreadMode",  "streamCallbacks.numaAware",
    "streamCallbacks.numWorkerThreads",
};

// Throws invalid_option unless every name of `flags` is a run-time option and every value is well formed;
// `where` says where the options came from.
void check(const OptionFlags &flags, const std::string &where) {
  for (const auto &option : flags) {
    bool known = false;
    for (const char *name : kRuntimeNames)
      known = known || option.first == name;
    if (!known) {
      std::string names;
      for (const char *name : kRuntimeNames)
        names += (names.empty() ? "" : ", ") + std::string(name);
      throw invalid_option(where + ": \"" + option.first + "\" is not a run-time option; give it to the Engine "
                           "constructor instead, or use one of: " + names);
    }
  }
  detail::parseEngineOptions(flags); // the values, as the engine option of the same name takes them
}

} // namespace

RuntimeOptions::RuntimeOptions() {}
RuntimeOptions::RuntimeOptions(const OptionFlags &flags) : flags_(flags) { check(flags_, "RuntimeOptions"); }
RuntimeOptions::RuntimeOptions(const RuntimeOptions &other) = default;
RuntimeOptions &RuntimeOptions::operator=(const RuntimeOptions &other) = default;
RuntimeOptions::~RuntimeOptions() = default;

namespace detail {

OptionFlags withRuntimeOptions(const OptionFlags &engineOptions, const RuntimeOptions *prepared,
                               const RuntimeOptions *perRun) {
  OptionFlags all = engineOptions;
  for (const RuntimeOptions *r : {prepared, perRun})
    if (r)
      for (const auto &option : r->getFlags())
        all.set(option.first, option.second);
  if (const char *env = std::getenv("POPLAR_RUNTIME_OPTIONS"); env && *env) {
    OptionFlags fromEnv;
    readJSON(std::string(env), fromEnv);
    check(fromEnv, "POPLAR_RUNTIME_OPTIONS");
    for (const auto &option : fromEnv)
      all.set(option.first, option.second);
  }
  return all;
}

} // namespace detail

} // namespace poplar

std::size_t std::hash<poplar::RuntimeOptions>::operator()(const poplar::RuntimeOptions &options) const {
  return poplar::detail::hashOptions(options.getFlags());
}
