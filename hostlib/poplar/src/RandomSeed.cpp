// getHwSeeds / setHwSeeds and the per-graph generator state behind them. The IPU keeps its random generator state
// in registers of each tile's workers; the emulator keeps it in a graph variable that poprand's generators with a
// null seed read and advance, found again by the graph's shared state and tile count.
#include "poplar/RandomSeed.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "poplar/detail/HwSeedState.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

namespace detail {

namespace {

using Key = std::pair<const void *, unsigned>;

/// A graph's state and its variable's process-unique name: a graph created where a destroyed one lived has the
/// same key, and the name tells that its entry is stale (getDebugStr checks the variable exists).
struct Entry {
  Tensor state;
  std::string name;
};

std::mutex &registryLock() {
  static std::mutex m;
  return m;
}
std::map<Key, Entry> &registry() {
  static std::map<Key, Entry> r;
  return r;
}
// A graph object is a handle on shared state (copies and virtual graphs share it); with the tile count this
// tells apart a graph from its virtual graphs of another size.
Key keyOf(Graph &graph) { return Key(&graph.impl(), graph.getTarget().getNumTiles()); }

} // namespace

void resetHwSeedState(Graph &graph) {
  static unsigned long long serial = 0;
  const unsigned tiles = graph.getTarget().getNumTiles();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  std::string name;
  {
    std::lock_guard<std::mutex> lock(registryLock());
    name = "hwSeedState#" + std::to_string(serial++);
  }
  Tensor state = graph.addVariable(UNSIGNED_INT, {tiles, workers, 4}, name);
  std::vector<unsigned> init;
  init.reserve(std::size_t(tiles) * workers * 4);
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(state[t], t);
    for (unsigned w = 0; w < workers; ++w) {
      init.push_back(0);
      init.push_back(hwSeedModifierMix(0));
      init.push_back(0);
      init.push_back(t * workers + w);
    }
  }
  graph.setInitialValue(state, init);
  std::lock_guard<std::mutex> lock(registryLock());
  registry()[keyOf(graph)] = Entry{state, name};
}

Tensor hwSeedState(Graph &graph, bool create) {
  {
    std::lock_guard<std::mutex> lock(registryLock());
    auto it = registry().find(keyOf(graph));
    if (it != registry().end() && it->second.state.getDebugStr() == it->second.name)
      return it->second.state;
    if (it != registry().end())
      registry().erase(it); // left by a destroyed graph
  }
  if (!create)
    return Tensor();
  resetHwSeedState(graph);
  return hwSeedState(graph, false);
}

} // namespace detail

Tensor getHwSeeds(Graph &graph, program::Sequence &prog, const DebugContext &debugContext) {
  const Tensor state = detail::hwSeedState(graph, true);
  const std::string name = debugContext.getPathName().empty() ? "getHwSeeds" : debugContext.getPathName();
  Tensor copy = graph.clone(state, name + "/seeds");
  prog.add(program::Copy(state, copy, false, name));
  return copy;
}

void setHwSeeds(Graph &graph, const Tensor &hwSeeds, program::Sequence &prog, const DebugContext &debugContext) {
  const Tensor state = detail::hwSeedState(graph, true);
  if (!hwSeeds.valid() || hwSeeds.elementType() != UNSIGNED_INT || hwSeeds.shape() != state.shape())
    throw poplar_error("setHwSeeds: hwSeeds must be UNSIGNED_INT of shape " + state.shapeToString() +
                       " (tiles, workers, 4), as getHwSeeds returns" +
                       (hwSeeds.valid() ? ", not " + hwSeeds.elementType().toString() + " of shape " +
                                              hwSeeds.shapeToString()
                                        : std::string(", not an invalid tensor")));
  const std::string name = debugContext.getPathName().empty() ? "setHwSeeds" : debugContext.getPathName();
  prog.add(program::Copy(hwSeeds, state, false, name));
}

} // namespace poplar
