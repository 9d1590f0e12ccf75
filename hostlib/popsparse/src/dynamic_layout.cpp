// The dense view of dynamic sparse weights: values scattered into a zeroed grid of blocks with popops'
// multiUpdateAdd, and read back at the stored blocks with multiSlice. Both take the block numbers from metaInfo
// when the program runs, so the pattern can change between runs without recompiling.
#include "dynamic_layout.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {
namespace detail {

using poplar::Tensor;

Grid gridOf(const FullyConnectedParams &params) {
  const auto &bd = params.getSparsityParams().blockDimensions;
  Grid g{params.getNumGroups(), params.getOutputChannelsPerGroup(), params.getInputChannelsPerGroup(), bd[0], bd[1],
         0};
  g.slots = params.getNumNonZeroValues() / g.area();
  return g;
}

Grid gridOf(const MatMulParams &params) {
  const auto &bd = params.getSparsityParams().blockDimensions;
  Grid g{params.getNumGroups(), params.getM(), params.getK(), bd[0], bd[1], 0};
  g.slots = params.getNumNonZeroValues() / g.area();
  return g;
}

SparseTensor createSparse(poplar::Graph &graph, const poplar::Type &type, const Grid &grid, const std::string &name,
                          const poputil::TensorMetaData &opMetaData) {
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poputil::poplibs_error(name + ": the type is " + type.toString() + "; pass FLOAT or HALF");
  Tensor meta = graph.addVariable(poplar::UNSIGNED_INT, {grid.slots}, name + "/metaInfo");
  Tensor nz = graph.addVariable(type, {grid.slots * grid.area()}, name + "/nzValues");
  poputil::mapTensorLinearly(graph, meta);
  poputil::mapTensorLinearly(graph, nz);
  return SparseTensor(meta, nz, opMetaData);
}

void checkWeights(const SparseTensor &t, const Grid &grid, const std::string &name) {
  const Tensor &meta = t.getMetaInfoTensor(), &nz = t.getNzValuesTensor();
  if (!meta.valid() || !nz.valid())
    throw poputil::poplibs_error(name + ": the sparse tensor is not valid");
  if (meta.numElements() != grid.slots || nz.numElements() != grid.slots * grid.area())
    throw poputil::poplibs_error(name + ": the sparse tensor has " + std::to_string(meta.numElements()) +
                                 " meta-information and " + std::to_string(nz.numElements()) +
                                 " values; the parameters make " + std::to_string(grid.slots) + " and " +
                                 std::to_string(grid.slots * grid.area()));
  if (meta.elementType() != poplar::UNSIGNED_INT)
    throw poputil::poplibs_error(name + ": the meta-information is " + meta.elementType().toString() +
                                 "; createFullyConnectedWeights makes it UNSIGNED_INT");
}

Tensor densify(poplar::Graph &graph, const SparseTensor &t, const Grid &grid, poplar::program::Sequence &prog,
               const std::string &name) {
  const Tensor &nz = t.getNzValuesTensor();
  Tensor blocks = graph.addVariable(nz.elementType(), {grid.blocks(), grid.area()}, name + "/denseBlocks");
  poputil::mapTensorLinearly(graph, blocks);
  popops::zero(graph, blocks, prog, name + "/zero");
  if (grid.slots) {
    Tensor one = graph.addConstant(nz.elementType(), {1}, 1.0f, name + "/one");
    graph.setTileMapping(one, 0);
    popops::multiUpdateAdd(graph, blocks, nz.reshape({grid.slots, 1, grid.area()}),
                           t.getMetaInfoTensor().reshape({grid.slots, 1}), one, {0}, {1}, prog,
                           popops::SlicePlan(), poplar::OptionFlags(), name + "/scatter");
  }
  // [group, block row, block column, row in block, column in block] -> [group, row, column].
  return blocks.reshape({grid.groups, grid.blockRows(), grid.blockCols(), grid.br, grid.bc})
      .dimShuffle({0, 1, 3, 2, 4})
      .reshape({grid.groups, grid.outPerGroup, grid.inPerGroup});
}

Tensor gather(poplar::Graph &graph, const Tensor &dense, const Tensor &metaInfo, const Grid &grid,
              poplar::program::Sequence &prog, const std::string &name) {
  if (!grid.slots)
    return graph.addVariable(dense.elementType(), {0}, name + "/values");
  const Tensor blocks = dense.reshape({grid.groups, grid.blockRows(), grid.br, grid.blockCols(), grid.bc})
                            .dimShuffle({0, 1, 3, 2, 4})
                            .reshape({grid.blocks(), grid.area()});
  return popops::multiSlice(graph, blocks, metaInfo.reshape({grid.slots, 1}), {0}, {1}, prog, popops::SlicePlan(),
                            poplar::OptionFlags(), name + "/gather")
      .flatten();
}

} // namespace detail
} // namespace dynamic
} // namespace popsparse
