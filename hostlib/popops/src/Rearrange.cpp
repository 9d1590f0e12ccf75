// popops/Rearrange.hpp: matrix transposes on the tiles (popops::Transpose vertices) and regrouping built on them.
// Regrouping t from grouping (a, ga) to (b, gb) views t as blocks of gb x ga elements (gb consecutive elements of
// dimension b by ga of dimension a, the ga side contiguous) and transposes each block on the tile of its first
// element, so that the gb side becomes the contiguous one; blocks not wholly on that tile are first copied there.
#include "popops/Rearrange.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops {
namespace rearrange {

using poplar::Tensor;
using poputil::GroupingInfo;
using poputil::poplibs_error;

namespace {

bool isTwoByte(const poplar::Type &t) {
  return t == poplar::HALF || t == poplar::SHORT || t == poplar::UNSIGNED_SHORT;
}

// The types Graphcore's transposes take, and the unsigned type of the same size the vertex sees them as.
bool transposable(const poplar::Type &t) {
  return t == poplar::QUARTER || isTwoByte(t) || t == poplar::FLOAT || t == poplar::INT || t == poplar::UNSIGNED_INT;
}
poplar::Type vertexType(const poplar::Type &t) {
  return t == poplar::QUARTER ? poplar::UNSIGNED_CHAR : isTwoByte(t) ? poplar::UNSIGNED_SHORT : poplar::UNSIGNED_INT;
}

// The view of t as [blocks, gb * ga] described above, and the permutation of t split at a and b that gives it.
struct Blocks {
  Tensor view;
  std::vector<std::size_t> split;   // t's shape with a -> (S[a] / ga, ga) and b -> (S[b] / gb, gb)
  std::vector<unsigned> perm;       // split order -> [outer..., gb, ga]
};

Blocks blocksOf(const Tensor &t, const GroupingInfo &from, const GroupingInfo &to) {
  Blocks r;
  unsigned aInner = 0, bInner = 0;
  for (unsigned d = 0; d < t.rank(); ++d) {
    if (d == from.first || d == to.first) {
      const std::size_t g = d == from.first ? from.second : to.second;
      r.split.push_back(t.dim(d) / g);
      (d == from.first ? aInner : bInner) = unsigned(r.split.size());
      r.split.push_back(g);
    } else {
      r.split.push_back(t.dim(d));
    }
  }
  for (unsigned d = 0; d < r.split.size(); ++d)
    if (d != aInner && d != bInner)
      r.perm.push_back(d);
  r.perm.push_back(bInner);
  r.perm.push_back(aInner);
  const std::size_t blockSize = std::size_t(from.second) * to.second;
  r.view = t.reshape(r.split).dimShuffle(r.perm).reshape({t.numElements() / blockSize, blockSize});
  return r;
}

void checkGrouping(const Tensor &t, const GroupingInfo &g, const char *which, const std::string &name) {
  if (g.first >= t.rank())
    throw poplibs_error(name + ": grouping '" + which + "' names dimension " + std::to_string(g.first) +
                        " of a tensor of rank " + std::to_string(t.rank()));
  if (g.second == 0 || t.dim(g.first) % g.second)
    throw poplibs_error(name + ": grouping '" + which + "' of " + std::to_string(g.second) +
                        " does not divide dimension " + std::to_string(g.first) + " of size " +
                        std::to_string(t.dim(g.first)));
}

// True when every block of `blocks` (rows) that `mapping` places on a tile has all its elements on that tile.
bool blocksOnTheirTiles(const poplar::Graph &graph, const Tensor &blocks, const poplar::TileToTensorMapping &mapping) {
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile]) {
      const poplar::TileToTensorMapping m = graph.getTileMapping(blocks.slice(iv.begin(), iv.end()), false);
      for (unsigned other = 0; other < m.size(); ++other)
        if (other != tile && !m[other].empty())
          return false;
    }
  return true;
}

