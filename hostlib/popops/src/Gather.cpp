// popops::gather (popops/Gather.hpp). The axis form is one multiSlice of the flattened indices followed by views
// that put the index dimensions in place of the axis. The XLA form clamps the start indices on the device (one
// map; with remapOutOfBoundIndices a start that does not fit becomes 0 instead, as Graphcore's does), takes one
// dynamicSlice per index vector of the input cut to the slice sizes in the other dimensions, and arranges the
// stacked slices into the output's dimension order with views; with one start dimension all the slices are one
// multiSlice.
#include "popops/Gather.hpp"

#include <set>

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/DynamicSlice.hpp"
#include "popops/ElementWise.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "slice_util.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

using detail::flag;

void checkIndices(const Tensor &indices, const std::string &name) {
  if (!indices.valid())
    throw poplibs_error(name + ": the indices are an invalid (default-constructed) tensor");
  if (indices.elementType() != poplar::UNSIGNED_INT && indices.elementType() != poplar::INT)
    throw poplibs_error(name + ": the indices hold " + indices.elementType().toString() +
                        "; they must be UNSIGNED_INT or INT");
}

} // namespace

Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &operandShape,
                         unsigned axis, GatherParams, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createGatherInput");
  if (axis >= operandShape.size())
    throw poplibs_error(name + ": axis " + std::to_string(axis) + " is out of range for rank " +
                        std::to_string(operandShape.size()) + "; pass an axis below the rank");
  return createSliceableTensor(graph, type, operandShape, {axis}, {1}, 0, name);
}

Tensor gather(poplar::Graph &graph, const Tensor &input, const Tensor &indices, unsigned axis,
              poplar::program::Sequence &prog, GatherParams, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &optionFlags) {
  const std::string name = opName(debugContext, "gather");
  if (!input.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  checkIndices(indices, name);
  if (axis >= input.rank())
    throw poplibs_error(name + ": axis " + std::to_string(axis) + " is out of range for an input of rank " +
                        std::to_string(input.rank()) + "; pass an axis below the rank");
  Tensor offs = indices.flatten().expand({1});
  Tensor s = multiSlice(graph, input, offs, {axis}, {1}, prog, SlicePlan(), optionFlags, name);
  s = s.squeeze({std::size_t(axis) + 1});
  std::vector<std::size_t> shape = indices.shape();
  for (unsigned d = 0; d < input.rank(); ++d)
    if (d != axis)
      shape.push_back(input.dim(d));
  s = s.reshape(shape);
  std::vector<unsigned> src, dst;
  for (unsigned i = 0; i < indices.rank(); ++i) {
    src.push_back(i);
    dst.push_back(axis + i);
  }
  return s.dimShufflePartial(src, dst);
}

Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &inputShape,
                         const std::vector<std::size_t> &sliceSizes, std::vector<unsigned> startIndexMap,
                         const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createGatherInput");
  if (sliceSizes.size() != inputShape.size())
    throw poplibs_error(name + ": " + std::to_string(sliceSizes.size()) + " slice sizes for an input of rank " +
                        std::to_string(inputShape.size()) + "; give one per dimension");
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : startIndexMap) {
    if (d >= inputShape.size())
      throw poplibs_error(name + ": start index map entry " + std::to_string(d) + " is out of range for rank " +
                          std::to_string(inputShape.size()));
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
  }
  if (dims.empty()) { // nothing is sliced at run time: any layout does
    Tensor t = graph.addVariable(type, inputShape, name);
    if (t.numElements() != 0)
      poputil::mapTensorLinearly(graph, t);
    return t;
  }
  return createSliceableTensor(graph, type, inputShape, dims, sizes, 0, name);
}

