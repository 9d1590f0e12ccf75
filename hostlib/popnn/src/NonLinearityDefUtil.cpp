// NonLinearityType to and from text.
#include "popnn/NonLinearityDefUtil.hpp"

#include <string>

#include "poputil/exceptions.hpp"

namespace popnn {

std::ostream &operator<<(std::ostream &os, const NonLinearityType &type) { return os << asString(type); }

std::istream &operator>>(std::istream &in, NonLinearityType &type) {
  static const struct {
    const char *token;
    NonLinearityType type;
  } kTokens[] = {{"relu", NonLinearityType::RELU},
                 {"sigmoid", NonLinearityType::SIGMOID},
                 {"hard_sigmoid", NonLinearityType::HARD_SIGMOID},
                 {"tanh", NonLinearityType::TANH},
                 {"gelu", NonLinearityType::GELU},
                 {"gelu_erf", NonLinearityType::GELU_ERF},
                 {"swish", NonLinearityType::SWISH},
                 {"softmax", NonLinearityType::SOFTMAX},
                 {"softmax_stable", NonLinearityType::SOFTMAX_STABLE},
                 {"softmax_scaled", NonLinearityType::SOFTMAX_SCALED}};
  std::string token;
  in >> token;
  for (const auto &t : kTokens)
    if (token == t.token) {
      type = t.type;
      return in;
    }
  throw poputil::poplibs_error("popnn: unsupported non-linearity type '" + token +
                               "' (known: relu, sigmoid, hard_sigmoid, tanh, gelu, gelu_erf, swish, softmax, "
                               "softmax_stable, softmax_scaled)");
}

} // namespace popnn
