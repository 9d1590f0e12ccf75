// Internal: building the graph and execution profiles (the seed's structures) from what the compiler laid out and
// what the card measured, and the per-engine profiling state (runs recorded, automatic reports).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "../compiler.hpp"
#include "../graph_impl.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

/// One Engine::run as the profile needs it.
struct RunRecord {
  unsigned program = 0;
  std::uint64_t cycles = 0;              ///< the card's cycle count for the whole run
  std::vector<std::uint64_t> stepCycles; ///< cycles of each top-level step (empty: not instrumented)
  std::uint64_t measuredCycles = 0;              ///< the card's count (equals `cycles` unless estimated)
  std::vector<std::uint64_t> measuredStepCycles; ///< the card's stamps per top-level step
  bool estimated = false;                        ///< cycles and stepCycles are the IPU Model time model's
};

/// The runs an engine has recorded since the last reset, in bounded memory: the last kKept runs whole (their steps
/// go into the execution profile), and every earlier run folded into one record per program whose cycles and step
/// cycles are sums, so totals and tile cycles still count every run (docs/architecture.md, the profile keys).
class RunHistory {
public:
  static constexpr std::size_t kKept = 1000;
  void add(RunRecord run);
  void clear();
  /// The last runs, oldest first.
  const std::deque<RunRecord> &kept() const { return kept_; }
  /// Earlier runs, one record per program that ran (summed cycles; empty when every run is kept).
  const std::vector<RunRecord> &earlier() const { return earlier_; }
  std::uint64_t earlierCount() const { return earlierCount_; }

private:
  std::deque<RunRecord> kept_;
  std::vector<RunRecord> earlier_;
  std::uint64_t earlierCount_ = 0;
};

/// The profiling options of an engine, read and checked once.
struct ProfilingOptions {
  bool instrument = false;
  std::string level = "tile"; ///< debug.computeInstrumentationLevel: tile, vertex, device or ipu
  bool outputGraphProfile = false, outputExecutionProfile = false;
  std::string directory = "."; ///< autoReport.directory
  std::string graphReportDest; ///< debug.graphReportDestination or POPLAR_GRAPH_REPORT_DEST ("" = none)
};

/// Reads debug.instrument*, debug.computeInstrumentationLevel and autoReport.*; `instrumentDefault` is the
/// target's default. Throws invalid_option for a value that is not allowed.
ProfilingOptions parseProfilingOptions(const OptionFlags &opts, bool instrumentDefault);

/// libpoplar's own entries of the graph profile's optimizationInfo; libraries add theirs beside them
/// (optimization_info.hpp).
inline constexpr const char *kOwnOptimizationInfo[] = {"tilesInUse", "codeBytesPerTile", "exchangeBytes",
                                                       "peakLiveBytes", "instrumented"};

/// The graph profile: target, optimizationInfo, graph, vertexTypes, computeSets, exchanges, externalExchanges,
/// hostExchanges, programs, controlPrograms, functionPrograms and memory, named as the seed names them.
ProfileValue buildGraphProfile(const GraphImpl &graph, const CompiledGraph &cg, const Target &target,
                               const ProfilingOptions &opts);

/// Each vertex's compute set, vertex-type index (into the graph profile's vertexTypes) and tile.
struct VertexSummary {
  unsigned computeSet = 0, type = 0, tile = 0;
};
std::vector<VertexSummary> summariseVertices(const GraphImpl &graph, const ProfileValue &graphProfile);

/// The execution profile of `runs` (all runs since the last reset; the earliest folded, RunHistory), in the seed's
/// tagged-union form: the mode follows debug.computeInstrumentationLevel (tile: COMPUTE_SETS, vertex: VERTICES,
/// device/ipu: SINGLE_TILE_COMPUTE_SETS; not instrumented: NONE), then programTrace and simulation.
ProfileValue buildExecutionProfile(const ProfileValue &graphProfile, const CompiledGraph &cg,
                                   const ProfilingOptions &opts, const std::vector<VertexSummary> &vertices,
                                   const RunHistory &runs);

/// The graph profile and vertex summaries of a compiled graph: made when the graph is compiled (compileGraph, from
/// the graph itself) and kept with the Executable, since an Engine may be built from an Executable alone.
struct GraphProfileData {
  ProfileValue graph;
  std::vector<VertexSummary> vertices;
};
std::shared_ptr<const GraphProfileData> makeGraphProfileData(const GraphImpl &graph, const CompiledGraph &cg,
                                                             const Target &target, const ProfilingOptions &opts);

/// What an engine keeps for profiling: the graph profile (built at compile time; absent for an Executable read from
/// a file), the runs since the last reset, and where automatic reports go.
class EngineProfiling {
public:
  EngineProfiling(const CompiledGraph &cg, std::shared_ptr<const GraphProfileData> data, ProfilingOptions opts);
  void recordRun(RunRecord run) { runs_.add(std::move(run)); }
  void reset() { runs_.clear(); }
  /// Throws poplar::profiling_error when the engine's executable was read from a file (it carries no graph).
  const ProfileValue &graphProfile() const;
  ProfileValue executionProfile() const;
  /// Writes the autoReport files (profile.json / profile.cbor, execution.json / execution.cbor) the options ask
  /// for into autoReport.directory. Throws poplar_error naming the file when it cannot be written.
  void writeReports() const;
  bool wantsReports() const { return opts_.outputGraphProfile || opts_.outputExecutionProfile; }
  /// The vertices' compute sets and tiles; throws profiling_error as graphProfile() does.
  const std::vector<VertexSummary> &vertices() const {
    graphProfile();
    return data_->vertices;
  }

private:
  const CompiledGraph &cg_;
  ProfilingOptions opts_;
  std::shared_ptr<const GraphProfileData> data_;
  RunHistory runs_;
};

} // namespace poplar::detail
