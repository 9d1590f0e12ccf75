// Internal: PopLibs logging; see log.hpp.
#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace poputil::detail {

static LogLevel configured() {
  static const LogLevel level = [] {
    const char *e = std::getenv("POPLIBS_LOG_LEVEL");
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

bool logEnabled(LogLevel level) { return configured() != LogLevel::Off && level >= configured(); }

void log(LogLevel level, const std::string &message) {
  if (!logEnabled(level))
    return;
  static std::mutex m;
  static FILE *dest = [] {
    const char *d = std::getenv("POPLIBS_LOG_DEST");
    if (!d || std::strcmp(d, "stderr") == 0)
      return stderr;
    if (std::strcmp(d, "stdout") == 0)
      return stdout;
    FILE *f = std::fopen(d, "a");
    return f ? f : stderr;
  }();
  const char *names[] = {"T", "D", "I", "W", "E", "O"};
  std::lock_guard<std::mutex> lock(m);
  std::fprintf(dest, "PL:[%s] %s\n", names[int(level)], message.c_str());
  std::fflush(dest);
}

} // namespace poputil::detail
