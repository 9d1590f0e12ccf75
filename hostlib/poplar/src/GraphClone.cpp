// Graph::clone and Graph::cloneN: new variables shaped, mapped and (by TensorCloneMethod) aliased like a tensor.
#include "poplar/Graph.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "graph_impl.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

using detail::VarRegion;

namespace {

using Regions = std::vector<VarRegion>;
using Key = std::pair<unsigned, unsigned>; // (variable, replica) of a source region

/// The storage a tensor reads: per source (variable, replica), the sorted, merged element intervals it touches.
std::map<Key, std::vector<Interval>> storageOf(detail::RegionSpan regions) {
  std::map<Key, std::vector<Interval>> raw;
  for (const VarRegion &r : regions)
    raw[Key(r.var, r.replica)].push_back(Interval(r.begin, r.end));
  for (auto &kv : raw) {
    std::vector<Interval> &v = kv.second;
    std::sort(v.begin(), v.end(), [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
    std::vector<Interval> merged;
    for (const Interval &i : v) {
      if (!merged.empty() && i.begin() <= merged.back().end())
        merged.back() = Interval(merged.back().begin(), std::max(merged.back().end(), i.end()));
      else
        merged.push_back(i);
    }
    v.swap(merged);
  }
  return raw;
}

/// One piece of the map from source storage to clone storage: source elements [srcBegin, srcBegin + size) of
/// `key` are clone elements [dstBegin, ...) of variable `dstVar`.
struct Piece {
  Key key;
  std::size_t srcBegin, size;
  unsigned dstVar;
  std::size_t dstBegin;
};

/// Appends to `out` the clone regions of source region `r`, translated through `pieces` (sorted by key, srcBegin).
void translate(const VarRegion &r, const std::vector<Piece> &pieces, Regions &out) {
  const Key key(r.var, r.replica);
  auto it = std::upper_bound(pieces.begin(), pieces.end(), std::make_pair(key, r.begin),
                             [](const std::pair<Key, std::size_t> &k, const Piece &p) {
                               return k < std::make_pair(p.key, p.srcBegin);
                             });
  --it; // the piece holding r.begin (pieces cover every touched element)
  std::size_t pos = r.begin;
  while (pos < r.end) {
    const std::size_t inPiece = std::min(r.end, it->srcBegin + it->size) - pos;
    const std::size_t dst = it->dstBegin + (pos - it->srcBegin);
    if (!out.empty() && out.back().var == it->dstVar && out.back().end == dst)
      out.back().end += inPiece;
    else
      out.push_back(VarRegion{it->dstVar, dst, dst + inPiece, detail::kLocalReplica});
    pos += inPiece;
    ++it;
  }
}

} // namespace

Tensor Graph::clone(const Type &type, const Tensor &t, const DebugContext &debugContext, TensorCloneMethod method) {
  if (!t.valid())
    throw graph_connection_error("clone: the tensor is invalid (default-constructed)");
  if (t.graphImpl() != impl_.get())
    throw graph_connection_error("clone: the tensor belongs to another graph");
  if (!type.isValid())
    throw poplar_error("clone: invalid element type");
  const bool mirror = method == TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES ||
                      method == TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES ||
                      (method == TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES && !t.containsAliases());
  if (!mirror || t.numElements() == 0) {
    Tensor c = addVariable(type, t.shape(), debugContext);
    setTileMapping(c, getTileMapping(t, false));
    return c;
  }
  const auto storage = storageOf(t.regions());
  std::vector<Piece> pieces;
  if (method != TensorCloneMethod::GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES) {
    // One new variable per source variable, its elements in the source's storage order.
    for (const auto &kv : storage) {
      auto src = std::make_shared<Regions>();
      std::size_t len = 0;
      for (const Interval &i : kv.second) {
        src->push_back(VarRegion{kv.first.first, i.begin(), i.end(), kv.first.second});
        len += i.size();
      }
      const Tensor srcView(impl_.get(), t.elementType(), {len}, src);
      Tensor v = addVariable(type, {len}, debugContext);
      setTileMapping(v, getTileMapping(srcView, false));
      const unsigned dstVar = v.regions()[0].var;
      std::size_t off = 0;
      for (const Interval &i : kv.second) {
        pieces.push_back(Piece{kv.first, i.begin(), i.size(), dstVar, off});
        off += i.size();
      }
    }
  } else {
    // One new variable: the source's storage gathered by tile (tiles ascending, unmapped elements last).
    auto src = std::make_shared<Regions>();
    std::vector<std::pair<Key, std::size_t>> srcAt; // for each src region: key and source begin
    std::vector<std::size_t> srcOffset;             // its offset in the concatenated source view
    std::size_t len = 0;
    for (const auto &kv : storage)
      for (const Interval &i : kv.second) {
        src->push_back(VarRegion{kv.first.first, i.begin(), i.end(), kv.first.second});
        srcAt.push_back(std::make_pair(kv.first, i.begin()));
        srcOffset.push_back(len);
        len += i.size();
      }
    const Tensor srcView(impl_.get(), t.elementType(), {len}, src);
    const TileToTensorMapping mapping = getTileMapping(srcView, false);
    std::vector<std::pair<std::size_t, std::size_t>> order; // view intervals in clone storage order
    std::vector<bool> mapped(len, false);
    TileToTensorMapping newMapping(mapping.size());
    std::size_t dst = 0;
    for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
      std::vector<Interval> ivs = mapping[tile];
      std::sort(ivs.begin(), ivs.end(), [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
      for (const Interval &i : ivs) {
        order.push_back(std::make_pair(i.begin(), i.end()));
        std::fill(mapped.begin() + long(i.begin()), mapped.begin() + long(i.end()), true);
        newMapping[tile].push_back(Interval(dst, dst + i.size()));
        dst += i.size();
      }
    }
    for (std::size_t i = 0; i < len;) {
      std::size_t j = i;
      while (j < len && !mapped[j])
        ++j;
      if (j > i)
        order.push_back(std::make_pair(i, j));
      i = j + 1;
    }
    Tensor v = addVariable(type, {len}, debugContext);
    setTileMapping(v, newMapping);
    const unsigned dstVar = v.regions()[0].var;
    // Cut each ordered view interval at the source intervals it spans, giving pieces of one source variable.
    dst = 0;
    for (const auto &o : order) {
      std::size_t pos = o.first;
      while (pos < o.second) {
        const std::size_t k =
            std::size_t(std::upper_bound(srcOffset.begin(), srcOffset.end(), pos) - srcOffset.begin()) - 1;
        const std::size_t kEnd = k + 1 < srcOffset.size() ? srcOffset[k + 1] : len;
        const std::size_t n = std::min(o.second, kEnd) - pos;
        pieces.push_back(Piece{srcAt[k].first, srcAt[k].second + (pos - srcOffset[k]), n, dstVar, dst});
        dst += n;
        pos += n;
      }
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece &a, const Piece &b) {
      return std::make_pair(a.key, a.srcBegin) < std::make_pair(b.key, b.srcBegin);
    });
  }
  auto regions = std::make_shared<Regions>();
  for (const VarRegion &r : t.regions())
    translate(r, pieces, *regions);
  return Tensor(impl_.get(), type, t.shape(), regions);
}

Tensor Graph::clone(const Tensor &t, const DebugContext &debugContext, TensorCloneMethod method) {
  if (!t.valid())
    throw graph_connection_error("clone: the tensor is invalid (default-constructed)");
  return clone(t.elementType(), t, debugContext, method);
}

Tensor Graph::cloneN(const Type &type, const Tensor &t, std::size_t N, const DebugContext &debugContext,
                     TensorCloneMethod method, TensorCloneDuplicationMethod duplicationMethod) {
  if (duplicationMethod != TensorCloneDuplicationMethod::DUPLICATE_BY_OUTER_DIMENSION &&
      duplicationMethod != TensorCloneDuplicationMethod::DUPLICATE_BY_TILE_CONTIGUOUS_REGION)
    throw poplar_error("cloneN: unknown TensorCloneDuplicationMethod");
  if (N == 0)
    throw poplar_error("cloneN: N must be at least 1 (the result has N copies of the tensor)");
  // Both duplication methods give each copy storage of its own, mapped like `t`; on the emulator where the
  // copies sit in memory changes no result, so the copies are stacked along the new outer dimension.
  std::vector<Tensor> copies;
  copies.reserve(N);
  for (std::size_t i = 0; i < N; ++i)
    copies.push_back(clone(type, t, debugContext, method).expand({0}));
  return concat(copies, 0);
}

Tensor Graph::cloneN(const Tensor &t, std::size_t N, const DebugContext &debugContext, TensorCloneMethod method,
                     TensorCloneDuplicationMethod duplicationMethod) {
  if (!t.valid())
    throw graph_connection_error("cloneN: the tensor is invalid (default-constructed)");
  return cloneN(t.elementType(), t, N, debugContext, method, duplicationMethod);
}

} // namespace poplar