Tensor gather(poplar::Graph &graph, const Tensor &input, const Tensor &indices, std::size_t indexVectorDim,
              const std::vector<std::size_t> &offsetDims, const std::vector<std::size_t> &sliceSizes,
              const std::vector<std::size_t> &collapsedSliceDims, const std::vector<unsigned> &startIndexMap,
              poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &optionFlags) {
  const std::string name = opName(debugContext, "gather");
  if (!input.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  checkIndices(indices, name);
  const std::size_t rank = input.rank();
  if (indexVectorDim > indices.rank())
    throw poplibs_error(name + ": indexVectorDim " + std::to_string(indexVectorDim) + " is beyond the indices' rank " +
                        std::to_string(indices.rank()));
  if (sliceSizes.size() != rank)
    throw poplibs_error(name + ": " + std::to_string(sliceSizes.size()) + " slice sizes for an input of rank " +
                        std::to_string(rank) + "; give one per input dimension");
  for (std::size_t d = 0; d < rank; ++d)
    if (sliceSizes[d] > input.dim(unsigned(d)))
      throw poplibs_error(name + ": slice size " + std::to_string(sliceSizes[d]) + " in dimension " +
                          std::to_string(d) + " is bigger than the input's " + std::to_string(input.dim(unsigned(d))));
  std::set<std::size_t> collapsed(collapsedSliceDims.begin(), collapsedSliceDims.end());
  for (std::size_t d : collapsedSliceDims)
    if (d >= rank || sliceSizes[d] != 1)
      throw poplibs_error(name + ": collapsed slice dimension " + std::to_string(d) +
                          " must be an input dimension whose slice size is 1");
  const std::size_t k = indexVectorDim == indices.rank() ? 1 : indices.dim(unsigned(indexVectorDim));
  std::set<unsigned> mapped(startIndexMap.begin(), startIndexMap.end());
  if (startIndexMap.size() != k || mapped.size() != k)
    throw poplibs_error(name + ": the start index map has " + std::to_string(startIndexMap.size()) +
                        " entries but each index vector has " + std::to_string(k) +
                        "; map each index to a distinct input dimension");
  for (unsigned d : startIndexMap)
    if (d >= rank)
      throw poplibs_error(name + ": start index map entry " + std::to_string(d) + " is out of range for rank " +
                          std::to_string(rank));
  const std::size_t offsetRank = rank - collapsed.size();
  if (offsetDims.size() != offsetRank)
    throw poplibs_error(name + ": " + std::to_string(offsetDims.size()) + " offset dims but the slices keep " +
                        std::to_string(offsetRank) + " dimensions; list one output position for each");

  // The indices as [B, k], batch dimensions in order.
  Tensor idx = indexVectorDim == indices.rank() ? indices.expand({indices.rank()})
                                                : indices.dimRoll(unsigned(indexVectorDim), indices.rank() - 1);
  std::vector<std::size_t> batchShape = idx.shape();
  batchShape.pop_back();
  std::size_t batches = 1;
  for (std::size_t b : batchShape)
    batches *= b;
  const std::size_t outRank = batchShape.size() + offsetRank;
  std::set<std::size_t> offsetSet(offsetDims.begin(), offsetDims.end());
  for (std::size_t i = 0; i < offsetDims.size(); ++i)
    if (offsetDims[i] >= outRank || (i && offsetDims[i] <= offsetDims[i - 1]))
      throw poplibs_error(name + ": offset dims must be increasing output positions below the output rank " +
                          std::to_string(outRank));
  std::vector<std::size_t> offsetShape;
  for (std::size_t d = 0; d < rank; ++d)
    if (!collapsed.count(d))
      offsetShape.push_back(sliceSizes[d]);
  std::vector<std::size_t> xShape = batchShape;
  xShape.insert(xShape.end(), offsetShape.begin(), offsetShape.end());
  std::vector<unsigned> perm(outRank);
  for (std::size_t pos = 0, o = 0, b = 0; pos < outRank; ++pos)
    perm[pos] = offsetSet.count(pos) ? unsigned(batchShape.size() + o++) : unsigned(b++);
  if (batches == 0)
    return graph.addVariable(input.elementType(), xShape, name + "/empty").dimShuffle(perm);

  // Start indices clamped so that each slice fits, as XLA does.
  std::vector<int> maxStart;
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : startIndexMap) {
    maxStart.push_back(int(input.dim(d) - sliceSizes[d]));
    dims.push_back(d);
    sizes.push_back(sliceSizes[d]);
  }
  Tensor idx2 = idx.reshape({batches, k});
  Tensor maxC = graph.addConstant(poplar::INT, {k}, maxStart, name + "/maxStart");
  graph.setTileMapping(maxC, 0);
  namespace pe = popops::expr;
  const Tensor maxB = maxC.expand({0}).broadcast(unsigned(batches), 0);
  Tensor starts;
  if (flag(optionFlags, "remapOutOfBoundIndices")) {
    // A start that does not fit (negative INT ones included, as UNSIGNED they are huge) is replaced by 0.
    const pe::Cast u(pe::_1, poplar::UNSIGNED_INT);
    starts = map(graph, pe::Select(u, pe::Const(0u), pe::Lte(u, pe::Cast(pe::_2, poplar::UNSIGNED_INT))),
                 {idx2, maxB}, prog, name + "/remap");
  } else {
    starts = map(graph, pe::Clamp(pe::Cast(pe::_1, poplar::INT), pe::Const(0), pe::_2), {idx2, maxB}, prog,
                 name + "/clamp")
                 .reinterpret(poplar::UNSIGNED_INT);
  }
  Tensor base = input;
  for (unsigned d = 0; d < rank; ++d)
    if (!mapped.count(d))
      base = base.slice(0, sliceSizes[d], d);
  Tensor x;
  if (k == 1) { // one start dimension: every slice in one multiSlice
    x = multiSlice(graph, base, starts, dims, sizes, prog, SlicePlan(), optionFlags, name + "/slices");
  } else {
    std::vector<Tensor> parts;
    for (std::size_t b = 0; b < batches; ++b)
      parts.push_back(
          dynamicSlice(graph, base, starts[b], dims, sizes, prog, name + "/slice" + std::to_string(b), optionFlags)
              .expand({0}));
    x = poplar::concat(parts, 0);
  }
  std::vector<std::size_t> squeezeDims;
  for (std::size_t d : collapsed)
    squeezeDims.push_back(d + 1);
  x = x.squeeze(squeezeDims).reshape(xShape);
  return x.dimShuffle(perm);
}

} // namespace popops
