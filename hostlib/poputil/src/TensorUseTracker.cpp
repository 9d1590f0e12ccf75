// poputil::TensorUseTracker (poputil/TensorUseTracker.hpp). The state is, per variable, the sorted list of tiles
// that use each element. resolve() cuts each variable into runs of elements with the same tile set, gives runs
// used by one tile to that tile, then handles the shared runs by tile sets of increasing size (so that halo runs
// can see their neighbours' tiles), spreading each set's remaining runs over its tiles in order.
#include "poputil/TensorUseTracker.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Tensor;
using poplar::VariableRef;

class TensorUseTrackerState {
public:
  unsigned numTiles = 0, startTile = 0;
  bool ascending = true;
  /// Per variable, per element (flattened), the tiles that use it, sorted and distinct.
  std::map<VariableRef, std::vector<std::vector<unsigned> > > uses;
};

namespace {

typedef std::vector<unsigned> TileSet;

void addTile(TileSet &s, unsigned tile) {
  auto it = std::lower_bound(s.begin(), s.end(), tile);
  if (it == s.end() || *it != tile)
    s.insert(it, tile);
}

/// Elements [begin, end) of one variable that all have the same tile set.
struct Run {
  VariableRef var;
  std::size_t begin, end;
};

/// Gives the shared runs of one tile set to its tiles: consecutive pieces of equal size (whole grains, at least
/// minElements each, so that few elements use few tiles).
void spread(const std::vector<Run> &runs, TileSet tiles, unsigned grainSize, unsigned minElements,
            std::map<VariableRef, std::vector<int> > &assigned) {
  std::size_t n = 0;
  for (const Run &r : runs)
    n += r.end - r.begin;
  if (n == 0)
    return;
  const std::size_t grain = std::max(1u, grainSize);
  const std::size_t grains = (n + grain - 1) / grain;
  std::size_t used = std::min<std::size_t>(tiles.size(), grains);
  if (minElements > 0)
    used = std::min(used, std::max<std::size_t>(1, n / minElements));
  const std::size_t perTile = (grains + used - 1) / used * grain;
  std::size_t k = 0;
  for (const Run &r : runs)
    for (std::size_t e = r.begin; e < r.end; ++e, ++k)
      assigned[r.var][e] = int(tiles[std::min(k / perTile, used - 1)]);
}

} // namespace

TensorUseTracker::TensorUseTracker(unsigned numTiles, unsigned startTile, bool ascendingMappingOrder)
    : st(new TensorUseTrackerState) {
  st->numTiles = numTiles;
  st->startTile = numTiles ? startTile % numTiles : 0;
  st->ascending = ascendingMappingOrder;
}
TensorUseTracker::TensorUseTracker(const TensorUseTracker &other) : st(new TensorUseTrackerState(*other.st)) {}
TensorUseTracker::TensorUseTracker(TensorUseTracker &&other) : st(std::move(other.st)) {}
TensorUseTracker &TensorUseTracker::operator=(const TensorUseTracker &other) {
  if (this != &other)
    st.reset(new TensorUseTrackerState(*other.st));
  return *this;
}
TensorUseTracker &TensorUseTracker::operator=(TensorUseTracker &&other) {
  st = std::move(other.st);
  return *this;
}
TensorUseTracker::~TensorUseTracker() {}

void TensorUseTracker::add(const poplar::Graph &graph, unsigned tile, const Tensor &t) {
  if (!t.valid())
    throw poplibs_error("TensorUseTracker::add: the tensor is an invalid (default-constructed) tensor");
  if (tile >= st->numTiles)
    throw poplibs_error("TensorUseTracker::add: tile " + std::to_string(tile) + " is beyond the tracker's " +
                        std::to_string(st->numTiles) + " tiles");
  for (const poplar::VariableInterval &vi : t.getVarRegions()) {
    if (graph.isConstant(vi.var))
      continue; // constants are mapped where they are created
    auto &elems = st->uses[vi.var];
    if (elems.empty())
      elems.resize(graph.getVariable(vi.var).numElements());
    for (std::size_t e = vi.interval.begin(); e < vi.interval.end(); ++e)
      addTile(elems[e], tile);
  }
}

void TensorUseTracker::add(TensorUseTracker other) {
  for (auto &kv : other.st->uses) {
    auto &mine = st->uses[kv.first];
    if (mine.size() < kv.second.size())
      mine.resize(kv.second.size());
    for (std::size_t e = 0; e < kv.second.size(); ++e)
      for (unsigned tile : kv.second[e])
        addTile(mine[e], tile);
  }
}

