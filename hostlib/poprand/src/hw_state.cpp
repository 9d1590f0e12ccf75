// Internal: see hw_state.hpp. The IPU keeps its random generator state in registers of each tile's workers; the
// model keeps it in a graph variable that every generator with a null seed reads and advances.
#include "hw_state.hpp"

#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "poputil/exceptions.hpp"

namespace poprand::detail {

namespace {

using Key = std::pair<const void *, unsigned>;

/// A graph's state and its variable's process-unique name: a graph created where a destroyed one lived has the
/// same key, and the name tells that its entry is stale (getDebugStr checks the variable exists).
struct Entry {
  poplar::Tensor state;
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
unsigned long long nextSerial() {
  static unsigned long long serial = 0;
  return serial++; // under registryLock()
}
// A graph object is a handle on shared state (copies and virtual graphs share it); with the tile count this
// tells apart a graph from its virtual graphs of another size.
Key keyOf(poplar::Graph &graph) { return Key(&graph.impl(), graph.getTarget().getNumTiles()); }

} // namespace

unsigned modifierMix(unsigned seedModifier) { return (seedModifier * 0x9E3779B9u) ^ 0x5BD1E995u; }

void createHwState(poplar::Graph &graph) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  std::string name;
  {
    std::lock_guard<std::mutex> lock(registryLock());
    name = "poprand/hwState#" + std::to_string(nextSerial());
  }
  poplar::Tensor state = graph.addVariable(poplar::UNSIGNED_INT, {tiles, workers, 4}, name);
  std::vector<unsigned> init;
  init.reserve(std::size_t(tiles) * workers * 4);
  for (unsigned t = 0; t < tiles; ++t) {
    graph.setTileMapping(state[t], t);
    for (unsigned w = 0; w < workers; ++w) {
      init.push_back(0);
      init.push_back(modifierMix(0));
      init.push_back(0);
      init.push_back(t * workers + w);
    }
  }
  graph.setInitialValue(state, init);
  std::lock_guard<std::mutex> lock(registryLock());
  registry()[keyOf(graph)] = Entry{state, name};
}

poplar::Tensor hwState(poplar::Graph &graph, const std::string &name) {
  std::lock_guard<std::mutex> lock(registryLock());
  auto it = registry().find(keyOf(graph));
  if (it != registry().end() && it->second.state.getDebugStr() != it->second.name) {
    registry().erase(it); // left by a destroyed graph
    it = registry().end();
  }
  if (it == registry().end())
    throw poputil::poplibs_error(name + ": this graph has no generator state; call poprand::addCodelets(graph) "
                                        "on it (a virtual graph needs its own call) before poprand functions");
  return it->second.state;
}

} // namespace poprand::detail
