// Helpers around ConvParams: the parameters of a convolution's backward (input-gradient) pass.
#ifndef POPLIN_CONVUTIL_HPP
#define POPLIN_CONVUTIL_HPP

#include "poplin/ConvParams.hpp"

namespace poplin {

/// The parameters of the convolution that computes the gradient of `params`' input from the gradient of its
/// output: its input is the forward output's gradient {B, G*Co, out...}, its output the input gradient
/// {B, G*Ci, in...}; run it with convolution(..., transposeAndFlipWeights = true, ...) on the forward weights.
/// Supports input padding, kernel dilation and output stride; throws poputil::poplibs_error naming any other
/// transform (input truncation, dilation or flip, kernel truncation, padding or flip, output truncation or
/// padding).
ConvParams getGradientParams(const ConvParams &params);

} // namespace poplin

#endif // POPLIN_CONVUTIL_HPP
