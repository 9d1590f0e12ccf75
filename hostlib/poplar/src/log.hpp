// Internal: POPLAR_LOG_LEVEL logging ("PO:" prefix, to POPLAR_LOG_DEST or stderr).
#pragma once

#include <string>

namespace poplar::detail {

enum class LogLevel { Trace = 0, Debug, Info, Warn, Err, Off };

/// True when messages of `level` are printed.
bool logEnabled(LogLevel level);
/// Prints "PO:[level] message" when enabled.
void log(LogLevel level, const std::string &message);

} // namespace poplar::detail