void TensorUseTracker::resolve(const poplar::Graph &, unsigned grainSize, unsigned minElementsPerTile,
                               bool extendPartialUsage, MappingMethod mappingMethod) {
  // Tiles in mapping order: (tile - startTile) mod numTiles, ascending or descending.
  auto order = [&](TileSet s) {
    const unsigned n = std::max(1u, st->numTiles), start = st->startTile;
    std::sort(s.begin(), s.end(), [&](unsigned a, unsigned b) {
      const unsigned ka = (a + n - start) % n, kb = (b + n - start) % n;
      return st->ascending ? ka < kb : ka > kb;
    });
    return s;
  };
  if (extendPartialUsage)
    for (auto &kv : st->uses) {
      auto &elems = kv.second;
      std::size_t first = 0;
      while (first < elems.size() && elems[first].empty())
        ++first;
      if (first == elems.size())
        continue;
      for (std::size_t e = 0; e < first; ++e)
        elems[e] = elems[first];
      for (std::size_t e = first + 1; e < elems.size(); ++e)
        if (elems[e].empty())
          elems[e] = elems[e - 1];
    }
  std::map<VariableRef, std::vector<int> > assigned;
  std::map<TileSet, std::vector<Run> > shared;
  for (const auto &kv : st->uses) {
    const auto &elems = kv.second;
    std::vector<int> &a = assigned[kv.first];
    a.assign(elems.size(), -1);
    for (std::size_t b = 0; b < elems.size();) {
      std::size_t e = b + 1;
      while (e < elems.size() && elems[e] == elems[b])
        ++e;
      if (elems[b].size() == 1)
        std::fill(a.begin() + long(b), a.begin() + long(e), int(elems[b][0]));
      else if (elems[b].size() > 1)
        shared[elems[b]].push_back(Run{kv.first, b, e});
      b = e;
    }
  }
  // Shared runs by tile sets of increasing size.
  std::vector<const std::pair<const TileSet, std::vector<Run> > *> sets;
  for (const auto &kv : shared)
    sets.push_back(&kv);
  std::stable_sort(
      sets.begin(), sets.end(),
      [](const std::pair<const TileSet, std::vector<Run> > *x, const std::pair<const TileSet, std::vector<Run> > *y) {
        return x->first.size() < y->first.size();
      });
  for (const auto *set : sets) {
    std::vector<Run> rest;
    for (const Run &r : set->second) {
      std::vector<int> &a = assigned[r.var];
      int halo = -1;
      if (mappingMethod == MappingMethod::OptimizeHaloRegions) {
        auto inSet = [&](int tile) {
          return tile >= 0 && std::binary_search(set->first.begin(), set->first.end(), unsigned(tile));
        };
        if (r.begin > 0 && inSet(a[r.begin - 1]))
          halo = a[r.begin - 1];
        else if (r.end < a.size() && inSet(a[r.end]))
          halo = a[r.end];
      }
      if (halo >= 0)
        std::fill(a.begin() + long(r.begin), a.begin() + long(r.end), halo);
      else
        rest.push_back(r);
    }
    spread(rest, order(set->first), grainSize, minElementsPerTile, assigned);
  }
  for (auto &kv : st->uses) {
    const std::vector<int> &a = assigned[kv.first];
    for (std::size_t e = 0; e < kv.second.size(); ++e)
      kv.second[e] = a[e] < 0 ? TileSet() : TileSet(1, unsigned(a[e]));
  }
}

void TensorUseTracker::mapTensorsByUse(poplar::Graph &graph, unsigned grainSize, unsigned minElementsPerTile,
                                       bool extendPartialUsage, MappingMethod mappingMethod) {
  resolve(graph, grainSize, minElementsPerTile, extendPartialUsage, mappingMethod);
  for (const auto &kv : st->uses) {
    const Tensor var = graph.getVariable(kv.first).flatten();
    const auto &elems = kv.second;
    for (std::size_t b = 0; b < elems.size();) {
      std::size_t e = b + 1;
      while (e < elems.size() && elems[e] == elems[b])
        ++e;
      if (!elems[b].empty())
        graph.setTileMapping(var.slice(b, e), elems[b][0]);
      b = e;
    }
  }
}

bool TensorUseTracker::empty() const {
  for (const auto &kv : st->uses)
    for (const TileSet &s : kv.second)
      if (!s.empty())
        return false;
  return true;
}

} // namespace poputil
