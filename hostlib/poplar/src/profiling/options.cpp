// Internal: the engine's profiling options (debug.instrument*, debug.computeInstrumentationLevel, autoReport.*,
// debug.graphReportDestination / POPLAR_GRAPH_REPORT_DEST).
#include <cstdlib>

#include "poplar/exceptions.hpp"
#include "profiles.hpp"

namespace poplar::detail {

namespace {

bool boolOption(const OptionFlags &opts, const std::string &key, bool dflt) {
  if (!opts.contains(key))
    return dflt;
  const std::string &v = opts.at(key);
  if (v != "true" && v != "false")
    throw invalid_option(key + ": '" + v + "' is not a boolean; use \"true\" or \"false\"");
  return v == "true";
}

} // namespace

ProfilingOptions parseProfilingOptions(const OptionFlags &opts, bool instrumentDefault) {
  ProfilingOptions p;
  bool all = boolOption(opts, "autoReport.all", false);
  p.outputGraphProfile = boolOption(opts, "autoReport.outputGraphProfile", all);
  p.outputExecutionProfile = boolOption(opts, "autoReport.outputExecutionProfile", all);
  // An execution report needs measurements, so asking for one turns instrumentation on unless it is set.
  p.instrument = boolOption(opts, "debug.instrument", instrumentDefault || p.outputExecutionProfile);
  p.instrument = boolOption(opts, "debug.instrumentCompute", p.instrument);
  boolOption(opts, "debug.instrumentExternalExchange", false); // checked; host exchanges are stamped with compute
  if (opts.contains("debug.computeInstrumentationLevel")) {
    p.level = opts.at("debug.computeInstrumentationLevel");
    if (p.level != "tile" && p.level != "vertex" && p.level != "device" && p.level != "ipu")
      throw invalid_option("debug.computeInstrumentationLevel: '" + p.level +
                           "' is not a level; use tile, vertex, device or ipu");
  }
  if (opts.contains("autoReport.directory")) {
    p.directory = opts.at("autoReport.directory");
    if (p.directory.empty())
      throw invalid_option("autoReport.directory: empty; name a directory (it is created if missing)");
  }
  if (const char *env = std::getenv("POPLAR_GRAPH_REPORT_DEST"); env && *env)
    p.graphReportDest = env;
  if (opts.contains("debug.graphReportDestination"))
    p.graphReportDest = opts.at("debug.graphReportDestination");
  return p;
}

} // namespace poplar::detail
