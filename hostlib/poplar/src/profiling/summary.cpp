// printProfileSummary / printGraphSummary / printExecutionSummary: the profiles as text a person reads.
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include "../profile.hpp"
#include "poplar/ProfileSummary.hpp"

namespace poplar {

namespace {

using detail::grouped;

/// Colour decision: the option, then CLICOLOR=0 (off), then CLICOLOR_FORCE=1 (on) overriding both.
bool useColours(std::ostream &out, const OptionFlags &options, bool optionValue) {
  bool on = options.contains("colours") ? optionValue : (&out == &std::cout && isatty(1));
  if (const char *c = std::getenv("CLICOLOR"); c && std::string(c) == "0")
    on = false;
  if (const char *f = std::getenv("CLICOLOR_FORCE"); f && std::string(f) == "1")
    on = true;
  return on;
}

struct Style {
  bool on = false;
  std::string heading(const std::string &s) const { return on ? "\033[1;34m" + s + "\033[0m" : s; }
  std::string value(const std::string &s) const { return on ? "\033[1m" + s + "\033[0m" : s; }
};

/// The sections the summary options add: memory per IPU, optimisation figures, bytes live at each step.
void optionalSections(std::ostream &out, const ProfileValue &gp, const detail::SummaryOptions &o, const Style &st) {
  const auto &t = gp["target"];
  const auto &mem = gp["memory"];
  const auto &byTile = mem["byTile"]["totalIncludingGaps"].asVector();
  if (o.showPerIpuMemoryUsage) {
    std::uint64_t perIpu = t["tilesPerIPU"].asUInt();
    out << "  By IPU:\n";
    for (std::uint64_t ipu = 0; ipu < t["numIPUs"].asUInt(); ++ipu) {
      std::uint64_t sum = 0;
      for (std::size_t i = ipu * perIpu; i < (ipu + 1) * perIpu && i < byTile.size(); ++i)
        sum += byTile[i].asUInt();
      out << "    IPU " << ipu << ": " << std::setw(14) << grouped(sum) << " B\n";
    }
  }
  if (o.showOptimizations) {
    out << "\n" << st.heading("Optimizations:") << "\n";
    for (const auto &kv : gp["optimizationInfo"].asMap())
      out << "  " << std::left << std::setw(24) << (kv.first + ":") << std::right << kv.second.asDouble() << "\n";
  }
  if (o.showVarStorage) {
    out << "\n" << st.heading("Variable storage (bytes live on all tiles at each step):") << "\n";
    const auto &progs = mem["liveness"]["byProgram"].asVector();
    for (std::size_t p = 0; p < progs.size(); ++p) {
      out << "  Program " << p << ":\n";
      const auto &live = progs[p]["liveBytes"].asVector();
      const auto &stepNames = progs[p]["stepNames"].asVector();
      for (std::size_t i = 0; i < live.size() && i < stepNames.size(); ++i)
        out << "    " << std::setw(12) << grouped(live[i].asUInt()) << "  " << stepNames[i].asString() << "\n";
    }
  }
}

void graphSummary(std::ostream &out, const ProfileValue &gp, const detail::SummaryOptions &o, const Style &st) {
  const auto &t = gp["target"];
  out << st.heading("Target:") << "\n"
      << "  Type:                   " << t["type"].asString() << "\n"
      << "  Number of IPUs:         " << t["numIPUs"].asUInt() << "\n"
      << "  Tiles per IPU:          " << grouped(t["tilesPerIPU"].asUInt()) << "\n"
      << "  Total Tiles:            " << grouped(t["numTiles"].asUInt()) << "\n"
      << "  Memory Per-Tile:        " << grouped(t["bytesPerTile"].asUInt()) << " B\n"
      << "  Total Memory:           " << grouped(t["totalMemory"].asUInt()) << " B\n"
      << "  Clock Speed (approx):   " << std::fixed << std::setprecision(1)
      << t["clockFrequency"].asDouble() / 1e6 << " MHz\n\n";
  const auto &g = gp["graph"];
  out << st.heading("Graph:") << "\n"
      << "  Number of vertices:     " << std::setw(12) << grouped(g["numVertices"].asUInt()) << "\n"
      << "  Number of edges:        " << std::setw(12) << grouped(g["numEdges"].asUInt()) << "\n"
      << "  Number of variables:    " << std::setw(12) << grouped(g["numVars"].asUInt()) << "\n"
      << "  Number of compute sets: " << std::setw(12) << grouped(g["numComputeSets"].asUInt()) << "\n\n";

  const auto &mem = gp["memory"];
  const auto &byTile = mem["byTile"]["totalIncludingGaps"].asVector();
  std::uint64_t maxBytes = 0, maxTile = 0, inUse = 0;
  for (std::size_t i = 0; i < byTile.size(); ++i) {
    std::uint64_t b = byTile[i].asUInt();
    inUse += b > 0;
    if (b > maxBytes) {
      maxBytes = b;
      maxTile = i;
    }
  }
  out << st.heading("Memory Usage:") << "\n"
      << "  Total (including gaps): " << st.value(grouped(mem["byTile"]["totalIncludingGaps"].sumUInt())) << " B\n"
      << "  Total (data and code):  " << grouped(mem["byTile"]["total"].sumUInt()) << " B\n"
      << "  Maximum:                " << grouped(maxBytes) << " B on tile " << maxTile << "\n"
      << "  Tiles in use:           " << inUse << " of " << byTile.size() << "\n"
      << "  By Category:\n";
  for (const auto &kv : mem["byCategory"].asMap())
    out << "    " << std::left << std::setw(28) << (kv.first + ":") << std::right << std::setw(14)
        << grouped(kv.second["total"].sumUInt()) << " B\n";
  out << "  By Vertex Type (vertex state):\n";
  const auto &names = gp["vertexTypes"]["names"].asVector();
  const auto &vt = mem["byVertexType"]["vertexDataBytes"];
  for (std::size_t i = 0; i < names.size(); ++i)
    out << "    " << std::left << std::setw(28) << (names[i].asString() + ":") << std::right << std::setw(14)
        << grouped(vt[i].sumUInt()) << " B\n";
  optionalSections(out, gp, o, st);
  out << "\n";
}

void executionSummary(std::ostream &out, const ProfileValue &gp, const ProfileValue &ep,
                      const detail::SummaryOptions &o, const Style &st) {
  const auto &sim = ep["simulation"];
  double hz = gp["target"]["clockFrequency"].asDouble();
  std::uint64_t cycles = sim["cycles"].asUInt();
  out << st.heading("Execution:") << "\n"
      << "  Profiler mode:          " << ep["profilerMode"].asString() << "\n"
      << "  Programs run:           " << ep["programTrace"].size() << "\n"
      << "  Total cycles:           " << st.value(grouped(cycles)) << " (approx " << std::fixed
      << std::setprecision(1) << (hz > 0 ? double(cycles) / hz * 1e6 : 0.0) << " us)\n"
      << "  Tile cycles by activity:\n";
  for (const auto &kv : sim["tileCycles"].asMap())
    out << "    " << std::left << std::setw(22) << (kv.first + ":") << std::right << std::setw(14)
        << grouped(kv.second.asUInt()) << "\n";
  const auto &steps = sim["steps"].asVector();
  if (o.showExecutionSteps) {
    out << "\n  Steps (" << steps.size() << "):\n"
        << "    " << std::setw(12) << "From" << std::setw(12) << "Cycles" << std::setw(7) << "Tiles" << std::setw(9)
        << "Balance" << "  Type / name\n";
    for (const auto &s : steps)
      out << "    " << std::setw(12) << grouped(s["cyclesFrom"].asUInt()) << std::setw(12)
          << grouped(s["cycles"].asUInt()) << std::setw(7) << s["activeTiles"].asUInt() << std::setw(9)
          << std::setprecision(2) << s["tileBalance"].asDouble() << "  " << s["type"].asString() << " "
          << s["name"].asString() << "\n";
  }
  out << "\n";
}

} // namespace

namespace detail {
void printOptionalSections(std::ostream &out, const ProfileValue &graphProfile, const OptionFlags &options) {
  SummaryOptions o = parseSummaryOptions(options);
  Style st{useColours(out, options, o.colours)};
  std::ios::fmtflags flags = out.flags();
  optionalSections(out, graphProfile, o, st);
  out.flags(flags);
}
} // namespace detail

void printGraphSummary(std::ostream &out, const ProfileValue &graphProfile, const OptionFlags &options) {
  detail::SummaryOptions o = detail::parseSummaryOptions(options);
  Style st{useColours(out, options, o.colours)};
  std::ios::fmtflags flags = out.flags();
  graphSummary(out, graphProfile, o, st);
  out.flags(flags);
}

void printExecutionSummary(std::ostream &out, const ProfileValue &graphProfile, const ProfileValue &executionProfile,
                           const OptionFlags &options) {
  detail::SummaryOptions o = detail::parseSummaryOptions(options);
  Style st{useColours(out, options, o.colours)};
  std::ios::fmtflags flags = out.flags();
  executionSummary(out, graphProfile, executionProfile, o, st);
  out.flags(flags);
}

void printProfileSummary(std::ostream &out, const ProfileValue &graphProfile, const ProfileValue &executionProfile,
                         const OptionFlags &options) {
  printGraphSummary(out, graphProfile, options);
  if (!(executionProfile.isMap() && executionProfile.size() == 0))
    printExecutionSummary(out, graphProfile, executionProfile, options);
}

} // namespace poplar
