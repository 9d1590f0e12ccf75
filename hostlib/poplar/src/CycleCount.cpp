// cycleCount and cycleStamp: vertices of libpoplar's own codelets (device/codelets/cycle_count.cpp, compiled for
// the graph's tiles on first use and cached as any codelet) that read a tile's CYCLE/CYCLEH counter.
#include "poplar/CycleCount.hpp"

#include "codelets.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace {
void addCycleCodelets(Graph &graph) {
  // Adding the same compiled file again does nothing (Graph::addCodelets returns false).
  graph.addCodelets(detail::dataDir() + "/device/codelets/cycle_count.cpp");
}

void checkTile(const Graph &graph, unsigned tile, const char *what) {
  if (tile >= graph.getTarget().getNumTiles())
    throw poplar_error(std::string(what) + ": tile " + std::to_string(tile) + " is not in the graph, which has " +
                       std::to_string(graph.getTarget().getNumTiles()) + " tiles; give a tile from 0 to " +
                       std::to_string(graph.getTarget().getNumTiles() - 1));
}

// A stamp vertex on `tile` writing a new {low, high} tensor; the program that runs it.
Tensor stampOn(Graph &graph, ComputeSet cs, unsigned tile, const DebugContext &dc, const std::string &name) {
  Tensor t = graph.addVariable(UNSIGNED_INT, {2}, {dc, name});
  graph.setTileMapping(t, tile);
  VertexRef v = graph.addVertex(cs, "PoplarCycleStamp", {{"out", t}});
  graph.setTileMapping(v, tile);
  return t;
}
} // namespace

std::vector<Tensor> cycleStamp(Graph &graph, program::Sequence &prog, const std::vector<unsigned> &tiles,
                               SyncType syncType, const DebugContext &debugContext) {
  for (unsigned tile : tiles)
    checkTile(graph, tile, "cycleStamp");
  addCycleCodelets(graph);
  ComputeSet cs = graph.addComputeSet({debugContext, "cycleStamp"});
  std::vector<Tensor> out;
  for (unsigned tile : tiles)
    out.push_back(stampOn(graph, cs, tile, debugContext, "cycleStamp/tile" + std::to_string(tile)));
  prog.add(program::Sync(syncType, {debugContext, "cycleStamp/sync"}));
  prog.add(program::Execute(cs, {debugContext, "cycleStamp"}));
  return out;
}

Tensor cycleStamp(Graph &graph, program::Sequence &prog, unsigned tile, SyncType syncType,
                  const DebugContext &debugContext) {
  return cycleStamp(graph, prog, std::vector<unsigned>{tile}, syncType, debugContext)[0];
}

Tensor cycleCount(Graph &graph, program::Sequence &prog, unsigned tile, SyncType syncType,
                  const DebugContext &debugContext) {
  checkTile(graph, tile, "cycleCount");
  program::Sequence body = prog;
  program::Sequence timed;
  Tensor start = cycleStamp(graph, timed, tile, syncType, {debugContext, "cycleCount/start"});
  timed.add(body);
  Tensor end = cycleStamp(graph, timed, tile, syncType, {debugContext, "cycleCount/end"});
  Tensor count = graph.addVariable(UNSIGNED_INT, {2}, {debugContext, "cycleCount"});
  graph.setTileMapping(count, tile);
  ComputeSet cs = graph.addComputeSet({debugContext, "cycleCount/difference"});
  VertexRef v = graph.addVertex(cs, "PoplarCycleDifference", {{"start", start}, {"end", end}, {"out", count}});
  graph.setTileMapping(v, tile);
  timed.add(program::Execute(cs, {debugContext, "cycleCount/difference"}));
  prog = timed;
  return count;
}

} // namespace poplar
