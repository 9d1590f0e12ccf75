// Element-wise operations: popops::map over expression trees (one compute set per call, whatever the depth),
// and the named unary, binary and ternary functions with their in-place and with-output forms. Operands broadcast
// like numpy (trailing dimensions match or are 1); the result is mapped like the first operand of the result's
// shape, or linearly. Supported element types: FLOAT, INT, UNSIGNED_INT, BOOL.
#ifndef POPOPS_ELEMENTWISE_HPP
#define POPOPS_ELEMENTWISE_HPP

#include <iosfwd>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include "poputil/exceptions.hpp"

#include "popops/Expr.hpp"
#include "popops/ExprOp.hpp"

namespace popops {

/// The tensor of `expr` evaluated element-wise over `ts` (placeholder _i is ts[i-1]), computed by one compute set
/// appended to `prog`. Throws poputil::poplibs_error when shapes do not broadcast, a placeholder has no tensor, or
/// an operation does not apply to its operands' type.
poplar::Tensor map(poplar::Graph &graph, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = poplar::OptionFlags());
/// As map(), writing the result into ts[0] (which must have the broadcast shape and no aliased elements).
void mapInPlace(poplar::Graph &graph, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = poplar::OptionFlags());
/// As map(), writing the result into `out` (of the broadcast shape and the expression's type).
void mapWithOutput(poplar::Graph &graph, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                   const poplar::Tensor &out, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// Several expressions of the same tensors at once, one new tensor per expression (as map() of each); every
/// expression reads the operands as they were before the call.
std::vector<poplar::Tensor> map(poplar::Graph &graph, const std::vector<expr::Any> &exprs,
                                const std::vector<poplar::Tensor> &ts, poplar::program::Sequence &prog,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = poplar::OptionFlags());
/// As the map() of several expressions, writing expression i into ts[i]; every expression reads the operands as
/// they were before the call, so later results see no earlier writes.
void mapInPlace(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<poplar::Tensor> &ts,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                const poplar::OptionFlags &options = poplar::OptionFlags());
/// As the map() of several expressions, writing expression i into outs[i] (of the broadcast shape and the
/// expression's type); the operands are read as they were before the call, even when an output is one of them.
void mapWithOutput(poplar::Graph &graph, const std::vector<expr::Any> &exprs, const std::vector<poplar::Tensor> &ts,
                   const std::vector<poplar::Tensor> &outs, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// Writes to `os` the C++ source of a codelet (one vertex class, named GeneratedMap_<hash>) that computes `expr`
/// over `ts` as map does: fields in1 .. inN (operand i of ts[i-1]'s type; an operand of one element is used for
/// every output element, as a broadcast scalar) and out (of the expression's type), each element computed as
/// popops' map computes it. A program can add it with Graph::addCodelets and connect the operands as map would
/// broadcast them. `options` are map's (none changes the code). Throws poputil::poplibs_error when map would
/// refuse the expression over these operands.
void outputGeneratedCodelet(const poplar::Target &target, const expr::Expr &expr, const std::vector<poplar::Tensor> &ts,
                            const poplar::OptionFlags &options, std::ostream &os);

/// One operation as a map.
inline poplar::Tensor map(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &a,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return map(graph, expr::UnaryOp(op, expr::_1), {a}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a, const poplar::Tensor &b,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return map(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline poplar::Tensor map(poplar::Graph &graph, expr::TernaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, const poplar::Tensor &c, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return map(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &a,
                       poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapInPlace(graph, expr::UnaryOp(op, expr::_1), {a}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a, const poplar::Tensor &b,
                       poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapInPlace(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, prog, debugContext, options);
}
inline void mapInPlace(poplar::Graph &graph, expr::TernaryOpType op, const poplar::Tensor &a, const poplar::Tensor &b,
                       const poplar::Tensor &c, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {},
                       const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapInPlace(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, prog, debugContext, options);
}
/// One operation as a map written into `out`.
inline void mapWithOutput(poplar::Graph &graph, expr::UnaryOpType op, const poplar::Tensor &in,
                          const poplar::Tensor &out, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapWithOutput(graph, expr::UnaryOp(op, expr::_1), {in}, out, prog, debugContext, options);
}
inline void mapWithOutput(poplar::Graph &graph, expr::BinaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, const poplar::Tensor &out, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapWithOutput(graph, expr::BinaryOp(op, expr::_1, expr::_2), {a, b}, out, prog, debugContext, options);
}
inline void mapWithOutput(poplar::Graph &graph, expr::TernaryOpType op, const poplar::Tensor &a,
                          const poplar::Tensor &b, const poplar::Tensor &c, const poplar::Tensor &out,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapWithOutput(graph, expr::TernaryOp(op, expr::_1, expr::_2, expr::_3), {a, b, c}, out, prog, debugContext,
                options);
}

// The named operations: f(graph, a, [b, [c,]] prog, debugContext, options) returns a new tensor; fInPlace writes
// into a; fWithOutput writes into out. Binary functions also take a constant for b.
#define POPOPS_UNARY_FN(name, Op)                                                                                      \
  inline poplar::Tensor name(poplar::Graph &graph, const poplar::Tensor &a, poplar::program::Sequence &prog,           \
                             const poplar::DebugContext &debugContext = {},                                            \
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {                             \
    return map(graph, expr::UnaryOpType::Op, a, prog, debugContext, options);                                          \
  }                                                                                                                    \
  inline void name##InPlace(poplar::Graph &graph, const poplar::Tensor &a, poplar::program::Sequence &prog,            \
                            const poplar::DebugContext &debugContext = {},                                             \
                            const poplar::OptionFlags &options = poplar::OptionFlags()) {                              \
    mapInPlace(graph, expr::UnaryOpType::Op, a, prog, debugContext, options);                                          \
  }                                                                                                                    \
  inline void name##WithOutput(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &out,               \
                               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},         \
                               const poplar::OptionFlags &options = poplar::OptionFlags()) {                           \
    mapWithOutput(graph, expr::UnaryOp(expr::UnaryOpType::Op, expr::_1), {a}, out, prog, debugContext, options);       \
  }
POPOPS_UNARY_FN(abs, ABSOLUTE)
POPOPS_UNARY_FN(asin, ASIN)
POPOPS_UNARY_FN(bitwiseNot, BITWISE_NOT)
POPOPS_UNARY_FN(cbrt, CBRT)
POPOPS_UNARY_FN(ceil, CEIL)
POPOPS_UNARY_FN(cos, COS)
POPOPS_UNARY_FN(countLeadingZeros, COUNT_LEADING_ZEROS)
POPOPS_UNARY_FN(exp, EXPONENT)
POPOPS_UNARY_FN(expm1, EXPONENT_MINUS_ONE)
POPOPS_UNARY_FN(floor, FLOOR)
POPOPS_UNARY_FN(inv, INVERSE)
POPOPS_UNARY_FN(isFinite, IS_FINITE)
POPOPS_UNARY_FN(isInf, IS_INF)
POPOPS_UNARY_FN(isNaN, IS_NAN)
POPOPS_UNARY_FN(log, LOGARITHM)
POPOPS_UNARY_FN(log1p, LOGARITHM_ONE_PLUS)
POPOPS_UNARY_FN(logicalNot, LOGICAL_NOT)
POPOPS_UNARY_FN(neg, NEGATE)
POPOPS_UNARY_FN(popcount, POPCOUNT)
POPOPS_UNARY_FN(signum, SIGNUM)
POPOPS_UNARY_FN(sin, SIN)
POPOPS_UNARY_FN(tan, TAN)
POPOPS_UNARY_FN(tanh, TANH)
POPOPS_UNARY_FN(round, ROUND)
POPOPS_UNARY_FN(sqrt, SQRT)
POPOPS_UNARY_FN(square, SQUARE)
POPOPS_UNARY_FN(sigmoid, SIGMOID)
POPOPS_UNARY_FN(rsqrt, RSQRT)
POPOPS_UNARY_FN(relu, RELU)
POPOPS_UNARY_FN(trunc, TRUNC)
POPOPS_UNARY_FN(erf, ERF)
POPOPS_UNARY_FN(exp2, EXPONENT2)
POPOPS_UNARY_FN(geluErf, GELU_ERF)
POPOPS_UNARY_FN(nearbyint, NEARBY_INT)
#undef POPOPS_UNARY_FN

/// Checks that a constant of C++ type `constType` may be an operand of a tensor of `elementType` in the
/// constant forms of the binary functions: the constant's device type must be the tensor's, except that a float
/// or double constant serves FLOAT and HALF tensors. Throws poputil::poplibs_error naming both types otherwise.
template <typename constType> inline void checkTypes(poplar::Type elementType, constType) {
  const poplar::Type constantType = poplar::equivalent_device_type<constType>().value;
  if (elementType != constantType)
    throw poputil::poplibs_error("popops: a constant of type " + constantType.toString() +
                                 " cannot be an operand of a tensor of " + elementType.toString() +
                                 "; pass the constant as the tensor's C++ type, or cast the tensor first");
}
/// Floating constants: FLOAT and HALF tensors only.
template <> inline void checkTypes<float>(poplar::Type elementType, float) {
  if (elementType != poplar::FLOAT && elementType != poplar::HALF)
    throw poputil::poplibs_error("popops: a float constant cannot be an operand of a tensor of " +
                                 elementType.toString() + "; pass the constant as the tensor's C++ type");
}
template <> inline void checkTypes<double>(poplar::Type elementType, double) {
  if (elementType != poplar::FLOAT && elementType != poplar::HALF)
    throw poputil::poplibs_error("popops: a double constant cannot be an operand of a tensor of " +
                                 elementType.toString() + "; pass the constant as the tensor's C++ type");
}

// The binary forms with a constant operand check its type against the tensor's (checkTypes) where Graphcore's
// with-output forms do; the returning and in-place forms keep their conversion of the constant.
#define POPOPS_BINARY_FN(name, Op)                                                                                     \
  inline poplar::Tensor name(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,                   \
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},           \
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {                             \
    return map(graph, expr::BinaryOpType::Op, a, b, prog, debugContext, options);                                      \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value, poplar::Tensor>::type name(                                    \
      poplar::Graph &graph, const poplar::Tensor &a, T b, poplar::program::Sequence &prog,                             \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(b)), {a}, prog, debugContext,       \
               options);                                                                                               \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value, poplar::Tensor>::type name(                                    \
      poplar::Graph &graph, T a, const poplar::Tensor &b, poplar::program::Sequence &prog,                             \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::Const(a), expr::_1), {b}, prog, debugContext,       \
               options);                                                                                               \
  }                                                                                                                    \
  inline void name##InPlace(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,                    \
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},            \
                            const poplar::OptionFlags &options = poplar::OptionFlags()) {                              \
    mapInPlace(graph, expr::BinaryOpType::Op, a, b, prog, debugContext, options);                                      \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##InPlace(                                           \
      poplar::Graph &graph, const poplar::Tensor &a, T b, poplar::program::Sequence &prog,                             \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    mapInPlace(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(b)), {a}, prog, debugContext,       \
               options);                                                                                               \
  }                                                                                                                    \
  inline void name##WithOutput(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,                 \
                               const poplar::Tensor &out, poplar::program::Sequence &prog,                             \
                               const poplar::DebugContext &debugContext = {},                                          \
                               const poplar::OptionFlags &options = poplar::OptionFlags()) {                           \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::_2), {a, b}, out, prog, debugContext,  \
                  options);                                                                                            \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##WithOutput(                                        \
      poplar::Graph &graph, const poplar::Tensor &a, T b, const poplar::Tensor &out, poplar::program::Sequence &prog,  \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    checkTypes(a.elementType(), b);                                                                                    \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(b)), {a}, out, prog,             \
                  debugContext, options);                                                                              \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##WithOutput(                                        \
      poplar::Graph &graph, T a, const poplar::Tensor &b, const poplar::Tensor &out, poplar::program::Sequence &prog,  \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    checkTypes(b.elementType(), a);                                                                                    \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::Const(a), expr::_1), {b}, out, prog,             \
                  debugContext, options);                                                                              \
  }
