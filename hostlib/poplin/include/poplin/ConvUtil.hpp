// Helpers around ConvParams: the parameters of a convolution's backward (input-gradient) pass.
#ifndef POPLIN_CONVUTIL_HPP
#define POPLIN_CONVUTIL_HPP

#include "poplin/ConvParams.hpp"

namespace poplin {

/// The parameters of the convolution that computes the gradient of `params`' input from the gradient of its
/// output: its input is the forward output's gradient {B, G*Co, out...}, its output the input gradient
/// {B, G*Ci, in...}; run it with convolution(..., transposeAndFlipWeights = true, ...) on the forward weights.
/// Every transform the forward supports (input and kernel truncation, dilation, padding and flip; output
/// truncation, stride and padding) has its gradient; throws poputil::poplibs_error when the output truncation keeps
/// no position of a dimension (the input gradient is then zero).
ConvParams getGradientParams(const ConvParams &params);

} // namespace poplin

#endif // POPLIN_CONVUTIL_HPP
