// Tile mappings: spreading a tensor's elements over the tiles in order, and operands shaped after another tensor.
#ifndef POPUTIL_TILEMAPPING_HPP
#define POPUTIL_TILEMAPPING_HPP

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include "poputil/TensorUseTracker.hpp"

namespace poputil {

/// A mapping of `shape`'s elements (row-major) in order over the graph's tiles: runs of whole grains of
/// `grainSize` elements, at least `minElementsPerTile` per used tile, as evenly as the grains allow. Tiles past
/// the last run get no interval. Throws poplibs_error when grainSize is 0.
/// With `offset` the first run goes to tile `offset` and the next ones follow in ascending tile order; with
/// ascendingOrder false the first run goes to tile numTiles - 1 - offset and the next ones descend. Both wrap.
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Graph &graph,
                                                                  std::vector<std::size_t> shape,
                                                                  unsigned minElementsPerTile, unsigned grainSize,
                                                                  unsigned offset = 0, bool ascendingOrder = true);
/// The same over the tiles of `target`.
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Target &target,
                                                                  std::vector<std::size_t> shape,
                                                                  unsigned minElementsPerTile, unsigned grainSize,
                                                                  unsigned offset = 0, bool ascendingOrder = true);
/// The same with the defaults for `elementType`: grains of one vector (Target::getVectorWidth), at least 128 bytes
/// per tile.
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Target &target,
                                                                  const std::vector<std::size_t> shape,
                                                                  poplar::Type elementType, unsigned offset = 0,
                                                                  bool ascendingOrder = true);
/// The same for `t`'s shape and type, with the defaults of mapTensorLinearly(graph, t).
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                                                                  unsigned offset = 0, bool ascendingOrder = true);
/// The default linear mapping of `t` with its first run on tile `offset`, and the tile after the last tile it
/// uses (wrapping around): the offset at which to map a next tensor so that consecutive tensors follow on.
std::pair<std::vector<std::vector<poplar::Interval> >, unsigned>
calcLinearTileMappingAndNewOffset(const poplar::Graph &graph, const poplar::Tensor &t, unsigned offset = 0);
/// As above, starting at tile `offset` (wrapping past the last tile), in ascending or descending tile order.
std::vector<std::vector<poplar::Interval> > calcLinearTileMappingWithOffset(
    const poplar::Graph &graph, std::vector<std::size_t> shape, unsigned minElementsPerTile, unsigned grainSize,
    unsigned offset, bool ascendingOrder = true);

/// Maps `t` with calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize).
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                       unsigned grainSize);
/// Maps `t` linearly with the target's defaults: grains of one vector (Target::getVectorWidth) and at least
/// 128 bytes per tile.
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t);
/// Maps `t` linearly starting at tile `offset`.
void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                                 unsigned grainSize, unsigned offset, bool ascendingOrder = true);

/// Maps `t` linearly with the defaults of mapTensorLinearly(graph, t), starting at tile `offset`.
void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t, unsigned offset = 0,
                                 bool ascendingOrder = true);

/// A tile offset in [0, numTiles) derived from a hash of `shape` (and `seed`), to start the mappings of tensors
/// of different shapes on different tiles. Throws poplibs_error when numTiles is 0.
std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t> &shape);
std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t> &shape, std::size_t seed);

/// How many elements the fullest tile of `mapping` holds beyond a perfectly balanced share (the mean per tile,
/// rounded up, but at least minElementsPerTile and grainSize); 0 when no tile exceeds it.
unsigned getTileImbalance(const std::vector<std::vector<poplar::Interval> > &mapping, unsigned minElementsPerTile = 0,
                          unsigned grainSize = 1);
/// The same for `t`'s tile mapping.
unsigned getTileImbalance(const poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile = 0,
                          unsigned grainSize = 1);

/// True when the slices of `t` along `dimension` are not all mapped alike (slice i's elements on other tiles
/// than slice 0's, in order); false for a dimension of size 0.
bool dimIsSplitOverTiles(const poplar::Graph &graph, const poplar::Tensor &t, unsigned dimension);
/// True when some slice of `t` across `dimension` (all its indices, the other dimensions fixed) has elements on
/// more than one IPU; always false on a one-IPU target.
bool dimIsSplitOverIPUs(const poplar::Graph &graph, const poplar::Tensor &t, unsigned dimension);

/// The position of `tile` in the order a mapping with `offset` and `ascending` visits the numTiles tiles (the
/// tile at `offset` is 0 in ascending order, the tile at numTiles - 1 - offset in descending order).
unsigned transformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending);
/// The inverse of transformTileIndex: the tile at a position of that order.
unsigned invTransformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending);

/// The number of tiles that hold at least one element in `mapping`.
unsigned getNumTilesUsed(const std::vector<std::vector<poplar::Interval> > &mapping);

/// A new one-dimensional variable of `type` with `fullTensor.dim(dim)` elements, for an operand broadcast along
/// every other dimension of fullTensor: element j is mapped to the tile that holds the first element of
/// fullTensor's slice j along `dim` (ditherMapping is accepted and has no effect). Throws poplibs_error when `dim` is not a dimension of fullTensor.
poplar::Tensor createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &fullTensor, const poplar::Type &type,
                                      unsigned dim, bool ditherMapping = false,
                                      const poplar::DebugContext &debugContext = {});

/// A clone of `t` (graph.clone(t, debugContext, method)) whose elements are each on the tile of `dstIPU` with the
/// same index within its IPU as the tile of t's element. Every element of t must be mapped. Throws poplibs_error
/// when dstIPU is not an IPU of the graph's target.
poplar::Tensor cloneToIpu(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIPU,
                          const poplar::DebugContext &debugContext = {},
                          poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// A clone of `t` (a tensor of srcGraph) in dstGraph (dstGraph.clone(t, debugContext, method)) whose elements are
/// each on the tile of dstGraph with the index their element of t has in srcGraph, e.g. between two virtual graphs
/// of one IPU. Throws poplibs_error when t uses a tile index dstGraph does not have.
poplar::Tensor cloneToGraph(poplar::Graph &srcGraph, poplar::Graph &dstGraph, const poplar::Tensor &t,
                            const poplar::DebugContext &debugContext = {},
                            poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

/// A clone of `t` without aliases: each element of storage t views keeps, at its first view, t's tile; each later
/// view of the same element (an alias, e.g. from a broadcast or a concat of one slice twice) becomes a new element,
/// and those are mapped linearly from tile `offset` on (calcLinearTileMappingAndNewOffset). Returns the clone and
/// the tile after the last one those new elements use (`offset` when t has no aliases).
std::pair<poplar::Tensor, unsigned> cloneAndExpandAliasing(poplar::Graph &graph, const poplar::Tensor &t,
                                                           unsigned offset = 0,
                                                           const poplar::DebugContext &debugContext = {});

/// cloneToIpu, and in copySrc/copyDst the tensors a program::Copy from t to the clone takes: t and the clone, or,
/// when the clone keeps t's aliases (PRESERVE_ORDER_AND_ALIASES), their elements with each element of storage once.
/// No copy is added to any program.
poplar::Tensor createIpuCopy(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIpu, poplar::Tensor &copySrc,
                             poplar::Tensor &copyDst, const poplar::DebugContext &debugContext = {},
                             poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);

/// createIpuCopy, with the copy from t to the new tensor appended to `prog`; returns the new tensor on dstIPU.
poplar::Tensor copyToIpu(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                         unsigned dstIPU, const poplar::DebugContext &debugContext = {},
                         poplar::TensorCloneMethod method = poplar::TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

} // namespace poputil

#endif // POPUTIL_TILEMAPPING_HPP
