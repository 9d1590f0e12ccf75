// Internal: PopLibs logging ("PL:" prefix), controlled by POPLIBS_LOG_LEVEL (OFF, ERR, WARN, INFO, DEBUG, TRACE)
// and POPLIBS_LOG_DEST (stderr, stdout or a file). Shared by every PopLibs library through libpoputil.
#pragma once

#include <string>

namespace poputil::detail {

enum class LogLevel { Trace = 0, Debug, Info, Warn, Err, Off };

/// True when messages of `level` are printed (build expensive messages only then).
bool logEnabled(LogLevel level);
/// Prints "PL:[level] message" when enabled.
void log(LogLevel level, const std::string &message);

} // namespace poputil::detail