POPOPS_BINARY_FN(add, ADD)
POPOPS_BINARY_FN(atan2, ATAN2)
POPOPS_BINARY_FN(bitwiseAnd, BITWISE_AND)
POPOPS_BINARY_FN(bitwiseOr, BITWISE_OR)
POPOPS_BINARY_FN(bitwiseXor, BITWISE_XOR)
POPOPS_BINARY_FN(bitwiseXnor, BITWISE_XNOR)
POPOPS_BINARY_FN(div, DIVIDE)
POPOPS_BINARY_FN(eq, EQUAL)
POPOPS_BINARY_FN(gteq, GREATER_THAN_EQUAL)
POPOPS_BINARY_FN(gt, GREATER_THAN)
POPOPS_BINARY_FN(lteq, LESS_THAN_EQUAL)
POPOPS_BINARY_FN(logicalAnd, LOGICAL_AND)
POPOPS_BINARY_FN(logicalOr, LOGICAL_OR)
POPOPS_BINARY_FN(lt, LESS_THAN)
POPOPS_BINARY_FN(max, MAXIMUM)
POPOPS_BINARY_FN(min, MINIMUM)
POPOPS_BINARY_FN(mul, MULTIPLY)
POPOPS_BINARY_FN(neq, NOT_EQUAL)
POPOPS_BINARY_FN(pow, POWER)
POPOPS_BINARY_FN(rem, REMAINDER)
POPOPS_BINARY_FN(shiftLeft, SHIFT_LEFT)
POPOPS_BINARY_FN(shiftRight, SHIFT_RIGHT)
POPOPS_BINARY_FN(shiftRightSignExtend, SHIFT_RIGHT_SIGN_EXTEND)
POPOPS_BINARY_FN(sub, SUBTRACT)
#undef POPOPS_BINARY_FN

