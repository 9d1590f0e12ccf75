// Internal: the profile summary printer.
#include "profile.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "poplar/exceptions.hpp"
#include "target_values.hpp"

namespace poplar::detail {

std::string grouped(std::uint64_t v) {
  std::string s = std::to_string(v), out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i && (s.size() - i) % 3 == 0)
      out += ',';
    out += s[i];
  }
  return out;
}

namespace {

std::string fixed1(double v) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << v;
  std::string s = os.str();
  auto dot = s.find('.');
  return grouped(std::uint64_t(v)) + s.substr(dot);
}

} // namespace

SummaryOptions parseSummaryOptions(const OptionFlags &opts) {
  SummaryOptions o;
  const std::pair<const char *, bool *> known[] = {{"showExecutionSteps", &o.showExecutionSteps},
                                                   {"showVarStorage", &o.showVarStorage},
                                                   {"showOptimizations", &o.showOptimizations},
                                                   {"showPerIpuMemoryUsage", &o.showPerIpuMemoryUsage},
                                                   {"colours", &o.colours}};
  for (const auto &[name, value] : opts) {
    bool *target = nullptr;
    std::string names;
    for (const auto &k : known) {
      names += std::string(names.empty() ? "" : ", ") + k.first;
      if (name == k.first)
        target = k.second;
    }
    if (!target)
      throw invalid_option("printProfileSummary: unknown option '" + name + "' (known: " + names + ")");
    if (value != "true" && value != "false")
      throw invalid_option("printProfileSummary: option '" + name + "' must be true or false, not '" + value +
                           "'");
    *target = value == "true";
  }
  return o;
}

