// Text forms of popnn::NonLinearityType: writing its name (as asString gives it) and reading a command-line token.
#ifndef POPNN_NONLINEARITYDEFUTIL_HPP
#define POPNN_NONLINEARITYDEFUTIL_HPP

#include <istream>
#include <ostream>

#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDef.hpp>

namespace popnn {

/// Writes asString(type), e.g. "relu" or "softmax (stable)".
std::ostream &operator<<(std::ostream &os, const NonLinearityType &type);
/// Reads one token: relu, sigmoid, hard_sigmoid, tanh, gelu, gelu_erf, swish, softmax, softmax_stable or
/// softmax_scaled. Throws poputil::poplibs_error naming any other token.
std::istream &operator>>(std::istream &in, NonLinearityType &type);

} // namespace popnn

#endif // POPNN_NONLINEARITYDEFUTIL_HPP
