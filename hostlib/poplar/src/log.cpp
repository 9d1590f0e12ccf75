// Internal: logging controlled by POPLAR_LOG_LEVEL/POPLAR_LOG_DEST and POPLIBS_LOG_LEVEL/POPLIBS_LOG_DEST.
#include "log.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <strings.h>

#include "poplar/exceptions.hpp"

namespace poplar::detail {
namespace {

struct ModuleConfig {
  const char *levelVariable;
  const char *destVariable;
  const char *prefix;
};
constexpr ModuleConfig kModules[] = {{"POPLAR_LOG_LEVEL", "POPLAR_LOG_DEST", "PO"},
                                     {"POPLIBS_LOG_LEVEL", "POPLIBS_LOG_DEST", "PL"}};
constexpr const char *kLevelNames[] = {"TRACE", "DEBUG", "INFO", "WARN", "ERR", "OFF"};

/// The level a module's variable names; the error message when it names none.
struct Configured {
  LogLevel level = LogLevel::Off;
  std::string error;
};

Configured readLevel(const ModuleConfig &m) {
  Configured c;
  const char *e = std::getenv(m.levelVariable);
  if (!e || !*e)
    return c;
  for (int i = 0; i < 6; ++i)
    if (strcasecmp(e, kLevelNames[i]) == 0) {
      c.level = LogLevel(i);
      return c;
    }
  c.error = std::string(m.levelVariable) + "='" + e +
            "' is not a log level: use TRACE, DEBUG, INFO, WARN, ERR or OFF (or unset it)";
  return c;
}

const Configured &configured(LogModule module) {
  static const Configured levels[] = {readLevel(kModules[0]), readLevel(kModules[1])};
  const Configured &c = levels[int(module)];
  if (!c.error.empty())
    throw invalid_option(c.error);
  return c;
}

FILE *destination(LogModule module) {
  static FILE *dests[2] = {nullptr, nullptr};
  FILE *&d = dests[int(module)];
  if (!d) {
    const char *name = std::getenv(kModules[int(module)].destVariable);
    if (!name || !*name || std::strcmp(name, "stderr") == 0)
      d = stderr;
    else if (std::strcmp(name, "stdout") == 0)
      d = stdout;
    else if (!(d = std::fopen(name, "a")))
      throw invalid_option(std::string(kModules[int(module)].destVariable) + "='" + name +
                           "' cannot be opened for appending: " + std::strerror(errno) +
                           " (give stdout, stderr or a writable file)");
  }
  return d;
}

std::mutex &logMutex() {
  static std::mutex m;
  return m;
}

} // namespace

bool logEnabled(LogLevel level, LogModule module) {
  LogLevel c = configured(module).level;
  return c != LogLevel::Off && level >= c;
}

void log(LogLevel level, const std::string &message, LogModule module) {
  if (!logEnabled(level, module))
    return;
  static const char *letters[] = {"T", "D", "I", "W", "E", "O"};
  std::lock_guard<std::mutex> lock(logMutex());
  FILE *d = destination(module);
  std::fprintf(d, "%s:[%s] %s\n", kModules[int(module)].prefix, letters[int(level)], message.c_str());
  std::fflush(d);
}

void checkLogEnvironment() {
  configured(LogModule::Poplar);
  configured(LogModule::Poplibs);
}

} // namespace poplar::detail
