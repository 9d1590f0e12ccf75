// Internal: PopLibs logging; see log.hpp. libpoplar holds the one implementation of the SDK's logging variables
// (levels, destinations, prefixes, the error for an unknown level); PopLibs logs through its PL module.
#include "log.hpp"

#include "../../poplar/src/log.hpp"

namespace poputil::detail {

static poplar::detail::LogLevel toPoplar(LogLevel level) { return static_cast<poplar::detail::LogLevel>(level); }

bool logEnabled(LogLevel level) {
  return poplar::detail::logEnabled(toPoplar(level), poplar::detail::LogModule::Poplibs);
}

void log(LogLevel level, const std::string &message) {
  poplar::detail::log(toPoplar(level), message, poplar::detail::LogModule::Poplibs);
}

} // namespace poputil::detail
