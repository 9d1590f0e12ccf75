// Internal: an engine's profiling state and the files it writes (autoReport.*, the graph report destination).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "poplar/ProfileSummary.hpp"
#include "profiles.hpp"

namespace poplar::detail {

namespace {

void writeFile(const std::filesystem::path &path, const ProfileValue &v, bool cbor) {
  std::ofstream f(path, std::ios::binary);
  if (cbor)
    serializeToCBOR(f, v);
  else
    serializeToJSON(f, v, true);
  if (!f)
    throw poplar_error("autoReport: cannot write '" + path.string() +
                       "'; set autoReport.directory to a writable directory");
}

} // namespace

EngineProfiling::EngineProfiling(const GraphImpl &graph, const CompiledGraph &cg, const Target &target,
                                 ProfilingOptions opts)
    : cg_(cg), opts_(std::move(opts)), graph_(buildGraphProfile(graph, cg, target, opts_)),
      vertices_(summariseVertices(graph, graph_)) {
  if (opts_.graphReportDest.empty())
    return;
  // The graph report: the graph summary, as printProfileSummary prints it without an execution profile.
  if (opts_.graphReportDest == "stdout" || opts_.graphReportDest == "-") {
    printGraphSummary(std::cout, graph_);
    return;
  }
  if (opts_.graphReportDest == "stderr") {
    printGraphSummary(std::cerr, graph_);
    return;
  }
  std::ofstream f(opts_.graphReportDest);
  printGraphSummary(f, graph_);
  if (!f)
    throw poplar_error("graph report: cannot write '" + opts_.graphReportDest +
                       "'; set POPLAR_GRAPH_REPORT_DEST or debug.graphReportDestination to a writable file");
}

ProfileValue EngineProfiling::executionProfile() const {
  return buildExecutionProfile(graph_, cg_, opts_, vertices_, runs_);
}

void EngineProfiling::writeReports() const {
  if (!wantsReports())
    return;
  std::filesystem::path dir(opts_.directory);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw poplar_error("autoReport.directory: cannot create '" + dir.string() + "' (" + ec.message() +
                       "); name a writable directory");
  if (opts_.outputGraphProfile) {
    writeFile(dir / "profile.json", graph_, false);
    writeFile(dir / "profile.cbor", graph_, true);
  }
  if (opts_.outputExecutionProfile) {
    ProfileValue exec = executionProfile();
    writeFile(dir / "execution.json", exec, false);
    writeFile(dir / "execution.cbor", exec, true);
  }
}

} // namespace poplar::detail
