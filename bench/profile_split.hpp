// Splits the simulated cycles of an engine's last run by what the card did (issue 20's calibration): host copies
// (StreamCopy steps), compute (OnTileExecute), internal exchange (DoExchange), and the rest (syncs, control flow and
// the cycle stamps). Needs an engine compiled with debug.instrument = true: the split comes from its execution
// profile, whose steps are the top-level steps of every run so far.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include <poplar/Engine.hpp>

namespace bench {

struct CycleSplit {
  std::uint64_t total = 0, hostCopy = 0, compute = 0, exchange = 0, other = 0;
  std::uint64_t estimate = 0; // the vertices' own estimate (IPU Model cycleEstimates) of the computes, 0 if none
};

/// The split of `engine`'s last run.
inline CycleSplit lastRunSplit(const poplar::Engine &engine) {
  const poplar::ProfileValue exec = engine.getExecutionProfile();
  const poplar::ProfileValue graph = engine.getGraphProfile();
  CycleSplit s;
  s.total = engine.getLastRunCycles();
  const std::uint64_t all = exec["simulation"]["cycles"].asUInt();
  const std::uint64_t from = all >= s.total ? all - s.total : 0; // the last run's steps start here
  const bool estimates = graph["computeSets"].contains("cycleEstimates");
  std::uint64_t counted = 0;
  for (const auto &step : exec["simulation"]["steps"].asVector()) {
    if (step["cyclesFrom"].asUInt() < from)
      continue;
    const std::string type = step["type"].asString();
    const std::uint64_t c = step["cycles"].asUInt();
    if (type == "StreamCopy")
      s.hostCopy += c;
    else if (type == "OnTileExecute")
      s.compute += c;
    else if (type == "DoExchange")
      s.exchange += c;
    else
      continue;
    counted += c;
    if (type == "OnTileExecute" && estimates) {
      const auto &byTile = graph["computeSets"]["cycleEstimates"]["cyclesByTile"][step["computeSet"].asUInt()];
      std::uint64_t worst = 0;
      for (const auto &t : byTile.asVector())
        worst = std::max<std::uint64_t>(worst, t.asUInt());
      s.estimate += worst;
    }
  }
  s.other = s.total > counted ? s.total - counted : 0;
  return s;
}

/// One line: "total T cycles: host copy H, compute C, exchange X, sync/other O".
inline std::string format(const CycleSplit &s) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "total %llu cycles: host copy %llu, compute %llu, exchange %llu, sync/other %llu",
                (unsigned long long)s.total, (unsigned long long)s.hostCopy, (unsigned long long)s.compute,
                (unsigned long long)s.exchange, (unsigned long long)s.other);
  return buf;
}

} // namespace bench
