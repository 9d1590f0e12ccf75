// The operations of popops expressions (popops::map and the element-wise functions). The numeric values are also
// the opcodes of the tile's expression interpreter, so only append new operations.
#ifndef POPOPS_EXPROP_HPP
#define POPOPS_EXPROP_HPP

namespace popops {
namespace expr {

/// Operations with one operand.
enum class UnaryOpType {
  ABSOLUTE,
  ASIN,
  BITWISE_NOT,
  CBRT,
  CEIL,
  COS,
  COUNT_LEADING_ZEROS,
  EXPONENT,
  EXPONENT_MINUS_ONE,
  FLOOR,
  INVERSE,
  IS_FINITE,
  IS_INF,
  IS_NAN,
  LOGARITHM,
  LOGARITHM_ONE_PLUS,
  LOGICAL_NOT,
  NEGATE,
  POPCOUNT,
  SIGNUM,
  SIN,
  TAN,
  TANH,
  ROUND,
  SQRT,
  SQUARE,
  SIGMOID,
  RSQRT,
  RELU,
  TRUNC,
  ERF,
  EXPONENT2,
  GELU_ERF,
  NEARBY_INT
};

/// Operations with two operands.
enum class BinaryOpType {
  ADD,
  ATAN2,
  BITWISE_AND,
  BITWISE_OR,
  BITWISE_XOR,
  BITWISE_XNOR,
  DIVIDE,
  EQUAL,
  GREATER_THAN_EQUAL,
  GREATER_THAN,
  LESS_THAN_EQUAL,
  LOGICAL_AND,
  LOGICAL_OR,
  LESS_THAN,
  MAXIMUM,
  MINIMUM,
  MULTIPLY,
  NOT_EQUAL,
  POWER,
  REMAINDER,
  SHIFT_LEFT,
  SHIFT_RIGHT,
  SHIFT_RIGHT_SIGN_EXTEND,
  SUBTRACT,
  INV_STD_DEV_TO_VARIANCE, ///< 1 / (a * a) - b: an inverse standard deviation a to a variance, b the epsilon
  VARIANCE_TO_INV_STD_DEV  ///< 1 / sqrt(a + b): a variance a to an inverse standard deviation, b the epsilon
};

/// Operations with three operands.
enum class TernaryOpType {
  CLAMP,  ///< clamp(a, lo = b, hi = c)
  SELECT  ///< c ? a : b
};

} // namespace expr
} // namespace popops

#endif // POPOPS_EXPROP_HPP
