// Graph's queries about what it holds (vertex count, codelets, constants, variables, memory-contiguous runs of a
// tensor, tile numbering between a virtual graph and the top level) and the half-precision constant helpers.
#include <algorithm>
#include <map>
#include <tuple>

#include "poplar/Graph.hpp"
#include "poplar/exceptions.hpp"
#include "graph_impl.hpp"
#include "half.hpp"
#include "view_work.hpp"

namespace poplar {

using detail::GraphImpl;
using detail::kUnmapped;

unsigned Graph::getNumVertices() const { return unsigned(impl_->vertices.size()); }

unsigned Graph::numComputeSets() const { return unsigned(impl_->computeSets.size()); }

TileToTensorMapping Graph::getVariableTileMapping(const Tensor &t) const {
  if (!t.valid() || t.graphImpl() != impl_.get())
    throw graph_connection_error("Graph::getVariableTileMapping: the tensor is invalid or belongs to another graph");
  TileToTensorMapping all = getTileMapping(t, false);
  // The flattened positions of t's constant elements, dropped from every tile's intervals.
  std::vector<Interval> constants;
  std::size_t pos = 0;
  for (const auto &r : t.regions()) {
    if (impl_->vars[r.var].constant)
      constants.emplace_back(pos, pos + (r.end - r.begin));
    pos += r.end - r.begin;
  }
  if (constants.empty())
    return all;
  for (auto &list : all) {
    std::vector<Interval> kept;
    for (const Interval &i : list) {
      std::size_t at = i.begin();
      for (const Interval &c : constants) {
        if (c.end() <= at || c.begin() >= i.end())
          continue;
        if (c.begin() > at)
          kept.emplace_back(at, c.begin());
        at = std::max(at, c.end());
      }
      if (at < i.end())
        kept.emplace_back(at, i.end());
    }
    list = kept;
  }
  return all;
}

Tensor Graph::findUnbroadcastTensor(const Tensor &t) const {
  if (!t.valid() || t.graphImpl() != impl_.get())
    throw graph_connection_error("Graph::findUnbroadcastTensor: the tensor is invalid or belongs to another graph");
  Tensor out = t;
  for (unsigned d = 0; d < out.rank(); ++d) {
    const std::size_t n = out.dim(d);
    if (n < 2)
      continue;
    // A broadcast dimension: every slice reads the same variable elements in the same order as the first.
    const std::vector<VariableInterval> first = out.slice(0, 1, d).getVarRegions();
    bool same = true;
    for (std::size_t i = 1; i < n && same; ++i)
      same = out.slice(i, i + 1, d).getVarRegions() == first;
    if (same)
      out = out.slice(0, 1, d);
  }
  return out;
}

bool Graph::hasCodelet(const std::string &codeletName) const {
  return impl_->codelets.classes.count(codeletName) != 0;
}

bool Graph::isConstant(VariableRef v) const {
  if (v.id >= impl_->vars.size())
    throw index_error("Graph::isConstant: variable " + std::to_string(v.id) + " does not exist; the graph has " +
                      std::to_string(impl_->vars.size()) + " variables");
  return impl_->vars[v.id].constant;
}

bool Graph::isConstant(const Tensor &t) const {
  if (!t.valid() || t.graphImpl() != impl_.get())
    throw graph_connection_error("Graph::isConstant: the tensor is invalid or belongs to another graph");
  for (const auto &r : t.regions())
    if (!impl_->vars[r.var].constant)
      return false;
  return true;
}

Tensor Graph::getVariable(VariableRef v) const {
  if (v.id >= impl_->vars.size())
    throw index_error("Graph::getVariable: variable " + std::to_string(v.id) + " does not exist; the graph has " +
                      std::to_string(impl_->vars.size()) + " variables");
  const detail::Variable &var = impl_->vars[v.id];
  auto regions = std::make_shared<std::vector<detail::VarRegion>>();
  if (var.numElements)
    regions->push_back(detail::VarRegion{v.id, 0, var.numElements, detail::kLocalReplica});
  return Tensor(impl_.get(), var.type, var.shape, regions);
}

/// Half bit patterns as floats: every half value is exact in a float, so the constant's device bytes are the
/// given patterns (NaN payloads aside).
static std::vector<float> halvesToFloats(const std::uint16_t *val, std::size_t n) {
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i)
    out[i] = detail::halfToFloat(val[i]);
  return out;
}

