// poplar::EngineOptions: OptionFlags checked by the Engine's own option parser (engine_options.cpp) when built or
// changed, so that a typo fails where the options are written rather than where an Engine is made.
#include "poplar/EngineOptions.hpp"

#include "engine_options.hpp"

namespace poplar {

EngineOptions::EngineOptions() {}
EngineOptions::EngineOptions(const OptionFlags &flags) : flags_(flags) { detail::parseEngineOptions(flags_); }
EngineOptions::EngineOptions(const EngineOptions &other) = default;
EngineOptions &EngineOptions::operator=(const EngineOptions &other) = default;
EngineOptions::~EngineOptions() = default;

void EngineOptions::set(const std::string &option, const std::string &value) {
  OptionFlags changed = flags_;
  changed.set(option, value);
  detail::parseEngineOptions(changed);
  flags_ = changed;
}

} // namespace poplar

std::size_t std::hash<poplar::EngineOptions>::operator()(const poplar::EngineOptions &options) const {
  return poplar::detail::hashOptions(options.getFlags());
}
