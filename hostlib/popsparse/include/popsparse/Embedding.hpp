// Embedding lookups in a dynamic sparse matrix (Graphcore's popsparse/Embedding.hpp): rows of the weights of a
// one-group FullyConnectedParams ([outputChannels, inputChannels]) read densely, and updates added to the non-zero
// values only.
#ifndef POPSPARSE_EMBEDDING_HPP
#define POPSPARSE_EMBEDDING_HPP

#include <cstddef>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseTensor.hpp>

namespace popsparse {
namespace dynamic {

/// The row indices: UNSIGNED_INT [numIndices].
poplar::Tensor createIndicesTensor(poplar::Graph &graph, const FullyConnectedParams &params, std::size_t numIndices,
                                   const poplar::OptionFlags &options = {},
                                   const poplar::DebugContext &debugContext = {});

/// Slices to read into or update from: [numIndices, params.getInputChannels()].
poplar::Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &dataType,
                                 const FullyConnectedParams &params, std::size_t numIndices,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The dense rows indices[k] of t (zeros where t has no non-zero): [indices.numElements(), inputChannels]. An
/// index past the last row gives a row of zeros.
poplar::Tensor embeddingSlice(poplar::Graph &graph, const SparseTensor &t, const poplar::Tensor &indices,
                              poplar::program::Sequence &prog, const FullyConnectedParams &params,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// t[indices[k]][i] += scale x slices[k][i] at the non-zero elements of t (others stay zero); equal indices
/// accumulate. scale: a one-element tensor of t's type or FLOAT.
void embeddingUpdateAdd(poplar::Graph &graph, const SparseTensor &t, const poplar::Tensor &slices,
                        const poplar::Tensor &indices, const poplar::Tensor &scale, poplar::program::Sequence &prog,
                        const FullyConnectedParams &params, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

} // namespace dynamic
} // namespace popsparse

#endif