Tensor Graph::addConstantHalf(const Type &type, const std::vector<std::size_t> &shape, std::uint16_t val,
                              const DebugContext &debugContext) {
  return addConstant(type, shape, detail::halfToFloat(val), debugContext);
}

Tensor Graph::addConstantHalf(const Type &type, const std::vector<std::size_t> &shape, const std::uint16_t *val,
                              const DebugContext &debugContext) {
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  if (n != 0 && val == nullptr)
    throw poplar_error("Graph::addConstantHalf: the value pointer is null for " + std::to_string(n) +
                       " elements; pass one half per element");
  return addConstant(type, shape, halvesToFloats(val, n), debugContext);
}

void Graph::setInitialValueHalf(const Tensor &t, ArrayRef<std::uint16_t> values) {
  setInitialValue(t, halvesToFloats(values.data(), values.size()));
}

namespace {
/// One run of `t`'s elements that lies in one variable, on one tile, at consecutive elements.
struct Piece {
  unsigned var;
  std::size_t varBegin, varEnd; ///< elements of the variable
  unsigned tile;
  std::size_t tBegin; ///< the flattened index of `t` of varBegin
};
} // namespace

std::vector<std::vector<Interval>> Graph::getSortedContiguousRegions(const Tensor &t, ArrayRef<Interval> regions,
                                                                     bool removeAliasedIntervals,
                                                                     std::vector<std::size_t> *aliases) const {
  if (!t.valid() || t.graphImpl() != impl_.get())
    throw graph_connection_error("Graph::getSortedContiguousRegions: the tensor is invalid or belongs to another graph");
  if (aliases)
    aliases->clear();
  // Where each element of t lives: t's regions in order, each a run of one variable.
  std::vector<std::tuple<std::size_t, std::size_t, detail::VarRegion>> spans; // (tBegin, tEnd, region)
  std::size_t pos = 0;
  for (const auto &r : t.regions()) {
    spans.emplace_back(pos, pos + (r.end - r.begin), r);
    pos += r.end - r.begin;
  }
  std::vector<Piece> pieces;
  std::size_t steps = 0;
  for (const Interval &want : regions) {
    if (want.end() > pos || want.begin() > want.end())
      throw index_error("Graph::getSortedContiguousRegions: interval [" + std::to_string(want.begin()) + ", " +
                        std::to_string(want.end()) + ") is outside the tensor's " + std::to_string(pos) +
                        " elements");
    // From the span holding want.begin() (a lookup, not a scan) to the last one it reaches.
    auto span = std::upper_bound(spans.begin(), spans.end(), want.begin(),
                                 [](std::size_t x, const auto &sp) { return x < std::get<0>(sp); });
    if (span != spans.begin())
      --span;
    for (; span != spans.end() && std::get<0>(*span) < want.end(); ++span) {
      const auto &[tb, te, r] = *span;
      std::size_t b = std::max(tb, want.begin()), e = std::min(te, want.end());
      ++steps;
      if (b >= e)
        continue;
      std::size_t vb = r.begin + (b - tb), ve = r.begin + (e - tb);
      // Split at tile boundaries: memory is contiguous only within one tile.
      steps += impl_->vars[r.var].mapping.forEachIn(vb, ve, [&](std::size_t pb, std::size_t pe, unsigned tile) {
        pieces.push_back(Piece{r.var, pb, pe, tile, b + (pb - vb)});
      });
    }
  }
  detail::countViewSteps(steps);
  std::stable_sort(pieces.begin(), pieces.end(), [](const Piece &a, const Piece &b) {
    return std::tie(a.var, a.varBegin) < std::tie(b.var, b.varBegin);
  });
  if (removeAliasedIntervals) {
    // Keep each variable element once: trim a piece to what earlier pieces of the same variable did not cover.
    std::vector<Piece> kept;
    for (Piece p : pieces) {
      if (!kept.empty() && kept.back().var == p.var && p.varBegin < kept.back().varEnd) {
        const Piece &k = kept.back();
        std::size_t covered = std::min(p.varEnd, k.varEnd);
        if (aliases) {
          aliases->push_back(p.tBegin);
          aliases->push_back(k.tBegin + (p.varBegin - k.varBegin));
        }
        p.tBegin += covered - p.varBegin;
        p.varBegin = covered;
        if (p.varBegin >= p.varEnd)
          continue;
      }
      kept.push_back(p);
    }
    pieces = std::move(kept);
  }
  std::vector<std::vector<Interval>> out;
  const Piece *prev = nullptr;
  for (const Piece &p : pieces) {
    bool continues = prev && prev->var == p.var && prev->tile == p.tile && prev->varEnd == p.varBegin;
    if (!continues)
      out.emplace_back();
    std::vector<Interval> &seq = out.back();
    std::size_t len = p.varEnd - p.varBegin;
    if (!seq.empty() && seq.back().end() == p.tBegin)
      seq.back() = Interval(seq.back().begin(), p.tBegin + len);
    else
      seq.push_back(Interval(p.tBegin, p.tBegin + len));
    prev = &p;
  }
  return out;
}

