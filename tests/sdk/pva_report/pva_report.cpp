// libpva through Graphcore's API: a program writes its report with autoReport, then reads it back with
// pva::openReport as the SDK's libpva examples do (the path names profile.pop in the report's directory), and
// checks compilation, execution, versions, instrumentation and a program visitor against the engine's figures.
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <pva/pva.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Counts compute-set executions and exchanges, and remembers whether one execution touched variable "x".
struct Counter : public pva::ProgramVisitor {
  unsigned executes = 0, exchanges = 0, sequences = 0;
  bool sawX = false;
  void visitOnTileExecute(const pva::OnTileExecuteProgram &p) override {
    ++executes;
    for (const auto &v : p.vars())
      sawX = sawX || v.name() == "x";
  }
  void visitDoExchange(const pva::DoExchangeProgram &) override { ++exchanges; }
  void visitSequence(const pva::Program &) override { ++sequences; }
};

const char *yes(bool b) { return b ? "yes" : "no"; }

} // namespace

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  const Target target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);

  const unsigned n = 64;
  Tensor x = graph.addVariable(FLOAT, {n}, "x");
  Tensor y = graph.addVariable(FLOAT, {n}, "y");
  for (unsigned i = 0; i < n; ++i) {
    graph.setTileMapping(x[i], i / 8);
    graph.setTileMapping(y[i], 20 + i / 8);
  }
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, n);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, n);
  Sequence prog;
  prog.add(Copy(in, x));
  prog.add(Copy(x, y));
  popops::addInPlace(graph, x, y, prog, "twice");
  prog.add(Copy(x, out));

  OptionFlags options{{"autoReport.all", "true"}, {"autoReport.directory", "report"}};
  std::uint64_t engineCycles = 0, engineComputeSets = 0;
  {
    Engine engine(graph, prog, options);
    engine.load(device);
    std::vector<float> host(n, 1.0f), result(n, 0.0f);
    engine.connectStream("in", host.data());
    engine.connectStream("out", result.data());
    engine.run(0);
    engineCycles = engine.getLastRunCycles();
    engineComputeSets = engine.getGraphProfile()["graph"]["numComputeSets"].asUInt();
    std::cout << "result: " << result[0] << " " << result[n - 1] << "\n";
  } // the engine writes the report when it is destroyed

  pva::Report report = pva::openReport("report/profile.pop");
  const pva::CompilationReport compilation = report.compilation();
  std::cout << "compute sets match: " << yes(compilation.graph().numComputeSets() == engineComputeSets) << "\n";
  std::cout << "compute sets nonzero: " << yes(compilation.graph().numComputeSets() > 0) << "\n";
  std::cout << "tiles match: " << yes(compilation.target().numTiles() == target.getNumTiles()) << "\n";
  std::cout << "target is IPU model: " << yes(compilation.target().type() == pva::Target::Type::IPU_MODEL) << "\n";
  std::cout << "bytes per tile match: " << yes(compilation.target().bytesPerTile() == target.getBytesPerTile())
            << "\n";
  std::cout << "poplar version matches: " << yes(report.poplarVersion().string() == versionString()) << "\n";
  std::cout << "poplar major version: " << report.poplarVersion().majorVer() << "\n";
  std::cout << "report format: " << report.version() << "\n";
  std::cout << "compute instrumentation is tile: "
            << yes(report.instrumentationSettings().compute() ==
                   pva::InstrumentationSettings::ComputeInstrumentationLevel::Tile)
            << "\n";

  const std::vector<pva::ProgramPtr> roots = compilation.controlPrograms();
  std::cout << "control programs: " << roots.size() << "\n";
  std::cout << "root is a sequence: " << yes(!roots.empty() && roots[0]->type() == pva::Program::Type::Sequence)
            << "\n";
  Counter counter;
  for (const auto &p : compilation.programs())
    p->accept(counter);
  std::cout << "executions seen: " << yes(counter.executes >= 1) << "\n";
  std::cout << "exchanges seen: " << yes(counter.exchanges >= 1) << "\n";
  std::cout << "an execution reads x: " << yes(counter.sawX) << "\n";
  bool streamCopy = false;
  for (const auto &p : compilation.programs())
    streamCopy = streamCopy || p->type() == pva::Program::Type::StreamCopyMid;
  std::cout << "stream copies seen: " << yes(streamCopy) << "\n";

  const pva::ExecutionReport execution = report.execution();
  const std::vector<pva::ExecutionStep> steps = execution.steps();
  std::uint64_t stepCycles = 0;
  bool ordered = true, named = true;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    stepCycles += steps[i].cycles();
    ordered = ordered && (i == 0 || steps[i].cyclesFrom() >= steps[i - 1].cyclesTo());
    named = named && steps[i].program() != nullptr;
  }
  std::cout << "steps: " << yes(!steps.empty()) << ", in order: " << yes(ordered) << ", with programs: " << yes(named)
            << "\n";
  std::cout << "total cycles match: " << yes(execution.totalCycles() == engineCycles) << "\n";
  std::cout << "step cycles within total: " << yes(stepCycles <= engineCycles) << "\n";
  const std::vector<pva::Run> runs = execution.runs();
  std::cout << "runs: " << runs.size() << ", run steps match: "
            << yes(runs.size() == 1 && runs[0].steps().size() == steps.size()) << "\n";
  // Tile 0 holds x (it computes and receives); tile 100 holds nothing, so it only syncs.
  const auto busy = execution.blocks(0), idle = execution.blocks(100);
  std::cout << "tile 0 has more blocks than an idle tile: " << yes(busy.size() > idle.size()) << "\n";

  try {
    pva::openReport("no-such-report/profile.pop");
    std::cout << "missing report: opened\n";
  } catch (const poplar_error &e) {
    std::cout << "missing report: refused, names autoReport: "
              << yes(std::string(e.what()).find("autoReport.all=true") != std::string::npos) << "\n";
  }
  // A mistyped file name in an existing report directory is refused (not read as the directory's report); the
  // report's own file names open it.
  try {
    pva::openReport("report/typo.pop");
    std::cout << "mistyped file: opened\n";
  } catch (const poplar_error &e) {
    std::cout << "mistyped file: refused, names the file: "
              << yes(std::string(e.what()).find("report/typo.pop") != std::string::npos &&
                     std::string(e.what()).find("no such file") != std::string::npos)
              << "\n";
  }
  std::cout << "profile.json opens: "
            << yes(pva::openReport("report/profile.json").compilation().graph().numComputeSets() ==
                   engineComputeSets)
            << "\n";
  std::cout << "directory opens: "
            << yes(pva::openReport("report").compilation().target().numTiles() == target.getNumTiles()) << "\n";
  return 0;
}
