// Helpers around ConvParams: which input and kernel positions an output position reads, per field dimension, and
// the parameters of a convolution's backward passes (input gradient, weight update).
#ifndef POPLIN_CONVUTIL_HPP
#define POPLIN_CONVUTIL_HPP

#include <utility>

#include "poplin/ConvParams.hpp"

namespace poplin {

/// The size of `size` elements with dilation - 1 zeros between neighbours (0 for 0).
unsigned getDilatedSize(unsigned size, unsigned dilation);

/// The (untransformed) input index that output `outputIndex` multiplies with kernel index `kernelIndex` in field
/// dimension `dim`, or ~0U when that pair reads padding, a dilation zero, a truncated element, or the output index
/// is output padding.
unsigned getInputIndex(unsigned dim, unsigned outputIndex, unsigned kernelIndex, const ConvParams &params);

/// The kernel index that output `outputIndex` multiplies with input index `inputIndex` in dimension `dim`, or ~0U
/// when there is none.
unsigned getKernelIndex(unsigned dim, unsigned outputIndex, unsigned inputIndex, const ConvParams &params);

/// The smallest range [begin, end) within `outputRange` holding every output that reads kernel index
/// `kernelIndex` ({0, 0} when none does).
std::pair<unsigned, unsigned> getOutputRangeForKernelIndex(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                                           unsigned kernelIndex, const ConvParams &params);

/// The smallest range within `outputRange` holding every output that reads input index `inputIndex`.
std::pair<unsigned, unsigned> getOutputRangeForInputIndex(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                                          unsigned inputIndex, const ConvParams &params);

/// The smallest range within `outputRange` holding every output that reads a kernel index in `kernelIndexRange`.
std::pair<unsigned, unsigned> getOutputRangeForKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                                           std::pair<unsigned, unsigned> kernelIndexRange,
                                                           const ConvParams &params);

/// The smallest range within `outputRange` holding every output that reads an input index in `inputRange`.
std::pair<unsigned, unsigned> getOutputRangeForInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                                          std::pair<unsigned, unsigned> inputRange,
                                                          const ConvParams &params);

/// The smallest input range read by the outputs of `outputRange` with kernel index `kernelIndex` ({0, 0}: none).
std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            unsigned kernelIndex, const ConvParams &params);

/// The smallest kernel range the outputs of `outputRange` use with input index `inputIndex` ({0, 0}: none).
std::pair<unsigned, unsigned> getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                             unsigned inputIndex, const ConvParams &params);

/// The smallest input range read by the outputs of `outputRange` with the kernel indices of `kernelIndexRange`.
std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                            std::pair<unsigned, unsigned> kernelIndexRange,
                                            const ConvParams &params);

/// The smallest kernel range the outputs of `outputRange` use with the input indices of `inputRange`.
std::pair<unsigned, unsigned> getKernelRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                             std::pair<unsigned, unsigned> inputRange, const ConvParams &params);

/// getInputRange for the single output `outputIndex`.
inline std::pair<unsigned, unsigned> getInputRange(unsigned dim, unsigned outputIndex,
                                                   std::pair<unsigned, unsigned> kernelIndexRange,
                                                   const ConvParams &params) {
  return getInputRange(dim, std::make_pair(outputIndex, outputIndex + 1), kernelIndexRange, params);
}

/// The input range the single output `outputIndex` reads through the whole kernel.
inline std::pair<unsigned, unsigned> getInputRange(unsigned dim, unsigned outputIndex, const ConvParams &params) {
  return getInputRange(dim, outputIndex, std::make_pair(0u, unsigned(params.kernelShape[dim])), params);
}

/// The input range the outputs of `outputRange` read through the whole kernel.
inline std::pair<unsigned, unsigned> getInputRange(unsigned dim, std::pair<unsigned, unsigned> outputRange,
                                                   const ConvParams &params) {
  return getInputRange(dim, outputRange, std::make_pair(0u, unsigned(params.kernelShape[dim])), params);
}

/// The parameters of the convolution that computes the weight deltas of `fwdParams`: the forward input (its batch
/// as channels, its channels as batch) correlated with the forward output's gradient as the kernel; its output is
/// the kernel shape.
ConvParams getWeightUpdateParams(const ConvParams &fwdParams);

/// The parameters of the convolution that computes the gradient of `params`' input from the gradient of its
/// output: its input is the forward output's gradient {B, G*Co, out...}, its output the input gradient
/// {B, G*Ci, in...}; run it with convolution(..., transposeAndFlipWeights = true, ...) on the forward weights.
/// Every transform the forward supports (input and kernel truncation, dilation, padding and flip; output
/// truncation, stride and padding) has its gradient; throws poputil::poplibs_error when the output truncation keeps
/// no position of a dimension (the input gradient is then zero).
ConvParams getGradientParams(const ConvParams &params);

} // namespace poplin

#endif // POPLIN_CONVUTIL_HPP