// Variance <-> inverse standard deviation (batch norm statistics): varianceToInvStdDev gives 1 / sqrt(v + eps),
// invStdDevToVariance gives 1 / (s * s) - eps, element-wise on FLOAT or HALF tensors, eps a tensor (numpy
// broadcast, usually one element) or a constant. The forms that take a dstType convert the result: to HALF or the
// input's type for varianceToInvStdDev (default HALF), to FLOAT or the input's type for invStdDevToVariance
// (default FLOAT), so the statistics can be kept in float and their inverse in half. Throws poplibs_error for
// another dstType or a non-floating input.
poplar::Tensor varianceToInvStdDev(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &epsilon,
                                   poplar::program::Sequence &prog, const poplar::Type dstType = poplar::HALF,
                                   const poplar::DebugContext &debugContext = {});
poplar::Tensor varianceToInvStdDev(poplar::Graph &graph, const poplar::Tensor &src, const float epsilon,
                                   poplar::program::Sequence &prog, const poplar::Type dstType = poplar::HALF,
                                   const poplar::DebugContext &debugContext = {});
poplar::Tensor invStdDevToVariance(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &epsilon,
                                   poplar::program::Sequence &prog, const poplar::Type dstType = poplar::FLOAT,
                                   const poplar::DebugContext &debugContext = {});
