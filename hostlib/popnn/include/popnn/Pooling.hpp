// Pooling over the field (spatial) dimensions of [batch, channels, field...] tensors (popnn::pooling::pool) and
// its input gradients, with strides, padding or truncation per field dimension, and the shape and cost helpers.
// Element type: FLOAT.
#ifndef POPNN_POOLING_HPP
#define POPNN_POOLING_HPP

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <popnn/PoolingDef.hpp>

namespace popnn {
namespace pooling {

/// One pooling operation. Every per-dimension vector has one entry per field dimension. Along dimension d,
/// output o reads the window of kernelShape[d] positions starting at o * stride[d] of the input with
/// inputTruncationOrPaddingLower[d] positions added before it and inputTruncationOrPaddingUpper[d] after it (a
/// negative value removes that many positions instead).
struct PoolParams {
  PoolingType poolingType;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::vector<unsigned> stride;
  std::vector<int> inputTruncationOrPaddingLower;
  std::vector<int> inputTruncationOrPaddingUpper;
  std::size_t numChannels;
  std::size_t batchSize;
  poplar::Type dType;

  PoolParams(PoolingType poolingType_, std::vector<std::size_t> inputFieldShape_,
             std::vector<std::size_t> kernelShape_, std::vector<unsigned> stride_,
             std::vector<int> inputTruncationOrPaddingLower_, std::vector<int> inputTruncationOrPaddingUpper_,
             std::size_t numChannels_, std::size_t batchSize_, poplar::Type dType_)
      : poolingType(poolingType_), inputFieldShape(std::move(inputFieldShape_)),
        kernelShape(std::move(kernelShape_)), stride(std::move(stride_)),
        inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower_)),
        inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper_)), numChannels(numChannels_),
        batchSize(batchSize_), dType(dType_) {}

  /// The number of field dimensions.
  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  /// The output's field shape (see getOutputFieldShape below).
  std::vector<std::size_t> getOutputFieldShape() const;
};

/// Prints the parameters on one line, for messages and logs.
std::ostream &operator<<(std::ostream &o, const PoolParams &params);

/// "max", "avg" or "sum".
const char *asString(const PoolingType &method);

/// Per field dimension: (input + paddings - kernel) / stride + 1, or 0 when the padded input is shorter than the
/// kernel. Throws poputil::poplibs_error when the per-dimension vectors do not all have one entry per field
/// dimension, or a stride or kernel size is 0.
std::vector<std::size_t> getOutputFieldShape(const PoolParams &params);

/// The floating-point operations of pool(): one per window element inside the input, plus one per output for
/// AVG (the division).
std::uint64_t getFwdFlops(const PoolParams &params);
/// The floating-point operations of poolInputGradient(): one per window element inside the input (two for MAX:
/// the comparison and the addition), plus one per output for AVG.
std::uint64_t getBwdFlops(const PoolParams &params);
/// A lower bound of pool()'s cycles: getFwdFlops spread perfectly over every worker of every tile, each doing
/// the target's vector width of dType per cycle.
double getFwdPerfectCycleCount(const poplar::Graph &graph, const PoolParams &params);
/// As getFwdPerfectCycleCount for getBwdFlops.
double getBwdPerfectCycleCount(const poplar::Graph &graph, const PoolParams &params);

/// The pooling of `in` ([batchSize, numChannels, inputFieldShape...], of params.dType) as a new tensor
/// [batchSize, numChannels, outputFieldShape...] mapped linearly over the tiles. Options:
/// `poolUseIntrospectiveMapping` (true, false; accepted for compatibility, the output is always mapped linearly).
/// Throws poputil::poplibs_error for a shape or type that does not match params, poplar::invalid_option for an
/// unknown option or value.
poplar::Tensor pool(poplar::Graph &graph, const PoolParams &params, const poplar::Tensor &in,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = poplar::OptionFlags());

/// The gradient at the input of pool() (any type) from the forward input `in`, its output `pooled` and the
/// gradient at the output `pooledGradient`, as a new tensor mapped like `in`. For MAX, each output's gradient
/// goes to every window position equal to the output (divided among them when useScaledGradient); AVG and SUM
/// ignore `in`, `pooled` and useScaledGradient.
poplar::Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &params, const poplar::Tensor &in,
                                 const poplar::Tensor &pooled, const poplar::Tensor &pooledGradient,
                                 bool useScaledGradient, poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// The gradient at the input of AVG or SUM pooling from the output gradient alone, as a new tensor
/// [batchSize, numChannels, inputFieldShape...] mapped linearly over the tiles. `fwdChansPerGroup` (the forward
/// input's channel grouping; 0 means 1) must divide numChannels. Throws poputil::poplibs_error for MAX pooling
/// (use the form above).
poplar::Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &params, const unsigned fwdChansPerGroup,
                                 const poplar::Tensor &pooledGradient, poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace pooling
} // namespace popnn

#endif // POPNN_POOLING_HPP