void printSummary(std::ostream &out, const Target &target, const CompiledGraph &cg, bool ran, std::uint64_t cycles,
                  unsigned program, const std::vector<std::uint64_t> &stepCycles, bool showSteps, bool estimated,
                  std::uint64_t measuredCycles) {
  out << "Target:\n"
      << "  Number of IPUs:         " << target.getNumIPUs() << "\n"
      << "  Tiles per IPU:          " << grouped(target.getTilesPerIPU()) << "\n"
      << "  Total Tiles:            " << grouped(target.getNumTiles()) << "\n"
      << "  Memory Per-Tile:        " << fixed1(target.getBytesPerTile() / 1024.0) << " kB\n"
      << "  Total Memory:           " << fixed1(double(target.getMemoryBytes()) / (1024.0 * 1024.0)) << " MB\n"
      << "  Clock Speed (approx):   " << fixed1(target.getTileClockFrequency() / 1e6) << " MHz\n"
      << "  Board:                  " << cg.board.name << " (" << toString(target.getTargetType()) << ")\n\n";
  out << "Graph:\n"
      << "  Number of vertices:     " << std::setw(12) << grouped(cg.numVertices) << "\n"
      << "  Number of edges:        " << std::setw(12) << grouped(cg.numEdges) << "\n"
      << "  Number of variables:    " << std::setw(12) << grouped(cg.numVars) << "\n"
      << "  Number of compute sets: " << std::setw(12) << grouped(cg.numComputeSets) << "\n\n";

  // An IPU Model with compileIPUCode = false reports memory without code, as the SDK's model does.
  bool countCode = target.getTargetType() != TargetType::IPU_MODEL || target.values().compileIPUCode;
  std::uint64_t codeBytes = countCode ? cg.image.codeBytes : 0;
  std::uint64_t dataTotal = 0, maxUsed = 0;
  std::uint32_t maxTile = 0;
  std::vector<std::uint64_t> perTile;
  for (const auto &[t, td] : cg.tileData) {
    std::uint64_t used = td.bytes.size() + codeBytes;
    perTile.push_back(used);
    dataTotal += td.bytes.size();
    if (used > maxUsed) {
      maxUsed = used;
      maxTile = t;
    }
  }
  out << "Memory Usage:\n"
      << "  Total (tiles in use, " << (countCode ? "including" : "excluding") << " code):  "
      << grouped(dataTotal + codeBytes * cg.tiles.size()) << " B\n"
      << "    Code, runtime, heap (each tile):     "
      << (countCode ? grouped(codeBytes) + " B" : std::string("not counted (IPUModel::compileIPUCode is false)"))
      << "\n"
      << "    Stacks (each tile):                  "
      << grouped(cg.board.bytes_per_tile - (cg.image.freeEnd - 0x00100000u)) << " B\n"
      << "  By Data Type:\n";
  for (const auto &[cat, bytes] : cg.bytesByCategory)
    out << "      " << std::left << std::setw(28) << (cat + ":") << std::right << std::setw(14) << grouped(bytes)
        << " B\n";
  out << "\n  By Tile (" << (countCode ? "Including" : "Excluding") << " Code):\n"
      << "    Range (KB) Histogram                                    Count (tiles)\n";
  if (!perTile.empty()) {
    std::uint64_t lo = *std::min_element(perTile.begin(), perTile.end()) / 1024;
    std::uint64_t hi = maxUsed / 1024 + 1;
    std::uint64_t width = std::max<std::uint64_t>(1, (hi - lo + 15) / 16);
    std::vector<unsigned> counts((hi - lo + width - 1) / width, 0);
    for (auto u : perTile)
      counts[std::min<std::size_t>((u / 1024 - lo) / width, counts.size() - 1)]++;
    unsigned peak = *std::max_element(counts.begin(), counts.end());
    for (std::size_t i = 0; i < counts.size(); ++i) {
      unsigned stars = counts[i] ? std::max(1u, unsigned(40.0 * counts[i] / peak)) : 0;
      out << "    " << std::setw(4) << lo + i * width << " - " << std::setw(4) << lo + (i + 1) * width << " "
          << std::left << std::setw(42) << std::string(stars, '*') << std::right << std::setw(6) << counts[i]
          << "\n";
    }
  }
  out << "\n    Maximum: " << grouped(maxUsed) << " (" << fixed1(maxUsed / 1024.0) << " K) on tile " << maxTile << "\n"
      << "    Tiles in use: " << cg.tiles.size() << " of " << target.getNumTiles() << "\n"
      << "    0 tile(s) out of memory\n\n";

  out << "Execution:\n";
  if (!ran) {
    out << "  (no run yet)\n";
  } else {
    double secs = double(cycles) / target.getTileClockFrequency();
    out << "  Program " << program << " (last run): " << grouped(cycles) << " cycles (approx " << fixed1(secs * 1e6)
        << " us at " << fixed1(target.getTileClockFrequency() / 1e6) << " MHz)"
        << (estimated ? ", the IPU Model's estimate" : "") << "\n";
    if (estimated)
      out << "  Measured by the tile model: " << grouped(measuredCycles) << " cycles (debug.cycleModel=measured)\n";
    if (!stepCycles.empty()) {
      out << "\n    Cycles by step"
          << (estimated           ? std::string(" (estimated, each step ends with a sync)")
              : cg.instr.enabled ? " (measured on tile " + std::to_string(cg.instr.tile) + ", each step ends with a sync)"
                                 : std::string())
          << ":\n";
      const auto &tops = cg.instr.topSteps[program];
      const auto &infos = cg.steps[program];
      for (std::size_t k = 0; k < tops.size() && k < stepCycles.size(); ++k) {
        out << "    " << std::setw(12) << grouped(stepCycles[k]) << "  ";
        if (tops[k].first == tops[k].second)
          out << "(empty)\n";
        for (std::size_t i = tops[k].first; i < tops[k].second; ++i) {
          if (i != tops[k].first)
            out << "    " << std::setw(12) << "" << "  ";
          out << std::string(2 * infos[i].depth, ' ') << infos[i].what
              << (infos[i].bytes ? ", " + grouped(infos[i].bytes) + " B" : "") << "\n";
        }
      }
    }
  }
  if (showSteps)
    for (std::size_t p = 0; p < cg.steps.size(); ++p) {
      out << "\n  Program " << p << " steps:\n";
      for (const auto &s : cg.steps[p])
        out << "    " << std::string(2 * s.depth, ' ') << s.what << (s.bytes ? ", " + grouped(s.bytes) + " B" : "")
            << "\n";
    }
}

} // namespace poplar::detail