poplar::Tensor invStdDevToVariance(poplar::Graph &graph, const poplar::Tensor &src, const float epsilon,
                                   poplar::program::Sequence &prog, const poplar::Type dstType = poplar::FLOAT,
                                   const poplar::DebugContext &debugContext = {});

// The map forms (result of the input's type), with the usual InPlace and WithOutput variants; either operand may
// be a constant.
#define POPOPS_STDDEV_FN(name, Op)                                                                                     \
  inline poplar::Tensor name(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &epsilon,             \
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},           \
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {                             \
    return map(graph, expr::BinaryOpType::Op, a, epsilon, prog, debugContext, options);                                \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value, poplar::Tensor>::type name(                                    \
      poplar::Graph &graph, const poplar::Tensor &a, const T epsilon, poplar::program::Sequence &prog,                 \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(epsilon)), {a}, prog,              \
               debugContext, options);                                                                                 \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value, poplar::Tensor>::type name(                                    \
      poplar::Graph &graph, const T a, const poplar::Tensor &epsilon, poplar::program::Sequence &prog,                 \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    return map(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::Const(a), expr::_1), {epsilon}, prog,              \
               debugContext, options);                                                                                 \
  }                                                                                                                    \
  inline void name##InPlace(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &epsilon,              \
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},            \
                            const poplar::OptionFlags &options = poplar::OptionFlags()) {                              \
    mapInPlace(graph, expr::BinaryOpType::Op, a, epsilon, prog, debugContext, options);                                \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##InPlace(                                           \
      poplar::Graph &graph, const poplar::Tensor &a, const T epsilon, poplar::program::Sequence &prog,                 \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = poplar::OptionFlags()) {     \
    mapInPlace(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(epsilon)), {a}, prog,              \
               debugContext, options);                                                                                 \
  }                                                                                                                    \
  inline void name##WithOutput(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &epsilon,           \
                               const poplar::Tensor &out, poplar::program::Sequence &prog,                             \
                               const poplar::DebugContext &debugContext = {},                                          \
                               const poplar::OptionFlags &options = poplar::OptionFlags()) {                           \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::_2), {a, epsilon}, out, prog,         \
                  debugContext, options);                                                                              \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##WithOutput(                                        \
      poplar::Graph &graph, const poplar::Tensor &a, const T epsilon, const poplar::Tensor &out,                       \
      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},                                  \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                    \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::_1, expr::Const(epsilon)), {a}, out, prog,      \
                  debugContext, options);                                                                              \
  }                                                                                                                    \
  template <typename T>                                                                                                \
  typename std::enable_if<std::is_arithmetic<T>::value>::type name##WithOutput(                                        \
      poplar::Graph &graph, const T a, const poplar::Tensor &epsilon, const poplar::Tensor &out,                       \
      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},                                  \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                    \
    mapWithOutput(graph, expr::BinaryOp(expr::BinaryOpType::Op, expr::Const(a), expr::_1), {epsilon}, out, prog,      \
                  debugContext, options);                                                                              \
  }
