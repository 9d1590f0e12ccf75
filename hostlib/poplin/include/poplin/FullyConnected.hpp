// The matrix products of a fully connected layer, for planning ahead: a layer of numGroups groups maps
// [batch, input] activations to [batch, output] with [input, output] weights; training adds the backward pass
// (the gradient at the input, output and input sizes swapped) and the weight update (batch and input swapped).
#ifndef POPLIN_FULLYCONNECTED_HPP
#define POPLIN_FULLYCONNECTED_HPP

#include <cstddef>
#include <utility>
#include <vector>

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>

#include "poplin/MatMul.hpp"

namespace poplin {
namespace fc {

/// The sizes of a fully connected layer.
struct FullyConnectedParams {
  std::size_t numGroups;
  std::size_t batchSize;
  std::size_t inputSize;
  std::size_t outputSize;
};

/// The grouped products of the layer with their options (matmulOptions with fullyConnectedPass set to the pass):
/// the forward pass ({G, batch, input} x {G, input, output}; INFERENCE_FWD when inferenceOnly, else TRAINING_FWD),
/// then, when training, the backward pass ({G, batch, output} x {G, output, input}; TRAINING_BWD) and the weight
/// update ({G, input, batch} x {G, batch, output}; TRAINING_WU). Pass them to preplan so that the layer's matMuls
/// find their plans in the cache.
std::vector<std::pair<MatMulParams, poplar::OptionFlags> >
getMatMulPrePlanParameters(FullyConnectedParams parameters, poplar::OptionFlags matmulOptions, poplar::Type type,
                           bool inferenceOnly);

} // namespace fc
} // namespace poplin

#endif // POPLIN_FULLYCONNECTED_HPP
