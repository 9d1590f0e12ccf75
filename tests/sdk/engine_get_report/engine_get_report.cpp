// A user's program on Engine::getReport, as Graphcore's PopLibs tests use it: the engine's profile as a libpva
// report without writing files. Three Divide vertices on tile 1 and one Negate on tile 2 in two compute sets; the
// report's tiles (memory total, categories, vertices by type), compute sets and graph counts must agree with
// that and with the engine's graph profile, and its execution part holds the run's steps only when asked for and
// only for runs made while execution profiling is enabled. getTimeStamp/reportTiming time the run in cycles.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// How many vertices of type `name` a list holds (0 when it holds none).
static std::uint64_t countOf(const std::vector<pva::VertexMemory> &vs, const std::string &name) {
  for (const auto &v : vs)
    if (v.type().name() == name)
      return v.count();
  return 0;
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("report_codelets.cpp");

  Tensor a = graph.addVariable(FLOAT, {3, 2}, "a"), b = graph.addVariable(FLOAT, {3, 2}, "b");
  Tensor q = graph.addVariable(FLOAT, {3, 2}, "q"), x = graph.addVariable(FLOAT, {4}, "x");
  for (Tensor t : {a, b, q})
    graph.setTileMapping(t, 1);
  graph.setTileMapping(x, 2);
  ComputeSet divide = graph.addComputeSet("divide"), negate = graph.addComputeSet("negate");
  for (unsigned i = 0; i < 3; ++i)
    graph.setTileMapping(graph.addVertex(divide, "Divide", {{"a", a[i]}, {"b", b[i]}, {"out", q[i]}}), 1);
  graph.setTileMapping(graph.addVertex(negate, "Negate", {{"x", x}}), 2);
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostWrite("x", x);

  Engine engine(graph, Sequence({Execute(divide), Execute(negate)}),
                {{"autoReport.outputExecutionProfile", "true"}, {"debug.instrument", "true"}});
  engine.load(device);
  const std::vector<float> ones(6, 1.0f), four(4, 1.0f);
  engine.writeTensor("a", ones.data());
  engine.writeTensor("b", ones.data());
  engine.writeTensor("x", four.data());
  const Engine::TimerTimePoint before = engine.getTimeStamp();
  engine.run(0);
  const Engine::TimerTimePoint after = engine.getTimeStamp();
  const std::string timing = engine.reportTiming(before, after);
  check(after.cycles - before.cycles == engine.getLastRunCycles() && engine.getLastRunCycles() > 0 &&
            timing.find("Cycles: " + std::to_string(engine.getLastRunCycles()) + "\n") == 0 &&
            timing.find("Time: ") != std::string::npos,
        "getTimeStamp spans the run's cycles, reportTiming reports them: " + timing.substr(0, timing.find('\n')));
  bool reversed = false;
  try {
    engine.reportTiming(after, before);
  } catch (const poplar_error &) {
    reversed = true;
  }
  check(reversed, "reportTiming refuses stamps in the wrong order");

  const pva::Report report = engine.getReport();
  const std::vector<pva::Tile> tiles = report.compilation().tiles();
  check(tiles.size() == 4 && tiles[3].number() == 3, "one entry per tile, numbered");
  if (tiles.size() != 4)
    return 1;
  const ProfileValue graphProfile = engine.getGraphProfile();
  const ProfileValue &byTile = graphProfile["memory"]["byTile"];
  bool totalsMatch = true;
  for (const auto &t : tiles)
    totalsMatch = totalsMatch && t.memory().total().excludingGaps() == byTile["total"][t.number()].asUInt() &&
                  t.memory().total().includingGaps() >= t.memory().total().excludingGaps();
  check(totalsMatch, "each tile's total matches the graph profile, gaps included is at least as large");
  check(tiles[1].memory().total().excludingGaps() > 0, "tile 1 holds code and data");
  check(countOf(tiles[1].memory().vertices(), "Divide") == 3 && countOf(tiles[1].memory().vertices(), "Negate") == 0,
        "tile 1 holds 3 Divide vertices and no Negate");
  check(countOf(tiles[2].memory().vertices(), "Negate") == 1 && tiles[0].memory().vertices().empty(),
        "tile 2 holds 1 Negate, tile 0 none");
  const pva::MemoryCategories cats = tiles[1].memory().category();
  check(cats.vertexCode().nonInterleaved().nonOverlapped() > 0 && cats.vertexCode().interleaved().nonOverlapped() == 0,
        "tile 1's vertex code is in non-interleaved memory");
  check(cats.globalExchangeCode().total() == 0, "a category the card does not have is zero");

  const std::vector<pva::ComputeSet> sets = report.compilation().computeSets();
  bool divideSeen = false, negateSeen = false;
  for (const auto &cs : sets) {
    divideSeen = divideSeen || (cs.name() == "divide" && countOf(cs.vertices(), "Divide") == 3);
    negateSeen = negateSeen || (cs.name() == "negate" && countOf(cs.vertices(), "Negate") == 1);
  }
  check(divideSeen && negateSeen, "compute sets list their vertices by type");
  check(report.compilation().graph().numVertices() == 4, "the graph has 4 vertices");
  check(report.compilation().graph().numComputeSets() == sets.size(), "numComputeSets counts the compute sets");
  check(!report.execution().steps().empty(), "getReport() holds the run's steps");
  check(engine.getReport(false).execution().steps().empty(), "getReport(false) holds no execution");

  // Runs while execution profiling is disabled are left out; enabling it again records the next run.
  const std::size_t oneRun = report.execution().runs().size();
  engine.disableExecutionProfiling();
  engine.run(0);
  const std::size_t whileDisabled = engine.getReport().execution().runs().size();
  engine.enableExecutionProfiling();
  engine.run(0);
  const std::size_t afterEnable = engine.getReport().execution().runs().size();
  check(oneRun == 1 && whileDisabled == 1 && afterEnable == 2,
        "disableExecutionProfiling leaves a run out, enableExecutionProfiling records again (runs " +
            std::to_string(oneRun) + ", " + std::to_string(whileDisabled) + ", " + std::to_string(afterEnable) + ")");
  return checksDone("engine report: all checks passed");
}