POPOPS_STDDEV_FN(varianceToInvStdDev, VARIANCE_TO_INV_STD_DEV)
POPOPS_STDDEV_FN(invStdDevToVariance, INV_STD_DEV_TO_VARIANCE)
#undef POPOPS_STDDEV_FN

/// clamp(a, lo, hi) element-wise.
inline poplar::Tensor clamp(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &lo,
                            const poplar::Tensor &hi, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return map(graph, expr::TernaryOpType::CLAMP, a, lo, hi, prog, debugContext, options);
}
/// clamp in place into a.
inline void clampInPlace(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &lo,
                         const poplar::Tensor &hi, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapInPlace(graph, expr::Clamp(expr::_1, expr::_2, expr::_3), {a, lo, hi}, prog, debugContext, options);
}
/// pred ? a : b element-wise (pred is BOOL).
inline poplar::Tensor select(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,
                             const poplar::Tensor &pred, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return map(graph, expr::TernaryOpType::SELECT, a, b, pred, prog, debugContext, options);
}
/// select in place into a.
inline void selectInPlace(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,
                          const poplar::Tensor &pred, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapInPlace(graph, expr::Select(expr::_1, expr::_2, expr::_3), {a, b, pred}, prog, debugContext, options);
}
/// clamp written into out (a tensor of a's shape and type).
inline void clampWithOutput(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &lo,
                            const poplar::Tensor &hi, const poplar::Tensor &out, poplar::program::Sequence &prog,
                            const poplar::DebugContext &debugContext = {},
                            const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapWithOutput(graph, expr::Clamp(expr::_1, expr::_2, expr::_3), {a, lo, hi}, out, prog, debugContext, options);
}
/// select written into out (a tensor of a's shape and type).
inline void selectWithOutput(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b,
                             const poplar::Tensor &pred, const poplar::Tensor &out, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {
  mapWithOutput(graph, expr::Select(expr::_1, expr::_2, expr::_3), {a, b, pred}, out, prog, debugContext, options);
}

} // namespace popops

#endif // POPOPS_ELEMENTWISE_HPP
