// popops::scatter (popops/Scatter.hpp). The index vectors become rows [B, k] and the updates [B, window] (their
// scatter dimensions first, then the window dimensions, with the inserted size-1 dimensions put back). Each of the
// B windows is then one dynamicUpdate of the operand cut to the window size in the dimensions no index names
// (a view, so the writes land in the operand), after a dynamicSlice and the user's computation when there is
// one. The windows go one after another so that equal indices apply in order, as XLA defines.
#include "popops/Scatter.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "poplibs_support.hpp"
#include "popops/DynamicSlice.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void scatterImpl(poplar::Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
                 std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
                 const std::vector<std::size_t> &insertWindowDims, const std::vector<unsigned> &scatterDims,
                 UpdateComputationFunc *combine, poplar::program::Sequence &prog, const std::string &name,
                 const poplar::OptionFlags &options) {
  if (!operand.valid() || !indices.valid() || !updates.valid())
    throw poplibs_error(name + ": an argument is an invalid (default-constructed) tensor");
  if (indices.elementType() != poplar::INT && indices.elementType() != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": the indices hold " + indices.elementType().toString() +
                        "; they must be INT or UNSIGNED_INT");
  if (updates.elementType() != operand.elementType())
    throw poplibs_error(name + ": the updates hold " + updates.elementType().toString() + " but the operand " +
                        operand.elementType().toString());
  if (!operand.isParallelWriteable())
    throw poplibs_error(name + ": the operand has aliased elements (a broadcast view?); scatter into a tensor "
                               "whose elements are distinct");
  const std::size_t rank = operand.rank();
  if (indexVectorDim > indices.rank())
    throw poplibs_error(name + ": indexVectorDim " + std::to_string(indexVectorDim) + " is beyond the indices' rank " +
                        std::to_string(indices.rank()));
  // A window dimension past the updates' rank names nothing and is dropped, as Graphcore's scatter does (its
  // tests pass one when every window dimension is inserted).
  updateWindowDims.erase(std::remove_if(updateWindowDims.begin(), updateWindowDims.end(),
                                        [&](unsigned d) { return d >= updates.rank(); }),
                         updateWindowDims.end());
  std::sort(updateWindowDims.begin(), updateWindowDims.end());
  const std::set<std::size_t> inserted(insertWindowDims.begin(), insertWindowDims.end());
  if (updateWindowDims.size() + inserted.size() != rank)
    throw poplibs_error(name + ": " + std::to_string(updateWindowDims.size()) + " window dimensions and " +
                        std::to_string(inserted.size()) + " inserted ones do not make the operand's rank " +
                        std::to_string(rank));
  const std::size_t k = indexVectorDim == indices.rank() ? 1 : indices.dim(unsigned(indexVectorDim));
  if (k == 0)
    throw poplibs_error(name + ": the index vectors have no component; give at least one");
  std::set<unsigned> mapped(scatterDims.begin(), scatterDims.end());
  if (scatterDims.size() != k || mapped.size() != k || (!mapped.empty() && *mapped.rbegin() >= rank))
    throw poplibs_error(name + ": scatterDimsToOperandDims has " + std::to_string(scatterDims.size()) +
                        " entries but each index vector has " + std::to_string(k) +
                        "; map each component to a distinct operand dimension");

  // The window in the operand's rank.
  std::vector<std::size_t> window(rank);
  for (std::size_t d = 0, w = 0; d < rank; ++d) {
    if (inserted.count(d)) {
      window[d] = 1;
      continue;
    }
    window[d] = updates.dim(updateWindowDims[w++]);
    if (window[d] > operand.dim(unsigned(d)))
      throw poplibs_error(name + ": the window is " + std::to_string(window[d]) + " long in operand dimension " +
                          std::to_string(d) + ", which has only " + std::to_string(operand.dim(unsigned(d))));
  }
  // Index vectors as rows [B, k]; updates as [B] + window, scatter dimensions first in their order.
  Tensor idx = indexVectorDim == indices.rank() ? indices.expand({indices.rank()})
                                                : indices.dimRoll(unsigned(indexVectorDim), indices.rank() - 1);
  idx = idx.reshape({idx.numElements() / k, k}).reinterpret(poplar::UNSIGNED_INT);
  const std::size_t batches = idx.dim(0);
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < updates.rank(); ++d)
    if (!std::binary_search(updateWindowDims.begin(), updateWindowDims.end(), d))
      perm.push_back(d);
  perm.insert(perm.end(), updateWindowDims.begin(), updateWindowDims.end());
  Tensor upd = updates.dimShuffle(perm);
  std::vector<std::size_t> updShape = {batches};
  updShape.insert(updShape.end(), window.begin(), window.end());
  std::size_t windowElems = 1;
  for (std::size_t w : window)
    windowElems *= w;
  if (upd.numElements() != batches * windowElems)
    throw poplibs_error(name + ": the updates hold " + std::to_string(upd.numElements()) + " elements but " +
                        std::to_string(batches) + " windows of " + std::to_string(windowElems) + " are needed");
  upd = upd.reshape(updShape);

  Tensor base = operand;
  for (unsigned d = 0; d < rank; ++d)
    if (!mapped.count(d))
      base = base.slice(0, window[d], d);
  std::vector<std::size_t> dims, sizes;
  for (unsigned d : scatterDims) {
    dims.push_back(d);
    sizes.push_back(window[d]);
  }
  for (std::size_t b = 0; b < batches; ++b) {
    const std::string step = name + "/window" + std::to_string(b);
    Tensor u = upd[b];
    if (combine) {
      Tensor cur = dynamicSlice(graph, base, idx[b], dims, sizes, prog, step + "/read", options);
      u = (*combine)(graph, cur, u, prog);
    }
    dynamicUpdate(graph, base, u, idx[b], dims, sizes, prog, step + "/write", options);
  }
}

} // namespace

void scatter(poplar::Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims, std::vector<unsigned> scatterDimsToOperandDims,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
             const poplar::OptionFlags &optionFlags) {
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, nullptr, prog,
              poplibs_support::operationName(debugContext, "popops::", "scatter"), optionFlags);
}

void scatter(poplar::Graph &graph, const Tensor &operand, const Tensor &indices, const Tensor &updates,
             std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims, std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc &updateComputation, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext, const poplar::OptionFlags &optionFlags) {
  scatterImpl(graph, operand, indices, updates, indexVectorDim, updateWindowDims, insertWindowDims,
              scatterDimsToOperandDims, &updateComputation, prog,
              poplibs_support::operationName(debugContext, "popops::", "scatter"), optionFlags);
}

} // namespace popops
