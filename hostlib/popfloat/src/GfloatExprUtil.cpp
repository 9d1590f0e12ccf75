// The names of popfloat's gfloat enumerations and the Poplar type of each storage type.
#include "popfloat/experimental/GfloatExprUtil.hpp"

#include <iterator>

#include "poputil/exceptions.hpp"

namespace popfloat {
namespace experimental {

namespace {

// names[v] for an enumerator v of an enumeration whose values are 0, 1, ... in the order of `names`.
template <typename E, std::size_t N> std::string nameOf(E v, const char *const (&names)[N], const char *what) {
  const auto i = static_cast<std::size_t>(v);
  if (i >= N)
    throw poputil::poplibs_error(std::string("popfloat: ") + std::to_string(i) + " is not a " + what);
  return names[i];
}

} // namespace

std::string roundTypeToString(RoundType rmode) {
  static const char *const kNames[] = {"INV", "RZ", "RN", "RA", "RU", "RD", "SR", "SX"};
  return nameOf(rmode, kNames, "RoundType");
}

std::string formatTypeToString(FormatType fmt) {
  static const char *const kNames[] = {"INVALID_FORMAT",     "IEEE_FP16",        "QUANTISED_FP32",
                                       "QUANTISED_FP16",     "MIN_NORM_ALIGN_GF8", "ONE_FIVE_TWO_GF8",
                                       "MAX_NORM_ALIGN_GF8", "BFLOAT16",         "NO_DENORM_GF16",
                                       "ENABLE_DENORM_GF16"};
  return nameOf(fmt, kNames, "FormatType");
}

std::string srDensityTypeToString(SRDensityType dist) {
  static const char *const kNames[] = {"INVALID",     "UNIFORM",           "NORMAL",       "TRUNCATED_NORMAL",
                                       "BERNOULLI",   "LOGISTIC",          "TRUNCATED_LOGISTIC", "LAPLACE",
                                       "TRUNCATED_LAPLACE", "LOGIT_NORMAL", "TRUNCATED_LOGIT_NORMAL"};
  return nameOf(dist, kNames, "SRDensityType");
}

std::string specTypeToString(SpecType specType) {
  static const char *const kNames[] = {"FP32", "BF16", "FP16", "INT8", "INT16", "INT32", "AUTO"};
  return nameOf(specType, kNames, "SpecType");
}

poplar::Type specTypeToPoplarType(SpecType specType) {
  switch (specType) {
  case SpecType::FP32:
  case SpecType::BF16: return poplar::FLOAT; // bfloat16 values are held in single precision
  case SpecType::FP16: return poplar::HALF;
  case SpecType::INT8: return poplar::SIGNED_CHAR;
  case SpecType::INT16: return poplar::SHORT;
  case SpecType::INT32: return poplar::INT;
  default:
    throw poputil::poplibs_error("popfloat::specTypeToPoplarType: " + specTypeToString(specType) +
                                 " names no single type; pick FP32, BF16, FP16, INT8, INT16 or INT32");
  }
}

} // namespace experimental
} // namespace popfloat
