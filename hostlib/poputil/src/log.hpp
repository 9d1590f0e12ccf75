// Internal: PopLibs logging ("PL:" prefix), controlled by POPLIBS_LOG_LEVEL (OFF, ERR, WARN, INFO, DEBUG, TRACE;
// anything else is poplar::invalid_option) and POPLIBS_LOG_DEST (stderr, stdout or a file), implemented once in
// libpoplar. Shared by every PopLibs library through libpoputil.
#pragma once

#include <string>

namespace poputil::detail {

/// The same levels, in the same order, as poplar::detail::LogLevel.
enum class LogLevel { Trace = 0, Debug, Info, Warn, Err, Off };

/// True when messages of `level` are printed (build expensive messages only then).
bool logEnabled(LogLevel level);
/// Prints "PL:[level] message" when enabled.
void log(LogLevel level, const std::string &message);

} // namespace poputil::detail
