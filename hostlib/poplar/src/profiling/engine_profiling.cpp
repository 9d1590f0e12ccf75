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

std::shared_ptr<const GraphProfileData> makeGraphProfileData(const GraphImpl &graph, const CompiledGraph &cg,
                                                             const Target &target, const ProfilingOptions &opts) {
  auto data = std::make_shared<GraphProfileData>();
  data->graph = buildGraphProfile(graph, cg, target, opts);
  data->vertices = summariseVertices(graph, data->graph);
  return data;
}

EngineProfiling::EngineProfiling(const CompiledGraph &cg, std::shared_ptr<const GraphProfileData> data,
                                 ProfilingOptions opts)
    : cg_(cg), opts_(std::move(opts)), data_(std::move(data)) {
  if (opts_.graphReportDest.empty() || !data_)
    return;
  // The graph report: the graph summary, as printProfileSummary prints it without an execution profile.
  if (opts_.graphReportDest == "stdout" || opts_.graphReportDest == "-") {
    printGraphSummary(std::cout, data_->graph);
    return;
  }
  if (opts_.graphReportDest == "stderr") {
    printGraphSummary(std::cerr, data_->graph);
    return;
  }
  std::ofstream f(opts_.graphReportDest);
  printGraphSummary(f, data_->graph);
  if (!f)
    throw poplar_error("graph report: cannot write '" + opts_.graphReportDest +
                       "'; set POPLAR_GRAPH_REPORT_DEST or debug.graphReportDestination to a writable file");
}

const ProfileValue &EngineProfiling::graphProfile() const {
  if (!data_)
    throw profiling_error("this engine runs an Executable read from a file, which carries no graph profile: "
                          "profile an engine built from the graph (or from compileGraph in this process)");
  return data_->graph;
}

ProfileValue EngineProfiling::executionProfile() const {
  return buildExecutionProfile(graphProfile(), cg_, opts_, data_->vertices, runs_);
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
    writeFile(dir / "profile.json", graphProfile(), false);
    writeFile(dir / "profile.cbor", graphProfile(), true);
  }
  if (opts_.outputExecutionProfile) {
    ProfileValue exec = executionProfile();
    writeFile(dir / "execution.json", exec, false);
    writeFile(dir / "execution.cbor", exec, true);
  }
}

} // namespace poplar::detail
