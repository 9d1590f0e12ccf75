// The operations of a reduction.
#ifndef POPOPS_OPERATION_HPP
#define POPOPS_OPERATION_HPP

namespace popops {

/// How a reduction combines elements (the values are also the tile code's opcodes).
enum class Operation {
  ADD,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< BOOL only
  LOGICAL_OR,  ///< BOOL only
  SQUARE_ADD   ///< the sum of squares
};

} // namespace popops

#endif // POPOPS_OPERATION_HPP
