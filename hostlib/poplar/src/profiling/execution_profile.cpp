// Internal: the execution profile, from the cycle stamps the card wrote after each top-level step of each run.
#include <algorithm>
#include <map>

#include "profiles.hpp"

namespace poplar::detail {

namespace {

using Vec = ProfileValue::Vector;
using Map = ProfileValue::Map;

double ratio(double num, double den) { return den > 0 ? num / den : 1.0; }

} // namespace

std::vector<VertexSummary> summariseVertices(const GraphImpl &graph, const ProfileValue &graphProfile) {
  std::map<std::string, unsigned> typeIndex;
  const auto &names = graphProfile["vertexTypes"]["names"].asVector();
  for (std::size_t i = 0; i < names.size(); ++i)
    typeIndex[names[i].asString()] = unsigned(i);
  std::vector<VertexSummary> out;
  for (const auto &v : graph.vertices)
    out.push_back(VertexSummary{v.computeSet, typeIndex[v.type], v.tile});
  return out;
}

ProfileValue buildExecutionProfile(const ProfileValue &gp, const CompiledGraph &cg, const ProfilingOptions &opts,
                                   const std::vector<VertexSummary> &vertices, const RunHistory &history) {
  const std::size_t numTiles = gp["target"]["numTiles"].asUInt();
  // A tile's thread balance: its vertices over the worker contexts it has (the board's, not a fixed six).
  const unsigned workers = std::max(1u, unsigned(gp["target"]["numWorkerContexts"].asUInt()));
  const std::size_t numCS = gp["computeSets"]["names"].size();
  const double tilesInUse = double(cg.tiles.size());
  // Vertices per compute set per tile: which tiles compute in a step and how many threads they can keep busy.
  std::vector<std::map<unsigned, unsigned>> perTile(numCS);
  for (const auto &v : vertices)
    if (v.computeSet < numCS)
      perTile[v.computeSet][v.tile]++;

  Map root;
  bool measured = opts.instrument && cg.instr.enabled;
  std::string mode = !measured                                        ? "NONE"
                     : opts.level == "vertex"                          ? "VERTICES"
                     : opts.level == "device" || opts.level == "ipu"   ? "SINGLE_TILE_COMPUTE_SETS"
                                                                       : "COMPUTE_SETS";
  root["profilerMode"] = mode;

  std::vector<std::uint64_t> csCycles(numCS, 0); // the last measured execution of each compute set
  Vec trace, steps, runList;
  std::uint64_t offset = 0, compute = 0, activeCompute = 0, exchange = 0, stream = 0, total = 0, measuredTotal = 0;
  bool estimated = false;
  // Runs folded into their program's sums (RunHistory) come first: they count in the totals and tile cycles but
  // have no trace entry, steps or run record of their own.
  auto account = [&](const RunRecord &run, bool folded) {
    std::uint64_t root0 = gp["controlPrograms"][run.program].asUInt();
    if (!folded)
      trace.push_back((unsigned long long)root0);
    total += run.cycles;
    measuredTotal += run.measuredCycles;
    estimated = estimated || run.estimated;
    const auto &tops = cg.instr.topSteps.size() > run.program ? cg.instr.topSteps[run.program]
                                                              : std::vector<std::pair<std::size_t, std::size_t>>{};
    const auto &infos = cg.steps[run.program];
    const std::size_t firstStep = steps.size();
    std::uint64_t at = offset;
    for (std::size_t k = 0; k < tops.size() && k < run.stepCycles.size(); ++k) {
      std::uint64_t cycles = run.stepCycles[k];
      std::uint64_t from = at;
      at += cycles;
      if (tops[k].first == tops[k].second)
        continue;
      const StepInfo &s = infos[tops[k].first];
      std::uint64_t programId = root0 + 1 + tops[k].first;
      Map step;
      step["type"] = s.kind.empty() ? gp["programs"][programId]["type"].asString() : s.kind;
      step["program"] = (unsigned long long)programId;
      step["name"] = s.what;
      step["cycles"] = (unsigned long long)cycles;
      if (k < run.measuredStepCycles.size())
        step["measuredCycles"] = (unsigned long long)run.measuredStepCycles[k];
      step["cyclesFrom"] = (unsigned long long)from;
      step["cyclesTo"] = (unsigned long long)at;
      double active = tilesInUse, tileBalance = ratio(tilesInUse, double(numTiles)), activeBalance = 1.0;
      if (s.kind == "OnTileExecute" && s.computeSet < numCS) {
        const auto &tiles = perTile[s.computeSet];
        active = double(tiles.size());
        // With estimates (IPU Model) a tile's share follows its estimated cycles; else every busy tile is busy
        // for the whole measured step.
        std::vector<double> busy;
        if (gp["computeSets"].contains("cycleEstimates")) {
          const auto &est = gp["computeSets"]["cycleEstimates"]["cyclesByTile"][s.computeSet];
          for (const auto &[t, n] : tiles)
            busy.push_back(double(est[t].asUInt()));
        }
        double maxBusy = busy.empty() ? 0 : *std::max_element(busy.begin(), busy.end());
        double sumBusy = 0;
        for (double b : busy)
          sumBusy += b;
        if (maxBusy == 0) {
          busy.assign(tiles.size(), 1.0);
          maxBusy = 1.0;
          sumBusy = double(tiles.size());
        }
        tileBalance = ratio(sumBusy, maxBusy * double(numTiles));
        activeBalance = ratio(sumBusy, maxBusy * active);
        double threads = 0;
        for (const auto &[t, n] : tiles)
          threads += double(std::min(n, workers)) / double(workers);
        step["threadBalance"] = ratio(threads, active);
        step["computeSet"] = s.computeSet;
        step["cyclesOverlapped"] = 0u; // every step ends with a sync, so steps never overlap
        compute += cycles * std::uint64_t(active);
        activeCompute += std::uint64_t(double(cycles) * threads);
        if (!folded)
          csCycles[s.computeSet] = cycles;
      } else if (s.kind == "DoExchange" || s.kind == "StreamCopy") {
        std::uint64_t id = gp["programs"][programId]["exchange"].asUInt();
        const auto &area = gp[s.kind == "DoExchange" ? "exchanges" : "hostExchanges"];
        const auto &in = area["bytesReceivedByTile"][id].asVector();
        const auto &out = area["bytesSentByTile"][id].asVector();
        double totalData = 0, maxData = 0;
        unsigned busyTiles = 0;
        for (std::size_t t = 0; t < in.size(); ++t) {
          double d = double(in[t].asUInt() + out[t].asUInt());
          totalData += d;
          maxData = std::max(maxData, d);
          busyTiles += d > 0;
        }
        active = busyTiles;
        tileBalance = ratio(active, double(numTiles));
        step["totalData"] = (unsigned long long)(s.kind == "DoExchange" ? totalData / 2 : totalData);
        step["dataBalance"] = ratio(totalData, maxData * double(numTiles));
        step[s.kind == "DoExchange" ? "exchange" : "hostExchange"] = (unsigned long long)id;
        if (s.kind == "DoExchange") {
          step["cyclesOverlapped"] = 0u;
          exchange += cycles * busyTiles;
        } else {
          stream += cycles * busyTiles;
        }
      }
      step["activeTiles"] = (unsigned long long)active;
      step["tileBalance"] = tileBalance;
      step["activeTileBalance"] = activeBalance;
      if (!folded)
        steps.push_back(ProfileValue(step));
    }
    offset += run.cycles;
    if (folded)
      return;
    // Ours: each run and its steps, for the summary's last run (profiling/summary.cpp).
    runList.push_back(ProfileValue(Map{{"program", run.program},
                                       {"cycles", (unsigned long long)run.cycles},
                                       {"measuredCycles", (unsigned long long)run.measuredCycles},
                                       {"estimated", run.estimated},
                                       {"firstStep", (unsigned long long)firstStep},
                                       {"numSteps", (unsigned long long)(steps.size() - firstStep)}}));
  };
  for (const auto &run : history.earlier())
    account(run, true);
  for (const auto &run : history.kept())
    account(run, false);

  if (mode == "COMPUTE_SETS") {
    // The card stamps one tile after the sync that ends each compute set: every tile that ran vertices is given
    // the step's measured time (an upper bound on its own).
    Vec rows;
    for (std::size_t c = 0; c < numCS; ++c) {
      Vec row(numTiles, ProfileValue(0u));
      for (const auto &[t, n] : perTile[c])
        if (t < numTiles)
          row[t] = (unsigned long long)csCycles[c];
      rows.push_back(ProfileValue(row));
    }
    root["computeSetCyclesByTile"] = ProfileValue(rows);
  } else if (mode == "SINGLE_TILE_COMPUTE_SETS") {
    Vec row;
    for (auto c : csCycles)
      row.push_back((unsigned long long)c);
    root["computeSetCycles"] = ProfileValue(row);
  } else if (mode == "VERTICES") {
    Vec cyc, cs, type;
    for (const auto &v : vertices) {
      cyc.push_back((unsigned long long)(v.computeSet < numCS ? csCycles[v.computeSet] : 0));
      cs.push_back(v.computeSet);
      type.push_back(v.type);
    }
    root["vertexCycles"] = ProfileValue(cyc);
    root["vertexComputeSet"] = ProfileValue(cs);
    root["vertexType"] = ProfileValue(type);
  }
  root["programTrace"] = ProfileValue(trace);
  std::uint64_t tileTotal = total * std::uint64_t(tilesInUse);
  std::uint64_t busy = compute + exchange + stream;
  Map tileCycles{{"activeCompute", (unsigned long long)activeCompute},
                 {"compute", (unsigned long long)compute},
                 {"copySharedStructure", 0u},
                 {"doExchange", (unsigned long long)exchange},
                 {"globalExchange", 0u},
                 {"streamCopy", (unsigned long long)stream},
                 {"sync", (unsigned long long)(tileTotal > busy ? tileTotal - busy : 0)}};
  // cycles: what getLastRunCycles reports (the time model's on an IPU Model); measuredCycles: the card's count.
  root["simulation"] = ProfileValue(Map{{"cycles", (unsigned long long)total},
                                        {"measuredCycles", (unsigned long long)measuredTotal},
                                        {"cycleModel", estimated ? "estimated" : "measured"},
                                        {"tileCycles", ProfileValue(tileCycles)},
                                        {"steps", ProfileValue(steps)},
                                        {"runs", ProfileValue(runList)},
                                        {"earlierRuns", (unsigned long long)history.earlierCount()}});
  return ProfileValue(root);
}

} // namespace poplar::detail
