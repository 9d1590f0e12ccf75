// The operations of a reduction (the enumeration alone: tile code includes it).
#ifndef POPOPS_OPERATIONDEF_HPP
#define POPOPS_OPERATIONDEF_HPP

namespace popops {

/// How a reduction combines elements (the values are also the tile code's opcodes).
enum class Operation {
  ADD,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< BOOL only
  LOGICAL_OR,  ///< BOOL only
  SQUARE_ADD,  ///< the sum of squares
  LOG_ADD      ///< FLOAT/HALF log-probabilities: acc = log(exp(acc) + exp(x)); a scale adds, an update log-adds
};

} // namespace popops

#endif // POPOPS_OPERATIONDEF_HPP
