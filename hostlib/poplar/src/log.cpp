// Internal: logging controlled by POPLAR_LOG_LEVEL (OFF, ERR, WARN, INFO, DEBUG, TRACE) and POPLAR_LOG_DEST.
#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace poplar::detail {

static LogLevel configured() {
  static const LogLevel level = [] {
    const char *e = std::getenv("POPLAR_LOG_LEVEL");
    if (!e)
      return LogLevel::Off;
    const char *names[] = {"TRACE", "DEBUG", "INFO", "WARN", "ERR", "OFF"};
    for (int i = 0; i < 6; ++i)
      if (std::strcmp(e, names[i]) == 0)
        return LogLevel(i);
    return LogLevel::Off;
  }();
  return level;
}

bool logEnabled(LogLevel level) { return level >= configured() && configured() != LogLevel::Off; }

void log(LogLevel level, const std::string &message) {
  if (!logEnabled(level))
    return;
  static std::mutex m;
  static FILE *dest = [] {
    const char *d = std::getenv("POPLAR_LOG_DEST");
    if (!d || std::strcmp(d, "stderr") == 0)
      return stderr;
    if (std::strcmp(d, "stdout") == 0)
      return stdout;
    FILE *f = std::fopen(d, "a");
    return f ? f : stderr;
  }();
  const char *names[] = {"T", "D", "I", "W", "E", "O"};
  std::lock_guard<std::mutex> lock(m);
  std::fprintf(dest, "PO:[%s] %s\n", names[int(level)], message.c_str());
  std::fflush(dest);
}

} // namespace poplar::detail
