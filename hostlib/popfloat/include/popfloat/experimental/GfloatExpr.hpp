// The enumerations that describe a gfloat (generic float) cast in PopLibs' experimental float library: the
// rounding, the format, the noise density of stochastic rounding and the type the result is stored in.
#ifndef POPFLOAT_EXPERIMENTAL_GFLOATEXPR_HPP
#define POPFLOAT_EXPERIMENTAL_GFLOATEXPR_HPP

namespace popfloat {
namespace experimental {

/// How a value is rounded to the format.
enum class RoundType {
  INV, ///< invalid
  RZ,  ///< toward zero
  RN,  ///< to nearest, ties to even
  RA,  ///< to nearest, ties away from zero
  RU,  ///< toward +infinity
  RD,  ///< toward -infinity
  SR,  ///< stochastic, with as many random bits as the format drops
  SX   ///< stochastic with fewer random bits
};

/// The gfloat formats.
enum class FormatType {
  INVALID_FORMAT,     ///< invalid
  IEEE_FP16,          ///< IEEE half
  QUANTISED_FP32,     ///< a generic float held in an IEEE single
  QUANTISED_FP16,     ///< a generic float held in an IEEE half
  MIN_NORM_ALIGN_GF8, ///< 8 bits with fewer than 5 exponent bits
  ONE_FIVE_TWO_GF8,   ///< 8 bits: sign, 5 exponent, 2 mantissa, with infinities and NaNs
  MAX_NORM_ALIGN_GF8, ///< 1/5/2 without infinities and NaNs
  BFLOAT16,           ///< sign, 8 exponent, 7 mantissa
  NO_DENORM_GF16,     ///< a 16-bit format without denormals
  ENABLE_DENORM_GF16  ///< a 16-bit format with denormals
};

/// The distribution of the noise stochastic rounding adds.
enum class SRDensityType {
  INVALID,               ///< invalid
  UNIFORM,               ///< uniform
  NORMAL,                ///< normal
  TRUNCATED_NORMAL,      ///< truncated normal
  BERNOULLI,             ///< Bernoulli
  LOGISTIC,              ///< logistic
  TRUNCATED_LOGISTIC,    ///< truncated logistic
  LAPLACE,               ///< Laplace
  TRUNCATED_LAPLACE,     ///< truncated Laplace
  LOGIT_NORMAL,          ///< logit-normal
  TRUNCATED_LOGIT_NORMAL ///< truncated logit-normal
};

/// The type a cast's result is stored in (see specTypeToPoplarType).
enum class SpecType {
  FP32,  ///< FLOAT
  BF16,  ///< bfloat16 values, held in FLOAT
  FP16,  ///< HALF
  INT8,  ///< SIGNED_CHAR
  INT16, ///< SHORT
  INT32, ///< INT
  AUTO   ///< the smallest type that holds the format
};

} // namespace experimental
} // namespace popfloat

#endif // POPFLOAT_EXPERIMENTAL_GFLOATEXPR_HPP
