// Internal: the libraries' logging, as Graphcore's SDK does it: POPLAR_LOG_LEVEL / POPLAR_LOG_DEST for Poplar
// ("PO:" prefix) and POPLIBS_LOG_LEVEL / POPLIBS_LOG_DEST for PopLibs ("PL:" prefix).
#pragma once

#include <string>

namespace poplar::detail {

enum class LogLevel { Trace = 0, Debug, Info, Warn, Err, Off };
/// Which library logs: each has its own level and destination variables and its own prefix.
enum class LogModule { Poplar, Poplibs };

/// True when messages of `level` are printed. Throws poplar::invalid_option naming the variable when its level
/// is not one of TRACE, DEBUG, INFO, WARN, ERR, OFF (an unknown level is never silently ignored).
bool logEnabled(LogLevel level, LogModule module = LogModule::Poplar);
/// Prints "PO:[I] message" (or "PL:...") to the module's destination when enabled.
void log(LogLevel level, const std::string &message, LogModule module = LogModule::Poplar);
/// Reads and checks both modules' variables now, so that a bad level is reported before any work is done.
void checkLogEnvironment();

} // namespace poplar::detail
