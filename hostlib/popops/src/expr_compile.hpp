// Internal: turns a popops expression tree into the MapInterpreter's code (codelets/map_code.h), inferring the
// element type of every node from the operands' types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <poplar/Type.hpp>

#include "popops/Expr.hpp"

namespace popops::detail {

/// The interpreter's code for one expression.
struct CompiledExpr {
  std::vector<std::uint32_t> code; ///< header and instructions
  poplar::Type resultType;
  /// For each operand (placeholder index - 1): its value-type list and its index in that list.
  std::vector<unsigned> operandList, operandIndex;
};

/// The interpreter's value type (mapcode::ValueType) of `t`; throws poplibs_error naming `what` for a type the
/// tile code does not handle.
unsigned valueTypeOf(const poplar::Type &t, const std::string &what);

/// Compiles `e` over operands of `types`. Throws poplibs_error for a placeholder without an operand, operands of
/// different types in one operation, an operation that does not apply to its type, or too deep an expression.
CompiledExpr compileExpr(const expr::Expr &e, const std::vector<poplar::Type> &types, const std::string &what);

} // namespace popops::detail
