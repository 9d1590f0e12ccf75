// Validation of the Engine's options: one table of every option name, the kind of value it takes, and whether the
// engine acts on it.
#include "engine_options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <vector>

#include "poplar/exceptions.hpp"

namespace poplar::detail {

namespace {

enum class Kind { Bool, Seconds, Count, CountOrAuto, Text, Choice };

struct OptionSpec {
  const char *name;
  Kind kind;
  const char *choices; ///< Kind::Choice: the accepted values, separated by '|'
  bool acted;          ///< false: documented by the SDK, accepted, not implemented yet
};

// The SDK's documented engine options. Those with acted == false are listed in the README as accepted and ignored.
const OptionSpec kOptions[] = {
    {"debug.instrument", Kind::Bool, nullptr, true},
    {"debug.instrumentCompute", Kind::Bool, nullptr, true},
    {"debug.reuseMemory", Kind::Bool, nullptr, true},
    {"debug.dumpCompiledGraph", Kind::Text, nullptr, true},
    {"target.hostSyncTimeout", Kind::Seconds, nullptr, true},
    {"debug.runTimeout", Kind::Seconds, nullptr, true},
    {"debug.watchdogKiloInsns", Kind::Count, nullptr, true},
    {"debug.instrumentExternalExchange", Kind::Bool, nullptr, true},
    {"debug.instrumentControlFlow", Kind::Bool, nullptr, false},
    {"debug.computeInstrumentationLevel", Kind::Choice, "vertex|tile|device|ipu", true},
    // Ours (docs/time-model.md): which cycles an IPU Model reports, the time model's or the tile model's measured.
    {"debug.cycleModel", Kind::Choice, "estimated|measured", true},
    {"debug.allowOutOfMemory", Kind::Bool, nullptr, false},
    {"debug.outputAllSymbols", Kind::Bool, nullptr, false},
    {"debug.retainDebugInformation", Kind::Bool, nullptr, false},
    {"debug.verify", Kind::Bool, nullptr, false},
    {"autoReport.all", Kind::Bool, nullptr, true},
    {"autoReport.outputGraphProfile", Kind::Bool, nullptr, true},
    {"autoReport.outputLoweredVars", Kind::Bool, nullptr, false},
    {"autoReport.outputArchive", Kind::Bool, nullptr, false},
    {"autoReport.outputExecutionProfile", Kind::Bool, nullptr, true},
    {"autoReport.outputSerializedGraph", Kind::Bool, nullptr, false},
    {"autoReport.outputDebugInfo", Kind::Bool, nullptr, false},
    {"autoReport.streamAtEachRun", Kind::Bool, nullptr, false},
    {"autoReport.executionProfileProgramRunCount", Kind::Count, nullptr, false},
    {"autoReport.directory", Kind::Text, nullptr, true},
    {"debug.graphReportDestination", Kind::Text, nullptr, true},
    {"profiler.format", Kind::Choice, "v1|v2|v3|experimental", false},
    {"profiler.includeFlopEstimates", Kind::Bool, nullptr, false},
    {"profiler.includeCycleEstimates", Kind::Bool, nullptr, false},
    {"profiler.replicaToProfile", Kind::Count, nullptr, true},
    {"opt.internalExchangeOptimisationTarget", Kind::Choice, "balanced|cycles|memory", false},
    {"opt.maxCopyMergeSize", Kind::Count, nullptr, false},
    {"opt.enableMultiAccessCopies", Kind::Bool, nullptr, false},
    {"opt.useAutoloader", Kind::Bool, nullptr, false},
    {"target.deterministicWorkers", Kind::Choice, "true|false|portable", false},
    {"target.saveArchive", Kind::Text, nullptr, false},
    // Options the SDK's users set (README "Engine options": none changes what the emulator computes).
    {"debug.executionProfile", Kind::Choice, "none|compute_sets|tile_level|ipu_level|device_level", false},
    {"debug.floatPointOpException", Kind::Bool, nullptr, false},
    {"debug.loweredVarDumpFile", Kind::Text, nullptr, false},
    {"debug.nanOverflowMode", Kind::Bool, nullptr, false},
    {"debug.runtimeVerify", Kind::Bool, nullptr, false},
    {"debug.trace", Kind::Bool, nullptr, false},
    {"exchange.enablePrefetch", Kind::Bool, nullptr, false},
    {"exchange.multicastPolicy", Kind::Text, nullptr, false},
    {"exchange.streamBufferOverlap", Kind::Choice, "none|hostRearrangeOnly|any", false},
    {"opt.enableInlining", Kind::Bool, nullptr, false},
    {"opt.maxCompilationThreads", Kind::Count, nullptr, false},
    {"streamCallbacks.multiThreadMode", Kind::Choice, "singleThread|collaborative|dedicated|none", false},
    {"streamCallbacks.numWorkerThreads", Kind::CountOrAuto, nullptr, false},
    {"streamCallbacks.numaAware", Kind::Bool, nullptr, false},
    {"target.exceptionPollPeriodUs", Kind::Count, nullptr, false},
    {"target.firstRuntimeReplica", Kind::Count, nullptr, false},
    {"target.numberRuntimeReplica", Kind::Count, nullptr, false},
    {"target.syncMethod", Kind::Choice, "default|polling|hybrid", false},
    {"target.syncPollPeriodUs", Kind::Count, nullptr, false},
    {"target.syncReplicasIndependently", Kind::Bool, nullptr, false},
    {"target.workerStackSizeInBytes", Kind::Count, nullptr, false},
};

const OptionSpec *find(const std::string &name) {
  for (const auto &s : kOptions)
    if (name == s.name)
      return &s;
  return nullptr;
}

std::string knownNames() {
  std::string out;
  for (const auto &s : kOptions)
    out += (out.empty() ? "" : ", ") + std::string(s.name);
  return out;
}

[[noreturn]] void bad(const std::string &name, const std::string &value, const std::string &accepted) {
  throw invalid_option("engine option " + name + "=\"" + value + "\" is not valid: it takes " + accepted);
}

bool parseBool(const std::string &name, const std::string &v) {
  if (v == "true")
    return true;
  if (v == "false")
    return false;
  bad(name, v, "\"true\" or \"false\"");
}

double parseSeconds(const std::string &name, const std::string &v) {
  const char *what = "a number of seconds >= 0 (e.g. \"300\" or \"0.5\")";
  if (v.empty() || !(std::isdigit(static_cast<unsigned char>(v[0])) || v[0] == '.'))
    bad(name, v, what);
  char *end = nullptr;
  errno = 0;
  double d = std::strtod(v.c_str(), &end);
  if (errno != 0 || *end != '\0' || !std::isfinite(d) || d < 0)
    bad(name, v, what);
  return d;
}

std::uint32_t parseCount(const std::string &name, const std::string &v) {
  const char *what = "a whole number from 0 to 4294967295, decimal or 0x hexadecimal (e.g. \"1000\" or \"0x400\")";
  // The SDK's users give sizes in either base (e.g. target.workerStackSizeInBytes "0x200").
  const bool hex = v.size() > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
  const std::string digits = hex ? v.substr(2) : v;
  if (digits.empty() || digits.size() > (hex ? 8u : 10u))
    bad(name, v, what);
  std::uint64_t n = 0;
  for (char c : digits) {
    if (hex && std::isxdigit(static_cast<unsigned char>(c))) {
      n = n * 16 + std::uint64_t(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
      continue;
    }
    if (c < '0' || c > '9')
      bad(name, v, what);
    n = n * 10 + std::uint64_t(c - '0');
  }
  if (n > 0xffffffffull)
    bad(name, v, what);
  return std::uint32_t(n);
}

void checkChoice(const OptionSpec &s, const std::string &v) {
  std::string all = s.choices;
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t bar = all.find('|', start);
    if (bar == std::string::npos)
      bar = all.size();
    if (all.compare(start, bar - start, v) == 0 && v.size() == bar - start)
      return;
    start = bar + 1;
  }
  std::string list;
  for (char c : all)
    list += c == '|' ? std::string("\", \"") : std::string(1, c);
  bad(s.name, v, "one of \"" + list + "\"");
}

} // namespace

std::size_t hashOptions(const OptionFlags &flags) {
  std::size_t h = 0;
  for (const auto &option : flags)
    h = h * 31 + std::hash<std::string>()(option.first + '\0' + option.second);
  return h;
}

OptionFlags withEnvironmentOptions(const OptionFlags &given) {
  OptionFlags all = given;
  if (const char *env = std::getenv("POPLAR_ENGINE_OPTIONS"); env && *env) {
    OptionFlags fromEnv;
    readJSON(std::string(env), fromEnv);
    for (const auto &kv : fromEnv)
      all.set(kv.first, kv.second);
  }
  return all;
}

EngineOptions parseEngineOptions(const OptionFlags &merged) {
  EngineOptions out;
  for (const auto &[name, value] : merged) {
    const OptionSpec *s = find(name);
    if (!s)
      throw invalid_option("unknown engine option \"" + name + "\"; the engine accepts: " + knownNames());
    switch (s->kind) {
    case Kind::Bool: {
      bool b = parseBool(name, value);
      if (name == "debug.instrument" || name == "debug.instrumentCompute") {
        out.instrumentSet = true;
        out.instrument = b;
      } else if (name == "debug.reuseMemory") {
        out.reuseMemory = b;
      }
      break;
    }
    case Kind::Seconds: {
      double d = parseSeconds(name, value);
      if (name == "target.hostSyncTimeout")
        out.hostSyncTimeout = d;
      else
        out.runTimeout = d;
      break;
    }
    case Kind::Count: {
      std::uint32_t n = parseCount(name, value);
      if (name == "debug.watchdogKiloInsns")
        out.watchdogKiloInsns = n;
      else if (name == "profiler.replicaToProfile")
        out.replicaToProfile = n;
      break;
    }
    case Kind::CountOrAuto:
      if (value != "auto")
        parseCount(name, value);
      break;
    case Kind::Text:
      // A file name and a policy name: an empty value is a mistake (the older text options keep accepting it).
      if (value.empty() && (name == "debug.loweredVarDumpFile" || name == "exchange.multicastPolicy"))
        bad(name, value, "a non-empty value");
      if (name == "debug.dumpCompiledGraph")
        out.dumpPath = value;
      break;
    case Kind::Choice:
      checkChoice(*s, value);
      if (name == "debug.cycleModel")
        out.measuredCycles = value == "measured";
      break;
    }
  }
  return out;
}

} // namespace poplar::detail
