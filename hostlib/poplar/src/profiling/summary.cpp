// printProfileSummary / printGraphSummary / printExecutionSummary: the profiles as text a person reads.
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

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

/// "12.3": one decimal, the integer part grouped (how the summary prints kB, MB, MHz and microseconds).
std::string fixed1(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << v;
  const std::string s = os.str();
  return grouped(std::uint64_t(v)) + s.substr(s.find('.'));
}

/// Each tile's bytes as the summary counts them: with gaps, and without the code when the target does not count
/// it (an IPU Model with compileIPUCode false). Tiles that hold nothing are not in use and are left out.
std::vector<std::pair<std::size_t, std::uint64_t>> tilesInUse(const ProfileValue &mem, bool countCode,
                                                                std::uint64_t codeBytes) {
  std::vector<std::pair<std::size_t, std::uint64_t>> out;
  const auto &byTile = mem["byTile"]["totalIncludingGaps"].asVector();
  for (std::size_t t = 0; t < byTile.size(); ++t)
    if (std::uint64_t b = byTile[t].asUInt(); b > 0)
      out.emplace_back(t, countCode || b < codeBytes ? b : b - codeBytes);
  return out;
}

/// Tiles by bytes used, in up to 16 ranges of whole KB, as a bar of stars each.
void tileHistogram(std::ostream &out, const std::vector<std::pair<std::size_t, std::uint64_t>> &tiles,
                   std::uint64_t maxUsed) {
  if (tiles.empty())
    return;
  std::uint64_t lo = maxUsed;
  for (const auto &[t, b] : tiles)
    lo = std::min(lo, b);
  lo /= 1024;
  const std::uint64_t hi = maxUsed / 1024 + 1;
  const std::uint64_t width = std::max<std::uint64_t>(1, (hi - lo + 15) / 16);
  std::vector<unsigned> counts((hi - lo + width - 1) / width, 0);
  for (const auto &[t, b] : tiles)
    counts[std::min<std::size_t>((b / 1024 - lo) / width, counts.size() - 1)]++;
  const unsigned peak = *std::max_element(counts.begin(), counts.end());
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const unsigned stars = counts[i] ? std::max(1u, unsigned(40.0 * counts[i] / peak)) : 0;
    out << "    " << std::setw(4) << lo + i * width << " - " << std::setw(4) << lo + (i + 1) * width << " " << std::left
        << std::setw(42) << std::string(stars, '*') << std::right << std::setw(6) << counts[i] << "\n";
  }
}

void graphSummary(std::ostream &out, const ProfileValue &gp, const detail::SummaryOptions &o, const Style &st) {
  const auto &t = gp["target"];
  out << st.heading("Target:") << "\n"
      << "  Type:                   " << t["type"].asString() << "\n"
      << "  Number of IPUs:         " << t["numIPUs"].asUInt() << "\n"
      << "  Tiles per IPU:          " << grouped(t["tilesPerIPU"].asUInt()) << "\n"
      << "  Total Tiles:            " << grouped(t["numTiles"].asUInt()) << "\n"
      << "  Memory Per-Tile:        " << fixed1(double(t["bytesPerTile"].asUInt()) / 1024.0) << " kB\n"
      << "  Total Memory:           " << fixed1(double(t["totalMemory"].asUInt()) / (1024.0 * 1024.0)) << " MB\n"
      << "  Clock Speed (approx):   " << fixed1(t["clockFrequency"].asDouble() / 1e6) << " MHz\n";
  if (t.contains("board"))
    out << "  Board:                  " << t["board"].asString() << "\n";
  out << "\n";
  const auto &g = gp["graph"];
  out << st.heading("Graph:") << "\n"
      << "  Number of vertices:     " << std::setw(12) << grouped(g["numVertices"].asUInt()) << "\n"
      << "  Number of edges:        " << std::setw(12) << grouped(g["numEdges"].asUInt()) << "\n"
      << "  Number of variables:    " << std::setw(12) << grouped(g["numVars"].asUInt()) << "\n"
      << "  Number of compute sets: " << std::setw(12) << grouped(g["numComputeSets"].asUInt()) << "\n\n";

  // Profiles written before the summary's own keys (or by another tool) count the code as the totals do.
  const auto &mem = gp["memory"];
  const bool countCode = !mem.contains("codeCounted") || mem["codeCounted"].asBool();
  const std::uint64_t codeBytes = mem.contains("codeBytesPerTile") ? mem["codeBytesPerTile"].asUInt() : 0;
  const auto tiles = tilesInUse(mem, countCode, codeBytes);
  std::uint64_t total = 0, maxUsed = 0;
  std::size_t maxTile = 0;
  for (const auto &[tile, b] : tiles) {
    total += b;
    if (b > maxUsed) {
      maxUsed = b;
      maxTile = tile;
    }
  }
  out << st.heading("Memory Usage:") << "\n"
      << "  Total (tiles in use, " << (countCode ? "including" : "excluding") << " code):  "
      << st.value(grouped(total)) << " B\n";
  if (mem.contains("codeBytesPerTile"))
    out << "    Code, runtime, heap (each tile):     "
        << (countCode ? grouped(codeBytes) + " B" : std::string("not counted (IPUModel::compileIPUCode is false)"))
        << "\n";
  if (mem.contains("stackBytesPerTile"))
    out << "    Stacks (each tile):                  " << grouped(mem["stackBytesPerTile"].asUInt()) << " B\n";
  out << "  By Data Type:\n";
  for (const auto &kv : mem["byCategory"].asMap())
    if (kv.first != "stack" && (countCode || kv.first != "vertexCode"))
      if (std::uint64_t b = kv.second["total"].sumUInt(); b > 0)
        out << "      " << std::left << std::setw(28) << (kv.first + ":") << std::right << std::setw(14) << grouped(b)
            << " B\n";
  out << "  By Vertex Type (vertex state):\n";
  const auto &names = gp["vertexTypes"]["names"].asVector();
  const auto &vt = mem["byVertexType"]["vertexDataBytes"];
  for (std::size_t i = 0; i < names.size(); ++i)
    out << "      " << std::left << std::setw(28) << (names[i].asString() + ":") << std::right << std::setw(14)
        << grouped(vt[i].sumUInt()) << " B\n";
  out << "\n  By Tile (" << (countCode ? "Including" : "Excluding") << " Code):\n"
      << "    Range (KB) Histogram                                    Count (tiles)\n";
  tileHistogram(out, tiles, maxUsed);
  out << "\n    Maximum: " << grouped(maxUsed) << " (" << fixed1(double(maxUsed) / 1024.0) << " K) on tile " << maxTile
      << "\n"
      << "    Tiles in use: " << tiles.size() << " of " << t["numTiles"].asUInt() << "\n"
      << "    0 tile(s) out of memory\n";
  optionalSections(out, gp, o, st);
  out << "\n";
}