Tensor regroupInternal(poplar::Graph &graph, const Tensor &t, std::vector<poplar::program::Copy> &copies,
                       const poplar::ComputeSet &cs, const GroupingInfo &from, const GroupingInfo &to,
                       const std::string &name) {
  if (!t.valid())
    throw poplibs_error(name + ": the tensor is an invalid (default-constructed) tensor");
  if (t.rank() <= 1)
    return t;
  if (!transposable(t.elementType()))
    throw poplibs_error(name + ": element type " + t.elementType().toString() + " cannot be regrouped");
  checkGrouping(t, from, "from", name);
  checkGrouping(t, to, "to", name);
  if (from.first == to.first || t.numElements() == 0)
    return t;
  const Blocks in = blocksOf(t, from, to);
  // The output blocks [blocks, ga * gb], each on the tile of its input block's first element.
  const std::size_t numBlocks = in.view.dim(0), blockSize = in.view.dim(1);
  const Tensor out = graph.addVariable(t.elementType(), {numBlocks, blockSize}, name + "/regrouped");
  const poplar::TileToTensorMapping blockMap = graph.getTileMapping(in.view.slice(0, 1, 1), false);
  for (unsigned tile = 0; tile < blockMap.size(); ++tile)
    for (const poplar::Interval &iv : blockMap[tile])
      graph.setTileMapping(out.slice(iv.begin(), iv.end()), tile);
  Tensor src = in.view;
  if (!blocksOnTheirTiles(graph, in.view, blockMap)) {
    src = graph.addVariable(t.elementType(), {numBlocks, blockSize}, name + "/blocks");
    graph.setTileMapping(src, graph.getTileMapping(out));
    copies.push_back(poplar::program::Copy(in.view, src, false, name + "/preTranspose"));
  }
  addTransposeVertices(graph, cs, t.elementType(), to.second, from.second, blockMap,
                       [&](std::size_t i) { return std::make_pair(src[i], out[i]); }, name);
  // out's blocks are [outer..., ga, gb]: the order of `perm` with its last two swapped; undo that, then merge.
  std::vector<unsigned> outPerm = in.perm;
  std::swap(outPerm[outPerm.size() - 1], outPerm[outPerm.size() - 2]);
  std::vector<std::size_t> outShape;
  for (unsigned d : outPerm)
    outShape.push_back(in.split[d]);
  std::vector<unsigned> inverse(outPerm.size());
  for (unsigned i = 0; i < outPerm.size(); ++i)
    inverse[outPerm[i]] = i;
  return out.reshape(outShape).dimShuffle(inverse).reshape(t.shape());
}

void addAll(poplar::program::Sequence &prog, const std::vector<poplar::program::Copy> &copies) {
  for (const poplar::program::Copy &c : copies)
    prog.add(c);
}

// regroupTensor's copies and a compute set of its own, all added to prog (used when a regroup is worth it).
Tensor regroupInto(poplar::Graph &graph, const Tensor &t, poplar::program::Sequence &prog, const GroupingInfo &from,
                   const GroupingInfo &to, const std::string &name) {
  std::vector<poplar::program::Copy> copies;
  const poplar::ComputeSet cs = graph.addComputeSet(name + "/transpose");
  Tensor r = regroupInternal(graph, t, copies, cs, from, to, name);
  addAll(prog, copies);
  prog.add(poplar::program::Execute(cs, name));
  return r;
}

// The first (innermost) grouping of t, and whether it is a multiple of the grain size.
bool groupedEnough(const poplar::Graph &graph, const Tensor &t, GroupingInfo &first) {
  const std::vector<GroupingInfo> g = poputil::detectDimGroupings(graph, t);
  if (g.empty())
    return false;
  first = g[0];
  return first.second % getMinimumRegroupGrainSize(t.elementType()) == 0;
}

} // namespace