unsigned Graph::convertTileToTopLevelGraphTile(unsigned tile) const {
  if (tile >= target_.getNumTiles())
    throw index_error("Graph::convertTileToTopLevelGraphTile(" + std::to_string(tile) + "): the graph has tiles 0.." +
                      std::to_string(target_.getNumTiles() - 1));
  return physicalTile(tile);
}

unsigned Graph::convertTopLevelGraphTileToTile(unsigned tile) const {
  unsigned local = localTile(tile);
  if (local == kUnmapped || local >= target_.getNumTiles())
    throw index_error("Graph::convertTopLevelGraphTileToTile(" + std::to_string(tile) +
                      "): that tile of the top-level graph is not in this virtual graph");
  return local;
}

unsigned Graph::convertVirtualTileToPhysicalTile(unsigned virtualTileId) const {
  if (virtualTileId >= impl_->target.getNumTiles())
    throw index_error("Graph::convertVirtualTileToPhysicalTile(" + std::to_string(virtualTileId) +
                      "): the target has tiles 0.." + std::to_string(impl_->target.getNumTiles() - 1));
  return virtualTileId;
}

unsigned Graph::convertPhysicalTileToVirtualTile(unsigned physicalTileId) const {
  if (physicalTileId >= impl_->target.getNumTiles())
    throw index_error("Graph::convertPhysicalTileToVirtualTile(" + std::to_string(physicalTileId) +
                      "): the target has tiles 0.." + std::to_string(impl_->target.getNumTiles() - 1));
  return physicalTileId;
}

} // namespace poplar

namespace poplar {


namespace {

/// The element intervals of `flat` in the order that reads its variables ascending (each variable's runs by
/// address): what reorderToSimplify and getSimplifyingRearranger both apply.
std::vector<Interval> simplestOrder(const Tensor &flat) {
  struct Run {
    unsigned var;
    std::size_t begin, end, offset;
  };
  std::vector<Run> runs;
  std::size_t offset = 0;
  for (const auto &r : flat.regions()) {
    runs.push_back(Run{r.var, r.begin, r.end, offset});
    offset += r.end - r.begin;
  }
  std::stable_sort(runs.begin(), runs.end(), [](const Run &a, const Run &b) {
    return std::tie(a.var, a.begin) < std::tie(b.var, b.begin);
  });
  std::vector<Interval> order;
  for (const Run &r : runs)
    order.push_back(Interval(r.offset, r.offset + (r.end - r.begin)));
  return order;
}

} // namespace

void Graph::reorderToSimplify(Tensor *t, ArrayRef<Tensor *> ts, bool) const {
  if (!t)
    throw poplar_error("reorderToSimplify: the tensor to simplify is null");
  const Tensor flat = t->flatten();
  for (Tensor *other : ts) {
    if (!other)
      throw poplar_error("reorderToSimplify: a tensor to reorder with it is null");
    if (other->numElements() != flat.numElements())
      throw poplar_error("reorderToSimplify: a tensor of " + std::to_string(other->numElements()) +
                         " elements cannot follow one of " + std::to_string(flat.numElements()) +
                         "; pass tensors of the same number of elements");
  }
  const TensorRearranger rearranger(simplestOrder(flat));
  for (Tensor *other : ts)
    *other = rearranger.rearrange(*other);
  *t = rearranger.rearrange(flat);
}

TensorRearranger Graph::getSimplifyingRearranger(const Tensor &t) const {
  return TensorRearranger(simplestOrder(t.flatten()));
}

} // namespace poplar
