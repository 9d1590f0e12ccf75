// The non-linearities of popnn. Only the enumeration: also included by the tile codelets, which switch on it.
#ifndef POPNN_NONLINEARITYDEF_HPP
#define POPNN_NONLINEARITYDEF_HPP

namespace popnn {

/// A non-linearity applied by popnn::nonLinearity. The numeric values are also the codelets' operation codes.
enum class NonLinearityType {
  /// y = 1 / (1 + e^-x)
  SIGMOID,
  /// y = max(0, min(1, 0.2 x + 0.5))
  HARD_SIGMOID,
  /// y = max(x, 0)
  RELU,
  /// y = tanh(x)
  TANH,
  /// y = x * Phi(x), Phi(x) approximated as 0.5 (1 + tanh(0.7978845608 x (1 + 0.044715 x^2)))
  GELU,
  /// y = x * Phi(x) with the exact Phi(x) = 0.5 (1 + erf(x / sqrt(2)))
  GELU_ERF,
  /// y = x * sigmoid(x)
  SWISH,
  /// y = e^x / sum(e^x) over the innermost dimension (outer dimensions independent)
  SOFTMAX,
  /// As SOFTMAX, computed as e^(x - max x) / sum(e^(x - max x)) so that large inputs do not overflow
  SOFTMAX_STABLE,
  /// As SOFTMAX_STABLE with the outputs multiplied by a scale (returned through nonLinearityScaling) for more
  /// dynamic range in low-precision outputs
  SOFTMAX_SCALED
};

} // namespace popnn

#endif // POPNN_NONLINEARITYDEF_HPP