bool canUseFastTranspose(const poplar::Target &, const poplar::Type &type, unsigned numRows, unsigned numColumns,
                         unsigned numTranspositions) {
  const unsigned kMax = std::numeric_limits<unsigned short>::max();
  if (numTranspositions > kMax)
    return false;
  if (type == poplar::QUARTER)
    return numRows % 8 == 0 && numColumns % 8 == 0 && numRows / 8 <= kMax && numColumns / 8 <= kMax;
  return isTwoByte(type) && numRows % 4 == 0 && numColumns % 4 == 0;
}

void addTransposeVertices(poplar::Graph &graph, const poplar::ComputeSet &cs, const poplar::Type &dType,
                          unsigned rows, unsigned cols, const poplar::Graph::TileToTensorMapping &mapping,
                          std::function<std::pair<const poplar::Tensor, const poplar::Tensor>(size_t)> getInOut,
                          const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "addTransposeVertices");
  if (!transposable(dType))
    throw poplibs_error(name + ": element type " + dType.toString() +
                        " cannot be transposed (QUARTER, HALF, FLOAT, SHORT, UNSIGNED_SHORT, INT and UNSIGNED_INT "
                        "can)");
  const unsigned kMax = std::numeric_limits<unsigned short>::max();
  if (rows > kMax || cols > kMax)
    throw poplibs_error(name + ": " + std::to_string(rows) + " x " + std::to_string(cols) +
                        " matrices are too large; rows and columns are at most 65535");
  const poplar::Type as = vertexType(dType);
  const std::string vertex = poputil::detail::templateVertex("popops::Transpose", {as});
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    std::vector<std::size_t> indices;
    for (const poplar::Interval &iv : mapping[tile])
      for (std::size_t i = iv.begin(); i < iv.end(); ++i)
        indices.push_back(i);
    // Up to one vertex per worker, each with a consecutive share of the tile's transpositions.
    const std::size_t per = (indices.size() + workers - 1) / std::max(1u, workers);
    for (std::size_t b = 0; b < indices.size(); b += per) {
      const std::size_t e = std::min(indices.size(), b + per);
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, tile);
      graph.setFieldSize(v["src"], e - b);
      graph.setFieldSize(v["dst"], e - b);
      for (std::size_t k = b; k < e; ++k) {
        const auto io = getInOut(indices[k]);
        if (io.first.numElements() != std::size_t(rows) * cols || io.second.numElements() != io.first.numElements())
          throw poplibs_error(name + ": transposition " + std::to_string(indices[k]) + " has " +
                              std::to_string(io.first.numElements()) + " input and " +
                              std::to_string(io.second.numElements()) + " output elements; both need " +
                              std::to_string(std::size_t(rows) * cols));
        graph.connect(v["src"][k - b], io.first.flatten().reinterpret(as));
        graph.connect(v["dst"][k - b], io.second.flatten().reinterpret(as));
      }
      graph.setInitialValue(v["rows"], rows);
      graph.setInitialValue(v["cols"], cols);
    }
  }
}

Tensor partialTranspose(poplar::Graph &graph, const Tensor &in, const poplar::ComputeSet &cs,
                        const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "partialTranspose");
  if (!in.valid() || in.rank() < 2)
    throw poplibs_error(name + ": the input must be a valid tensor of rank 2 or more");
  const unsigned rank = in.rank();
  const std::size_t rows = in.dim(rank - 2), cols = in.dim(rank - 1);
  std::vector<std::size_t> outShape = in.shape();
  std::swap(outShape[rank - 2], outShape[rank - 1]);
  const Tensor out = graph.addVariable(in.elementType(), outShape, name + "/out");
  if (in.numElements() == 0) {
    graph.setTileMapping(out, 0);
    return out;
  }
  const Tensor inFlat = in.reshape({in.numElements() / (rows * cols), rows * cols});
  const Tensor outFlat = out.reshape(inFlat.shape());
  const poplar::TileToTensorMapping mapping = graph.getTileMapping(inFlat.slice(0, 1, 1), false);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile])
      graph.setTileMapping(outFlat.slice(iv.begin(), iv.end()), tile);
  addTransposeVertices(graph, cs, in.elementType(), unsigned(rows), unsigned(cols), mapping,
                       [&](std::size_t i) { return std::make_pair(inFlat[i], outFlat[i]); }, name);
  return out;
}