/// A step of the last run and what it is made of: the program tree under it in the graph profile, a level deeper
/// each, with the bytes an exchange moves.
void stepTree(std::ostream &out, const ProfileValue &programs, std::uint64_t id, unsigned depth, bool first) {
  const auto &node = programs[id];
  if (!first)
    out << "    " << std::setw(12) << "" << "  ";
  out << std::string(2 * depth, ' ') << node["name"].asString()
      << (node.contains("bytes") ? ", " + grouped(node["bytes"].asUInt()) + " B" : "") << "\n";
  if (node.contains("children"))
    for (const auto &child : node["children"].asVector())
      stepTree(out, programs, child.asUInt(), depth + 1, false);
}

void executionSummary(std::ostream &out, const ProfileValue &gp, const ProfileValue &ep,
                      const detail::SummaryOptions &o, const Style &st) {
  const auto &sim = ep["simulation"];
  const double hz = gp["target"]["clockFrequency"].asDouble();
  const auto micros = [&](std::uint64_t cycles) { return fixed1(hz > 0 ? double(cycles) / hz * 1e6 : 0.0); };
  const std::uint64_t cycles = sim["cycles"].asUInt();
  out << st.heading("Execution:") << "\n";
  const auto &runs = sim.contains("runs") ? sim["runs"].asVector() : ProfileValue::Vector{};
  if (ep["programTrace"].size() == 0) {
    out << "  (no run yet)\n\n";
    return;
  }
  out << "  Profiler mode:          " << ep["profilerMode"].asString() << "\n"
      << "  Programs run:           "
      << ep["programTrace"].size() + (sim.contains("earlierRuns") ? sim["earlierRuns"].asUInt() : 0) << "\n"
      << "  Total cycles:           " << st.value(grouped(cycles)) << " (approx " << micros(cycles) << " us)\n";
  const auto &steps = sim["steps"].asVector();
  if (!runs.empty()) {
    const auto &last = runs.back();
    const bool estimated = last["estimated"].asBool();
    out << "  Program " << last["program"].asUInt() << " (last run): " << grouped(last["cycles"].asUInt())
        << " cycles (approx " << micros(last["cycles"].asUInt()) << " us at " << fixed1(hz / 1e6) << " MHz)"
        << (estimated ? ", the IPU Model's estimate" : "") << "\n";
    if (estimated)
      out << "  Measured by the tile model: " << grouped(last["measuredCycles"].asUInt())
          << " cycles (debug.cycleModel=measured)\n";
    const std::uint64_t first = last["firstStep"].asUInt(), n = last["numSteps"].asUInt();
    if (n > 0) {
      const auto &instr = gp["instrumentation"];
      out << "\n    Cycles by step"
          << (estimated             ? std::string(" (estimated, each step ends with a sync)")
              : instr.contains("tile") ? " (measured on tile " + std::to_string(instr["tile"].asUInt()) +
                                             ", each step ends with a sync)"
                                       : std::string())
          << ":\n";
      for (std::uint64_t k = first; k < first + n && k < steps.size(); ++k) {
        out << "    " << std::setw(12) << grouped(steps[k]["cycles"].asUInt()) << "  ";
        stepTree(out, gp["programs"], steps[k]["program"].asUInt(), 0, true);
      }
    }
  }
  out << "  Tile cycles by activity:\n";
  for (const auto &kv : sim["tileCycles"].asMap())
    out << "    " << std::left << std::setw(22) << (kv.first + ":") << std::right << std::setw(14)
        << grouped(kv.second.asUInt()) << "\n";
  if (o.showExecutionSteps) {
    out << "\n  Steps (" << steps.size() << "):\n"
        << "    " << std::setw(12) << "From" << std::setw(12) << "Cycles" << std::setw(7) << "Tiles" << std::setw(9)
        << "Balance" << "  Type / name\n";
    for (const auto &s : steps)
      out << "    " << std::setw(12) << grouped(s["cyclesFrom"].asUInt()) << std::setw(12)
          << grouped(s["cycles"].asUInt()) << std::setw(7) << s["activeTiles"].asUInt() << std::setw(9)
          << std::fixed << std::setprecision(2) << s["tileBalance"].asDouble() << "  " << s["type"].asString()
          << " " << s["name"].asString() << "\n";
  }
  out << "\n";
}

} // namespace


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