unsigned getMinimumRegroupGrainSize(const poplar::Type &type) {
  if (type == poplar::QUARTER)
    return 8;
  if (isTwoByte(type))
    return 4;
  if (type == poplar::FLOAT || type == poplar::INT || type == poplar::UNSIGNED_INT)
    return 2;
  return 1;
}

Tensor regroupTensor(poplar::Graph &graph, const Tensor &t, std::vector<poplar::program::Copy> &copies,
                     const poplar::ComputeSet &transposeCS, const GroupingInfo &from, const GroupingInfo &to,
                     const poplar::DebugContext &debugContext) {
  return regroupInternal(graph, t, copies, transposeCS, from, to, opName(debugContext, "regroupTensor"));
}

Tensor regroupTensor(poplar::Graph &graph, const Tensor &t, poplar::program::Sequence &copies,
                     const poplar::ComputeSet &transposeCS, const GroupingInfo &from, const GroupingInfo &to,
                     const poplar::DebugContext &debugContext) {
  std::vector<poplar::program::Copy> list;
  Tensor r = regroupTensor(graph, t, list, transposeCS, from, to, debugContext);
  addAll(copies, list);
  return r;
}

Tensor regroupIfPossible(poplar::Graph &graph, const Tensor &t, poplar::program::Sequence &prog,
                         const GroupingInfo &to, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "regroupIfPossible");
  if (!t.valid() || t.rank() <= 1 || to.first >= t.rank() || to.second == 0 || t.dim(to.first) % to.second)
    return t;
  GroupingInfo first;
  if (!groupedEnough(graph, t, first) || first.first == to.first)
    return t;
  return regroupInto(graph, t, prog, first, to, name);
}

Tensor regroupIfBeneficial(poplar::Graph &graph, const Tensor &in, const Tensor &ref,
                           std::vector<poplar::program::Copy> &copies, poplar::ComputeSet transposeCS,
                           const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "regroupIfBeneficial");
  if (in.rank() <= 1 || ref.rank() <= 1 || !transposable(in.elementType()))
    return in;
  if (in.shape() != ref.shape())
    throw poplibs_error(name + ": the input and the reference must have the same shape");
  GroupingInfo inFirst, refFirst;
  if (groupedEnough(graph, in, inFirst) && groupedEnough(graph, ref, refFirst) && inFirst.first != refFirst.first)
    return regroupInternal(graph, in, copies, transposeCS, inFirst, refFirst, name);
  return in;
}

Tensor regroupIfBeneficial(poplar::Graph &graph, const Tensor &in, const Tensor &ref, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "regroupIfBeneficial");
  std::vector<poplar::program::Copy> copies;
  const poplar::ComputeSet cs = graph.addComputeSet(name + "/transpose");
  Tensor r = regroupIfBeneficial(graph, in, ref, copies, cs, name);
  addAll(prog, copies);
  prog.add(poplar::program::Execute(cs, name));
  return r;
}

Tensor regroupIfBeneficial(poplar::Graph &graph, const Tensor &in, std::size_t preferredGrouping,
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "regroupIfBeneficial");
  if (!transposable(in.elementType()) || in.rank() == 0)
    return in;
  if (preferredGrouping == 0 || in.dim(in.rank() - 1) % preferredGrouping)
    throw poplibs_error(name + ": the innermost dimension (" + std::to_string(in.dim(in.rank() - 1)) +
                        ") is not divisible by the preferred grouping " + std::to_string(preferredGrouping));
  const GroupingInfo preferred(in.rank() - 1, unsigned(preferredGrouping));
  GroupingInfo first;
  if (groupedEnough(graph, in, first) && first.first != preferred.first &&
      preferred.second % getMinimumRegroupGrainSize(in.elementType()) == 0)
    return regroupInto(graph, in, prog, first, preferred, name);
  return in;
}

} // namespace rearrange
} // namespace popops
